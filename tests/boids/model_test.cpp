// The shared per-boid maths, option validation, derived grid geometry and CSV input/output.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <tuple>
#include <type_traits>

#include "boids/boids.hpp"
#include "boids/boids_internal.hpp"
#include "common/errors.hpp"

namespace flocklife::boids {

namespace {
template <class F>
std::string inputErrorOf(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no InputError)";
}
std::string tempPath(const std::string& name) {
  return ::testing::TempDir() + "flocklife_boids_" + name;
}
void writeText(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::trunc) << text;
}
}  // namespace

TEST(BoidMath, WrapCoordKeepsTheCubeAndFoldsBack) {
  EXPECT_EQ(wrapCoord(3.f, 10.f), 3.f);
  EXPECT_EQ(wrapCoord(10.f, 10.f), 10.f);
  EXPECT_EQ(wrapCoord(-10.f, 10.f), -10.f);
  EXPECT_NEAR(wrapCoord(10.5f, 10.f), -9.5f, 1e-5);
  EXPECT_NEAR(wrapCoord(-10.25f, 10.f), 9.75f, 1e-5);
  EXPECT_NEAR(wrapCoord(55.f, 10.f), -5.f, 1e-4);  // longer than the cube: folded back
  for (float x : {-1e7f, -30.f, 29.999f, 1e7f}) {
    const float w = wrapCoord(x, 10.f);
    EXPECT_GE(w, -10.f);
    EXPECT_LE(w, 10.f);
  }
}

TEST(BoidMath, PeriodicOffsetsAreMinimumImage) {
  Derived d;
  d.scale = 10;
  d.periodic = false;
  EXPECT_EQ(axisOffset(9.f, -9.f, d), 18.f);
  d.periodic = true;
  EXPECT_EQ(axisOffset(9.f, -9.f, d), -2.f);
  EXPECT_EQ(axisOffset(-9.f, 9.f, d), 2.f);
  EXPECT_EQ(axisOffset(4.f, -4.f, d), 8.f);
}

/// minimumImage, the fold of the GPU's compile-time periodic paths, gives axisOffset's periodic
/// offsets bit for bit: at the fold's bounds, offsets o of scale exactly, one ulp either side of
/// it, 2 * scale and one ulp under, both signs (with p = 0, so that q - p is o exactly), at +0 and
/// -0, and for 100,000 random pairs in the cube, at four scales. Folding at |o| >= scale, a
/// threshold one ulp off, or the wrong sign fails.
TEST(BoidMath, MinimumImageIsAxisOffsetBitForBit) {
  std::mt19937 rng(11);
  for (float scale : {0.75f, 10.f, 100.f, 1260.f}) {
    Derived d;
    d.scale = scale;
    d.periodic = true;
    auto same = [&](float q, float p) {
      const std::uint32_t got = floatBits(minimumImage(q - p, d)), want = floatBits(axisOffset(q, p, d));
      EXPECT_EQ(got, want) << "scale " << scale << ", q " << q << ", p " << p;
      return got == want;
    };
    const float side = 2.f * scale;
    for (float sign : {1.f, -1.f})
      for (float o : {scale, std::nextafter(scale, 0.f), std::nextafter(scale, side), side,
                      std::nextafter(side, 0.f)})
        same(sign * o, 0.f);
    same(0.f, 0.f);
    same(-0.f, 0.f);  // o = -0: both keep its sign
    std::uniform_real_distribution<float> cube(-scale, scale);
    for (int k = 0; k < 100000; ++k) ASSERT_TRUE(same(cube(rng), cube(rng)));
  }
}

/// axisGapSq's two forms (compares and selects; two maxes, kTwoMaxes) give the same bits of the
/// squared gap: at a cell's faces and one ulp either side, inside, at +-0, far outside, at NaN,
/// +-infinity and +-FLT_MAX, for cells past the grid's ends (unwrapped walks), on whole axes, on an
/// axis with a face at exactly 0 (p = -0 there gives max(-0, +0), a zero of either sign), and for
/// 100,000 random points and cells per axis of five grids (scale, cell width in rule distances).
TEST(BoidMath, AxisGapSqTwoMaxesIsTheComparesBitForBit) {
  std::mt19937 rng(13);
  const std::vector<std::pair<float, float>> grids{
      {10.f, 0.33f}, {10.f, 2.25f}, {100.f, 0.33f}, {100.f, 1.f}, {1260.f, 2.25f}};  // scale, Tuning::cellWidth
  auto check = [&](const GridAxis& g, const Derived& d, bool random) {
    auto same = [&](float x, int c, bool all) {
      const std::uint32_t got = floatBits(axisGapSq<true>(x, c, all, g, d));
      const std::uint32_t want = floatBits(axisGapSq<false>(x, c, all, g, d));
      EXPECT_EQ(got, want) << "scale " << d.scale << ", width " << g.width << ", p bits " << floatBits(x)
                           << ", cell " << c;
      return got == want;
    };
    for (int c : {-g.cells, -2, -1, 0, 1, g.cells / 2 - 1, g.cells / 2, g.cells - 1, g.cells, g.cells + 1,
                  2 * g.cells - 1}) {
      const float lo = -d.scale + float(c) * g.width, hi = lo + g.width;
      for (float x : {lo, hi, std::nextafter(lo, -INFINITY), std::nextafter(lo, INFINITY),
                      std::nextafter(hi, -INFINITY), std::nextafter(hi, INFINITY), 0.5f * (lo + hi), -d.scale,
                      d.scale, 0.f, -0.f, NAN, INFINITY, -INFINITY, FLT_MAX, -FLT_MAX})
        for (bool all : {false, true}) same(x, c, all);
    }
    if (!random) return;
    std::uniform_real_distribution<float> cube(-d.scale, d.scale);
    std::uniform_int_distribution<int> cell(-2, g.cells + 1);
    for (int k = 0; k < 100000; ++k) ASSERT_TRUE(same(cube(rng), cell(rng), false));
  };
  for (const auto& [scale, width] : grids) {
    Params p;
    p.scale = scale;
    Tuning t;
    t.cellWidth = width;
    t.xSplit = 4;
    const Derived d = derive(p, t);
    for (const GridAxis& g : {xAxis(d), yzAxis(d)}) check(g, d, true);
  }
  Derived faceAtZero;  // 8 cells 2.5 wide on [-10, 10]: cell 3 ends and cell 4 starts at exactly 0
  faceAtZero.scale = 10.f;
  check(GridAxis{8, 2.5f, 0.4f}, faceAtZero, false);
}

/// awayFromFaces (the GPU kernels' open arithmetic on a periodic cube): for boids it accepts, open
/// and minimum-image offsets decide the same neighbours of every rule, with bit-equal offsets for
/// the neighbours; the reach of the bound is needed (a boid closer to a face has a neighbour across
/// it that the open offset misses).
TEST(BoidMath, AwayFromFacesOpenOffsetsDecideTheSameNeighbours) {
  Params p;
  p.scale = 12;
  p.periodic = true;
  const Derived d = derive(p);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> cube(-p.scale, p.scale), near(-6.f, 6.f);
  int away = 0, neighbours = 0;
  for (int k = 0; k < 200000; ++k) {
    const float px = cube(rng), py = cube(rng), pz = cube(rng);
    if (!awayFromFaces(px, py, pz, d)) continue;
    ++away;
    // Half the candidates anywhere in the cube, half near the boid (folded into the cube).
    const bool anywhere = k % 2 == 0;
    const float qx = anywhere ? cube(rng) : wrapCoord(px + near(rng), p.scale);
    const float qy = anywhere ? cube(rng) : wrapCoord(py + near(rng), p.scale);
    const float qz = anywhere ? cube(rng) : wrapCoord(pz + near(rng), p.scale);
    const float ox = axisOffset(qx, px, d), oy = axisOffset(qy, py, d), oz = axisOffset(qz, pz, d);
    const float dsqPeriodic = lengthSq(ox, oy, oz), dsqOpen = lengthSq(qx - px, qy - py, qz - pz);
    for (float rSq : {d.r1Sq, d.r2Sq, d.r3Sq}) {
      ASSERT_EQ(dsqPeriodic < rSq, dsqOpen < rSq)
          << px << " " << py << " " << pz << " / " << qx << " " << qy << " " << qz;
      if (dsqPeriodic < rSq) {
        ++neighbours;
        ASSERT_EQ(ox, qx - px);
        ASSERT_EQ(oy, qy - py);
        ASSERT_EQ(oz, qz - pz);
      }
    }
  }
  EXPECT_GT(away, 5000);
  EXPECT_GT(neighbours, 5000);
  // Half a rule distance from a face: a neighbour across it, which the open offset misses.
  const float px = p.scale - 2.5f, qx = -p.scale + 1.25f;
  EXPECT_FALSE(awayFromFaces(px, 0.f, 0.f, d));
  EXPECT_LT(lengthSq(axisOffset(qx, px, d), 0.f, 0.f), d.r1Sq);
  EXPECT_GE(lengthSq(qx - px, 0.f, 0.f), d.r1Sq);
}

TEST(BoidMath, RulesFollowTheCourseFormulas) {
  Params p;
  const Derived d = derive(p);
  Accum a;
  accumulate(a, 2.f, 0.f, 0.f, 0.f, 0.5f, 0.f, d);  // within all three radii
  accumulate(a, 4.f, 0.f, 0.f, 0.f, 0.f, 0.5f, d);  // cohesion and alignment only
  accumulate(a, 6.f, 0.f, 0.f, 9.f, 9.f, 9.f, d);   // too far for every rule
  EXPECT_EQ(a.n1, 2);
  EXPECT_EQ(a.n3, 2);
  const Vec3 v = newVelocity(0.f, 0.f, 0.f, a, d);
  // cohesion: mean offset 3 * 0.01; separation: -2 * 0.1; alignment: mean velocity (0, .25, .25) * 0.1
  EXPECT_NEAR(v.x, 0.03f - 0.2f, 1e-6);
  EXPECT_NEAR(v.y, 0.025f, 1e-6);
  EXPECT_NEAR(v.z, 0.025f, 1e-6);
}

TEST(BoidMath, CoincidentBoidsAndNoNeighboursGiveFiniteVelocities) {
  const Derived d = derive(Params{});
  Accum a;
  accumulate(a, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, d);
  const Vec3 v = newVelocity(0.f, 0.f, 0.f, a, d);
  EXPECT_EQ(v.x, 0.f);
  EXPECT_EQ(v.y, 0.f);
  EXPECT_EQ(v.z, 0.f);
  const Vec3 alone = newVelocity(3.f, 4.f, 0.f, Accum{}, d);  // speed 5 clamped to 1
  EXPECT_NEAR(std::sqrt(alone.x * alone.x + alone.y * alone.y), 1.f, 1e-6);
  EXPECT_NEAR(alone.x, 0.6f, 1e-6);
}

TEST(BoidMath, DistanceExactlyAtTheRadiusIsNotANeighbour) {
  const Derived d = derive(Params{});
  Accum a;
  accumulate(a, 5.f, 0.f, 0.f, 1.f, 1.f, 1.f, d);
  accumulate(a, 3.f, 0.f, 0.f, 1.f, 1.f, 1.f, d);
  EXPECT_EQ(a.n1, 1);
  EXPECT_EQ(a.sx, 0.f);
}

