// Every method of this build against the serial naive reference (one step from the same state),
// and invariants over 1,000 steps. GPU methods skip without a CUDA device.
//
// Tolerance: per boid, |v - v_ref| <= 1e-4 * max(|v_ref|, 1e-2 * maxSpeed). Methods visit the
// neighbours in different orders, so the float sums differ in their last bits; neighbourhood
// membership itself is decided by bit-identical arithmetic (boid_math.hpp) and must agree.
// Positions: per boid, within positionTolerance of the reference (test::maxPositionError, across
// the faces on periodic cubes): what the velocity bound allows after one step of dt, plus the
// rounding of p + v dt and of the wrap (at scale 100 with the classic speeds: 1.3e-4 world units,
// 0.06 % of a full step).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <mutex>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include "boids/boids.hpp"
#include "boids/boids_internal.hpp"
#include "gpu_test.hpp"
#include "param_name.hpp"
#include "scenes.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "common/cuda_graph.cuh"
#include "common/linear_texture.cuh"
#endif

namespace flocklife::boids {

namespace {

constexpr double kVelocityTolerance = 1e-4;

/// The position bound that follows from the velocity bound, one step from the same state: the new
/// velocity is within kVelocityTolerance x maxSpeed of the reference's (speeds are clamped to
/// maxSpeed), so the new position p + v dt is within dt times that, plus on each axis at most 4
/// units in the last place of numbers up to 2 x scale: the rounding of the product and sum (with or
/// without a fused multiply-add) and of the wrap into the cube.
double positionTolerance(const Params& p) {
  return double(p.dt) * kVelocityTolerance * p.maxSpeed + std::sqrt(3.0) * 4 * std::ldexp(1.0, std::ilogb(2 * p.scale) - 23);
}

bool isGpu(const std::string& method) {
  for (const auto& m : availableMethods())
    if (m.name == method) return m.backend == Backend::Cuda;
  return false;
}

/// The reference after one step, computed once per scene (the 50,000-boid scenes take seconds).
const State& referenceStep(const test::Scene& sc, bool periodic) {
  static std::map<std::string, State> cache;
  static std::mutex m;
  std::lock_guard<std::mutex> lock(m);
  const std::string key = sc.name + (periodic ? "/periodic" : "/open");
  auto it = cache.find(key);
  if (it == cache.end()) it = cache.emplace(key, stepReference(sc.state, sc.params)).first;
  return it->second;
}

/// The most neighbours any boid of s has within p's largest rule distance (minimum-image offsets
/// when p.periodic), and the first boid that has them: the premise of the scenes whose sums do not
/// depend on the order of the candidates ("pairs", pairCrowd) is at most one.
std::pair<int, std::size_t> mostNeighbours(const State& s, const Params& p) {
  const float r = std::max({p.rule1Distance, p.rule2Distance, p.rule3Distance});
  auto offset = [&](float q, float x) {
    float d = q - x;
    if (p.periodic && d > p.scale) d -= 2 * p.scale;
    if (p.periodic && d < -p.scale) d += 2 * p.scale;
    return d;
  };
  std::pair<int, std::size_t> most{0, 0};
  for (std::size_t i = 0; i < s.size(); ++i) {
    int neighbours = 0;
    for (std::size_t j = 0; j < s.size(); ++j) {
      const float dx = offset(s.pos[j].x, s.pos[i].x), dy = offset(s.pos[j].y, s.pos[i].y),
                  dz = offset(s.pos[j].z, s.pos[i].z);
      neighbours += j != i && lengthSq(dx, dy, dz) < r * r;
    }
    if (neighbours > most.first) most = {neighbours, i};
  }
  return most;
}

std::vector<std::string> methodNames() {
  std::vector<std::string> names;
  for (const auto& m : availableMethods()) names.push_back(m.name);
  return names;
}


}  // namespace

class EveryMethod : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (isGpu(GetParam()) && !flocklife::test::haveGpu()) GTEST_SKIP() << "no CUDA device";
    if (const char* slice = std::getenv("FLOCKLIFE_TEST_SLICE")) {
      char rest = 0;
      if (std::sscanf(slice, "%d/%d%c", &sliceIndex_, &sliceCount_, &rest) != 2 || sliceCount_ < 1 ||
          sliceIndex_ < 0 || sliceIndex_ >= sliceCount_)
        FAIL() << "FLOCKLIFE_TEST_SLICE='" << slice << "': expected K/N with 0 <= K < N";
      std::cerr << "FLOCKLIFE_TEST_SLICE=" << slice << ": the sweeps run only cases K, K+N, K+2N, ...\n";
    }
  }

  /// FLOCKLIFE_TEST_SLICE=K/N, for tools too slow to run a whole sweep in one process
  /// (compute-sanitizer's racecheck): the sweeps of checkScenes and
  /// SortingEveryFewStepsMatchesReferenceEveryStep take only the cases whose index modulo N is K, so
  /// that N processes share one test's cases. Unset, every case runs. Returns whether the next case
  /// is this process's.
  bool takeCase() { return sweepCase_++ % sliceCount_ == sliceIndex_; }

  /// One step of `method` from each scene, open and periodic, compared with the reference, with
  /// `tuning` at each of cellWidths (its own cellWidth is replaced). `adjust` may change a scene's
  /// parameters; it must then rename the scene (the reference is kept by name).
  void checkScenes(const std::vector<std::string>& scenes, const std::vector<float>& cellWidths,
                   const Tuning& tuning = {}, const std::function<void(test::Scene&)>& adjust = nullptr) {
    for (const auto& name : scenes)
      for (bool periodic : {false, true}) {
        if (!takeCase()) continue;
        test::Scene sc = test::makeScene(name, periodic);
        if (adjust) adjust(sc);
        const State& ref = referenceStep(sc, periodic);
        // cpu-naive and naive have no grid: one cell width is enough.
        const bool gridless = GetParam() == "cpu-naive" || GetParam() == "naive";
        for (float w : gridless ? std::vector<float>{2.f} : cellWidths) {
          Tuning t = tuning;
          t.cellWidth = w;
          auto sim = makeSimulation(GetParam(), sc.params, t);
          sim->load(sc.state);
          sim->step(1);
          const State got = sim->state();
          ASSERT_EQ(got.size(), ref.size());
          const std::string where = GetParam() + " on " + sc.name + (periodic ? " periodic" : " open") +
                                    ", cell width " + std::to_string(w) + ", block " + std::to_string(t.blockSize) +
                                    ", staging ratio " + std::to_string(t.stagingRatio) + ", x split " +
                                    std::to_string(t.xSplit) +
                                    (t.velocityTexture ? "" : ", velocities as global loads");
          EXPECT_LE(test::maxRelativeVelocityError(got, ref, sc.params.maxSpeed), kVelocityTolerance) << where;
          EXPECT_LE(test::maxPositionError(got, ref, sc.params.scale), positionTolerance(sc.params)) << where;
        }
      }
  }

 private:
  int sliceIndex_ = 0, sliceCount_ = 1, sweepCase_ = 0;
};

