#pragma once
/// @file fast_kernel.cuh
/// Device code of the `fast` kernel (internal to the life module): bit-sliced Life-like rules on
/// column words (bitslice.hpp), temporally blocked. Compiled by nvcc for B3/S23 (life_fast.cu)
/// and by NVRTC at run time for every other rule, so under NVRTC it includes nothing and uses only
/// built-in types: the run-time source is this file, bitslice_logic.hpp as an in-memory header and
/// one generated kernel (life_fast.cu).
///
/// Each block owns one tile of the torus; its warps sit side by side along x. A thread holds
/// kColumns = 4 adjacent columns of kRows 32-bit column words in registers (fully unrolled,
/// compile-time indexed); a warp covers 32 * 4 = 128 columns and kRows words vertically, and warp
/// w + 1 starts kWarpStride = 120 columns after warp w, so neighbouring warps share two lanes
/// (8 columns). Per launch the block's tile is loaded with a halo of `halo` columns on each side
/// and with halo rows above and below, then advanced g <= halo generations in registers:
///   - a thread's kRows words form a ring: the word above the first is the last (funnel shifts);
///     with haloWords = 1 (halo <= 16) the first word holds the 16 rows below the core in bits
///     0..15 and the 16 rows above it in bits 16..31, so the ring is exact around the core and the
///     one wrong adjacency (bits 15 | 16) is 16 rows from it; with haloWords = 2 (halo <= 32) a
///     whole word lies above the core and another below it;
///   - horizontal neighbours: the thread's own adjacent columns, and at its two edge columns the
///     2-bit column sums of the neighbouring lanes (4 warp shuffles per word row per generation);
///   - wrong values enter only at a warp's two edge lanes and move one cell per generation, so
///     after 4 generations only lanes 0 and 31 are wrong; every 4 generations (kRefresh) a warp's
///     lane 0 takes the words of the left warp's lane 30 and its lane 31 those of the right warp's
///     lane 1 (the same columns, still exact there) through shared memory: one barrier per
///     refresh, double-buffered. The block's outer edges are not refreshed; the halo covers them.
///   - after g <= halo generations the core (block columns [halo, width - halo), word rows
///     1 .. kRows - haloWords) is exact; warp w writes its lanes except a shared lane that its
///     neighbour writes (lane 31 belongs to warp w + 1's lane 1, lane 0 to warp w - 1's lane 30).
/// With one warp per block this is the plain warp tile (no refresh, no barrier). The last tile
/// row may run a shorter ring (advanceBlock, shortRows).
/// The tile is a window onto the periodic extension of the world, so columns are taken modulo the
/// width and rows modulo the height (a word that straddles the bottom seam, or any word of a world
/// less than 32 rows high, is gathered bit by bit): a true torus of any size, even 1 x 1.
/// Technique: temporal blocking with halos (overlapped tiling) in registers, bit-sliced counting
/// (bitslice_logic.hpp); Life is Gardner (1970).
#include "life/bitslice_logic.hpp"  // under NVRTC an in-memory header (life_fast.cu)