/// Adds 2,000 candidates (offsets within +-7 in random directions, every 50th exactly on a radius
/// of 3, 4 or 5) to two sums, by accumulate and by accumulateMasked<kSharedRadius> (then
/// finishShared), and expects them equal value for value; returns the branching sums.
template <bool kSharedRadius>
Accum expectMaskedEqualsBranching(const Params& p, std::uint64_t seed) {
  const Derived d = derive(p);
  const State s = randomState(2000, p, seed);
  Accum branching, masked;
  for (std::size_t i = 0; i < s.size(); ++i) {
    float ox = s.pos[i].x * 0.07f, oy = s.pos[i].y * 0.07f, oz = s.pos[i].z * 0.07f;  // offsets within +-7
    if (i % 50 == 0) { ox = float(3 + int(i / 50) % 3); oy = 0.f; oz = 0.f; }       // exactly on a radius
    const Vec3 v = s.vel[i];
    accumulate(branching, ox, oy, oz, v.x, v.y, v.z, d);
    accumulateMasked<kSharedRadius>(masked, ox, oy, oz, v.x, v.y, v.z, d);
  }
  if (kSharedRadius) {
    EXPECT_EQ(masked.n3, 0);  // counted only by finishShared
  }
  finishShared<kSharedRadius>(masked);
  EXPECT_EQ(masked.n1, branching.n1);
  EXPECT_EQ(masked.n3, branching.n3);
  EXPECT_EQ(masked.cx, branching.cx); EXPECT_EQ(masked.cy, branching.cy); EXPECT_EQ(masked.cz, branching.cz);
  EXPECT_EQ(masked.sx, branching.sx); EXPECT_EQ(masked.sy, branching.sy); EXPECT_EQ(masked.sz, branching.sz);
  EXPECT_EQ(masked.ax, branching.ax); EXPECT_EQ(masked.ay, branching.ay); EXPECT_EQ(masked.az, branching.az);
  return branching;
}

/// The branch-free sums of the GPU inner loop equal the branching ones value for value, over
/// candidates inside, outside and exactly on each radius (distinct radii), in random order.
TEST(BoidMath, MaskedAccumulationEqualsTheBranchingOne) {
  Params p;
  p.rule1Distance = 5;
  p.rule2Distance = 3;
  p.rule3Distance = 4;
  const Accum branching = expectMaskedEqualsBranching<false>(p, 77);
  EXPECT_GT(branching.n1, branching.n3);
  EXPECT_GT(branching.n3, 0);
}

/// accumulateMasked<true> (one mask and one count for cohesion and alignment, what the GPU kernels
/// add with under the classic radii) against accumulate, bit for bit, where the radii are shared;
/// sharedRadius tells the two cases apart.
TEST(BoidMath, SharedRadiusAccumulationEqualsTheBranchingOne) {
  Params p;  // classic: rule 1 and rule 3 within 5, rule 2 within 3
  ASSERT_TRUE(sharedRadius(derive(p)));
  EXPECT_GT(expectMaskedEqualsBranching<true>(p, 78).n1, 0);
  p.rule3Distance = 4;
  EXPECT_FALSE(sharedRadius(derive(p)));
}

/// lengthSq is fma(oz, oz, fma(oy, oy, ox * ox)), in that order, on the CPU as on the GPU (where
/// the GPU tests compare neighbourhoods with the CPU's). With a = 1 + 2^-12 and e = 2^-12: a^2 =
/// 1 + 2^-11 + 2^-24 and e^2 = 2^-24. Fused after e^2, a^2 keeps its 2^-24 and the sum is 1 + 2^-11
/// + 2^-23; rounded first (a tie, to even), a^2 loses it, and so does the sum.
TEST(BoidMath, SquaredLengthIsFusedInAFixedOrder) {
  const float e = std::ldexp(1.f, -12), a = 1.f + e;
  const float fused = 1.f + std::ldexp(1.f, -11) + std::ldexp(1.f, -23), rounded = 1.f + std::ldexp(1.f, -11);
  EXPECT_EQ(lengthSq(e, a, 0.f), fused);
  EXPECT_EQ(lengthSq(e, 0.f, a), fused);
  EXPECT_EQ(lengthSq(a, e, 0.f), rounded);  // a * a rounded first
  EXPECT_EQ(lengthSq(0.f, a, e), rounded);  // y before z: a^2 fused onto 0, rounded, then e^2 added
  EXPECT_EQ(lengthSq(3.f, 4.f, 0.f), 25.f);
  EXPECT_EQ(lengthSq(0.f, 0.f, 0.f), 0.f);
}

/// groupBounds: a boid inside a rule's inner bound around a group's centre is that rule's neighbour
/// of every member, one at or beyond the outer bound of none, decided as the reference decides
/// (lengthSq of the float offset q - p). Worst cases: members at the group's radius on the far side
/// (inner) or the near side (outer) of the candidate, candidates a few ulps either side of each
/// bound; centres near the origin and far from it (coordinates of 1e4 and 3e5 have ulps of 1e-3
/// and 3e-2), radii from 0 to 1.5 units, rule distances 0.3 to 6.
TEST(BoidMath, GroupBoundsDecideForEveryMember) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> unit(-1.f, 1.f);
  int decided = 0;
  for (float scale : {15.f, 100.f, 1e4f, 3e5f})
    for (float r : {0.3f, 3.f, 5.f, 6.f})
      for (float spread : {0.f, 0.1f, 0.4f, 1.5f})
        for (int trial = 0; trial < 200; ++trial) {
          const float maxDist = std::max(r, 5.f), margin = maxDist * 1e-4f + scale * 1e-5f;  // Derived::boxPad
          const Vec3 c{0.9f * scale * unit(rng), 0.9f * scale * unit(rng), 0.9f * scale * unit(rng)};
          Vec3 u{unit(rng), unit(rng), unit(rng)};
          const float len = std::sqrt(lengthSq(u.x, u.y, u.z));
          if (len < 1e-3f) continue;
          u = {u.x / len, u.y / len, u.z / len};
          // Two members on the line through c along u, at -spread and +spread, and c itself.
          const Vec3 members[] = {{c.x - spread * u.x, c.y - spread * u.y, c.z - spread * u.z},
                                  {c.x + spread * u.x, c.y + spread * u.y, c.z + spread * u.z},
                                  c};
          float radiusSq = 0.f;
          for (const Vec3& m : members) radiusSq = std::max(radiusSq, lengthSq(m.x - c.x, m.y - c.y, m.z - c.z));
          const GroupBounds b = groupBounds(r * r, std::sqrt(radiusSq), margin);
          for (float bound : {b.inner, b.outer}) {
            if (bound < 0.f) continue;
            const float t0 = std::sqrt(bound);
            for (int k = -40; k <= 40; ++k) {  // candidates along u, stepping by ulps of the distance
              const float t = t0 + float(k) * std::max(t0, 1.f) * FLT_EPSILON * 4.f;
              const Vec3 q{c.x + t * u.x, c.y + t * u.y, c.z + t * u.z};
              const float dc = lengthSq(q.x - c.x, q.y - c.y, q.z - c.z);
              const bool inner = dc < b.inner, outside = dc >= b.outer;
              for (const Vec3& m : members) {
                const bool neighbour = lengthSq(q.x - m.x, q.y - m.y, q.z - m.z) < r * r;
                if (inner) {
                  EXPECT_TRUE(neighbour) << "scale " << scale << ", r " << r << ", spread " << spread;
                }
                if (outside) {
                  EXPECT_FALSE(neighbour) << "scale " << scale << ", r " << r << ", spread " << spread;
                }
                decided += inner || outside;
              }
            }
          }
        }
  EXPECT_GT(decided, 100000);
  // A radius that reaches the rule distance leaves no inner bound.
  EXPECT_EQ(groupBounds(0.09f, 0.4f, 1e-3f).inner, -1.f);
  EXPECT_GT(groupBounds(0.09f, 0.4f, 1e-3f).outer, 0.49f);
}

/// inAnyShell: in the shell of a rule is at or beyond its inner bound and before its outer bound;
/// any rule's shell makes the candidate a shell candidate; a rule without an inner bound (-1) has
/// its shell from 0.
TEST(BoidMath, InAnyShellIsTheUnionOfTheRulesShells) {
  const GroupBounds b1{16.f, 36.f}, b2{4.f, 9.f}, b3{16.f, 36.f}, none{-1.f, 0.25f}, far{100.f, 121.f};
  EXPECT_FALSE(inAnyShell(3.99f, b1, b2, b3));  // inside every inner bound
  EXPECT_TRUE(inAnyShell(4.f, b1, b2, b3));     // separation's inner bound itself is in its shell
  EXPECT_TRUE(inAnyShell(8.99f, b1, b2, b3));
  EXPECT_FALSE(inAnyShell(9.f, b1, b2, b3));    // outside separation's, inside cohesion's inner bound
  EXPECT_FALSE(inAnyShell(15.99f, b1, b2, b3));
  EXPECT_TRUE(inAnyShell(16.f, b1, b2, b3));    // cohesion's shell
  EXPECT_TRUE(inAnyShell(20.f, far, far, b3));  // alignment's shell alone
  EXPECT_FALSE(inAnyShell(36.f, b1, b2, b3));   // beyond every outer bound
  EXPECT_TRUE(inAnyShell(0.f, none, far, far)); // no inner bound: the shell starts at 0
  EXPECT_FALSE(inAnyShell(0.25f, none, far, far));
}

TEST(BoidMath, VelocityColourIsInTheUnitCube) {
  const Vec3 c = velocityColour(1.f, -1.f, 0.f, 1.f);
  EXPECT_EQ(c.x, 1.f);
  EXPECT_EQ(c.y, 0.f);
  EXPECT_EQ(c.z, 0.5f);
  const Vec3 big = velocityColour(7.f, -7.f, 0.f, 1.f);
  EXPECT_EQ(big.x, 1.f);
  EXPECT_EQ(big.y, 0.f);
}

TEST(Grid, CellsTileTheCubeAndTheUpperFaceBelongsToTheLastCell) {
  Params p;  // scale 100, largest distance 5
  Tuning t;
  t.cellWidth = 2;
  Derived d = derive(p, t);
  EXPECT_EQ(d.resolution, 20);
  EXPECT_FLOAT_EQ(d.cellWidth, 10.f);
  EXPECT_EQ(cellCoord(-100.f, yzAxis(d), d), 0);
  EXPECT_EQ(cellCoord(100.f, yzAxis(d), d), 19);
  EXPECT_EQ(cellCoord(-90.f, yzAxis(d), d), 1);
  EXPECT_EQ(d.xResolution, 20);
  EXPECT_EQ(d.xSplit, 1);
  t.xSplit = 4;  // x cells of 2.5 units
  d = derive(p, t);
  EXPECT_EQ(d.resolution, 20);
  EXPECT_EQ(d.xResolution, 80);
  EXPECT_EQ(d.xSplit, 4);  // forEachOctantRun reads it instead of xResolution / resolution
  EXPECT_FLOAT_EQ(d.xCellWidth, 2.5f);
  EXPECT_EQ(cellCoord(100.f, xAxis(d), d), 79);
  EXPECT_EQ(cellCoord(-97.f, xAxis(d), d), 1);
  EXPECT_EQ(cellOf(-97.f, -97.f, 100.f, d), 1u + 80u * (0u + 20u * 19u));
  EXPECT_EQ(numCells(d), 80u * 20u * 20u);
  t.xSplit = 1;
  t.cellWidth = 3;  // 15 does not divide 200: 13 cells of 15.38
  d = derive(p, t);
  EXPECT_EQ(d.resolution, 13);
  EXPECT_GE(d.cellWidth, 15.f);
  p.scale = 1;  // cube smaller than one cell
  d = derive(p, t);
  EXPECT_EQ(d.resolution, 1);
}