TEST_P(EveryMethod, MatchesReferenceOnTinyAndEdgeScenes) {
  checkScenes({"single", "pair", "across", "dense100", "lattice", "sparse-lattice", "sparse-clump"}, {0.5f, 1.f, 2.f});
}

TEST_P(EveryMethod, MatchesReferenceOn5000Boids) {
  checkScenes({"classic5000", "dense5000"}, {0.5f, 1.f, 2.f});
}

TEST_P(EveryMethod, MatchesReferenceOn50000Boids) {
  if (GetParam() == "cpu-naive") GTEST_SKIP() << "the reference itself";
  checkScenes({"classic50000"}, {1.f, 2.f});
}

/// Blocks of 32 and 1,024 threads. At width 2 (and sorting every step, the default: a skin would
/// make the cells narrower than twice the reach) sparse-lattice, sparse-clump and classic5000 have
/// fewer boids than cells, so counting and fast take coarseLaneKernel (octantLanes), whose lane
/// columns fill its 48 KiB of shared memory at 1,024 threads; nothing here checks that it was
/// taken.
TEST_P(EveryMethod, MatchesReferenceWithSmallestAndLargestBlocks) {
  if (!isGpu(GetParam())) GTEST_SKIP() << "block size applies to GPU methods";
  for (int block : {32, 1024}) {
    Tuning t;
    t.blockSize = block;
    checkScenes({"lattice", "dense5000"}, {1.f}, t);
    checkScenes({"sparse-lattice", "sparse-clump", "classic5000"}, {2.f}, t);
  }
}

/// The warp kernel (coherent-zip, coherent-gather, counting, fast) with each path forced: ratio 0
/// walks per thread in every warp, ratio 1000 stages every warp of these scenes. Width 0.25 gives
/// a lane more rows than one chunk of counting's and fast's per-lane walk holds. The other GPU
/// methods ignore the ratio and must match all the same, as must counting and fast where they walk
/// per boid at any ratio (fewer boids than cells at width 2: single, pair, across, sparse-lattice,
/// sparse-clump, classic5000).
TEST_P(EveryMethod, MatchesReferenceWithStagingNeverAndAlways) {
  if (!isGpu(GetParam())) GTEST_SKIP() << "the staging ratio applies to GPU methods";
  for (float ratio : {0.f, 1000.f}) {
    Tuning t;
    t.stagingRatio = ratio;
    checkScenes({"single", "pair", "across", "dense100", "lattice", "sparse-lattice", "sparse-clump", "dense5000"},
                {0.25f, 0.5f, 1.f, 2.f}, t);
    checkScenes({"classic5000"}, {0.25f, 1.f, 2.f}, t);
  }
}

/// Cells narrower along x (Tuning::xSplit 3 and 8): every grid method, per thread and staged
/// (ratios 0 and 1000) and at the default ratio, at widths from 0.25 (a lane's rows span more than
/// one chunk) to 2 (coarse cubes: with a split the warp kernel takes the fine walks, and
/// coarseLaneKernel's octant walk clips its rows in the sparse scenes). Grids reused between
/// sorts with a split: SortingEveryFewStepsMatchesReferenceEveryStep.
TEST_P(EveryMethod, MatchesReferenceWithCellsSplitAlongX) {
  if (GetParam() == "cpu-naive" || GetParam() == "naive") GTEST_SKIP() << "no grid";
  const std::vector<float> ratios = isGpu(GetParam()) ? std::vector<float>{0.f, Tuning{}.stagingRatio, 1000.f}
                                                      : std::vector<float>{Tuning{}.stagingRatio};  // ignored
  for (int split : {3, 8})
    for (float ratio : ratios) {
      Tuning t;
      t.stagingRatio = ratio;
      t.xSplit = split;
      checkScenes({"single", "pair", "across", "dense100", "lattice", "sparse-clump", "dense5000", "classic5000"},
                  {0.25f, 0.5f, 1.f, 2.f}, t);
    }
}

/// counting and fast read the candidates' velocities through a texture (Tuning::velocityTexture,
/// on in every other test); off, they read them as global loads, as they do where the device
/// cannot make the texture (more boids than its largest linear texture). The per-lane walks (ratio
/// 0) on cubes and on cells split along x, and coarseLaneKernel (width 2 on the sparse scenes).
TEST_P(EveryMethod, MatchesReferenceWithVelocitiesAsGlobalLoads) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast use the texture";
  for (int split : {1, 4}) {
    Tuning t;
    t.stagingRatio = 0;
    t.xSplit = split;
    t.velocityTexture = false;
    checkScenes({"single", "pair", "across", "dense100", "lattice", "sparse-lattice", "sparse-clump", "dense5000",
                 "classic5000"},
                {0.25f, 0.5f, 1.f, 2.f}, t);
  }
}

