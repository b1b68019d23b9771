// 64-bit sums of bytes and of int32 values: grid-stride loops over 16-byte vectors (dp4a sums four
// bytes per instruction), a warp-shuffle and shared-memory reduction per block, one 64-bit atomic
// add per block.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/scan.cuh"

namespace flocklife::scan {
namespace {

constexpr int kThreads = 256;
constexpr unsigned kMaxBlocks = 2048;

template <class T>
__device__ __forceinline__ void blockAtomicAdd(T v, T* sum) {
  __shared__ T sWarp[kThreads / 32];
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) sWarp[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T s = 0;
    for (int w = 0; w < kThreads / 32; ++w) s += sWarp[w];
    atomicAdd(sum, s);
  }
}

/// Bytes [0, head) and [head + 16 * vecs, n) are summed one by one; the middle as uint4.
__global__ void __launch_bounds__(kThreads) sumBytesKernel(const std::uint8_t* in, std::uint64_t n, std::uint64_t head,
                                                          std::uint64_t vecs, unsigned long long* sum) {
  unsigned long long acc = 0;
  const uint4* v = reinterpret_cast<const uint4*>(in + head);
  for (std::uint64_t i = globalThreadId(); i < vecs; i += gridStride()) {
    const uint4 w = v[i];
    unsigned s = __dp4a(w.x, 0x01010101u, 0u);
    s = __dp4a(w.y, 0x01010101u, s);
    s = __dp4a(w.z, 0x01010101u, s);
    s = __dp4a(w.w, 0x01010101u, s);
    acc += s;
  }
  const std::uint64_t tailStart = head + 16 * vecs;
  for (std::uint64_t i = globalThreadId(); i < head + (n - tailStart); i += gridStride())
    acc += in[i < head ? i : tailStart + (i - head)];
  blockAtomicAdd<unsigned long long>(acc, sum);
}

__global__ void __launch_bounds__(kThreads) sumIntsKernel(const int* in, std::uint64_t n, std::uint64_t head,
                                                         std::uint64_t vecs, long long* sum) {
  long long acc = 0;
  const int4* v = reinterpret_cast<const int4*>(in + head);
  for (std::uint64_t i = globalThreadId(); i < vecs; i += gridStride()) {
    const int4 w = v[i];
    acc += (long long)w.x + w.y + w.z + w.w;
  }
  const std::uint64_t tailStart = head + 4 * vecs;
  for (std::uint64_t i = globalThreadId(); i < head + (n - tailStart); i += gridStride())
    acc += in[i < head ? i : tailStart + (i - head)];
  // atomicAdd has no signed 64-bit overload; two's-complement addition is the same operation.
  blockAtomicAdd<unsigned long long>((unsigned long long)acc, reinterpret_cast<unsigned long long*>(sum));
}

/// Elements before the first 16-byte boundary (at most n).
std::uint64_t headElements(const void* p, std::size_t elementBytes, std::uint64_t n) {
  const std::uint64_t mis = reinterpret_cast<std::uintptr_t>(p) & 15u;
  const std::uint64_t head = mis ? (16 - mis) / elementBytes : 0;
  return head < n ? head : n;
}

}  // namespace

void sumBytesAsync(const std::uint8_t* d_in, std::size_t n, unsigned long long* d_sum, cudaStream_t stream) {
  FL_CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof *d_sum, stream));
  if (n == 0) return;
  const std::uint64_t head = headElements(d_in, 1, n), vecs = (n - head) / 16;
  sumBytesKernel<<<blocksFor(vecs ? vecs : n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(d_in, n, head, vecs, d_sum);
  FL_CUDA_CHECK_LAUNCH();
}

void sumIntsAsync(const int* d_in, std::size_t n, long long* d_sum, cudaStream_t stream) {
  FL_CUDA_CHECK(cudaMemsetAsync(d_sum, 0, sizeof *d_sum, stream));
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(d_in) % alignof(int) != 0)
    throw std::invalid_argument("sumIntsAsync: d_in is not 4-byte aligned");
  const std::uint64_t head = headElements(d_in, 4, n), vecs = (n - head) / 4;
  sumIntsKernel<<<blocksFor(vecs ? vecs : n, kThreads, kMaxBlocks), kThreads, 0, stream>>>(d_in, n, head, vecs, d_sum);
  FL_CUDA_CHECK_LAUNCH();
}

std::uint64_t sumBytes(const std::uint8_t* d_in, std::size_t n, cudaStream_t stream) {
  DeviceBuffer<unsigned long long> d_sum(1, "byte sum result");
  sumBytesAsync(d_in, n, d_sum.data(), stream);
  unsigned long long h = 0;
  FL_CUDA_CHECK(cudaMemcpyAsync(&h, d_sum.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  FL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

std::int64_t sumInts(const int* d_in, std::size_t n, cudaStream_t stream) {
  DeviceBuffer<long long> d_sum(1, "int sum result");
  sumIntsAsync(d_in, n, d_sum.data(), stream);
  long long h = 0;
  FL_CUDA_CHECK(cudaMemcpyAsync(&h, d_sum.data(), sizeof h, cudaMemcpyDeviceToHost, stream));
  FL_CUDA_CHECK(cudaStreamSynchronize(stream));
  return h;
}

}  // namespace flocklife::scan
