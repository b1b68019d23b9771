#pragma once
/// @file boid_math.hpp
/// The per-boid arithmetic of the boids model, shared by the CPU reference and every GPU kernel
/// (FL_HD), so that CPU tests exercise the same maths the kernels run.
///
/// Model: C. Reynolds, "Flocks, Herds, and Schools: A Distributed Behavioral Model", SIGGRAPH 1987,
/// in the form of C. Parker's boids pseudocode as used by the UPenn CIS 565 flocking project:
///  - rule 1, cohesion: v += (mean position of neighbours within r1 - own position) * s1;
///  - rule 2, separation: v -= sum over neighbours within r2 of (their position - own) * s2;
///  - rule 3, alignment: v += (mean velocity of neighbours within r3) * s3. Like the course (and
///    unlike Parker, who steers by (mean - own velocity) / 8) the mean velocity itself is added;
///  - the new speed is clamped to maxSpeed; position += velocity * dt, wrapped into [-scale, scale]^3.
/// A boid is never its own neighbour. Neighbourhoods do not reach across the cube's faces unless
/// `periodic` (then offsets are minimum-image offsets on the torus of side 2 * scale).
/// Offsets are accumulated relative to the boid (sum of (q - p) rather than sum of q), which is
/// the same quantity with less rounding and is what makes the periodic centre of mass right.
///
/// Floating point: the squared distance that decides neighbourhood membership is computed with
/// explicitly rounded operations in a fixed order (lengthSq: one product, then two fused
/// multiply-adds, on the CPU by std::fma), so that CPU and GPU agree exactly on who is a
/// neighbour; only the order of the sums differs between methods.
#include <cmath>
#include <cstdint>

#include "common/hd.hpp"
#include "common/rounded.hpp"

