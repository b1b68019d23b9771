// CPU tests of the bit-sliced logic of the `fast` kernel (src/life/bitslice.hpp): the same FL_HD
// functions the CUDA kernel runs.
#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "life/bitslice.hpp"
#include "life/rule.hpp"

namespace flocklife::life {

namespace {

/// Cell of neighbourhood `n` (9 bits) at (dx, dy) in -1..1: bit 3 (dy + 1) + (dx + 1); bit 4 is the centre.
int cellOf(unsigned n, int dx, int dy) { return (n >> (3 * (dy + 1) + (dx + 1))) & 1u; }

/// Evaluates nextState() on all 2^9 neighbourhoods, 32 per word (one per bit lane), and compares
/// with Rule::next.
template <unsigned B, unsigned S>
void expectAllNeighbourhoods() {
  const Rule rule{std::uint16_t(B), std::uint16_t(S)};
  for (unsigned group = 0; group < 512 / 32; ++group) {
    std::uint32_t word[3][3] = {};  // [dx + 1][dy + 1]: the cell at that offset, per lane
    for (unsigned b = 0; b < 32; ++b)
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) word[dx + 1][dy + 1] |= std::uint32_t(cellOf(group * 32 + b, dx, dy)) << b;
    bits::Pair mid[3], sums[3];
    for (int c = 0; c < 3; ++c) {
      mid[c] = bits::verticalPair(word[c][0], word[c][2]);
      sums[c] = bits::columnSum(word[c][0], word[c][1], word[c][2]);
    }
    const std::uint32_t next = bits::nextState(bits::StaticRule<B, S>{}, sums[0], mid[1], sums[2], word[1][1]);
    for (unsigned b = 0; b < 32; ++b) {
      const unsigned n = group * 32 + b;
      int neighbours = 0;
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) neighbours += (dx || dy) ? cellOf(n, dx, dy) : 0;
      ASSERT_EQ(int((next >> b) & 1u), rule.next(cellOf(n, 0, 0), neighbours))
          << rule.str() << " neighbourhood " << n;
    }
  }
}

/// Pseudo-random 18-bit rule number i (a fixed LCG, so the rules are compile-time constants).
constexpr unsigned randomRule(unsigned i) { return ((i + 1u) * 2654435761u >> 7) & 0x3FFFFu; }

template <std::size_t... I>
void expectRandomRules(std::index_sequence<I...>) {
  (expectAllNeighbourhoods<(randomRule(I) & 0x1FFu), (randomRule(I) >> 9)>(), ...);
}

template <std::size_t... D>
void expectSingleDigitRules(std::index_sequence<D...>) {
  (expectAllNeighbourhoods<(1u << D), (1u << (8 - D))>(), ...);
}

}  // namespace

TEST(FastBitslice, StaticRulesMatchRuleNextOnAll512Neighbourhoods) {
  expectAllNeighbourhoods<8, 12>();     // B3/S23 (the hand-folded form)
  expectAllNeighbourhoods<72, 12>();    // B36/S23
  expectAllNeighbourhoods<456, 472>();  // B3678/S34678
  expectAllNeighbourhoods<4, 0>();      // B2/S
  expectAllNeighbourhoods<0x19F, 0x1DF>();  // B0123478/S01234678
  expectAllNeighbourhoods<1, 256>();    // B0/S8
  expectAllNeighbourhoods<0, 0x1FF>();  // B/S012345678
  expectAllNeighbourhoods<0x1FF, 0>();  // B012345678/S
  expectSingleDigitRules(std::make_index_sequence<9>{});
  expectRandomRules(std::make_index_sequence<24>{});
}

TEST(FastBitslice, StaticRuleMasksIndexLikeRule) {
  EXPECT_EQ((Rule{std::uint16_t(bits::StaticRule<72, 12>::kBirth), std::uint16_t(bits::StaticRule<72, 12>::kSurvive)}),
            Rule::parse("B36/S23"));
  EXPECT_EQ(Rule::parse("B0123478/S01234678"), (Rule{0x19F, 0x1DF}));
  EXPECT_TRUE((bits::StaticRule<8, 12>::kConway));
  EXPECT_FALSE((bits::StaticRule<72, 12>::kConway));
}

TEST(FastBitslice, VerticalPairAndColumnSumCountUpCentreDown) {
  for (unsigned v = 0; v < 8; ++v) {
    const std::uint32_t u = (v & 1) ? ~0u : 0u, m = (v & 2) ? ~0u : 0u, d = (v & 4) ? ~0u : 0u;
    const bits::Pair half = bits::verticalPair(u, d);
    const unsigned upDown = (v & 1) + ((v >> 2) & 1);
    EXPECT_EQ(half.lo, (upDown & 1) ? ~0u : 0u) << v;
    EXPECT_EQ(half.hi, (upDown & 2) ? ~0u : 0u) << v;
    const bits::Pair p = bits::columnSum(u, m, d);
    const unsigned expected = upDown + ((v >> 1) & 1);
    EXPECT_EQ(p.lo, (expected & 1) ? ~0u : 0u) << v;
    EXPECT_EQ(p.hi, (expected & 2) ? ~0u : 0u) << v;
  }
}

TEST(FastBitslice, FunnelShiftsBringInTheNeighbourWordsEdgeBit) {
  // Bit b of fromAbove is the cell above (bit b - 1); bit 0 comes from bit 31 of the word above.
  EXPECT_EQ(bits::fromAbove(0x80000000u, 0x00000001u), 0x00000003u);
  EXPECT_EQ(bits::fromAbove(0x7FFFFFFFu, 0x80000000u), 0x00000000u);
  // Bit b of fromBelow is the cell below (bit b + 1); bit 31 comes from bit 0 of the word below.
  EXPECT_EQ(bits::fromBelow(0x00000002u, 0x00000001u), 0x80000001u);
  EXPECT_EQ(bits::fromBelow(0x00000001u, 0xFFFFFFFEu), 0x00000000u);
}

TEST(FastBitslice, PackPutsRowYInBitYMod32AndUnpackInvertsIt) {
  for (auto [w, h] : {std::pair<std::int64_t, std::int64_t>{1, 1}, {3, 31}, {5, 32}, {7, 33}, {2, 100}}) {
    std::vector<std::uint8_t> cells(std::size_t(w * h));
    std::mt19937 rng(unsigned(w * 1000 + h));
    for (auto& c : cells) c = std::uint8_t(rng() & 1u);
    const auto words = bits::pack(cells, w, h);
    ASSERT_EQ(words.size(), std::size_t(bits::wordRows(h) * w));
    for (std::int64_t y = 0; y < h; ++y)
      for (std::int64_t x = 0; x < w; ++x) {
        ASSERT_EQ((words[std::size_t((y / 32) * w + x)] >> (y % 32)) & 1u, cells[std::size_t(y * w + x)]);
      }
    if (h % 32) {
      EXPECT_EQ(words.back() >> (h % 32), 0u) << "bits past the height must be 0";
    }
    std::vector<std::uint8_t> back;
    bits::unpack(words, w, h, back);
    EXPECT_EQ(back, cells) << w << "x" << h;
  }
}

}  // namespace flocklife::life
