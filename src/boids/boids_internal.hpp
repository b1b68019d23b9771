#pragma once
/// @file boids_internal.hpp
/// Internal to the boids module: the registry entries and the grid traversal every grid method
/// shares (CPU and GPU). In the walks below, "periodic" rows and ranges are those of a grid whose
/// walks wrap around the cube's faces (Derived::walkWraps: a periodic cube, or a reused grid).
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "boids/boids.hpp"

namespace flocklife::boids {

/// Calls f(cellIndex) for every cell of the uniform grid that can hold a neighbour of the boid at
/// (px, py, pz): the bounding box of cells within the largest rule distance plus d.boxPad (the
/// rounding margin, and the skin of a reused grid), minus the cells whose nearest point is farther
/// than that (z outermost, x innermost, so that consecutive cells are
/// adjacent in memory). With d.walkWraps the box wraps around the cube's faces.
template <class F>
FL_HD FL_FORCEINLINE void forEachNeighbourCell(float px, float py, float pz, const Derived& d, F&& f) {
  const GridAxis gx = xAxis(d), gyz = yzAxis(d);
  const AxisRange rx = axisRange(px, gx, d), ry = axisRange(py, gyz, d), rz = axisRange(pz, gyz, d);
  for (int z = rz.lo; z <= rz.hi; ++z) {
    const float gz = axisGapSq(pz, z, rz.all, gyz, d);
    if (!cellReachable(gz, d)) continue;
    const int wz = walkCell(z, gyz, d);
    for (int y = ry.lo; y <= ry.hi; ++y) {
      const float gzy = gz + axisGapSq(py, y, ry.all, gyz, d);
      if (!cellReachable(gzy, d)) continue;
      const int wy = walkCell(y, gyz, d);
      for (int x = rx.lo; x <= rx.hi; ++x) {
        if (!cellReachable(gzy + axisGapSq(px, x, rx.all, gx, d), d)) continue;
        const int wx = walkCell(x, gx, d);
        f(cellIndex(wx, wy, wz, d));
      }
    }
  }
}

/// Calls f(firstCell, lastCell) (inclusive, one row of the grid) for the x cells lo..hi
/// (unwrapped) of the row that starts at linear cell `row`: one call, or two when a periodic
/// range wraps around the cube's face. Cells x..x+k of a row are adjacent in the linear order, so
/// with a cell-sorted boid array and an exclusive-scan cell start array a run's boids are the
/// single slot range [start[firstCell], start[lastCell + 1]).
template <class F>
FL_HD FL_FORCEINLINE void forEachRowRun(std::uint32_t row, int lo, int hi, const Derived& d, F&& f) {
  const int r = d.xResolution;
  if (!d.walkWraps) {
    f(row + std::uint32_t(lo), row + std::uint32_t(hi));
    return;
  }
  if (hi - lo + 1 >= r) {
    f(row, row + std::uint32_t(r - 1));
    return;
  }
  const int wlo = wrapCell(lo, r), whi = wrapCell(hi, r);
  if (wlo <= whi) {
    f(row + std::uint32_t(wlo), row + std::uint32_t(whi));
  } else {
    f(row + std::uint32_t(wlo), row + std::uint32_t(r - 1));
    f(row, row + std::uint32_t(whi));
  }
}

/// Inclusive range of cell coordinates; empty when lo > hi.
struct CellSpan {
  int lo, hi;
};
inline constexpr CellSpan kEmptySpan{2147483647, -2147483647 - 1};

/// The cells x in rx that a boid at x coordinate px reaches in a row whose squared gap along y
/// and z is gzy. The gap along x grows away from the boid's own cell (inside rx), so these cells
/// are contiguous; kEmptySpan when there are none.
FL_HD FL_FORCEINLINE CellSpan reachableInRow(float px, float gzy, const AxisRange& rx, const Derived& d) {
  if (!cellReachable(gzy, d)) return kEmptySpan;
  int lo = rx.lo, hi = rx.hi;
  const GridAxis gx = xAxis(d);
  while (lo <= hi && !cellReachable(gzy + axisGapSq(px, lo, rx.all, gx, d), d)) ++lo;
  while (hi >= lo && !cellReachable(gzy + axisGapSq(px, hi, rx.all, gx, d), d)) --hi;
  return lo <= hi ? CellSpan{lo, hi} : kEmptySpan;
}

/// The cells c of [r.lo, r.hi] (unwrapped) that meet the interval [p - h, p + h] along grid axis
/// g, h >= 0: cell c spans [c w - scale, (c + 1) w - scale], w = g.width. Float rounding may add or drop a cell
/// whose gap is within a few ulps of h; callers pass h for the padded reach (maxDist + boxPad), so
/// no cell that holds a point within maxDist is dropped.
FL_HD FL_FORCEINLINE CellSpan cellsMeeting(float p, float h, const AxisRange& r, const GridAxis& g,
                                           const Derived& d) {
  if (r.all) return {r.lo, r.hi};
  h = axisHalfWidth(h, d);
  const int lo = int(floorf((p + d.scale - h) * g.invWidth));
  const int hi = int(floorf((p + d.scale + h) * g.invWidth));
  return {lo > r.lo ? lo : r.lo, hi < r.hi ? hi : r.hi};
}

/// sqrt(x) for x >= 0, to within a few ulps on the GPU (x * rsqrt(x), two instructions instead of
/// the correctly rounded square root's ~10 and its slow-path branch; 0 for x <= 1e-30); exact on
/// the CPU. For half chords of the padded reach, where an error of 1e-6 units is far inside boxPad.
FL_HD FL_FORCEINLINE float sqrtApprox(float x) {
#if defined(__CUDA_ARCH__)
  // rsqrt.approx.ftz: one MUFU, without the rescaling rsqrtf adds for subnormal arguments (here
  // x <= 1e-30 gives 0, a change of at most 1e-15 units).
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return x > 1e-30f ? x * r : 0.f;
#else
  return std::sqrt(x);
#endif
}

/// Where a resumable forEachLaneRunFrom walk stands: the row (z, y) to visit next, in unwrapped
/// cell coordinates. `started` is false before the first call.
struct LaneCursor {
  int z = 0, y = 0;
  bool started = false;
};

/// The most row runs forEachLaneRunFrom<kMayWrap> gives for one row: two where a periodic row
/// wraps around the cube's face, one for a walk that cannot wrap. Callers size their room() by it.
template <bool kMayWrap>
inline constexpr int kLaneRunsPerRow = kMayWrap ? 2 : 1;

/// True when a lane's chunk of `chunk` slot ranges, holding n row runs of forEachLaneRunFrom<kMayWrap>
/// so far, has room for one more row's runs (kLaneRunsPerRow) and for the range that laneSlotRanges
/// appends when it splits the range holding the lane's own boid: the room() of the GPU's per-lane
/// walk (warpGridKernel's walkLane), so that a chunk never holds more than `chunk` ranges.
template <bool kMayWrap>
FL_HD constexpr bool laneChunkHasRoom(int n, int chunk) {
  return n + kLaneRunsPerRow<kMayWrap> + 1 <= chunk;
}

/// One boid's neighbour cells as row runs f(firstCell, lastCell), z, y, x order, each cell at most
/// once: the cells of forEachNeighbourCell up to rounding at the edge of the padded reach (see
/// cellsMeeting), but with the range of y in each z layer and of x in each row computed from the
/// ball (half-chord sqrt(reach^2 - gap^2)) instead of testing cell by cell. This is the GPU's
/// per-boid walk at fine cell widths, where a ball spans 7-11 cells along y and z (and xSplit
/// times as many along x).
/// Resumable: the walk starts at `cur` (the first row when !cur.started) and, before each row
/// that reaches some cell, stops when room() is false (a row gives at most kLaneRunsPerRow<kMayWrap>
/// runs: two where a periodic row wraps, one when !kMayWrap), leaving `cur` at that row. Returns
/// true when every row has been visited.
/// kMayWrap false: for grids whose walks do not wrap (!d.walkWraps, which the caller must have
/// checked; asserted in debug builds, a no-op in Release): the same runs, without the run-time
/// tests of a wrapping walk in every row (wrapped cells, whole axes, a run split at the face),
/// which the GPU's per-row loop otherwise executes (issue 8, fifteenth round).
template <bool kMayWrap = true, class Room, class F>
FL_HD FL_FORCEINLINE bool forEachLaneRunFrom(float px, float py, float pz, const Derived& d, LaneCursor& cur,
                                             Room&& room, F&& f) {
  const float reach = d.maxDist + d.boxPad, reachSq = reach * reach;
  const GridAxis gx = xAxis(d), gyz = yzAxis(d);
  assert(kMayWrap || !d.walkWraps);
  const AxisRange rx = axisRange(px, gx, d), ry = axisRange(py, gyz, d), rz = axisRange(pz, gyz, d);
  // Without walkWraps no axis range is whole (axisRange), so !kMayWrap folds `all` to false.
  const AxisRange xRange{rx.lo, rx.hi, kMayWrap && rx.all}, yRange{ry.lo, ry.hi, kMayWrap && ry.all};
  if (!cur.started) cur = {rz.lo, ry.lo, true};
  for (; cur.z <= rz.hi; ++cur.z) {
    const float gz = axisGapSq(pz, cur.z, kMayWrap && rz.all, gyz, d);
    if (gz <= reachSq) {
      const int wz = kMayWrap ? walkCell(cur.z, gyz, d) : cur.z;
      const CellSpan ys = cellsMeeting(py, sqrtApprox(reachSq - gz), yRange, gyz, d);
      if (cur.y < ys.lo) cur.y = ys.lo;
      for (; cur.y <= ys.hi; ++cur.y) {
        const float gzy = gz + axisGapSq(py, cur.y, yRange.all, gyz, d);
        if (!(gzy <= reachSq)) continue;
        const CellSpan xs = cellsMeeting(px, sqrtApprox(reachSq - gzy), xRange, gx, d);
        if (xs.lo > xs.hi) continue;
        if (!room()) return false;
        const std::uint32_t row = cellIndex(0, kMayWrap ? walkCell(cur.y, gyz, d) : cur.y, wz, d);
        if constexpr (kMayWrap)
          forEachRowRun(row, xs.lo, xs.hi, d, f);
        else
          f(row + std::uint32_t(xs.lo), row + std::uint32_t(xs.hi));
      }
    }
    cur.y = ry.lo;
  }
  return true;
}

/// Most row runs of forEachCoarseLaneRun<kCells>: kCells x kCells rows, one run each.
template <int kCells>
inline constexpr int kCoarseRuns = kCells * kCells;

/// One boid's neighbour cells as row runs f(firstCell, lastCell), z, y, x order, each cell at
/// most once, for coarse grids: when each axis range (axisRange) spans at most kCells cells
/// (kCells 2 or 3: cells at least about the reach wide, or 2/3 of it; at cell width 2 a ball of
/// radius 5 meets 1 or 2 cells per axis). The squared gaps of the <= kCells cells per axis are
/// computed once, and each row and cell is kept by the same test, in the same order of additions,
/// as forEachNeighbourCell, so the cells are exactly those (this replaces the half-chord rows of
/// forEachLaneRunFrom, whose square roots and floors cost more than they prune when a ball meets
/// ~4 rows). kCells 2 visits at most 2 x 2 rows with half the gaps and branches of kCells 3.
/// Returns false, calling f never, when an axis spans more than kCells cells or a periodic x run
/// would wrap around the cube's face (the caller then walks otherwise); otherwise calls f at most
/// kCoarseRuns<kCells> times and returns true.
template <int kCells, class F>
FL_HD FL_FORCEINLINE bool forEachCoarseLaneRun(float px, float py, float pz, const Derived& d, F&& f) {
  static_assert(kCells == 2 || kCells == 3, "2 or 3 cells per axis");
  const GridAxis ax = xAxis(d), ayz = yzAxis(d);
  const AxisRange rx = axisRange(px, ax, d), ry = axisRange(py, ayz, d), rz = axisRange(pz, ayz, d);
  if (rx.hi - rx.lo >= kCells || ry.hi - ry.lo >= kCells || rz.hi - rz.lo >= kCells) return false;
  if (d.walkWraps && !rx.all && (rx.lo < 0 || rx.hi >= d.xResolution)) return false;
  const float reach = d.maxDist + d.boxPad, reachSq = reach * reach;
  // Gaps of cells lo .. lo + kCells - 1; a cell past hi gets a gap no test passes.
  auto gaps = [&](float p, const AxisRange& r, const GridAxis& a, float* g) {
    FL_UNROLL
    for (int k = 0; k < kCells; ++k) g[k] = r.lo + k <= r.hi ? axisGapSq(p, r.lo + k, r.all, a, d) : INFINITY;
  };
  float gx[kCells], gy[kCells], gz[kCells];
  gaps(px, rx, ax, gx);
  gaps(py, ry, ayz, gy);
  gaps(pz, rz, ayz, gz);
  FL_UNROLL
  for (int zk = 0; zk < kCells; ++zk) {
    if (!cellReachable(gz[zk], d)) continue;
    const int wz = walkCell(rz.lo + zk, ayz, d);
    FL_UNROLL
    for (int yk = 0; yk < kCells; ++yk) {
      const float gzy = gz[zk] + gy[yk];
      if (!cellReachable(gzy, d)) continue;
      // The gap along x grows away from the boid's own cell: the reachable cells are contiguous.
      int lo = kCells, hi = -1;
      FL_UNROLL
      for (int xk = kCells - 1; xk >= 0; --xk) {
        if (gzy + gx[xk] <= reachSq) {
          lo = xk;
          if (hi < 0) hi = xk;
        }
      }
      if (hi < 0) continue;
      const int wy = walkCell(ry.lo + yk, ayz, d);
      const std::uint32_t row = cellIndex(0, wy, wz, d);
      f(row + std::uint32_t(rx.lo + lo), row + std::uint32_t(rx.lo + hi));
    }
  }
  return true;
}

/// Most row runs of forEachOctantRun: 2 x 2 rows, one run each.
inline constexpr int kOctantRuns = 4;

/// The candidates of one lane (the boids in its octant walk's runs, itself left out) from which the
/// balanced coarseLaneKernel (Tuning::balanceLanes) reorders the lanes of a block: blocks where no
/// lane has as many keep their order. At the start of 10M boids at constant density (~7
/// candidates per boid) the reordering made the step 1.13x slower (issue 8, eighteenth round).
inline constexpr std::uint32_t kBalanceFrom = 32;

/// One boid's neighbour cells on grids whose cubes (cellWidth along every axis) are at least twice
/// the padded reach wide (octantLanes, e.g. 10M boids at constant density and cell width 2). The
/// ball then meets the boid's own cube and, along each axis, at most the neighbour beyond the face
/// it is within reach of: at most 2 x 2 rows of 1 or 2 cubes (the course's 8-cell "octant", pruned to the
/// cells whose nearest point is within reach). Calls f(k, firstCell, lastCell) for each reachable
/// row run, k = 2 zk + yk its place among the 2 x 2 rows (zk, yk 0 for the lower of the two
/// unwrapped coordinates), in z, y, x order as forEachNeighbourCell orders its cells; each cell at
/// most once. The squared gaps are those to the own cell's faces, equal to axisGapSq's up to
/// rounding, far inside boxPad: the cells are forEachNeighbourCell's except, at most, cells whose
/// nearest point lies within a few ulps of the padded reach, which cannot hold a boid within
/// maxDist. About half of forEachCoarseLaneRun<2>'s instructions (ncu at 10M: 182 against 344 per
/// warp, axis work included): one cell coordinate and two face distances per axis instead of two
/// floors, clamps and two gaps. Used by coarseLaneKernel; warpGridKernel's per-lane walk keeps
/// forEachCoarseLaneRun<2>, since there this walk raised the kernel from 56 to 64 registers.
/// On grids split along x (Tuning::xSplit S > 1: cells S times narrower along x), the 2 x 2 rows
/// are those of the cubes S x cells long, and each run holds the x cells of its row's cubes that
/// meet the ball's half chord in that row (the padded reach's, sqrtApprox; cells whose nearest
/// point lies within a few ulps of the padded reach may be added or dropped, as above): fewer
/// candidates where rows are crowded (issue 8, nineteenth round).
/// Returns false, calling f never, on grids whose cubes are not
/// wider than the padded reach (the next cell but one would be within reach), when an axis needs
/// the neighbours on both sides (cells narrower than twice the padded reach, near a cell's
/// middle), when a periodic x run would wrap around the cube's face, or on a periodic grid of
/// fewer than 3 cells per axis (the two neighbours would be one cell).
template <class F>
FL_HD FL_FORCEINLINE bool forEachOctantRun(float px, float py, float pz, const Derived& d, F&& f) {
  const float reach = d.maxDist + d.boxPad, reachSq = reach * reach;
  const int r = d.resolution;
  if (!(d.cellWidth > reach) || (d.walkWraps && r < 3)) return false;
  const int split = d.xSplit;  // x cells per cube along x (a field: no integer division per boid)
  struct Axis {
    int lo;          // the lower of the (at most) two cells, unwrapped
    int cells;       // 1 or 2
    float gapSq[2];  // squared gaps of cells lo and lo + 1 (0 for the own cell)
  };
  bool both = false;
  auto axis = [&](float p) {
    const int c = cellCoord(p, yzAxis(d), d);
    const float lower = -d.scale + float(c) * d.cellWidth;
    const float down = p - lower, up = lower + d.cellWidth - p;
    const bool toLower = down <= reach && (d.walkWraps || c > 0);
    const bool toUpper = up <= reach && (d.walkWraps || c < r - 1);
    both = both || (toLower && toUpper);
    if (toLower) return Axis{c - 1, 2, {down * down, 0.f}};
    if (toUpper) return Axis{c, 2, {0.f, up * up}};
    return Axis{c, 1, {0.f, INFINITY}};
  };
  const Axis ax = axis(px), ay = axis(py), az = axis(pz);
  if (both || (d.walkWraps && (ax.lo < 0 || ax.lo + ax.cells > r))) return false;
  FL_UNROLL
  for (int zk = 0; zk < 2; ++zk) {
    FL_UNROLL
    for (int yk = 0; yk < 2; ++yk) {
      const float gzy = az.gapSq[zk] + ay.gapSq[yk];
      if (!(gzy <= reachSq)) continue;  // also a second row or layer that does not exist (INFINITY)
      int first, last;  // x cells of the run
      if (split == 1) {
        // The own x cell (gap 0) is always reached; the neighbour when the corner gap allows it.
        first = gzy + ax.gapSq[0] <= reachSq ? ax.lo : ax.lo + 1;
        last = ax.cells == 2 && gzy + ax.gapSq[1] <= reachSq ? ax.lo + 1 : ax.lo;
      } else {
        // The x cells of the row's cubes that meet the ball's half chord there.
        const float chord = sqrtApprox(reachSq - gzy);
        const int lo = int(floorf((px + d.scale - chord) * d.invXCellWidth));
        const int hi = int(floorf((px + d.scale + chord) * d.invXCellWidth));
        first = lo > ax.lo * split ? lo : ax.lo * split;
        last = hi < (ax.lo + ax.cells) * split - 1 ? hi : (ax.lo + ax.cells) * split - 1;
        if (first > last) continue;  // a chord of 0 at the cube's upper face: no cell
      }
      const int y = ay.lo + yk, z = az.lo + zk;
      const std::uint32_t row = cellIndex(0, walkCell(y, yzAxis(d), d), walkCell(z, yzAxis(d), d), d);
      f(2 * zk + yk, row + std::uint32_t(first), row + std::uint32_t(last));
    }
  }
  return true;
}

/// The neighbour cells of a group of boids that traverse the grid together (a warp of cell-sorted
/// boids on the GPU): the union over the group of every member's reachable cells, as row runs
/// f(firstCell, lastCell) in z, y, x order, each cell at most once. `group.span(g)` must return
/// the union [min lo, max hi] over the members of g(px, py, pz) -> CellSpan (empty spans ignored;
/// kEmptySpan when all are empty), the same value for every member. Every member must call this
/// with the same group and take the same path (on the GPU: the warp stays converged).
/// Boxes are unions of the members' axisRange in unwrapped coordinates; a periodic union of as
/// many cells as its axis has, or more, becomes the whole axis, so no cell is visited twice. Rows and cells that no member
/// reaches are skipped. The result is a superset of each member's forEachNeighbourCell cells.
/// kTwoMaxes: the z and y gaps that pick each row by axisGapSq<true> (the same cells; see there
/// for why); reachableInRow's x gaps keep the compares.
template <bool kTwoMaxes = false, class Group, class F>
FL_HD FL_FORCEINLINE void forEachGroupRun(const Group& group, const Derived& d, F&& f) {
  const GridAxis gx = xAxis(d), gyz = yzAxis(d);
  auto unionRange = [&](CellSpan s, const GridAxis& g) {
    if (d.walkWraps && s.hi - s.lo + 1 >= g.cells) return AxisRange{0, g.cells - 1, true};
    return AxisRange{s.lo, s.hi, false};
  };
  const AxisRange rx = unionRange(group.span([&](float px, float, float) {
    const AxisRange r = axisRange(px, gx, d);
    return CellSpan{r.lo, r.hi};
  }), gx);
  const AxisRange ry = unionRange(group.span([&](float, float py, float) {
    const AxisRange r = axisRange(py, gyz, d);
    return CellSpan{r.lo, r.hi};
  }), gyz);
  const AxisRange rz = unionRange(group.span([&](float, float, float pz) {
    const AxisRange r = axisRange(pz, gyz, d);
    return CellSpan{r.lo, r.hi};
  }), gyz);
  if (rx.lo > rx.hi || ry.lo > ry.hi || rz.lo > rz.hi) return;  // no member
  for (int z = rz.lo; z <= rz.hi; ++z) {
    const int wz = walkCell(z, gyz, d);
    for (int y = ry.lo; y <= ry.hi; ++y) {
      const CellSpan xs = group.span([&](float px, float py, float pz) {
        return reachableInRow(
            px, axisGapSq<kTwoMaxes>(pz, z, rz.all, gyz, d) + axisGapSq<kTwoMaxes>(py, y, ry.all, gyz, d), rx, d);
      });
      if (xs.lo > xs.hi) continue;
      const int wy = walkCell(y, gyz, d);
      forEachRowRun(cellIndex(0, wy, wz, d), xs.lo, xs.hi, d, f);
    }
  }
}

/// Calls add(j) for every slot j of a GPU lane's n slot ranges rows[32 k] = (first, end), in order,
/// none of them empty: all ranges in one loop, two slots at a time, so that a warp pays for its
/// longest lane's total of candidates, not for the longest lane of every range. Since no range is
/// empty, a pass moves on to the next range at most once, after its candidates: every pass reads
/// the next entry and takes it by selects, with no branch (a branch there let the compiler nest a
/// loop per range, which made warps wait for their longest lane in every range again: issue 8,
/// thirteenth round). So rows[32 n], one entry past the ranges, must be readable (its value is
/// not used). Range: a type with unsigned members x (first slot) and y (one past the last, below
/// 2^32 - 2, so that the pass's j + 2 cannot wrap); the stride 32 is the lanes of a warp sharing
/// interleaved columns of shared memory (one entry per lane per row).
template <class Range, class Add>
FL_HD FL_FORCEINLINE void forEachLaneSlot(const Range* rows, int n, Add&& add) {
  if (n == 0) return;
  const Range* next = rows + 32;
  const Range* const end = rows + 32 * n;
  std::uint32_t j = rows[0].x, e = rows[0].y;
  for (;;) {
    add(j);
    if (j + 1 < e) add(j + 1);
    j += 2;
    const bool over = j >= e;
    if (over && next == end) break;
    const Range r = *next;
    j = over ? r.x : j;
    e = over ? r.y : e;
    next += over ? 32 : 0;
  }
}

/// The grid constants for a step `stepsSinceSort` steps after the boids were last sorted by cell,
/// for simulations that sort only every few steps (Tuning::sortEvery) and in between walk the
/// grid of the last sort with the boids' current positions. newVelocity clamps the speed to
/// maxSpeed before newPosition moves a boid, so a boid is at most skin = stepsSinceSort x maxSpeed
/// x dt (plus rounding: 1e-4 of it and 1e-6 x scale per step, several ulps of the coordinates)
/// from the position it was sorted by, measured on the torus of side 2 x scale, since newPosition
/// folds a boid that leaves the cube back in at the opposite face. A neighbour within maxDist of a
/// boid therefore sits in a cell within maxDist + skin of it: the walks' reach grows by the skin
/// (boxPad), and they wrap around the faces (walkWraps) even in an open cube, whose distances do
/// not wrap (there the cells across a face only add candidates that the distance test rejects).
/// The neighbours, decided by the exact distance test on current positions, stay those of a
/// freshly sorted grid. This is the skin of Verlet's neighbour lists (L. Verlet, Phys. Rev. 159,
/// 98, 1967) applied to a cell list. stepsSinceSort 0 returns d unchanged.
inline Derived reuseGrid(Derived d, int stepsSinceSort) {
  if (stepsSinceSort <= 0) return d;
  const float perStep = d.maxSpeed * d.dt * (1.f + 1e-4f) + d.scale * 1e-6f;
  d.boxPad += float(stepsSinceSort) * perStep;
  d.walkWraps = true;
  return d;
}

/// True when the cells of d are at least about twice the padded reach (maxDist + boxPad, units)
/// wide along y and z (cellWidth; along x too unless the grid is split): a boid's neighbourhood
/// then meets at most 2 cells per axis. 1.999 rather than 2 so that --cell-width 2 qualifies;
/// the lanes within ~0.05 % of the cell width of a cell's centre that then meet 3 are left to
/// the walks (walkPlan, forEachOctantRun).
FL_HD inline bool cellsTwiceTheReach(const Derived& d) { return d.cellWidth >= 1.999f * (d.maxDist + d.boxPad); }

/// True when counting and fast walk the grid of d with coarseLaneKernel's octant walk
/// (forEachOctantRun) instead of warpGridKernel's walks: cells at least about twice the padded
/// reach wide along y and z (cellsTwiceTheReach; split along x or not) and fewer boids (n) than
/// cubes (resolution^3, whatever the split), so that a warp of 32 sorted boids spans 32 cubes or
/// more (sparse scenes, such as 10M boids at constant density and the automatic width 2.25). d:
/// the grid at the widest reach of its sort interval (reuseGrid(d, sortEvery - 1)).
inline bool octantLanes(const Derived& d, std::size_t n) {
  const double cubes = double(d.resolution) * double(d.resolution) * double(d.resolution);
  return cellsTwiceTheReach(d) && double(n) < cubes;
}

namespace detail {

struct MethodEntry {
  MethodInfo info;
  std::function<std::unique_ptr<Simulation>(const Params&, const Tuning&)> make;
};

std::vector<MethodEntry> cpuEntries();  ///< boids_cpu.cpp
#ifdef FLOCKLIFE_HAVE_CUDA
std::vector<MethodEntry> gpuEntries();  ///< boids_gpu.cu
#endif

}  // namespace detail
}  // namespace flocklife::boids
