// Work-efficient exclusive scan (Blelloch, "Prefix sums and their applications", CMU-CS-90-190,
// 1990): the input copied into a scratch array padded with zeros to m = 2^ceil(log2 n), an
// up-sweep (reduction tree) and a down-sweep, one launch per tree level, in global memory.
// Plain variant: m threads at every level, of which only those at multiples of the stride work
// (the course's first version). Lean variant: only the m / stride threads a level needs, thread k
// working on node k (the course's "optimized" version).
#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan::detail {
namespace {

__global__ void upSweepAllKernel(std::uint64_t m, std::uint64_t stride, unsigned* data) {
  for (std::uint64_t k = globalThreadId(); k < m; k += gridStride())
    if ((k & (stride - 1)) == 0) data[k + stride - 1] += data[k + stride / 2 - 1];
}
__global__ void downSweepAllKernel(std::uint64_t m, std::uint64_t stride, unsigned* data) {
  for (std::uint64_t k = globalThreadId(); k < m; k += gridStride())
    if ((k & (stride - 1)) == 0) {
      const unsigned left = data[k + stride / 2 - 1];
      data[k + stride / 2 - 1] = data[k + stride - 1];
      data[k + stride - 1] += left;
    }
}
/// `nodes` = m / stride threads; node t covers [t * stride, (t + 1) * stride).
__global__ void upSweepLeanKernel(std::uint64_t nodes, std::uint64_t stride, unsigned* data) {
  for (std::uint64_t t = globalThreadId(); t < nodes; t += gridStride()) {
    const std::uint64_t k = t * stride;
    data[k + stride - 1] += data[k + stride / 2 - 1];
  }
}
__global__ void downSweepLeanKernel(std::uint64_t nodes, std::uint64_t stride, unsigned* data) {
  for (std::uint64_t t = globalThreadId(); t < nodes; t += gridStride()) {
    const std::uint64_t k = t * stride;
    const unsigned left = data[k + stride / 2 - 1];
    data[k + stride / 2 - 1] = data[k + stride - 1];
    data[k + stride - 1] += left;
  }
}

std::uint64_t paddedSize(std::size_t n) {
  std::uint64_t m = 1;
  while (m < n) m <<= 1;
  return m;
}

}  // namespace

std::size_t workEfficientTempBytes(std::size_t n) { return n ? carveBytes(paddedSize(n) * sizeof(int)) : 0; }

void scanWorkEfficient(const int* d_in, int* d_out, std::size_t n, void* d_temp, bool lean, cudaStream_t s,
                       int blockSize) {
  requireCourseBlockSize(blockSize);
  if (n == 0) return;
  const std::uint64_t m = paddedSize(n);
  auto* data = static_cast<unsigned*>(d_temp);
  FL_CUDA_CHECK(cudaMemcpyAsync(data, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
  if (m > n) FL_CUDA_CHECK(cudaMemsetAsync(data + n, 0, (m - n) * sizeof(int), s));
  for (std::uint64_t stride = 2; stride <= m; stride <<= 1) {
    if (lean)
      upSweepLeanKernel<<<blocksFor(m / stride, blockSize), blockSize, 0, s>>>(m / stride, stride, data);
    else
      upSweepAllKernel<<<blocksFor(m, blockSize), blockSize, 0, s>>>(m, stride, data);
    FL_CUDA_CHECK_LAUNCH();
  }
  FL_CUDA_CHECK(cudaMemsetAsync(data + m - 1, 0, sizeof(int), s));  // the root becomes the identity
  for (std::uint64_t stride = m; stride >= 2; stride >>= 1) {
    if (lean)
      downSweepLeanKernel<<<blocksFor(m / stride, blockSize), blockSize, 0, s>>>(m / stride, stride, data);
    else
      downSweepAllKernel<<<blocksFor(m, blockSize), blockSize, 0, s>>>(m, stride, data);
    FL_CUDA_CHECK_LAUNCH();
  }
  FL_CUDA_CHECK(cudaMemcpyAsync(d_out, data, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
}

}  // namespace flocklife::scan::detail
