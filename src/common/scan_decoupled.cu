// Production exclusive scan and fused stream compaction: one pass over the data with decoupled
// look-back (Merrill & Garland, "Single-pass parallel prefix scan with decoupled look-back",
// NVR-2016-002). A tile is T threads x 4 V elements (V uint4 per thread). Within a warp the
// 128 V elements are held in warp-striped order (vector j of lane l covers elements
// 4 (32 j + l) .. +3), so every load and store instruction of a warp touches 512 contiguous bytes.
// Each warp reduces its elements first; warp 0 publishes the tile's aggregate and runs the
// look-back while the other warps scan their elements (the in-tile scan is off the look-back's
// critical path). Several tunings are compiled (Config below); index 0 is the production one.
#include <cstdint>
#include <iterator>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan {
namespace detail {
namespace {

/// Prefetch modes of a tuning: none, one `prefetch.L2` per 128-byte line spread over the block's
/// threads, or one bulk (TMA) `cp.async.bulk.prefetch.L2` of the whole tile by thread 0 (sm_90;
/// elsewhere, and for input that is not 16-byte aligned, the bulk mode prefetches nothing).
enum class Prefetch { None, Lines, Bulk };

/// One tuning: kThreads per block, kVecs uint4 per thread, __launch_bounds__ minimum resident
/// blocks per SM (caps the registers: 4 blocks of 256 threads leave 64 per thread), tiles from an
/// atomic counter (kDynamic) or blockIdx.x; kStreaming loads and stores the vectors with the
/// evict-first cache hint (ld/st.global.cs: the data is touched once). kPrefetchTiles > 0: each
/// block first asks L2 for the input of tile (its tile + kPrefetchTiles), so that DRAM reads run
/// ahead of the blocks (which are limited by their registers and wait in the look-back); the
/// tile's own loads then hit L2. kFirstDelayNs / kPollDelayNs: the look-back's sleeps (lookBack).
template <int kThreads_, int kVecs_, int kMinBlocks_, bool kDynamic_, bool kStreaming_,
          Prefetch kPrefetch_ = Prefetch::None, int kPrefetchTiles_ = 0, int kFirstDelayNs_ = 0,
          int kPollDelayNs_ = 0>
struct Config {
  static constexpr int kThreads = kThreads_, kVecs = kVecs_, kMinBlocks = kMinBlocks_;
  static constexpr bool kDynamic = kDynamic_, kStreaming = kStreaming_;
  static constexpr Prefetch kPrefetch = kPrefetch_;
  static constexpr int kPrefetchTiles = kPrefetchTiles_;
  static constexpr int kFirstDelayNs = kFirstDelayNs_, kPollDelayNs = kPollDelayNs_;
  static_assert(kThreads % 32 == 0 && kVecs > 0, "whole warps, at least one uint4 per thread");
  static_assert((kPrefetch == Prefetch::None) == (kPrefetchTiles == 0), "a prefetch mode needs a distance");
  static constexpr int kWarps = kThreads / 32;
  static constexpr int kWarpItems = 32 * kVecs * 4;
  static constexpr int kItems = kWarps * kWarpItems;
};
constexpr int kMinTileItems = 2048;  // at most the smallest tile of all tunings (scratch is sized for it)

std::uint64_t tilesFor(std::size_t n, int tileItems) { return (std::uint64_t(n) + tileItems - 1) / tileItems; }

/// Scratch: [tile counter][status per tile], sized for the smallest tile so that every tuning fits.
std::size_t lookBackTempBytes(std::size_t n) {
  return carveBytes(sizeof(unsigned long long)) + carveBytes(tilesFor(n, kMinTileItems) * sizeof(unsigned long long));
}
void clearLookBackTemp(void* d_temp, std::uint64_t tiles, cudaStream_t s) {
  // Counter and status are contiguous up to the end of the status array.
  FL_CUDA_CHECK(cudaMemsetAsync(d_temp, 0, carveBytes(sizeof(unsigned long long)) + tiles * sizeof(unsigned long long), s));
}

/// Loads this warp's 128 V elements (zeros past n) in warp-striped uint4 order.
template <int kVecs, bool kStreaming>
__device__ __forceinline__ void loadWarpItems(const unsigned* in, std::uint64_t warpBase, std::uint64_t n,
                                              bool vectorOk, int lane, uint4 (&v)[kVecs]) {
  if (vectorOk && warpBase + 128u * kVecs <= n) {
    const uint4* p = reinterpret_cast<const uint4*>(in + warpBase);
#pragma unroll
    for (int j = 0; j < kVecs; ++j) v[j] = kStreaming ? __ldcs(p + j * 32 + lane) : p[j * 32 + lane];
  } else {
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const std::uint64_t i = layout::warpStripedIndex(warpBase, j, lane, 0);
      v[j].x = i + 0 < n ? in[i + 0] : 0u;
      v[j].y = i + 1 < n ? in[i + 1] : 0u;
      v[j].z = i + 2 < n ? in[i + 2] : 0u;
      v[j].w = i + 3 < n ? in[i + 3] : 0u;
    }
  }
}

/// Asks L2 for the input of tile `tile + C::kPrefetchTiles` (elements past n are not asked for).
/// A hint only: the results never depend on it.
template <class C>
__device__ __forceinline__ void prefetchAhead(const unsigned* in, std::uint64_t tile, std::uint64_t n,
                                              bool vectorOk) {
  if constexpr (C::kPrefetch != Prefetch::None) {
    const std::uint64_t begin = (tile + C::kPrefetchTiles) * C::kItems;
    if (begin >= n) return;
    const std::uint64_t count = n - begin < std::uint64_t(C::kItems) ? n - begin : std::uint64_t(C::kItems);
    if constexpr (C::kPrefetch == Prefetch::Lines) {
      // 32 elements = one 128-byte line per thread and step.
      for (std::uint64_t i = std::uint64_t(threadIdx.x) * 32u; i < count; i += std::uint64_t(C::kThreads) * 32u)
        asm volatile("prefetch.L2 [%0];" ::"l"(in + begin + i));
    } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
      // Bulk copies need a 16-byte aligned global address and a size in multiples of 16 bytes;
      // begin is a multiple of kItems (>= 2048) elements, so in + begin is aligned when in is.
      const unsigned bytes = unsigned(count * sizeof(unsigned)) & ~15u;
      if (threadIdx.x == 0 && vectorOk && bytes > 0)
        asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(__cvta_generic_to_global(in + begin)),
                     "r"(bytes)
                     : "memory");
#else
      (void)count;
      (void)vectorOk;
#endif
    }
  }
}

