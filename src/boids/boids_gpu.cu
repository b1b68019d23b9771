// GPU methods: `naive`, `grid` (scattered uniform grid), `coherent-zip`, `coherent-gather`,
// `shared`, `counting` and `fast`. Positions and velocities live on the device as float4 in
// ping-pong pairs (the w of a position holds the boid's id, the w of a velocity is scratch); every step is fused into one velocity-and-position kernel that reads the
// previous step's buffers and writes the next ones. Grid methods follow the UPenn CIS 565
// flocking project and the seed article "boids-cuda-grid-coherent"; `counting` replaces the
// radix sort by a counting sort (histogram with atomics, exclusive scan, scatter). The coherent
// methods share one neighbour kernel in which each warp stages its candidates in shared memory
// (warpGridKernel).
#include <cub/device/device_radix_sort.cuh>

#include <optional>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "boids/boids_gpu.cuh"
#include "boids/boids_internal.hpp"
#include "common/cuda_check.cuh"
#include "common/cuda_graph.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/linear_texture.cuh"
#include "common/scan.cuh"
#include "common/warp_scan.cuh"

namespace flocklife::boids {

namespace {

using u32 = std::uint32_t;

// ---- Kernels -----------------------------------------------------------------------------------

/// Writes the boid's new velocity and position (fused velocity + position update); the id in p.w
/// goes along.
__device__ __forceinline__ void finishBoid(std::uint64_t i, float4 p, float4 v, const Accum& a, const Derived& d,
                                           float4* __restrict__ posOut, float4* __restrict__ velOut) {
  const Vec3 nv = newVelocity(v.x, v.y, v.z, a, d);
  const Vec3 np = newPosition(p.x, p.y, p.z, nv, d);
  velOut[i] = make_float4(nv.x, nv.y, nv.z, 0.f);
  posOut[i] = make_float4(np.x, np.y, np.z, p.w);
}

__device__ __forceinline__ void addNeighbour(Accum& a, float4 p, float4 q, float4 w, const Derived& d) {
  accumulate(a, axisOffset(q.x, p.x, d), axisOffset(q.y, p.y, d), axisOffset(q.z, p.z, d), w.x, w.y, w.z, d);
}

/// As addNeighbour, but loads the candidate's velocity from global memory only if it is an
/// alignment neighbour (most grid candidates are not neighbours at all).
__device__ __forceinline__ void addCandidate(Accum& a, float4 p, float4 q, const float4* __restrict__ vel, u32 j,
                                             const Derived& d) {
  accumulateLazy(a, axisOffset(q.x, p.x, d), axisOffset(q.y, p.y, d), axisOffset(q.z, p.z, d), d,
                 [&] { return __ldg(&vel[j]); });
}

/// naive: every boid against every other, the other boids streamed through shared memory in
/// tiles of blockDim boids. Dynamic shared memory: 2 * blockDim float4.
__global__ void naiveKernel(const float4* __restrict__ pos, const float4* __restrict__ vel,
                            float4* __restrict__ posOut, float4* __restrict__ velOut, u32 n, Derived d) {
  extern __shared__ float4 tile[];
  const u32 bs = blockDim.x, t = threadIdx.x;
  const std::uint64_t i = globalThreadId();
  const bool active = i < n;
  const float4 p = active ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  Accum a;
  for (u32 base = 0; base < n; base += bs) {
    const std::uint64_t k = std::uint64_t(base) + t;
    if (k < n) {
      tile[t] = pos[k];
      tile[bs + t] = vel[k];
    }
    __syncthreads();
    const u32 m = n - base < bs ? n - base : bs;
    if (active)
      for (u32 j = 0; j < m; ++j)
        if (base + j != i) addNeighbour(a, p, tile[j], tile[bs + j], d);
    __syncthreads();
  }
  if (active) finishBoid(i, p, vel[i], a, d, posOut, velOut);
}

/// keys[i] = cell index of boid i, values[i] = i.
__global__ void labelKernel(const float4* __restrict__ pos, u32 n, Derived d, u32* __restrict__ keys,
                            u32* __restrict__ values) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const float4 p = pos[i];
  keys[i] = cellOf(p.x, p.y, p.z, d);
  values[i] = u32(i);
}

/// Cell start/end from keys sorted ascending: boids of cell c are sorted slots [start[c], end[c]).
/// start and end must be zero before (empty cells keep [0, 0)).
__global__ void cellRangeKernel(const u32* __restrict__ keys, u32 n, u32* __restrict__ start, u32* __restrict__ end) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const u32 k = keys[i];
  if (i == 0 || keys[i - 1] != k) start[k] = u32(i);
  if (i + 1 == n || keys[i + 1] != k) end[k] = u32(i + 1);
}

/// grid (scattered): one thread per boid in the original order; neighbours are reached through
/// the sorted boid index.
__global__ void scatteredKernel(const float4* __restrict__ pos, const float4* __restrict__ vel,
                                float4* __restrict__ posOut, float4* __restrict__ velOut, const u32* __restrict__ boidIndex,
                                const u32* __restrict__ start, const u32* __restrict__ end, u32 n, Derived d) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const float4 p = pos[i];
  Accum a;
  forEachNeighbourCell(p.x, p.y, p.z, d, [&](u32 c) {
    const u32 e = end[c];
    for (u32 s = start[c]; s < e; ++s) {
      const u32 j = boidIndex[s];
      if (j != i) addCandidate(a, p, pos[j], vel, j, d);
    }
  });
  finishBoid(i, p, vel[i], a, d, posOut, velOut);
}

/// shared: coherent grid (pos and vel sorted by cell) with the block's own boids staged in shared
/// memory (2 * blockDim float4) and read from there when a candidate falls in the block's range;
/// every other candidate is read from global memory, one boid per thread (the seed article's
/// variant, kept to measure it).
__global__ void sharedKernel(const float4* __restrict__ pos, const float4* __restrict__ vel,
                             float4* __restrict__ posOut, float4* __restrict__ velOut, const u32* __restrict__ start,
                             const u32* __restrict__ end, u32 n, Derived d) {
  extern __shared__ float4 own[];
  const std::uint64_t i = globalThreadId();
  const u32 first = blockIdx.x * blockDim.x, bs = blockDim.x;
  if (i < n) {
    own[threadIdx.x] = pos[i];
    own[bs + threadIdx.x] = vel[i];
  }
  __syncthreads();
  if (i >= n) return;
  const float4 p = pos[i];
  Accum a;
  forEachNeighbourCell(p.x, p.y, p.z, d, [&](u32 c) {
    const u32 e = end[c];
    for (u32 j = start[c]; j < e; ++j) {
      if (j == i) continue;
      const u32 local = j - first;  // wraps to a large value below the block
      if (local < bs)
        addNeighbour(a, p, own[local], own[bs + local], d);
      else
        addCandidate(a, p, pos[j], vel, j, d);
    }
  });
  finishBoid(i, p, vel[i], a, d, posOut, velOut);
}

/// A warp as a group for forEachGroupRun: span() evaluates g on the lane's own boid and reduces
/// [min lo, max hi] over the 32 lanes with butterfly shuffles, so every lane gets the same span.
/// Inactive lanes (past the last boid) contribute nothing but take part in the shuffles.
struct WarpGroup {
  float px, py, pz;
  bool active;
  template <class G>
  __device__ __forceinline__ CellSpan span(G&& g) const {
    CellSpan s = active ? g(px, py, pz) : kEmptySpan;
    if (s.lo > s.hi) s = kEmptySpan;
#pragma unroll
    for (int o = 16; o > 0; o >>= 1) {
      s.lo = min(s.lo, __shfl_xor_sync(0xFFFFFFFFu, s.lo, o));
      s.hi = max(s.hi, __shfl_xor_sync(0xFFFFFFFFu, s.hi, o));
    }
    return s;
  }
};

/// One boid as a group of its own for forEachGroupRun: its own reachable cells as row runs.
struct LaneGroup {
  float px, py, pz;
  template <class G>
  __device__ __forceinline__ CellSpan span(G&& g) const {
    const CellSpan s = g(px, py, pz);
    return s.lo > s.hi ? CellSpan(kEmptySpan) : s;
  }
};

/// True when the warp's union box has at most d.stagingRatio (Tuning, default 2) times the cells of
/// its largest lane box: the lanes share most candidates (dense scenes, cell width ~ the largest
/// rule distance), so staging them pays. Otherwise (sparse scenes, wide cells) each lane walks its
/// own cells. Ratio 0: never (a warp with an active lane has >= 1 cell). Same for every lane.
__device__ __forceinline__ bool stagingPays(const WarpGroup& warp, const Derived& d) {
  if (!(d.stagingRatio > 0.f)) return false;  // never: skip the reductions
  const GridAxis gx = xAxis(d), gyz = yzAxis(d);
  auto axisUnionCells = [&](int axis) {
    const GridAxis& g = axis == 0 ? gx : gyz;
    const CellSpan s = warp.span([&](float px, float py, float pz) {
      const AxisRange r = axisRange(axis == 0 ? px : (axis == 1 ? py : pz), g, d);
      return CellSpan{r.lo, r.hi};
    });
    return s.lo > s.hi ? 0 : min(s.hi - s.lo + 1, g.cells);
  };
  const long long unionCells = (long long)axisUnionCells(0) * axisUnionCells(1) * axisUnionCells(2);
  const CellSpan own = warp.span([&](float px, float py, float pz) {
    const AxisRange rx = axisRange(px, gx, d), ry = axisRange(py, gyz, d), rz = axisRange(pz, gyz, d);
    const int c = (rx.hi - rx.lo + 1) * (ry.hi - ry.lo + 1) * (rz.hi - rz.lo + 1);
    return CellSpan{c, c};
  });
  // In double, unionCells (< 2^31) and ratio * cells are exact for ratio 2, the former integer test.
  return own.hi > 0 && double(unionCells) <= double(d.stagingRatio) * double(own.hi);
}

/// Offset q - p along one axis; the minimum-image fold (minimumImage, the same bits as axisOffset)
/// exists only in the periodic instantiation.
template <bool kPeriodic>
__device__ __forceinline__ float offsetOf(float q, float p, const Derived& d) {
  if constexpr (kPeriodic) return minimumImage(q - p, d);
  return q - p;
}

/// Adds the `count` candidates staged in shared memory to `a`. The loads are warp-wide broadcasts
/// (every lane reads the same address) and the rules are added branch-free (accumulateMasked), so
/// the warp never diverges. With kCheckSelf the candidate at index `self` (the thread's own boid) is skipped.
/// kSharedRadius: accumulateMasked<kSharedRadius> (sharedRadius).
template <bool kPeriodic, bool kSharedRadius, bool kCheckSelf>
__device__ __forceinline__ void addStaged(Accum& a, float4 p, const float4* stagePos, const float4* stageVel, u32 count,
                                          u32 self, const Derived& d) {
#pragma unroll 4
  for (u32 k = 0; k < count; ++k) {
    if (kCheckSelf && k == self) continue;
    const float4 q = stagePos[k];
    const float4 w = stageVel[k];
    accumulateMasked<kSharedRadius>(a, offsetOf<kPeriodic>(q.x, p.x, d), offsetOf<kPeriodic>(q.y, p.y, d),
                                    offsetOf<kPeriodic>(q.z, p.z, d), w.x, w.y, w.z, d);
  }
}

