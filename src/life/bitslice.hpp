#pragma once
/// @file bitslice.hpp
/// Bit-sliced Life-like logic for the `fast` kernel (internal to the life module), shared by the
/// CUDA kernel and the CPU unit tests.
///
/// Layout ("column words"): a world of W x H cells is stored as wordRows(H) = ceil(H / 32) rows
/// of W 32-bit words, row-major; bit b of word (v, x) is cell (x, 32 v + b). So one word holds 32
/// vertically adjacent cells of one column: the vertical neighbours of all 32 cells are one
/// funnel shift away, the horizontal neighbours are the same bit of the words to the left and
/// right. Bits of the last word row at or above H are don't-care.
///
/// Counting: the 3 cells of a column around each cell (up, centre, down) are summed by one full
/// adder into a 2-bit column sum; the 9-cell sum (neighbourhood plus centre, 0..9) is the sum of
/// three column sums, 4 bit planes; the rule is then a boolean function of (centre, planes) built
/// as multiplexer trees from the B/S masks. With compile-time masks the compiler folds the trees
/// to a few three-input logic ops (LOP3); with run-time masks they cost about 19 more per word.
/// Technique: bit-sliced ("SIMD within a register") neighbour counting with full and half adders,
/// the bit-parallel counterpart of the bit-per-cell kernels in the seed article (NightElfik,
/// "Conway's Game of Life on GPU using CUDA"); Life is Gardner (1970), generalized to Life-like
/// B/S rules.
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "life/rule.hpp"

namespace flocklife::life::bits {

/// Number of word rows for a world of `height` cells (height >= 1).
FL_HD constexpr std::int64_t wordRows(std::int64_t height) { return (height + 31) / 32; }

/// The word column shifted so that bit b holds the cell above (bit b - 1): (cur << 1) with bit 0
/// taken from bit 31 of `prev`, the word above (one funnel shift, SHF, on the device).
FL_HD FL_FORCEINLINE std::uint32_t fromAbove(std::uint32_t prev, std::uint32_t cur) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(prev, cur, 1);
#else
  return (cur << 1) | (prev >> 31);
#endif
}

/// The word column shifted so that bit b holds the cell below (bit b + 1): (cur >> 1) with bit 31
/// taken from bit 0 of `next`, the word below (one funnel shift on the device).
FL_HD FL_FORCEINLINE std::uint32_t fromBelow(std::uint32_t cur, std::uint32_t next) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(cur, next, 1);
#else
  return (cur >> 1) | (next << 31);
#endif
}

/// A 2-bit bit-sliced number per bit lane: value = lo + 2 hi (0..3).
struct Pair {
  std::uint32_t lo, hi;
};

/// Column sum up + centre + down per bit lane (full adder: xor3 and majority, one LOP3 each).
FL_HD FL_FORCEINLINE Pair columnSum(std::uint32_t up, std::uint32_t centre, std::uint32_t down) {
  return {up ^ centre ^ down, (up & centre) | (up & down) | (centre & down)};
}

/// `a` where mask bits are 1, `b` where they are 0 (one LOP3).
FL_HD FL_FORCEINLINE std::uint32_t select(std::uint32_t mask, std::uint32_t a, std::uint32_t b) {
  return (mask & a) | (~mask & b);
}

/// A rule as 32-bit all-ones/all-zero masks: birth(v) for a dead cell whose 9-cell sum is v (so v
/// live neighbours), survive(v) for a live cell whose 9-cell sum is v (v - 1 live neighbours).
/// v = 0..9; entries that cannot occur (birth(9), survive(0)) are 0.
struct RuntimeRule {
  std::uint32_t birthMask[10];
  std::uint32_t surviveMask[10];

  explicit RuntimeRule(const Rule& r) : birthMask{}, surviveMask{} {
    for (int v = 0; v <= 9; ++v) {
      birthMask[v] = v <= 8 && ((r.birthMask >> v) & 1u) ? ~0u : 0u;
      surviveMask[v] = v >= 1 && ((r.surviveMask >> (v - 1)) & 1u) ? ~0u : 0u;
    }
  }
  static constexpr bool kCompileTime = false;
  FL_HD FL_FORCEINLINE std::uint32_t birth(int v) const { return birthMask[v]; }
  FL_HD FL_FORCEINLINE std::uint32_t survive(int v) const { return surviveMask[v]; }
};

/// The same masks fixed at compile time (B and S are Rule::birthMask / surviveMask), so that the
/// multiplexer tree in nextState() folds into a handful of LOP3 instructions.
template <std::uint16_t B, std::uint16_t S>
struct StaticRule {
  static constexpr Rule kRule{B, S};
  FL_HD static constexpr std::uint32_t birth(int v) { return v <= 8 && ((B >> v) & 1u) ? ~0u : 0u; }
  FL_HD static constexpr std::uint32_t survive(int v) { return v >= 1 && ((S >> (v - 1)) & 1u) ? ~0u : 0u; }
  static constexpr bool kCompileTime = true;
  /// True when 9-cell sums 8 and 9 give the same next state as 0 and 1, so s3 is not needed.
  static constexpr bool kEightNineLikeZeroOne =
      birth(8) == birth(0) && birth(9) == birth(1) && survive(8) == survive(0) && survive(9) == survive(1);
};