/// Block-wide part shared by both kernels. Given each lane's per-vector counts c[j], returns in
/// `local[j]` the exclusive prefix of vector j within the tile (modulo 2^32), in `tileBase` the
/// sum of all earlier tiles (look-back, modulo 2^62) and in `tileInclusive` tileBase plus this
/// tile's sum.
template <class C>
__device__ __forceinline__ void tilePrefixes(const unsigned (&c)[C::kVecs], unsigned long long* status,
                                             std::uint64_t tile, int warp, int lane, unsigned (&local)[C::kVecs],
                                             std::uint64_t* tileBase, std::uint64_t* tileInclusive) {
  constexpr int kVecs = C::kVecs;
  __shared__ unsigned sWarpTotals[C::kWarps];
  __shared__ std::uint64_t sTilePrefix;
  unsigned sum = 0;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) sum += c[j];
  sum = warpSum(sum);
  if (lane == 0) sWarpTotals[warp] = sum;
  __syncthreads();
  unsigned warpPrefix = 0;
  std::uint64_t aggregate = 0;
#pragma unroll
  for (int w = 0; w < C::kWarps; ++w) {
    const unsigned t = sWarpTotals[w];
    if (w < warp) warpPrefix += t;
    aggregate += t;
  }
  if (warp == 0) {
    const std::uint64_t ex = lookBack<C::kFirstDelayNs, C::kPollDelayNs>(status, tile, aggregate, lane);
    if (lane == 0) sTilePrefix = ex;
  }
  // The in-tile scan: K warp scans at once, then each vector's carry from the earlier vectors.
  unsigned incl[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) incl[j] = c[j];
  warpInclusiveScan<kVecs>(incl, lane);
  unsigned carry = warpPrefix;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    local[j] = carry + incl[j] - c[j];
    carry += __shfl_sync(0xffffffffu, incl[j], 31);
  }
  __syncthreads();
  *tileBase = sTilePrefix;
  *tileInclusive = sTilePrefix + aggregate;
}