/// How walkLane walks a lane's cells on the grid of d, the same for every lane. Cells about twice
/// the reach wide or wider (coarse2): nearly every lane's axis ranges span at most 2 cells, so
/// forEachCoarseLaneRun<2> (lanes within ~0.05 % of the cell width of a cell's centre span 3 when
/// the cells are a hair narrower than twice the reach, as at --cell-width 2, and take
/// forEachLaneRunFrom). Cells at least 2/3 of the reach wide (coarse3): forEachCoarseLaneRun<3>
/// where it applies. Cells narrower along x than along y and z (Tuning::xSplit > 1) are never
/// coarse. `chunk`: the slot ranges a lane collects per chunk, as many as one coarse walk
/// gives (and the own split), else kFineChunk; a lane's column holds one entry more
/// (forEachLaneSlot reads one past its ranges). Shared memory is taken from the L1 that caches
/// the candidates, so it asks for no more.
struct WalkPlan {
  bool coarse2, coarse3;
  int chunk;
};
inline constexpr int kFineChunk = 15;
// Lanes that fall back from a coarse walk to forEachLaneRunFrom keep the coarse chunk: every chunk
// must hold a row that may wrap and the own split, or walkLane would never advance.
static_assert(laneChunkHasRoom<true>(0, kCoarseRuns<2> + 1) && laneChunkHasRoom<true>(0, kCoarseRuns<3> + 1) &&
                  laneChunkHasRoom<true>(0, kFineChunk),
              "every walk chunk holds one row's runs and the own split");
FL_HD inline WalkPlan walkPlan(const Derived& d) {
  const float reach = d.maxDist + d.boxPad;
  // Tuning::xSplit 1, tested on the resolutions: d.xSplit == 1 here took the periodic kRows
  // warpGridKernels with one mask from 56 to 64 registers (ptxas, sm_90; issue 8, round 20).
  const bool cubes = d.xResolution == d.resolution;
  const bool coarse2 = cubes && cellsTwiceTheReach(d);
  const bool coarse3 = cubes && !coarse2 && 3.f * d.cellWidth >= 2.f * reach;
  return {coarse2, coarse3, coarse2 ? kCoarseRuns<2> + 1 : (coarse3 ? kCoarseRuns<3> + 1 : kFineChunk)};
}

/// Dynamic shared memory of one warp of warpGridKernel: the staged batch (32 positions and 32
/// velocities), and with kRows also each lane's chunk of slot ranges (plan.chunk + 1 uint2, see
/// forEachLaneSlot).
template <bool kRows>
FL_HD inline std::size_t warpSmemBytes(const WalkPlan& plan) {
  const std::size_t staged = 64 * sizeof(float4), walk = 32 * std::size_t(plan.chunk + 1) * sizeof(uint2);
  return kRows && walk > staged ? walk : staged;
}

/// Adds the candidate in sorted slot j branch-free (accumulateMasked<kSharedRadius>, see
/// sharedRadius). Its position is a global load; its velocity too, or with kTexture a fetch through
/// the texture pipe from velTex, a LinearTexture over vel (the same values): the per-lane walks'
/// scattered loads then share the L1's load/store and texture pipes (issue 8, twelfth round).
template <bool kPeriodic, bool kSharedRadius, bool kTexture>
__device__ __forceinline__ void addSlot(Accum& a, float4 p, const float4* __restrict__ pos,
                                        const float4* __restrict__ vel, cudaTextureObject_t velTex, u32 j,
                                        const Derived& d) {
  const float4 q = __ldg(&pos[j]);
  float4 w;
  if constexpr (kTexture)
    w = tex1Dfetch<float4>(velTex, int(j));  // j < n <= LinearTexture's maxElements(), an int
  else
    w = __ldg(&vel[j]);
  accumulateMasked<kSharedRadius>(a, offsetOf<kPeriodic>(q.x, p.x, d), offsetOf<kPeriodic>(q.y, p.y, d),
                                  offsetOf<kPeriodic>(q.z, p.z, d), w.x, w.y, w.z, d);
}

/// Calls f(std::true_type{}) when flag, else f(std::false_type{}): a run-time flag turned into
/// the compile-time one of a template instantiation (a candidate loop's kTexture, a kernel's
/// kPeriodic, kSharedRadius or kHistogram).
template <class F>
__host__ __device__ __forceinline__ void withFlag(bool flag, F&& f) {
  if (flag)
    f(std::true_type{});
  else
    f(std::false_type{});
}

/// The end of the part of slot range [b, e) before the lane's own boid `self`: self when the
/// range holds it (its part after self, [self + 1, e), then goes to `rest`), else e.
__device__ __forceinline__ u32 beforeOwn(u32 b, u32 e, u32 self, uint2& rest) {
  const bool own = b <= self && self < e;
  if (own) rest = make_uint2(self + 1, e);
  return own ? self : e;
}

/// Turns a lane's n row runs in its column of `rows` (rows[32 k] = (first cell, last cell + 1))
/// into the non-empty slot ranges among [start[first], start[last + 1]), in order, all cell bounds
/// loaded back to back (in place, then the empty ones dropped in a second pass, so that the first
/// stores each range where it read it and the compiler can tell its next reads from that store;
/// one fused pass was not measured); the range holding the lane's own
/// boid `self` is split in two around it, its part after the boid appended as one more range.
/// Returns the number of ranges (at most n + 1), the input forEachLaneSlot expects.
__device__ __forceinline__ int laneSlotRanges(uint2* rows, int n, u32 self, const u32* __restrict__ start) {
  uint2 rest = make_uint2(0, 0);
#pragma unroll 4
  for (int k = 0; k < n; ++k) {
    const uint2 c = rows[32 * k];
    const u32 b = __ldg(&start[c.x]);
    rows[32 * k] = make_uint2(b, beforeOwn(b, __ldg(&start[c.y]), self, rest));
  }
  int m = 0;
  for (int k = 0; k < n; ++k) {
    const uint2 r = rows[32 * k];
    if (r.x < r.y) rows[32 * m++] = r;
  }
  if (rest.x < rest.y) rows[32 * m++] = rest;
  return m;
}

/// The per-boid walk of warpGridKernel<kRows> for warps whose lanes do not share their
/// candidates: each lane collects up to plan.chunk slot ranges (its row runs and the own split;
/// its column holds one entry more, see forEachLaneSlot) of its own neighbourhood
/// (forEachCoarseLaneRun on coarse grids where it applies, else forEachLaneRunFrom) as
/// slot ranges (laneSlotRanges) in its column of `rows` (rows[32 k], private to the lane), then
/// runs through the candidates of all those ranges in one loop (forEachLaneSlot); chunks repeat
/// until every lane is done. The half-chord rows leave out the tests of a walk that wraps around
/// the faces (forEachLaneRunFrom<false>) wherever !d.walkWraps: open grids sorted this step, and
/// the periodic kernel's warps away from the faces (which call this with the open arithmetic and a
/// grid that does not wrap). Candidates are added branch-free (addSlot): positions as global
/// loads, velocities fetched through velTex (a LinearTexture over vel), or as global loads when
/// velTex is 0 (the same for every lane); the split order changes only the order of the sums.
template <bool kPeriodic, bool kSharedRadius>
__device__ __forceinline__ void walkLane(Accum& a, float4 p, bool active, u32 self, uint2* rows,
                                         const float4* __restrict__ pos, const float4* __restrict__ vel,
                                         cudaTextureObject_t velTex, const u32* __restrict__ start, const Derived& d,
                                         const WalkPlan& plan) {
  LaneCursor cur;
  bool done = !active;
  while (__any_sync(0xFFFFFFFFu, !done)) {
    int n = 0;
    if (!done) {
      auto keep = [&](u32 first, u32 last) { rows[32 * n++] = make_uint2(first, last + 1); };
      // The half-chord rows; room for a row's runs and the range holding the own boid (one entry
      // more, appended by laneSlotRanges).
      auto walkRows = [&](auto mayWrap) {
        constexpr bool kMayWrap = decltype(mayWrap)::value;
        return forEachLaneRunFrom<kMayWrap>(
            p.x, p.y, p.z, d, cur, [&] { return laneChunkHasRoom<kMayWrap>(n, plan.chunk); }, keep);
      };
      // Coarse cells: all rows in one chunk, without half-chords (at most 4 or 9 runs + the own split).
      if (!cur.started && (plan.coarse2 ? forEachCoarseLaneRun<2>(p.x, p.y, p.z, d, keep)
                                        : plan.coarse3 && forEachCoarseLaneRun<3>(p.x, p.y, p.z, d, keep)))
        done = true;
      else if constexpr (kPeriodic)  // periodic arithmetic: the walks wrap (periodic sets walkWraps)
        done = walkRows(std::true_type{});
      else  // open arithmetic (open grids, periodic warps away from the faces): the leaner loop unless
            // the grid wraps (reused between sorts: reuseGrid)
        withFlag(d.walkWraps, [&](auto mayWrap) { done = walkRows(mayWrap); });
      n = laneSlotRanges(rows, n, self, start);
    }
    withFlag(velTex != 0, [&](auto texture) {  // velocities fetched through velTex, or global loads
      forEachLaneSlot(rows, n, [&](u32 j) {
        addSlot<kPeriodic, kSharedRadius, decltype(texture)::value>(a, p, pos, vel, velTex, j, d);
      });
    });
  }
}

/// Writes the new velocity and position of the boid in sorted slot i (position p, with its id in
/// p.w, velocity v, neighbourhood sums a) to slot i of the outputs. kHistogram (fast): also counts
/// the boid in its new cell (counts must be zero before) and keeps its rank in that cell in the w
/// of its new velocity, as histogramKernel would.
template <bool kHistogram>
__device__ __forceinline__ void finishSorted(std::uint64_t i, float4 p, float4 v, const Accum& a, const Derived& d,
                                             float4* __restrict__ posOut, float4* __restrict__ velOut,
                                             u32* __restrict__ counts) {
  const Vec3 nv = newVelocity(v.x, v.y, v.z, a, d);
  const Vec3 np = newPosition(p.x, p.y, p.z, nv, d);
  posOut[i] = make_float4(np.x, np.y, np.z, p.w);
  float rank = 0.f;
  if constexpr (kHistogram) rank = floatFromBits(atomicAdd(&counts[cellOf(np.x, np.y, np.z, d)], 1u));
  velOut[i] = make_float4(nv.x, nv.y, nv.z, rank);
}

/// The neighbourhood sums of warpGridKernel (see there) for the lane's boid p (slot self, or
/// inactive), with kPeriodic's minimum-image offsets and kSharedRadius's masks (sharedRadius; the
/// caller calls finishShared). Every lane of the warp must call it. velTex: see walkLane.
template <bool kPeriodic, bool kRows, bool kSharedRadius, bool kList>
__device__ __forceinline__ void warpGridSums(Accum& a, float4 p, bool active, u32 self, u32 warpFirst, char* warpSmem,
                                             const WalkPlan& plan, const float4* __restrict__ pos,
                                             const float4* __restrict__ vel, cudaTextureObject_t velTex,
                                             const u32* __restrict__ start, const u32* __restrict__ end,
                                             const Derived& d) {
  const u32 lane = threadIdx.x & 31u;
  float4* stagePos = reinterpret_cast<float4*>(warpSmem);  // 32 positions, then 32 velocities
  float4* stageVel = stagePos + 32;
  auto addRange = [&](u32 b, u32 e) {  // slots [b, e), the same for every lane
    for (u32 base = b; base < e; base += 32) {
      const u32 count = e - base < 32u ? e - base : 32u;
      __syncwarp();  // the previous batch has been read by every lane
      if (lane < count) {
        stagePos[lane] = __ldg(&pos[base + lane]);
        stageVel[lane] = __ldg(&vel[base + lane]);
      }
      __syncwarp();
      // The batch holds some lane's own boid (kList: the warp's slots are not consecutive, so every
      // batch checks).
      if (kList || (base < warpFirst + 32u && warpFirst < base + count))
        addStaged<kPeriodic, kSharedRadius, true>(a, p, stagePos, stageVel, count, self - base, d);
      else
        addStaged<kPeriodic, kSharedRadius, false>(a, p, stagePos, stageVel, count, 0, d);
    }
  };
  auto forEachSlotRange = [&](const auto& group, auto&& f) {
    // kRows kernels take the two-max gaps, the cell-by-cell ones the compares (register counts:
    // axisGapSq).
    forEachGroupRun<kRows>(group, d, [&](u32 firstCell, u32 lastCell) {
      if constexpr (kRows) {
        f(__ldg(&start[firstCell]), __ldg(&start[lastCell + 1]));
      } else {
        for (u32 c = firstCell; c <= lastCell; ++c) f(__ldg(&start[c]), __ldg(&end[c]));
      }
    });
  };
  const WarpGroup warp{p.x, p.y, p.z, active};
  if (stagingPays(warp, d)) {
    forEachSlotRange(warp, addRange);
  } else if constexpr (kRows) {
    walkLane<kPeriodic, kSharedRadius>(a, p, active, self, reinterpret_cast<uint2*>(warpSmem) + lane, pos, vel,
                                       velTex, start, d, plan);
  } else if (active) {  // per thread, straight from global memory
    forEachSlotRange(LaneGroup{p.x, p.y, p.z}, [&](u32 b, u32 e) {
      for (u32 j = b; j < e; ++j)
        if (j != self) addCandidate(a, p, __ldg(&pos[j]), vel, j, d);
    });
  }
}