/// A scene for the balanced lanes' tests (MatchesReferenceWithLanesUnbalanced,
/// BalancedLanesEqualUnbalancedBitForBit), in the cube of side 200 (scale 100, the
/// default rules: largest distance 5): pairs of boids 1 unit apart on the 7^3 sites of a lattice 9
/// units apart, the box [-80, -26]^3, and lone boids within 2 units of the centres of half the
/// 12.5-unit cells whose centres lie beyond -7.25 along some axis. Boids of different pairs start
/// at least 7 units apart, lone boids at least 8.5 from each other and 16 from the pairs, also
/// across the faces of the periodic cube, and each closes in by at most 0.8 in 4 steps (maxSpeed x
/// dt = 0.2 per step), so every boid has at most one neighbour in its first 4 steps and its sums
/// do not depend on the order of its candidates. At cell width 2.5 (cells 12.5 wide) there are
/// fewer boids than cells (coarseLaneKernel), and the octant walks of the boids in the box test
/// from 1 to 53 candidates (PairCrowdHasAtMostOneNeighbourFor4StepsAndLongCandidateLoops asserts
/// at least kBalanceFrom for some), those of the lone boids at most 7.
State pairCrowd(const Params& p, bool periodic) {
  std::mt19937 rng(periodic ? 12 : 11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  State s;
  auto add = [&](Vec3 x) {
    s.pos.push_back(x);
    s.vel.push_back({0.5f * u(rng), 0.5f * u(rng), 0.5f * u(rng)});
  };
  for (int z = 0; z < 7; ++z)
    for (int y = 0; y < 7; ++y)
      for (int x = 0; x < 7; ++x) {
        const Vec3 site{-80.f + 9.f * float(x), -80.f + 9.f * float(y), -80.f + 9.f * float(z)};
        Vec3 d{u(rng), u(rng), u(rng)};
        const float k = 1.f / std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z);
        add(site);
        add({site.x + k * d.x, site.y + k * d.y, site.z + k * d.z});
      }
  const float cell = 12.5f;
  const int res = int(2 * p.scale / cell);
  for (int z = 0; z < res; ++z)
    for (int y = 0; y < res; ++y)
      for (int x = 0; x < res; ++x) {
        auto centre = [&](int c) { return -p.scale + (float(c) + 0.5f) * cell; };
        const Vec3 c{centre(x), centre(y), centre(z)};
        if (std::max({c.x, c.y, c.z}) < -7.25f || u(rng) > 0.f) continue;
        add({c.x + 2 * u(rng), c.y + 2 * u(rng), c.z + 2 * u(rng)});
      }
  return s;
}

/// counting and fast on sparse coarse grids exchange boids between the threads of a block by their
/// numbers of candidates (Tuning::balanceLanes, on in every other test); off, each thread keeps its
/// own boid. Both must match the reference: the sparse scenes at widths 2 and 2.5 (coarseLaneKernel),
/// and pairCrowd (on cubes, the blocks with boids in its crowd reorder their lanes), on cubes and
/// on cells split 4 times along x, in blocks of 32, 128 and 1,024 threads (the balanced kernel's shared
/// memory opts in above 48 KiB there).
TEST_P(EveryMethod, MatchesReferenceWithLanesUnbalanced) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast balance lanes";
  for (bool balance : {false, true})
    for (int block : {32, 128, 1024}) {
      Tuning t;
      t.balanceLanes = balance;
      t.blockSize = block;
      checkScenes({"single", "pair", "sparse-lattice", "sparse-clump", "sparse-crossing", "classic5000"}, {2.f, 2.5f},
                  t);
      for (int split : {1, 4}) {  // cubes, and cubes of 4 x cells (runs clipped to the half chord)
        t.xSplit = split;
        checkScenes({"classic5000"}, {2.5f}, t, [](test::Scene& sc) {
          sc.state = pairCrowd(sc.params, sc.params.periodic);
          sc.name = "pair-crowd";
        });
      }
    }
}

/// counting and fast make one velocity texture per ping-pong buffer when they load boids (and
/// again on every load), none with Tuning::velocityTexture off; the other methods none. Without
/// this, a texture path never taken would pass every other test (the values are the same).
TEST_P(EveryMethod, MakesVelocityTexturesWhereTheyApply) {
  if (!isGpu(GetParam())) GTEST_SKIP() << "GPU methods only";
  const bool uses = GetParam() == "counting" || GetParam() == "fast";
  const test::Scene sc = test::makeScene("dense5000", false);
  for (bool on : {true, false}) {
    Tuning t;
    t.velocityTexture = on;
    auto sim = makeSimulation(GetParam(), sc.params, t);
    for (int load = 0; load < 2; ++load) {
      const std::uint64_t before = LinearTexture<float4>::madeOnThisThread();
      sim->load(sc.state);
      EXPECT_EQ(LinearTexture<float4>::madeOnThisThread(), before + (uses && on ? 2 : 0))
          << GetParam() << (on ? "" : ", velocityTexture off") << ", load " << load;
    }
  }
}

/// "offset-pairs" tells an alignment radius of 4 or 6 from the cohesion radius 5: the reference's
/// velocities differ far beyond the tolerance (so MatchesReferenceWithDistinctCohesionAndAlignment
/// Radii fails for a method that adds alignment within the cohesion radius), and every boid has
/// exactly one neighbour within 6.
TEST(Boids, OffsetPairsTellTheAlignmentRadiusFromTheCohesionRadius) {
  const test::Scene sc = test::makeScene("offset-pairs", false);
  const State same = stepReference(sc.state, sc.params);
  for (float r3 : {4.f, 6.f}) {
    Params p = sc.params;
    p.rule3Distance = r3;
    EXPECT_GT(test::maxRelativeVelocityError(stepReference(sc.state, p), same, p.maxSpeed), 100 * kVelocityTolerance)
        << "alignment radius " << r3;
  }
  for (std::size_t i = 0; i < sc.state.size(); ++i) {
    int near = 0;
    for (std::size_t j = 0; j < sc.state.size(); ++j) {
      const Vec3 a = sc.state.pos[i], b = sc.state.pos[j];
      near += j != i && lengthSq(b.x - a.x, b.y - a.y, b.z - a.z) < 36.f;
    }
    EXPECT_EQ(near, 1) << "boid " << i;
  }
}

