// Stable LSD radix sort of (key, value) pairs on our production scan. Each pass sorts by one 4-bit
// digit: (1) per-tile digit histograms written digit-major, counts[d * tiles + tile]; (2) an
// exclusive scan of that table, giving every (digit, tile) its first output position; (3) each
// tile ranks its elements stably (per-thread digit counts, then a block-wide exclusive scan over
// the [digit][thread] count table) and scatters keys and values. The classic GPU formulation of
// Satish, Harris & Garland, "Designing efficient sorting algorithms for manycore GPUs", IPDPS 2009.
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"
#include "common/scan_layout.hpp"
#include "common/warp_scan.cuh"

namespace flocklife::scan {
namespace {

constexpr int kThreads = 256;
constexpr int kItems = 8;                        // consecutive elements per thread (blocked)
constexpr int kTileItems = kThreads * kItems;    // 2048
constexpr int kRadix = 16;                       // 4-bit digits
constexpr int kDigitBits = 4;

__device__ __forceinline__ int padded(int i) { return layout::paddedCountIndex(i); }

__global__ void __launch_bounds__(kThreads) histogramKernel(const std::uint32_t* keys, std::uint64_t n, int shift,
                                                           int bits, std::uint32_t* counts,
                                                           std::uint64_t tiles) {
  __shared__ unsigned sHist[kRadix];
  if (threadIdx.x < kRadix) sHist[threadIdx.x] = 0;
  __syncthreads();
  const std::uint64_t base = std::uint64_t(blockIdx.x) * kTileItems;
  for (int i = int(threadIdx.x); i < kTileItems; i += kThreads)
    if (base + i < n) atomicAdd(&sHist[layout::radixDigit(keys[base + i], shift, bits)], 1u);
  __syncthreads();
  if (threadIdx.x < kRadix) counts[threadIdx.x * tiles + blockIdx.x] = sHist[threadIdx.x];
}

__global__ void __launch_bounds__(kThreads) scatterKernel(const std::uint32_t* keysIn, const std::uint32_t* valuesIn,
                                                         std::uint32_t* keysOut, std::uint32_t* valuesOut,
                                                         std::uint64_t n, int shift, int bits,
                                                         const std::uint32_t* offsets, std::uint64_t tiles,
                                                         bool vectorOk) {
  __shared__ unsigned sCount[kRadix * kThreads + kRadix * kThreads / 32];  // [digit][thread], padded
  __shared__ unsigned sWarpTotals[kThreads / 32];
  __shared__ unsigned sDigitBase[kRadix];
  const int t = int(threadIdx.x), lane = t % 32, warp = t / 32;
  const std::uint64_t first = std::uint64_t(blockIdx.x) * kTileItems + std::uint64_t(t) * kItems;
  std::uint32_t k[kItems], v[kItems];
  if (vectorOk && first + kItems <= n) {
    const uint4* kp = reinterpret_cast<const uint4*>(keysIn + first);
    const uint4* vp = reinterpret_cast<const uint4*>(valuesIn + first);
#pragma unroll
    for (int q = 0; q < kItems / 4; ++q) {
      const uint4 a = kp[q], b = vp[q];
      k[4 * q] = a.x, k[4 * q + 1] = a.y, k[4 * q + 2] = a.z, k[4 * q + 3] = a.w;
      v[4 * q] = b.x, v[4 * q + 1] = b.y, v[4 * q + 2] = b.z, v[4 * q + 3] = b.w;
    }
  } else {
#pragma unroll
    for (int i = 0; i < kItems; ++i) {
      k[i] = first + i < n ? keysIn[first + i] : 0u;
      v[i] = first + i < n ? valuesIn[first + i] : 0u;
    }
  }
#pragma unroll
  for (int d = 0; d < kRadix; ++d) sCount[padded(d * kThreads + t)] = 0;
  unsigned rank[kItems] = {};
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (first + i < n) {
      const int d = int(layout::radixDigit(k[i], shift, bits));
      rank[i] = sCount[padded(d * kThreads + t)]++;  // only thread t touches column t
    }
  }
  __syncthreads();
  // Exclusive scan of the 4096-entry table in digit-major order; thread t owns entries 16t..16t+15.
  unsigned x[kRadix], run = 0;
#pragma unroll
  for (int e = 0; e < kRadix; ++e) {
    x[e] = sCount[padded(t * kRadix + e)];
    run += x[e];
  }
  unsigned incl[1] = {run};
  scan::warpInclusiveScan<1>(incl, lane);
  if (lane == 31) sWarpTotals[warp] = incl[0];
  __syncthreads();
  unsigned prefix = incl[0] - run;
  for (int w = 0; w < warp; ++w) prefix += sWarpTotals[w];
#pragma unroll
  for (int e = 0; e < kRadix; ++e) {
    sCount[padded(t * kRadix + e)] = prefix;
    prefix += x[e];
  }
  __syncthreads();
  if (t < kRadix) sDigitBase[t] = offsets[std::uint64_t(t) * tiles + blockIdx.x] - sCount[padded(t * kThreads)];
  __syncthreads();
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    if (first + i < n) {
      const int d = int(layout::radixDigit(k[i], shift, bits));
      const std::uint64_t pos = std::uint64_t(sDigitBase[d] + sCount[padded(d * kThreads + t)] + rank[i]);
      keysOut[pos] = k[i];
      valuesOut[pos] = v[i];
    }
  }
}

