// CPU tests of the per-word logic that the bit-per-cell, packet and tiled kernels share with
// their GPU versions (bit_word.hpp, tile_border.hpp, bit_layout.hpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>
#include <set>

#include "life/bit_layout.hpp"
#include "life/bit_word.hpp"
#include "life/engine.hpp"
#include "life/rule.hpp"
#include "life/tile_border.hpp"

namespace flocklife::life {

namespace {
const Rule kRules[] = {Rule::parse("B3/S23"), Rule::parse("B36/S23"), Rule::parse("B3678/S34678"), Rule::parse("B2/S"),
                       Rule::parse("B0123478/S01234678"), Rule::parse("B0/S8")};

/// Word of n 0/1 cells (bit per cell) expanded to packet bytes.
std::uint64_t toPacket(std::uint32_t bitsWord, int n) {
  std::uint64_t p = 0;
  for (int j = 0; j < n; ++j) p |= std::uint64_t((bitsWord >> j) & 1u) << (8 * j);
  return p;
}
}  // namespace

TEST(BitWord, LowMaskCoversZeroToFullWidth) {
  EXPECT_EQ(bits::lowMask<std::uint64_t>(0), 0u);
  EXPECT_EQ(bits::lowMask<std::uint64_t>(5), 31u);
  EXPECT_EQ(bits::lowMask<std::uint64_t>(64), ~std::uint64_t(0));
  EXPECT_EQ(bits::lowMask<std::uint32_t>(32), ~std::uint32_t(0));
}

TEST(BitWord, AdderCountsEveryNeighbourCombination) {
  for (unsigned m = 0; m < 256; ++m) {
    auto b = [m](int i) { return std::uint32_t((m >> i) & 1u); };
    const bits::RowPlanes<std::uint32_t> up{b(0), b(1), b(2)}, mid{b(3), 1u, b(4)}, down{b(5), b(6), b(7)};
    const auto c = bits::countNeighbours(up, mid, down);
    const unsigned count = c.b0 + 2 * c.b1 + 4 * c.b2 + 8 * c.b3;
    EXPECT_EQ(count, unsigned(__builtin_popcount(m))) << "neighbours " << m;
    EXPECT_LE(c.b0 | c.b1 | c.b2 | c.b3, 1u);
  }
}

TEST(BitWord, ApplyRuleMatchesRuleNextForEveryLifeLikeRule) {
  // Bit position 9 * alive + n holds the case (alive, n); one call checks all 18 cases of a rule.
  bits::CountPlanes<std::uint32_t> planes{0, 0, 0, 0};
  std::uint32_t alive = 0;
  for (int a = 0; a < 2; ++a)
    for (int n = 0; n <= 8; ++n) {
      const int pos = 9 * a + n;
      planes.b0 |= std::uint32_t(n & 1) << pos;
      planes.b1 |= std::uint32_t((n >> 1) & 1) << pos;
      planes.b2 |= std::uint32_t((n >> 2) & 1) << pos;
      planes.b3 |= std::uint32_t((n >> 3) & 1) << pos;
      alive |= std::uint32_t(a) << pos;
    }
  int failures = 0;
  for (std::uint32_t birth = 0; birth < 512; ++birth)
    for (std::uint32_t survive = 0; survive < 512; ++survive) {
      const Rule rule{std::uint16_t(birth), std::uint16_t(survive)};
      const std::uint32_t got = bits::applyRule(planes, alive, rule.birthMask, rule.surviveMask);
      for (int a = 0; a < 2; ++a)
        for (int n = 0; n <= 8; ++n)
          if (int((got >> (9 * a + n)) & 1u) != rule.next(a, n) && failures++ < 5)
            ADD_FAILURE() << rule.str() << " alive " << a << " n " << n;
    }
  EXPECT_EQ(failures, 0);
}

TEST(BitWord, Lut6x3EntryAgreesWithTheAdderOnEveryIndex) {
  for (const Rule& rule : kRules)
    for (std::uint32_t idx = 0; idx < std::uint32_t(bits::kLut6x3Entries); ++idx) {
      auto row = [idx](int r) {
        const std::uint32_t w = (idx >> (6 * r)) & 63u;
        return bits::RowPlanes<std::uint32_t>{w << 1, w, w >> 1};
      };
      const std::uint32_t next = bits::nextWord(row(0), row(1), row(2), rule.birthMask, rule.surviveMask);
      const std::uint32_t entry = bits::lut6x3Entry(idx, rule.birthMask, rule.surviveMask);
      ASSERT_EQ(entry, (next >> 1) & 15u) << rule.str() << " index " << idx;
    }
}

TEST(BitWord, PackedLut6x3ReturnsEveryEntry) {
  const Rule rule = Rule::parse("B36/S23");
  std::vector<std::uint32_t> words(bits::kLut6x3PackedWords);
  for (std::uint32_t k = 0; k < words.size(); ++k) words[k] = bits::lut6x3PackedWord(k, rule.birthMask, rule.surviveMask);
  const bits::PackedLut6x3 lookup{words.data()};
  for (std::uint32_t idx = 0; idx < std::uint32_t(bits::kLut6x3Entries); ++idx)
    ASSERT_EQ(lookup(idx), bits::lut6x3Entry(idx, rule.birthMask, rule.surviveMask)) << idx;
}

TEST(BitWord, LutCountAndPacketEvaluationsAgreeOnRandomBytesAndSeams) {
  std::mt19937 rng(7);
  for (const Rule& rule : kRules) {
    const bits::CountEval<std::uint32_t> count{rule.birthMask, rule.surviveMask};
    std::vector<std::uint8_t> table(bits::kLut6x3Entries);
    for (std::uint32_t i = 0; i < table.size(); ++i) table[i] = bits::lut6x3Entry(i, rule.birthMask, rule.surviveMask);
    auto lookup = [&table](std::uint32_t i) { return table[i]; };
    const bits::Lut6x3Eval<decltype(lookup)> lut{lookup};
    const bits::PacketEval packet{rule.birthMask, rule.surviveMask};
    for (int trial = 0; trial < 20000; ++trial) {
      const int valid = 1 + int(rng() % 8);
      bits::WordView<std::uint32_t> v[3];
      bits::WordView<std::uint64_t> p[3];
      for (int r = 0; r < 3; ++r) {
        v[r] = {std::uint32_t(rng() & 255u), std::uint32_t(rng() & 1u), std::uint32_t(rng() & 1u), valid};
        // Bits (lanes) past `valid` keep their random values: padding must not leak in.
        p[r] = {toPacket(v[r].cur, 8), v[r].prevCell, v[r].nextCell, valid};
      }
      const std::uint32_t mask = bits::lowMask<std::uint32_t>(valid);
      const std::uint32_t a = count(v[0], v[1], v[2]) & mask;
      ASSERT_EQ(lut(v[0], v[1], v[2]) & mask, a) << rule.str() << " valid " << valid;
      ASSERT_EQ(packet(p[0], p[1], p[2]) & bits::lowMask<std::uint64_t>(8 * valid), toPacket(a, valid))
          << rule.str() << " valid " << valid;
    }
  }
}

TEST(BitWord, RowPlanesRebuildTheSeamOfAShortLastWord) {
  // Row of 3 valid cells 1,0,1 with garbage padding; cell 0's left is cell 2, cell 2's right cell 0.
  const auto p = bits::rowPlanes<std::uint32_t>(0xF5u, 1u, 1u, 3);
  EXPECT_EQ(p.centre, 5u);
  EXPECT_EQ(p.left & 7u, 0b011u);   // left of cells 0,1,2: cell 2 (=1), cell 0 (=1), cell 1 (=0)
  EXPECT_EQ(p.right & 7u, 0b110u);  // right of cells 0,1,2: cell 1 (=0), cell 2 (=1), cell 0 (=1)
}

namespace {
/// One generation of `start` by bits::columnWalk over every word column and every strip of
/// rowsPerThread rows (the GPU column-walk kernels' thread mapping, run serially).
template <class S, class T, int kCellBits, class Eval>
void walkAll(const S* in, S* out, std::uint64_t pitch, std::uint64_t words, std::uint64_t height, int lastValid,
             std::uint64_t rowsPerThread, Eval eval) {
  for (std::uint64_t i = 0; i < words; ++i)
    for (std::uint64_t y0 = 0; y0 < height; y0 += rowsPerThread)
      bits::columnWalk<S, T, kCellBits>(in, out, pitch, words, height, lastValid, i, y0,
                                        std::min(y0 + rowsPerThread, height), eval);
}

World randomWorld(std::int64_t w, std::int64_t h, std::uint64_t seed) {
  World world(w, h);
  std::mt19937_64 rng(seed);
  for (auto& c : world.cells()) c = std::uint8_t(rng() >> 63);
  return world;
}

/// The packed bit-per-cell world viewed as words S (copied, so the words are aligned).
template <class S>
std::vector<S> packedWords(const World& world, const BitLayout& layout) {
  std::vector<std::uint8_t> bytes(layout.totalBytes());
  packWorld(world, layout, bytes.data());
  std::vector<S> words(bytes.size() / sizeof(S));
  std::memcpy(words.data(), bytes.data(), bytes.size());
  return words;
}

template <class S>
World unpackedWords(const std::vector<S>& words, const BitLayout& layout) {
  std::vector<std::uint8_t> bytes(words.size() * sizeof(S));
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return unpackWorld(bytes.data(), layout);
}
}  // namespace

TEST(ColumnWalk, ByteCellsPacketsAndLutWordsMatchTheSerialStepOnSmallTori) {
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1}, {1, 5}, {5, 1}, {7, 13}, {31, 33}, {63, 65}, {70, 9}};
  for (const Rule& rule : kRules) {
    std::vector<std::uint32_t> packed(bits::kLut6x3PackedWords);
    for (std::uint32_t k = 0; k < packed.size(); ++k) packed[k] = bits::lut6x3PackedWord(k, rule.birthMask, rule.surviveMask);
    std::uint8_t table18[18];
    for (int k = 0; k < 18; ++k) table18[k] = std::uint8_t(((k >= 9 ? rule.surviveMask : rule.birthMask) >> (k % 9)) & 1u);
    for (const auto& [w, h] : sizes)
      for (std::uint64_t rows : {1u, 3u, 16u}) {
        SCOPED_TRACE(rule.str() + " " + std::to_string(w) + "x" + std::to_string(h) + " rows " + std::to_string(rows));
        const World start = randomWorld(w, h, std::uint64_t(w * 1000 + h));
        const World want = stepSerial(start, rule, 1);
        const std::uint64_t W = std::uint64_t(w), H = std::uint64_t(h);

        World byteOut(w, h);
        std::fill(byteOut.cells().begin(), byteOut.cells().end(), std::uint8_t(0xFF));
        walkAll<std::uint8_t, std::uint32_t, 8>(start.cells().data(), byteOut.cells().data(), W, W, H, 1, rows,
                                                bits::ByteCellEval{rule.birthMask, rule.surviveMask});
        EXPECT_EQ(byteOut.cells(), want.cells()) << "byte cells, masks";
        std::fill(byteOut.cells().begin(), byteOut.cells().end(), std::uint8_t(0xFF));
        walkAll<std::uint8_t, std::uint32_t, 8>(start.cells().data(), byteOut.cells().data(), W, W, H, 1, rows,
                                                bits::ByteCellLutEval{table18});
        EXPECT_EQ(byteOut.cells(), want.cells()) << "byte cells, 2x9 table";

        const std::uint64_t pw = (W + 7) / 8;
        std::vector<std::uint64_t> pin(pw * H, 0), pout(pw * H, ~std::uint64_t(0));
        for (std::uint64_t y = 0; y < H; ++y) std::memcpy(&pin[y * pw], &start.cells()[y * W], W);
        walkAll<std::uint64_t, std::uint64_t, 8>(pin.data(), pout.data(), pw, pw, H, int(W - (pw - 1) * 8), rows,
                                                 bits::PacketEval{rule.birthMask, rule.surviveMask});
        World packetOut(w, h);
        for (std::uint64_t y = 0; y < H; ++y) std::memcpy(&packetOut.cells()[y * W], &pout[y * pw], W);
        EXPECT_EQ(packetOut.cells(), want.cells()) << "packet words";

        const BitLayout layout = BitLayout::of(w, h);
        const bits::PackedLut6x3 lookup{packed.data()};
        {
          const auto in = packedWords<std::uint8_t>(start, layout);
          std::vector<std::uint8_t> out(in.size(), 0xFF);
          walkAll<std::uint8_t, std::uint64_t, 1>(in.data(), out.data(), layout.pitchBytes, layout.wordsPerRow(8), H,
                                                  layout.lastValid(8), rows,
                                                  bits::Lut6x3WordEval<1, bits::PackedLut6x3>{lookup});
          EXPECT_EQ(unpackedWords(out, layout).cells(), want.cells()) << "6x3 table, byte words";
        }
        {
          const auto in = packedWords<std::uint32_t>(start, layout);
          std::vector<std::uint32_t> out(in.size(), ~0u);
          walkAll<std::uint32_t, std::uint64_t, 1>(in.data(), out.data(), layout.pitchBytes / 4, layout.wordsPerRow(32), H,
                                                   layout.lastValid(32), rows,
                                                   bits::Lut6x3WordEval<4, bits::PackedLut6x3>{lookup});
          EXPECT_EQ(unpackedWords(out, layout).cells(), want.cells()) << "6x3 table, 32-bit words";
        }
      }
  }
}