namespace flocklife::life::fast {

using bits::Word;

constexpr int kColumns = 4;                                  ///< columns per thread; a warp spans 128
constexpr int kRefresh = kColumns;                           ///< generations between edge-lane refreshes
constexpr int kWarpStride = 32 * kColumns - 2 * kColumns;   ///< 120: columns from one warp to the next

/// Columns a block of `warps` warps computes: 128 for one warp, 120 more for each further warp.
constexpr long long blockColumns(int warps) { return 32LL * kColumns + (warps - 1LL) * kWarpStride; }

/// Words per thread column of the shorter ring that the last tile row runs when the word rows
/// left for it fit (Geometry::shortFrom): 16 for 24, 8 for 16 and 12, none (0) for 8. The last
/// tile row usually holds only the remainder of the word rows, and the last wave of a launch
/// usually holds only a part of the tiles: with 24 words a tile of that row costs about 2/3.
constexpr int shortRows(int rows) { return rows == 24 ? 16 : (rows == 16 || rows == 12 ? 8 : 0); }

/// Bytes of dynamic shared memory a block of `warps` warps needs for the edge-lane exchange:
/// 2 buffers x warps x 2 shared lanes x kRows rows x 4 words; none for one warp, which shares
/// no lanes (the kernel refreshes edge lanes only when g.warps > 1).
constexpr unsigned long long exchangeBytes(int warps, int rows) {
  return warps > 1 ? 2ull * (unsigned long long)warps * 2ull * (unsigned long long)rows * 16ull : 0ull;
}

/// Tiling of one world for one configuration, computed on the host (life_fast.cu) and passed to
/// the kernel by value; built-in types only, so that NVRTC-compiled kernels see the same layout.
struct Geometry {
  long long width, height;
  long long wordRows;  ///< ceil(height / 32)
  long long fullRows;  ///< height / 32: word rows whose 32 bits are all inside the world
  long long coreCols;  ///< blockColumns(warps) - 2 * halo: columns a tile writes back
  long long coreRows;  ///< kRows - haloWords: word rows a tile writes back
  long long tilesX;
  unsigned long long numTiles;
  unsigned long long shortFrom;  ///< first tile run with shortRows(kRows) words (the last tile row), or numTiles
  int warps;      ///< warps per block (the launch's block size / 32)
  int halo;       ///< halo columns on each side = the most generations one launch may do
  int haloWords;  ///< 1 (halo <= 16) or 2 (halo <= 32), see the file comment
};

/// Rows y0 .. y0 + 31 of column x of the periodic extension, gathered bit by bit (rows taken
/// modulo the height). Used only for words that straddle the seam or when height < 32.
__device__ __noinline__ Word gatherRows(const Word* __restrict__ in, long long width, long long height, long long x,
                                        long long y0) {
  long long y = y0 % height;
  if (y < 0) y += height;
  Word word = 0;
  for (int b = 0; b < 32; ++b) {
    word |= ((in[(unsigned long long)(y >> 5) * (unsigned long long)width + (unsigned long long)x] >> (y & 31)) & 1u)
            << b;
    if (++y == height) y = 0;
  }
  return word;
}

/// Word row v (rows 32 v .. 32 v + 31 of the periodic extension) of column x, x in [0, width).
__device__ __forceinline__ Word loadWord(const Word* __restrict__ in, const Geometry& g, long long x, long long v) {
  if (v >= 0 && v < g.fullRows) return in[(unsigned long long)v * (unsigned long long)g.width + (unsigned long long)x];
  return gatherRows(in, g.width, g.height, x, 32 * v);
}

/// Every kRefresh generations: lane 0 takes the words of the left warp's lane 30 and lane 31
/// those of the right warp's lane 1 (the same world columns). `exchange` holds
/// exchangeBytes(warps, kRows) bytes; `parity` alternates so that one barrier per refresh suffices.
template <int kRows>
__device__ __forceinline__ void refreshEdgeLanes(Word (&w)[kRows][kColumns], uint4* exchange, int warp, int warps,
                                                 int lane, int parity) {
  uint4* buffer = exchange + (unsigned)parity * (unsigned)warps * 2u * kRows;  // [warp][lane 1 | lane 30][row]
  if (lane == 1 || lane == 30) {
    uint4* dst = buffer + ((unsigned)warp * 2u + (lane == 30 ? 1u : 0u)) * kRows;
#pragma unroll
    for (int i = 0; i < kRows; ++i) dst[i] = make_uint4(w[i][0], w[i][1], w[i][2], w[i][3]);
  }
  __syncthreads();
  const uint4* src = nullptr;
  if (lane == 0 && warp > 0) src = buffer + ((unsigned)(warp - 1) * 2u + 1u) * kRows;
  if (lane == 31 && warp + 1 < warps) src = buffer + (unsigned)(warp + 1) * 2u * kRows;
  if (src != nullptr) {
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      const uint4 q = src[i];
      w[i][0] = q.x, w[i][1] = q.y, w[i][2] = q.z, w[i][3] = q.w;
    }
  }
}

