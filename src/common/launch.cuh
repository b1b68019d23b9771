#pragma once
/// @file launch.cuh
/// Launch arithmetic for 1-D kernels (after cuCollections' utility/cuda.cuh).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"

namespace flocklife {

/// Default threads per block for simple 1-D kernels.
inline constexpr int kBlockSize = 128;

/// Number of blocks of `blockSize` threads that cover n items (at least 1 when n > 0), capped
/// at `maxBlocks` so that grid-stride loops cover the rest.
constexpr unsigned blocksFor(std::size_t n, int blockSize = kBlockSize, std::size_t maxBlocks = 1u << 20) {
  std::size_t b = (n + std::size_t(blockSize) - 1) / std::size_t(blockSize);
  return unsigned(b < maxBlocks ? b : maxBlocks);
}

/// Throws std::invalid_argument naming `flag` unless blockSize is a positive multiple of 32 and
/// at most 1024 (the limit of every CUDA device since compute capability 2.0).
inline void validateBlockSize(int blockSize, const char* flag = "--block-size") {
  if (blockSize <= 0 || blockSize % 32 != 0 || blockSize > 1024)
    throw std::invalid_argument(std::string(flag) + ": expected a multiple of 32 in [32, 1024], got " +
                                std::to_string(blockSize));
}

/// 64-bit global thread index and grid stride, so that indices above 2^31 do not overflow.
__device__ __forceinline__ std::uint64_t globalThreadId() {
  return std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::uint64_t gridStride() {
  return std::uint64_t(gridDim.x) * blockDim.x;
}

}  // namespace flocklife