/// Coherent grids (coherent-zip, coherent-gather, counting, fast): pos and vel sorted by cell, one
/// thread per sorted slot. A warp's 32 consecutive boids share most of their candidates, so the
/// warp walks the union of its boids' neighbour cells (forEachGroupRun) and stages the candidates
/// 32 at a time in shared memory with one coalesced load, and every lane tests all 32 from there;
/// membership is still decided per boid by the exact distance test, so the neighbours (and the
/// order they are summed in) are those of the per-cell traversal. Warps whose union box is more
/// than d.stagingRatio times a lane's box (stagingPays) walk per thread instead: with kRows each lane
/// its own rows, all candidates of a chunk of rows in one loop (walkLane); otherwise cell by cell, as
/// the per-thread kernels do.
/// kRows: start is the exclusive scan of the cell counts (numCells + 1 entries) and each row run
/// is the single slot range [start[first], start[last + 1]); otherwise cell c holds slots
/// [start[c], end[c]). kHistogram (fast): also builds the next step's histogram from the new
/// positions, as histogramKernel would: counts (zero before), and each boid's rank in its new
/// cell in the w of its new velocity. The id in the w of each position goes to the new position.
/// kSharedRadius: sharedRadius(d) holds, and the masked paths (staged, walkLane) add the candidates
/// with one mask and one count for cohesion and alignment (accumulateMasked<true>); the per-thread
/// cell-by-cell path (!kRows) counts both itself (accumulateLazy), which finishShared leaves as is.
/// velTex (kRows): 0, or a LinearTexture over vel through which the per-lane walk (walkLane) reads
/// the candidates' velocities (addSlot), open and periodic.
/// Dynamic shared memory: warpSmemBytes<kRows>(walkPlan(d)) per warp (blockDim a multiple of 32).
template <bool kPeriodic, bool kRows, bool kHistogram, bool kSharedRadius, bool kList = false>
__global__ void warpGridKernel(const float4* __restrict__ pos, const float4* __restrict__ vel,
                               float4* __restrict__ posOut, float4* __restrict__ velOut, const u32* __restrict__ start,
                               const u32* __restrict__ end, u32 n, Derived d, u32* __restrict__ counts,
                               cudaTextureObject_t velTex, const u32* __restrict__ list = nullptr,
                               const unsigned long long* __restrict__ listCount = nullptr) {
  extern __shared__ float4 stage[];
  const u32 lane = threadIdx.x & 31u;
  const WalkPlan plan = walkPlan(d);  // uniform: the same for every thread
  char* warpSmem = reinterpret_cast<char*>(stage) + (threadIdx.x >> 5) * warpSmemBytes<kRows>(plan);
  std::uint64_t i = globalThreadId();
  bool active = i < n;
  if constexpr (kList) {  // thread k takes slot list[k] - 1 of the *listCount listed (groupKernel)
    const unsigned long long listed = *listCount;
    if (std::uint64_t(blockIdx.x) * blockDim.x >= listed) return;  // the whole block is past the list
    active = i < listed;
    i = active ? list[i] - 1u : 0;
  }
  const u32 self = active ? u32(i) : 0xFFFFFFFFu;  // n < 2^31: no slot equals an inactive lane's
  const u32 warpFirst = u32(i - lane);             // used only when some lane (so lane 0) is active
  const float4 p = active ? pos[i] : make_float4(0.f, 0.f, 0.f, 0.f);
  // The own velocity is read only after the neighbour walk: fetch its line into L1 now, so that
  // the read at the end does not wait for DRAM (no register is held meanwhile).
  if (active) asm volatile("prefetch.global.L1 [%0];" ::"l"(vel + i));
  Accum a;
  auto sums = [&](auto periodic, const Derived& metric) {
    warpGridSums<decltype(periodic)::value, kRows, kSharedRadius, kList>(
        a, p, active, self, warpFirst, warpSmem, plan, pos, vel, velTex, start, end, metric);
  };
  if constexpr (kPeriodic) {
    // Warps away from the faces take the open arithmetic and walks that do not wrap: the same
    // neighbours and offsets, fewer instructions (awayFromFaces).
    if (__all_sync(0xFFFFFFFFu, !active || awayFromFaces(p.x, p.y, p.z, d))) {
      Derived open = d;
      open.periodic = false;
      open.walkWraps = false;
      sums(std::false_type{}, open);
    } else {
      sums(std::true_type{}, d);
    }
  } else {
    sums(std::false_type{}, d);
  }
  finishShared<kSharedRadius>(a);
  if (active) finishSorted<kHistogram>(i, p, vel[i], a, d, posOut, velOut, counts);
}

/// Calls launch(periodic, oneRadius) with std::bool_constant values of d.periodic and
/// sharedRadius(d): the kernel instantiation a launch of the grid d picks.
template <class Launch>
void withKernelFlags(const Derived& d, Launch&& launch) {
  withFlag(d.periodic, [&](auto periodic) {
    withFlag(sharedRadius(d), [&](auto oneRadius) { launch(periodic, oneRadius); });
  });
}

/// Launches warpGridKernel on the cell-sorted pos/vel (see there) on `stream`, picking the
/// periodic or open instantiation, with one mask for cohesion and alignment where sharedRadius(d)
/// (withKernelFlags); velTex as there (kRows only). list, listCount (open kRows grids only): run
/// on the *listCount slots list[k] - 1 instead of every slot (the boids the groups left).
/// @throws CudaError; std::logic_error for a list on a periodic grid or without kRows.
template <bool kRows, bool kHistogram>
void launchWarpGrid(unsigned blocks, int blockSize, cudaStream_t stream, const float4* pos, const float4* vel,
                    float4* posOut, float4* velOut, const u32* start, const u32* end, u32 n, const Derived& d,
                    u32* counts = nullptr, cudaTextureObject_t velTex = 0, const u32* list = nullptr,
                    const unsigned long long* listCount = nullptr) {
  const std::size_t smem = std::size_t(blockSize / 32) * warpSmemBytes<kRows>(walkPlan(d));
  withKernelFlags(d, [&](auto periodic, auto oneRadius) {
    constexpr bool kPeriodic = decltype(periodic)::value, kOneRadius = decltype(oneRadius)::value;
    if (list && (!kRows || kPeriodic))  // the full kernel would overwrite the groups' boids
      throw std::logic_error("launchWarpGrid: a list of slots needs an open grid walked by rows");
    if constexpr (kRows && !kPeriodic) {
      if (list) {  // the boids the groups left (open grids walked by rows only: see "Boid groups")
        warpGridKernel<false, true, kHistogram, kOneRadius, true><<<blocks, blockSize, smem, stream>>>(
            pos, vel, posOut, velOut, start, end, n, d, counts, velTex, list, listCount);
        return;
      }
    }
    warpGridKernel<kPeriodic, kRows, kHistogram, kOneRadius>
        <<<blocks, blockSize, smem, stream>>>(pos, vel, posOut, velOut, start, end, n, d, counts, velTex);
  });
  FL_CUDA_CHECK_LAUNCH();
}

/// Lets warpGridKernel<*, kRows, kHistogram> take the dynamic shared memory of blocks of
/// blockSize threads on the grid of d: above 48 KiB (kRows blocks of more than 384 threads on
/// fine grids, 544 on coarse3 ones) a kernel must opt in. Called once when a simulation
/// allocates, not per launch.
/// @throws CudaError.
template <bool kRows, bool kHistogram>
void allowWarpGridSharedMemory(int blockSize, const Derived& d) {
  const std::size_t smem = std::size_t(blockSize / 32) * warpSmemBytes<kRows>(walkPlan(d));
  if (smem <= 48 * 1024) return;
  for (auto kernel : {warpGridKernel<true, kRows, kHistogram, true>, warpGridKernel<false, kRows, kHistogram, true>,
                      warpGridKernel<true, kRows, kHistogram, false>, warpGridKernel<false, kRows, kHistogram, false>})
    FL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  if constexpr (kRows)
    for (auto kernel : {warpGridKernel<false, true, kHistogram, true, true>,
                        warpGridKernel<false, true, kHistogram, false, true>})
      FL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
}

// ---- Boid groups (issue 8, round 23) -----------------------------------------------------------
//
// Dense scenes of the classic rules gather into clumps of nearly coincident boids (round 12: at
// the 5M density the median distance to the nearest boid falls from 0.64 to 0.04 within 24
// steps). The boids of a clump share nearly all their neighbours, so a group of boids within a
// small radius of a centre walks the grid once: a candidate well inside a rule's ball around the
// centre is a neighbour of every member (summed once, relative to the centre), one well outside
// of none, and only those in the shell between are tested per member (groupBounds; a candidate in
// the shell of any rule is tested per member for all three, round 28). Each member
// then has the sums of its own neighbours, formed in another way (within the tests' tolerance).

/// Fewest boids a group has: smaller groups are left to warpGridKernel. At 5M boids (scale 100)
/// the bench gave 167 / 175 / 181-184 / 188 / 198 / 203 / 193 / 177 steps/s for 3 / 4 / 6 / 8 / 10 /
/// 12 / 14 / 16 (170 with no groups; bench/notes/boids.md, issue 8, round 23): a small group's shell tests
/// cost more than its members' own walks. Round 26 (5M, width 0.33, split 4, alternating in one call):
/// 10 / 11 / 12 at 0.990x / 1.009x / 1 (10 0.965-0.990x over five width / split settings; 13 0.978x at
/// split 8); 11 against 12 at split 4: 3M 1.012x, 10M at scale 100 0.987x (single runs). Round 28, with
/// the cheaper shell test (5M, split 4, three runs each): 9 / 10 / 12 at 0.962x / 0.985x / 0.982x of 11.
inline constexpr u32 kGroupMin = 11;
/// Threads per block of groupSumsKernel: one group per warp at a time.
inline constexpr int kGroupBlock = 128;
/// Blocks of groupSumsKernel that one SM holds at once (its __launch_bounds__: at most 56 registers;
/// 9 KiB of shared memory each), and so the blocks it is launched with per SM. Round 29 (5M, three
/// runs alternating): 9 at 1.007x of 8 (64 registers), 10 (48 registers, more spills) at 0.976x.
/// Should fewer fit, the kernel stays correct (its warps take groups until none is left), only slower.
inline constexpr int kGroupBlocksPerSm = 9;