/// Cohesion and alignment radii that differ (every other scene has the classic 5 / 3 / 5, where the
/// warp kernels add cohesion and alignment with one mask and one count): alignment within 4 and
/// within 6, per thread, staged and at the default ratio, cubes and cells split along x;
/// "offset-pairs" puts a neighbour between the radii in every boid's neighbourhood, and at width 2
/// counting and fast add it in coarseLaneKernel.
TEST_P(EveryMethod, MatchesReferenceWithDistinctCohesionAndAlignmentRadii) {
  const std::vector<float> ratios = isGpu(GetParam()) ? std::vector<float>{0.f, Tuning{}.stagingRatio, 1000.f}
                                                      : std::vector<float>{Tuning{}.stagingRatio};  // ignored
  const bool gridless = GetParam() == "cpu-naive" || GetParam() == "naive";
  for (float r3 : {4.f, 6.f}) {
    auto adjust = [r3](test::Scene& sc) {
      sc.params.rule3Distance = r3;
      sc.name += ", alignment radius " + std::to_string(r3);
    };
    for (float ratio : ratios)
      for (int split : gridless ? std::vector<int>{1} : std::vector<int>{1, 4}) {
        Tuning t;
        t.stagingRatio = ratio;
        t.xSplit = split;
        checkScenes({"dense100", "lattice", "offset-pairs", "dense5000", "classic5000"}, {0.5f, 1.f, 2.f}, t, adjust);
      }
  }
}

/// Boid groups (Tuning::groupRadius; autoTuning's from 150 expected neighbours per boid). On
/// "clumps" groups form from clumps of 11 to 40 boids (a cell of more than 32 within the radius
/// gives a group of 32 and the rest; smaller clumps, and those split across cubes, are left to the
/// per-boid walk, which then runs on a list of slots): group radii 0 (none), automatic and 0.3 of the
/// largest rule distance (wider shells), cubes and cells split along x, the per-lane walk and
/// staging (whose batches check for the own boid on the list), and separation radii of 3 (the
/// classic), 0.3, 0.1 (below a clump's radius, up to 0.15: no candidate is inside that rule's inner
/// bound, groupBounds' -1) and 6 (beyond cohesion's); with the automatic group radius, alignment
/// radii of 4, 6 and 0.1, a cohesion radius of 0.1, and both at 0.1.
TEST_P(EveryMethod, MatchesReferenceWithBoidGroups) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast form groups";
  for (float r2 : {3.f, 0.3f, 0.1f, 6.f}) {
    auto adjust = [r2](test::Scene& sc) {
      sc.params.rule2Distance = r2;
      sc.name += ", separation radius " + std::to_string(r2);
    };
    for (float radius : {0.f, kAutoGroupRadius, 0.3f})
      for (int split : {1, 4, 8})
        for (float ratio : {0.f, 1000.f}) {
          Tuning t;
          t.stagingRatio = ratio;
          t.xSplit = split;
          t.groupRadius = radius;
          SCOPED_TRACE("group radius " + std::to_string(radius));
          checkScenes({"clumps", "dense5000"}, {0.33f, 0.5f, 1.f}, t, adjust);
        }
  }
  // Cohesion and alignment radii (r1, r3) apart: the group kernel without a shared radius (its own
  // bounds, masks and count for alignment); and radii of 0.1, below a clump's radius, so that no
  // candidate is inside that rule's inner bound and every member's own boid is queued for its own
  // test, then taken out of that rule's count (with r1 = r3 = 0.1 in the shared-radius kernel).
  for (const auto& [r1, r3] : std::vector<std::pair<float, float>>{{5.f, 4.f}, {5.f, 6.f}, {5.f, 0.1f},
                                                                   {0.1f, 5.f}, {0.1f, 0.1f}}) {
    auto adjust = [r1 = r1, r3 = r3](test::Scene& sc) {
      sc.params.rule1Distance = r1;
      sc.params.rule3Distance = r3;
      sc.name += ", cohesion radius " + std::to_string(r1) + ", alignment radius " + std::to_string(r3);
    };
    for (int split : {1, 4}) {
      Tuning t;
      t.stagingRatio = 0;
      t.xSplit = split;
      t.groupRadius = kAutoGroupRadius;
      checkScenes({"clumps"}, {0.33f, 0.5f}, t, adjust);
    }
  }
}

/// Later steps with groups: fast's group kernel also writes the next sort's histogram and each
/// boid's rank in its new cell, which only the next step reads. Four steps on "clumps" with groups,
/// then the fifth against the reference's step from that state; sorting every step and every 2
/// steps (groups form only in the steps that sort: the fifth sorts in both), velocities through
/// the texture and as global loads.
TEST_P(EveryMethod, LaterStepsWithBoidGroupsMatchReference) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast form groups";
  const test::Scene sc = test::makeScene("clumps", false);
  for (int every : {1, 2})
    for (bool texture : {true, false}) {
      Tuning t;
      t.cellWidth = 0.5f;
      t.stagingRatio = 0;
      t.xSplit = 4;
      t.sortEvery = every;
      t.velocityTexture = texture;
      t.groupRadius = kAutoGroupRadius;
      auto sim = makeSimulation(GetParam(), sc.params, t);
      sim->load(sc.state);
      sim->step(4);
      const State before = sim->state();
      sim->step(1);
      const State ref = stepReference(before, sc.params);
      const std::string where = GetParam() + ", sort every " + std::to_string(every) +
                                (texture ? "" : ", velocities as global loads");
      EXPECT_LE(test::maxRelativeVelocityError(sim->state(), ref, sc.params.maxSpeed), kVelocityTolerance) << where;
      EXPECT_LE(test::maxPositionError(sim->state(), ref, sc.params.scale), positionTolerance(sc.params)) << where;
    }
}

namespace {
/// A run of `steps` steps of `method` on scene sc at width 0.5, split 4, staging ratio 0 and the
/// given Tuning::groupRadius (0: no groups): the state after them, and the boids in the last
/// step's groups (Simulation::boidsInGroups), which is 0 before the first step and again after
/// load().
struct GroupedRun {
  State state;
  std::size_t inGroups = 0;
};
GroupedRun stepsWithGroupRadius(const std::string& method, const test::Scene& sc, float radius, std::uint64_t steps) {
  Tuning t;
  t.cellWidth = 0.5f;
  t.stagingRatio = 0;
  t.xSplit = 4;
  t.groupRadius = radius;
  auto sim = makeSimulation(method, sc.params, t);
  sim->load(sc.state);
  EXPECT_EQ(sim->boidsInGroups(), 0u) << method << ": no step yet";
  sim->step(steps);
  GroupedRun run{sim->state(), sim->boidsInGroups()};
  sim->load(sc.state);
  EXPECT_EQ(sim->boidsInGroups(), 0u) << method << ": after load()";
  return run;
}
}  // namespace

