#pragma once
/// @file tiled_kernel.cuh
/// The byte-per-cell tile kernel behind `tiled` (two buffers) and `tiled-inplace` (one buffer plus
/// a staging buffer for tile borders): each block stages a tile of kTileWidth x tileHeight cells
/// plus a one-cell halo (torus-wrapped) in shared memory, then every thread evaluates cells of
/// its column from shared memory with the rule as a 2x9 table.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "life/bit_layout.cuh"
#include "life/tile_border.hpp"

namespace flocklife::life::detail {

/// Tile width in cells = threads in x (one warp wide, so halo rows load coalesced).
inline constexpr int kTileWidth = 32;

/// Shared bytes for a tile of `tileHeight` rows plus halo.
constexpr std::size_t tileSharedBytes(int tileHeight) { return std::size_t(kTileWidth + 2) * std::size_t(tileHeight + 2); }

/// One generation over all tiles (grid-stride over tiles). Block = (kTileWidth, rows) threads
/// (blockDim.x == kTileWidth); each thread evaluates rows threadIdx.y, threadIdx.y + blockDim.y,
/// ... of its column of the tile.
/// kInPlace = false: reads `in`, writes `out` (distinct buffers). kInPlace = true: `in == out`;
/// interior cells are written in place, border cells to `staging` (borderSlots per tile) for
/// tiledCopyBackKernel.
template <bool kInPlace>
__global__ void __launch_bounds__(1024) tiledKernel(const std::uint8_t* in, std::uint8_t* out, std::uint8_t* __restrict__ staging,
                            std::int64_t width, std::int64_t height, int tileHeight, std::uint64_t tilesX,
                            std::uint64_t tiles, std::uint16_t birthMask, std::uint16_t surviveMask) {
  extern __shared__ std::uint8_t s_tile[];  // (kTileWidth + 2) x (tileHeight + 2)
  __shared__ std::uint8_t s_rule[18];       // [alive * 9 + neighbours] -> next state (2x9 table)
  const int tid = threadIdx.y * blockDim.x + threadIdx.x;
  if (tid < 18) s_rule[tid] = std::uint8_t((((tid >= 9 ? surviveMask : birthMask) >> (tid % 9)) & 1u));
  constexpr int kStride = kTileWidth + 2;
  for (std::uint64_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    std::uint64_t ty, tx;
    divMod(tile, tilesX, ty, tx);
    const std::int64_t x0 = std::int64_t(tx) * kTileWidth, y0 = std::int64_t(ty) * tileHeight;
    const int cw = int(width - x0 < kTileWidth ? width - x0 : kTileWidth);
    const int ch = int(height - y0 < tileHeight ? height - y0 : tileHeight);
    // The clipped tile and its one-cell ring only (nothing else is read, so tiled-inplace never
    // reads another tile's interior). One warp per row: the row's wrap is computed once.
    for (int ly = threadIdx.y; ly < ch + 2; ly += blockDim.y) {
      const std::uint8_t* row = in + std::uint64_t(tiles::wrapCoord(y0 + ly - 1, height)) * std::uint64_t(width);
      for (int lx = threadIdx.x; lx < cw + 2; lx += blockDim.x)
        s_tile[ly * kStride + lx] = row[tiles::wrapCoord(x0 + lx - 1, width)];
    }
    __syncthreads();
    const int lx = threadIdx.x;
    if (lx < cw) {
      for (int ly = threadIdx.y; ly < ch; ly += blockDim.y) {
        const std::uint8_t* c = s_tile + (ly + 1) * kStride + (lx + 1);
        const int n = c[-kStride - 1] + c[-kStride] + c[-kStride + 1] + c[-1] + c[1] + c[kStride - 1] + c[kStride] +
                      c[kStride + 1];
        const std::uint8_t v = s_rule[(c[0] ? 9 : 0) + n];
        const std::uint64_t g = std::uint64_t(y0 + ly) * std::uint64_t(width) + std::uint64_t(x0 + lx);
        if (kInPlace) {
          const int slot = tiles::borderSlot(lx, ly, cw, ch, kTileWidth, tileHeight);
          if (slot >= 0)
            staging[tile * std::uint64_t(tiles::borderSlots(kTileWidth, tileHeight)) + std::uint64_t(slot)] = v;
          else
            out[g] = v;
        } else {
          out[g] = v;
        }
      }
    }
    __syncthreads();  // the next tile reuses s_tile
  }
}

/// The tiles of one world: kTileWidth x tileHeight cells each (the last row and column of tiles
/// clipped), numbered row-major.
struct TileGrid {
  int tileHeight = 0;
  std::uint64_t tilesX = 0, tiles = 0;
};

/// Rows per tile for blocks of `threadsPerBlock` threads each evaluating `rowsPerThread` rows of
/// its column. @throws std::invalid_argument naming --cells-per-thread when a tile plus halo
/// exceeds 48 KiB of shared memory.
inline int tileHeightFor(int threadsPerBlock, int rowsPerThread) {
  const int tileHeight = threadsPerBlock / kTileWidth * rowsPerThread;
  if (tileSharedBytes(tileHeight) > 48 * 1024)
    throw std::invalid_argument("--cells-per-thread: a tile of 32 x " + std::to_string(tileHeight) +
                                " cells exceeds 48 KiB of shared memory; use fewer rows per thread");
  return tileHeight;
}

inline TileGrid tileGrid(std::int64_t width, std::int64_t height, int tileHeight) {
  TileGrid g;
  g.tileHeight = tileHeight;
  g.tilesX = (std::uint64_t(width) + kTileWidth - 1) / kTileWidth;
  g.tiles = g.tilesX * ((std::uint64_t(height) + tileHeight - 1) / std::uint64_t(tileHeight));
  return g;
}

/// One generation of tiledKernel<kInPlace> over `grid` with blocks of `threadsPerBlock` threads
/// (kTileWidth x threadsPerBlock / kTileWidth), at most 2^20 blocks. Asynchronous.
/// @throws CudaError on launch failure
template <bool kInPlace>
void launchTiled(const std::uint8_t* in, std::uint8_t* out, std::uint8_t* staging, std::int64_t width,
                 std::int64_t height, const TileGrid& grid, int threadsPerBlock, std::uint16_t birthMask,
                 std::uint16_t surviveMask) {
  if (grid.tiles == 0) return;
  const dim3 block(kTileWidth, unsigned(threadsPerBlock / kTileWidth));
  const unsigned blocks = unsigned(grid.tiles < (1u << 20) ? grid.tiles : (1u << 20));
  tiledKernel<kInPlace><<<blocks, block, tileSharedBytes(grid.tileHeight)>>>(
      in, out, staging, width, height, grid.tileHeight, grid.tilesX, grid.tiles, birthMask, surviveMask);
  FL_CUDA_CHECK_LAUNCH();
}

}  // namespace flocklife::life::detail
