#pragma once
/// @file bit_word.hpp
/// Per-word Life logic shared by the bit-per-cell and packet kernels, CPU and GPU (FL_HD), so
/// that CPU tests exercise exactly the arithmetic the GPU kernels run.
///
/// Conventions (internal to the life module):
/// - A row of a bit-per-cell world is a sequence of W-bit words, cell x of the row in bit x % W
///   of word x / W (least significant bit = leftmost cell). On a little-endian machine (x86,
///   every CUDA GPU) the same bytes read as 8-, 32- or 64-bit words give the same cells.
/// - The last word of a row holds `valid` = width - W * (words - 1) cells (1..W); its other bits
///   are padding and never influence a valid cell: the wrap across the seam is rebuilt
///   explicitly (rowPlanes), so widths that are not a multiple of W wrap exactly.
/// - A packet word (Cagigas-Muñiz et al. 2022, "Efficient simulation execution of cellular
///   automata on GPU", sec. 5.2, packet coding) holds 8 cells of one byte each, cell j in byte j.
#include <cstdint>

#include "common/hd.hpp"

/// Fully unrolls the next fixed-count loop (nvcc, GCC), so that the loops over the 8 count
/// values become straight-line code that the host compiler can vectorize.
#if defined(__CUDA_ARCH__)
#define FL_LIFE_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define FL_LIFE_UNROLL _Pragma("GCC unroll 16")
#else
#define FL_LIFE_UNROLL
#endif