/// Groups form where their radius allows and only there: on "clumps" (81 % of its 4,310 boids in
/// clumps of 11 to 40 within 0.15 units, at most that in groups: clumps of 33 and 40 leave all
/// but 32, and clumps that a cube's faces cut, or that a cube shares, stay out) more than a fifth
/// of the boids are in groups, none without a group radius and none on the periodic cube
/// (groupsRun). With the reference checks above, which poison the outputs, this shows that the
/// group kernels ran and wrote those boids' steps.
TEST_P(EveryMethod, BoidGroupsFormOnClumpsOnlyWithTheirRadius) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast form groups";
  const test::Scene sc = test::makeScene("clumps", false);
  const GroupedRun grouped = stepsWithGroupRadius(GetParam(), sc, kAutoGroupRadius, 1);
  EXPECT_GT(grouped.inGroups, sc.state.size() / 5) << "of " << sc.state.size() << " boids";
  EXPECT_LE(grouped.inGroups, sc.state.size());
  EXPECT_EQ(stepsWithGroupRadius(GetParam(), sc, 0.f, 1).inGroups, 0u);
  const test::Scene periodic = test::makeScene("clumps", true);
  EXPECT_EQ(stepsWithGroupRadius(GetParam(), periodic, kAutoGroupRadius, 1).inGroups, 0u);
}

/// More groups than groupSumsKernel has warps ("many-clumps": ~12,000 groups against 4,752 warps on
/// the H200: 132 SMs x 9 blocks x 4 warps), so that each warp takes several groups in turn from the
/// kernel's counter, reusing its queue: a warp that stopped after its first group, or carried state from one group to the next,
/// would leave or spoil the boids of the later groups. Too many boids for the naive reference (192,000),
/// so the step with groups is compared with the per-boid walk's step (groups off), which the
/// tests above compare with the reference: within twice the tolerance. Two steps, so that the
/// counter is zeroed again before the second sort; more than half the boids are in the second
/// step's groups (clumps of 16 within 0.15 units, about 7 units apart: groups of at most 16 boids
/// but for rare close clumps), so over 6,000 groups for 4,752 warps: some warps took several.
TEST_P(EveryMethod, ManyGroupsPerWarpMatchTheWalkWithoutGroups) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast form groups";
  const test::Scene sc = test::makeScene("many-clumps", false);
  const GroupedRun grouped = stepsWithGroupRadius(GetParam(), sc, kAutoGroupRadius, 2);
  const GroupedRun alone = stepsWithGroupRadius(GetParam(), sc, 0.f, 2);
  EXPECT_LE(test::maxRelativeVelocityError(grouped.state, alone.state, sc.params.maxSpeed), 2 * kVelocityTolerance);
  EXPECT_LE(test::maxPositionError(grouped.state, alone.state, sc.params.scale), 2e-4 * sc.params.scale);
  EXPECT_GT(grouped.inGroups, sc.state.size() / 2) << "of " << sc.state.size() << " boids";
  EXPECT_EQ(alone.inGroups, 0u);
}

/// Several steps: boids reordered by the coherent methods keep their identity, and the step from
/// the method's own state after 4 steps matches the reference step from that state.
TEST_P(EveryMethod, LaterStepsMatchReferenceFromTheSameState) {
  for (bool periodic : {false, true}) {
    const test::Scene sc = test::makeScene("dense5000", periodic);
    auto sim = makeSimulation(GetParam(), sc.params);
    sim->load(sc.state);
    sim->step(4);
    const State before = sim->state();
    sim->step(1);
    const State got = sim->state();
    const State ref = stepReference(before, sc.params);
    EXPECT_LE(test::maxRelativeVelocityError(got, ref, sc.params.maxSpeed), kVelocityTolerance) << periodic;
    EXPECT_LE(test::maxPositionError(got, ref, sc.params.scale), positionTolerance(sc.params)) << periodic;
  }
}

/// Simulation::stepUntilStopped: with a stop that never answers true it is step(n), bit for bit.
/// On the CPU a stop that answers true abandons the step under way: from its first question the
/// state stays the start, from the first question of the second step the state after one step,
/// and the steps after either are those of an uninterrupted run, bit for bit (5,000 boids, so that
/// the OpenMP threads ask it). GPU methods run whole steps (matching the reference) without asking
/// and return n.
TEST_P(EveryMethod, StepUntilStoppedAbandonsAStepAndGoesOnExactly) {
  const test::Scene sc = test::makeScene("dense5000", false);
  const auto sameBits = [](const State& a, const State& b) {
    return a.size() == b.size() && std::memcmp(a.pos.data(), b.pos.data(), a.size() * sizeof(Vec3)) == 0 &&
           std::memcmp(a.vel.data(), b.vel.data(), a.size() * sizeof(Vec3)) == 0;
  };
  const auto run = [&](std::uint64_t steps) {
    auto sim = makeSimulation(GetParam(), sc.params);
    sim->load(sc.state);
    sim->step(steps);
    return sim->state();
  };
  std::atomic<long> asked{0};
  auto sim = makeSimulation(GetParam(), sc.params);
  sim->load(sc.state);
  if (isGpu(GetParam())) {  // not bit for bit: a cell's boids are ranked by atomics on the GPU
    for (const bool stop : {false, true}) {
      const State before = sim->state();
      EXPECT_EQ(sim->stepUntilStopped(1, [&] { return ++asked, stop; }), 1u);
      const State ref = stepReference(before, sc.params);
      EXPECT_LE(test::maxRelativeVelocityError(sim->state(), ref, sc.params.maxSpeed), kVelocityTolerance) << stop;
      EXPECT_LE(test::maxPositionError(sim->state(), ref, sc.params.scale), positionTolerance(sc.params)) << stop;
    }
    EXPECT_EQ(asked.load(), 0);
    return;
  }
  const State one = run(1), two = run(2);
  EXPECT_EQ(sim->stepUntilStopped(1, [&asked] { return ++asked < 0; }), 1u);  // never true; counts the questions
  EXPECT_TRUE(sameBits(sim->state(), one));
  const long perStep = asked.load();
  ASSERT_GT(perStep, 0);
  for (const long firstTrue : {1L, perStep + 1}) {  // the first question, the second step's first
    SCOPED_TRACE(firstTrue);
    auto stopped = makeSimulation(GetParam(), sc.params);
    stopped->load(sc.state);
    asked = 0;
    const std::uint64_t done = stopped->stepUntilStopped(3, [&] { return ++asked >= firstTrue; });
    EXPECT_EQ(done, firstTrue == 1 ? 0u : 1u);
    EXPECT_TRUE(sameBits(stopped->state(), firstTrue == 1 ? sc.state : one));
    stopped->step(2 - done);
    EXPECT_TRUE(sameBits(stopped->state(), two));
  }
}