namespace {
/// The model on the cube [-scale, scale]^3, periodic or not (other parameters the defaults).
Params cube(float scale, bool periodic) {
  Params p;
  p.scale = scale;
  p.periodic = periodic;
  return p;
}
/// The grid of p with cells `width` times the largest rule distance, split xSplit times along x.
Derived gridOf(const Params& p, float width, int xSplit = 1) {
  Tuning t;
  t.cellWidth = width;
  t.xSplit = xSplit;
  return derive(p, t);
}
}  // namespace

/// Runs `check(params, derived, periodic, width)` on a 24-unit cube, periodic or not, for cell
/// widths 0.25, 0.5, 1, 2 and 3 times the largest rule distance, as cubes and split 3 times along
/// x (Tuning::xSplit; a failure names the split).
template <class Check>
void forEachGridShape(Check check) {
  for (int split : {1, 3})
    for (bool periodic : {false, true})
      for (float width : {0.25f, 0.5f, 1.f, 2.f, 3.f}) {
        SCOPED_TRACE("x split " + std::to_string(split));
        const Params p = cube(12, periodic);
        check(p, gridOf(p, width, split), periodic, width);
      }
}

/// Every cell that holds a point within the largest rule distance is visited, exactly once.
TEST(Grid, NeighbourCellsCoverTheBallAndAreDistinct) {
  forEachGridShape([](const Params& p, const Derived& d, bool periodic, float width) {
      const State probes = randomState(300, p, 5);
      for (std::size_t i = 0; i < probes.size(); ++i) {
        Vec3 a = probes.pos[i];
        if (i % 3 == 0) a.x = -12.f + d.xCellWidth * float(int(i) % (d.xResolution + 1));  // on a cell boundary
        if (i % 5 == 0) a.y = 12.f;                               // on a face
        std::vector<int> visits(std::size_t(numCells(d)), 0);
        forEachNeighbourCell(a.x, a.y, a.z, d, [&](std::uint32_t c) { ++visits[c]; });
        for (int& v : visits) ASSERT_LE(v, 1);
        const State others = randomState(400, p, 100 + i);
        for (const Vec3& b : others.pos) {
          const float ox = axisOffset(b.x, a.x, d), oy = axisOffset(b.y, a.y, d), oz = axisOffset(b.z, a.z, d);
          if (lengthSq(ox, oy, oz) < d.maxDist * d.maxDist) {
            ASSERT_EQ(visits[cellOf(b.x, b.y, b.z, d)], 1) << "periodic " << periodic << " width " << width;
          }
        }
      }
  });
}

/// A group of boids for forEachGroupRun on the CPU: span() is the union over the members, as
/// the warp reduction computes it on the GPU.
struct CpuGroup {
  const std::vector<Vec3>& members;
  template <class G>
  CellSpan span(G&& g) const {
    CellSpan u = kEmptySpan;
    for (const Vec3& q : members) {
      const CellSpan s = g(q.x, q.y, q.z);
      if (s.lo > s.hi) continue;
      u.lo = std::min(u.lo, s.lo);
      u.hi = std::max(u.hi, s.hi);
    }
    return u;
  }
};

/// The f of the row-run walks: counts each cell of run [first, last] in `visits` (a run past
/// the grid fails the test). The octant walk's f(k, first, last) ignores the place k.
struct CountRun {
  std::vector<int>& visits;
  void operator()(std::uint32_t first, std::uint32_t last) const {
    ASSERT_LT(last, visits.size());
    for (std::uint32_t c = first; c <= last; ++c) ++visits[c];
  }
  void operator()(int, std::uint32_t first, std::uint32_t last) const { (*this)(first, last); }
};

/// The warp traversal of the coherent kernels: runs of one row, no cell twice, and every cell
/// of every member's own traversal, for groups of 32 cell-sorted boids (as a warp holds them),
/// groups of scattered boids, single boids, and boids on the cube's faces and on cell boundaries;
/// with the two-max gaps (forEachGroupRun<true>, the GPU's kRows kernels) the same runs.
TEST(Grid, GroupRunsCoverEveryMembersCellsOnce) {
  forEachGridShape([](const Params& p, const Derived& d, bool periodic, float width) {
      State s = randomState(640, p, 21);
      for (std::size_t i = 0; i < s.size(); i += 7) s.pos[i].x = (i % 14 == 0) ? 12.f : -12.f;
      for (std::size_t i = 3; i < s.size(); i += 11) s.pos[i].y = -12.f + d.cellWidth * float(int(i) % (d.resolution + 1));
      std::vector<Vec3> scattered(s.pos.begin(), s.pos.begin() + 320), sorted(s.pos.begin() + 320, s.pos.end());
      std::stable_sort(sorted.begin(), sorted.end(),
                       [&](const Vec3& a, const Vec3& b) { return cellOf(a.x, a.y, a.z, d) < cellOf(b.x, b.y, b.z, d); });
      for (const std::vector<Vec3>* all : {&sorted, &scattered})
        for (std::size_t size : {32, 1})  // a warp; one boid walking alone (the kernels' sparse path)
        for (std::size_t g = 0; g < all->size(); g += size) {
          const std::vector<Vec3> members(all->begin() + g, all->begin() + std::min(all->size(), g + size));
          std::vector<int> visits(std::size_t(numCells(d)), 0);
          std::vector<std::pair<std::uint32_t, std::uint32_t>> runs, runsTwoMaxes;
          forEachGroupRun<true>(CpuGroup{members}, d, [&](std::uint32_t first, std::uint32_t last) {
            runsTwoMaxes.emplace_back(first, last);
          });
          forEachGroupRun(CpuGroup{members}, d, [&](std::uint32_t first, std::uint32_t last) {
            runs.emplace_back(first, last);
            ASSERT_LE(first, last);
            ASSERT_EQ(first / std::uint32_t(d.xResolution), last / std::uint32_t(d.xResolution)) << "one row";
            for (std::uint32_t c = first; c <= last; ++c) ++visits[c];
          });
          for (int v : visits) ASSERT_LE(v, 1) << "periodic " << periodic << " width " << width;
          ASSERT_EQ(runsTwoMaxes, runs) << "the two-max gaps (the GPU's kRows kernels), group " << g;
          for (const Vec3& q : members)
            forEachNeighbourCell(q.x, q.y, q.z, d, [&](std::uint32_t c) {
              ASSERT_EQ(visits[c], 1) << "periodic " << periodic << " width " << width << " group " << g;
            });
        }
  });
}

/// forEachLaneSlot (the GPU lanes' candidate loop) visits the slots of a lane's ranges, one column
/// of a table interleaved for 32 lanes, in order and each once: ranges of one, two and more
/// slots, odd and even, one range or several. It never uses the entry after the last range (the
/// table ends with it, for every lane tested; it holds slots no range has, so using it would
/// show), and under a sanitizer a read past it would be reported.
TEST(Grid, LaneSlotsAreTheRangesInOrder) {
  struct Range {
    std::uint32_t x, y;
  };
  const std::vector<std::vector<Range>> cases = {{},
                                                 {{5, 6}},
                                                 {{5, 7}},
                                                 {{5, 8}},
                                                 {{0, 1}, {3, 4}, {9, 10}},
                                                 {{2, 5}, {10, 11}, {20, 24}, {30, 33}},
                                                 {{7, 8}, {1, 3}, {40, 47}}};
  for (const auto& ranges : cases)
    for (int lane : {0, 31}) {
      const int n = int(ranges.size());
      std::vector<Range> table(std::size_t(32) * n + lane + 1, Range{999u, 1000u});
      for (int k = 0; k < n; ++k) table[std::size_t(32) * k + lane] = ranges[k];
      std::vector<std::uint32_t> want, got;
      for (const Range& r : ranges)
        for (std::uint32_t j = r.x; j < r.y; ++j) want.push_back(j);
      forEachLaneSlot(table.data() + lane, n, [&](std::uint32_t j) { got.push_back(j); });
      EXPECT_EQ(got, want) << n << " ranges, lane " << lane;
    }
}

/// The per-boid walk of the GPU kernels (forEachLaneRunFrom): runs of one row, no cell twice,
/// every cell that holds a point within the largest rule distance, for boids anywhere, on faces
/// and on cell boundaries; a walk stopped and resumed in chunks of any size visits the same runs
/// in the same order as one walk; and on grids whose walks do not wrap, the walk without the
/// wrapping tests (kMayWrap false) gives those same runs. Chunks are filled as the GPU's walk fills
/// them (laneChunkHasRoom): a chunk's runs plus the own boid's split range never exceed its size,
/// down to the smallest chunk that holds one row (3 entries, or 2 for walks that cannot wrap).
TEST(Grid, LaneRunsCoverTheBallOnceAndResumeWhereTheyStopped) {
  forEachGridShape([](const Params& p, const Derived& d, bool periodic, float width) {
    const State probes = randomState(200, p, 7);
    for (std::size_t i = 0; i < probes.size(); ++i) {
      Vec3 a = probes.pos[i];
      if (i % 3 == 0) a.x = -12.f + d.xCellWidth * float(int(i) % (d.xResolution + 1));
      if (i % 5 == 0) a.z = (i % 10 == 0) ? 12.f : -12.f;
      std::vector<std::pair<std::uint32_t, std::uint32_t>> whole;
      auto walk = [&](auto mayWrap, int chunk) {
        constexpr bool kMayWrap = decltype(mayWrap)::value;
        std::vector<std::pair<std::uint32_t, std::uint32_t>> runs;
        LaneCursor cur;
        int most = 0;  // the most runs of one call, checked once below
        for (int calls = 0;; ++calls) {
          if (calls >= 10000) {
            ADD_FAILURE() << "the walk does not advance";
            break;
          }
          int n = 0;
          const bool done = forEachLaneRunFrom<kMayWrap>(
              a.x, a.y, a.z, d, cur, [&] { return laneChunkHasRoom<kMayWrap>(n, chunk); },
              [&](std::uint32_t first, std::uint32_t last) {
                ++n;
                runs.emplace_back(first, last);
              });
          most = std::max(most, n);
          if (done) break;
        }
        EXPECT_LE(most + 1, chunk) << "the runs and the own split, may wrap " << kMayWrap;
        return runs;
      };
      for (int chunk : {1001, 3, 4, 6}) {
        const auto runs = walk(std::true_type{}, chunk);
        if (chunk == 1001) whole = runs;
        ASSERT_EQ(runs, whole) << "chunk " << chunk;
      }
      if (!d.walkWraps) {
        for (int chunk : {1001, 2, 3, 4})
          ASSERT_EQ(walk(std::false_type{}, chunk), whole) << "without the wrapping tests, chunk " << chunk;
      }
      std::vector<int> visits(std::size_t(numCells(d)), 0);
      for (const auto& [first, last] : whole) {
        ASSERT_LE(first, last);
        ASSERT_EQ(first / std::uint32_t(d.xResolution), last / std::uint32_t(d.xResolution)) << "one row";
        for (std::uint32_t c = first; c <= last; ++c) ++visits[c];
      }
      for (int v : visits) ASSERT_LE(v, 1) << "periodic " << periodic << " width " << width;
      const State others = randomState(400, p, 300 + i);
      for (Vec3 b : others.pos) {
        for (int k = 0; k < 2; ++k) {
          if (k == 1) b.y = -12.f + d.cellWidth * float(int(i) % (d.resolution + 1));  // on a boundary
          const float ox = axisOffset(b.x, a.x, d), oy = axisOffset(b.y, a.y, d), oz = axisOffset(b.z, a.z, d);
          if (lengthSq(ox, oy, oz) < d.maxDist * d.maxDist) {
            ASSERT_EQ(visits[cellOf(b.x, b.y, b.z, d)], 1) << "periodic " << periodic << " width " << width;
          }
        }
      }
    }
  });
}

