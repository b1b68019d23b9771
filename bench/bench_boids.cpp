// `flocklife bench boids`: every boids method over boid counts, block sizes and cell widths, in
// two series: the classic scene (scale 100) and constant density (scale 100 * cbrt(N / 5000)).
// ms per step: median of repetitions after warm-up, CUDA events (GPU) or steady_clock (CPU).
// Ratio to the naive method of the same backend, series, N and (CUDA) block size, measured in the same run.
// CPU methods have no block size: they run once per other setting, their block_size column empty.
// Methods on the warp kernel also sweep --staging-ratios (Tuning::stagingRatio), and counting and
// fast --sort-every (Tuning::sortEvery; a repetition then runs a whole number of sort intervals)
// and --cuda-graphs (Tuning::cudaGraphs: whole sort intervals replayed as CUDA graphs, or not).
// Methods with a grid also sweep --x-splits (Tuning::xSplit: cells narrower along x), and counting
// and fast on CUDA --group-radii (Tuning::groupRadius: boid groups; auto by default).
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>

#include "bench_boids.hpp"
#include "app/cli_checks.hpp"
#include "app/tuning_options.hpp"
#include "bench_common.hpp"
#include "common/busy_cores.hpp"
#include "boids/boids.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "common/registry.hpp"
#include "common/timer.hpp"

namespace flocklife::bench {

namespace {

struct BoidsBenchOptions {
  bool quick = false;
  std::vector<std::string> methods;
  std::vector<long long> counts{5000, 50000, 100000, 500000, 1000000, 5000000, 10000000};
  std::vector<int> blockSizes{128};
  std::vector<float> cellWidths{1, 2};
  std::vector<float> stagingRatios{boids::Tuning{}.stagingRatio};
  std::vector<int> sortEvery{1};
  std::vector<std::string> cudaGraphs{"on"};
  std::vector<int> xSplits{1};
  std::vector<std::string> groupRadii{"auto"};  ///< "auto" (autoTuning's) or multiples of the largest rule distance
  std::string series = "both";
  bool periodic = false;
  long long naiveMax = 100000;
  int repetitions = 10, stepsPerSample = 10, warmup = 5;
  std::uint64_t seed = 1;
  bool thrustGather = false;
  std::string csv = "out/bench/boids.csv";
  /// Options given on the command line, which --quick leaves as they are.
  bool countsGiven = false, repetitionsGiven = false, stepsGiven = false, warmupGiven = false;
  /// The swept tuning flags given on the command line (kSweptTuning), which some method must use.
  std::vector<std::string> sweepsGiven;
};

/// Each swept tuning flag of bench boids and the flocklife boids setting it sweeps (app::usesTuning).
constexpr std::pair<const char*, const char*> kSweptTuning[] = {
    {"--cell-widths", "--cell-width"},        {"--x-splits", "--x-split"},   {"--block-sizes", "--block-size"},
    {"--staging-ratios", "--staging-ratio"},  {"--sort-every", "--sort-every"}, {"--cuda-graphs", "--sort-every"},
    {"--group-radii", "--group-radius"},      {"--thrust-gather", "--thrust-gather"}};

/// Refuses a swept flag given that none of `methods` uses, naming the methods that do: it was taken,
/// and the sweep ran without it, its CSV column empty (a tester's item). Without a usable device
/// (`noDevice`: usableDevice's reason, "" with one), where only CUDA methods use it, it says so.
/// @throws InputError "--x-splits applies to ...; none of the methods run (naive) uses it: ...".
void refuseUnusedSweeps(const std::vector<std::string>& given, const std::vector<std::string>& methods,
                        const std::string& noDevice) {
  for (const auto& [flag, setting] : kSweptTuning) {
    if (std::find(given.begin(), given.end(), flag) == given.end()) continue;
    std::string run;
    bool used = false;
    for (const auto& m : methods) {
      used = used || app::usesTuning(boids::findMethod(m), setting);
      run += (run.empty() ? "" : ", ") + m;
    }
    if (used) continue;
    bool cudaOnly = true;  // every method that uses it runs on CUDA
    for (const auto& m : boids::availableMethods())
      if (app::usesTuning(m, setting)) cudaOnly = cudaOnly && m.backend == boids::Backend::Cuda;
    throw InputError(std::string(flag) + " applies to " + app::methodsUsing(setting) + "; none of the methods run (" +
                     run + ") uses it: " +
                     (!noDevice.empty() && cudaOnly ? "those need a CUDA device: " + noDevice + "; drop it"
                                                    : std::string("drop it, or name one in --methods")));
  }
}

struct Best {
  double ms = 0;
  std::string what;
};

/// Methods whose neighbour pass is the warp kernel, the only one Tuning::stagingRatio affects.
bool usesWarpKernel(const std::string& m) { return boids::findMethod(m).takesStagingRatio; }

/// Methods that take Tuning::sortEvery.
bool sortsEvery(const std::string& m) { return boids::findMethod(m).takesSortEvery; }

/// Methods that form boid groups where Tuning::groupRadius > 0 (boids::formsGroups).
bool formsGroups(const std::string& m) { return boids::formsGroups(boids::findMethod(m)); }

/// A --group-radii entry: nullopt for auto, else the radius (multiples of the largest rule distance).
/// @throws InputError naming --group-radii and the text unless it is auto or a number >= 0.
std::optional<float> groupRadiusOf(const std::string& text) {
  if (text == "auto") return std::nullopt;
  float v = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, v, std::chars_format::general);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v) || v < 0)
    throw InputError("--group-radii " + text + ": expected auto or a number >= 0 (multiples of the largest rule "
                     "distance; 0: no boid groups)");
  return v;
}

