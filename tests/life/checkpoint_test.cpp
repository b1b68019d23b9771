// Life checkpoints: exact round trip, and every damaged file refused with a message.
#include <gtest/gtest.h>

#include <cstdlib>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "life/checkpoint.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"

namespace flocklife::life {

TEST(LifeCheckpoint, RoundTripIsExactForOddSizesAndAnyRule) {
  for (auto [w, h] : {std::pair<int, int>{1, 1}, {7, 3}, {64, 48}, {33, 65}})
    for (const char* rule : {"B36/S23", "B0/S8", "B/S", "B012345678/S012345678"}) {
      LifeCheckpoint c{randomSoup(w, h, 0.4, 9), Rule::parse(rule), 123456789012345ull, 0x0123456789abcdefull};
      const LifeCheckpoint d = decodeCheckpoint(encodeCheckpoint(c), "t.ck");
      EXPECT_EQ(d.world, c.world) << w << "x" << h << " " << rule;
      EXPECT_EQ(d.rule, c.rule) << rule;
      EXPECT_EQ(d.generation, c.generation);
      EXPECT_EQ(d.start, c.start);
    }
  // The largest generation --gens can reach is kept; one past it cannot be resumed and is refused.
  const LifeCheckpoint last{randomSoup(5, 5, 0.4, 1), kConway, 9223372036854775807ull};
  EXPECT_EQ(decodeCheckpoint(encodeCheckpoint(last), "t.ck").generation, 9223372036854775807ull);
  try {
    decodeCheckpoint(encodeCheckpoint({randomSoup(5, 5, 0.4, 1), kConway, 9223372036854775808ull}), "far.ck");
    ADD_FAILURE() << "generation 2^63 was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("generation 9223372036854775808 out of range; expected at most 2^63 - 1"),
              std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("far.ck"), std::string::npos) << e.what();
  }
}

TEST(LifeCheckpoint, HalfRunCheckpointResumeEqualsTheFullRun) {
  const World start = randomSoup(40, 30, 0.35, 4);
  const World full = stepSerial(start, kConway, 60);
  const std::string bytes = encodeCheckpoint({stepSerial(start, kConway, 30), kConway, 30});
  const LifeCheckpoint c = decodeCheckpoint(bytes, "half.ck");
  EXPECT_EQ(stepSerial(c.world, c.rule, 60 - c.generation), full);
}

TEST(LifeCheckpoint, DamagedFilesAreRefusedWithTheReason) {
  const std::string good = encodeCheckpoint({randomSoup(13, 5, 0.5, 1), kConway, 7});
  auto message = [](const std::string& bytes) {
    try {
      decodeCheckpoint(bytes, "bad.ck");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message(good.substr(0, good.size() / 2)).find("checkpoint 'bad.ck': checksum mismatch"), std::string::npos);
  EXPECT_NE(message("x = 3, y = 3\nobo!\n").find("not a flocklife life checkpoint"), std::string::npos);
  std::string flipped = good;
  flipped[30] = char(flipped[30] ^ 1);
  EXPECT_NE(message(flipped).find("checksum mismatch"), std::string::npos);
}

TEST(LifeCheckpoint, ConsistentButWrongHeadersAreRefusedBeforeAllocating) {
  // A file with a valid checksum but a header declaring a huge world, or a size that does not
  // match the cells stored: refused by the size checks, not by an allocation.
  static constexpr char kMagic[8] = {'F', 'L', 'L', 'I', 'F', 'E', '0', '2'};
  auto forged = [](std::uint64_t w, std::uint64_t h, const std::string& cells, const std::string& rule = "B3/S23") {
    RecordWriter r(kMagic);
    r.u64(w);
    r.u64(h);
    r.u64(0);
    r.u64(0);  // start digest
    r.str(rule);
    r.bytes(cells);
    return r.finish();
  };
  auto message = [](const std::string& bytes) {
    try {
      decodeCheckpoint(bytes, "f.ck");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string two(2, '\0');
  EXPECT_EQ(message(forged(3, 3, two)), "accepted");  // 9 cells in 2 bytes
  EXPECT_NE(message(forged(2000000, 1000000, two)).find("world size 2000000x1000000 out of range"), std::string::npos);
  EXPECT_NE(message(forged(1000000, 1000000, two)).find("needs 125000000000 bytes of cells, the file has 2"),
            std::string::npos);  // 10^12 cells: within the format, refused by the file's length
  EXPECT_NE(message(forged(0, 5, "")).find("world size 0x5 out of range"), std::string::npos);
  EXPECT_NE(message(forged(100000, 100000, std::string(8, '\0'))).find("needs 1250000000 bytes of cells, the file has 8"),
            std::string::npos);
  EXPECT_NE(message(forged(3, 3, std::string("\0\x02", 2))).find("padding bits"), std::string::npos);
  EXPECT_NE(message(forged(3, 3, two, "B9/S23")).find("invalid rule"), std::string::npos);
  // A checkpoint of the first format (FLLIFE01: no start digest) is named as such.
  static constexpr char kFirst[8] = {'F', 'L', 'L', 'I', 'F', 'E', '0', '1'};
  EXPECT_EQ(message(RecordWriter(kFirst).finish()),
            "checkpoint 'f.ck': a flocklife life checkpoint of another format version ('FLLIFE01', this build reads "
            "'FLLIFE02'); resume it with the flocklife build that wrote it, or start anew");
}

/// startDigest tells worlds apart by every cell, the last of a world whose size is no multiple of 8
/// included, and the header carries it at kCheckpointStartAt.
TEST(LifeCheckpoint, StartDigestTellsStartsApart) {
  const World a = randomSoup(13, 5, 0.5, 1);
  World b = a;
  EXPECT_EQ(startDigest(a), startDigest(b));
  b.set(12, 4, b.at(12, 4) == 0);
  EXPECT_NE(startDigest(a), startDigest(b));
  const std::size_t cellsAt = checkpointHeader(13, 5, 0, kConway, 0).size();  // the 9 bytes of packed cells
  EXPECT_EQ(startDigest(a), fnv1a64(encodeCheckpoint({a, kConway, 0, 0}).data() + cellsAt, 9));
  const std::string head = checkpointHeader(13, 5, 7, kConway, startDigest(a));
  std::uint64_t stored = 0;
  for (int i = 7; i >= 0; --i) stored = stored << 8 | std::uint8_t(head[kCheckpointStartAt + std::size_t(i)]);
  EXPECT_EQ(stored, startDigest(a));
}

}  // namespace flocklife::life