/// The coarse walks (forEachCoarseLaneRun<2> and <3>) visit exactly the cells of
/// forEachNeighbourCell, each once, as runs of one row, when they apply; when they do not, they
/// call nothing. <3> applies to every boid of an open grid of cubes at least twice the reach
/// wide, and never where every axis spans more than 3 cells (periodic grids of width 0.25 and
/// 0.5); <2> applies to every boid of an open grid of cubes of width 2 or 3 and to some at width 1.
template <int kCells>
void checkCoarseLaneRuns() {
  forEachGridShape([](const Params& p, const Derived& d, bool periodic, float width) {
    const State probes = randomState(300, p, 9);
    int applied = 0;
    for (std::size_t i = 0; i < probes.size(); ++i) {
      Vec3 a = probes.pos[i];
      if (i % 3 == 0) a.x = -12.f + d.xCellWidth * float(int(i) % (d.xResolution + 1));  // on a cell boundary
      if (i % 5 == 0) a.z = (i % 10 == 0) ? 12.f : -12.f;                              // on a face
      std::vector<int> coarse(std::size_t(numCells(d)), 0), exact(coarse);
      int runs = 0;
      const bool ok = forEachCoarseLaneRun<kCells>(a.x, a.y, a.z, d, [&](std::uint32_t first, std::uint32_t last) {
        ++runs;
        ASSERT_LE(first, last);
        ASSERT_EQ(first / std::uint32_t(d.xResolution), last / std::uint32_t(d.xResolution)) << "one row";
        for (std::uint32_t c = first; c <= last; ++c) ++coarse[c];
      });
      if (!ok) {
        ASSERT_EQ(runs, 0);
        continue;
      }
      ++applied;
      ASSERT_LE(runs, kCells * kCells);
      forEachNeighbourCell(a.x, a.y, a.z, d, [&](std::uint32_t c) { ++exact[c]; });
      ASSERT_EQ(coarse, exact) << "cells " << kCells << " periodic " << periodic << " width " << width << " probe "
                               << i;
    }
    if (width <= 0.5f && periodic) {  // open grids clamp ranges at the faces, to 3 cells or fewer
      EXPECT_EQ(applied, 0) << "width " << width;
    }
    if (d.xResolution != d.resolution) return;  // cells split along x: where x spans few enough cells
    if (width >= 2.f && !periodic) {
      EXPECT_EQ(applied, int(probes.size())) << "cells " << kCells << " width " << width;
    }
    if (width >= 1.f) {
      EXPECT_GT(applied, 0) << "cells " << kCells << " periodic " << periodic << " width " << width;
    }
  });
}

TEST(Grid, CoarseLaneRunsAreTheNeighbourCellsExactly) {
  checkCoarseLaneRuns<3>();
  checkCoarseLaneRuns<2>();
}

/// The octant walk of sparse coarse grids (forEachOctantRun): runs of one row in z, y, x order
/// with distinct places k, no cell twice, every cell that holds a point within the largest rule
/// distance; a cell it adds to or leaves out of forEachNeighbourCell's is farther than maxDist from
/// the boid (the two differ only by rounding at the edge of the padded reach). It applies to every
/// boid of open grids with cells at least twice the padded reach wide, to none where cells are not
/// wider than the padded reach or a periodic grid has fewer than 3 cells per axis, and on wider
/// periodic grids to all but the boids whose x run would wrap; the same on grids split along x
/// (2, 3 and 4 x cells per cube), whose runs are clipped to the ball's half chord in x cells; and
/// on the grid reused 3 steps after its sort, every cell within maxDist plus the skin.
/// Cubes of 24 and 120 units; boids anywhere, on faces, on cell boundaries and in cells' middles.
TEST(Grid, OctantRunsCoverTheBallOnceAndDifferOnlyBeyondMaxDist) {
  for (float scale : {12.f, 60.f})
    for (bool periodic : {false, true})
      for (float width : {0.5f, 1.f, 2.f, 3.f})
        for (int xSplit : {1, 2, 3, 4}) {
          const Params p = cube(scale, periodic);
          const Derived d = gridOf(p, width, xSplit);
          const std::string where = "scale " + std::to_string(scale) + " periodic " + std::to_string(periodic) +
                                    " width " + std::to_string(width) + " split " + std::to_string(xSplit);
          // Squared distance from a to the nearest point of cell c, in double (minimum image).
          auto cellGapSq = [&](const Vec3& a, std::uint32_t c) {
            const std::uint32_t r = std::uint32_t(d.resolution), rx = std::uint32_t(d.xResolution);
            const std::uint32_t cc[3] = {c % rx, c / rx % r, c / rx / r};
            const float q[3] = {a.x, a.y, a.z};
            double sum = 0;
            for (int k = 0; k < 3; ++k) {
              const double w = k == 0 ? double(d.xCellWidth) : double(d.cellWidth);
              const double lo = -double(d.scale) + double(cc[k]) * w, hi = lo + w;
              double g = q[k] < lo ? lo - q[k] : (q[k] > hi ? q[k] - hi : 0.0);
              if (d.periodic) g = std::min(g, 2.0 * d.scale - (hi - lo) - g);
              sum += g * g;
            }
            return sum;
          };
          const State probes = randomState(300, p, 11);
          int applied = 0;
          for (std::size_t i = 0; i < probes.size(); ++i) {
            Vec3 a = probes.pos[i];
            if (i % 3 == 0) a.x = -scale + d.cellWidth * float(int(i) % (d.resolution + 1));  // on a cell boundary
            if (i % 4 == 0) a.y = -scale + d.cellWidth * (0.5f + float(int(i) % d.resolution));  // a cell's middle
            if (i % 5 == 0) a.z = (i % 10 == 0) ? scale : -scale;                                // on a face
            std::vector<int> octant(std::size_t(numCells(d)), 0), exact(octant);
            int runs = 0, lastPlace = -1;
            const bool ok = forEachOctantRun(a.x, a.y, a.z, d, [&](int k, std::uint32_t first, std::uint32_t last) {
              ++runs;
              ASSERT_GT(k, lastPlace) << "z, y order";
              ASSERT_LT(k, 4);
              lastPlace = k;
              ASSERT_LE(first, last);
              ASSERT_EQ(first / std::uint32_t(d.xResolution), last / std::uint32_t(d.xResolution)) << "one row";
              for (std::uint32_t c = first; c <= last; ++c) ++octant[c];
            });
            if (!ok) {
              ASSERT_EQ(runs, 0);
              continue;
            }
            ++applied;
            for (int v : octant) ASSERT_LE(v, 1) << where;
            forEachNeighbourCell(a.x, a.y, a.z, d, [&](std::uint32_t c) { ++exact[c]; });
            for (std::uint32_t c = 0; c < octant.size(); ++c) {
              if (octant[c] != exact[c]) {
                ASSERT_GE(cellGapSq(a, c), double(d.maxDist) * d.maxDist) << where << " probe " << i << " cell " << c;
              }
            }
            const State others = randomState(200, p, 500 + i);
            for (const Vec3& b : others.pos) {
              const float ox = axisOffset(b.x, a.x, d), oy = axisOffset(b.y, a.y, d), oz = axisOffset(b.z, a.z, d);
              if (lengthSq(ox, oy, oz) < d.maxDist * d.maxDist) {
                ASSERT_EQ(octant[cellOf(b.x, b.y, b.z, d)], 1) << where << " probe " << i;
              }
            }
            // The grid reused 3 steps after its sort (reuseGrid): the walk reaches farther by the
            // skin, so every cell within maxDist + 3 maxSpeed dt is in a run where the walk applies.
            const Derived reused = reuseGrid(d, 3);
            std::vector<int> later(octant.size(), 0);
            if (forEachOctantRun(a.x, a.y, a.z, reused, [&](int, std::uint32_t first, std::uint32_t last) {
                  for (std::uint32_t c = first; c <= last; ++c) ++later[c];
                })) {
              const double skinReach = double(d.maxDist) + 3.0 * double(d.maxSpeed) * double(d.dt);
              forEachNeighbourCell(a.x, a.y, a.z, reused, [&](std::uint32_t c) {
                if (later[c] == 0) {
                  EXPECT_GE(cellGapSq(a, c), skinReach * skinReach) << where << " reused, probe " << i << " cell " << c;
                }
              });
            }
          }
          const bool wide = d.cellWidth >= 2.f * (d.maxDist + d.boxPad);
          if (wide && !periodic) {
            EXPECT_EQ(applied, int(probes.size())) << where;
          }
          if (d.cellWidth <= d.maxDist + d.boxPad || (periodic && d.resolution < 3)) {
            EXPECT_EQ(applied, 0) << where;
          }
          if (wide && periodic && d.resolution >= 3) {
            EXPECT_GT(applied, int(probes.size()) * 3 / 4) << where;
            EXPECT_LT(applied, int(probes.size())) << where;
          }
        }
}