__device__ __forceinline__ std::uint64_t takeTile(unsigned long long* counter) {
  __shared__ std::uint64_t sTile;
  if (threadIdx.x == 0) sTile = atomicAdd(counter, 1ull);
  __syncthreads();
  return sTile;
}

/// kDynamic: tiles taken from an atomic counter (guaranteed progress); otherwise tile = blockIdx.x,
/// which relies on blocks being dispatched in index order, as CUB's single-pass scan does.
template <class C>
__device__ __forceinline__ std::uint64_t tileIndex(unsigned long long* counter) {
  if constexpr (C::kDynamic) return takeTile(counter);
  return blockIdx.x;
}

template <class C>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    decoupledScanKernel(const unsigned* in, unsigned* out, std::uint64_t n, unsigned long long* counter,
                        unsigned long long* status, bool vectorOk) {
  constexpr int kVecs = C::kVecs;
  const std::uint64_t tile = tileIndex<C>(counter);
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const std::uint64_t warpBase = tile * C::kItems + std::uint64_t(warp) * C::kWarpItems;
  uint4 v[kVecs];
  loadWarpItems<kVecs, C::kStreaming>(in, warpBase, n, vectorOk, lane, v);
  prefetchAhead<C>(in, tile, n, vectorOk);
  unsigned c[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) c[j] = v[j].x + v[j].y + v[j].z + v[j].w;
  unsigned local[kVecs];
  std::uint64_t tileBase, tileInclusive;
  tilePrefixes<C>(c, status, tile, warp, lane, local, &tileBase, &tileInclusive);
  uint4 o[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    unsigned r = unsigned(tileBase) + local[j];
    o[j].x = r;
    r += v[j].x;
    o[j].y = r;
    r += v[j].y;
    o[j].z = r;
    r += v[j].z;
    o[j].w = r;
  }
  if (vectorOk && warpBase + C::kWarpItems <= n) {
    uint4* p = reinterpret_cast<uint4*>(out + warpBase);
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      if constexpr (C::kStreaming) __stcs(p + j * 32 + lane, o[j]);
      else p[j * 32 + lane] = o[j];
    }
  } else {
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      const std::uint64_t i = layout::warpStripedIndex(warpBase, j, lane, 0);
      if (i + 0 < n) out[i + 0] = o[j].x;
      if (i + 1 < n) out[i + 1] = o[j].y;
      if (i + 2 < n) out[i + 2] = o[j].z;
      if (i + 3 < n) out[i + 3] = o[j].w;
    }
  }
}

__device__ __forceinline__ void stageIfNonZero(int* stage, unsigned& pos, unsigned x) {
  if (x != 0) stage[pos++] = int(x);
}

