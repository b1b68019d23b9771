#pragma once
/// @file gpu_engine.cuh
/// What every GPU Life engine holds: the rule and the two tuning parameters, validated once.
/// Internal to the life module (nvcc only); GpuByteEngine (byte_engine.cuh) and GpuBitEngine
/// (bit_layout.cuh) derive from it.
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "life/engine.hpp"

namespace flocklife::life::detail {

/// Throws std::invalid_argument naming --cells-per-thread unless 1 <= n <= 4096.
inline void validateCellsPerThread(int n) {
  if (n < 1 || n > 4096)
    throw std::invalid_argument("--cells-per-thread: expected 1..4096, got " + std::to_string(n));
}

class GpuEngine : public Engine {
 public:
  /// @param params  threadsPerBlock and cellsPerThread; 0 takes the kernel's default given here
  /// @throws std::invalid_argument naming --threads-per-block or --cells-per-thread when out of range
  GpuEngine(const Rule& rule, const KernelParams& params, int defaultThreadsPerBlock, int defaultCellsPerThread)
      : rule_(rule),
        threads_(params.threadsPerBlock ? params.threadsPerBlock : defaultThreadsPerBlock),
        cellsPerThread_(params.cellsPerThread ? params.cellsPerThread : defaultCellsPerThread) {
    validateBlockSize(threads_, "--threads-per-block");
    validateCellsPerThread(cellsPerThread_);
  }
  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }

 protected:
  Rule rule_;
  int threads_, cellsPerThread_;
};

}  // namespace flocklife::life::detail