/// wrapCell folds every coordinate the walks produce (one turn either side) into the grid.
/// The GPU kernels' walks for periodic warps away from the faces (awayFromFaces) do not wrap: for
/// boids at and within a few ulps of the bound, on fresh and reused grids (sortEvery skins of
/// 1-7 steps), every walk of the grid without wrapping visits the sort-time cell of every
/// minimum-image neighbour, whose open offset is its minimum-image offset. Fails with the skin
/// left out of the bound.
TEST(Grid, AwayFromFacesWalksWithoutWrappingReachEveryNeighbour) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  long checked = 0, nearBound = 0;
  for (float scale : {12.f, 37.3f, 100.f})
    for (const auto& [width, split] : std::vector<std::pair<float, int>>{{0.33f, 1}, {0.5f, 1}, {1.f, 1}, {2.f, 1},
                                                                         {0.5f, 4}, {2.f, 3}})
      for (int k : {0, 1, 3, 7}) {
        const Derived d = reuseGrid(gridOf(cube(scale, true), width, split), k);
        Derived open = d;
        open.periodic = false;
        open.walkWraps = false;
        const float inner = d.scale - (d.maxDist + d.boxPad);
        for (int trial = 0; trial < 4000; ++trial) {
          float c[3];
          for (float& x : c) {  // anywhere, at the bound, a few ulps either side of it, or near it
                                // (a bound without the skin would take points out to boxPad more)
            const int mode = int(rng() % 4);
            x = mode == 0 ? u(rng) * scale : inner;
            for (int s = mode == 1 ? int(rng() % 9) - 4 : 0; s != 0; s += s > 0 ? -1 : 1)
              x = std::nextafter(x, s > 0 ? 1e9f : -1e9f);
            if (mode == 2) x = inner + u(rng) * (d.boxPad + 1e-3f * scale);  // as far out as the skin
            if (mode != 0 && (rng() & 1)) x = -x;
          }
          if (!awayFromFaces(c[0], c[1], c[2], d)) continue;
          // A candidate at sort time, then k steps of at most maxSpeed folded as newPosition does.
          float q[3], sorted[3];
          for (int a = 0; a < 3; ++a)
            sorted[a] = q[a] = wrapCoord(c[a] + u(rng) * (d.maxDist + float(k) * d.maxSpeed * d.dt), scale);
          for (int step = 0; step < k; ++step) {
            float v[3], sq;
            do {
              sq = 0;
              for (float& x : v) {
                x = u(rng);
                sq += x * x;
              }
            } while (sq > 1.f);
            for (int a = 0; a < 3; ++a) q[a] = wrapCoord(q[a] + v[a] * d.dt, scale);
          }
          const float ox = axisOffset(q[0], c[0], d), oy = axisOffset(q[1], c[1], d), oz = axisOffset(q[2], c[2], d);
          if (!(lengthSq(ox, oy, oz) < std::max(d.r1Sq, std::max(d.r2Sq, d.r3Sq)))) continue;
          ++checked;
          if (std::fabs(c[0]) > inner - 1e-4f * scale || std::fabs(c[1]) > inner - 1e-4f * scale ||
              std::fabs(c[2]) > inner - 1e-4f * scale)
            ++nearBound;
          ASSERT_EQ(ox, q[0] - c[0]);
          ASSERT_EQ(oy, q[1] - c[1]);
          ASSERT_EQ(oz, q[2] - c[2]);
          const std::uint32_t cell = cellOf(sorted[0], sorted[1], sorted[2], d);
          const std::string where = "scale " + std::to_string(scale) + " width " + std::to_string(width) +
                                    " x split " + std::to_string(split) + " k " + std::to_string(k);
          // Visits of the neighbour's cell by each walk (runs of cells first..last).
          int cellByCell = 0, lane = 0, coarse = 0, group = 0;
          auto hits = [cell](int& n) {
            return [cell, &n](std::uint32_t first, std::uint32_t last) { n += first <= cell && cell <= last; };
          };
          forEachNeighbourCell(c[0], c[1], c[2], open, [&](std::uint32_t x) { cellByCell += x == cell; });
          LaneCursor cur;
          forEachLaneRunFrom(c[0], c[1], c[2], open, cur, [] { return true; }, hits(lane));
          const bool coarseApplies = forEachCoarseLaneRun<2>(c[0], c[1], c[2], open, hits(coarse));
          const std::vector<Vec3> members{{c[0], c[1], c[2]}};
          forEachGroupRun(CpuGroup{members}, open, hits(group));
          ASSERT_EQ(cellByCell, 1) << where;
          ASSERT_EQ(lane, 1) << where;
          if (coarseApplies) {
            ASSERT_EQ(coarse, 1) << where;
          }
          ASSERT_EQ(group, 1) << where;
        }
      }
  EXPECT_GT(checked, 20000);
  EXPECT_GT(nearBound, 5000);
}

TEST(Grid, WrapCellFoldsOneTurnEitherSide) {
  for (int r : {1, 2, 3, 7, 1290})
    for (int c = -r; c < 2 * r; ++c) ASSERT_EQ(wrapCell(c, r), ((c % r) + r) % r) << c << " of " << r;
}

/// A grid reused k steps after its sort (reuseGrid): every walk from a boid's current position
/// visits the cell its neighbours were sorted into, though they have moved since, across the
/// cube's faces too (newPosition folds them back in at the opposite face, in the open cube as
/// well), each cell once. Neighbours move k steps of newPosition at up to maxSpeed (1 unit per
/// step here), many at full speed out of the cube; open and periodic cubes of 24 and 120 units;
/// widths 0.5 to 3 (the octant walk applies at 2.5 one step after the sort, at 3 two steps after),
/// and cells split along x (Tuning::xSplit 3 at width 0.5, 4 at 2.5; the 24-unit cube); k up to 63 (the largest Tuning::sortEvery, 64, less one: a skin wider than the cube).
TEST(Grid, ReusedGridWalksFindNeighboursMovedSinceTheSort) {
  for (float scale : {12.f, 60.f})
    for (bool periodic : {false, true})
      for (const auto& [width, split] : std::vector<std::pair<float, int>>{{0.5f, 1}, {1.f, 1}, {2.f, 1}, {2.5f, 1},
                                                                           {3.f, 1}, {0.5f, 3}, {2.5f, 4}})
        for (int k : {1, 2, 4, kMaxSortEvery - 1}) {
          if (split > 1 && scale > 12.f) continue;  // the larger cube's split grids: ~4x the time, no new case
          Params p = cube(scale, periodic);
          p.maxSpeed = 2;
          p.dt = 0.5f;
          const Derived d = gridOf(p, width, split), w = reuseGrid(d, k);
          ASSERT_TRUE(w.walkWraps);
          ASSERT_GE(w.boxPad, d.boxPad + float(k) * p.maxSpeed * p.dt);
          const std::string where = "scale " + std::to_string(scale) + " periodic " + std::to_string(periodic) +
                                    " width " + std::to_string(width) + " x split " + std::to_string(split) +
                                    " k " + std::to_string(k);
          // Sorted positions, half of them within k steps of a face; then k steps each, at full
          // speed (every fourth boid at a random lower speed), half of the boids straight out.
          State sorted = randomState(600, p, 31);
          std::vector<Vec3> now(sorted.pos);
          std::size_t crossed = 0;
          for (std::size_t j = 0; j < now.size(); ++j) {
            Vec3 v = sorted.vel[j];
            if (j % 2 == 0) {
              sorted.pos[j].x = (j % 4 == 0 ? 1.f : -1.f) * (scale - 0.3f * float(k) * float(j % 3));
              now[j] = sorted.pos[j];
              v = {j % 4 == 0 ? 0.9f : -0.9f, 0.3f, -0.2f};
            }
            const float norm = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
            const float speed = j % 4 == 3 ? p.maxSpeed * float(j % 7) / 7.f : p.maxSpeed;
            if (norm == 0.f) v = {1.f, 0.f, 0.f};
            const float f = speed / (norm == 0.f ? 1.f : norm);
            v = {v.x * f, v.y * f, v.z * f};
            for (int step = 0; step < k; ++step) now[j] = newPosition(now[j].x, now[j].y, now[j].z, v, d);
            if (std::fabs(now[j].x - sorted.pos[j].x) > scale) ++crossed;
          }
          ASSERT_GT(crossed, now.size() / 8) << where;
          const State probes = randomState(150, p, 41);
          std::size_t acrossNeighbours = 0;
          for (std::size_t i = 0; i < probes.size(); ++i) {
            Vec3 a = probes.pos[i];
            if (i % 2 == 0) a.x = (i % 4 == 0 ? -1.f : 1.f) * (scale - float(i % 5));  // near a face
            if (i % 3 == 0) a.y = -scale + d.cellWidth * float(int(i) % (d.resolution + 1));  // on a cell boundary
            const std::size_t cells = std::size_t(numCells(d));
            std::vector<int> exact(cells, 0), lane(cells, 0), octant(cells, 0), group(cells, 0), coarse(cells, 0),
                coarse2(cells, 0);
            forEachNeighbourCell(a.x, a.y, a.z, w, [&](std::uint32_t c) { ++exact[c]; });
            LaneCursor cur;
            forEachLaneRunFrom(a.x, a.y, a.z, w, cur, [] { return true; }, CountRun{lane});
            const bool octantApplies = forEachOctantRun(a.x, a.y, a.z, w, CountRun{octant});
            if (forEachCoarseLaneRun<3>(a.x, a.y, a.z, w, CountRun{coarse})) {
              ASSERT_EQ(coarse, exact) << where;
            }
            if (forEachCoarseLaneRun<2>(a.x, a.y, a.z, w, CountRun{coarse2})) {
              ASSERT_EQ(coarse2, exact) << where;
            }
            const std::vector<Vec3> alone{a};
            forEachGroupRun(CpuGroup{alone}, w, CountRun{group});
            for (std::size_t c = 0; c < cells; ++c) {
              ASSERT_LE(exact[c], 1) << where;
              ASSERT_LE(lane[c], 1) << where;
              ASSERT_LE(octant[c], 1) << where;
              ASSERT_LE(group[c], 1) << where;
            }
            for (std::size_t j = 0; j < now.size(); ++j) {
              const Vec3 b = now[j];
              const float ox = axisOffset(b.x, a.x, d), oy = axisOffset(b.y, a.y, d), oz = axisOffset(b.z, a.z, d);
              if (!(lengthSq(ox, oy, oz) < d.maxDist * d.maxDist)) continue;
              const std::uint32_t c = cellOf(sorted.pos[j].x, sorted.pos[j].y, sorted.pos[j].z, d);
              if (std::fabs(b.x - sorted.pos[j].x) > scale) ++acrossNeighbours;
              ASSERT_EQ(exact[c], 1) << where << " probe " << i << " boid " << j;
              ASSERT_EQ(lane[c], 1) << where << " probe " << i << " boid " << j;
              ASSERT_EQ(group[c], 1) << where << " probe " << i << " boid " << j;
              if (octantApplies) {
                ASSERT_EQ(octant[c], 1) << where << " probe " << i << " boid " << j;
              }
            }
          }
          EXPECT_GT(acrossNeighbours, 0u) << where << ": no neighbour crossed a face since the sort";
        }
}

/// A skin of billions of cells (a reused grid at a huge --max-speed) covers the whole grid, each
/// cell once, in every walk, open or periodic: the cell ranges are clamped before they are
/// converted to int (axisHalfWidth), which would otherwise overflow. Cubes, and cells split 5
/// times along x.
TEST(Grid, HugeSkinCoversTheWholeGridOnce) {
  for (int split : {1, 5})
  for (bool periodic : {false, true}) {
    SCOPED_TRACE("x split " + std::to_string(split));
    Params p;
    p.scale = 12;
    p.periodic = periodic;
    p.maxSpeed = 1e8f;
    p.dt = 1;
    Tuning t;
    t.cellWidth = 0.25f;  // 19^3 cells of 1.26 units
    t.xSplit = split;
    const Derived w = reuseGrid(derive(p, t), kMaxSortEvery - 1);
    const std::size_t cells = std::size_t(numCells(w));
    for (const Vec3& a : randomState(20, p, 3).pos) {
      std::vector<int> exact(cells, 0), lane(cells, 0), group(cells, 0);
      forEachNeighbourCell(a.x, a.y, a.z, w, [&](std::uint32_t c) {
        ASSERT_LT(c, cells);
        ++exact[c];
      });
      LaneCursor cur;
      forEachLaneRunFrom(a.x, a.y, a.z, w, cur, [] { return true; }, CountRun{lane});
      const std::vector<Vec3> alone{a};
      forEachGroupRun(CpuGroup{alone}, w, CountRun{group});
      const std::vector<int> once(cells, 1);
      EXPECT_EQ(exact, once) << "periodic " << periodic;
      EXPECT_EQ(lane, once) << "periodic " << periodic;
      EXPECT_EQ(group, once) << "periodic " << periodic;
    }
  }
}

/// An empty group visits nothing.
TEST(Grid, EmptyGroupVisitsNoCell) {
  const std::vector<Vec3> none;
  int calls = 0;
  forEachGroupRun(CpuGroup{none}, derive(Params{}), [&](std::uint32_t, std::uint32_t) { ++calls; });
  EXPECT_EQ(calls, 0);
}