/// One block advances its tile `generations` (<= g.halo) generations from `in` and writes the
/// core to `out`. Launch g.numTiles blocks of 32 * g.warps threads with exchangeBytes(g.warps,
/// kRows) bytes of dynamic shared memory; block b owns tile b.
template <int kRows, int kHaloWords, class RuleT>
__device__ __forceinline__ void advanceTile(const Word* __restrict__ in, Word* __restrict__ out, const Geometry& g,
                                            int generations) {
  static_assert(kRows > kHaloWords, "a thread needs a core word besides its halo words");
  static_assert(kHaloWords == 1 || kHaloWords == 2, "one merged halo word or one above and one below");
  extern __shared__ uint4 exchange[];
  const unsigned long long tile = blockIdx.x;
  if (tile >= g.numTiles) return;  // the whole block: the barriers below need every warp
  const int lane = int(threadIdx.x & 31);
  const int warp = int(threadIdx.x >> 5);
  const long long tileY = (long long)(tile / (unsigned long long)g.tilesX);
  const long long tileX = (long long)tile - tileY * g.tilesX;
  const long long bx = (long long)warp * kWarpStride;  // block column of the warp's column 0
  const long long xs = tileX * g.coreCols - g.halo + bx;  // world column of the warp's column 0
  const long long v0 = tileY * g.coreRows;           // world word row of the first core word

  // w[0]: the halo above (and below, kHaloWords = 1); w[1 .. kRows - kHaloWords]: the core, word
  // rows v0 ..; w[kRows - 1]: the halo below when kHaloWords = 2. The tile reads word rows
  // v0 - 1 .. vLast.
  Word w[kRows][kColumns];
  const long long vLast = v0 + kRows - kHaloWords;
  const long long x0 = xs + lane * kColumns;  // this thread's first column (before wrapping)
  // Whole 16-byte rows per thread (4 columns) when the columns are 4-aligned (warp-uniform).
  static_assert(kColumns == 4, "the vector loads and stores below move 4 words per thread");
  const bool vector4 = ((xs | g.width) & 3) == 0;
  if (xs >= 0 && xs + 32 * kColumns <= g.width && v0 >= 1 && vLast < g.fullRows) {
    // Interior tile (warp-uniform): no wrapping, plain loads along one pointer.
    const Word* row = in + (unsigned long long)(v0 - 1) * (unsigned long long)g.width + (unsigned long long)x0;
    Word bottom[kColumns];
#pragma unroll
    for (int r = 0; r <= kRows - kHaloWords + 1; ++r, row += g.width) {
      Word v[kColumns];
      if (vector4) {
        const uint4 q = *reinterpret_cast<const uint4*>(row);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
      } else {
#pragma unroll
        for (int c = 0; c < kColumns; ++c) v[c] = row[c];
      }
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        if (r < kRows)
          w[r][c] = v[c];
        else
          bottom[c] = v[c];
      }
    }
    if (kHaloWords == 1) {
#pragma unroll
      for (int c = 0; c < kColumns; ++c) w[0][c] = (w[0][c] & 0xFFFF0000u) | (bottom[c] & 0xFFFFu);
    }
  } else {
    long long x[kColumns];
#pragma unroll
    for (int c = 0; c < kColumns; ++c) {
      long long xx = x0 + c;
      if (xx < 0 || xx >= g.width) {
        xx %= g.width;
        if (xx < 0) xx += g.width;
      }
      x[c] = xx;
    }
#pragma unroll
    for (int c = 0; c < kColumns; ++c) {
      if (kHaloWords == 1)
        w[0][c] = (loadWord(in, g, x[c], v0 - 1) & 0xFFFF0000u) | (loadWord(in, g, x[c], vLast) & 0xFFFFu);
      else
        w[0][c] = loadWord(in, g, x[c], v0 - 1);
    }
#pragma unroll
    for (int i = 1; i < kRows; ++i)
#pragma unroll
      for (int c = 0; c < kColumns; ++c) w[i][c] = loadWord(in, g, x[c], v0 + i - 1);
  }

  for (int gen = 0; gen < generations; ++gen) {
    if (gen > 0 && gen % kRefresh == 0 && g.warps > 1)
      refreshEdgeLanes<kRows>(w, exchange, warp, g.warps, lane, (gen / kRefresh) & 1);
    Word above[kColumns], first[kColumns];  // this generation's words above w[i] and of w[0]
#pragma unroll
    for (int c = 0; c < kColumns; ++c) {
      above[c] = w[kRows - 1][c];
      first[c] = w[0][c];
    }
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      bits::Pair mid[kColumns], sum[kColumns];
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        const Word below = i + 1 < kRows ? w[i + 1][c] : first[c];
        const Word up = bits::fromAbove(above[c], w[i][c]), down = bits::fromBelow(w[i][c], below);
        mid[c] = bits::verticalPair(up, down);
        sum[c] = bits::columnSum(up, w[i][c], down);
      }
      const bits::Pair left{__shfl_up_sync(0xFFFFFFFFu, sum[kColumns - 1].lo, 1),
                            __shfl_up_sync(0xFFFFFFFFu, sum[kColumns - 1].hi, 1)};
      const bits::Pair right{__shfl_down_sync(0xFFFFFFFFu, sum[0].lo, 1),
                             __shfl_down_sync(0xFFFFFFFFu, sum[0].hi, 1)};
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        const Word next = bits::nextState(RuleT{}, c > 0 ? sum[c - 1] : left, mid[c],
                                          c + 1 < kColumns ? sum[c + 1] : right, w[i][c]);
        above[c] = w[i][c];
        w[i][c] = next;
      }
    }
  }

  // Block columns [halo, halo + coreCols) of word rows 1 .. kRows - kHaloWords are exact; of the
  // two lanes neighbouring warps share, the left warp writes the first and the right the second.
  const bool laneOwned = (lane > 0 || warp == 0) && (lane < 31 || warp + 1 == g.warps);
  const long long bl = bx + lane * kColumns;  // block column of the thread's first column
  const bool laneCore = laneOwned && bl >= g.halo && bl + kColumns <= g.halo + g.coreCols && x0 + kColumns <= g.width;
  Word* row = out + (unsigned long long)v0 * (unsigned long long)g.width;