/// Validates each item of a list flag as that field of an otherwise default Tuning; an item out of
/// range is named with the list flag ("--cell-widths 0: expected a finite number > 0, got 0").
template <class T>
void validateItems(const char* flag, const std::vector<T>& items, T boids::Tuning::*field,
                   std::string boids::TuningFlags::*name) {
  for (const T v : items) {
    boids::Tuning t;
    t.*field = v;
    char shown[64];
    std::snprintf(shown, sizeof shown, "%s %g", flag, double(v));
    boids::TuningFlags flags;
    flags.*name = shown;
    boids::validate(t, flags);
  }
}

void runBoidsBench(BoidsBenchOptions o) {
  if (o.quick) {
    if (!o.countsGiven) o.counts = {5000, 100000, 1000000};
    if (!o.repetitionsGiven) o.repetitions = 5;
    if (!o.stepsGiven) o.stepsPerSample = 5;
    if (!o.warmupGiven) o.warmup = 3;
  }
  for (long long n : o.counts) boids::validateCount(n);
  if (o.stagingRatios.empty()) throw InputError("--staging-ratios: expected at least one ratio");
  if (o.sortEvery.empty()) throw InputError("--sort-every: expected at least one interval");
  if (o.cudaGraphs.empty()) throw InputError("--cuda-graphs: expected on, off or both of them");
  if (o.xSplits.empty()) throw InputError("--x-splits: expected at least one split");
  validateItems("--block-sizes", o.blockSizes, &boids::Tuning::blockSize, &boids::TuningFlags::blockSize);
  validateItems("--cell-widths", o.cellWidths, &boids::Tuning::cellWidth, &boids::TuningFlags::cellWidth);
  validateItems("--staging-ratios", o.stagingRatios, &boids::Tuning::stagingRatio, &boids::TuningFlags::stagingRatio);
  validateItems("--sort-every", o.sortEvery, &boids::Tuning::sortEvery, &boids::TuningFlags::sortEvery);
  validateItems("--x-splits", o.xSplits, &boids::Tuning::xSplit, &boids::TuningFlags::xSplit);
  if (o.groupRadii.empty()) throw InputError("--group-radii: expected auto or at least one radius");
  for (std::size_t k = 0; k < o.groupRadii.size(); ++k)  // by value: 0 and 0.0 would run twice (a tester's trial)
    for (std::size_t j = 0; j < k; ++j)
      if (groupRadiusOf(o.groupRadii[j]) == groupRadiusOf(o.groupRadii[k]))
        throw InputError("--group-radii: '" + o.groupRadii[k] + "' is given twice (as '" + o.groupRadii[j] +
                         "'); expected each radius once");
  for (const std::string& g : o.groupRadii) groupRadiusOf(g);
  for (const auto& m : o.methods) requireKnownName(boids::availableMethods(), m, "--methods", "method");
  std::string why;
  const bool gpu = usableDevice(&why).has_value();
  if (o.methods.empty()) {
    if (!gpu) std::fprintf(stderr, "flocklife: note: %s; running the CPU methods\n", why.c_str());
    for (const auto& m : boids::availableMethods())
      if ((m.backend == boids::Backend::Cuda) == gpu) o.methods.push_back(m.name);
  }
  std::map<std::string, boids::Backend> backendOf;
  for (const auto& m : boids::availableMethods()) backendOf[m.name] = m.backend;
  for (const auto& m : o.methods)
    if (backendOf[m] == boids::Backend::Cuda && !gpu) throw InputError("--methods " + m + " needs a CUDA device: " + why);
  refuseUnusedSweeps(o.sweepsGiven, o.methods, gpu ? "" : why);
  // Naive methods first, so that every other method's ratio to them is known when it runs.
  std::stable_partition(o.methods.begin(), o.methods.end(),
                        [](const std::string& m) { return m == "naive" || m == "cpu-naive"; });
  std::vector<std::pair<std::string, bool>> series;  // name, constant density
  const std::string suffix = o.periodic ? "-periodic" : "";
  if (o.series == "classic" || o.series == "both") series.push_back({"classic" + suffix, false});
  if (o.series == "constant-density" || o.series == "both") series.push_back({"constant-density" + suffix, true});

  std::size_t total = 0;
  for (long long n : o.counts)
    for (const auto& m : o.methods) {
      const bool gridless = boids::findMethod(m).walk == boids::GridWalk::None;
      if (gridless && n > o.naiveMax) continue;
      const bool cuda = backendOf[m] == boids::Backend::Cuda;  // CPU methods have no block size: run once
      total += series.size() * (cuda ? o.blockSizes.size() : 1) * (gridless ? 1 : o.cellWidths.size() * o.xSplits.size()) *
               (usesWarpKernel(m) ? o.stagingRatios.size() : 1) *
               (sortsEvery(m) ? o.sortEvery.size() * o.cudaGraphs.size() : 1) *
               (formsGroups(m) ? o.groupRadii.size() : 1);
    }
  if (total == 0)  // every method is naive and every --n above --naive-max: it exited 0 naming a CSV it never wrote
    throw InputError("--naive-max " + std::to_string(o.naiveMax) +
                     ": every --n is above it and --methods names only the naive methods, so nothing would be "
                     "measured; expected a larger --naive-max, a smaller --n, or a method with a grid");
  {  // said, not only in --help (--naive-max 0 dropped cpu-naive without a word; a new user's trial)
    std::string naive, above;
    for (const auto& m : o.methods)
      if (m == "naive" || m == "cpu-naive") naive += (naive.empty() ? "" : " and ") + m;
    for (long long n : o.counts)
      if (n > o.naiveMax) above += (above.empty() ? "" : ",") + std::to_string(n);
    if (!naive.empty() && !above.empty())
      std::fprintf(stderr, "flocklife: note: %s %s only up to --naive-max %lld: not at --n %s\n", naive.c_str(),
                   naive.find(" and ") == std::string::npos ? "runs" : "run", o.naiveMax, above.c_str());
  }
  // After that refusal, which then leaves no new --csv folder behind (a new user's trial).
  CsvWriter csv(o.csv, {"series", "method", "n", "scale", "expected_neighbours", "cell_width", "block_size",
                        "staging_ratio", "sort_every", "cuda_graphs", "ms_per_step_median", "ms_min", "ms_max",
                        "steps_per_second", "repetitions", "steps_per_rep", "naive_ms", "speedup_vs_naive", "periodic",
                        "x_split", "group_radius", "grouped_share"});
  Progress progress(total);
  if (std::any_of(o.methods.begin(), o.methods.end(), [&](const std::string& m) { return backendOf[m] == boids::Backend::Cpu; }))
    noteIfCoresBusy();  // a busy machine's CPU rows mislead: 0.54 and 6.59 ms/step in two runs (a new user's trial)
  bool memorySkipped = false;  // a configuration skipped for memory (printCsvOrRefuseEmpty)
  // (series, n, block, backend) -> ms per step of the naive method of that backend
  std::map<std::tuple<std::string, long long, int, boids::Backend>, double> naiveMs;
  std::map<std::tuple<std::string, long long, std::string>, Best> best;
  std::printf("%-25s %-16s %9s %6s %5s %5s %5s %6s %4s %6s %5s %10s %10s %8s\n", "series", "method", "n", "scale",
              "width", "split", "block", "ratio", "sort", "graphs", "group", "ms/step", "steps/s", "x naive");
  for (const auto& [seriesName, constantDensity] : series)
    for (long long n : o.counts) {
      boids::Params p;
      p.periodic = o.periodic;
      if (constantDensity) p.scale = float(100.0 * std::cbrt(double(n) / 5000.0));
      // A start that does not fit is skipped as a configuration is (it ended the sweep; a new user's trial).
      std::optional<boids::State> made;
      try {
        made = boids::randomState(std::size_t(n), p, o.seed);
      } catch (const OutOfMemoryError& e) {
        progress.clear();
        std::fprintf(stderr, "flocklife: skipping %s n=%lld: %s\n", seriesName.c_str(), n, e.what());
        memorySkipped = true;
        continue;
      }
      const boids::State& start = *made;
      for (const auto& m : o.methods) {
        const bool gridless = boids::findMethod(m).walk == boids::GridWalk::None;
        if (gridless && n > o.naiveMax) continue;
        const bool warp = usesWarpKernel(m);
        const bool cuda = backendOf[m] == boids::Backend::Cuda;  // CPU methods: one run, no block size written
        for (float w : gridless ? std::vector<float>{o.cellWidths.front()} : o.cellWidths)
          for (int split : gridless ? std::vector<int>{1} : o.xSplits)
          for (int b : cuda ? o.blockSizes : std::vector<int>{o.blockSizes.front()})
            for (float ratio : warp ? o.stagingRatios : std::vector<float>{o.stagingRatios.front()})
            for (int every : sortsEvery(m) ? o.sortEvery : std::vector<int>{1})
            for (const std::string& graphs : sortsEvery(m) ? o.cudaGraphs : std::vector<std::string>{""})
            for (const std::string& groups : formsGroups(m) ? o.groupRadii : std::vector<std::string>{"auto"}) {
              const std::string label = seriesName + " " + m + " " + std::to_string(n);
              // The swept settings of this configuration, for a skip's message (two cell widths'
              // skips read the same; a tester's trial).
              std::string settings = gridless ? "" : "cell width " + fmt(w) + ", x split " + std::to_string(split);
              const auto add = [&settings](const std::string& item) {
                settings += (settings.empty() ? "" : ", ") + item;
              };
              if (cuda) add("block " + std::to_string(b));
              if (warp) add("staging ratio " + fmt(ratio));
              if (sortsEvery(m)) add("sort every " + std::to_string(every) + ", CUDA graphs " + graphs);
              if (formsGroups(m)) add("group radius " + groups);
              const std::string skipped = label + (settings.empty() ? "" : " (" + settings + ")");
              const std::string shown = m == "coherent-gather" && o.thrustGather ? m + "+thrust" : m;
              progress.tick(label);
              std::vector<double> samples;
              float groupRadius = 0;  // the radius the groups ran with (0: none; boids::groupsRun)
              double groupedShare = 0;  // of the boids, in groups in the last timed sorting step
              // Whole sort intervals, so that every repetition holds the same share of sorting steps,
              // and starts at a sort. The warm-up too, at least three intervals: the first after load()
              // launches one by one (fast builds its first histogram there), the next two record the
              // CUDA graphs (one per ping-pong parity), so that the timed steps only replay them.
              const int steps = (o.stepsPerSample + every - 1) / every * every;
              const int warmup = sortsEvery(m) ? std::max((o.warmup + every - 1) / every, 3) * every : o.warmup;
              try {
                // The method's copies of the start, made above, as flocklife boids counts them for
                // --in (only the start was counted: a method's 56 bytes per boid more ran past a
                // limit that boids refused; a new user's trial).
                const std::uint64_t perBoid = boids::hostBytesPerBoid(boids::findMethod(m));
                requireHostMemory(std::uint64_t(n) * perBoid, "--n " + std::to_string(n) + ": " + m +
                                                                  "'s copies of the random start (" +
                                                                  std::to_string(perBoid) + " bytes per boid)");
                // The swept fields as given, the group radius automatic unless given.
                boids::Tuning tuning = boids::autoTuning(boids::findMethod(m), std::size_t(n), p, every);
                tuning.cellWidth = w;
                tuning.blockSize = b;
                tuning.thrustGather = o.thrustGather;
                tuning.stagingRatio = ratio;
                tuning.sortEvery = every;
                tuning.cudaGraphs = graphs != "off";
                tuning.xSplit = split;
                if (const auto radius = groupRadiusOf(groups)) tuning.groupRadius = *radius;
                auto sim = boids::makeSimulation(m, p, tuning);
                if (boids::groupsRun(boids::findMethod(m), std::size_t(n), p, tuning)) groupRadius = tuning.groupRadius;
                sim->load(start);
                if (cuda) {
#ifdef FLOCKLIFE_HAVE_CUDA
                  samples = gpuStepMs(*sim, warmup, o.repetitions, steps);
#endif
                } else {
                  // A signal abandons the step under way (cpu-naive's steps take minutes at 300,000 boids),
                  // and check() then stops the sweep.
                  const auto stop = progress.stopQuery();
                  for (int k = 0; k < warmup; ++k) {
                    progress.check();
                    sim->stepUntilStopped(1, stop);
                  }
                  for (int r = 0; r < o.repetitions; ++r) {
                    progress.check();
                    HostTimer t;
                    sim->stepUntilStopped(std::uint64_t(steps), stop);
                    progress.check();  // an abandoned repetition is not timed
                    samples.push_back(t.elapsedMs() / steps);
                  }
                }
                groupedShare = double(sim->boidsInGroups()) / double(n);
              } catch (const OutOfMemoryError& e) {
                progress.clear();
                std::fprintf(stderr, "flocklife: skipping %s: %s\n", skipped.c_str(), e.what());
                memorySkipped = true;
                continue;
              } catch (const InputError& e) {  // e.g. a cell width too small for the scale
                progress.clear();
                std::fprintf(stderr, "flocklife: skipping %s: %s\n", skipped.c_str(), e.what());
                continue;
              }
              const Stats st = summarize(samples);
              if (gridless) naiveMs[{seriesName, n, b, backendOf[m]}] = st.median;
              const auto naive = naiveMs.find({seriesName, n, b, backendOf[m]});
              const std::string naiveCell = naive == naiveMs.end() ? "" : fmt(naive->second, kCsvDigits);
              const std::string speedup = naive == naiveMs.end() ? "" : fmt(naive->second / st.median, kCsvDigits);
              csv.row({seriesName, shown, std::to_string(n), settingText(p.scale), fmt(boids::expectedNeighbours(std::size_t(n), p)),
                       gridless ? "" : settingText(w), cuda ? std::to_string(b) : "", warp ? settingText(ratio) : "",
                       gridless ? "" : std::to_string(every), graphs.empty() ? "" : graphs == "on" ? "1" : "0",
                       fmt(st.median, kCsvDigits), fmt(st.min, kCsvDigits), fmt(st.max, kCsvDigits),
                       fmt(1000.0 / st.median, kCsvDigits), std::to_string(st.repetitions), std::to_string(steps),
                       naiveCell, speedup, p.periodic ? "1" : "0", gridless ? "" : std::to_string(split),
                       formsGroups(m) ? settingText(groupRadius) : "", formsGroups(m) ? fmt(groupedShare) : ""});
              Best& bb = best[{seriesName, n, shown}];
              if (bb.ms == 0 || st.median < bb.ms)
                bb = {st.median, "width " + fmt(w) + (split > 1 ? " x split " + std::to_string(split) : "") +
                                     (cuda ? " block " + std::to_string(b) : std::string()) +
                                     (warp ? " staging ratio " + fmt(ratio) : "") +
                                     (every > 1 ? " sort every " + std::to_string(every) : "") +
                                     (graphs == "off" ? " without CUDA graphs" : "") +
                                     (groupRadius > 0 ? " group radius " + fmt(groupRadius) : "")};
              progress.print("%-25s %-16s %9lld %6.0f %5s %5s %5s %6s %4s %6s %5s %10.4f %10.1f %8s\n", seriesName.c_str(),
                          shown.c_str(), n, double(p.scale), gridless ? "-" : fmt(w, 3).c_str(),
                          gridless ? "-" : std::to_string(split).c_str(), cuda ? std::to_string(b).c_str() : "-",
                          warp ? fmt(ratio, 4).c_str() : "-", gridless ? "-" : std::to_string(every).c_str(),
                          graphs.empty() ? "-" : graphs.c_str(),
                          formsGroups(m) ? fmt(groupRadius, 3).c_str() : "-", st.median, 1000.0 / st.median, speedup.c_str());
            }
      }
    }
  progress.done();
  // Issue 8's targets, where this run measured the configuration.
  struct Target {
    const char* series;
    long long n;
    double stepsPerSecond;
  };
  for (const Target t : {Target{"classic", 1000000, 5000}, Target{"classic", 5000000, 400},
                         Target{"constant-density", 10000000, 1500}}) {
    double bestMs = 0;
    std::string who;
    for (const auto& [key, b] : best)
      if (std::get<0>(key) == t.series && std::get<1>(key) == t.n && (bestMs == 0 || b.ms < bestMs))
        bestMs = b.ms, who = std::get<2>(key) + ", " + b.what;
    if (bestMs > 0)
      std::printf("target %s %lld boids >= %.0f steps/s: best %.1f steps/s (%s) %s\n", t.series, t.n,
                  t.stepsPerSecond, 1000.0 / bestMs, who.c_str(), 1000.0 / bestMs >= t.stepsPerSecond ? "MET" : "MISSED");
  }
  printCsvOrRefuseEmpty(csv, csv.rows() > 0, memorySkipped);
}

}  // namespace