/// Each warp packs its selected elements into shared memory in order, then writes them to the
/// output as one contiguous, coalesced run.
template <class C>
__global__ void __launch_bounds__(C::kThreads, C::kMinBlocks)
    compactFusedKernel(const unsigned* in, int* out, std::uint64_t n, unsigned long long* numSelected,
                       unsigned long long* counter, unsigned long long* status, bool vectorOk) {
  constexpr int kVecs = C::kVecs;
  __shared__ int sStage[C::kWarps][C::kWarpItems];
  const std::uint64_t tile = tileIndex<C>(counter);
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const std::uint64_t warpBase = tile * C::kItems + std::uint64_t(warp) * C::kWarpItems;
  uint4 v[kVecs];
  loadWarpItems<kVecs, C::kStreaming>(in, warpBase, n, vectorOk, lane, v);  // zeros past n: never selected
  unsigned c[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j)
    c[j] = unsigned(v[j].x != 0) + unsigned(v[j].y != 0) + unsigned(v[j].z != 0) + unsigned(v[j].w != 0);
  unsigned local[kVecs];
  std::uint64_t tileBase, tileInclusive;
  tilePrefixes<C>(c, status, tile, warp, lane, local, &tileBase, &tileInclusive);
  int* stage = sStage[warp];
  const unsigned warpStart = __shfl_sync(0xffffffffu, local[0], 0);
  const unsigned warpCount = __shfl_sync(0xffffffffu, local[kVecs - 1] + c[kVecs - 1], 31) - warpStart;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    unsigned pos = local[j] - warpStart;
    stageIfNonZero(stage, pos, v[j].x);
    stageIfNonZero(stage, pos, v[j].y);
    stageIfNonZero(stage, pos, v[j].z);
    stageIfNonZero(stage, pos, v[j].w);
  }
  __syncwarp();
  int* dst = out + (tileBase + warpStart);
  for (unsigned k = unsigned(lane); k < warpCount; k += 32) dst[k] = stage[k];
  if (tile == gridDim.x - 1ull && threadIdx.x == 0) *numSelected = tileInclusive;
}

bool aligned16(const void* a, const void* b) {
  return ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15u) == 0;
}

/// Launches over the tiles of n with C's tile size; clears the counter and status first.
template <class C, class Launch>
void launchTiles(std::size_t n, void* d_temp, cudaStream_t s, const char* what, Launch launch) {
  static_assert(C::kItems >= kMinTileItems, "scratch is sized for tiles of at least kMinTileItems");
  const std::uint64_t tiles = tilesFor(n, C::kItems);
  if (tiles > 0x7fffffffull) throw std::invalid_argument(std::string(what) + ": n = " + std::to_string(n) + " is too large");
  clearLookBackTemp(d_temp, tiles, s);
  char* p = static_cast<char*>(d_temp);
  auto* counter = carve<unsigned long long>(p, 1);
  auto* status = carve<unsigned long long>(p, tiles);
  launch(unsigned(tiles), counter, status);
  FL_CUDA_CHECK_LAUNCH();
}

template <class C>
void scanTiles(const unsigned* d_in, unsigned* d_out, std::size_t n, void* d_temp, cudaStream_t s) {
  launchTiles<C>(n, d_temp, s, "exclusiveScan", [&](unsigned tiles, unsigned long long* counter,
                                                     unsigned long long* status) {
    decoupledScanKernel<C><<<tiles, C::kThreads, 0, s>>>(d_in, d_out, n, counter, status, aligned16(d_in, d_out));
  });
}

template <class C>
void compactTiles(const int* d_in, int* d_out, std::size_t n, unsigned long long* d_numSelected, void* d_temp,
                  cudaStream_t s) {
  launchTiles<C>(n, d_temp, s, "compact", [&](unsigned tiles, unsigned long long* counter,
                                               unsigned long long* status) {
    compactFusedKernel<C><<<tiles, C::kThreads, 0, s>>>(reinterpret_cast<const unsigned*>(d_in), d_out, n,
                                                        d_numSelected, counter, status, aligned16(d_in, d_out));
  });
}

