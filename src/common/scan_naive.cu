// Naive exclusive scan (Hillis & Steele, "Data parallel algorithms", CACM 29(12), 1986): the input
// shifted right by one, then ceil(log2 n) passes out[i] = in[i] + in[i - 2^d], each pass a
// separate launch that reads one global buffer and writes the other (ping-pong).
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan::detail {
namespace {

__global__ void shiftRightKernel(std::uint64_t n, const int* in, int* out) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) out[i] = i ? in[i - 1] : 0;
}

__global__ void naiveStepKernel(std::uint64_t n, std::uint64_t offset, const unsigned* in, unsigned* out) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) out[i] = in[i] + (i >= offset ? in[i - offset] : 0u);
}

}  // namespace

std::size_t naiveTempBytes(std::size_t n) { return 2 * carveBytes(n * sizeof(int)); }

void requireCourseBlockSize(int blockSize) {
  if (blockSize < 32 || blockSize > 1024 || blockSize % 32 != 0)
    throw std::invalid_argument("scan: block size " + std::to_string(blockSize) +
                                ": expected a multiple of 32 in [32, 1024]");
}

void scanNaive(const int* d_in, int* d_out, std::size_t n, void* d_temp, cudaStream_t s, int blockSize) {
  requireCourseBlockSize(blockSize);
  if (n == 0) return;
  int levels = 0;
  while ((std::uint64_t(1) << levels) < n) ++levels;  // ceil(log2 n)
  char* p = static_cast<char*>(d_temp);
  int* pingPong[2] = {carve<int>(p, n), carve<int>(p, n)};
  // The shift writes where pass 0 reads; the last pass writes d_out (d_in is read only by the shift).
  int* first = levels == 0 ? d_out : pingPong[0];
  shiftRightKernel<<<blocksFor(n, blockSize), blockSize, 0, s>>>(n, d_in, first);
  FL_CUDA_CHECK_LAUNCH();
  const int* src = first;
  for (int d = 0; d < levels; ++d) {
    int* dst = d == levels - 1 ? d_out : pingPong[(d + 1) % 2];
    naiveStepKernel<<<blocksFor(n, blockSize), blockSize, 0, s>>>(n, std::uint64_t(1) << d,
                                                                   reinterpret_cast<const unsigned*>(src),
                                                                   reinterpret_cast<unsigned*>(dst));
    FL_CUDA_CHECK_LAUNCH();
    src = dst;
  }
}

}  // namespace flocklife::scan::detail