/// groupsRun, the one test of whether boid groups run that the simulation and the reports share:
/// counting and fast on CUDA (GridWalk::Rows), a radius > 0, an open cube, and a grid that the
/// octant walk does not take (octantLanes: sparse coarse grids).
TEST(AutoTuning, GroupsRunWhereTheRowWalkMeetsAnOpenDenseCube) {
  const MethodInfo rows{"rows", Backend::Cuda, "", GridWalk::Rows}, cpuRows{"cpu", Backend::Cpu, "", GridWalk::Rows},
      cells{"cells", Backend::Cuda, "", GridWalk::Cells};
  Params classic;
  Tuning t;
  t.cellWidth = 0.33f;
  t.xSplit = 8;
  t.groupRadius = kAutoGroupRadius;
  EXPECT_TRUE(groupsRun(rows, 5000000, classic, t));
  EXPECT_FALSE(groupsRun(cpuRows, 5000000, classic, t));
  EXPECT_FALSE(groupsRun(cells, 5000000, classic, t));
  Params periodic;
  periodic.periodic = true;
  EXPECT_FALSE(groupsRun(rows, 5000000, periodic, t));
  Tuning none = t;
  none.groupRadius = 0;
  EXPECT_FALSE(groupsRun(rows, 5000000, classic, none));
  // 10M boids at constant density on cells of 2.25: the octant walk, whose steps form no groups.
  Params sparse;
  sparse.scale = 1260;
  Tuning coarse = t;
  coarse.cellWidth = 2.25f;
  coarse.xSplit = 2;
  coarse.sortEvery = 4;
  EXPECT_FALSE(groupsRun(rows, 10000000, sparse, coarse));
  // The same cells at scale 100: 17^3 cubes, fewer than the boids, so not the octant walk.
  EXPECT_TRUE(groupsRun(rows, 10000000, classic, coarse));
  // Cells of 2.2: twice the reach when sorting every step, not with the skin of 3 more steps.
  Tuning wide = coarse;
  wide.cellWidth = 2.2f;
  wide.sortEvery = 1;
  EXPECT_FALSE(groupsRun(rows, 10000000, sparse, wide));
  wide.sortEvery = 4;
  EXPECT_TRUE(groupsRun(rows, 10000000, sparse, wide));
  EXPECT_TRUE(formsGroups(rows));
  EXPECT_FALSE(formsGroups(cpuRows));
  EXPECT_FALSE(formsGroups(cells));
}

/// autoTuning's picks at the densities of the H200 sweeps (bench/RESULTS.md, "Automatic cell width
/// and block size", "Automatic sort interval" and "Cells split along x"): 100K, 500K, 1M and 5M
/// boids at scale 100 (~6.5, 33, 65 and 327 expected neighbours), 5K at scale 100 and 100K-10M at
/// constant density (~0.33; the sort interval and the width that follows it, on both sides of a
/// million boids), the skin of boids faster than the classic ones, and the x splits.
TEST(AutoTuning, PicksTheMeasuredBestPerDensity) {
  Params classic;
  Params sparse;
  sparse.scale = 1260;
  EXPECT_NEAR(expectedNeighbours(1000000, classic), 65.45, 0.01);
  EXPECT_NEAR(expectedNeighbours(10000000, sparse), 0.3272, 0.001);
  EXPECT_EQ(expectedNeighbours(1, classic), 0.0);
  Params tiny;  // a cube smaller than the neighbourhood ball: every other boid, no more
  tiny.scale = 0.5f;
  EXPECT_EQ(expectedNeighbours(200, tiny), 199.0);
  const MethodInfo rows{"rows", Backend::Cuda, "", GridWalk::Rows}, cells{"cells", Backend::Cuda, "", GridWalk::Cells},
      none{"none", Backend::Cuda, "", GridWalk::None};
  // (cell width, block size, sort interval) picked, sortEvery given or left to auto.
  auto pick = [](const MethodInfo& m, std::size_t n, const Params& p, std::optional<int> sortEvery = {}) {
    const Tuning t = autoTuning(m, n, p, sortEvery);
    return std::make_tuple(t.cellWidth, t.blockSize, t.sortEvery);
  };
  using P = std::tuple<float, int, int>;
  EXPECT_EQ(pick(rows, 10000000, sparse), (P{2.25f, 128, 4}));
  EXPECT_EQ(pick(rows, 1000000, sparse), (P{2.25f, 128, 4}));
  EXPECT_EQ(pick(rows, 999999, sparse), (P{2.f, 128, 4}));
  EXPECT_EQ(pick(rows, 5000, classic), (P{2.f, 128, 4}));  // E 0.33: the default run
  EXPECT_EQ(pick(rows, 100000, classic), (P{1.f, 128, 1}));
  EXPECT_EQ(pick(rows, 500000, classic), (P{0.5f, 512, 1}));
  EXPECT_EQ(pick(rows, 1000000, classic), (P{0.5f, 512, 1}));
  EXPECT_EQ(pick(rows, 5000000, classic), (P{0.33f, 128, 1}));
  // Boid groups from 150 expected neighbours (5M boids at scale 100), with the row walks only.
  EXPECT_EQ(autoTuning(rows, 5000000, classic, {}).groupRadius, kAutoGroupRadius);
  EXPECT_EQ(autoTuning(rows, 2300000, classic, {}).groupRadius, kAutoGroupRadius);  // E 150.5
  EXPECT_EQ(autoTuning(rows, 2290000, classic, {}).groupRadius, 0.f);               // E 149.9
  EXPECT_EQ(autoTuning(rows, 1000000, classic, {}).groupRadius, 0.f);
  EXPECT_EQ(autoTuning(rows, 10000000, sparse, {}).groupRadius, 0.f);
  EXPECT_EQ(autoTuning(cells, 5000000, classic, {}).groupRadius, 0.f);
  Params periodic;
  periodic.periodic = true;
  EXPECT_EQ(autoTuning(rows, 5000000, periodic, {}).groupRadius, 0.f);  // groups run on open cubes only
  EXPECT_EQ(pick(cells, 10000000, sparse), (P{2.f, 128, 1}));
  EXPECT_EQ(pick(cells, 100000, classic), (P{1.f, 128, 1}));
  EXPECT_EQ(pick(cells, 5000000, classic), (P{1.f, 128, 1}));
  EXPECT_EQ(pick(none, 5000000, classic), (P{2.f, 128, 1}));
  // A given sort interval is kept, and the sparse cell width follows it.
  EXPECT_EQ(pick(rows, 10000000, sparse, 1), (P{2.f, 128, 1}));
  EXPECT_EQ(pick(rows, 10000000, sparse, 2), (P{2.1f, 128, 2}));
  EXPECT_EQ(pick(rows, 10000000, sparse, 3), (P{2.2f, 128, 3}));
  EXPECT_EQ(pick(rows, 10000000, sparse, 8), (P{2.25f, 128, 8}));
  EXPECT_EQ(pick(rows, 100000, sparse, 2), (P{2.1f, 128, 2}));
  EXPECT_EQ(pick(rows, 100000, sparse, 4), (P{2.f, 128, 4}));
  EXPECT_EQ(pick(rows, 1000000, classic, 2), (P{0.5f, 512, 2}));
  EXPECT_EQ(pick(cells, 10000000, sparse, 4), (P{2.f, 128, 4}));
  // Faster boids: 3 steps' skin above 15 % of the rule distance sorts every step; a given interval
  // widens the cells by twice its skin (rounded up to 0.05).
  Params fast = sparse;
  fast.maxSpeed = 5;
  fast.dt = 1;  // skin 5 per step, the rule distance
  EXPECT_EQ(pick(rows, 10000000, fast), (P{2.f, 128, 1}));
  EXPECT_EQ(pick(rows, 10000000, fast, 2), (P{4.f, 128, 2}));
  Params edge = sparse;
  edge.dt = 0.24f;  // 3 steps: 14.4 % of 5
  EXPECT_EQ(pick(rows, 10000000, edge), (P{2.3f, 128, 4}));
  edge.dt = 0.26f;  // 15.6 %
  EXPECT_EQ(pick(rows, 10000000, edge), (P{2.f, 128, 1}));
  // Out of range: no width from outside the table; validate refuses the interval later.
  EXPECT_EQ(pick(rows, 10000000, sparse, 0), (P{2.f, 128, 0}));
  EXPECT_EQ(pick(rows, 10000000, sparse, 65), (P{2.25f, 128, 65}));
  // Just below and above each threshold (E 2, 11, 20, 150) for 100,000 boids.
  auto at = [](double e) {
    Params p;
    p.scale = float(std::cbrt(99999.0 * 4.0 / 3.0 * M_PI * 125.0 / (8.0 * e)));
    return p;
  };
  EXPECT_EQ(pick(rows, 100000, at(1.98)), (P{2.f, 128, 4}));
  EXPECT_EQ(pick(rows, 100000, at(2.02)), (P{1.f, 128, 1}));
  EXPECT_EQ(pick(rows, 100000, at(10.9)), (P{1.f, 128, 1}));
  EXPECT_EQ(pick(rows, 100000, at(11.1)), (P{1.f, 512, 1}));
  EXPECT_EQ(pick(rows, 100000, at(19.8)), (P{1.f, 512, 1}));
  EXPECT_EQ(pick(rows, 100000, at(20.2)), (P{0.5f, 512, 1}));
  EXPECT_EQ(pick(rows, 100000, at(148.5)), (P{0.5f, 512, 1}));
  EXPECT_EQ(pick(rows, 100000, at(151.5)), (P{0.33f, 128, 1}));
  EXPECT_EQ(pick(cells, 100000, at(1.98)), (P{2.f, 128, 1}));
  EXPECT_EQ(pick(cells, 100000, at(2.02)), (P{1.f, 128, 1}));
  // Cells split along x: 4 from E 5 (100K at scale 100: E 6.5); from E 150 4 on an open cube sorted
  // every step (where boid groups run) and 8 on a periodic one (round 26) or with a given sort
  // interval above 1 (round 27); 1 below E 5, but 2
  // below E 2 from a million boids where the octant walk runs (octantLanes: 1M-10M at scale 1260,
  // width 2.25, K 4; not sorting every step, at width 2); 1 for the other walks.
  auto split = [](const MethodInfo& m, std::size_t n, const Params& p) { return autoTuning(m, n, p).xSplit; };
  EXPECT_EQ(split(rows, 5000, classic), 1);
  EXPECT_EQ(split(rows, 10000000, sparse), 2);
  EXPECT_EQ(autoTuning(rows, 10000000, sparse, 1).xSplit, 1);  // width 2: not twice the reach
  EXPECT_EQ(split(rows, 1000000, sparse), 2);
  EXPECT_EQ(autoTuning(rows, 999999, sparse, 2).xSplit, 1);  // width 2.1, octant walk, below a million
  EXPECT_EQ(split(rows, 500000, sparse), 1);                 // width 2 below a million boids
  EXPECT_EQ(split(cells, 10000000, sparse), 1);
  Params crowded;  // 10M at scale 1000: 177^3 = 5.5 M cubes of width 2.25, fewer than the boids
  crowded.scale = 1000;
  EXPECT_EQ(split(rows, 10000000, crowded), 1);
  Params far;  // 1M at scale 8000: the automatic width's grid (1422^3) is too large; no error here
  far.scale = 8000;
  EXPECT_EQ(split(rows, 1000000, far), 1);
  EXPECT_EQ(split(rows, 100000, classic), 4);
  EXPECT_EQ(split(rows, 1000000, classic), 4);
  EXPECT_EQ(split(rows, 5000000, classic), 4);
  EXPECT_EQ(split(rows, 5000000, periodic), 8);
  EXPECT_EQ(autoTuning(rows, 5000000, classic, 1).xSplit, 4);  // a given interval of 1: groups every step
  EXPECT_EQ(autoTuning(rows, 5000000, classic, 2).xSplit, 8);  // groups one step in 2 (round 27)
  EXPECT_EQ(autoTuning(rows, 5000000, classic, 4).xSplit, 8);
  EXPECT_EQ(autoTuning(rows, 1000000, classic, 2).xSplit, 4);  // below E 150 the interval does not matter
  EXPECT_EQ(split(rows, 100000, at(4.95)), 1);
  EXPECT_EQ(split(rows, 100000, at(5.05)), 4);
  EXPECT_EQ(split(rows, 100000, at(148.5)), 4);
  EXPECT_EQ(split(rows, 100000, at(151.5)), 4);
  EXPECT_EQ(split(cells, 5000000, classic), 1);
  EXPECT_EQ(split(none, 5000000, classic), 1);
  // Halved until the grid fits: 4e8 boids on a periodic cube at scale 540 (E 166, width 0.33: 654^3
  // cells) take 4, since 8 would make 2.2e9 cells, which derive() refuses.
  Params huge;
  huge.scale = 540;
  huge.periodic = true;
  const Tuning big = autoTuning(rows, 400000000, huge);
  EXPECT_EQ(big.cellWidth, 0.33f);
  EXPECT_EQ(big.xSplit, 4);
  EXPECT_EQ(derive(huge, big).xResolution, 654 * 4);
  Tuning eight = big;
  eight.xSplit = 8;
  EXPECT_NE(inputErrorOf([&] { derive(huge, eight); }).find("--x-split 8"), std::string::npos);
  // An open cube starts at 4 and halves too: 8e8 boids at scale 680 (E 166, 824^3 cells of width
  // 0.33; 4 would make 2.2e9) take 2; at scale 540 (above) an open cube keeps 4, with its groups.
  Params wide;
  wide.scale = 680;
  EXPECT_EQ(autoTuning(rows, 800000000, wide).xSplit, 2);
  Params open540;
  open540.scale = 540;
  const Tuning open = autoTuning(rows, 400000000, open540);
  EXPECT_EQ(open.xSplit, 4);
  EXPECT_EQ(open.groupRadius, kAutoGroupRadius);
  // Widened until the grid fits, and to at most 256 cells per boid (at least 16^3): 50 boids at scale
  // 6500 were refused (1300^3 cells of width 2), and at 6400 took 6 minutes a step on 1280^3 cells
  // (found by a review).
  Params vast;
  vast.scale = 6500;
  for (const MethodInfo* m : {&rows, &cells}) {
    const Tuning t = autoTuning(*m, 50, vast);
    const Derived d = derive(vast, t);
    EXPECT_GT(t.cellWidth, 2.f) << m->name;
    EXPECT_EQ(d.resolution, 23) << m->name;  // 23^3 = 12167 <= 256 x 50 < 24^3: the finest that fits
    EXPECT_EQ(d.xResolution, 23) << m->name;
    const Derived million = derive(vast, autoTuning(*m, 1000000, vast));
    EXPECT_LE(double(million.resolution) * million.resolution * million.xResolution, 2147483647.0) << m->name;
  }
  EXPECT_EQ(autoTuning(rows, 5000, classic).cellWidth, 2.f);  // 8000 cells for 5000 boids: kept
  // On the CPU (serial clear and scan of every cell) half a cell per boid, at least 64: 200K boids
  // at scale 1260 ran 13.3 steps/s on width 2's 252^3 cells, 42-59 on ~0.5 cells per boid (a new
  // user's trial); 20K at scale 100 keep width 2 (20^3 = 8000 cells), the fastest measured there.
  const MethodInfo cpuCells{"cpu-cells", Backend::Cpu, "", GridWalk::Cells};
  const Derived cpuSparse = derive(sparse, autoTuning(cpuCells, 200000, sparse));
  EXPECT_EQ(cpuSparse.resolution, 46);  // 46^3 = 97336 <= 100000 < 47^3
  EXPECT_EQ(autoTuning(cpuCells, 20000, classic).cellWidth, 2.f);
  EXPECT_EQ(derive(vast, autoTuning(cpuCells, 50, vast)).resolution, 4);  // 64 cells at least
  // The staging ratio: 0 for the walk over rows from E 5 (where the cells are split), else the
  // default; the rest of Tuning keeps its defaults.
  EXPECT_EQ(autoTuning(rows, 1000000, classic).stagingRatio, 0.f);
  EXPECT_EQ(autoTuning(rows, 100000, at(5.05)).stagingRatio, 0.f);
  EXPECT_EQ(autoTuning(rows, 100000, at(4.95)).stagingRatio, Tuning{}.stagingRatio);
  EXPECT_EQ(autoTuning(rows, 10000000, sparse).stagingRatio, Tuning{}.stagingRatio);
  EXPECT_EQ(autoTuning(cells, 1000000, classic).stagingRatio, Tuning{}.stagingRatio);
  EXPECT_EQ(autoTuning(rows, 1000000, classic).thrustGather, false);
  EXPECT_EQ(autoTuning(rows, 1000000, classic).cudaGraphs, true);
}

