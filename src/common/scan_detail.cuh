#pragma once
/// @file scan_detail.cuh
/// Internal to flocklife_common: declarations shared by the scan .cu files (the course methods
/// behind the exclusiveScan(ScanMethod, ...) dispatcher), scratch carving, and the device pieces
/// of the single-pass scans: warp scans and the decoupled look-back of Merrill & Garland (2016).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/scan_layout.hpp"
#include "common/warp_scan.cuh"

namespace flocklife::scan::detail {

// ---------------------------------------------------------------- scratch carving

/// Every sub-array of a scratch buffer starts on a 256-byte boundary.
constexpr std::size_t kScratchAlign = 256;
constexpr std::size_t carveBytes(std::size_t bytes) {
  return (bytes + kScratchAlign - 1) / kScratchAlign * kScratchAlign;
}
/// Returns p as a T*, then advances p past `count` T's (rounded up to kScratchAlign).
template <class T>
T* carve(char*& p, std::size_t count) {
  T* r = reinterpret_cast<T*>(p);
  p += carveBytes(count * sizeof(T));
  return r;
}
/// Throws std::invalid_argument naming `what` when have < need.
void requireTemp(const char* what, std::size_t need, std::size_t have, const void* d_temp);

// ---------------------------------------------------------------- course methods (one .cu each)

/// The course methods take `blockSize`, the threads per block of every launch (a multiple of 32 in
/// [32, 1024]; exclusiveScan passes kBlockSize, 128, from common/launch.cuh); the blocks of a launch are
/// blocksFor(threads needed, blockSize): enough to cover them, at most 2^20, grid-stride loops doing
/// the rest. @throws std::invalid_argument for another block size (before any launch).
void requireCourseBlockSize(int blockSize);
std::size_t naiveTempBytes(std::size_t n);
void scanNaive(const int* d_in, int* d_out, std::size_t n, void* d_temp, cudaStream_t s, int blockSize);
std::size_t workEfficientTempBytes(std::size_t n);
/// lean = false: m threads at every level (index % stride test); lean = true: m / stride threads.
void scanWorkEfficient(const int* d_in, int* d_out, std::size_t n, void* d_temp, bool lean, cudaStream_t s,
                       int blockSize);
std::size_t sharedTempBytes(std::size_t n);
void scanShared(const int* d_in, int* d_out, std::size_t n, void* d_temp, cudaStream_t s);
void scanThrust(const int* d_in, int* d_out, std::size_t n, cudaStream_t s);
/// Tunings of the single-pass scan and fused compaction (threads per block, uint4 per thread,
/// minimum resident blocks per SM, tile numbering, cache hints); index 0 is the production one,
/// the others are timed by the benchmark's tuning rows and checked by the tests.
constexpr int kScanTunings = 17;
constexpr int kCompactTunings = 2;
/// Name of tuning i (0 <= i < kScanTunings or kCompactTunings), e.g. "t256v8-m4-cs": 256 threads,
/// 8 uint4 per thread, at least 4 blocks per SM, evict-first hints; "-blockidx": tiles numbered by
/// blockIdx.x instead of an atomic counter (relies on in-order block dispatch, as CUB does);
/// "-delay": CUB's sm_90 look-back sleeps; "-pfK" / "-bpfK": the input of the tile K tiles ahead
/// is prefetched into L2 (per 128-byte line / one bulk prefetch).
/// @throws std::invalid_argument for i out of range.
const char* scanTuningName(int i);
const char* compactTuningName(int i);
/// The single-pass scan with tuning `tuning`; scratch: exclusiveScanTempBytes(n) fits every tuning.
/// @throws std::invalid_argument for an unknown tuning or too small scratch.
void scanDecoupled(const unsigned* d_in, unsigned* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   int tuning, cudaStream_t s);
/// Fused single-pass compaction (scan_decoupled.cu): each warp packs its selected elements in
/// shared memory and writes them as one coalesced run. CompactMethod::Fused uses tuning 0.
std::size_t compactFusedTempBytes(std::size_t n);
void compactFused(const int* d_in, int* d_out, std::size_t n, unsigned long long* d_numSelected, void* d_temp,
                  cudaStream_t s, int tuning = 0);

// ---------------------------------------------------------------- single-pass look-back

using layout::kStatusAggregate;
using layout::kStatusFlagMask;
using layout::kStatusInvalid;
using layout::kStatusPrefix;
using layout::kStatusValueMask;

#ifdef __CUDACC__
__device__ __forceinline__ void storeStatus(unsigned long long* p, std::uint64_t v) {
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ std::uint64_t loadStatus(const unsigned long long* p) {
  std::uint64_t v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

/// Sum over the 32 lanes of a full warp, returned to every lane.
__device__ __forceinline__ std::uint64_t warpSum(std::uint64_t v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ __forceinline__ unsigned warpSum(unsigned v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

/// Grids of fewer tiles than this never sleep in the look-back (CUB's threshold: with few tiles
/// the predecessors are done almost at once).
constexpr unsigned kLookBackDelayMinTiles = 500;

/// Decoupled look-back, run by one full warp of the block that owns `tile`. Publishes the tile's
/// aggregate, walks back over the predecessors 32 at a time (summing aggregates until it meets an
/// inclusive prefix), publishes this tile's inclusive prefix and returns its exclusive prefix
/// (modulo 2^62) to every lane. `status` must hold kStatusInvalid for this tile and all later ones
/// when the kernel starts; tiles must be started in order (atomic tile counter), which makes the
/// spin-wait on kStatusInvalid finite.
/// Delays (as CUB's fixed delay constructor; only in grids of at least kLookBackDelayMinTiles
/// blocks): kFirstDelayNs sleeps once after publishing the aggregate, before the first poll
/// (predecessors get time to publish), kPollDelayNs before each repeated poll of a window that
/// still holds an invalid status (less L2 traffic from spinning warps). 0 = no sleep.
template <int kFirstDelayNs = 0, int kPollDelayNs = 0>
__device__ __forceinline__ std::uint64_t lookBack(unsigned long long* status, std::uint64_t tile,
                                                  std::uint64_t aggregate, int lane) {
  aggregate &= kStatusValueMask;
  if (tile == 0) {
    if (lane == 0) storeStatus(&status[0], layout::makeStatus(kStatusPrefix, aggregate));
    return 0;
  }
  if (lane == 0) storeStatus(&status[tile], layout::makeStatus(kStatusAggregate, aggregate));
  const bool sleepy = gridDim.x >= kLookBackDelayMinTiles;
  if (kFirstDelayNs > 0 && sleepy) __nanosleep(kFirstDelayNs);
  std::uint64_t exclusive = 0;
  long long pred = static_cast<long long>(tile) - 1;
  while (true) {
    const long long idx = pred - lane;
    std::uint64_t s = idx >= 0 ? loadStatus(&status[idx]) : kStatusPrefix;  // before tile 0: prefix 0
    while (__any_sync(0xffffffffu, layout::statusFlag(s) == kStatusInvalid)) {
      if (kPollDelayNs > 0 && sleepy) __nanosleep(kPollDelayNs);
      if (layout::statusFlag(s) == kStatusInvalid) s = loadStatus(&status[idx]);
    }
    const unsigned prefixLanes = __ballot_sync(0xffffffffu, layout::statusFlag(s) == kStatusPrefix);
    std::uint64_t v = layout::statusValue(s);
    if (prefixLanes) {
      const int first = __ffs(prefixLanes) - 1;  // the nearest predecessor with an inclusive prefix
      exclusive += warpSum(lane <= first ? v : std::uint64_t(0));
      break;
    }
    exclusive += warpSum(v);
    pred -= 32;
  }
  exclusive &= kStatusValueMask;
  if (lane == 0) storeStatus(&status[tile], layout::makeStatus(kStatusPrefix, exclusive + aggregate));
  return exclusive;
}
#endif  // __CUDACC__

}  // namespace flocklife::scan::detail