// Measured on the H200 (bench/notes/scan.md, 2026-11-30, n = 2^28, same run): production (row 0)
// is 8 uint4 per thread with registers capped for 4 blocks per SM, evict-first hints, tiles
// numbered by blockIdx.x, the input of the tile 512 tiles ahead prefetched into L2 per 128-byte
// line, and CUB's sm_90 look-back sleeps (1245 ns before the first poll, 648 ns between polls):
// 0.579 ms vs cub::DeviceScan::ExclusiveSum 0.699 (0.83x); the previous production row
// (t256v8-m4-cs, now row 10) took 0.716. The compaction's loads gained nothing from the hint.
// The other rows stay as the benchmark's tuning rows: "-delay" alone, "-pfK" / "-bpfK" alone
// (per-line / bulk prefetch), t128v6 (CUB's sm_90 tile for 4-byte sums, 128 threads x 24 items),
// v12 / v16 (more items per thread at 3 / 2 or 4 blocks per SM).
constexpr Prefetch kNoPf = Prefetch::None, kLines = Prefetch::Lines, kBulk = Prefetch::Bulk;
constexpr int kCubFirstNs = 1245, kCubPollNs = 648;
//                          threads vecs minBlocks dynamic streaming prefetch tiles-ahead first-delay poll-delay
using T256V8M4Cs = Config<256, 8, 4, true, true>;
using T256V4 = Config<256, 4, 1, true, false>;
using T256V8 = Config<256, 8, 1, true, false>;
using T256V8M4 = Config<256, 8, 4, true, false>;
using T256V8M4CsBlockidx = Config<256, 8, 4, false, true>;
using T256V8M4CsBlockidxDelay = Config<256, 8, 4, false, true, kNoPf, 0, kCubFirstNs, kCubPollNs>;
using T256V8M4CsBlockidxPf128 = Config<256, 8, 4, false, true, kLines, 128>;
using T256V8M4CsBlockidxPf512 = Config<256, 8, 4, false, true, kLines, 512>;
using T256V8M4CsBlockidxBpf128 = Config<256, 8, 4, false, true, kBulk, 128>;
using T256V8M4CsBlockidxBpf512 = Config<256, 8, 4, false, true, kBulk, 512>;
using T256V8M4CsBlockidxPf512Delay = Config<256, 8, 4, false, true, kLines, 512, kCubFirstNs, kCubPollNs>;
using T128V6M8CsBlockidxDelay = Config<128, 6, 8, false, true, kNoPf, 0, kCubFirstNs, kCubPollNs>;
using T128V8M8CsBlockidx = Config<128, 8, 8, false, true>;
using T256V12M3CsBlockidx = Config<256, 12, 3, false, true>;
using T256V16M2CsBlockidx = Config<256, 16, 2, false, true>;
using T128V16M4CsBlockidx = Config<128, 16, 4, false, true>;
using T256V12M3CsBlockidxPf256 = Config<256, 12, 3, false, true, kLines, 256>;
constexpr const char* kScanTuningNames[] = {  // in the order of the switch in scanDecoupled
    "t256v8-m4-cs-blockidx-pf512-delay",
    "t256v4",
    "t256v8",
    "t256v8-m4",
    "t256v8-m4-cs-blockidx",
    "t256v8-m4-cs-blockidx-delay",
    "t256v8-m4-cs-blockidx-pf128",
    "t256v8-m4-cs-blockidx-pf512",
    "t256v8-m4-cs-blockidx-bpf128",
    "t256v8-m4-cs-blockidx-bpf512",
    "t256v8-m4-cs",
    "t128v6-m8-cs-blockidx-delay",
    "t128v8-m8-cs-blockidx",
    "t256v12-m3-cs-blockidx",
    "t256v16-m2-cs-blockidx",
    "t128v16-m4-cs-blockidx",
    "t256v12-m3-cs-blockidx-pf256",
};
static_assert(std::size(kScanTuningNames) == kScanTunings, "one name per scan tuning");
constexpr const char* kCompactTuningNames[kCompactTunings] = {"t256v8-m4", "t256v4"};

void checkTuning(int tuning, int count, const char* what) {
  if (tuning < 0 || tuning >= count)
    throw std::invalid_argument(std::string(what) + ": tuning must be in [0, " + std::to_string(count) + "), got " +
                                std::to_string(tuning));
}

}  // namespace

const char* scanTuningName(int i) {
  checkTuning(i, kScanTunings, "scanTuningName");
  return kScanTuningNames[i];
}
const char* compactTuningName(int i) {
  checkTuning(i, kCompactTunings, "compactTuningName");
  return kCompactTuningNames[i];
}