TEST(TileBorder, SlotsAndCellsAreABijectionOnEveryClippedTile) {
  const int tw = 32;
  for (int th : {1, 2, 8, 32})
    for (int cw = 1; cw <= tw; ++cw)
      for (int ch = 1; ch <= th; ++ch) {
        std::set<int> used;
        int border = 0;
        for (int ly = 0; ly < ch; ++ly)
          for (int lx = 0; lx < cw; ++lx) {
            const int s = tiles::borderSlot(lx, ly, cw, ch, tw, th);
            const bool isBorder = lx == 0 || ly == 0 || lx == cw - 1 || ly == ch - 1;
            ASSERT_EQ(s >= 0, isBorder) << cw << "x" << ch << " cell " << lx << "," << ly;
            if (s < 0) continue;
            ++border;
            ASSERT_LT(s, tiles::borderSlots(tw, th));
            ASSERT_TRUE(used.insert(s).second) << "slot used twice";
            int bx = -1, by = -1;
            ASSERT_TRUE(tiles::borderCell(s, cw, ch, tw, th, bx, by));
            ASSERT_EQ(bx, lx);
            ASSERT_EQ(by, ly);
          }
        int valid = 0;
        for (int s = 0; s < tiles::borderSlots(tw, th); ++s) {
          int bx, by;
          valid += tiles::borderCell(s, cw, ch, tw, th, bx, by);
        }
        ASSERT_EQ(valid, border) << cw << "x" << ch;
      }
}