void addBoidsBench(CLI::App& bench) {
  auto o = std::make_shared<BoidsBenchOptions>();
  auto* cmd = bench.add_subcommand("boids", "Boids: ms per step of every method over N, block size and cell width");
  cmd->add_flag("--quick", o->quick, "Short sweep (N = 5K, 100K, 1M; 5 repetitions of 5 steps after 3 warm-up steps): well "
                "under a minute on a GPU; without one it runs the CPU methods, cpu-naive up to 100K, which takes many "
                "minutes (add --n). --n, --reps, --steps-per-rep and --warmup, when given, override these");
  cmd->add_option("--methods", o->methods, "Methods to run (default: every GPU method, or every CPU method without a GPU)")
      ->delimiter(',')
      ->check(app::nonEmpty("a method name"));
  cmd->add_option("--n", o->counts, "Boid counts" + app::defaultText(o->counts))->delimiter(',');
  cmd->add_option("--block-sizes", o->blockSizes, "CUDA block sizes" + app::defaultText(o->blockSizes))->delimiter(',');
  // kFloatValue: 1e400 was read as inf and refused as "got inf".
  cmd->add_option("--cell-widths", o->cellWidths, "Grid cell widths (multiples of the largest rule distance; default 1,2)")
      ->delimiter(',')
      ->check(app::kFloatValue);
  cmd->add_option("--x-splits", o->xSplits,
                  "Cells per cell width along x, 1 to 64 (--x-split of flocklife boids: cells that many times "
                  "narrower along x than along y and z; default 1, no auto: give 4 to match what flocklife "
                  "boids picks from 5 expected neighbours on, 8 from 150 on a --periodic cube or with --sort-every "
                  "above 1); the methods without a grid run once")
      ->delimiter(',');
  cmd->add_option("--staging-ratios", o->stagingRatios,
                  "Warp-staging thresholds (--staging-ratio of flocklife boids; 0 never stage, huge always); only "
                  "coherent-zip, coherent-gather, counting and fast use them (counting and fast not on sparse "
                  "coarse grids: flocklife boids --help), the other methods run once" +
                      app::defaultText(o->stagingRatios))
      ->delimiter(',')
      ->check(app::kFloatValue);
  cmd->add_option("--sort-every", o->sortEvery,
                  "Sort intervals, 1 to 64 (--sort-every of flocklife boids: sort every K steps, walk with a skin "
                  "between); "
                  "only counting and fast use them, the other methods run once. Steps per repetition are rounded up "
                  "to a multiple of K" + app::defaultText(o->sortEvery))
      ->delimiter(',');
  cmd->add_option("--cuda-graphs", o->cudaGraphs,
                  "on, off or on,off: whether counting and fast replay each whole sort interval of a repetition as "
                  "one CUDA graph (on, the default everywhere) or launch its kernels one by one (off); the other "
                  "methods run once")
      ->delimiter(',')
      ->check(CLI::IsMember({"on", "off"}));
  cmd->add_option("--group-radii", o->groupRadii,
                  "Boid group radii for counting and fast on the GPU, in largest rule distances: boids of one grid "
                  "cube, 11 to 32 of them, whose bounding box has a half-diagonal of at most this share one walk of "
                  "the grid; 0 no groups; default auto: 0.08 from 150 expected neighbours per boid on open cubes, "
                  "else 0. Column group_radius: the radius the groups ran with (0 where none ran); grouped_share: "
                  "the share of the boids in groups in the last timed sorting step (0 where none ran). The other "
                  "methods run once")
      ->delimiter(',');
  cmd->add_option("--series", o->series,
                  "classic (scale 100), constant-density (scale 100 cbrt(N/5000)) or both" + app::defaultText(o->series))
      ->check(CLI::IsMember({"classic", "constant-density", "both"}));
  cmd->add_flag("--periodic", o->periodic,
                "Run in the periodic cube (--periodic of flocklife boids: neighbourhoods wrap around the faces); "
                "rows say series classic-periodic and constant-density-periodic, and periodic 1. Issue 8's "
                "target lines are for the open cube and are not printed");
  cmd->add_option("--naive-max", o->naiveMax,
                  "Largest N for the naive methods (0: no naive runs; a note names the N left out)" + app::defaultText(o->naiveMax))
      ->check(app::integerIn(0, 9223372036854775807LL));
  cmd->add_option("--reps", o->repetitions,
                  "Timed repetitions per configuration" + app::defaultText(o->repetitions))
      ->check(app::integerIn(1, 100000));
  cmd->add_option("--steps-per-rep", o->stepsPerSample,
                  "Steps per timed repetition" + app::defaultText(o->stepsPerSample))
      ->check(app::integerIn(1, 1000000));
  cmd->add_option("--warmup", o->warmup,
                  "Untimed steps before timing; for counting and fast rounded up to whole sort intervals, at least 3 "
                  "(the first launches one by one, the next two record the CUDA graphs the timed steps replay)" +
                      app::defaultText(o->warmup))
      ->check(app::integerIn(0, 1000000));
  cmd->add_option("--seed", o->seed, "Seed of the random start" + app::defaultText(o->seed))
      ->check(app::kNonNegativeInteger);
  cmd->add_flag("--thrust-gather", o->thrustGather, "coherent-gather reshuffles with thrust::gather (rows say method coherent-gather+thrust)");
  cmd->add_option("--csv", o->csv, "CSV output file" + app::defaultText(o->csv))->check(app::kFileName);
  cmd->callback([o, cmd] {
    o->countsGiven = cmd->count("--n") > 0;
    o->repetitionsGiven = cmd->count("--reps") > 0;
    o->stepsGiven = cmd->count("--steps-per-rep") > 0;
    o->warmupGiven = cmd->count("--warmup") > 0;
    for (const auto& [flag, setting] : kSweptTuning)
      if (cmd->count(flag) > 0) o->sweepsGiven.push_back(flag);
    runBoidsBench(*o);
  });
}

}  // namespace flocklife::bench
