#pragma once
/// @file bench_gpu.cuh
/// GPU references that every GPU benchmark measures in the same run.
#include <cstdint>

namespace flocklife::bench {

/// Device-to-device copy bandwidth in GB/s (10^9 bytes/s), counting bytes read plus bytes
/// written, for a cudaMemcpyDeviceToDevice of `bytes` bytes; median of `repetitions` after a
/// warm-up copy, timed with CUDA events. @throws CudaError / OutOfMemoryError.
double copyBandwidthGBs(std::uint64_t bytes, int repetitions = 10);

}  // namespace flocklife::bench
