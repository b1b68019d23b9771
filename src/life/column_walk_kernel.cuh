#pragma once
/// @file column_walk_kernel.cuh
/// The column-walk thread mapping shared by `simple`, `simple-lut`, `lut6x3` and `packet64`: each
/// thread owns one word column (a cell, a byte of bit cells or a 64-bit packet) and walks down a
/// strip of rowsPerThread rows with bits::columnWalk, keeping three rows in registers, so each
/// step loads one new row's three words instead of nine (a warp's loads are 32 consecutive words,
/// coalesced; left and right neighbours hit L1). Blocks take (column block, strip) tasks in a
/// grid-stride loop, so a persistent grid (one block per SM for a shared-memory table) works too.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/bit_layout.cuh"
#include "life/bit_word.hpp"

namespace flocklife::life::detail {

/// Geometry of one column-walk launch. Words are S-sized; rows are `pitch` words apart.
struct ColumnWalkShape {
  std::uint64_t words = 0, pitch = 0, height = 0, rowsPerThread = 1, columnBlocks = 0, tasks = 0;
  int lastValid = 1;
};

/// @param words          words holding cells in a row (>= 1), the last with lastValid valid cells
/// @param rowsPerThread  rows each thread walks (KernelParams::cellsPerThread), >= 1
inline ColumnWalkShape columnWalkShape(std::uint64_t words, std::uint64_t pitch, std::uint64_t height, int lastValid,
                                       int rowsPerThread, int threadsPerBlock) {
  ColumnWalkShape s;
  s.words = words;
  s.pitch = pitch;
  s.height = height;
  s.lastValid = lastValid;
  s.rowsPerThread = std::uint64_t(rowsPerThread);
  s.columnBlocks = (words + std::uint64_t(threadsPerBlock) - 1) / std::uint64_t(threadsPerBlock);
  s.tasks = s.columnBlocks * ((height + s.rowsPerThread - 1) / s.rowsPerThread);
  return s;
}

/// The block's share of one generation: tasks blockIdx.x, blockIdx.x + gridDim.x, ...; task t is
/// column block t % columnBlocks of row strip t / columnBlocks (adjacent blocks, adjacent columns).
template <class S, class T, int kCellBits, class Eval>
__device__ __forceinline__ void columnWalkBlock(const S* __restrict__ in, S* __restrict__ out, const ColumnWalkShape& sh,
                                                const Eval& eval) {
  for (std::uint64_t t = blockIdx.x; t < sh.tasks; t += gridDim.x) {
    std::uint64_t strip, columnBlock;
    divMod(t, sh.columnBlocks, strip, columnBlock);
    const std::uint64_t i = columnBlock * blockDim.x + threadIdx.x;
    if (i >= sh.words) continue;
    const std::uint64_t y0 = strip * sh.rowsPerThread;
    const std::uint64_t y1 = y0 + sh.rowsPerThread < sh.height ? y0 + sh.rowsPerThread : sh.height;
    bits::columnWalk<S, T, kCellBits>(in, out, sh.pitch, sh.words, sh.height, sh.lastValid, i, y0, y1, eval);
  }
}

/// One generation with an evaluation that needs no shared memory.
template <class S, class T, int kCellBits, class Eval>
__global__ void __launch_bounds__(1024) columnWalkKernel(const S* __restrict__ in, S* __restrict__ out,
                                                         ColumnWalkShape sh, Eval eval) {
  columnWalkBlock<S, T, kCellBits>(in, out, sh, eval);
}

/// Blocks for a launch of `sh` (at most maxBlocks; the task loop covers the rest).
inline unsigned columnWalkBlocks(const ColumnWalkShape& sh, std::uint64_t maxBlocks = 1u << 20) {
  return unsigned(sh.tasks < maxBlocks ? sh.tasks : maxBlocks);
}

/// Launches `generations` generations of columnWalkKernel on a PingPong of bytes viewed as words S.
template <class S, class T, int kCellBits, class Eval>
void runColumnWalk(PingPong<std::uint8_t>& state, const ColumnWalkShape& sh, int threadsPerBlock, Eval eval,
                   std::uint64_t generations) {
  if (sh.tasks == 0) return;
  for (std::uint64_t g = 0; g < generations; ++g) {
    columnWalkKernel<S, T, kCellBits, Eval><<<columnWalkBlocks(sh), threadsPerBlock>>>(
        reinterpret_cast<const S*>(state.current()), reinterpret_cast<S*>(state.next()), sh, eval);
    FL_CUDA_CHECK_LAUNCH();
    state.flip();
  }
}

}  // namespace flocklife::life::detail