/// Forms the groups of one sorted grid (counting and fast; open cube, sorted this step, cells
/// split along x or not). Thread t takes cube t of the grid: the d.xSplit cells of one cell width
/// along x, whose boids are the slot range [start[c0], start[c0 + xSplit]) for its first cell c0.
/// Its cells are joined in x order into a group while the group has at most 32 boids and the
/// half diagonal of its bounding box is at most d.groupRadius. A group of at least kGroupMin boids
/// goes to groups (first slot, count) and centres (the box's centre, and in w the largest
/// distance of a member from it) at an index from *groupCount (zero before), and its slots to
/// listIn as 0; every other slot s goes to listIn as s + 1 (for a stream compaction of the rest).
__global__ void groupKernel(const float4* __restrict__ pos, const u32* __restrict__ start, Derived d,
                            uint2* __restrict__ groups, float4* __restrict__ centres, u32* __restrict__ groupCount,
                            u32* __restrict__ listIn) {
  const std::uint64_t t = globalThreadId(), r = std::uint64_t(d.resolution);
  if (t >= r * r * r) return;
  const u32 c0 = cellIndex(int(t % r) * d.xSplit, int((t / r) % r), int(t / (r * r)), d);
  const float diagSqMax = 4.f * d.groupRadius * d.groupRadius;
  auto boxOf = [&](u32 b, u32 e, float3& lo, float3& hi) {
    const float4 p = __ldg(&pos[b]);
    lo = hi = make_float3(p.x, p.y, p.z);
    for (u32 j = b + 1; j < e; ++j) {
      const float4 q = __ldg(&pos[j]);
      lo = make_float3(fminf(lo.x, q.x), fminf(lo.y, q.y), fminf(lo.z, q.z));
      hi = make_float3(fmaxf(hi.x, q.x), fmaxf(hi.y, q.y), fmaxf(hi.z, q.z));
    }
  };
  auto narrow = [&](float3 lo, float3 hi) { return lengthSq(hi.x - lo.x, hi.y - lo.y, hi.z - lo.z) <= diagSqMax; };
  auto fits = [&](u32 count, float3 lo, float3 hi) { return count <= 32u && narrow(lo, hi); };
  auto leave = [&](u32 b, u32 e) {  // to warpGridKernel
    for (u32 j = b; j < e; ++j) listIn[j] = j + 1u;
  };
  auto emit = [&](u32 b, u32 e, float3 lo, float3 hi) {
    if (e - b < kGroupMin) {
      leave(b, e);
      return;
    }
    const float cx = 0.5f * (lo.x + hi.x), cy = 0.5f * (lo.y + hi.y), cz = 0.5f * (lo.z + hi.z);
    float radiusSq = 0.f;
    for (u32 j = b; j < e; ++j) {
      const float4 q = __ldg(&pos[j]);
      radiusSq = fmaxf(radiusSq, lengthSq(q.x - cx, q.y - cy, q.z - cz));
      listIn[j] = 0;
    }
    const u32 k = atomicAdd(groupCount, 1u);
    groups[k] = make_uint2(b, e - b);
    centres[k] = make_float4(cx, cy, cz, sqrtf(radiusSq));
  };
  u32 gb = __ldg(&start[c0]), ge = gb;  // the open group: slots [gb, ge)
  float3 lo{}, hi{};
  for (int k = 0; k < d.xSplit; ++k) {
    const u32 b = ge, e = __ldg(&start[c0 + u32(k) + 1u]);  // cell k: slots [b, e)
    if (b == e) continue;
    float3 clo, chi;
    boxOf(b, e, clo, chi);
    const float3 mlo = gb == ge ? clo : make_float3(fminf(lo.x, clo.x), fminf(lo.y, clo.y), fminf(lo.z, clo.z));
    const float3 mhi = gb == ge ? chi : make_float3(fmaxf(hi.x, chi.x), fmaxf(hi.y, chi.y), fmaxf(hi.z, chi.z));
    if (fits(e - gb, mlo, mhi)) {
      ge = e;
      lo = mlo;
      hi = mhi;
      continue;
    }
    emit(gb, ge, lo, hi);
    if (fits(e - b, clo, chi)) {
      gb = b;
      lo = clo;
      hi = chi;
    } else {  // more than 32 boids (then groups of 32 and the rest, all within the cell's box), or too wide
      if (narrow(clo, chi))
        for (u32 k0 = b; k0 < e; k0 += 32u) emit(k0, min(k0 + 32u, e), clo, chi);
      else
        leave(b, e);
      gb = e;
    }
    ge = e;
  }
  emit(gb, ge, lo, hi);
}

/// The bitwise OR of v over the whole warp; every lane must call it. __reduce_or_sync from compute
/// capability 8.0 (the H200's sm_90), five butterfly shuffles below (the default build's
/// compute_75 PTX, which has no warp reductions).
__device__ __forceinline__ unsigned warpOr(unsigned v) {
#if __CUDA_ARCH__ >= 800
  return __reduce_or_sync(0xFFFFFFFFu, v);
#else
  for (int o = 16; o > 0; o >>= 1) v |= __shfl_xor_sync(0xFFFFFFFFu, v, o);
  return v;
#endif
}

/// One group of groupSumsKernel (see there): warp-wide. `queue`: the warp's queue of 64 shell
/// candidates (entry e: queue[e][0] the position, queue[e][1] the velocity).
template <bool kHistogram, bool kTexture, bool kSharedRadius>
__device__ __forceinline__ void groupSums(u32 g, float4 (*queue)[2], u32 lane,
                                          const float4* __restrict__ pos,
                                          const float4* __restrict__ vel, float4* __restrict__ posOut,
                                          float4* __restrict__ velOut, const u32* __restrict__ start,
                                          const Derived& d, const uint2* __restrict__ groups,
                                          const float4* __restrict__ centres, u32* __restrict__ counts,
                                          cudaTextureObject_t velTex) {
  constexpr unsigned kAll = 0xFFFFFFFFu;
  const uint2 grp = groups[g];
  const float4 c = centres[g];
  const u32 m = grp.y, copies = 32u / m;  // m members on lanes 0..m-1 of each copy, 32 / m copies
  const u32 member = lane % m, copy = lane / m;
  const bool mine = copy < copies;
  const u32 self = grp.x + member;
  const float4 p = mine ? __ldg(&pos[self]) : make_float4(0.f, 0.f, 0.f, 0.f);
  auto velocityOf = [&](u32 j) {
    if constexpr (kTexture) return tex1Dfetch<float4>(velTex, int(j));
    else return __ldg(&vel[j]);
  };
  const GroupBounds b1 = groupBounds(d.r1Sq, c.w, d.boxPad), b2 = groupBounds(d.r2Sq, c.w, d.boxPad),
                    b3 = kSharedRadius ? b1 : groupBounds(d.r3Sq, c.w, d.boxPad);
  // The group's sums (this lane's share): offsets from c of inner candidates, their velocities.
  float s1x = 0.f, s1y = 0.f, s1z = 0.f, s2x = 0.f, s2y = 0.f, s2z = 0.f, ax = 0.f, ay = 0.f, az = 0.f;
  u32 n1 = 0, n2 = 0, n3 = 0;
  Accum shell;  // this member's sums over the shell candidates its copy tested
  // A queued candidate is tested by every member for all three rules with the reference's test (its
  // own boid too, at distance 0, taken out at the end).
  auto testQueue = [&](u32 count) {
    if (!mine) return;
    for (u32 e = copy; e < count; e += copies) {
      const float4 o = queue[e][0], w = queue[e][1];
      accumulateMasked<kSharedRadius>(shell, o.x - p.x, o.y - p.y, o.z - p.z, w.x, w.y, w.z, d);
    }
  };
  Derived walk = d;
  walk.boxPad = d.boxPad + c.w;  // every member's neighbours are within maxDist + radius of c
  const GridAxis gx = xAxis(walk), gyz = yzAxis(walk);
  const AxisRange rx = axisRange(c.x, gx, walk), ry = axisRange(c.y, gyz, walk), rz = axisRange(c.z, gyz, walk);
  const float reach = walk.maxDist + walk.boxPad, reachSq = reach * reach;
  const int ny = ry.hi - ry.lo + 1, rows = ny * (rz.hi - rz.lo + 1);
  u32 queued = 0;
  for (int r0 = 0; r0 < rows; r0 += 32) {
    u32 b = 0, len = 0;  // this lane's row: slots [b, b + len)
    if (const int row = r0 + int(lane); row < rows) {
      const int y = ry.lo + row % ny, z = rz.lo + row / ny;
      const float gzy = axisGapSq(c.y, y, false, gyz, walk) + axisGapSq(c.z, z, false, gyz, walk);
      if (gzy <= reachSq) {
        const CellSpan xs = cellsMeeting(c.x, sqrtApprox(reachSq - gzy), rx, gx, walk);
        if (xs.lo <= xs.hi) {
          b = __ldg(&start[cellIndex(xs.lo, y, z, walk)]);
          len = __ldg(&start[cellIndex(xs.hi, y, z, walk) + 1u]) - b;
        }
      }
    }
    unsigned incl[1] = {len};
    scan::warpInclusiveScan<1>(incl, int(lane));
    const u32 total = __shfl_sync(kAll, incl[0], 31);
    // The non-empty rows onto lanes 0..rowCount-1 in order: their first candidates (indices among
    // the rows' candidates) then differ and increase, so a batch finds each candidate's row by bits.
    const unsigned nonEmpty = __ballot_sync(kAll, len != 0);
    const u32 rowCount = __popc(nonEmpty), from = lane < rowCount ? __fns(nonEmpty, 0, int(lane) + 1) : 0;
    const u32 first = incl[0] - len;
    const u32 firstFrom = __shfl_sync(kAll, first, from);  // every lane takes part in each shuffle
    const u32 rowFirst = lane < rowCount ? firstFrom : 0xFFFFFFFFu;
    const u32 rowSlot = __shfl_sync(kAll, b - first, from);  // candidate k of this row is slot rowSlot + k
    u32 before = 0;  // the rows that start before this batch
    for (u32 base = 0; base < total; base += 32) {
      const u32 k = base + lane;
      // Bit i: a row starts at candidate base + i; the owner of candidate k is the last row starting
      // at or before it.
      const u32 at = rowFirst - base;
      const unsigned starts = warpOr(at < 32u ? 1u << at : 0u);
      const u32 owner = before + __popc(starts & (0xFFFFFFFFu >> (31u - lane))) - 1u;
      before += __popc(starts);
      const u32 ownerSlot = __shfl_sync(kAll, rowSlot, owner & 31u);
      bool inShell = false;
      float4 q = make_float4(0.f, 0.f, 0.f, 0.f), w = q;
      if (k < total) {
        const u32 j = ownerSlot + k;
        q = __ldg(&pos[j]);
        const float ox = q.x - c.x, oy = q.y - c.y, oz = q.z - c.z;
        const float dsq = lengthSq(ox, oy, oz);
        // In the shell of any rule: queued for the members' own tests of every rule, and added to
        // none of the group's sums. Otherwise each rule's bounds decide it for every member.
        inShell = inAnyShell(dsq, b1, b2, b3);
        const bool in1 = !inShell && dsq < b1.inner, in2 = !inShell && dsq < b2.inner,
                   in3 = kSharedRadius ? in1 : !inShell && dsq < b3.inner;
        const float m1 = in1 ? 1.f : 0.f, m2 = in2 ? 1.f : 0.f;
        s1x = fmaRn(ox, m1, s1x); s1y = fmaRn(oy, m1, s1y); s1z = fmaRn(oz, m1, s1z);
        s2x = fmaRn(ox, m2, s2x); s2y = fmaRn(oy, m2, s2y); s2z = fmaRn(oz, m2, s2z);
        n1 += u32(in1);
        n2 += u32(in2);
        if (in3 || inShell) w = velocityOf(j);
        if (in3) {
          ax += w.x; ay += w.y; az += w.z;
          if constexpr (!kSharedRadius) ++n3;
        }
      }
      const unsigned shellLanes = __ballot_sync(kAll, inShell);
      if (inShell) {
        const u32 at = queued + __popc(shellLanes & ((1u << lane) - 1u));
        queue[at][0] = q;
        queue[at][1] = w;
      }
      queued += __popc(shellLanes);
      if (queued >= 32) {
        __syncwarp();
        testQueue(32);
        __syncwarp();
        if (lane < queued - 32) {
          queue[lane][0] = queue[32 + lane][0];
          queue[lane][1] = queue[32 + lane][1];
        }
        __syncwarp();
        queued -= 32;
      }
    }
  }
  __syncwarp();
  testQueue(queued);
  if constexpr (kSharedRadius) n3 = n1;
  finishShared<kSharedRadius>(shell);
#pragma unroll
  for (int o = 16; o > 0; o >>= 1) {
    s1x += __shfl_xor_sync(kAll, s1x, o); s1y += __shfl_xor_sync(kAll, s1y, o); s1z += __shfl_xor_sync(kAll, s1z, o);
    s2x += __shfl_xor_sync(kAll, s2x, o); s2y += __shfl_xor_sync(kAll, s2y, o); s2z += __shfl_xor_sync(kAll, s2z, o);
    ax += __shfl_xor_sync(kAll, ax, o); ay += __shfl_xor_sync(kAll, ay, o); az += __shfl_xor_sync(kAll, az, o);
    n1 += __shfl_xor_sync(kAll, n1, o); n2 += __shfl_xor_sync(kAll, n2, o); n3 += __shfl_xor_sync(kAll, n3, o);
  }
  for (u32 k = 1; k < copies; ++k) {  // copy 0 of each member adds the other copies' sums
    const int from = int(member + k * m);
    shell.cx += __shfl_sync(kAll, shell.cx, from); shell.cy += __shfl_sync(kAll, shell.cy, from);
    shell.cz += __shfl_sync(kAll, shell.cz, from); shell.sx += __shfl_sync(kAll, shell.sx, from);
    shell.sy += __shfl_sync(kAll, shell.sy, from); shell.sz += __shfl_sync(kAll, shell.sz, from);
    shell.ax += __shfl_sync(kAll, shell.ax, from); shell.ay += __shfl_sync(kAll, shell.ay, from);
    shell.az += __shfl_sync(kAll, shell.az, from); shell.n1 += __shfl_sync(kAll, shell.n1, from);
    shell.n3 += __shfl_sync(kAll, shell.n3, from);
  }
  if (lane >= m) return;  // lanes 0..m-1: copy 0 of each member (the others are done with this group)
  const float dx = p.x - c.x, dy = p.y - c.y, dz = p.z - c.z;
  // The own boid was classified as a candidate by these bits: queued (then its member's test took it
  // at distance 0, for every rule: 0 < r^2), or in the group's sums of the rules whose inner bound
  // holds it. Either way it comes out of the counts and the velocity sum here; its offset from
  // itself is 0, and in the group's sums it cancels in s - n (p - c) up to rounding.
  const float own = lengthSq(dx, dy, dz);
  const bool ownShell = inAnyShell(own, b1, b2, b3);
  const bool self1 = ownShell ? 0.f < d.r1Sq : own < b1.inner, self3 = ownShell ? 0.f < d.r3Sq : own < b3.inner;
  const float4 v = __ldg(&vel[self]);
  const float k1 = -float(n1), k2 = -float(n2);
  Accum a;
  a.cx = fmaRn(k1, dx, s1x) + shell.cx; a.cy = fmaRn(k1, dy, s1y) + shell.cy; a.cz = fmaRn(k1, dz, s1z) + shell.cz;
  a.sx = shell.sx - fmaRn(k2, dx, s2x); a.sy = shell.sy - fmaRn(k2, dy, s2y); a.sz = shell.sz - fmaRn(k2, dz, s2z);
  a.ax = ax + shell.ax;
  a.ay = ay + shell.ay;
  a.az = az + shell.az;
  if (self3) {
    a.ax -= v.x; a.ay -= v.y; a.az -= v.z;
  }
  a.n1 = int(n1) + shell.n1 - int(self1);
  a.n3 = int(n3) + shell.n3 - int(self3);
  finishSorted<kHistogram>(self, p, v, a, d, posOut, velOut, counts);
}