std::uint64_t tilesFor(std::size_t n) { return (std::uint64_t(n) + kTileItems - 1) / kTileItems; }
bool aligned16(const void* a, const void* b) {
  return ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15u) == 0;
}

}  // namespace

std::size_t radixSortPairsTempBytes(std::size_t n) {
  const std::uint64_t counts = kRadix * tilesFor(n);
  return 2 * detail::carveBytes(n * sizeof(std::uint32_t)) + detail::carveBytes(counts * sizeof(std::uint32_t)) +
         exclusiveScanTempBytes(counts);
}

void radixSortPairs(const std::uint32_t* d_keysIn, std::uint32_t* d_keysOut, const std::uint32_t* d_valuesIn,
                    std::uint32_t* d_valuesOut, std::size_t n, int beginBit, int endBit, void* d_temp,
                    std::size_t tempBytes, cudaStream_t stream) {
  if (beginBit < 0 || beginBit > endBit || endBit > 32)
    throw std::invalid_argument("radixSortPairs: bit range [" + std::to_string(beginBit) + ", " +
                                std::to_string(endBit) + ") must satisfy 0 <= beginBit <= endBit <= 32");
  if (std::uint64_t(n) >= (std::uint64_t(1) << 32))
    throw std::invalid_argument("radixSortPairs: n = " + std::to_string(n) + " must be below 2^32");
  detail::requireTemp("radixSortPairs", radixSortPairsTempBytes(n), tempBytes, d_temp);
  if (n == 0) return;
  const int passes = (endBit - beginBit + kDigitBits - 1) / kDigitBits;
  if (passes == 0) {
    FL_CUDA_CHECK(cudaMemcpyAsync(d_keysOut, d_keysIn, n * 4, cudaMemcpyDeviceToDevice, stream));
    FL_CUDA_CHECK(cudaMemcpyAsync(d_valuesOut, d_valuesIn, n * 4, cudaMemcpyDeviceToDevice, stream));
    return;
  }
  const std::uint64_t tiles = tilesFor(n), numCounts = kRadix * tiles;
  char* p = static_cast<char*>(d_temp);
  std::uint32_t* keysAlt = detail::carve<std::uint32_t>(p, n);
  std::uint32_t* valuesAlt = detail::carve<std::uint32_t>(p, n);
  std::uint32_t* counts = detail::carve<std::uint32_t>(p, numCounts);
  const std::size_t scanBytes = exclusiveScanTempBytes(numCounts);
  const std::uint32_t* srcK = d_keysIn;
  const std::uint32_t* srcV = d_valuesIn;
  for (int pass = 0; pass < passes; ++pass) {
    const bool toOut = (passes - 1 - pass) % 2 == 0;  // so that the last pass writes the outputs
    std::uint32_t* dstK = toOut ? d_keysOut : keysAlt;
    std::uint32_t* dstV = toOut ? d_valuesOut : valuesAlt;
    const int shift = beginBit + pass * kDigitBits;
    const int bits = endBit - shift < kDigitBits ? endBit - shift : kDigitBits;
    histogramKernel<<<unsigned(tiles), kThreads, 0, stream>>>(srcK, n, shift, bits, counts, tiles);
    FL_CUDA_CHECK_LAUNCH();
    exclusiveScan(counts, counts, numCounts, p, scanBytes, stream);
    scatterKernel<<<unsigned(tiles), kThreads, 0, stream>>>(srcK, srcV, dstK, dstV, n, shift, bits, counts, tiles,
                                                             aligned16(srcK, srcV));
    FL_CUDA_CHECK_LAUNCH();
    srcK = dstK;
    srcV = dstV;
  }
}

}  // namespace flocklife::scan
