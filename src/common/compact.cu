// Stream compaction (keep the non-zero elements, stable) as map -> exclusive scan -> scatter,
// on the lean work-efficient scan or on the production scan; the fused single-pass variant is in
// scan_decoupled.cu. This file dispatches all three.
#include <limits>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan {
namespace {

__global__ void nonZeroFlagsKernel(std::uint64_t n, const int* in, int* flags) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) flags[i] = in[i] != 0;
}

/// out[index[i]] = in[i] where in[i] != 0; the last thread also writes the count.
__global__ void scatterKernel(std::uint64_t n, const int* in, const int* index, int* out,
                              unsigned long long* numSelected) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    const int v = in[i];
    if (v != 0) out[index[i]] = v;
    if (i == n - 1) *numSelected = (unsigned long long)(unsigned(index[i])) + (v != 0);
  }
}

}  // namespace

std::size_t compactTempBytes(CompactMethod m, std::size_t n) {
  switch (m) {
    case CompactMethod::WorkEfficient:
      return detail::carveBytes(n * sizeof(int)) + scanTempBytes(ScanMethod::WorkEfficientLean, n);
    case CompactMethod::Decoupled:
      return detail::carveBytes(n * sizeof(int)) + exclusiveScanTempBytes(n);
    case CompactMethod::Fused:
      return detail::compactFusedTempBytes(n);
    default:
      throw std::invalid_argument(std::string("compactTempBytes: '") + name(m) + "' is not a GPU method");
  }
}

void compact(CompactMethod m, const int* d_in, int* d_out, std::size_t n, unsigned long long* d_numSelected,
             void* d_temp, std::size_t tempBytes, cudaStream_t stream) {
  const std::size_t need = compactTempBytes(m, n);
  detail::requireTemp("compact", need, tempBytes, d_temp);
  if (m == CompactMethod::Fused) {
    detail::compactFused(d_in, d_out, n, d_numSelected, d_temp, stream);
    return;
  }
  if (n > std::size_t(std::numeric_limits<int>::max()))
    throw std::invalid_argument(std::string("compact (") + name(m) + "): n = " + std::to_string(n) +
                                " exceeds 2^31 - 1 (int32 indices); use CompactMethod::Fused");
  if (n == 0) {
    FL_CUDA_CHECK(cudaMemsetAsync(d_numSelected, 0, sizeof(unsigned long long), stream));
    return;
  }
  char* p = static_cast<char*>(d_temp);
  int* index = detail::carve<int>(p, n);
  const std::size_t scanBytes = need - detail::carveBytes(n * sizeof(int));
  nonZeroFlagsKernel<<<blocksFor(n), kBlockSize, 0, stream>>>(n, d_in, index);
  FL_CUDA_CHECK_LAUNCH();
  if (m == CompactMethod::WorkEfficient)
    exclusiveScan(ScanMethod::WorkEfficientLean, index, index, n, p, scanBytes, stream);
  else
    exclusiveScan(index, index, n, p, scanBytes, stream);
  scatterKernel<<<blocksFor(n), kBlockSize, 0, stream>>>(n, d_in, index, d_out, d_numSelected);
  FL_CUDA_CHECK_LAUNCH();
}

}  // namespace flocklife::scan