/// The registry says how each method of this build walks the grid and which Tuning fields it
/// takes (autoTuning and bench boids go by these).
TEST(AutoTuning, EveryMethodSaysHowItWalksTheGrid) {
  struct Expected {
    GridWalk walk;
    bool stagingRatio, sortEvery;
  };
  const std::map<std::string, Expected> expected{
      {"cpu-naive", {GridWalk::None, false, false}},      {"cpu-grid", {GridWalk::Cells, false, false}},
      {"naive", {GridWalk::None, false, false}},          {"grid", {GridWalk::Cells, false, false}},
      {"shared", {GridWalk::Cells, false, false}},        {"coherent-zip", {GridWalk::Cells, true, false}},
      {"coherent-gather", {GridWalk::Cells, true, false}}, {"counting", {GridWalk::Rows, true, true}},
      {"fast", {GridWalk::Rows, true, true}}};
  for (const MethodInfo& m : availableMethods()) {
    ASSERT_EQ(expected.count(m.name), 1u) << m.name;
    const Expected& e = expected.at(m.name);
    EXPECT_EQ(m.walk, e.walk) << m.name;
    EXPECT_EQ(m.takesStagingRatio, e.stagingRatio) << m.name;
    EXPECT_EQ(m.takesSortEvery, e.sortEvery) << m.name;
  }
}

/// Methods without a grid (naive, cpu-naive, the reference) check no grid: a scene whose grid at
/// the default width would pass 2^31 cells ran nowhere, and its error named --cell-width, which
/// cpu-naive refuses (found by a review).
TEST(Derive, MethodsWithoutAGridCheckNoGrid) {
  Params vast;
  vast.scale = 7000;
  EXPECT_NE(inputErrorOf([&] { derive(vast, Tuning{}); }).find("--cell-width 2: the grid would have 1400^3 cells"),
            std::string::npos);
  EXPECT_EQ(inputErrorOf([&] { derive(vast, Tuning{}, false); }), "(no InputError)");
  EXPECT_EQ(derive(vast, Tuning{}, false).resolution, 1);
  const State start = randomState(20, vast, 3);
  EXPECT_EQ(stepReference(start, vast).size(), 20u);
  auto naive = makeSimulation("cpu-naive", vast, Tuning{});
  naive->load(start);
  naive->step(1);
  EXPECT_EQ(naive->state().pos[7].x, stepReference(start, vast).pos[7].x);
  EXPECT_NE(inputErrorOf([&] { makeSimulation("cpu-grid", vast, Tuning{}); }).find("--cell-width 2"), std::string::npos);
}

/// The host memory a method holds per boid beside the caller's state (for the up-front checks):
/// each array of CpuGrid::step and CpuSimulation, and GpuSimulation's float4 staging.
TEST(HostBytesPerBoid, CountsEachMethodsArrays) {
  EXPECT_EQ(hostBytesPerBoid(findMethod("cpu-naive")), 48u);  // its state, the next step's
  EXPECT_EQ(hostBytesPerBoid(findMethod("cpu-grid")), 56u);   // and each boid's cell and the order
  const MethodInfo cuda{"rows", Backend::Cuda, "", GridWalk::Rows};
  EXPECT_EQ(hostBytesPerBoid(cuda), 56u);  // float4 positions and velocities, and the State returned
}

TEST(Validation, EveryBadOptionNamesItsFlag) {
  auto withParam = [](auto set) {
    Params p;
    set(p);
    return inputErrorOf([&] { validate(p); });
  };
  EXPECT_NE(withParam([](Params& p) { p.dt = 0; }).find("--dt"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.dt = -1; }).find("--dt"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.scale = NAN; }).find("--scale"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.rule1Distance = 0; }).find("--rule1-distance"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.rule2Distance = -3; }).find("--rule2-distance"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.rule3Distance = INFINITY; }).find("--rule3-distance"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.rule2Scale = -0.1f; }).find("--rule2-scale"), std::string::npos);
  EXPECT_NE(withParam([](Params& p) { p.maxSpeed = 0; }).find("--max-speed"), std::string::npos);
  // Distances and speeds whose squares underflow are refused (a scene scaled by 2^-80 found no
  // neighbour: a tester's trial); 2^-50 itself is allowed.
  EXPECT_EQ(withParam([](Params& p) { p.rule2Distance = 3e-30f; }),
            "--rule2-distance 3e-30: expected at least 2^-50 (8.881784e-16), so that its square and those it is "
            "compared with stay normal floats (smaller ones underflow, and boids stop seeing their neighbours)");
  EXPECT_NE(withParam([](Params& p) { p.maxSpeed = 1e-30f; }).find("(smaller ones underflow, and the speed clamp lets"),
            std::string::npos);
  EXPECT_EQ(withParam([](Params& p) { p.rule1Distance = p.rule3Distance = p.maxSpeed = float(kMinLength); }),
            "(no InputError)");
  auto withTuning = [](auto set) {
    Tuning t;
    set(t);
    return inputErrorOf([&] { validate(t); });
  };
  EXPECT_NE(withTuning([](Tuning& t) { t.cellWidth = 0; }).find("--cell-width"), std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.blockSize = 100; }).find("--block-size"), std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.blockSize = 2048; }).find("--block-size"), std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.blockSize = 0; }).find("--block-size"), std::string::npos);
  EXPECT_EQ(withTuning([](Tuning& t) { t.blockSize = 1024; }), "(no InputError)");
  EXPECT_NE(withTuning([](Tuning& t) { t.stagingRatio = -1; }).find("--staging-ratio: expected a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.stagingRatio = NAN; }).find("--staging-ratio"), std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.stagingRatio = INFINITY; }).find("--staging-ratio"), std::string::npos);
  EXPECT_EQ(withTuning([](Tuning& t) { t.stagingRatio = 0; }), "(no InputError)");
  EXPECT_EQ(withTuning([](Tuning& t) { t.stagingRatio = 1e30f; }), "(no InputError)");
  EXPECT_NE(withTuning([](Tuning& t) { t.sortEvery = 0; }).find("--sort-every: expected a number of steps in [1, 64], got 0"),
            std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.sortEvery = 65; }).find("--sort-every"), std::string::npos);
  EXPECT_EQ(withTuning([](Tuning& t) { t.sortEvery = 64; }), "(no InputError)");
  // The group radius has no flag: its error names the field.
  EXPECT_NE(withTuning([](Tuning& t) { t.groupRadius = -0.1f; }).find("Tuning::groupRadius: expected a finite number >= 0"),
            std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.groupRadius = NAN; }).find("Tuning::groupRadius"), std::string::npos);
  EXPECT_EQ(withTuning([](Tuning& t) { t.groupRadius = 0; }), "(no InputError)");
  // Another command's names (bench boids' list flags) replace the defaults, field by field.
  TuningFlags listFlags;
  listFlags.cellWidth = "--cell-widths 0";
  listFlags.xSplit = "--x-splits 65";
  Tuning badWidth;
  badWidth.cellWidth = 0;
  EXPECT_EQ(inputErrorOf([&] { validate(badWidth, listFlags); }), "--cell-widths 0: expected a finite number > 0, got 0");
  Tuning badSplit;
  badSplit.xSplit = 65;
  EXPECT_EQ(inputErrorOf([&] { validate(badSplit, listFlags); }),
            "--x-splits 65: expected a number of cells along x per cell width in [1, 64], got 65");
  Tuning badBlock;
  badBlock.blockSize = 48;
  EXPECT_EQ(inputErrorOf([&] { validate(badBlock, listFlags); }), "--block-size: expected a multiple of 32 in [32, 1024], got 48");
  EXPECT_EQ(Tuning{}.groupRadius, 0.f);
  EXPECT_EQ(Tuning{}.sortEvery, 1);
  EXPECT_EQ(Tuning{}.stagingRatio, 1.5f);
  Tuning staged;
  staged.stagingRatio = 1.5f;
  EXPECT_EQ(derive(Params{}, staged).stagingRatio, 1.5f);
  Tuning tiny;
  tiny.cellWidth = 0.001f;
  EXPECT_NE(inputErrorOf([&] { derive(Params{}, tiny); }).find("--cell-width"), std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.xSplit = 0; }).find("--x-split: expected a number of cells along x per "
                                                             "cell width in [1, 64], got 0"),
            std::string::npos);
  EXPECT_NE(withTuning([](Tuning& t) { t.xSplit = 65; }).find("--x-split"), std::string::npos);
  EXPECT_EQ(withTuning([](Tuning& t) { t.xSplit = 64; }), "(no InputError)");
  Tuning split;  // 1000^3 cells fit, 64 times as many do not
  split.cellWidth = 0.04f;
  EXPECT_EQ(inputErrorOf([&] { derive(Params{}, split); }), "(no InputError)");
  split.xSplit = 64;
  const std::string tooMany = inputErrorOf([&] { derive(Params{}, split); });
  EXPECT_NE(tooMany.find("--x-split 64 with --cell-width 0.04: the grid would have 64000 x 1000 x 1000 cells"),
            std::string::npos)
      << tooMany;
  EXPECT_NE(inputErrorOf([] { makeSimulation("no-such-method", Params{}); }).find("cpu-naive"), std::string::npos);
}