/// counting and fast sorting only every 2, 4 or 64 steps (Tuning::sortEvery): every step, the
/// sorting ones and those that walk the last sort's grid with a skin, matches the reference step
/// from the method's own state before it. Boids of up to one unit per step that cross the cube's
/// faces between sorts; cell widths 1, 2.5 (wider than twice the reach one step after a sort: in
/// sparse-crossing, sorting every 2 steps, coarseLaneKernel's octant walk with a skin) and 3, and
/// width 1 in blocks of 1024 threads (the widest skin's shared memory, over 48 KiB), and cells
/// split along x (Tuning::xSplit 4 at width 0.5: fine walks; 3 at width 2.5: fine walks, and in
/// sparse-crossing the octant walk with clipped rows); open and periodic.
/// Then load() in the middle of an interval (after 11 steps; fast has just built the
/// histogram for the next sort) starts over: the next step sorts, and matches the reference.
TEST_P(EveryMethod, SortingEveryFewStepsMatchesReferenceEveryStep) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast take --sort-every";
  for (const std::string name : {"across", "lattice", "sparse-crossing", "sparse-clump", "dense5000"})
    for (bool periodic : {false, true}) {
      test::Scene sc = test::makeScene(name, periodic);
      sc.params.maxSpeed = 2;
      sc.params.dt = 0.5f;
      for (const auto& [w, block, split] : std::vector<std::tuple<float, int, int>>{
               {1.f, 128, 1}, {2.5f, 128, 1}, {3.f, 128, 1}, {1.f, 1024, 1}, {0.5f, 128, 4}, {2.5f, 128, 3}})
        for (int every : {2, 4, kMaxSortEvery}) {
          if (!takeCase()) continue;
          Tuning t{w, block, false, Tuning{}.stagingRatio, every};
          t.xSplit = split;
          auto sim = makeSimulation(GetParam(), sc.params, t);
          sim->load(sc.state);
          for (int step = 0; step < 9; ++step) {
            const State before = sim->state();
            sim->step(1);
            const State got = sim->state();
            const State ref = stepReference(before, sc.params);
            const std::string where = GetParam() + " on " + name + (periodic ? " periodic" : " open") +
                                      ", cell width " + std::to_string(w) + ", block " + std::to_string(block) +
                                      ", x split " + std::to_string(split) + ", sort every " + std::to_string(every) +
                                      ", step " + std::to_string(step);
            ASSERT_LE(test::maxRelativeVelocityError(got, ref, sc.params.maxSpeed), kVelocityTolerance) << where;
            ASSERT_LE(test::maxPositionError(got, ref, sc.params.scale), positionTolerance(sc.params)) << where;
          }
          sim->step(2);
          sim->load(sc.state);
          sim->step(1);
          const State ref = stepReference(sc.state, sc.params);
          const std::string where = GetParam() + " on " + name + (periodic ? " periodic" : " open") +
                                    ", reloaded after 11 steps, sort every " + std::to_string(every);
          ASSERT_LE(test::maxRelativeVelocityError(sim->state(), ref, sc.params.maxSpeed), kVelocityTolerance) << where;
        }
    }
}

#ifdef FLOCKLIFE_HAVE_CUDA  // CudaGraph exists only in CUDA builds, and so do counting and fast
/// Bit for bit: the same positions and velocities, boid by boid.
void expectSameBits(const State& got, const State& want, const std::string& where) {
  ASSERT_EQ(got.size(), want.size()) << where;
  for (std::size_t i = 0; i < got.size(); ++i)
    for (const auto& [g, w] : {std::pair{got.pos[i], want.pos[i]}, std::pair{got.vel[i], want.vel[i]}})
      ASSERT_TRUE(g.x == w.x && g.y == w.y && g.z == w.z) << where << ": boid " << i;
}

