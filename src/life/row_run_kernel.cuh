#pragma once
/// @file row_run_kernel.cuh
/// The thread mapping of NightElfik's bit-per-cell kernels ("Conway's Game of Life on GPU using
/// CUDA"), for any word type: each thread takes runs of `wordsPerThread` consecutive words of a
/// row (grid-stride over all runs of all rows) and walks them with bits::rowRun. Used by
/// `bitcount`, `bitcount32` and `packet64` with their own word type and evaluation.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "life/bit_layout.cuh"
#include "life/bit_word.hpp"

namespace flocklife::life::detail {

/// One generation. `in` and `out` hold `height` rows of `pitchWords` words, of which the first
/// `wordsPerRow` hold cells (the last with `lastValid` valid cells); they must not alias.
template <class S, class T, int kCellBits, class Eval>
__global__ void __launch_bounds__(1024) rowRunKernel(const S* __restrict__ in, S* __restrict__ out, std::uint64_t wordsPerRow,
                             std::uint64_t pitchWords, std::uint64_t height, int lastValid,
                             std::uint64_t wordsPerThread, std::uint64_t runsPerRow, Eval eval) {
  const std::uint64_t runs = runsPerRow * height;
  for (std::uint64_t r = globalThreadId(); r < runs; r += gridStride()) {
    std::uint64_t y, run;
    divMod(r, runsPerRow, y, run);
    const std::uint64_t i0 = run * wordsPerThread;
    const std::uint64_t i1 = i0 + wordsPerThread < wordsPerRow ? i0 + wordsPerThread : wordsPerRow;
    const std::uint64_t ym = y == 0 ? height - 1 : y - 1, yp = y + 1 == height ? 0 : y + 1;
    bits::rowRun<S, T, kCellBits>(in + ym * pitchWords, in + y * pitchWords, in + yp * pitchWords,
                                  out + y * pitchWords, wordsPerRow, lastValid, i0, i1, eval);
  }
}

/// Launches `generations` generations of rowRunKernel on a PingPong of bytes viewed as words S.
template <class S, class T, int kCellBits, class Eval>
void runRowRunKernel(PingPong<std::uint8_t>& state, std::uint64_t wordsPerRow, std::uint64_t pitchWords,
                     std::uint64_t height, int lastValid, int wordsPerThread, int threadsPerBlock, Eval eval,
                     std::uint64_t generations) {
  const std::uint64_t runsPerRow = (wordsPerRow + std::uint64_t(wordsPerThread) - 1) / std::uint64_t(wordsPerThread);
  const std::uint64_t runs = runsPerRow * height;
  if (runs == 0) return;
  const unsigned blocks = blocksFor(runs, threadsPerBlock, 1u << 20);
  for (std::uint64_t g = 0; g < generations; ++g) {
    rowRunKernel<S, T, kCellBits, Eval><<<blocks, threadsPerBlock>>>(
        reinterpret_cast<const S*>(state.current()), reinterpret_cast<S*>(state.next()), wordsPerRow, pitchWords,
        height, lastValid, std::uint64_t(wordsPerThread), runsPerRow, eval);
    FL_CUDA_CHECK_LAUNCH();
    state.flip();
  }
}

}  // namespace flocklife::life::detail