#pragma unroll
  for (int i = 1; i <= kRows - kHaloWords; ++i, row += g.width) {
    if (v0 + i - 1 >= g.wordRows) break;
    if (vector4 && laneCore) {
      *reinterpret_cast<uint4*>(row + x0) = make_uint4(w[i][0], w[i][1], w[i][2], w[i][3]);
    } else {
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        const long long j = bl + c;
        if (laneOwned && j >= g.halo && j < g.halo + g.coreCols && x0 + c < g.width) row[x0 + c] = w[i][c];
      }
    }
  }
}

/// The kernel body: advanceTile with kRows words, or with shortRows(kRows) words for the tiles
/// from g.shortFrom on (the last tile row, when its word rows fit the shorter ring). The tile's
/// origin is the same either way (row tileY * g.coreRows); the shorter ring only stops earlier.
template <int kRows, int kHaloWords, class RuleT>
__device__ __forceinline__ void advanceBlock(const Word* __restrict__ in, Word* __restrict__ out, const Geometry& g,
                                             int generations) {
  constexpr int kShort = shortRows(kRows);
  if constexpr (kShort > kHaloWords) {
    if (blockIdx.x >= g.shortFrom) {
      advanceTile<kShort, kHaloWords, RuleT>(in, out, g, generations);
      return;
    }
  }
  advanceTile<kRows, kHaloWords, RuleT>(in, out, g, generations);
}

}  // namespace flocklife::life::fast
