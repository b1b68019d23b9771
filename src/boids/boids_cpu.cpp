// CPU methods: `cpu-naive` (serial, every boid against every other: the reference) and
// `cpu-grid` (uniform grid built by a counting sort, neighbour loops parallel with OpenMP).
#include <algorithm>
#include <atomic>
#include <functional>
#include <numeric>
#include <stdexcept>

#include "boids/boids_internal.hpp"
#include "common/memory.hpp"

namespace flocklife::boids {

namespace {

// lengthSq's std::fma is one instruction where the compiler may use FMA, and a call into the C
// library (several times slower per candidate) in a build for baseline x86-64. So on x86-64 with
// GCC the per-boid updates below are compiled twice, with FMA instructions and without, and the
// CPU's one runs (GCC target_clones; host C++ is built with -ffp-contract=off, CMakeLists.txt, so
// nothing else is fused). std::fma rounds once either way: the same bits.
// updateBoid is inlined into both clones, so that its arithmetic is compiled for each.
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define FLOCKLIFE_FMA_CLONES __attribute__((target_clones("fma", "default")))
#define FLOCKLIFE_INTO_CLONES inline __attribute__((always_inline))
#else
#define FLOCKLIFE_FMA_CLONES
#define FLOCKLIFE_INTO_CLONES inline
#endif

/// Velocity and position of boid i after one step, given its neighbours' offsets.
template <class ForEachCandidate>
FLOCKLIFE_INTO_CLONES void updateBoid(const State& s, std::size_t i, const Derived& d, ForEachCandidate&& candidates,
                                      State& out) {
  const Vec3 p = s.pos[i], v = s.vel[i];
  Accum a;
  candidates([&](std::size_t j) {
    if (j == i) return;
    const Vec3 q = s.pos[j], w = s.vel[j];
    accumulate(a, axisOffset(q.x, p.x, d), axisOffset(q.y, p.y, d), axisOffset(q.z, p.z, d), w.x, w.y, w.z, d);
  });
  out.vel[i] = newVelocity(v.x, v.y, v.z, a, d);
  out.pos[i] = newPosition(p.x, p.y, p.z, out.vel[i], d);
}

/// Boid i of s against every other boid, in the serial order j = 0, 1, ..., n - 1.
FLOCKLIFE_FMA_CLONES void updateNaive(const State& s, std::size_t i, const Derived& d, State& out) {
  updateBoid(s, i, d, [&](auto&& visit) {
    for (std::size_t j = 0; j < s.size(); ++j) visit(j);
  }, out);
}

/// Boid i of s against the boids of its neighbour cells (forEachNeighbourCell, listed first so
/// that the candidate loop is compiled in the clone), cell c holding order[start[c]], ...,
/// order[start[c + 1] - 1]. Walking the cells inside the candidate loop instead, with the clones
/// flattened (GCC `flatten`) so that the walk is inlined, gave the same bits but was ~15 % slower
/// (200,000 boids: ~8.1 against ~9.6 steps/s on the 2-core machine, 2026-12-02).
FLOCKLIFE_FMA_CLONES void updateGrid(const State& s, std::size_t i, const Derived& d,
                                     const std::vector<std::uint32_t>& start, const std::vector<std::uint32_t>& order,
                                     State& out) {
  thread_local std::vector<std::uint32_t> cells;
  cells.clear();
  const Vec3 p = s.pos[i];
  forEachNeighbourCell(p.x, p.y, p.z, d, [&](std::uint32_t c) { cells.push_back(c); });
  updateBoid(s, i, d, [&](auto&& visit) {
    for (std::uint32_t c : cells)
      for (std::uint32_t k = start[c]; k < start[c + 1]; ++k) visit(order[k]);
  }, out);
}

/// The stop of Simulation::stepUntilStopped within one step: `stop` (may be empty; it must not
/// throw, as it runs inside an OpenMP region) is asked before every `every`-th boid, from any
/// OpenMP thread; once it answers true, every thread skips the boids it has left.
class StepStop {
 public:
  StepStop(const std::function<bool()>& stop, std::int64_t every) : stop_(&stop), every_(every) {}
  StepStop(std::function<bool()>&&, std::int64_t) = delete;  // would hold a temporary
  /// Whether boid i is skipped.
  bool skip(std::int64_t i) {
    if (stopped_.load(std::memory_order_relaxed)) return true;
    if (!*stop_ || i % every_ != 0 || !(*stop_)()) return false;
    stopped_.store(true, std::memory_order_relaxed);
    return true;
  }
  /// Whether the step was abandoned (read after the loop, whose end orders the threads' stores).
  bool stopped() const { return stopped_.load(); }

 private:
  const std::function<bool()>* stop_;
  std::int64_t every_;
  std::atomic<bool> stopped_{false};
};

/// Every boid against every other, each boid's sums in the serial order j = 0, 1, ..., n - 1, into
/// `out` (resized). `parallelBoids` spreads the boids (not the sums) over OpenMP threads: the
/// result is bit-identical. Returns false, leaving `out` partly written, once `stop` answered true.
bool stepNaive(const State& s, const Derived& d, bool parallelBoids, const std::function<bool()>& stop, State& out) {
  out.pos.resize(s.size());
  out.vel.resize(s.size());
  const std::int64_t n = std::int64_t(s.size());
  // Each boid costs n pair updates: asked every 2^24 / n boids (about 2^24 updates, tens of
  // milliseconds), at most every boid.
  StepStop stepStop(stop, std::max<std::int64_t>(1, (std::int64_t(1) << 24) / std::max<std::int64_t>(n, 1)));
#pragma omp parallel for schedule(static) if (parallelBoids && n >= 4096)
  for (std::int64_t i = 0; i < n; ++i)
    if (!stepStop.skip(i)) updateNaive(s, std::size_t(i), d, out);
  return !stepStop.stopped();
}

void writeHostVertices(const State& s, float maxSpeed, float* out) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const Vec3 c = velocityColour(s.vel[i].x, s.vel[i].y, s.vel[i].z, maxSpeed);
    float* o = out + 6 * i;
    o[0] = s.pos[i].x; o[1] = s.pos[i].y; o[2] = s.pos[i].z;
    o[3] = c.x; o[4] = c.y; o[5] = c.z;
  }
}

