// Shared-memory work-efficient exclusive scan after Harris, Sengupta & Owens, "Parallel prefix sum
// (scan) with CUDA", GPU Gems 3 ch. 39 (2007): each block of 256 threads scans 512 elements with
// the up-sweep/down-sweep in shared memory, padding one word every 32 so that the tree's strided
// accesses fall into different banks; the block sums are scanned recursively by the same kernel
// and added back, so any n works.
#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan::detail {
namespace {

constexpr int kThreads = 256;
constexpr int kItems = 2 * kThreads;  // 512 elements per block
constexpr int kLogBanks = 5;          // 32 banks of 4 bytes

__device__ __forceinline__ int padded(int i) { return i + (i >> kLogBanks); }

/// Scans block b's 512 elements; writes their total to blockSums[b] when blockSums != nullptr.
/// In-place safe: the block reads its whole range before it writes.
__global__ void __launch_bounds__(kThreads) sharedScanKernel(const unsigned* in, unsigned* out, std::uint64_t n,
                                                             unsigned* blockSums) {
  __shared__ unsigned s[kItems + kItems / 32];
  const int t = int(threadIdx.x);
  const std::uint64_t base = std::uint64_t(blockIdx.x) * kItems;
  const int a = t, b = t + kThreads;
  s[padded(a)] = base + a < n ? in[base + a] : 0u;
  s[padded(b)] = base + b < n ? in[base + b] : 0u;
  int offset = 1;
  for (int d = kItems / 2; d > 0; d >>= 1) {  // up-sweep
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      s[padded(bi)] += s[padded(ai)];
    }
    offset <<= 1;
  }
  if (t == 0) {
    if (blockSums) blockSums[blockIdx.x] = s[padded(kItems - 1)];
    s[padded(kItems - 1)] = 0;
  }
  for (int d = 1; d < kItems; d <<= 1) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      const int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      const unsigned left = s[padded(ai)];
      s[padded(ai)] = s[padded(bi)];
      s[padded(bi)] += left;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[padded(a)];
  if (base + b < n) out[base + b] = s[padded(b)];
}

__global__ void addBlockSumsKernel(std::uint64_t n, unsigned* out, const unsigned* blockSums) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) out[i] += blockSums[i / kItems];
}

std::uint64_t blocksOf(std::uint64_t n) { return (n + kItems - 1) / kItems; }

void scanLevel(const unsigned* in, unsigned* out, std::uint64_t n, char* temp, cudaStream_t s) {
  const std::uint64_t blocks = blocksOf(n);
  if (blocks == 1) {
    sharedScanKernel<<<1, kThreads, 0, s>>>(in, out, n, nullptr);
    FL_CUDA_CHECK_LAUNCH();
    return;
  }
  unsigned* sums = carve<unsigned>(temp, blocks);
  sharedScanKernel<<<unsigned(blocks), kThreads, 0, s>>>(in, out, n, sums);
  FL_CUDA_CHECK_LAUNCH();
  scanLevel(sums, sums, blocks, temp, s);
  addBlockSumsKernel<<<blocksFor(n), kBlockSize, 0, s>>>(n, out, sums);
  FL_CUDA_CHECK_LAUNCH();
}

}  // namespace

std::size_t sharedTempBytes(std::size_t n) {
  std::size_t bytes = 0;
  for (std::uint64_t m = n; m > kItems; m = blocksOf(m)) bytes += carveBytes(blocksOf(m) * sizeof(unsigned));
  return bytes;
}

void scanShared(const int* d_in, int* d_out, std::size_t n, void* d_temp, cudaStream_t s) {
  if (n == 0) return;
  scanLevel(reinterpret_cast<const unsigned*>(d_in), reinterpret_cast<unsigned*>(d_out), n, static_cast<char*>(d_temp), s);
}

}  // namespace flocklife::scan::detail
