// Boids checkpoints: float bits survive, a resumed cpu-naive run is bit-identical, damaged files
// are refused with a message.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "boids/checkpoint.hpp"
#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"

namespace flocklife::boids {

namespace {

bool sameBits(const State& a, const State& b) {
  return a.size() == b.size() && std::memcmp(a.pos.data(), b.pos.data(), a.size() * sizeof(Vec3)) == 0 &&
         std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Vec3)) == 0;
}

std::string decodeError(const std::string& bytes) {
  try {
    decodeCheckpoint(bytes, "b.ck");
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST(BoidsCheckpoint, RoundTripKeepsParametersStepAndFloatBits) {
  Params p;
  p.scale = 37.25f;
  p.dt = 0.1f;
  p.periodic = true;
  p.rule3Scale = 0;
  BoidsCheckpoint c{p, randomState(257, p, 11), 987654321ull, 0xfedcba9876543210ull};
  c.state.vel[3] = {-0.0f, 1e-40f, -1e-38f};  // signed zero and subnormals
  const BoidsCheckpoint d = decodeCheckpoint(encodeCheckpoint(c), "b.ck");
  EXPECT_TRUE(sameBits(d.state, c.state));
  EXPECT_EQ(d.step, c.step);
  EXPECT_EQ(d.start, c.start);
  EXPECT_EQ(d.params.scale, p.scale);
  EXPECT_EQ(d.params.dt, p.dt);
  EXPECT_EQ(d.params.rule3Scale, 0.0f);
  EXPECT_TRUE(d.params.periodic);
  // The largest step --steps can reach is kept; one past it cannot be resumed and is refused (a
  // tester's file at 2^64 - 1 was read, and no --steps could continue it), as Life's generation is.
  const Params q;
  EXPECT_EQ(decodeCheckpoint(encodeCheckpoint({q, randomState(4, q, 1), 9223372036854775807ull}), "b.ck").step,
            9223372036854775807ull);
  const std::string far = decodeError(encodeCheckpoint({q, randomState(4, q, 1), 9223372036854775808ull}));
  EXPECT_NE(far.find("step 9223372036854775808 out of range; expected at most 2^63 - 1"), std::string::npos) << far;
  EXPECT_NE(far.find("b.ck"), std::string::npos) << far;
}

TEST(BoidsCheckpoint, HalfRunCheckpointResumeIsBitIdenticalOnCpuNaive) {
  const Params p;
  const State start = randomState(300, p, 5);
  auto full = makeSimulation("cpu-naive", p);
  full->load(start);
  full->step(20);
  auto first = makeSimulation("cpu-naive", p);
  first->load(start);
  first->step(10);
  const BoidsCheckpoint c = decodeCheckpoint(encodeCheckpoint({p, first->state(), 10}), "half.ck");
  auto second = makeSimulation("cpu-naive", c.params);
  second->load(c.state);
  second->step(20 - c.step);
  EXPECT_TRUE(sameBits(second->state(), full->state()));
}

TEST(BoidsCheckpoint, DamagedOrInconsistentFilesAreRefusedWithTheReason) {
  const Params p;
  const std::string good = encodeCheckpoint({p, randomState(10, p, 1), 3});
  EXPECT_NE(decodeError(good.substr(0, good.size() - 1)).find("checkpoint 'b.ck': checksum mismatch"), std::string::npos);
  EXPECT_NE(decodeError("x,y,z,vx,vy,vz\n1,2,3,4,5,6\n").find("not a flocklife boids checkpoint"), std::string::npos);

  // Consistent checksums, wrong contents.
  static constexpr char kMagic[8] = {'F', 'L', 'B', 'O', 'I', 'D', '0', '2'};
  auto forged = [](float dt, std::uint64_t n, std::size_t boidFloats, float coordinate) {
    RecordWriter w(kMagic);
    w.u64(0);
    w.u64(0);  // start digest
    const Params d;
    for (float v : {d.scale, d.rule1Distance, d.rule2Distance, d.rule3Distance, d.rule1Scale, d.rule2Scale,
                    d.rule3Scale, d.maxSpeed, dt})
      w.f32(v);
    w.u8(0);
    w.u64(n);
    for (std::size_t i = 0; i < boidFloats; ++i) w.f32(coordinate);
    return w.finish();
  };
  EXPECT_EQ(decodeError(forged(0.2f, 1, 6, 1.0f)), "accepted");
  EXPECT_NE(decodeError(forged(-0.2f, 1, 6, 1.0f)).find("invalid parameters: --dt"), std::string::npos);
  EXPECT_NE(decodeError(forged(0.2f, 0, 0, 1.0f)).find("boid count 0"), std::string::npos);
  EXPECT_NE(decodeError(forged(0.2f, 2000000000, 6, 1.0f)).find("needs 48000000000 bytes of boids, the file has 24"),
            std::string::npos);
  EXPECT_NE(decodeError(forged(0.2f, 1, 6, 500.0f)).find("outside"), std::string::npos);
  // A checkpoint of the first format (FLBOID01: no start digest) is named as such.
  static constexpr char kFirst[8] = {'F', 'L', 'B', 'O', 'I', 'D', '0', '1'};
  EXPECT_EQ(decodeError(RecordWriter(kFirst).finish()),
            "checkpoint 'b.ck': a flocklife boids checkpoint of another format version ('FLBOID01', this build reads "
            "'FLBOID02'); resume it with the flocklife build that wrote it, or start anew");
}

/// startDigest tells starts apart by every bit of every boid, and the header carries it at
/// kCheckpointStartAt.
TEST(BoidsCheckpoint, StartDigestTellsStartsApart) {
  const Params p;
  const State a = randomState(100, p, 1);
  State b = a;
  EXPECT_EQ(startDigest(a), startDigest(b));
  b.vel[99].z = std::nextafter(b.vel[99].z, 2.0f);
  EXPECT_NE(startDigest(a), startDigest(b));
  EXPECT_NE(startDigest(a), startDigest(randomState(100, p, 2)));
  const std::string head = checkpointHeader(p, 100, 5, startDigest(a));
  std::uint64_t stored = 0;
  for (int i = 7; i >= 0; --i) stored = stored << 8 | std::uint8_t(head[kCheckpointStartAt + std::size_t(i)]);
  EXPECT_EQ(stored, startDigest(a));
  EXPECT_EQ(encodeCheckpoint({p, a, 5, startDigest(a)}).compare(0, head.size(), head), 0);
}

}  // namespace flocklife::boids