void scanDecoupled(const unsigned* d_in, unsigned* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   int tuning, cudaStream_t s) {
  checkTuning(tuning, kScanTunings, "scanDecoupled");
  requireTemp("exclusiveScan (decoupled look-back)", lookBackTempBytes(n), tempBytes, d_temp);
  if (n == 0) return;
  switch (tuning) {
    case 0: return scanTiles<T256V8M4CsBlockidxPf512Delay>(d_in, d_out, n, d_temp, s);
    case 1: return scanTiles<T256V4>(d_in, d_out, n, d_temp, s);
    case 2: return scanTiles<T256V8>(d_in, d_out, n, d_temp, s);
    case 3: return scanTiles<T256V8M4>(d_in, d_out, n, d_temp, s);
    case 4: return scanTiles<T256V8M4CsBlockidx>(d_in, d_out, n, d_temp, s);
    case 5: return scanTiles<T256V8M4CsBlockidxDelay>(d_in, d_out, n, d_temp, s);
    case 6: return scanTiles<T256V8M4CsBlockidxPf128>(d_in, d_out, n, d_temp, s);
    case 7: return scanTiles<T256V8M4CsBlockidxPf512>(d_in, d_out, n, d_temp, s);
    case 8: return scanTiles<T256V8M4CsBlockidxBpf128>(d_in, d_out, n, d_temp, s);
    case 9: return scanTiles<T256V8M4CsBlockidxBpf512>(d_in, d_out, n, d_temp, s);
    case 10: return scanTiles<T256V8M4Cs>(d_in, d_out, n, d_temp, s);
    case 11: return scanTiles<T128V6M8CsBlockidxDelay>(d_in, d_out, n, d_temp, s);
    case 12: return scanTiles<T128V8M8CsBlockidx>(d_in, d_out, n, d_temp, s);
    case 13: return scanTiles<T256V12M3CsBlockidx>(d_in, d_out, n, d_temp, s);
    case 14: return scanTiles<T256V16M2CsBlockidx>(d_in, d_out, n, d_temp, s);
    case 15: return scanTiles<T128V16M4CsBlockidx>(d_in, d_out, n, d_temp, s);
    default: return scanTiles<T256V12M3CsBlockidxPf256>(d_in, d_out, n, d_temp, s);
  }
}

std::size_t compactFusedTempBytes(std::size_t n) { return lookBackTempBytes(n); }

void compactFused(const int* d_in, int* d_out, std::size_t n, unsigned long long* d_numSelected, void* d_temp,
                  cudaStream_t s, int tuning) {
  checkTuning(tuning, kCompactTunings, "compactFused");
  if (n == 0) {
    FL_CUDA_CHECK(cudaMemsetAsync(d_numSelected, 0, sizeof(unsigned long long), s));
    return;
  }
  switch (tuning) {
    case 0: return compactTiles<T256V8M4>(d_in, d_out, n, d_numSelected, d_temp, s);
    default: return compactTiles<T256V4>(d_in, d_out, n, d_numSelected, d_temp, s);
  }
}

}  // namespace detail

std::size_t exclusiveScanTempBytes(std::size_t n) { return detail::lookBackTempBytes(n); }

void exclusiveScan(const int* d_in, int* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   cudaStream_t stream) {
  detail::scanDecoupled(reinterpret_cast<const unsigned*>(d_in), reinterpret_cast<unsigned*>(d_out), n, d_temp,
                        tempBytes, 0, stream);
}
void exclusiveScan(const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n, void* d_temp,
                   std::size_t tempBytes, cudaStream_t stream) {
  detail::scanDecoupled(d_in, d_out, n, d_temp, tempBytes, 0, stream);
}
void exclusiveScan(const int* d_in, int* d_out, std::size_t n, cudaStream_t stream) {
  DeviceBuffer<std::uint8_t> temp(exclusiveScanTempBytes(n), "exclusive scan scratch");
  exclusiveScan(d_in, d_out, n, temp.data(), temp.size(), stream);
  FL_CUDA_CHECK(cudaStreamSynchronize(stream));  // before temp is freed
}
void exclusiveScan(const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n, cudaStream_t stream) {
  DeviceBuffer<std::uint8_t> temp(exclusiveScanTempBytes(n), "exclusive scan scratch");
  exclusiveScan(d_in, d_out, n, temp.data(), temp.size(), stream);
  FL_CUDA_CHECK(cudaStreamSynchronize(stream));
}

}  // namespace flocklife::scan