namespace flocklife::life::bits {

/// A word with the low `n` bits set (n in 0..bits of T).
template <class T>
FL_HD FL_FORCEINLINE T lowMask(int n) {
  return n >= int(sizeof(T) * 8) ? T(~T(0)) : T((T(1) << n) - 1u);
}

/// The three horizontal neighbourhood planes of one word: bit j of `left` is the cell left of
/// cell j, of `centre` cell j itself, of `right` the cell right of it.
template <class T>
struct RowPlanes {
  T left, centre, right;
};

/// Builds the planes of a word of W cells on a torus row.
/// @param cur       the word (padding bits may hold anything)
/// @param prevCell  0 or 1: the cell just left of the word's first cell (wrapped)
/// @param nextCell  0 or 1: the cell just right of the word's last valid cell (wrapped: for the
///                  last word of a row this is cell 0 of the row)
/// @param valid     number of valid cells in the word, 1..W (W <= bits of T)
/// Padding bits of the result planes are unspecified except that they never reach a valid bit.
template <class T>
FL_HD FL_FORCEINLINE RowPlanes<T> rowPlanes(T cur, T prevCell, T nextCell, int valid) {
  const T c = cur & lowMask<T>(valid);
  return {T((c << 1) | prevCell), c, T((c >> 1) | T(nextCell << (valid - 1)))};
}

/// The live-neighbour count of every cell of a word, as 4 bit planes: count = b0 + 2 b1 + 4 b2
/// + 8 b3 (0..8, so b3 set implies b0 = b1 = b2 = 0).
template <class T>
struct CountPlanes {
  T b0, b1, b2, b3;
};

/// Full adder on bit planes: a + b + c = sum + 2 carry.
template <class T>
FL_HD FL_FORCEINLINE void fullAdd(T a, T b, T c, T& sum, T& carry) {
  const T ab = a ^ b;
  sum = ab ^ c;
  carry = (a & b) | (c & ab);
}

/// Adds the 8 neighbour planes of the Moore neighbourhood with full and half adders (bit
/// slicing: every bit position is an independent cell), as in the bit-parallel Life programs
/// surveyed by Oxman, Weiss and Be'ery, J. Comput. Sci. 5 (2013).
template <class T>
FL_HD FL_FORCEINLINE CountPlanes<T> countNeighbours(const RowPlanes<T>& up, const RowPlanes<T>& mid,
                                                     const RowPlanes<T>& down) {
  T s1, c1, s2, c2, b0, k1, t, k2;
  fullAdd(up.left, up.centre, up.right, s1, c1);        // 0..3 above
  fullAdd(down.left, down.centre, down.right, s2, c2);  // 0..3 below
  const T s3 = mid.left ^ mid.right, c3 = mid.left & mid.right;  // 0..2 beside
  fullAdd(s1, s2, s3, b0, k1);                          // ones; k1 has weight 2
  fullAdd(c1, c2, c3, t, k2);                           // twos; k2 has weight 4
  const T b1 = t ^ k1, k3 = t & k1;                     // k3 has weight 4
  return {b0, b1, T(k2 ^ k3), T(k2 & k3)};
}

/// All-ones when bit n of mask is set, else zero.
template <class T>
FL_HD FL_FORCEINLINE T ruleBit(std::uint16_t mask, int n) {
  return T(T(0) - T((mask >> n) & 1u));
}

/// Applies a Life-like rule to every bit position: the next state is bit `neighbours` of
/// surviveMask for live cells and of birthMask for dead cells (rule B/S as in rule.hpp). The
/// rule is a runtime boolean function of the count planes: the OR of the minterms of the counts
/// it contains. Only the low bit of each result position is meaningful where the planes are
/// lane-masked (packet coding): the caller masks.
template <class T>
FL_HD FL_FORCEINLINE T applyRule(const CountPlanes<T>& n, T alive, std::uint16_t birthMask,
                                 std::uint16_t surviveMask) {
  T born = n.b3 & ruleBit<T>(birthMask, 8), survive = n.b3 & ruleBit<T>(surviveMask, 8);
  const T notB3 = ~n.b3;
  FL_LIFE_UNROLL
  for (int k = 0; k < 8; ++k) {
    const T m = ((k & 1) ? n.b0 : T(~n.b0)) & ((k & 2) ? n.b1 : T(~n.b1)) & ((k & 4) ? n.b2 : T(~n.b2)) &
                (k == 0 ? notB3 : T(~T(0)));
    born |= m & ruleBit<T>(birthMask, k);
    survive |= m & ruleBit<T>(surviveMask, k);
  }
  return (alive & survive) | (~alive & born);
}

/// Next generation of one word of bit-per-cell cells from the planes of its three rows.
template <class T>
FL_HD FL_FORCEINLINE T nextWord(const RowPlanes<T>& up, const RowPlanes<T>& mid, const RowPlanes<T>& down,
                                std::uint16_t birthMask, std::uint16_t surviveMask) {
  return applyRule(countNeighbours(up, mid, down), mid.centre, birthMask, surviveMask);
}

// ---- 6x3 look-up table (NightElfik, "Conway's Game of Life on GPU using CUDA", lookup table) ----

/// Index layout: bits 0..5 are 6 consecutive cells of the row above (leftmost first), bits 6..11
/// the same columns of the middle row, bits 12..17 of the row below. The entry holds in bit j
/// (j = 0..3) the next state of the middle-row cell at column j + 1.
inline constexpr int kLut6x3Entries = 1 << 18;

/// The 4-bit table entry for `index` (0 .. 2^18-1) under the rule.
FL_HD inline std::uint8_t lut6x3Entry(std::uint32_t index, std::uint16_t birthMask, std::uint16_t surviveMask) {
  std::uint8_t out = 0;
  for (int j = 0; j < 4; ++j) {
    int count = 0;
    for (int row = 0; row < 3; ++row)
      for (int col = j; col < j + 3; ++col) count += (index >> (6 * row + col)) & 1u;
    const int alive = (index >> (6 + j + 1)) & 1u;
    count -= alive;
    out |= std::uint8_t((((alive ? surviveMask : birthMask) >> count) & 1u) << j);
  }
  return out;
}

/// The table packed 8 entries to a 32-bit word (entry e in bits 4 (e % 8) .. of word e / 8):
/// 2^15 words, 128 KiB, small enough for one block's shared memory. Word `k` under the rule:
FL_HD inline std::uint32_t lut6x3PackedWord(std::uint32_t k, std::uint16_t birthMask, std::uint16_t surviveMask) {
  std::uint32_t w = 0;
  for (std::uint32_t e = 0; e < 8; ++e) w |= std::uint32_t(lut6x3Entry(8 * k + e, birthMask, surviveMask)) << (4 * e);
  return w;
}
inline constexpr int kLut6x3PackedWords = kLut6x3Entries / 8;

/// Reads entries from the packed table (any memory space the pointer can address).
struct PackedLut6x3 {
  const std::uint32_t* words;
  FL_HD FL_FORCEINLINE std::uint32_t operator()(std::uint32_t index) const {
    return (words[index >> 3] >> ((index & 7u) * 4u)) & 15u;
  }
};

/// A 10-cell window of one row around a byte: bit 0 = the cell left of the byte, bits 1..8 the
/// byte's cells, bit 9 = the cell right of the byte's last valid cell (see rowPlanes).
FL_HD FL_FORCEINLINE std::uint32_t byteWindow(std::uint32_t cur, std::uint32_t prevCell, std::uint32_t nextCell,
                                             int valid) {
  return prevCell | ((cur & lowMask<std::uint32_t>(valid)) << 1) | (nextCell << (valid + 1));
}

/// The two table indices of a byte from the windows of its three rows: .x for cells 0..3, .y for
/// cells 4..7. The next byte is table[lo] | table[hi] << 4.
struct LutIndexPair {
  std::uint32_t lo, hi;
};
FL_HD FL_FORCEINLINE LutIndexPair lut6x3Indices(std::uint32_t upWin, std::uint32_t midWin, std::uint32_t downWin) {
  return {(upWin & 63u) | ((midWin & 63u) << 6) | ((downWin & 63u) << 12),
          ((upWin >> 4) & 63u) | (((midWin >> 4) & 63u) << 6) | (((downWin >> 4) & 63u) << 12)};
}

// ---- packet coding: 8 cells of one byte each in a 64-bit word ----

inline constexpr std::uint64_t kLaneLow = 0x0101010101010101ull;

/// Planes of a packet word: like rowPlanes with 8-bit lanes. prevCell / nextCell are 0 or 1;
/// valid = cells in the word, 1..8.
FL_HD FL_FORCEINLINE RowPlanes<std::uint64_t> packetPlanes(std::uint64_t cur, std::uint64_t prevCell,
                                                           std::uint64_t nextCell, int valid) {
  const std::uint64_t c = cur & lowMask<std::uint64_t>(8 * valid);
  return {(c << 8) | prevCell, c, (c >> 8) | (nextCell << (8 * (valid - 1)))};
}

/// Next generation of a packet word: the 8 neighbour bytes are summed lane by lane (no lane
/// exceeds 8, so no carry crosses lanes), the sums are split into bit planes and the rule is
/// applied as in applyRule. Each result byte is 0 or 1.
FL_HD FL_FORCEINLINE std::uint64_t nextPacket(const RowPlanes<std::uint64_t>& up, const RowPlanes<std::uint64_t>& mid,
                                              const RowPlanes<std::uint64_t>& down, std::uint16_t birthMask,
                                              std::uint16_t surviveMask) {
  const std::uint64_t s = up.left + up.centre + up.right + mid.left + mid.right + down.left + down.centre + down.right;
  const CountPlanes<std::uint64_t> n{s & kLaneLow, (s >> 1) & kLaneLow, (s >> 2) & kLaneLow, (s >> 3) & kLaneLow};
  return applyRule(n, mid.centre & kLaneLow, birthMask, surviveMask) & kLaneLow;
}

// ---- runs of words along a torus row ----

/// One row's view of a word: the word itself, the cells just left and right of it (0 or 1,
/// wrapped across the row's seam) and the number of valid cells in it.
template <class T>
struct WordView {
  T cur, prevCell, nextCell;
  int valid;
};

/// Walks words [i0, i1) of one row of `words` words (i1 <= words), reading every word of the three
/// rows once (sliding window, as the thread loop of NightElfik's bit-counting kernel), and
/// writes out[i] = eval(up, mid, down) for each word i.
/// @tparam S          storage word (uint8_t, uint32_t, uint64_t)
/// @tparam T          register word, at least as wide as S
/// @tparam kCellBits  bits per cell: 1 (bit per cell) or 8 (packet coding, one byte per cell)
/// @param lastValid   valid cells in the row's last word, 1..cells per word
template <class S, class T, int kCellBits, class Eval>
FL_HD FL_FORCEINLINE void rowRun(const S* up, const S* mid, const S* down, S* out, std::uint64_t words,
                                 int lastValid, std::uint64_t i0, std::uint64_t i1, Eval eval) {
  constexpr int kCells = int(sizeof(S) * 8) / kCellBits;
  const std::uint64_t prevIndex = i0 == 0 ? words - 1 : i0 - 1;
  const int prevPos = i0 == 0 ? lastValid - 1 : kCells - 1;
  WordView<T> u{T(up[i0]), T((T(up[prevIndex]) >> (prevPos * kCellBits)) & 1u), 0, kCells};
  WordView<T> m{T(mid[i0]), T((T(mid[prevIndex]) >> (prevPos * kCellBits)) & 1u), 0, kCells};
  WordView<T> d{T(down[i0]), T((T(down[prevIndex]) >> (prevPos * kCellBits)) & 1u), 0, kCells};
  for (std::uint64_t i = i0; i < i1; ++i) {
    const std::uint64_t ni = i + 1 == words ? 0 : i + 1;
    const T nu = up[ni], nm = mid[ni], nd = down[ni];
    const int valid = i + 1 == words ? lastValid : kCells;
    u.nextCell = nu & 1u;
    m.nextCell = nm & 1u;
    d.nextCell = nd & 1u;
    u.valid = m.valid = d.valid = valid;
    out[i] = S(eval(u, m, d));
    constexpr int kTop = (kCells - 1) * kCellBits;
    u = {nu, T((u.cur >> kTop) & 1u), 0, kCells};
    m = {nm, T((m.cur >> kTop) & 1u), 0, kCells};
    d = {nd, T((d.cur >> kTop) & 1u), 0, kCells};
  }
}

/// The view of word `i` of one row for a walk down word column i (see columnWalk): prevIndex /
/// prevPos locate the cell just left of the word, nextIndex the word whose cell 0 is just right.
template <class S, class T, int kCellBits>
FL_HD FL_FORCEINLINE WordView<T> columnView(const S* row, std::uint64_t i, std::uint64_t prevIndex, int prevPos,
                                           std::uint64_t nextIndex, int valid) {
  return {T(row[i]), T((T(row[prevIndex]) >> (prevPos * kCellBits)) & 1u), T(T(row[nextIndex]) & 1u), valid};
}

/// Walks down word column `i` of a torus, rows [y0, y1) (y1 <= height), keeping the views of the
/// three rows above, at and below the current row in registers: each row step loads only the
/// words i - 1, i, i + 1 of one new row (neighbouring threads share them through L1), and writes
/// out[y][i] = eval(up, mid, down). No division or multiplication per step.
/// @param in, out    height rows of `pitch` words S; must not alias
/// @param words      words holding cells in a row (the last with lastValid valid cells)
/// @tparam kCellBits 1 (bit per cell) or 8 (one byte per cell; S = uint8_t is byte per cell)
template <class S, class T, int kCellBits, class Eval>
FL_HD FL_FORCEINLINE void columnWalk(const S* in, S* out, std::uint64_t pitch, std::uint64_t words,
                                     std::uint64_t height, int lastValid, std::uint64_t i, std::uint64_t y0,
                                     std::uint64_t y1, Eval eval) {
  constexpr int kCells = int(sizeof(S) * 8) / kCellBits;
  const std::uint64_t prevIndex = i == 0 ? words - 1 : i - 1, nextIndex = i + 1 == words ? 0 : i + 1;
  const int prevPos = i == 0 ? lastValid - 1 : kCells - 1, valid = i + 1 == words ? lastValid : kCells;
  const S* const last = in + (height - 1) * pitch;
  const S* row = y0 == 0 ? last : in + (y0 - 1) * pitch;
  WordView<T> u = columnView<S, T, kCellBits>(row, i, prevIndex, prevPos, nextIndex, valid);
  row = in + y0 * pitch;
  WordView<T> m = columnView<S, T, kCellBits>(row, i, prevIndex, prevPos, nextIndex, valid);
  S* o = out + y0 * pitch;
  for (std::uint64_t y = y0; y < y1; ++y, o += pitch) {
    row = row == last ? in : row + pitch;
    const WordView<T> d = columnView<S, T, kCellBits>(row, i, prevIndex, prevPos, nextIndex, valid);
    o[i] = S(eval(u, m, d));
    u = m;
    m = d;
  }
}

/// eval for byte-per-cell cells (S = uint8_t, one cell per "word"): the Moore neighbourhood sum
/// and the rule as bit `count` of the birth or survival mask (Gardner 1970, Life-like B/S rules).
struct ByteCellEval {
  std::uint16_t birthMask, surviveMask;
  FL_HD FL_FORCEINLINE std::uint32_t operator()(const WordView<std::uint32_t>& u, const WordView<std::uint32_t>& m,
                                                const WordView<std::uint32_t>& d) const {
    const std::uint32_t n = u.prevCell + u.cur + u.nextCell + m.prevCell + m.nextCell + d.prevCell + d.cur + d.nextCell;
    return ((m.cur ? surviveMask : birthMask) >> n) & 1u;
  }
};

/// eval for byte-per-cell cells with the rule as a 2x9 table [alive * 9 + count] -> next state
/// (Cagigas-Muñiz et al. 2022, sec. 5.1); `table` may live in any memory space.
struct ByteCellLutEval {
  const std::uint8_t* table;
  FL_HD FL_FORCEINLINE std::uint32_t operator()(const WordView<std::uint32_t>& u, const WordView<std::uint32_t>& m,
                                                const WordView<std::uint32_t>& d) const {
    const std::uint32_t n = u.prevCell + u.cur + u.nextCell + m.prevCell + m.nextCell + d.prevCell + d.cur + d.nextCell;
    return table[(m.cur ? 9u : 0u) + n];
  }
};

/// eval for bit-per-cell words with bit-parallel neighbour counting.
template <class T>
struct CountEval {
  std::uint16_t birthMask, surviveMask;
  FL_HD FL_FORCEINLINE T operator()(const WordView<T>& u, const WordView<T>& m, const WordView<T>& d) const {
    return nextWord(rowPlanes(u.cur, u.prevCell, u.nextCell, u.valid), rowPlanes(m.cur, m.prevCell, m.nextCell, m.valid),
                    rowPlanes(d.cur, d.prevCell, d.nextCell, d.valid), birthMask, surviveMask);
  }
};

/// eval for bytes of bit-per-cell cells with the 6x3 table; lookup(index) returns the 4-bit entry.
template <class Lookup>
struct Lut6x3Eval {
  Lookup lookup;
  FL_HD FL_FORCEINLINE std::uint32_t operator()(const WordView<std::uint32_t>& u, const WordView<std::uint32_t>& m,
                                                const WordView<std::uint32_t>& d) const {
    const LutIndexPair ix = lut6x3Indices(byteWindow(u.cur, u.prevCell, u.nextCell, u.valid),
                                          byteWindow(m.cur, m.prevCell, m.nextCell, m.valid),
                                          byteWindow(d.cur, d.prevCell, d.nextCell, d.valid));
    return std::uint32_t(lookup(ix.lo)) | (std::uint32_t(lookup(ix.hi)) << 4);
  }
};

/// A window of up to 62 cells of one row around a word: bit 0 = the cell left of the word, bits
/// 1..valid its valid cells, bit valid + 1 the cell right of its last valid cell.
FL_HD FL_FORCEINLINE std::uint64_t wordWindow(std::uint64_t cur, std::uint64_t prevCell, std::uint64_t nextCell,
                                              int valid) {
  return prevCell | ((cur & lowMask<std::uint64_t>(valid)) << 1) | (nextCell << (valid + 1));
}

/// eval for words of kBytes bytes of bit-per-cell cells with the 6x3 table: two look-ups per
/// byte, byte b from bits 8b .. 8b + 9 of the three rows' windows (lookup(index) returns the
/// 4-bit entry). Bytes wholly in padding get unspecified values.
template <int kBytes, class Lookup>
struct Lut6x3WordEval {
  static_assert(kBytes >= 1 && kBytes <= 4, "a window of 8 kBytes + 2 cells must fit 64 bits");
  Lookup lookup;
  FL_HD FL_FORCEINLINE std::uint64_t operator()(const WordView<std::uint64_t>& u, const WordView<std::uint64_t>& m,
                                                const WordView<std::uint64_t>& d) const {
    const std::uint64_t uw = wordWindow(u.cur, u.prevCell, u.nextCell, u.valid),
                        mw = wordWindow(m.cur, m.prevCell, m.nextCell, m.valid),
                        dw = wordWindow(d.cur, d.prevCell, d.nextCell, d.valid);
    std::uint64_t out = 0;
    FL_LIFE_UNROLL
    for (int b = 0; b < kBytes; ++b) {
      const LutIndexPair ix = lut6x3Indices(std::uint32_t(uw >> (8 * b)) & 1023u, std::uint32_t(mw >> (8 * b)) & 1023u,
                                            std::uint32_t(dw >> (8 * b)) & 1023u);
      out |= std::uint64_t(std::uint32_t(lookup(ix.lo)) | (std::uint32_t(lookup(ix.hi)) << 4)) << (8 * b);
    }
    return out;
  }
};

/// eval for packet words (8 cells of one byte each).
struct PacketEval {
  std::uint16_t birthMask, surviveMask;
  FL_HD FL_FORCEINLINE std::uint64_t operator()(const WordView<std::uint64_t>& u, const WordView<std::uint64_t>& m,
                                                const WordView<std::uint64_t>& d) const {
    return nextPacket(packetPlanes(u.cur, u.prevCell, u.nextCell, u.valid),
                      packetPlanes(m.cur, m.prevCell, m.nextCell, m.valid),
                      packetPlanes(d.cur, d.prevCell, d.nextCell, d.valid), birthMask, surviveMask);
  }
};

}  // namespace flocklife::life::bits
