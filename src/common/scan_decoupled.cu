// Production exclusive scan and fused stream compaction: one pass over the data with decoupled
// look-back (Merrill & Garland, "Single-pass parallel prefix scan with decoupled look-back",
// NVR-2016-002). Tile = 256 threads x 4 V elements (V uint4 per thread; V = 4 in production, 2 and
// 8 are compiled for the benchmark's tuning rows). Within a warp the 128 V elements are held in
// warp-striped order (vector j of lane l covers elements 4 (32 j + l) .. +3), so every load and
// store instruction of a warp touches 512 contiguous bytes.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan {
namespace detail {
namespace {

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kMinTileItems = kWarps * 32 * 4 * 2;  // the smallest tile compiled (V = 2)

template <int kVecs>
struct Tile {
  static constexpr int kWarpItems = 32 * kVecs * 4;
  static constexpr int kItems = kWarps * kWarpItems;
};

std::uint64_t tilesFor(std::size_t n, int tileItems) { return (std::uint64_t(n) + tileItems - 1) / tileItems; }

/// Scratch: [tile counter][status per tile], sized for the smallest tile so that every V fits.
std::size_t lookBackTempBytes(std::size_t n) {
  return carveBytes(sizeof(unsigned long long)) + carveBytes(tilesFor(n, kMinTileItems) * sizeof(unsigned long long));
}
void clearLookBackTemp(void* d_temp, std::uint64_t tiles, cudaStream_t s) {
  // Counter and status are contiguous up to the end of the status array.
  FL_CUDA_CHECK(cudaMemsetAsync(d_temp, 0, carveBytes(sizeof(unsigned long long)) + tiles * sizeof(unsigned long long), s));
}

/// Loads this warp's 128 V elements (zeros past n) in warp-striped uint4 order.
template <int kVecs>
__device__ __forceinline__ void loadWarpItems(const unsigned* in, std::uint64_t warpBase, std::uint64_t n,
                                              bool vectorOk, int lane, uint4 (&v)[kVecs]) {
  if (vectorOk && warpBase + Tile<kVecs>::kWarpItems <= n) {
    const uint4* p = reinterpret_cast<const uint4*>(in + warpBase);
#pragma unroll
    for (int j = 0; j < kVecs; ++j) v[j] = p[j * 32 + lane];
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

/// Block-wide part shared by both kernels. Given each lane's per-vector counts c[j], returns in
/// `prefix[j]` the exclusive prefix of vector j over the whole input (tile look-back included),
/// modulo 2^62 (callers needing 32 bits truncate). `tileInclusive` receives the tile's inclusive total.
template <int kVecs>
__device__ __forceinline__ void tilePrefixes(const unsigned (&c)[kVecs], unsigned long long* status,
                                             std::uint64_t tile, int warp, int lane, std::uint64_t (&prefix)[kVecs],
                                             std::uint64_t* tileInclusive) {
  __shared__ unsigned sWarpTotals[kWarps];
  __shared__ std::uint64_t sTilePrefix;
  unsigned incl[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) incl[j] = c[j];
  warpInclusiveScan<kVecs>(incl, lane);
  unsigned carry[kVecs];
  unsigned warpTotal = 0;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    carry[j] = warpTotal;
    warpTotal += __shfl_sync(0xffffffffu, incl[j], 31);
  }
  if (lane == 0) sWarpTotals[warp] = warpTotal;
  __syncthreads();
  std::uint64_t warpPrefix = 0, aggregate = 0;
#pragma unroll
  for (int w = 0; w < kWarps; ++w) {
    const std::uint64_t t = sWarpTotals[w];
    if (w < warp) warpPrefix += t;
    aggregate += t;
  }
  if (warp == 0) {
    const std::uint64_t ex = lookBack(status, tile, aggregate, lane);
    if (lane == 0) sTilePrefix = ex;
  }
  __syncthreads();
  const std::uint64_t base = sTilePrefix + warpPrefix;
#pragma unroll
  for (int j = 0; j < kVecs; ++j) prefix[j] = base + carry[j] + (incl[j] - c[j]);
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
template <int kVecs, bool kDynamic>
__global__ void __launch_bounds__(kThreads) decoupledScanKernel(const unsigned* in, unsigned* out, std::uint64_t n,
                                                                unsigned long long* counter,
                                                                unsigned long long* status, bool vectorOk) {
  std::uint64_t tile = blockIdx.x;
  if constexpr (kDynamic) tile = takeTile(counter);
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const std::uint64_t warpBase = tile * Tile<kVecs>::kItems + std::uint64_t(warp) * Tile<kVecs>::kWarpItems;
  uint4 v[kVecs];
  loadWarpItems(in, warpBase, n, vectorOk, lane, v);
  unsigned c[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) c[j] = v[j].x + v[j].y + v[j].z + v[j].w;
  std::uint64_t prefix[kVecs], tileInclusive;
  tilePrefixes(c, status, tile, warp, lane, prefix, &tileInclusive);
  uint4 o[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j) {
    unsigned r = unsigned(prefix[j]);
    o[j].x = r;
    r += v[j].x;
    o[j].y = r;
    r += v[j].y;
    o[j].z = r;
    r += v[j].z;
    o[j].w = r;
  }
  if (vectorOk && warpBase + Tile<kVecs>::kWarpItems <= n) {
    uint4* p = reinterpret_cast<uint4*>(out + warpBase);
#pragma unroll
    for (int j = 0; j < kVecs; ++j) p[j * 32 + lane] = o[j];
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

__device__ __forceinline__ void scatterIfNonZero(int* out, std::uint64_t& pos, unsigned x) {
  if (x != 0) out[pos++] = int(x);
}
__device__ __forceinline__ void stageIfNonZero(int* stage, unsigned& pos, unsigned x) {
  if (x != 0) stage[pos++] = int(x);
}

/// kStaged = false: every thread stores its selected elements straight to their output positions.
/// kStaged = true: each warp first packs its selected elements into shared memory, then writes
/// them as one contiguous, coalesced run.
template <int kVecs, bool kStaged>
__global__ void __launch_bounds__(kThreads) compactFusedKernel(const unsigned* in, int* out, std::uint64_t n,
                                                               unsigned long long* numSelected,
                                                               unsigned long long* counter,
                                                               unsigned long long* status, bool vectorOk) {
  const std::uint64_t tile = takeTile(counter);
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32;
  const std::uint64_t warpBase = tile * Tile<kVecs>::kItems + std::uint64_t(warp) * Tile<kVecs>::kWarpItems;
  uint4 v[kVecs];
  loadWarpItems(in, warpBase, n, vectorOk, lane, v);  // zeros past n: never selected
  unsigned c[kVecs];
#pragma unroll
  for (int j = 0; j < kVecs; ++j)
    c[j] = unsigned(v[j].x != 0) + unsigned(v[j].y != 0) + unsigned(v[j].z != 0) + unsigned(v[j].w != 0);
  std::uint64_t prefix[kVecs], tileInclusive;
  tilePrefixes(c, status, tile, warp, lane, prefix, &tileInclusive);
  if constexpr (kStaged) {
    __shared__ int sStage[kWarps][Tile<kVecs>::kWarpItems];
    int* stage = sStage[warp];
    const std::uint64_t warpStart = __shfl_sync(0xffffffffu, prefix[0], 0);
    const unsigned warpCount =
        unsigned(__shfl_sync(0xffffffffu, prefix[kVecs - 1] + c[kVecs - 1], 31) - warpStart);
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      unsigned local = unsigned(prefix[j] - warpStart);
      stageIfNonZero(stage, local, v[j].x);
      stageIfNonZero(stage, local, v[j].y);
      stageIfNonZero(stage, local, v[j].z);
      stageIfNonZero(stage, local, v[j].w);
    }
    __syncwarp();
    for (unsigned k = unsigned(lane); k < warpCount; k += 32) out[warpStart + k] = stage[k];
  } else {
#pragma unroll
    for (int j = 0; j < kVecs; ++j) {
      std::uint64_t pos = prefix[j];
      scatterIfNonZero(out, pos, v[j].x);
      scatterIfNonZero(out, pos, v[j].y);
      scatterIfNonZero(out, pos, v[j].z);
      scatterIfNonZero(out, pos, v[j].w);
    }
  }
  if (tile == gridDim.x - 1ull && threadIdx.x == 0) *numSelected = tileInclusive;
}

bool aligned16(const void* a, const void* b) {
  return ((reinterpret_cast<std::uintptr_t>(a) | reinterpret_cast<std::uintptr_t>(b)) & 15u) == 0;
}

/// Launches kernel K<V> over the tiles of n; clears the counter and status first.
template <int kVecs, class Launch>
void launchTiles(std::size_t n, void* d_temp, cudaStream_t s, const char* what, Launch launch) {
  const std::uint64_t tiles = tilesFor(n, Tile<kVecs>::kItems);
  if (tiles > 0x7fffffffull) throw std::invalid_argument(std::string(what) + ": n = " + std::to_string(n) + " is too large");
  clearLookBackTemp(d_temp, tiles, s);
  char* p = static_cast<char*>(d_temp);
  auto* counter = carve<unsigned long long>(p, 1);
  auto* status = carve<unsigned long long>(p, tiles);
  launch(unsigned(tiles), counter, status);
  FL_CUDA_CHECK_LAUNCH();
}

template <int kVecs, bool kDynamic = true>
void scanTiles(const unsigned* d_in, unsigned* d_out, std::size_t n, void* d_temp, cudaStream_t s) {
  launchTiles<kVecs>(n, d_temp, s, "exclusiveScan", [&](unsigned tiles, unsigned long long* counter,
                                                          unsigned long long* status) {
    decoupledScanKernel<kVecs, kDynamic><<<tiles, kThreads, 0, s>>>(d_in, d_out, n, counter, status, aligned16(d_in, d_out));
  });
}

}  // namespace

void scanDecoupled(const unsigned* d_in, unsigned* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   int vecsPerThread, cudaStream_t s, bool dynamicTiles) {
  requireTemp("exclusiveScan (decoupled look-back)", lookBackTempBytes(n), tempBytes, d_temp);
  if (n == 0) return;
  if (!dynamicTiles) {
    if (vecsPerThread != 4) throw std::invalid_argument("scanDecoupled: block-index tiles are compiled for V = 4 only");
    return scanTiles<4, false>(d_in, d_out, n, d_temp, s);
  }
  switch (vecsPerThread) {
    case 2: return scanTiles<2>(d_in, d_out, n, d_temp, s);
    case 4: return scanTiles<4>(d_in, d_out, n, d_temp, s);
    case 8: return scanTiles<8>(d_in, d_out, n, d_temp, s);
  }
  throw std::invalid_argument("scanDecoupled: vecsPerThread must be 2, 4 or 8, got " + std::to_string(vecsPerThread));
}

std::size_t compactFusedTempBytes(std::size_t n) { return lookBackTempBytes(n); }

void compactFused(const int* d_in, int* d_out, std::size_t n, unsigned long long* d_numSelected, void* d_temp,
                  cudaStream_t s, bool staged) {
  if (n == 0) {
    FL_CUDA_CHECK(cudaMemsetAsync(d_numSelected, 0, sizeof(unsigned long long), s));
    return;
  }
  constexpr int kVecs = kProductionVecs;
  launchTiles<kVecs>(n, d_temp, s, "compact", [&](unsigned tiles, unsigned long long* counter,
                                                    unsigned long long* status) {
    const auto* in = reinterpret_cast<const unsigned*>(d_in);
    if (staged)
      compactFusedKernel<kVecs, true><<<tiles, kThreads, 0, s>>>(in, d_out, n, d_numSelected, counter, status,
                                                                 aligned16(d_in, d_out));
    else
      compactFusedKernel<kVecs, false><<<tiles, kThreads, 0, s>>>(in, d_out, n, d_numSelected, counter, status,
                                                                  aligned16(d_in, d_out));
  });
}

}  // namespace detail

std::size_t exclusiveScanTempBytes(std::size_t n) { return detail::lookBackTempBytes(n); }

void exclusiveScan(const int* d_in, int* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   cudaStream_t stream) {
  detail::scanDecoupled(reinterpret_cast<const unsigned*>(d_in), reinterpret_cast<unsigned*>(d_out), n, d_temp,
                        tempBytes, detail::kProductionVecs, stream);
}
void exclusiveScan(const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n, void* d_temp,
                   std::size_t tempBytes, cudaStream_t stream) {
  detail::scanDecoupled(d_in, d_out, n, d_temp, tempBytes, detail::kProductionVecs, stream);
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