/// counting and fast replay a call's whole sort intervals as CUDA graphs (Tuning::cudaGraphs):
/// the state after 5 intervals and a step, in one call and in calls that start mid-interval, is
/// that of the same steps launched one by one, bit for bit; intervals of an even and an odd number
/// of steps (one graph per ping-pong parity, or one for both), open and periodic, on the warp
/// kernel (cell width 1) and on coarseLaneKernel (2.5). The scene is "pairs", whose sums do not
/// depend on the order of the boids in a cell, which the counting sort's atomics leave to chance:
/// elsewhere two runs of these methods differ in the last bits. The one-call run records one graph
/// for an odd interval (its k + 1 flips leave the parity as it was) and two for an even one
/// (CudaGraph::recordedOnThisThread), so the graphs are replayed, not bypassed. It starts with 900
/// of the pairs; then load() of all 1,000 drops the recorded graphs (they hold the old buffers and
/// count): the next call records them again and equals a new simulation's.
TEST_P(EveryMethod, WholeSortIntervalsReplayedAsCudaGraphsEqualLaunchesOneByOne) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast replay CUDA graphs";
  for (bool periodic : {false, true})
    for (float w : {1.f, 2.5f})
      for (int every : {1, 2, 3, 4}) {
        const test::Scene sc = test::makeScene("pairs", periodic);
        State first = sc.state;
        first.pos.resize(1800);
        first.vel.resize(1800);
        const std::string where = GetParam() + (periodic ? " periodic" : " open") + ", cell width " +
                                  std::to_string(w) + ", sort every " + std::to_string(every);
        auto run = [&](const State& start, bool graphs, const std::vector<std::uint64_t>& calls) {
          Tuning t{w, 128, false, Tuning{}.stagingRatio, every};
          t.cudaGraphs = graphs;
          auto sim = makeSimulation(GetParam(), sc.params, t);
          sim->load(start);
          for (std::uint64_t k : calls) sim->step(k);
          return sim;
        };
        const auto k = std::uint64_t(every);
        const std::uint64_t graphs = every % 2 == 0 ? 2 : 1;
        std::uint64_t recorded = CudaGraph::recordedOnThisThread();
        const State want = run(first, false, {5 * k + 1})->state();
        EXPECT_EQ(CudaGraph::recordedOnThisThread(), recorded) << where << ", graphs off";
        auto whole = run(first, true, {5 * k + 1});
        EXPECT_EQ(CudaGraph::recordedOnThisThread(), recorded + graphs) << where << ", one call";
        expectSameBits(whole->state(), want, where + ", one call");
        expectSameBits(run(first, true, {1, 2 * k, 3 * k - 1, 1})->state(), want,
                       where + ", calls of 1, 2k, 3k - 1 and 1 steps");
        whole->load(sc.state);
        recorded = CudaGraph::recordedOnThisThread();
        whole->step(5 * k + 1);
        EXPECT_EQ(CudaGraph::recordedOnThisThread(), recorded + graphs) << where << ", after load()";
        expectSameBits(whole->state(), run(sc.state, false, {5 * k + 1})->state(),
                       where + ", after load() of 1,000 pairs");
      }
}
#endif

/// The premise of BalancedLanesEqualUnbalancedBitForBit: in pairCrowd, no boid has two neighbours
/// within the largest rule distance in its first 4 steps (the reference's), open or periodic; there
/// are fewer boids than cells at cell width 2.5; and the octant walk of the sorting step
/// (forEachOctantRun on that grid) gives some boid at least kBalanceFrom candidates, so that its
/// block reorders its lanes, and others fewer. Periodic, some blocks of 32, 128 and 1,024 sorted
/// boids that reorder also hold a lane that visits its cells one by one (here an x run that wraps), so
/// that the balanced kernel's path for those lanes (balancedOrder's last bin) is tested; counted
/// over the cells wholly inside a block, since the sort leaves the order within a cell to chance.
TEST(Scenes, PairCrowdHasAtMostOneNeighbourFor4StepsAndLongCandidateLoops) {
  for (bool periodic : {false, true}) {
    test::Scene sc = test::makeScene("classic5000", periodic);
    State s = pairCrowd(sc.params, periodic);
    Tuning t;
    t.cellWidth = 2.5f;
    const Derived d = derive(sc.params, t);
    ASSERT_LT(s.size(), std::size_t(numCells(d)));
    ASSERT_GT(s.size(), 1024u);
    std::map<std::uint32_t, std::uint32_t> inCell;
    for (const Vec3& q : s.pos) ++inCell[cellOf(q.x, q.y, q.z, d)];
    std::uint32_t most = 0, fewest = ~0u;
    struct Lane {
      std::uint32_t cell;
      bool reorders, visitsCells;
    };
    std::vector<Lane> lanes;
    for (const Vec3& q : s.pos) {
      std::uint32_t candidates = 0;
      // Lanes the octant walk does not apply to (periodic x runs that wrap) visit cells one by one.
      const bool octant = forEachOctantRun(q.x, q.y, q.z, d, [&](int, std::uint32_t first, std::uint32_t last) {
        for (std::uint32_t c = first; c <= last; ++c) candidates += inCell.count(c) ? inCell[c] : 0;
      });
      lanes.push_back({cellOf(q.x, q.y, q.z, d), octant && candidates - 1 >= kBalanceFrom, !octant});
      if (!octant) continue;
      most = std::max(most, candidates - 1);
      fewest = std::min(fewest, candidates - 1);
    }
    EXPECT_GE(most, kBalanceFrom) << "periodic " << periodic;
    EXPECT_LT(fewest, kBalanceFrom) << "periodic " << periodic;
    std::stable_sort(lanes.begin(), lanes.end(), [](const Lane& a, const Lane& b) { return a.cell < b.cell; });
    std::map<std::uint32_t, std::pair<std::size_t, std::size_t>> slots;  // cell -> its first and last slot
    for (std::size_t k = 0; k < lanes.size(); ++k) slots.try_emplace(lanes[k].cell, k, k).first->second.second = k;
    for (std::size_t block : {32u, 128u, 1024u}) {
      if (!periodic) break;  // the open kernel visits such lanes' cells during its walk
      int both = 0;  // blocks whose whole cells hold a lane that reorders and one that visits cells
      for (std::size_t b = 0; b < lanes.size(); b += block) {
        const std::size_t e = std::min(lanes.size(), b + block);
        bool reorders = false, visitsCells = false;
        for (std::size_t k = b; k < e; ++k) {
          const auto [first, last] = slots[lanes[k].cell];
          if (first < b || last >= e) continue;
          reorders = reorders || lanes[k].reorders;
          visitsCells = visitsCells || lanes[k].visitsCells;
        }
        both += reorders && visitsCells;
      }
      EXPECT_GT(both, 0) << "block " << block;
    }
    for (int step = 0; step <= 4; ++step) {
      const auto [most, boid] = mostNeighbours(s, sc.params);
      ASSERT_LE(most, 1) << "boid " << boid << " after " << step << " steps, periodic " << periodic;
      s = stepReference(s, sc.params);
    }
  }
}

