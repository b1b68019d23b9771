#pragma once
/// @file bitslice_logic.hpp
/// Bit-sliced Life-like logic of the `fast` kernel on 32-cell words (internal to the life
/// module). The same inline functions run in the CUDA kernel (nvcc, and NVRTC for rules compiled
/// at run time) and in the CPU unit tests, so this header is self-contained under NVRTC: it
/// includes nothing there and uses only built-in types (`unsigned int` is 32 bits on every
/// platform we build for).
///
/// Layout ("column words", bitslice.hpp): bit b of a word is the cell 32 v + b of one column, so
/// the cells above and below are one funnel shift away and the cells left and right are the same
/// bit of the neighbouring columns' words.
///
/// Counting (per bit lane, i.e. for 32 cells at once):
///  - every column's up + down is a half adder, M = (up ^ down, up & down) (2 LOP3), and its full
///    column sum up + centre + down is S = M + centre (2 LOP3);
///  - the neighbour count of a cell, 0..8, is n = S(left column) + M(own column) + S(right
///    column): two full adders give n0 and the carries, n = n0 + 2 (p + k0) + 4 q;
///  - the rule is a boolean function of (centre, n): for B3/S23 it is
///    (n0 | centre) & (p ^ k0) & ~q, 2 LOP3, so Life costs 10 LOP3 per word; other rules go
///    through multiplexer trees over the planes n0..n3 whose leaves are compile-time constants, so
///    the compiler folds them to a few LOP3.
/// Technique: bit-sliced ("SIMD within a register") neighbour counting with full and half adders,
/// the bit-parallel counterpart of the bit-per-cell kernels in the seed article (NightElfik,
/// "Conway's Game of Life on GPU using CUDA"); Life is Gardner (1970), generalized to Life-like
/// B/S rules (Golly's rule notation).
#ifndef __CUDACC_RTC__
#include "common/hd.hpp"
#else
#define FL_HD __host__ __device__
#define FL_FORCEINLINE __forceinline__
#endif

namespace flocklife::life::bits {

/// One 32-cell word (bit lanes = cells).
using Word = unsigned int;
static_assert(sizeof(Word) == 4, "column words are 32 bits");

/// The word column shifted so that bit b holds the cell above (bit b - 1): (cur << 1) with bit 0
/// taken from bit 31 of `prev`, the word above (one funnel shift, SHF, on the device).
FL_HD FL_FORCEINLINE Word fromAbove(Word prev, Word cur) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_l(prev, cur, 1);
#else
  return (cur << 1) | (prev >> 31);
#endif
}

/// The word column shifted so that bit b holds the cell below (bit b + 1): (cur >> 1) with bit 31
/// taken from bit 0 of `next`, the word below (one funnel shift on the device).
FL_HD FL_FORCEINLINE Word fromBelow(Word cur, Word next) {
#if defined(__CUDA_ARCH__)
  return __funnelshift_r(cur, next, 1);
#else
  return (cur >> 1) | (next << 31);
#endif
}

/// Truth table of a three-input bitwise function for lop3(): f(0xF0, 0xCC, 0xAA), the encoding of
/// PTX `lop3.b32` (PTX ISA, "Logic and Shift Instructions: lop3").
template <class F>
constexpr unsigned char lutOf(F f) {
  return static_cast<unsigned char>(f(0xF0u, 0xCCu, 0xAAu) & 0xFFu);
}

/// The three-input function with truth table `kLut` (see lutOf) applied bitwise: one LOP3 on the
/// device, written as PTX so that the compiler keeps the grouping chosen here.
template <unsigned char kLut>
FL_HD FL_FORCEINLINE Word lop3(Word a, Word b, Word c) {
#if defined(__CUDA_ARCH__)
  Word d;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(d) : "r"(a), "r"(b), "r"(c), "n"(int(kLut)));
  return d;
#else
  Word d = 0;
  for (int i = 0; i < 8; ++i)
    if ((kLut >> i) & 1)
      d |= ((i & 4) ? a : ~a) & ((i & 2) ? b : ~b) & ((i & 1) ? c : ~c);
  return d;
#endif
}

