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
///    (n0 | centre) & (p ^ k0) & ~q, 2 LOP3, so Life costs 10 LOP3 per word; any other rule
///    takes the planes n1, n2 (2 LOP3), one three-input table of (n0, n1, n2) for birth and one
///    for survival and a select by the centre (at most 3 LOP3, fewer when a table is trivial), and,
///    only when n = 8 does not act like n = 0, the plane n3 and one more select (2 LOP3): at most
///    15 LOP3 per word; planes that the tables do not read are never computed.
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
constexpr unsigned char kSelect = lutOf([](unsigned m, unsigned a, unsigned b) { return (m & a) | (~m & b); });

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
  /// lop3 tables of birth / survival over the planes (n0, n1, n2) of n = 0..7: bit
  /// 4 n0 + 2 n1 + n2 of the table (lutOf's encoding) holds the rule for n = n0 + 2 n1 + 4 n2.
  static constexpr unsigned char tableOver3Planes(unsigned mask) {
    unsigned lut = 0;
    for (unsigned i = 0; i < 8; ++i) {
      const unsigned n = ((i >> 2) & 1u) + 2u * ((i >> 1) & 1u) + 4u * (i & 1u);
      lut |= ((mask >> n) & 1u) << i;
    }
    return static_cast<unsigned char>(lut);
  }
  static constexpr unsigned char kBirthLut = tableOver3Planes(B);
  static constexpr unsigned char kSurviveLut = tableOver3Planes(S);
  /// n = 8 (planes n0..n2 all 0, n3 set) acts like n = 0, so the last multiplexer is not needed.
  static constexpr bool kEightLikeZero = ((B >> 8) & 1u) == (B & 1u) && ((S >> 8) & 1u) == (S & 1u);
};

/// How a three-input table over (n0, n1, n2) is had without a LOP3 of its own: a constant, one
/// of the planes, or a plane inverted; otherwise (General) it costs one LOP3.
struct TableForm {
  enum Kind { Zero, One, Plane, NotPlane, General } kind;
  int plane;  // 0, 1, 2 for n0, n1, n2 (Plane, NotPlane)
  /// The table's value given its operand x (tableOperand): constants ignore x.
  constexpr unsigned apply(unsigned x) const {
    return kind == Zero ? 0u : kind == One ? ~0u : kind == NotPlane ? ~x : x;
  }
};

constexpr TableForm formOf(unsigned char lut) {
  if (lut == 0x00) return {TableForm::Zero, 0};
  if (lut == 0xFF) return {TableForm::One, 0};
  const unsigned char planes[3] = {0xF0, 0xCC, 0xAA};
  for (int i = 0; i < 3; ++i) {
    if (lut == planes[i]) return {TableForm::Plane, i};
    if (lut == static_cast<unsigned char>(~planes[i])) return {TableForm::NotPlane, i};
  }
  return {TableForm::General, 0};
}

/// lop3 table of select(centre, survive, birth) over (centre, survive's operand, birth's operand).
constexpr unsigned char selectLut(TableForm survive, TableForm birth) {
  return static_cast<unsigned char>(((0xF0u & survive.apply(0xCCu)) | (~0xF0u & birth.apply(0xAAu))) & 0xFFu);
}

/// The operand that stands for table kLut in a select (see TableForm::apply): the table's LOP3
/// when General, else the plane it reads (constants read none: n0 is passed and ignored).
template <unsigned char kLut>
FL_HD FL_FORCEINLINE Word tableOperand(Word n0, Word n1, Word n2) {
  constexpr TableForm f = formOf(kLut);
  if constexpr (f.kind == TableForm::General) return lop3<kLut>(n0, n1, n2);
  else if constexpr (f.plane == 1) return n1;
  else if constexpr (f.plane == 2) return n2;
  else return n0;
}

/// The value of table kLut over (n0, n1, n2), with no LOP3 when it is a constant or a plane.
template <unsigned char kLut>
FL_HD FL_FORCEINLINE Word tableValue(Word n0, Word n1, Word n2) {
  constexpr TableForm f = formOf(kLut);
  if constexpr (f.kind == TableForm::Zero) return 0u;
  else if constexpr (f.kind == TableForm::One) return ~0u;
  else if constexpr (f.kind == TableForm::NotPlane) return ~tableOperand<kLut>(n0, n1, n2);
  else return tableOperand<kLut>(n0, n1, n2);
}

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
    // Planes of n = n0 + 2 n1 + 4 n2 + 8 n3: p + k0 = n1 + 2 (p & k0), and (p & k0) + q = n2 + 2 n3.
    constexpr unsigned char kN2 = lutOf([](unsigned q_, unsigned p_, unsigned k) { return q_ ^ (p_ & k); });
    const Word n1 = p ^ k0;
    const Word n2 = lop3<kN2>(q, p, k0);
    // For n = 0..7 the rule is one three-input table of (n0, n1, n2) for a dead and one for a
    // live centre, selected by the centre: at most 3 LOP3, fewer when a table is a constant or a
    // single plane (then that plane or nothing feeds the select), 1 when both are the same.
    constexpr TableForm kB = formOf(R::kBirthLut), kS = formOf(R::kSurviveLut);
    Word low;
    if constexpr (R::kBirthLut == R::kSurviveLut) {
      low = tableValue<R::kBirthLut>(n0, n1, n2);
    } else {
      constexpr unsigned char kLow = selectLut(kS, kB);
      low = lop3<kLow>(centre, tableOperand<R::kSurviveLut>(n0, n1, n2), tableOperand<R::kBirthLut>(n0, n1, n2));
    }
    if constexpr (R::kEightLikeZero) return low;
    // n = 8 (n0 = n1 = n2 = 0, n3 = 1): one more plane and one three-input select.
    constexpr unsigned char kAnd3 = lutOf([](unsigned a, unsigned b, unsigned c) { return a & b & c; });
    constexpr unsigned char kEight = lutOf([](unsigned n3, unsigned c, unsigned l) {
      return (n3 & ((c & R::survive(8)) | (~c & R::birth(8)))) | (~n3 & l);
    });
    return lop3<kEight>(lop3<kAnd3>(q, p, k0), centre, low);
  }
}

}  // namespace flocklife::life::bits