TEST(TileBorder, WrapCoordIsModuloForHaloCoordinates) {
  EXPECT_EQ(tiles::wrapCoord(-1, 7), 6);
  EXPECT_EQ(tiles::wrapCoord(3, 7), 3);
  EXPECT_EQ(tiles::wrapCoord(7, 7), 0);
  EXPECT_EQ(tiles::wrapCoord(33, 7), 5);
  EXPECT_EQ(tiles::wrapCoord(-1, 1), 0);
  EXPECT_EQ(tiles::wrapCoord(5, 1), 0);
}

TEST(BitLayout, PackUnpackRoundTripsWithZeroPadding) {
  std::mt19937 rng(3);
  for (int w : {1, 7, 8, 9, 63, 64, 65, 130})
    for (int h : {1, 3}) {
      World world(w, h);
      for (auto& c : world.cells()) c = rng() & 1u;
      const BitLayout layout = BitLayout::of(w, h);
      EXPECT_EQ(layout.pitchBytes % 8, 0u);
      EXPECT_GE(layout.pitchBytes * 8, std::uint64_t(w));
      std::vector<std::uint8_t> packed(layout.totalBytes(), 0xAA);
      packWorld(world, layout, packed.data());
      for (int y = 0; y < h; ++y)
        for (std::uint64_t x = std::uint64_t(w); x < layout.pitchBytes * 8; ++x)
          ASSERT_EQ((packed[y * layout.pitchBytes + x / 8] >> (x % 8)) & 1, 0) << "padding bit " << x;
      EXPECT_EQ(unpackWorld(packed.data(), layout), world) << w << "x" << h;
      EXPECT_EQ(layout.lastValid(64), w - 64 * int(layout.wordsPerRow(64) - 1));
    }
}

}  // namespace flocklife::life