namespace flocklife::boids {

/// Three floats; world units (positions) or world units per time unit (velocities).
struct Vec3 {
  float x = 0, y = 0, z = 0;
};

/// Constants of one simulation, derived once on the host from boids::Params and Tuning and passed by value
/// to kernels, so that CPU and GPU use bit-identical radii and grid geometry.
struct Derived {
  float scale = 100;               ///< the cube is [-scale, scale]^3
  float r1Sq = 25, r2Sq = 9, r3Sq = 25;  ///< squared rule distances
  float s1 = 0.01f, s2 = 0.1f, s3 = 0.1f;  ///< rule scales
  float maxSpeed = 1, dt = 0.2f;
  float maxDist = 5;               ///< largest rule distance
  /// Margin added to maxDist for every walk over the grid's cells (bounding box, skip tests): a
  /// few ulps of the coordinates, plus the skin of a grid reused between sorts (reuseGrid).
  float boxPad = 0;
  bool periodic = false;           ///< distances are minimum-image offsets on the torus (Params::periodic)
  /// The walks over the grid's cells wrap around the cube's faces: periodic, or a grid reused
  /// between sorts, whose boids may have been folded across a face since (reuseGrid).
  bool walkWraps = false;
  float stagingRatio = 2;          ///< warp kernel: stage when union cells <= ratio * lane cells (Tuning)
  // Uniform grid: xResolution x resolution x resolution cells tile the cube exactly, cellWidth
  // wide along y and z and xCellWidth = cellWidth / xSplit along x (Tuning::xSplit; 1: cubes).
  int resolution = 1;              ///< cells along y and z (>= 1)
  float cellWidth = 200;           ///< 2 * scale / resolution, world units
  float invCellWidth = 1.f / 200;
  int xSplit = 1;                  ///< x cells per cube along x (Tuning::xSplit)
  int xResolution = 1;             ///< cells along x: resolution * xSplit
  float xCellWidth = 200;          ///< 2 * scale / xResolution, world units
  float invXCellWidth = 1.f / 200;
  /// counting and fast: boids of a grid cube within groupRadius of a centre share one walk
  /// (Tuning::groupRadius, in world units here; 0: no groups).
  float groupRadius = 0;
};

/// Offset q - p, as a minimum-image offset on the torus when d.periodic (the same bits as
/// minimumImage(q - p, d) then; a CPU test holds the two together).
FL_HD FL_FORCEINLINE float axisOffset(float q, float p, const Derived& d) {
  float o = q - p;
  if (d.periodic) {
    const float side = 2.f * d.scale;
    if (o > d.scale) o -= side;
    else if (o < -d.scale) o += side;
  }
  return o;
}

/// The minimum-image offset on the torus of side 2 * d.scale of an open offset o = q - p (for
/// |o| <= 2 * scale, as between two boids of the cube): o folded by one side when |o| > scale.
/// Folds whatever d.periodic says, so only periodic code may call it. Bit for bit axisOffset's
/// periodic branch (o - side or o + side, each rounded once; o itself when |o| <= scale) for
/// every o, in another form: the GPU's compile-time periodic paths (offsetOf<true>: the staged
/// and per-lane candidate loops of warpGridKernel and coarseLaneKernel) take this one, a compare
/// on |o|, a copysign and a predicated subtraction per axis, 3 instructions against 6 for
/// axisOffset's fold behind its run-time test of d.periodic (bench/notes/boids.md, issue 8,
/// fourteenth round). axisOffset keeps its form (the CPU reference and the cell-by-cell
/// kernels): this one inside it took the open cell-by-cell kernel from 56 to 61 registers.
FL_HD FL_FORCEINLINE float minimumImage(float o, const Derived& d) {
  const float fold = copysignf(2.f * d.scale, o);  // o - fold: o - side for o > 0, o + side for o < 0
  if (fabsf(o) > d.scale) o -= fold;
  return o;
}

/// True when every face of the cube is at least the walks' reach (maxDist + boxPad) from p. Then,
/// on a periodic cube, the open offset q - p of any q in the cube is its minimum-image offset
/// whenever either one is within maxDist of p, bit for bit (an offset that would fold is longer
/// than scale, and its image is at least the reach away, so neither is a neighbour). The walks
/// need not wrap either: every neighbour's cell, also a reused grid's (reuseGrid: the skin is in
/// boxPad), lies within the grid's faces. So the open arithmetic and walks that do not wrap decide
/// the same neighbours with the same offsets; GPU kernels take them for warps whose boids all
/// satisfy this (tested on the CPU). Within a few ulps of the bound a walk's rounded range may
/// differ by a cell beyond the reach, which can change the path a warp takes and so the order of
/// its sums, not the neighbours.
FL_HD FL_FORCEINLINE bool awayFromFaces(float px, float py, float pz, const Derived& d) {
  const float inner = d.scale - (d.maxDist + d.boxPad);
  return fabsf(px) <= inner && fabsf(py) <= inner && fabsf(pz) <= inner;
}

/// Squared length ox^2 + oy^2 + oz^2 as fma(oz, oz, fma(oy, oy, ox * ox)), each operation rounded
/// to nearest once (identical on CPU and GPU; three instructions on the GPU, against five for
/// separately rounded products and sums).
FL_HD FL_FORCEINLINE float lengthSq(float ox, float oy, float oz) {
  return fmaRn(oz, oz, fmaRn(oy, oy, mulRn(ox, ox)));
}

/// Squared distances (world units^2) from the centre c of a group of boids, all within `radius`
/// (world units) of c, that decide for a rule of squared distance rSq (world units^2, >= 0): a boid
/// q with lengthSq(q - c) < inner is that rule's neighbour of every member p (lengthSq(q - p) < rSq
/// as the reference computes it), and one with lengthSq(q - c) >= outer of none; the others must
/// be tested per member. By the triangle inequality |q - p| <= |q - c| + |c - p|; the project's
/// own shortcut for boid groups (bench/notes/boids.md, issue 8, twenty-third round). `margin`
/// (world units) covers the rounding of all those offsets and squares: a few ulps of the
/// coordinates (callers pass Derived::boxPad, 1e-4 of the largest rule distance plus 1e-5 of the
/// scale). inner is -1 (no boid is inside) when radius + margin reaches the rule distance. Pure
/// arithmetic, no errors; tested on the CPU with candidates a few ulps from each bound.
struct GroupBounds {
  float inner, outer;
};
FL_HD FL_FORCEINLINE GroupBounds groupBounds(float rSq, float radius, float margin) {
  const float r = sqrtf(rSq), in = r - radius - margin, out = r + radius + margin;
  return {in > 0.f ? in * in : -1.f, out * out};
}

/// True when a squared distance dsq from a group's centre (world units^2) lies in the shell of any
/// of the three rules' bounds b1, b2, b3 (groupBounds of cohesion, separation, alignment): not
/// inside its inner bound and inside its outer bound. The boid groups queue such a candidate for
/// every member's own test of every rule; any other candidate is decided for every member by each
/// rule's bounds alone (the project's own scheme: bench/notes/boids.md, issue 8, twenty-eighth
/// round). Pure arithmetic, no errors; tested on the CPU (BoidMath.InAnyShellIsTheUnionOfTheRulesShells).
FL_HD FL_FORCEINLINE bool inAnyShell(float dsq, GroupBounds b1, GroupBounds b2, GroupBounds b3) {
  return (!(dsq < b1.inner) && dsq < b1.outer) || (!(dsq < b2.inner) && dsq < b2.outer) ||
         (!(dsq < b3.inner) && dsq < b3.outer);
}

/// Running sums of one boid's neighbourhood.
struct Accum {
  float cx = 0, cy = 0, cz = 0;  ///< sum of offsets of cohesion neighbours
  float sx = 0, sy = 0, sz = 0;  ///< minus the sum of offsets of separation neighbours
  float ax = 0, ay = 0, az = 0;  ///< sum of velocities of alignment neighbours
  int n1 = 0, n3 = 0;
};

/// Adds the candidate at offset (ox, oy, oz) to `a`; velocityOf() (returning a type with x, y, z)
/// is called only when the candidate is an alignment neighbour, so that kernels load velocities
/// of neighbours only, not of every candidate.
template <class VelocityOf>
FL_HD FL_FORCEINLINE void accumulateLazy(Accum& a, float ox, float oy, float oz, const Derived& d,
                                         VelocityOf&& velocityOf) {
  const float dsq = lengthSq(ox, oy, oz);
  if (dsq < d.r1Sq) {
    a.cx += ox; a.cy += oy; a.cz += oz;
    ++a.n1;
  }
  if (dsq < d.r2Sq) {
    a.sx -= ox; a.sy -= oy; a.sz -= oz;
  }
  if (dsq < d.r3Sq) {
    const auto v = velocityOf();
    a.ax += v.x; a.ay += v.y; a.az += v.z;
    ++a.n3;
  }
}

/// Adds the candidate at offset (ox, oy, oz) with velocity (vx, vy, vz) to `a`.
FL_HD FL_FORCEINLINE void accumulate(Accum& a, float ox, float oy, float oz, float vx, float vy, float vz,
                                     const Derived& d) {
  accumulateLazy(a, ox, oy, oz, d, [=] { return Vec3{vx, vy, vz}; });
}

/// Adds one candidate at offset (ox, oy, oz) from the boid, with velocity (vx, vy, vz), to `a`
/// under 0 / 1 masks (exactly 1.0f or +0.0f: -0.0f would count 4) for cohesion (m1), separation
/// (m2) and alignment (m3): each term times its mask by a fused multiply-add (see
/// accumulateMasked), the counts n1 and, with kCountAlignment, n3 by the masks' bits (without it,
/// n3 is left to finishShared). The core of accumulateMasked.
template <bool kCountAlignment = true>
FL_HD FL_FORCEINLINE void addMasked(Accum& a, float ox, float oy, float oz, float vx, float vy, float vz, float m1,
                                    float m2, float m3) {
  a.cx = fmaRn(ox, m1, a.cx); a.cy = fmaRn(oy, m1, a.cy); a.cz = fmaRn(oz, m1, a.cz);
  a.sx = fmaRn(-ox, m2, a.sx); a.sy = fmaRn(-oy, m2, a.sy); a.sz = fmaRn(-oz, m2, a.sz);
  a.ax = fmaRn(vx, m3, a.ax); a.ay = fmaRn(vy, m3, a.ay); a.az = fmaRn(vz, m3, a.az);
  // The masks are 1.0f (bits 0x3F800000, top three bits 001) or 0.0f: bits >> 29 is the 0 / 1 to
  // count, one shift-and-add on the GPU instead of a compare and a select.
  a.n1 += int(floatBits(m1) >> 29);
  if constexpr (kCountAlignment) a.n3 += int(floatBits(m3) >> 29);
}

/// The same sums as accumulate(), without branches, for GPU inner loops in which a warp would
/// otherwise branch per candidate: each rule adds its terms (negated for separation) times a 0 / 1
/// mask by a fused multiply-add, which rounds once, so a term times 1 is added exactly as
/// accumulate() adds it and a term times 0 leaves the sum as it was (a zero sum may change sign,
/// nothing else).
/// kSharedRadius: the caller has checked sharedRadius(d) (alignment and cohesion have one radius, as
/// in the classic parameters); then the cohesion mask serves alignment too and only n1 is counted,
/// one compare and one count fewer per candidate: the caller must call finishShared<true>(a) after
/// its last candidate, before reading n3.
/// Tested against accumulate() bit for bit on the CPU, both ways.
template <bool kSharedRadius = false>
FL_HD FL_FORCEINLINE void accumulateMasked(Accum& a, float ox, float oy, float oz, float vx, float vy, float vz,
                                           const Derived& d) {
  const float dsq = lengthSq(ox, oy, oz);
  const float m1 = dsq < d.r1Sq ? 1.f : 0.f, m2 = dsq < d.r2Sq ? 1.f : 0.f;
  const float m3 = kSharedRadius ? m1 : (dsq < d.r3Sq ? 1.f : 0.f);
  addMasked<!kSharedRadius>(a, ox, oy, oz, vx, vy, vz, m1, m2, m3);
}

/// True when alignment and cohesion have one radius (r3Sq == r1Sq): kernels may then add their
/// candidates by accumulateMasked<true>.
FL_HD FL_FORCEINLINE bool sharedRadius(const Derived& d) { return d.r3Sq == d.r1Sq; }

/// Completes sums added by accumulateMasked<true> (or any mix with accumulate(), which counts n3
/// itself): with one radius, the alignment count is the cohesion count.
template <bool kSharedRadius>
FL_HD FL_FORCEINLINE void finishShared(Accum& a) {
  if constexpr (kSharedRadius) a.n3 = a.n1;
}

/// Wraps one coordinate into [-scale, scale] (a step longer than the cube is folded back too).
FL_HD FL_FORCEINLINE float wrapCoord(float x, float scale) {
  if (x >= -scale && x <= scale) return x;
  const float side = 2.f * scale;
  x = x - mulRn(side, floorf((x + scale) / side));
  return x < -scale ? -scale : (x > scale ? scale : x);
}

/// New velocity from the old one and the neighbourhood sums; speed clamped to maxSpeed.
FL_HD FL_FORCEINLINE Vec3 newVelocity(float vx, float vy, float vz, const Accum& a, const Derived& d) {
  if (a.n1 > 0) {
    const float k = d.s1 / float(a.n1);
    vx += a.cx * k; vy += a.cy * k; vz += a.cz * k;
  }
  vx += a.sx * d.s2; vy += a.sy * d.s2; vz += a.sz * d.s2;
  if (a.n3 > 0) {
    const float k = d.s3 / float(a.n3);
    vx += a.ax * k; vy += a.ay * k; vz += a.az * k;
  }
  const float sq = vx * vx + vy * vy + vz * vz;
  if (sq > d.maxSpeed * d.maxSpeed) {
    const float k = d.maxSpeed / sqrtf(sq);  // sq > maxSpeed^2 > 0: no division by zero
    vx *= k; vy *= k; vz *= k;
  }
  return {vx, vy, vz};
}

/// Position after one step of length dt with velocity v, wrapped into the cube.
FL_HD FL_FORCEINLINE Vec3 newPosition(float px, float py, float pz, const Vec3& v, const Derived& d) {
  return {wrapCoord(px + v.x * d.dt, d.scale), wrapCoord(py + v.y * d.dt, d.scale),
          wrapCoord(pz + v.z * d.dt, d.scale)};
}

/// Colour of a boid for the renderer: each channel 0.5 + 0.5 * velocity / maxSpeed, in [0, 1].
FL_HD FL_FORCEINLINE Vec3 velocityColour(float vx, float vy, float vz, float maxSpeed) {
  const float k = 0.5f / maxSpeed;
  auto c = [](float x) { return x < 0.f ? 0.f : (x > 1.f ? 1.f : x); };
  return {c(0.5f + vx * k), c(0.5f + vy * k), c(0.5f + vz * k)};
}

// ---- Uniform grid ------------------------------------------------------------------------------

/// One axis of the uniform grid: `cells` cells of `width` world units (1 / invWidth) tile
/// [-scale, scale]. xAxis: the grid's x axis; yzAxis: its y and z axes.
struct GridAxis {
  int cells;
  float width, invWidth;
};
FL_HD FL_FORCEINLINE GridAxis xAxis(const Derived& d) { return {d.xResolution, d.xCellWidth, d.invXCellWidth}; }
FL_HD FL_FORCEINLINE GridAxis yzAxis(const Derived& d) { return {d.resolution, d.cellWidth, d.invCellWidth}; }
/// Cells of the grid: xResolution x resolution^2.
FL_HD FL_FORCEINLINE std::uint64_t numCells(const Derived& d) {
  return std::uint64_t(d.xResolution) * std::uint64_t(d.resolution) * std::uint64_t(d.resolution);
}

/// Grid coordinate of a position along axis g, in [0, g.cells - 1] (a boid exactly on the cube's
/// upper face belongs to the last cell).
FL_HD FL_FORCEINLINE int cellCoord(float p, const GridAxis& g, const Derived& d) {
  int c = int(floorf((p + d.scale) * g.invWidth));
  return c < 0 ? 0 : (c >= g.cells ? g.cells - 1 : c);
}

/// Linear cell index x + Rx * (y + R * z) (Rx = xResolution, R = resolution): the cells of a row
/// (fixed y and z) are consecutive.
FL_HD FL_FORCEINLINE std::uint32_t cellIndex(int cx, int cy, int cz, const Derived& d) {
  return std::uint32_t(cx) +
         std::uint32_t(d.xResolution) * (std::uint32_t(cy) + std::uint32_t(d.resolution) * std::uint32_t(cz));
}
FL_HD FL_FORCEINLINE std::uint32_t cellOf(float x, float y, float z, const Derived& d) {
  return cellIndex(cellCoord(x, xAxis(d), d), cellCoord(y, yzAxis(d), d), cellCoord(z, yzAxis(d), d), d);
}

/// The cells of grid axis g that a boid's neighbourhood spans: unwrapped coordinates lo..hi.
/// Without walkWraps they are clamped to the grid; with it they may leave it (wrap with wrapCell)
/// and span at most g.cells cells; `all` says the whole axis is covered (no skip test).
struct AxisRange {
  int lo, hi;
  bool all;
};
/// A half-width h of a walk along one axis, at most the side of the cube: any h of at least that
/// covers the whole axis from every point, and a reach of many cells (a huge rule distance, or the
/// skin of a reused grid at a huge --max-speed) would overflow the int of a cell coordinate. Cell
/// coordinates from it stay within [-cells, 2 x cells].
FL_HD FL_FORCEINLINE float axisHalfWidth(float h, const Derived& d) { return fminf(h, 2.f * d.scale); }
FL_HD FL_FORCEINLINE AxisRange axisRange(float p, const GridAxis& g, const Derived& d) {
  const float reach = axisHalfWidth(d.maxDist + d.boxPad, d);
  int lo = int(floorf((p + d.scale - reach) * g.invWidth));
  int hi = int(floorf((p + d.scale + reach) * g.invWidth));
  if (!d.walkWraps) {
    lo = lo < 0 ? 0 : lo;
    hi = hi >= g.cells ? g.cells - 1 : hi;
    const int c = cellCoord(p, g, d);  // rounding must never drop the boid's own cell
    lo = lo > c ? c : lo;
    hi = hi < c ? c : hi;
    return {lo, hi, false};
  }
  if (hi - lo + 1 >= g.cells) return {0, g.cells - 1, true};
  return {lo, hi, false};
}
/// Cell coordinate c wrapped into [0, cells) for an axis of `cells` cells, for -cells <= c <
/// 2 x cells: the unwrapped coordinates of the walks (ranges of fewer than `cells` cells around a
/// cell of the grid, else the whole axis). A compare and an add instead of an integer remainder
/// (~20 instructions on the GPU, run for every row of every boid's walk).
FL_HD FL_FORCEINLINE int wrapCell(int c, int cells) { return c < 0 ? c + cells : (c >= cells ? c - cells : c); }
/// A walk's cell coordinate c (unwrapped, as wrapCell takes it) as a coordinate of grid axis g:
/// wrapped when the walk wraps around the cube's faces (d.walkWraps), else c itself.
FL_HD FL_FORCEINLINE int walkCell(int c, const GridAxis& g, const Derived& d) {
  return d.walkWraps ? wrapCell(c, g.cells) : c;
}

/// Squared distance from p to the nearest point of unwrapped cell c of axis g (0 when the axis is
/// fully covered). kTwoMaxes: the gap as max(max(lo - p, p - hi), 0) instead of two compares and
/// selects. The squared gap is the same bit for bit (a CPU test holds the two together; the gap
/// itself may differ in the sign of a zero, and a NaN p gives 0 in both through fmaxf's rule of
/// returning the other operand, so keep fmaxf). Only the register allocation of the kernels around
/// it differs (ptxas, sm_90; bench/notes/boids.md, issue 8, rounds 15 and 16): in the group walk
/// (forEachGroupRun<true>) of counting's and fast's warp kernel it takes the periodic one-mask
/// instantiations from 64 to 56 registers, while round 15, which used it in every helper, took
/// the open cell-by-cell warp kernel (coherent-zip, coherent-gather) from 56 to 59. So each kernel
/// takes the form that suits it.
template <bool kTwoMaxes = false>
FL_HD FL_FORCEINLINE float axisGapSq(float p, int c, bool all, const GridAxis& g, const Derived& d) {
  if (all) return 0.f;
  const float lo = -d.scale + float(c) * g.width, hi = lo + g.width;
  float gap;
  if constexpr (kTwoMaxes)
    gap = fmaxf(fmaxf(lo - p, p - hi), 0.f);
  else
    gap = p < lo ? lo - p : (p > hi ? p - hi : 0.f);
  return gap * gap;
}

/// True when cell (cx, cy, cz) (unwrapped) can hold a neighbour of p: the nearest point of the
/// cell is within the largest rule distance plus boxPad (the rounding margin, and the skin of a
/// reused grid).
FL_HD FL_FORCEINLINE bool cellReachable(float gapSq, const Derived& d) {
  const float reach = d.maxDist + d.boxPad;
  return gapSq <= reach * reach;
}

}  // namespace flocklife::boids