#ifdef FLOCKLIFE_HAVE_CUDA
/// Tuning::balanceLanes changes which thread of a block runs a boid's candidate loop, not the
/// candidates or the order of their sums: balanced and unbalanced runs agree bit for bit. The scene
/// is pairCrowd, whose sums do not depend on the order of the boids in a cell (which the counting
/// sort's atomics leave to chance) and whose boids in the crowd have more candidates than
/// kBalanceFrom, so that the blocks holding them exchange boids (periodic, some of them also with
/// lanes that visit their cells one by one); 4 steps sorting every 4 (one sort,
/// then 3 steps with the skin; coarseLaneKernel at width 2.5), open and periodic, in blocks of 32,
/// 128 and 1,024 threads.
TEST_P(EveryMethod, BalancedLanesEqualUnbalancedBitForBit) {
  if (GetParam() != "counting" && GetParam() != "fast") GTEST_SKIP() << "only counting and fast balance lanes";
  for (bool periodic : {false, true}) {
    const test::Scene sc = test::makeScene("classic5000", periodic);
    const State s = pairCrowd(sc.params, periodic);
    for (int block : {32, 128, 1024}) {
      auto run = [&](bool balance) {
        Tuning t{2.5f, block, false, Tuning{}.stagingRatio, 4};
        t.balanceLanes = balance;
        auto sim = makeSimulation(GetParam(), sc.params, t);
        sim->load(s);
        sim->step(4);
        return sim->state();
      };
      const std::string where = GetParam() + (periodic ? " periodic" : " open") + ", block " + std::to_string(block);
      expectSameBits(run(true), run(false), where);
    }
  }
}
#endif

/// The premise of WholeSortIntervalsReplayedAsCudaGraphsEqualLaunchesOneByOne: in "pairs", no boid
/// has two neighbours within the largest rule distance in its first 27 steps (the reference's), open or periodic (minimum-image offsets).
TEST(Scenes, PairsHaveAtMostOneNeighbourFor27Steps) {
  for (bool periodic : {false, true}) {
    const test::Scene sc = test::makeScene("pairs", periodic);
    State s = sc.state;
    for (int step = 0; step <= 27; ++step) {
      const auto [most, boid] = mostNeighbours(s, sc.params);
      ASSERT_LE(most, 1) << "boid " << boid << " after " << step << " steps, periodic " << periodic;
      s = stepReference(s, sc.params);
    }
  }
}

TEST_P(EveryMethod, InvariantsHoldOver1000Steps) {
  for (bool periodic : {false, true}) {
    test::Scene sc = test::makeScene("dense100", periodic);
    sc.params.maxSpeed = 2;  // fast boids cross the faces often
    sc.params.dt = 0.5f;
    auto sim = makeSimulation(GetParam(), sc.params);
    sim->load(sc.state);
    for (int chunk = 0; chunk < 10; ++chunk) {
      sim->step(100);
      const State s = sim->state();
      ASSERT_EQ(s.size(), sc.state.size());
      for (std::size_t i = 0; i < s.size(); ++i) {
        const Vec3 p = s.pos[i], v = s.vel[i];
        for (float c : {p.x, p.y, p.z}) {
          ASSERT_TRUE(std::isfinite(c)) << "boid " << i;
          ASSERT_LE(std::fabs(c), sc.params.scale) << "boid " << i << " after " << (chunk + 1) * 100 << " steps";
        }
        const float speed = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
        ASSERT_TRUE(std::isfinite(speed));
        ASSERT_LE(speed, sc.params.maxSpeed * (1 + 1e-5f)) << "boid " << i;
      }
    }
  }
}

TEST_P(EveryMethod, VerticesHoldPositionsAndColours) {
  const test::Scene sc = test::makeScene("lattice", false);
  auto sim = makeSimulation(GetParam(), sc.params);
  sim->load(sc.state);
  sim->step(2);
  const State s = sim->state();
  std::vector<float> v(6 * sim->numBoids(), -7.f);
  sim->writeVertices(v.data(), false);
  // Vertex order is the method's own: each list of (position, colour) rows is sorted, and row k of
  // one is compared with row k of the other, so that a vertex carrying another boid's colour fails
  // (a check of sums over all boids let it pass; found by a review). Positions come from the same
  // state and match exactly; colours within 1e-5 (velocityColour on the device against the host's).
  using Row = std::array<float, 6>;
  std::vector<Row> fromState(s.size()), fromVertices(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vec3 c = velocityColour(s.vel[i].x, s.vel[i].y, s.vel[i].z, sc.params.maxSpeed);
    fromState[i] = {s.pos[i].x, s.pos[i].y, s.pos[i].z, c.x, c.y, c.z};
    std::copy(v.begin() + std::ptrdiff_t(6 * i), v.begin() + std::ptrdiff_t(6 * i + 6), fromVertices[i].begin());
  }
  std::sort(fromState.begin(), fromState.end());
  std::sort(fromVertices.begin(), fromVertices.end());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Row& want = fromState[i];
    const Row& got = fromVertices[i];
    for (int k = 0; k < 3; ++k) ASSERT_EQ(got[k], want[k]) << "row " << i << " coordinate " << k;
    for (int k = 3; k < 6; ++k) {
      ASSERT_NEAR(got[k], want[k], 1e-5) << "row " << i << " colour " << k - 3;
      EXPECT_GE(got[k], 0.f);
      EXPECT_LE(got[k], 1.f);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Boids, EveryMethod, ::testing::ValuesIn(methodNames()), flocklife::test::nameOfParam);

#ifdef FLOCKLIFE_HAVE_CUDA
class GatherOption : public flocklife::test::GpuTest {};
TEST_F(GatherOption, ThrustGatherMatchesOurKernel) {
  for (bool periodic : {false, true}) {
    const test::Scene sc = test::makeScene("dense5000", periodic);
    Tuning t;
    t.thrustGather = true;
    auto sim = makeSimulation("coherent-gather", sc.params, t);
    sim->load(sc.state);
    sim->step(1);
    EXPECT_LE(test::maxRelativeVelocityError(sim->state(), referenceStep(sc, periodic), sc.params.maxSpeed),
              kVelocityTolerance);
  }
}
#endif

TEST(CpuOnly, CpuMethodsRefuseDevicePointers) {
  auto sim = makeSimulation("cpu-grid", Params{});
  sim->load(randomState(10, Params{}, 1));
  float out[60];
  EXPECT_THROW(sim->writeVertices(out, true), std::invalid_argument);
}

}  // namespace flocklife::boids