/// The neighbourhood sums and the update of every boid of the groups that groupKernel formed.
/// groupCount: [0] the number of groups (groupKernel's count), [1] the index of the next group to
/// take (zero before the launch); each warp takes the next group from [1] (an atomic add) until
/// none is left, so the grid need not cover the groups, and a warp that ends a group early takes
/// another (blocks of kGroupBlock threads; launched as many as the SMs hold at once). Round 29 of
/// issue 8 measured this at 1.176x the 5M step of a fixed stride over twice the resident warps
/// (warp w taking groups w, w + W, ...): ncu at 5M, L2 hit rate 93 % against 60 %, DRAM reads 0.23
/// GB against 1.81 GB per launch, the kernel 1.52 ms against 2.13 ms. Likely (not measured
/// further): groupKernel numbers the groups in about the order of their cubes, so warps that take
/// them in turn work on neighbouring groups at any one time, while under the stride they drift
/// apart over the grid. The warp walks the grid's rows around the group's centre c out to the
/// largest rule distance plus the group's radius (one row per lane, 32 rows at a time; each row one
/// slot range, its cells clipped to the ball's half chord as the per-lane walks clip them), and its
/// lanes take the rows' candidates 32 at a time. A candidate q in the shell of any rule
/// (inAnyShell) is queued in shared memory, and every member tests the queued candidates itself
/// with the reference's test of all three rules (accumulateMasked: lengthSq of q - p), 32 at a
/// time; any other candidate inside a rule's inner bound (groupBounds) is added once, to the lane's
/// share of the group's sums (q - c, and its velocity). A member's lanes: m members take lanes
/// 0..m-1 of each of 32 / m copies (lane l: member l % m of copy l / m), which split the queue. At
/// the end the warp sums the shares, and member p's cohesion and separation offsets are the group's
/// sum of q - c minus the count times p - c; its own boid, queued or inside an inner bound, is
/// taken out of the counts and the velocity sum. The neighbours are exactly the reference's; the
/// sums are formed differently (within the tests' tolerance). kHistogram, velTex: as
/// warpGridKernel's;
/// kTexture: velTex is not 0 (the candidates' velocities read through it, else as global loads).
/// kSharedRadius: sharedRadius(d) holds (alignment's bounds and masks are cohesion's, one compare
/// and one count fewer per candidate and per shell test).
template <bool kHistogram, bool kTexture, bool kSharedRadius>
__global__ void __launch_bounds__(kGroupBlock, kGroupBlocksPerSm) groupSumsKernel(
    const float4* __restrict__ pos, const float4* __restrict__ vel, float4* __restrict__ posOut,
    float4* __restrict__ velOut, const u32* __restrict__ start, Derived d, const uint2* __restrict__ groups,
    const float4* __restrict__ centres, u32* __restrict__ groupCount, u32* __restrict__ counts,
    cudaTextureObject_t velTex) {
  // Each warp's queue of shell candidates: position and velocity of each.
  __shared__ float4 queue[kGroupBlock / 32][64][2];
  const u32 lane = threadIdx.x & 31u, count = groupCount[0];
  for (;;) {  // the next group not yet taken, for the whole warp
    u32 g = 0;
    if (lane == 0) g = atomicAdd(&groupCount[1], 1u);
    g = __shfl_sync(0xFFFFFFFFu, g, 0);
    if (g >= count) break;
    __syncwarp();  // the last group's queue has been read
    groupSums<kHistogram, kTexture, kSharedRadius>(g, queue[threadIdx.x >> 5], lane, pos, vel, posOut, velOut,
                                                   start, d, groups, centres, counts, velTex);
  }
}

/// Entries per lane column of coarseLaneKernel: forEachOctantRun's runs and the own split, and one
/// entry more that forEachLaneSlot reads (its value unused; balanced kernels keep the lane's number
/// of ranges in its x, and periodic balanced kernels in its y 1 for a lane that visits its cells
/// one by one after the barrier, 0 otherwise).
inline constexpr int kCoarseLaneRows = kOctantRuns + 2;
/// Bins of coarseLaneKernel's balanced order (balancedOrder): candidate totals 0-31 one bin each,
/// 32-95 four to a bin, 96-335 sixteen to a bin, 336 and more the last bin.
inline constexpr int kBalanceBins = 64;
// coarseLaneKernel's lane columns fill at most 48 KiB at 1,024 threads; the balanced kernels' order
// (2 bytes per thread) and bins come on top, for which they opt in (allowCoarseLaneSharedMemory).
static_assert(1024 * kCoarseLaneRows * sizeof(uint2) <= 48 * 1024, "coarseLaneKernel's shared memory at 1024 threads");

/// The bin of a lane's candidate total in balancedOrder: increasing with the total, one total per
/// bin up to 31, then 4 and 16 per bin, the last bin from 336 on.
__device__ __forceinline__ u32 balanceBin(u32 total) {
  if (total < 32) return total;
  if (total < 96) return 32 + ((total - 32) >> 2);
  return min(u32(kBalanceBins - 1), 48 + ((total - 96) >> 4));
}

/// A permutation of the block's members (threads with member set) by increasing balanceBin of
/// their candidate totals, for k < the returned count of members: thread k runs the boid (the
/// slot ranges in the lane column, or its cells one by one) of thread order[k]; the order within a bin is that of
/// shared-memory atomics (any). So each warp's lanes have similar totals, and the warp waits for a
/// longest lane close to its others instead of for the longest of 32 consecutive boids (issue 8,
/// eighteenth round: 1.8-2.0x the mean in 10M boids at constant density). A counting sort in
/// shared memory (Cormen, Leiserson, Rivest and Stein, "Introduction to Algorithms", 8.2): bin
/// counts by atomics, then an exclusive scan of the kBalanceBins counts by warp 0 (two bins per
/// lane, scan::warpInclusiveScan of their sums), each member's place its
/// bin's start plus its rank. On entry bins[0, kBalanceBins] must be zero and the block
/// synchronised since; on return bins[b] holds bin b's first place and bins[kBalanceBins] the
/// count of members. Every thread of the block must call it (it synchronises the block);
/// blockDim.x a multiple of 32, at most 1,024 (order holds 16-bit thread indices).
__device__ __forceinline__ u32 balancedOrder(bool member, u32 total, std::uint16_t* order, u32* bins) {
  const u32 bin = balanceBin(total);
  const u32 rank = member ? atomicAdd(&bins[bin], 1u) : 0u;
  __syncthreads();
  if (threadIdx.x < 32) {  // exclusive scan of the bins, two per lane; bins[kBalanceBins]: the members
    const u32 lane = threadIdx.x, lo = bins[2 * lane], hi = bins[2 * lane + 1];
    u32 sum[1] = {lo + hi};
    scan::warpInclusiveScan<1>(sum, int(lane));
    bins[2 * lane] = sum[0] - lo - hi;
    bins[2 * lane + 1] = sum[0] - hi;
    if (lane == 31) bins[kBalanceBins] = sum[0];
  }
  __syncthreads();
  if (member) order[bins[bin] + rank] = std::uint16_t(threadIdx.x);
  __syncthreads();
  return bins[kBalanceBins];
}

/// Adds to `a` the candidates of slot ranges rows[32 k], k < ranges (a lane column of
/// coarseLaneKernel) for the boid at p: forEachLaneSlot with addSlot, velTex as there. On a
/// periodic cube, when every active lane's boid is away from the faces (awayFromFaces, a vote of
/// the active lanes), with the open arithmetic.
template <bool kPeriodic, bool kSharedRadius>
__device__ __forceinline__ void addLaneColumn(Accum& a, float4 p, const uint2* rows, int ranges,
                                              const float4* __restrict__ pos, const float4* __restrict__ vel,
                                              cudaTextureObject_t velTex, const Derived& d) {
  auto addAll = [&](auto periodic) {
    withFlag(velTex != 0, [&](auto texture) {
      forEachLaneSlot(rows, ranges, [&](u32 j) {
        addSlot<decltype(periodic)::value, kSharedRadius, decltype(texture)::value>(a, p, pos, vel, velTex, j, d);
      });
    });
  };
  if (!kPeriodic || __all_sync(__activemask(), awayFromFaces(p.x, p.y, p.z, d)))
    addAll(std::false_type{});
  else
    addAll(std::bool_constant<kPeriodic>{});
}