class CpuSimulation : public Simulation {
 public:
  /// `grid`: whether the method walks a grid (derive).
  CpuSimulation(const Params& p, const Tuning& t, bool grid) : params_(p), d_(derive(p, t, grid)) {}
  void load(const State& s) override {
    checkFits(s, params_, "state");
    state_ = s;
  }
  State state() const override { return state_; }
  void step(std::uint64_t n) override { stepUntilStopped(n, {}); }
  std::uint64_t stepUntilStopped(std::uint64_t n, const std::function<bool()>& stop) override = 0;
  void writeVertices(float* out, bool outIsDevice) override {
    if (outIsDevice) throw std::invalid_argument(info().name + ": writeVertices needs a host pointer");
    writeHostVertices(state_, params_.maxSpeed, out);
  }
  std::size_t numBoids() const override { return state_.size(); }
  std::uint64_t stateBytes() const override { return state_.size() * 2 * sizeof(Vec3); }

 protected:
  Params params_;
  Derived d_;
  State state_;
};

class CpuNaive final : public CpuSimulation {
 public:
  CpuNaive(const Params& p, const Tuning& t) : CpuSimulation(p, t, false) {}
  const MethodInfo& info() const override { return kInfo; }
  std::uint64_t stepUntilStopped(std::uint64_t n, const std::function<bool()>& stop) override {
    for (std::uint64_t k = 0; k < n; ++k) {
      if (!stepNaive(state_, d_, false, stop, next_)) return k;
      std::swap(state_, next_);
    }
    return n;
  }
  static inline const MethodInfo kInfo{"cpu-naive", Backend::Cpu,
                                       "serial, every boid examines every other boid (the reference)"};

 private:
  State next_;  ///< the step being computed, kept between calls
};

class CpuGrid final : public CpuSimulation {
 public:
  CpuGrid(const Params& p, const Tuning& t) : CpuSimulation(p, t, true) {}
  const MethodInfo& info() const override { return kInfo; }
  std::uint64_t stepUntilStopped(std::uint64_t n, const std::function<bool()>& stop) override {
    const std::size_t count = state_.size();
    const std::size_t cells = std::size_t(numCells(d_));
    if (start_.size() != cells + 1 || fill_.size() != cells) {  // made once, not at every call
      requireHostMemory((2 * cells + 1) * sizeof(std::uint32_t),
                        "cpu-grid: cell start and fill arrays (--cell-width, --x-split, --scale)");
      start_.resize(cells + 1);
      fill_.resize(cells);
    }
    cellOfBoid_.resize(count);
    order_.resize(count);
    next_.pos.resize(count);
    next_.vel.resize(count);
    const auto stopNow = [&stop] { return stop && stop(); };  // between the sort's passes
    for (std::uint64_t k = 0; k < n; ++k) {
      // Counting sort of the boids by cell: histogram, exclusive scan (cell start), scatter. Over
      // all cells, a fine grid's passes take seconds each (--cell-width).
      if (stopNow()) return k;
      std::fill(start_.begin(), start_.end(), 0u);
      for (std::size_t i = 0; i < count; ++i) {
        cellOfBoid_[i] = cellOf(state_.pos[i].x, state_.pos[i].y, state_.pos[i].z, d_);
        ++start_[cellOfBoid_[i] + 1];
      }
      if (stopNow()) return k;
      std::partial_sum(start_.begin(), start_.end(), start_.begin());
      if (stopNow()) return k;
      std::copy(start_.begin(), start_.end() - 1, fill_.begin());
      for (std::size_t i = 0; i < count; ++i) order_[fill_[cellOfBoid_[i]]++] = std::uint32_t(i);
      StepStop stepStop(stop, 256);
#pragma omp parallel for schedule(dynamic, 256) if (count >= 4096)
      for (std::int64_t i = 0; i < std::int64_t(count); ++i)
        if (!stepStop.skip(i)) updateGrid(state_, std::size_t(i), d_, start_, order_, next_);
      if (stepStop.stopped()) return k;
      std::swap(state_, next_);
    }
    return n;
  }
  static inline const MethodInfo kInfo{"cpu-grid", Backend::Cpu,
                                       "uniform grid by counting sort, OpenMP-parallel neighbour loops",
                                       GridWalk::Cells};

 private:
  // The counting sort's arrays and the next state, kept between calls: each step overwrites them.
  std::vector<std::uint32_t> cellOfBoid_, start_, fill_, order_;
  State next_;
};

}  // namespace

State stepReference(const State& s, const Params& p) {
  checkFits(s, p, "state");
  State out;
  stepNaive(s, derive(p, {}, false), true, {}, out);
  return out;
}

namespace detail {
std::vector<MethodEntry> cpuEntries() {
  return {
      {CpuNaive::kInfo, [](const Params& p, const Tuning& t) -> std::unique_ptr<Simulation> { return std::make_unique<CpuNaive>(p, t); }},
      {CpuGrid::kInfo, [](const Params& p, const Tuning& t) -> std::unique_ptr<Simulation> { return std::make_unique<CpuGrid>(p, t); }},
  };
}
}  // namespace detail

}  // namespace flocklife::boids