constexpr unsigned char kXor3 = lutOf([](unsigned a, unsigned b, unsigned c) { return a ^ b ^ c; });
constexpr unsigned char kMajority = lutOf([](unsigned a, unsigned b, unsigned c) { return (a & b) | (a & c) | (b & c); });

/// A 2-bit bit-sliced number per bit lane: value = lo + 2 hi (0..3).
struct Pair {
  Word lo, hi;
};

/// up + down per bit lane (half adder, 0..2).
FL_HD FL_FORCEINLINE Pair verticalPair(Word up, Word down) { return {up ^ down, up & down}; }

/// up + centre + down per bit lane (0..3): a full adder, xor3 and majority (one LOP3 each, both
/// straight from the inputs so that neither waits for the other).
FL_HD FL_FORCEINLINE Pair columnSum(Word up, Word centre, Word down) {
  return {lop3<kXor3>(up, centre, down), lop3<kMajority>(up, centre, down)};
}

/// `a` where mask bits are 1, `b` where they are 0 (one LOP3).
FL_HD FL_FORCEINLINE Word select(Word mask, Word a, Word b) { return (mask & a) | (~mask & b); }

/// A Life-like rule with compile-time masks, indexed like life::Rule: bit n of `B` = a dead cell
/// with n live neighbours is born, bit n of `S` = a live cell with n live neighbours survives
/// (n = 0..8).
template <unsigned B, unsigned S>
struct StaticRule {
  static constexpr unsigned kBirth = B;
  static constexpr unsigned kSurvive = S;
  /// All ones where the rule sets the cell for neighbour count n, for a dead / live centre.
  FL_HD static constexpr Word birth(int n) { return ((B >> n) & 1u) ? ~0u : 0u; }
  FL_HD static constexpr Word survive(int n) { return ((S >> n) & 1u) ? ~0u : 0u; }
  static constexpr bool kConway = B == 8u && S == 12u;  // B3/S23
  /// n = 8 (planes n0..n2 all 0, n3 set) acts like n = 0, so the last multiplexer is not needed.
  static constexpr bool kEightLikeZero = ((B >> 8) & 1u) == (B & 1u) && ((S >> 8) & 1u) == (S & 1u);
};

/// Next state of 32 cells from the full column sums of the left and right columns, the half
/// adder up + down of their own column and the cells themselves (see the file comment).
template <class R>
FL_HD FL_FORCEINLINE Word nextState(R, Pair left, Pair mid, Pair right, Word centre) {
  const Word n0 = lop3<kXor3>(left.lo, mid.lo, right.lo);
  const Word k0 = lop3<kMajority>(left.lo, mid.lo, right.lo);  // weight 2
  const Word p = lop3<kXor3>(left.hi, mid.hi, right.hi);       // weight 2
  const Word q = lop3<kMajority>(left.hi, mid.hi, right.hi);   // weight 4
  if constexpr (R::kConway) {
    // n in {2, 3} <=> q = 0 and p + k0 = 1; then n = 3 <=> n0, and n = 2 needs a live centre.
    constexpr unsigned char kTwoOrThree = lutOf([](unsigned p_, unsigned k, unsigned q_) { return (p_ ^ k) & ~q_; });
    constexpr unsigned char kLiveAfter = lutOf([](unsigned n, unsigned c, unsigned r) { return (n | c) & r; });
    return lop3<kLiveAfter>(n0, centre, lop3<kTwoOrThree>(p, k0, q));
  } else {
    const Word n1 = p ^ k0;
    const Word c1 = p & k0;  // weight 4
    const Word n2 = q ^ c1;
    const auto tree = [&](auto table) {  // table(n) for n = 0..7, multiplexed by n0, n1, n2
      const Word m01 = select(n0, table(1), table(0)), m23 = select(n0, table(3), table(2));
      const Word m45 = select(n0, table(5), table(4)), m67 = select(n0, table(7), table(6));
      return select(n2, select(n1, m67, m45), select(n1, m23, m01));
    };
    const Word low = select(centre, tree([](int n) { return R::survive(n); }), tree([](int n) { return R::birth(n); }));
    if constexpr (R::kEightLikeZero) return low;
    const Word n3 = q & c1;  // n = 8; then n0 = n1 = n2 = 0
    return select(n3, select(centre, R::survive(8), R::birth(8)), low);
  }
}

}  // namespace flocklife::life::bits