/// counting / fast on sparse coarse grids (octantLanes: cells at least about twice the reach wide
/// along y and z, split along x or not, and fewer boids than cubes, such as 10M boids at constant
/// density and cell width 2; on split grids forEachOctantRun clips each run to the half chord).
/// There a warp of sorted boids spans 32 cells or more, so warpGridKernel walks per lane
/// in every warp; this kernel does that walk with about a fifth fewer instructions and 48
/// registers instead of 56 (40 resident warps per SM instead of 36): no staged batch, chunked
/// walk of fine grids or staging votes, and forEachOctantRun instead of
/// forEachCoarseLaneRun<2>. Its one warp-wide vote: on a periodic cube, warps whose boids are all
/// away from the faces (awayFromFaces) add their candidates with the open arithmetic. One thread
/// per sorted slot: the boid's at most 2 x 2 row runs, their 8 cell bounds loaded back to back
/// (a row that does not exist reads start[0] twice, an empty range, instead of branching), the
/// non-empty slot ranges in the lane's column of shared memory with the range holding the own boid
/// split around it (beforeOwn, as laneSlotRanges), and all candidates in one loop
/// (forEachLaneSlot, addLaneColumn). The neighbours and the order of their sums are those
/// of warpGridKernel's per-lane walk. A lane where forEachOctantRun does not apply (an axis
/// needing both neighbours, a periodic row that wraps) visits forEachNeighbourCell's cells one by
/// one. kBalance (Tuning::balanceLanes): after the walk, in blocks where a lane has at least
/// kBalanceFrom candidates, the block's threads exchange boids for the candidate loop, each thread
/// taking the boid at its place in balancedOrder (the lanes with slot ranges by increasing totals
/// of candidates, then those that visit cells one by one), so that each warp's lanes have similar
/// totals;
/// each boid's candidates and the order of its sums stay the same, so the result is bit for bit
/// that of the kernel without it. There, on a periodic cube, the lanes that visit cells one by one
/// (addCells; mostly x runs that wrap around the cube's faces: at 10M boids, by a numpy estimate on
/// a uniform start, 0.45 % of the boids, in 38 % of the blocks of 128) do so after the barrier, as
/// members of balancedOrder's last bin where the block reorders, so that they do not hold up their
/// whole block at the barrier (issue 8, nineteenth round). In the open cube, where such lanes are
/// rare (an axis that needs both neighbours), they visit their cells during the walk: a second
/// addCells after the barrier would take the open kernel with one mask (kSharedRadius, the default
/// rules) from 40 to 48 registers. Same inputs, outputs and kHistogram as warpGridKernel<kRows>; the
/// staging ratio does not apply; kSharedRadius as there; velTex as there, for the slot ranges'
/// candidates (the lanes that visit cells one by one read velocities as global loads). Dynamic
/// shared memory: coarseLaneSmemBytes(blockDim, kBalance).
template <bool kPeriodic, bool kHistogram, bool kSharedRadius, bool kBalance>
__global__ void coarseLaneKernel(const float4* __restrict__ pos, const float4* __restrict__ vel,
                                 float4* __restrict__ posOut, float4* __restrict__ velOut,
                                 const u32* __restrict__ start, u32 n, Derived d, u32* __restrict__ counts,
                                 cudaTextureObject_t velTex) {
  extern __shared__ uint2 laneRows[];
  auto column = [&](u32 t) { return laneRows + (t >> 5) * (32 * kCoarseLaneRows) + (t & 31u); };
  const std::uint64_t i = globalThreadId();
  // Below, only the vote of the active lanes on awayFromFaces, and kBalance's block-wide order.
  if (!kBalance && i >= n) return;
  uint2* rows = column(threadIdx.x);
  // The cell-by-cell walk of a lane where forEachOctantRun does not apply, for the boid in `slot`.
  auto addCells = [&](Accum& a, float4 p, u32 slot) {
    forEachNeighbourCell(p.x, p.y, p.z, d, [&](u32 c) {
      const u32 stop = __ldg(&start[c + 1]);
      for (u32 j = __ldg(&start[c]); j < stop; ++j)
        if (j != slot) addSlot<kPeriodic, kSharedRadius, false>(a, p, pos, vel, velTex, j, d);
    });
  };
  bool member = false;  // kBalance: the boid waits in its column for the balanced loop
  bool cells = false;   // kBalance: ... and visits its cells one by one (addCells) there
  u32 total = 0;        // kBalance: its candidates (~0 with cells: balancedOrder's last bin)
  if (i < n) {
    const u32 self = u32(i);
    const float4 p = pos[i];
    asm volatile("prefetch.global.L1 [%0];" ::"l"(vel + i));  // read after the walk (warpGridKernel)
    Accum a;
    u32 first[kOctantRuns] = {}, end[kOctantRuns] = {};  // cells [first, end) of each row; 0, 0: none
    if (forEachOctantRun(p.x, p.y, p.z, d, [&](int k, u32 f, u32 l) {
          first[k] = f;
          end[k] = l + 1;
        })) {
      u32 b[kOctantRuns], e[kOctantRuns];
#pragma unroll
      for (int k = 0; k < kOctantRuns; ++k) {
        b[k] = __ldg(&start[first[k]]);
        e[k] = __ldg(&start[end[k]]);
      }
      int ranges = 0;
      uint2 rest = make_uint2(0, 0);
#pragma unroll
      for (int k = 0; k < kOctantRuns; ++k) {
        const u32 stop = beforeOwn(b[k], e[k], self, rest);
        if (b[k] < stop) rows[32 * ranges++] = make_uint2(b[k], stop);
        if constexpr (kBalance) total += stop - b[k];
      }
      if (rest.x < rest.y) rows[32 * ranges++] = rest;
      if constexpr (kBalance) {
        total += rest.y - rest.x;
        rows[32 * (kCoarseLaneRows - 1)] = make_uint2(u32(ranges), 0u);
        member = true;
      } else {
        addLaneColumn<kPeriodic, kSharedRadius>(a, p, rows, ranges, pos, vel, velTex, d);
      }
    } else if constexpr (kBalance && kPeriodic) {  // after the block's barrier, in the last bin
      rows[32 * (kCoarseLaneRows - 1)] = make_uint2(0u, 1u);
      total = ~0u;
      member = cells = true;
    } else {
      addCells(a, p, self);
    }
    if (!member) {
      finishShared<kSharedRadius>(a);
      finishSorted<kHistogram>(i, p, vel[i], a, d, posOut, velOut, counts);
    }
  }
  if constexpr (kBalance) {
    auto* order = reinterpret_cast<std::uint16_t*>(laneRows + blockDim.x * kCoarseLaneRows);
    u32* bins = reinterpret_cast<u32*>(order + blockDim.x);
    for (u32 k = threadIdx.x; k <= u32(kBalanceBins); k += blockDim.x) bins[k] = 0;
    u32 t = threadIdx.x;
    if (__syncthreads_or(member && !cells && total >= kBalanceFrom)) {
      if (threadIdx.x >= balancedOrder(member, total, order, bins)) return;
      t = order[threadIdx.x];
    } else if (!member) {
      return;
    }
    const uint2* from = column(t);
    const std::uint64_t slot = std::uint64_t(blockIdx.x) * blockDim.x + t;
    const float4 p = pos[slot];
    Accum a;
    const uint2 entry = from[32 * (kCoarseLaneRows - 1)];
    if (kPeriodic && entry.y != 0)
      addCells(a, p, u32(slot));
    else
      addLaneColumn<kPeriodic, kSharedRadius>(a, p, from, int(entry.x), pos, vel, velTex, d);
    finishShared<kSharedRadius>(a);
    finishSorted<kHistogram>(slot, p, vel[slot], a, d, posOut, velOut, counts);
  }
}

/// Dynamic shared memory of coarseLaneKernel for blocks of blockSize threads (a multiple of 32):
/// the lane columns, and for kBalance the order (2 bytes per thread) and the bins with their total.
inline std::size_t coarseLaneSmemBytes(int blockSize, bool balance) {
  return std::size_t(blockSize) * kCoarseLaneRows * sizeof(uint2) +
         (balance ? std::size_t(blockSize) * sizeof(std::uint16_t) + (kBalanceBins + 1) * sizeof(u32) : 0);
}

/// Lets the balanced coarseLaneKernel<*, kHistogram, *, true> take the dynamic shared memory of
/// blocks of blockSize threads, above 48 KiB from 992 threads on (coarseLaneSmemBytes). Called
/// once when a simulation allocates. @throws CudaError.
template <bool kHistogram>
void allowCoarseLaneSharedMemory(int blockSize) {
  const std::size_t smem = coarseLaneSmemBytes(blockSize, true);
  if (smem <= 48 * 1024) return;
  for (auto kernel : {coarseLaneKernel<true, kHistogram, true, true>, coarseLaneKernel<false, kHistogram, true, true>,
                      coarseLaneKernel<true, kHistogram, false, true>, coarseLaneKernel<false, kHistogram, false, true>})
    FL_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
}

/// Launches coarseLaneKernel (see there) on `stream`, periodic or open, with one mask for cohesion
/// and alignment where sharedRadius(d) (withKernelFlags), balanced or not. @throws CudaError.
template <bool kHistogram>
void launchCoarseLane(unsigned blocks, int blockSize, cudaStream_t stream, const float4* pos, const float4* vel,
                      float4* posOut, float4* velOut, const u32* start, u32 n, const Derived& d, u32* counts,
                      cudaTextureObject_t velTex, bool balance) {
  withKernelFlags(d, [&](auto periodic, auto oneRadius) {
    withFlag(balance, [&](auto balanced) {
      coarseLaneKernel<decltype(periodic)::value, kHistogram, decltype(oneRadius)::value, decltype(balanced)::value>
          <<<blocks, blockSize, coarseLaneSmemBytes(blockSize, balance), stream>>>(pos, vel, posOut, velOut, start, n,
                                                                                   d, counts, velTex);
    });
  });
  FL_CUDA_CHECK_LAUNCH();
}

/// out[k] = in[index[k]] for positions (ids in their w) and velocities (the coherent-gather
/// reshuffle).
__global__ void gatherKernel(const u32* __restrict__ index, const float4* __restrict__ pos, const float4* __restrict__ vel,
                             float4* __restrict__ posOut, float4* __restrict__ velOut, u32 n) {
  const std::uint64_t k = globalThreadId();
  if (k >= n) return;
  const u32 j = index[k];
  posOut[k] = pos[j];
  velOut[k] = vel[j];
}

/// Counting sort, pass 1: counts per cell (must be zero before), and the rank of boid i in its
/// cell (its slot within the cell) in the w of vel[i], as uint32 bits.
__global__ void histogramKernel(const float4* __restrict__ pos, float4* __restrict__ vel, u32 n, Derived d,
                                u32* __restrict__ counts) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const float4 p = pos[i];
  vel[i].w = floatFromBits(atomicAdd(&counts[cellOf(p.x, p.y, p.z, d)], 1u));
}

/// Counting sort, pass 3: moves boid i (its position, with its id in w, and its velocity) to slot
/// start[cell] + rank, the cell recomputed from the position as pass 1 computed it and the rank
/// read from the w of the velocity.
__global__ void scatterKernel(const u32* __restrict__ start, const float4* __restrict__ pos,
                              const float4* __restrict__ vel, float4* __restrict__ posOut, float4* __restrict__ velOut,
                              u32 n, Derived d) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const float4 p = pos[i], v = vel[i];
  const u32 k = start[cellOf(p.x, p.y, p.z, d)] + floatBits(v.w);
  posOut[k] = p;
  velOut[k] = v;
}

/// numBoids x 6 floats: x, y, z, r, g, b.
__global__ void verticesKernel(const float4* __restrict__ pos, const float4* __restrict__ vel, u32 n, float maxSpeed,
                               float* __restrict__ out) {
  const std::uint64_t i = globalThreadId();
  if (i >= n) return;
  const float4 p = pos[i], v = vel[i];
  const Vec3 c = velocityColour(v.x, v.y, v.z, maxSpeed);
  float* o = out + 6 * i;
  o[0] = p.x; o[1] = p.y; o[2] = p.z;
  o[3] = c.x; o[4] = c.y; o[5] = c.z;
}

// ---- Simulations -------------------------------------------------------------------------------

/// State every GPU method holds: float4 position and velocity ping-pong pairs. Each boid's
/// original index (its id) is the uint32 bits of its position's w (floatBits / floatFromBits), so
/// every kernel that moves or rewrites a position carries the id along and state() can put the
/// boids back in their original order.
class GpuSimulation : public Simulation {
 public:
  /// `grid`: whether the method walks a grid (derive).
  GpuSimulation(const Params& p, const Tuning& t, bool grid) : params_(p), tuning_(t), d_(derive(p, t, grid)) {}