/// Next state of 32 cells (one word) from the column sums of the left, own and right columns and
/// the cells themselves. The 9-cell sum s = left + mid + right (0..9) is formed in bit planes
/// s0..s3 (two full adders, two half adders); then next = centre ? survive(s) : birth(s).
///  - Compile-time rules: for s = 0..7 two three-input functions of (s0, s1, s2), one for birth
///    and one for survival, each a multiplexer tree that folds to one LOP3, selected by the
///    centre; s = 8, 9 (s3 set, s2 = s1 = 0) take a last multiplexer, dropped when they act like
///    s = 0, 1 (B3/S23: 12 LOP3 per word in all, measured in the SASS).
///  - Run-time rules: ten leaves select(centre, survive(v), birth(v)), then one multiplexer tree
///    over s0..s3 (about 31 LOP3 per word; this order beat the form above by 4 LOP3).
template <class R>
FL_HD FL_FORCEINLINE std::uint32_t nextState(const R& rule, Pair left, Pair mid, Pair right,
                                             std::uint32_t centre) {
  const std::uint32_t s0 = left.lo ^ mid.lo ^ right.lo;
  const std::uint32_t c0 = (left.lo & mid.lo) | (left.lo & right.lo) | (mid.lo & right.lo);  // weight 2
  const std::uint32_t y = left.hi ^ mid.hi ^ right.hi;                                          // weight 2
  const std::uint32_t d = (left.hi & mid.hi) | (left.hi & right.hi) | (mid.hi & right.hi);     // weight 4
  const std::uint32_t s1 = y ^ c0;
  const std::uint32_t e = y & c0;  // weight 4
  const std::uint32_t s2 = d ^ e;
  const std::uint32_t s3 = d & e;  // s >= 8; then s2 = s1 = 0
  if constexpr (R::kCompileTime) {
    const auto tree = [&](auto table) {  // table(v) for v = 0..7, multiplexed by s0, s1, s2
      const std::uint32_t m01 = select(s0, table(1), table(0)), m23 = select(s0, table(3), table(2));
      const std::uint32_t m45 = select(s0, table(5), table(4)), m67 = select(s0, table(7), table(6));
      return select(s2, select(s1, m67, m45), select(s1, m23, m01));
    };
    const std::uint32_t born = tree([&](int v) { return rule.birth(v); });
    const std::uint32_t stays = tree([&](int v) { return rule.survive(v); });
    const std::uint32_t low = select(centre, stays, born);
    if constexpr (R::kEightNineLikeZeroOne) return low;  // s in {8, 9} behaves like s - 8
    const std::uint32_t high =
        select(centre, select(s0, rule.survive(9), rule.survive(8)), select(s0, rule.birth(9), rule.birth(8)));
    return select(s3, high, low);
  } else {
    std::uint32_t leaf[10];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int v = 0; v < 10; ++v) leaf[v] = select(centre, rule.survive(v), rule.birth(v));
    const std::uint32_t m01 = select(s0, leaf[1], leaf[0]), m23 = select(s0, leaf[3], leaf[2]);
    const std::uint32_t m45 = select(s0, leaf[5], leaf[4]), m67 = select(s0, leaf[7], leaf[6]);
    const std::uint32_t m89 = select(s0, leaf[9], leaf[8]);
    const std::uint32_t low = select(s2, select(s1, m67, m45), select(s1, m23, m01));
    return select(s3, m89, low);
  }
}

/// Packs a byte-per-cell row-major world (width x height, 0 = dead) into column words.
/// Bits at or above `height` in the last word row are 0.
inline std::vector<std::uint32_t> pack(const std::vector<std::uint8_t>& cells, std::int64_t width, std::int64_t height) {
  std::vector<std::uint32_t> words(std::size_t(wordRows(height) * width), 0u);
  for (std::int64_t y = 0; y < height; ++y) {
    const std::uint8_t* row = cells.data() + std::size_t(y) * std::size_t(width);
    std::uint32_t* out = words.data() + std::size_t(y / 32) * std::size_t(width);
    const std::uint32_t bit = 1u << (y % 32);
    for (std::int64_t x = 0; x < width; ++x)
      if (row[x]) out[x] |= bit;
  }
  return words;
}

/// Inverse of pack(): writes width x height bytes (0 or 1) into `cells` (resized).
inline void unpack(const std::vector<std::uint32_t>& words, std::int64_t width, std::int64_t height,
                   std::vector<std::uint8_t>& cells) {
  cells.resize(std::size_t(width) * std::size_t(height));
  for (std::int64_t y = 0; y < height; ++y) {
    std::uint8_t* row = cells.data() + std::size_t(y) * std::size_t(width);
    const std::uint32_t* in = words.data() + std::size_t(y / 32) * std::size_t(width);
    const int b = int(y % 32);
    for (std::int64_t x = 0; x < width; ++x) row[x] = std::uint8_t((in[x] >> b) & 1u);
  }
}

}  // namespace flocklife::life::bits