TEST(Validation, StatesOutsideTheCubeAreRefused) {
  Params p;
  p.scale = 10;
  State s = randomState(5, p, 1);
  EXPECT_EQ(inputErrorOf([&] { checkFits(s, p, "f.csv"); }), "(no InputError)");
  s.pos[3].y = 10.5f;
  const std::string e = inputErrorOf([&] { checkFits(s, p, "f.csv"); });
  EXPECT_NE(e.find("f.csv: boid 4 of 5 at ("), std::string::npos) << e;
  EXPECT_NE(e.find("--scale"), std::string::npos) << e;
  // With the lines readCsv gave (blank lines in the file), the error names the boid's own line.
  const std::vector<std::size_t> lines{2, 4, 5, 9, 12};
  EXPECT_NE(inputErrorOf([&] { checkFits(s, p, "f.csv", &lines); }).find("f.csv:9: boid 4 of 5 at ("), std::string::npos);
  EXPECT_NE(inputErrorOf([&] { checkFits(State{}, p, "x"); }).find("no boids"), std::string::npos);
  // A coordinate just past the face is said as it reads back, not rounded onto the face (it said
  // "at (100, 2, 3) is outside the cube [-100, 100]^3"; a new user's trial).
  State edge = randomState(1, p, 1);
  edge.pos[0] = {10.00001f, 2.f, 3.f};
  EXPECT_NE(inputErrorOf([&] { checkFits(edge, p, "e.csv"); })
                .find("at (10.00001, 2, 3) is outside the cube [-10, 10]^3"),
            std::string::npos);
  auto sim = makeSimulation("cpu-naive", p);
  EXPECT_THROW(sim->load(s), InputError);
}

TEST(Csv, RoundTripIsExact) {
  Params p;
  const State s = randomState(257, p, 11);
  const std::string path = tempPath("roundtrip.csv");
  writeCsv(path, s);
  const State r = readCsv(path);
  ASSERT_EQ(r.size(), s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    EXPECT_EQ(r.pos[i].x, s.pos[i].x);
    EXPECT_EQ(r.pos[i].y, s.pos[i].y);
    EXPECT_EQ(r.pos[i].z, s.pos[i].z);
    EXPECT_EQ(r.vel[i].x, s.vel[i].x);
    EXPECT_EQ(r.vel[i].y, s.vel[i].y);
    EXPECT_EQ(r.vel[i].z, s.vel[i].z);
  }
  std::remove(path.c_str());
}

TEST(Csv, MalformedFilesNameTheLineAndWhatWasExpected) {
  const std::string path = tempPath("bad.csv");
  auto errorFor = [&](const std::string& text) {
    writeText(path, text);
    return inputErrorOf([&] { readCsv(path); });
  };
  // Lines counted with the blank ones, and each boid's line handed back for checkFits.
  writeText(path, "x,y,z,vx,vy,vz\n\n1,2,3,0,0,0\n\n200,0,0,0,0,0\n");
  std::vector<std::size_t> lines;
  EXPECT_EQ(readCsv(path, &lines).size(), 2u);
  EXPECT_EQ(lines, (std::vector<std::size_t>{3, 5}));
  EXPECT_NE(errorFor("x,y,z,vx,vy,vz\n1e39,0,0,0,0,0\n").find(":2: field 1 '1e39' is out of the range of a float"),
            std::string::npos);
  EXPECT_NE(errorFor("x,y,z,vx,vy,vz\n1e400,0,0,0,0,0\n").find("out of the range of a float"), std::string::npos);
  // A huge field is quoted shortened (a field of 20,000,000 digits made a 20 MB message; a trial).
  const std::string huge = errorFor("x,y,z,vx,vy,vz\n" + std::string(100000, '1') + ",0,0,0,0,0\n");
  EXPECT_NE(huge.find("... (100000 bytes)' is out of the range of a float"), std::string::npos) << huge.substr(0, 300);
  EXPECT_LT(huge.size(), 400u);
  // A float subnormal, as writeCsv writes one, reads back (std::stof refused it; found by a new
  // user's trial), and so do a byte order mark and an upper-case header (as spreadsheets save).
  writeText(path, "\xEF\xBB\xBFX,Y,Z,VX,VY,VZ\n4.00000647e-40,0,0,0,0,0\n");
  const State tiny = readCsv(path);
  ASSERT_EQ(tiny.size(), 1u);
  EXPECT_EQ(tiny.pos[0].x, 4.00000647e-40f);
  EXPECT_GT(tiny.pos[0].x, 0.f);
  const std::string folder = tempPath("a-folder.csv");
  std::filesystem::create_directories(folder);
  EXPECT_EQ(inputErrorOf([&] { readCsv(folder); }), "--in " + folder + ": it is a folder; expected a CSV file");
  EXPECT_EQ(inputErrorOf([&] { readCsv(tempPath("missing.csv")); }),
            "--in " + tempPath("missing.csv") + ": cannot open for reading: No such file or directory");
  EXPECT_NE(errorFor("").find("header"), std::string::npos);
  EXPECT_NE(errorFor("a,b,c\n1,2,3\n").find(":1: expected the header"), std::string::npos);
  EXPECT_NE(errorFor("x,y,z,vx,vy,vz\n").find("no boids"), std::string::npos);
  std::string e = errorFor("x,y,z,vx,vy,vz\n1,2,3,4,5,6\n1,2,3,4,5\n");
  EXPECT_NE(e.find(":3: expected 6 comma-separated numbers"), std::string::npos) << e;
  e = errorFor("x,y,z,vx,vy,vz\n1,2,3,4,5,6,7\n");
  EXPECT_NE(e.find(":2: expected 6"), std::string::npos) << e;
  e = errorFor("x,y,z,vx,vy,vz\n\n1,2,abc,4,5,6\n");
  EXPECT_NE(e.find(":3: field 3 'abc' is not a number"), std::string::npos) << e;
  EXPECT_EQ(e.rfind("--in ", 0), 0u) << e;  // names the flag, as the open and range errors do
  e = errorFor("x,y,z,vx,vy,vz\n1,2,0x10,4,5,6\n");  // strtod read it as 16
  EXPECT_NE(e.find(":2: field 3 '0x10' is not a decimal number"), std::string::npos) << e;
  e = errorFor("x,y,z,vx,vy,vz\n1,2,3x,4,5,6\n");
  EXPECT_NE(e.find("field 3"), std::string::npos) << e;
  e = errorFor("x,y,z,vx,vy,vz\n1,2,3,nan,5,6\n");
  EXPECT_NE(e.find("not finite"), std::string::npos) << e;
  EXPECT_NE(inputErrorOf([] { readCsv("/nonexistent/dir/boids.csv"); }).find("cannot open"), std::string::npos);
  writeText(path, "x, y, z, vx, vy, vz\r\n1, 2, 3, 0.5, 0, 0\r\n");  // spaces and CRLF are accepted
  const State ok = readCsv(path);
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok.pos[0].z, 3.f);
  EXPECT_EQ(ok.vel[0].x, 0.5f);
  // Classic Mac line ends (CR alone): read line by line, and errors name the right line (the whole
  // file was one line before: its header was refused).
  writeText(path, "x,y,z,vx,vy,vz\r1,2,3,0.5,0,0\r\r-1,-2,-3,0,0,0.25\r");
  const State mac = readCsv(path, &lines);
  ASSERT_EQ(mac.size(), 2u);
  EXPECT_EQ(mac.pos[1].x, -1.f);
  EXPECT_EQ(mac.vel[1].z, 0.25f);
  EXPECT_EQ(lines, (std::vector<std::size_t>{2, 4}));
  e = errorFor("x,y,z,vx,vy,vz\r1,2,3,4,5,6\r1,2,3,4,5\r");
  EXPECT_NE(e.find(":3: expected 6 comma-separated numbers"), std::string::npos) << e;
  std::remove(path.c_str());
}

TEST(RandomState, IsSeededInsideTheCubeAndBelowMaxSpeed) {
  Params p;
  p.scale = 3;
  p.maxSpeed = 2;
  const State a = randomState(1000, p, 4), b = randomState(1000, p, 4), c = randomState(1000, p, 5);
  EXPECT_EQ(a.pos[999].x, b.pos[999].x);
  EXPECT_NE(a.pos[999].x, c.pos[999].x);
  EXPECT_NO_THROW(checkFits(a, p, "random"));
  for (const Vec3& v : a.vel) EXPECT_LE(v.x * v.x + v.y * v.y + v.z * v.z, 4.f * (1 + 1e-6f));
}

}  // namespace flocklife::boids