  void load(const State& s) override {
    checkFits(s, params_, "state");
    if (s.size() >= (std::size_t(1) << 31)) throw InputError("--n: at most 2^31 - 1 boids");
    n_ = u32(s.size());
    pos_ = PingPong<float4>(n_, "boids: positions (2 x float4 per boid)");
    vel_ = PingPong<float4>(n_, "boids: velocities (2 x float4 per boid)");
    std::vector<float4> hp(n_), hv(n_);
    for (u32 i = 0; i < n_; ++i) {
      hp[i] = make_float4(s.pos[i].x, s.pos[i].y, s.pos[i].z, floatFromBits(i));
      hv[i] = make_float4(s.vel[i].x, s.vel[i].y, s.vel[i].z, 0.f);
    }
    pos_.currentBuffer().copyFromHost(hp);
    vel_.currentBuffer().copyFromHost(hv);
    poisonNext();  // NaN: a slot a kernel fails to write shows up in state()
    allocate();
  }

  State state() const override {
    std::vector<float4> hp(n_), hv(n_);
    FL_CUDA_CHECK(cudaMemcpy(hp.data(), pos_.current(), n_ * sizeof(float4), cudaMemcpyDeviceToHost));
    FL_CUDA_CHECK(cudaMemcpy(hv.data(), vel_.current(), n_ * sizeof(float4), cudaMemcpyDeviceToHost));
    State s;
    s.pos.resize(n_);
    s.vel.resize(n_);
    std::vector<bool> seen(n_, false);
    for (u32 k = 0; k < n_; ++k) {
      const u32 id = floatBits(hp[k].w);
      if (id >= n_ || seen[id]) throw std::logic_error(info().name + ": boid ids are not a permutation (internal error)");
      seen[id] = true;
      s.pos[id] = {hp[k].x, hp[k].y, hp[k].z};
      s.vel[id] = {hv[k].x, hv[k].y, hv[k].z};
    }
    return s;
  }

  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }

  void writeVertices(float* out, bool outIsDevice) override {
    if (n_ == 0) return;
    if (outIsDevice) {
      verticesKernel<<<blocks(), tuning_.blockSize>>>(pos_.current(), vel_.current(), n_, params_.maxSpeed, out);
      FL_CUDA_CHECK_LAUNCH();
      return;
    }
    DeviceBuffer<float> tmp(std::size_t(n_) * 6, "boids: vertex staging buffer");
    verticesKernel<<<blocks(), tuning_.blockSize>>>(pos_.current(), vel_.current(), n_, params_.maxSpeed, tmp.data());
    FL_CUDA_CHECK_LAUNCH();
    FL_CUDA_CHECK(cudaMemcpy(out, tmp.data(), tmp.bytes(), cudaMemcpyDeviceToHost));
  }

  std::size_t numBoids() const override { return n_; }
  std::uint64_t stateBytes() const override { return std::uint64_t(n_) * 2 * 2 * sizeof(float4) + extraBytes(); }

  void step(std::uint64_t steps) override {
    for (std::uint64_t k = 0; k < steps; ++k) stepOnce();
  }

 protected:
  virtual void allocate() {}
  virtual std::uint64_t extraBytes() const { return 0; }
  virtual void stepOnce() = 0;

  unsigned blocks() const { return blocksFor(n_, tuning_.blockSize, std::size_t(1) << 31); }
  void poisonNext() {
    (pos_.odd ? pos_.a : pos_.b).fillBytes(0xFF);
    (vel_.odd ? vel_.a : vel_.b).fillBytes(0xFF);
  }
  void flipAll() {
    pos_.flip();
    vel_.flip();
  }

  Params params_;
  Tuning tuning_;
  Derived d_;
  u32 n_ = 0;
  PingPong<float4> pos_, vel_;
};

class NaiveGpu final : public GpuSimulation {
 public:
  NaiveGpu(const Params& p, const Tuning& t) : GpuSimulation(p, t, false) {}
  const MethodInfo& info() const override { return kInfo; }
  static inline const MethodInfo kInfo{"naive", Backend::Cuda,
                                       "every boid examines every other boid, tiles staged in shared memory"};

 protected:
  void stepOnce() override {
    const int bs = tuning_.blockSize;
    naiveKernel<<<blocks(), bs, 2 * bs * sizeof(float4)>>>(pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                                           n_, d_);
    FL_CUDA_CHECK_LAUNCH();
    flipAll();
  }
};

/// Shared by the grid methods: cell count, cell start/end arrays, sort buffers.
class GridGpu : public GpuSimulation {
 public:
  GridGpu(const Params& p, const Tuning& t) : GpuSimulation(p, t, true) {}

 protected:
  std::size_t numCells() const { return std::size_t(boids::numCells(d_)); }
  /// Key bits the radix sort needs: enough for numCells - 1.
  int keyBits() const {
    int b = 1;
    while (b < 32 && (std::uint64_t(1) << b) < numCells()) ++b;
    return b;
  }
  void allocate() override {
    start_ = DeviceBuffer<u32>(numCells(), "boids: cell start (uint32 per grid cell)");
    end_ = DeviceBuffer<u32>(numCells(), "boids: cell end (uint32 per grid cell)");
    keys_ = PingPong<u32>(n_, "boids: sort keys");
    values_ = PingPong<u32>(n_, "boids: sort values");
    std::size_t bytes = 0;
    cub::DoubleBuffer<u32> k(keys_.a.data(), keys_.b.data()), v(values_.a.data(), values_.b.data());
    FL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, int(n_), 0, keyBits()));
    temp_ = DeviceBuffer<std::uint8_t>(bytes ? bytes : 1, "boids: radix sort temporary storage");
  }
  std::uint64_t extraBytes() const override {
    return 2 * numCells() * sizeof(u32) + 4 * std::uint64_t(n_) * sizeof(u32) + temp_.bytes();
  }
  /// Labels boids with their cell, sorts (cell, boid index) pairs by cell on keyBits() bits,
  /// finds cell start/end. Afterwards sortedKeys()/sortedIndex() hold the result.
  void buildGrid() {
    const int bs = tuning_.blockSize;
    labelKernel<<<blocks(), bs>>>(pos_.current(), n_, d_, keys_.current(), values_.current());
    FL_CUDA_CHECK_LAUNCH();
    cub::DoubleBuffer<u32> k(keys_.current(), keys_.next()), v(values_.current(), values_.next());
    std::size_t bytes = temp_.bytes();
    FL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp_.data(), bytes, k, v, int(n_), 0, keyBits()));
    FL_CUDA_CHECK_LAUNCH();
    if (k.Current() != keys_.current()) keys_.flip();
    if (v.Current() != values_.current()) values_.flip();
    findCellRanges(keys_.current());
  }
  void findCellRanges(const u32* sortedKeys) {
    start_.fillBytes(0);
    end_.fillBytes(0);
    cellRangeKernel<<<blocks(), tuning_.blockSize>>>(sortedKeys, n_, start_.data(), end_.data());
    FL_CUDA_CHECK_LAUNCH();
  }
  /// The neighbour pass on cell-sorted boids with cell start/end: warpGridKernel, or sharedKernel
  /// for `shared`.
  void coherentStep(bool shared) {
    const int bs = tuning_.blockSize;
    if (shared) {
      sharedKernel<<<blocks(), bs, 2 * bs * sizeof(float4)>>>(pos_.current(), vel_.current(), pos_.next(),
                                                             vel_.next(), start_.data(), end_.data(), n_, d_);
      FL_CUDA_CHECK_LAUNCH();
    } else {
      launchWarpGrid<false, false>(blocks(), bs, nullptr, pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                   start_.data(), end_.data(), n_, d_);
    }
    flipAll();
  }

  DeviceBuffer<u32> start_, end_;
  PingPong<u32> keys_, values_;
  DeviceBuffer<std::uint8_t> temp_;
};

class ScatteredGpu final : public GridGpu {
 public:
  using GridGpu::GridGpu;
  const MethodInfo& info() const override { return kInfo; }
  static inline const MethodInfo kInfo{"grid", Backend::Cuda,
                                       "scattered uniform grid: sorted (cell, boid index) pairs, reads through the index",
                                       GridWalk::Cells};

 protected:
  void stepOnce() override {
    buildGrid();
    scatteredKernel<<<blocks(), tuning_.blockSize>>>(pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                                     values_.current(), start_.data(), end_.data(), n_, d_);
    FL_CUDA_CHECK_LAUNCH();
    flipAll();
  }
};

/// coherent-gather and shared: sort indices, reshuffle positions, velocities and ids into the
/// next buffers (our kernel or thrust::gather), then run the coherent kernel.
class GatherGpu final : public GridGpu {
 public:
  GatherGpu(const Params& p, const Tuning& t, bool shared) : GridGpu(p, t), shared_(shared) {}
  const MethodInfo& info() const override { return shared_ ? kSharedInfo : kInfo; }
  static inline const MethodInfo kInfo{"coherent-gather", Backend::Cuda,
                                       "coherent grid: sort indices, reshuffle positions/velocities with a gather kernel",
                                       GridWalk::Cells, true};
  static inline const MethodInfo kSharedInfo{"shared", Backend::Cuda,
                                             "coherent grid staging the block's own boids in shared memory",
                                             GridWalk::Cells};

 protected:
  void stepOnce() override {
    buildGrid();
    if (tuning_.thrustGather)
      detail::thrustGather(values_.current(), pos_.current(), vel_.current(), pos_.next(), vel_.next(), n_);
    else {
      gatherKernel<<<blocks(), tuning_.blockSize>>>(values_.current(), pos_.current(), vel_.current(), pos_.next(),
                                                    vel_.next(), n_);
      FL_CUDA_CHECK_LAUNCH();
    }
    flipAll();
    coherentStep(shared_);
  }

 private:
  bool shared_;
};

/// coherent-zip: thrust::sort_by_key carries positions (ids in their w) and velocities as zipped
/// values.
class ZipGpu final : public GridGpu {
 public:
  using GridGpu::GridGpu;
  const MethodInfo& info() const override { return kInfo; }
  static inline const MethodInfo kInfo{"coherent-zip", Backend::Cuda,
                                       "coherent grid: thrust::sort_by_key with zipped positions/velocities as values",
                                       GridWalk::Cells, true};

 protected:
  void stepOnce() override {
    labelKernel<<<blocks(), tuning_.blockSize>>>(pos_.current(), n_, d_, keys_.current(), values_.current());
    FL_CUDA_CHECK_LAUNCH();
    detail::thrustSortZip(keys_.current(), pos_.current(), vel_.current(), n_);
    findCellRanges(keys_.current());
    coherentStep(false);
  }
};

/// counting: grid by counting sort. Histogram (atomics, also each boid's rank in its cell, kept
/// in the w of its velocity), exclusive scan of the numCells + 1 counts (the common layer's
/// single-pass decoupled look-back scan, common/scan.cuh) giving cell start, and a scatter that
/// moves positions (ids in their w) and velocities to their sorted slots, 32 bytes per boid.
/// Cell c holds slots [start[c], start[c + 1]), so the neighbour pass reads each row run of cells
/// as one slot range (warpGridKernel<kRows>).
/// fast: the same, with the next step's histogram fused into the neighbour pass, so only the first
/// step after load() runs histogramKernel.
/// Both sort only every Tuning::sortEvery steps (the first step after load() sorts): the steps
/// between run the neighbour pass alone on the boids as the last sort left them (each keeps its
/// slot), on the grid of that sort (start unchanged), walked with the skin of the steps since
/// (reuseGrid); fast builds the histogram only in the step before a sort.
/// Both queue their steps on a stream of their own (blocking: the legacy default stream waits for
/// it and it for the legacy stream), so that step() can replay a whole sort interval as one CUDA
/// graph (Tuning::cudaGraphs): from a sort, the interval's launches depend only on the ping-pong
/// parity, so at most two graphs are recorded, each the first time its parity comes round; fast's
/// first interval after load() (which also runs histogramKernel) and steps that do not fill an
/// interval launch one by one.
class CountingGpu final : public GridGpu {
 public:
  CountingGpu(const Params& p, const Tuning& t, bool rows) : GridGpu(p, t), rows_(rows) {}
  const MethodInfo& info() const override { return rows_ ? kFastInfo : kInfo; }
  static inline const MethodInfo kInfo{"counting", Backend::Cuda,
                                       "coherent grid by counting sort: histogram, exclusive scan, scatter",
                                       GridWalk::Rows, true, true};
  static inline const MethodInfo kFastInfo{"fast", Backend::Cuda,
                                           "counting sort with the next step's histogram fused into the neighbour pass",
                                           GridWalk::Rows, true, true};

  void step(std::uint64_t steps) override {
    const auto interval = std::uint64_t(tuning_.sortEvery);
    while (steps > 0) {
      // The state after an interval from a sort is that of a sort again; fast's histogram is ready.
      if (tuning_.cudaGraphs && sinceSort_ == 0 && (histogramReady_ || !rows_) && steps >= interval) {
        CudaGraph& g = intervals_[pos_.odd];
        const bool odd = pos_.odd, ready = histogramReady_;
        try {
          if (!g)  // recorded, not run: the host state advances as the graph's replay will
            g = CudaGraph::capture(stream_.value().get(), [&] {
              for (std::uint64_t k = 0; k < interval; ++k) stepOnce();
            });
          else if (interval % 2 == 0)  // each step flips the buffers, and the sort once more
            flipAll();
          g.launch(stream_.value().get());
        } catch (...) {  // nothing ran: back to the state before the interval
          pos_.odd = vel_.odd = odd;
          sinceSort_ = 0;
          histogramReady_ = ready;
          throw;
        }
        steps -= interval;
      } else {
        stepOnce();
        --steps;
      }
    }
  }

  std::size_t boidsInGroups() const override {
    if (!grouped_) return 0;
    // After the queued steps (default stream); allocate() set it to n_ (no group step yet).
    const unsigned long long left = listCount_.copyToHost()[0];
    if (left > n_) throw std::logic_error(info().name + ": more boids left out of the groups than boids (internal error)");
    return n_ - std::size_t(left);
  }

 protected:
  void allocate() override {
    // Both hold the buffers load() replaced: dropped first, so that nothing below that throws
    // leaves them to a later step.
    for (auto& g : intervals_) g = {};
    for (auto& t : velTex_) t = {};
    counts_ = DeviceBuffer<u32>(numCells() + 1, "boids: cell counts (uint32 per grid cell)");
    start_ = DeviceBuffer<u32>(numCells() + 1, "boids: cell start (uint32 per grid cell)");
    const std::size_t bytes = scan::exclusiveScanTempBytes(numCells() + 1);
    temp_ = DeviceBuffer<std::uint8_t>(bytes ? bytes : 1, "boids: scan temporary storage");
    // The widest walk, the step before a sort, needs the most shared memory (walkPlan's chunk
    // grows with the reach) and decides the kernel: coarse at the widest reach is coarse at all.
    const Derived widest = reuseGrid(d_, tuning_.sortEvery - 1);
    if (rows_) allowWarpGridSharedMemory<true, true>(tuning_.blockSize, widest);
    allowWarpGridSharedMemory<true, false>(tuning_.blockSize, widest);  // counting, and fast between sorts
    if (rows_) allowCoarseLaneSharedMemory<true>(tuning_.blockSize);
    allowCoarseLaneSharedMemory<false>(tuning_.blockSize);
    histogramReady_ = false;
    sinceSort_ = 0;
    coarse_ = octantLanes(widest, n_);
    if (!stream_) stream_.emplace(cudaStreamDefault);
    // One texture per velocity buffer, for the neighbour pass's candidate velocities
    // (Tuning::velocityTexture); none where the device cannot make one (LinearTexture::ifFits):
    // the kernels then read that buffer's velocities as global loads, the same values.
    if (tuning_.velocityTexture) {
      velTex_[0] = LinearTexture<float4>::ifFits(vel_.a.data(), n_);
      velTex_[1] = LinearTexture<float4>::ifFits(vel_.b.data(), n_);
    }
    // Boid groups: open cubes whose sorting steps run warpGridKernel (Tuning::groupRadius, groupsRun).
    grouped_ = groupsRun(info(), n_, params_, tuning_);
    if (grouped_ && coarse_)  // groupsRun asks octantLanes of the same widest grid
      throw std::logic_error("CountingGpu: boid groups on a grid the octant walk takes");
    if (!grouped_) {  // drop the buffers of an earlier load()
      groups_ = {};
      centres_ = {};
      groupCount_ = {};
      listIn_ = {};
      list_ = {};
      listCount_ = {};
      compactTemp_ = {};
    } else {
      const std::size_t maxGroups = n_ / kGroupMin + 1;
      int device = 0, sms = 0;
      FL_CUDA_CHECK(cudaGetDevice(&device));
      FL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
      // As many warps as the SMs hold at once; each takes groups until none is left.
      groupBlocks_ = blocksFor(maxGroups * 32, kGroupBlock, std::size_t(sms) * kGroupBlocksPerSm);
      groups_ = DeviceBuffer<uint2>(maxGroups, "boids: groups (first slot, count)");
      centres_ = DeviceBuffer<float4>(maxGroups, "boids: group centres and radii");
      groupCount_ = DeviceBuffer<u32>(2, "boids: number of groups, groups taken by groupSumsKernel's warps");
      listIn_ = DeviceBuffer<u32>(n_, "boids: slots left out of the groups (slot + 1, or 0)");
      list_ = DeviceBuffer<u32>(n_, "boids: slots left out of the groups, compacted");
      listCount_ = DeviceBuffer<unsigned long long>(1, "boids: number of slots left out of the groups");
      listCount_.copyFromHost({n_});  // every boid, until a step forms groups (boidsInGroups)
      const std::size_t bytes = scan::compactTempBytes(scan::CompactMethod::Fused, n_);
      compactTemp_ = DeviceBuffer<std::uint8_t>(bytes ? bytes : 1, "boids: compaction temporary storage");
    }
  }
  std::uint64_t extraBytes() const override {
    return 2 * (numCells() + 1) * sizeof(u32) + temp_.bytes() + groups_.bytes() + centres_.bytes() +
           groupCount_.bytes() + listIn_.bytes() + list_.bytes() + listCount_.bytes() + compactTemp_.bytes();
  }
  void stepOnce() override {
    const int bs = tuning_.blockSize;
    cudaStream_t s = stream_.value().get();
    if (sinceSort_ == 0) {
      if (!histogramReady_) {
        counts_.fillBytes(0, s);
        histogramKernel<<<blocks(), bs, 0, s>>>(pos_.current(), vel_.current(), n_, d_, counts_.data());
        FL_CUDA_CHECK_LAUNCH();
      }
      scan::exclusiveScan(counts_.data(), start_.data(), numCells() + 1, temp_.data(), temp_.bytes(), s);
      FL_CUDA_CHECK_LAUNCH();
      scatterKernel<<<blocks(), bs, 0, s>>>(start_.data(), pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                            n_, d_);
      FL_CUDA_CHECK_LAUNCH();
      flipAll();
    }
    const Derived walk = reuseGrid(d_, sinceSort_);  // the skin of the steps since the sort
    sinceSort_ = sinceSort_ + 1 == tuning_.sortEvery ? 0 : sinceSort_ + 1;
    // fast: the histogram of the new positions, for the next step's sort (the scan above has
    // consumed the counts of this one).
    const bool histogram = rows_ && sinceSort_ == 0;
    if (histogram) counts_.fillBytes(0, s);
    const cudaTextureObject_t velTex = velTex_[vel_.odd ? 1 : 0].handle();  // over vel_.current()
    withFlag(histogram, [&](auto withHistogram) {  // the kernel builds the histogram
      constexpr bool kHistogram = decltype(withHistogram)::value;
      u32* counts = kHistogram ? counts_.data() : nullptr;
      if (coarse_) {
        launchCoarseLane<kHistogram>(blocks(), bs, s, pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                     start_.data(), n_, walk, counts, velTex, tuning_.balanceLanes);
      } else if (grouped_ && !walk.walkWraps) {  // sorted this step: the groups' cubes are contiguous
        groupCount_.fillBytes(0, s);
        groupKernel<<<blocksFor(std::size_t(walk.resolution) * walk.resolution * walk.resolution, bs,
                                std::size_t(1) << 31),
                      bs, 0, s>>>(pos_.current(), start_.data(), walk, groups_.data(), centres_.data(),
                                  groupCount_.data(), listIn_.data());
        FL_CUDA_CHECK_LAUNCH();
        scan::compact(scan::CompactMethod::Fused, reinterpret_cast<const int*>(listIn_.data()),
                      reinterpret_cast<int*>(list_.data()), n_, listCount_.data(), compactTemp_.data(),
                      compactTemp_.bytes(), s);
        FL_CUDA_CHECK_LAUNCH();
        withFlag(velTex != 0, [&](auto texture) {
          withFlag(sharedRadius(walk), [&](auto shared) {
            groupSumsKernel<kHistogram, decltype(texture)::value, decltype(shared)::value>
                <<<groupBlocks_, kGroupBlock, 0, s>>>(pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                                      start_.data(), walk, groups_.data(), centres_.data(),
                                                      groupCount_.data(), counts, velTex);
          });
        });
        FL_CUDA_CHECK_LAUNCH();
        launchWarpGrid<true, kHistogram>(blocks(), bs, s, pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                         start_.data(), nullptr, n_, walk, counts, velTex, list_.data(),
                                         listCount_.data());
      } else {
        launchWarpGrid<true, kHistogram>(blocks(), bs, s, pos_.current(), vel_.current(), pos_.next(), vel_.next(),
                                         start_.data(), nullptr, n_, walk, counts, velTex);
      }
    });
    flipAll();
    histogramReady_ = histogram;  // counts_ and the ranks in vel.w describe the new positions
  }

 private:
  bool rows_;
  bool coarse_ = false;  ///< the neighbour pass is coarseLaneKernel (octantLanes), fixed at allocate()
  /// Sorting steps form boid groups (groupKernel, groupSumsKernel) and run warpGridKernel on the
  /// boids they leave; fixed at allocate(), which sizes the buffers below (else empty).
  bool grouped_ = false;
  unsigned groupBlocks_ = 1;  ///< blocks of groupSumsKernel
  DeviceBuffer<uint2> groups_;
  DeviceBuffer<float4> centres_;
  DeviceBuffer<u32> groupCount_, listIn_, list_;
  DeviceBuffer<unsigned long long> listCount_;
  DeviceBuffer<std::uint8_t> compactTemp_;
  /// Over vel_.a and vel_.b, or empty (made by allocate()); the graphs in intervals_ hold their
  /// handles, so allocate() drops those first.
  LinearTexture<float4> velTex_[2];
  bool histogramReady_ = false;
  int sinceSort_ = 0;  ///< steps since the last sort, modulo Tuning::sortEvery (0: this step sorts)
  DeviceBuffer<u32> counts_;
  std::optional<Stream> stream_;  ///< made by the first allocate() (load() needs a device anyway)
  CudaGraph intervals_[2];        ///< one sort interval from a sort, by pos_.odd at its start (step())
};

template <class T, class... Extra>
detail::MethodEntry entry(const MethodInfo& info, Extra... extra) {
  return {info, [=](const Params& p, const Tuning& t) -> std::unique_ptr<Simulation> {
            return std::make_unique<T>(p, t, extra...);
          }};
}

}  // namespace

namespace detail {
std::vector<MethodEntry> gpuEntries() {
  return {
      entry<NaiveGpu>(NaiveGpu::kInfo),
      entry<ScatteredGpu>(ScatteredGpu::kInfo),
      entry<ZipGpu>(ZipGpu::kInfo),
      entry<GatherGpu>(GatherGpu::kInfo, false),
      entry<GatherGpu>(GatherGpu::kSharedInfo, true),
      entry<CountingGpu>(CountingGpu::kInfo, false),
      entry<CountingGpu>(CountingGpu::kFastInfo, true),
  };
}
}  // namespace detail

}  // namespace flocklife::boids
