// `flocklife bench fps boids|life`: frames per second with and without the visualization, over a
// fixed window with the first seconds discarded (as in the boids article). Lives in the app
// because the visual path needs the window code (src/app); registered under `bench`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <utility>
#include <string>
#include <type_traits>
#include <vector>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "app/fps_stats.hpp"
#include "app/tuning_options.hpp"
#include "app/window_options.hpp"
#ifdef FLOCKLIFE_HAVE_WINDOW
#include "app/window_boids_sim.hpp"
#include "app/window_life.hpp"
#include "common/render/gl_context.hpp"
#endif
#include "bench_common.hpp"
#include "boids/boids.hpp"
#include "common/busy_cores.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/timer.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"
#include "life/rule.hpp"

namespace flocklife::app {

namespace {

struct FpsOptions {
  double seconds = 20, warmupSeconds = 3;
  std::string visual = "both", csv, backend;
  // boids: every method x every n is one configuration of the sweep
  std::vector<long long> ns{100000};
  std::vector<std::string> methods;
  long long naiveMax = 100000;  // largest --n for naive and cpu-naive (as bench boids --naive-max)
  boids::Params params;
  boids::Tuning tuning;
  TuningOptions tuningOptions;  // --cell-width, --block-size, --sort-every, --x-split, --staging-ratio: numbers or auto
  std::string points = "auto";  // --points of the window path
  // life: every kernel x every size is one configuration of the sweep
  std::vector<std::string> sizes{"4096x4096"}, kernels;
  double density = 0.5;
  long long gensPerFrame = 1;
  std::string windowSize = kDefaultWindowSize;
  bool quick = false;
  const CLI::Option* secondsOption = nullptr;
  const CLI::Option* warmupOption = nullptr;
  const CLI::Option* windowSizeOption = nullptr;
};

void validate(FpsOptions& o) {
  if (o.quick) {  // 3 s runs with 1 s warm-up, unless given explicitly
    if (!o.secondsOption->count()) o.seconds = 3;
    if (!o.warmupOption->count()) o.warmupSeconds = 1;
  }
  if (!std::isfinite(o.seconds) || o.seconds <= 0 || o.seconds > 3600)
    throw InputError("--seconds " + bench::fmt(o.seconds) + ": expected a number of seconds in (0, 3600]");
  if (!std::isfinite(o.warmupSeconds) || o.warmupSeconds < 0 || o.warmupSeconds >= o.seconds)
    throw InputError("--warmup-seconds " + bench::fmt(o.warmupSeconds) +
                     (o.warmupOption->count() ? "" : o.quick ? " (--quick's)" : " (the default)") +
                     ": expected 0 <= warm-up < --seconds (" + bench::fmt(o.seconds) + ")");
  if (o.gensPerFrame < 1) throw InputError("--gens-per-frame " + std::to_string(o.gensPerFrame) + ": expected >= 1");
  parseWindowSize(o.windowSize);
  if (o.visual == "off" && o.windowSizeOption->count())  // it was taken and written to the CSV
    throw InputError("--window-size " + o.windowSize +
                     " applies to the window path; drop it, or give --visual on or both");
#ifdef FLOCKLIFE_HAVE_WINDOW
  // An unreachable display was found at the first window run, after the steps-only rows.
  if (o.visual != "off" && render::haveDisplay()) render::requireDisplayOpens();
#endif
}

std::vector<bool> visualModes(const FpsOptions& o) {
  if (o.visual == "on") return {true};
  if (o.visual == "off") return {false};
  return {false, true};
}

/// The frame loop without GL: one `frame()` and a synchronisation per frame until the run ends,
/// progress.check() before and after each (a signal stops the sweep there: the --visual off runs
/// ended at once and without a word, the CSV's rows in an unnamed temporary file; a new user's
/// trial).
template <class Frame>
std::vector<double> runPlain(double seconds, const bench::Progress& progress, Frame&& frame) {
  std::vector<double> ends;
  HostTimer t;
  while (t.elapsedSeconds() < seconds) {
    progress.check();
    frame();
    progress.check();  // a frame a signal cut short (a CPU step abandoned) is not counted
    ends.push_back(t.elapsedSeconds());
  }
  return ends;
}

/// One --visual off frame of `generations` Life generations, in pieces (life::stepInPieces, `piece`
/// kept across a run's frames) with progress.check() (a signal) between them, so that Ctrl-C stops
/// a frame of many generations within a piece (a frame of 2e7 generations of a 64x64 world on the
/// CPU ran on for 55 s; a new user's trial).
void stepLifeFrame(life::Engine& engine, std::uint64_t generations, std::uint64_t& piece,
                   const bench::Progress& progress) {
  life::stepInPieces(engine, generations, piece, [&progress] {
    progress.check();  // throws on a signal
    return false;
  });
}

/// A note on stderr where a run's longest frame took longer than its measured window (--seconds
/// minus --warmup-seconds): a run ends only with its frame, so the row counts few frames (a new
/// user's --seconds 0.3 ran 6.1 s for one frame, without a word).
void noteLongFrames(const std::vector<double>& ends, const FpsOptions& o, const std::string& label) {
  double longest = 0, previous = 0;
  for (const double t : ends) {
    if (t > o.warmupSeconds) longest = std::max(longest, t - previous);  // a frame counted, not the warm-up's
    previous = t;
  }
  if (longest <= o.seconds - o.warmupSeconds) return;
  std::fprintf(stderr,
               "flocklife: note: %s: a frame took %.3g s, longer than the %.3g s measured (--seconds minus "
               "--warmup-seconds), and a run ends only with its frame (%zu frames in %.3g s); give a longer "
               "--seconds or less work per frame\n",
               label.c_str(), longest, o.seconds - o.warmupSeconds, ends.size(), previous);
}

WindowOptions benchWindow(const FpsOptions& o, std::vector<double>& ends) {
  WindowOptions w;
  w.window = true;
  w.noVsync = true;
  w.size = o.windowSize;
  w.stopAfterSeconds = o.seconds;
  w.frameEndSeconds = &ends;
  w.points = o.points;
  return w;
}

#ifndef FLOCKLIFE_HAVE_WINDOW
[[noreturn]] void noWindow() {
  throw InputError("--visual on: this build has no window support (GLFW, glm, EGL or python3-glad were not found at "
                   "configure time); use --visual off");
}
#endif

void report(bench::CsvWriter* csv, const std::vector<std::string>& params, bool visual, const FpsStats& s,
            const std::string& label) {
  std::printf("%-44s %-6s %10.1f %10.1f %10.1f %10.1f %8lld %8.2f\n", label.c_str(), visual ? "on" : "off", s.mean,
              s.median, s.min, s.max, (long long)s.frames, s.seconds);
  if (!csv) return;
  std::vector<std::string> row = params;
  row.insert(row.begin() + 1, visual ? "on" : "off");
  for (double v : {s.mean, s.median, s.min, s.max, s.seconds}) row.push_back(bench::fmt(v, bench::kCsvDigits));
  row.push_back(std::to_string(s.frames));
  csv->row(row);
}

const std::vector<std::string> kColumns = {
    "mode",     "visual",  "method",   "n",           "scale",      "cell_width", "block_size",
    "size",     "gens_per_frame",      "staging_ratio", "sort_every", "x_split", "points",    "window_size",
    "group_radius", "fps_mean", "fps_median", "fps_min", "fps_max", "seconds", "frames"};

void printHeader() {
  std::printf("%-44s %-6s %10s %10s %10s %10s %8s %8s\n", "configuration", "visual", "fps_mean", "fps_median", "fps_min",
              "fps_max", "frames", "seconds");
}

/// One boids configuration: `--visual` modes in turn, each from the same random start (seed 1).
void runBoidsConfig(const FpsOptions& o, const std::string& method, long long n, const std::optional<DeviceInfo>& dev,
                    const std::string& backend, bench::CsvWriter* csv, bench::Progress& progress) {
  const boids::Tuning tuning = o.tuningOptions.resolve(o.tuning, method, std::size_t(n), o.params);
  const bool onCuda = backend == "cuda";
  const boids::State start = boids::randomState(std::size_t(n), o.params, 1);
  // What the method runs with; blank where it ignores the setting (usedTuning).
  const UsedTuning used = usedTuning(boids::findMethod(method), std::size_t(n), o.params, tuning);
  auto cell = [](const auto& v) -> std::string {
    if (!v) return "";
    if constexpr (std::is_integral_v<std::decay_t<decltype(*v)>>)
      return std::to_string(*v);
    else
      return bench::settingText(*v);
  };
  const std::vector<std::string> params = {"boids", method, std::to_string(n), bench::settingText(o.params.scale),
                                           cell(used.cellWidth), cell(used.blockSize), "",
                                           "1", cell(used.stagingRatio), cell(used.sortEvery),
                                           cell(used.xSplit), o.points, o.windowSize, cell(used.groupRadius)};
  const std::string label = "boids " + method + " n=" + std::to_string(n);
  for (const bool visual : visualModes(o)) {
    progress.tick(label + (visual ? " --visual on" : " --visual off"));
    std::vector<double> ends;
    if (!visual) {  // each mode makes its own simulation, freed before the next (10M boids: ~0.7 GB)
      const auto sim = boids::makeSimulation(method, o.params, tuning);
      sim->load(start);
      sim->synchronize();
      ends = runPlain(o.seconds, progress, [&] {  // a signal abandons a CPU step; runPlain's check stops
        sim->stepUntilStopped(1, progress.stopQuery());
        sim->synchronize();
      });
    } else {
#ifdef FLOCKLIFE_HAVE_WINDOW
      SimulationBoidsSource source(method, o.params, tuning, start, 1, o.tuningOptions);
      runBoidsWindow(benchWindow(o, ends), source, onCuda && dev ? dev->index : -1);
#else
      noWindow();
#endif
    }
    noteLongFrames(ends, o, label + (visual ? " --visual on" : " --visual off"));
    report(csv, params, visual, fpsFromFrameTimes(ends, o.warmupSeconds), label);
  }
}

void runBoidsFps(FpsOptions o) {
  validate(o);
  boids::validate(o.params);
  o.tuningOptions.applyGiven(o.tuning);
  boids::validate(o.tuning);
  for (long long n : o.ns) boids::validateCount(n);
  std::string why;
  const auto dev = usableDevice(&why);
  // Unknown names and other backends fail before any run.
  const std::string backend = boidsBackend(o.backend, o.methods, dev.has_value(), why);
  if (o.points != "auto" && o.visual == "off")  // it was taken and written to the CSV's points column
    throw InputError("--points " + o.points + " applies to the window path; drop it, or give --visual on or both");
  if (o.points == "splat" && backend != "cuda")
    throw InputError("--points splat: needs the CUDA backend (CUDA-OpenGL interop); use --points gl or auto");
  if (dev && backend == "cuda") requireBlockSizeFits(o.tuning, *dev);  // before the first run
  if (o.methods.empty()) o.methods = {backend == "cuda" ? "fast" : "cpu-grid"};
  // A tuning flag that no listed method uses is refused, as flocklife boids refuses one its method
  // does not use (it was ignored without a word; found by a new user's trial). Where some method of
  // the list uses it, the others run without it and their CSV cell stays blank.
  for (std::size_t k = 0; k < o.methods.size(); ++k) {
    try {
      refuseUnusedTuning(boids::findMethod(o.methods[k]), o.tuningOptions, o.tuning.thrustGather);
      break;  // this method uses every tuning flag given
    } catch (const InputError&) {
      if (k + 1 == o.methods.size()) throw;  // none does: the last one's refusal
    }
  }
  // The methods without a grid (naive, cpu-naive) test every pair of boids: cpu-naive at 200,000
  // boids took minutes a frame, and a run ends only with its frame (Ctrl-C was the only way out).
  for (const auto& m : o.methods)
    for (long long n : o.ns)
      if (boids::findMethod(m).walk == boids::GridWalk::None && n > o.naiveMax)
        throw InputError("--n " + std::to_string(n) + ": " + m + " tests every pair of boids (" +
                         bench::fmt(double(n) * double(n)) + " per step), and a run ends only with its frame; " +
                         "expected --n at most --naive-max " + std::to_string(o.naiveMax) +
                         " for it (give a larger --naive-max to run it anyway)");
  // The model's arithmetic for each N, before any run (flocklife boids checks it before its random
  // start): bench fps boids sets only --scale, and runs the default --max-speed and --dt.
  // Then each N's random start and each method's copies of it in host memory, as flocklife boids
  // counts them (the start alone was counted, and a review found the check reached only with its
  // run, after the earlier ones).
  for (long long n : o.ns) {
    boids::checkArithmetic(o.params, std::size_t(n), o.params.maxSpeed,
                           "--n " + std::to_string(n) + " at --scale " + bench::fmt(o.params.scale) +
                               " (bench fps boids runs the default --max-speed and --dt)");
    for (const auto& m : o.methods) {
      boids::requireStartHostMemory(std::size_t(n), boids::findMethod(m), "--n " + std::to_string(n));
      // The grid each run would make (a --cell-width too small for it was refused after the table's
      // header; a tester's trial).
      const boids::MethodInfo& info = boids::findMethod(m);
      boids::derive(o.params, o.tuningOptions.resolve(o.tuning, m, std::size_t(n), o.params),
                    info.walk != boids::GridWalk::None);
    }
  }
  std::unique_ptr<bench::CsvWriter> csv;
  if (!o.csv.empty()) csv = std::make_unique<bench::CsvWriter>(o.csv, kColumns);
  if (backend != "cuda") noteIfCoresBusy();  // a busy machine's CPU frame rates mislead
  printHeader();
  // Counts the runs and stops the sweep on a signal; no bar (the rows are the progress).
  bench::Progress progress(o.methods.size() * o.ns.size() * visualModes(o).size(), false);
  for (const auto& method : o.methods)
    for (long long n : o.ns) runBoidsConfig(o, method, n, dev, backend, csv.get(), progress);
  progress.done();
  if (csv) csv->finish();
}

/// Parses one `--size` item WIDTHxHEIGHT (parseDimensions; each side in [1, 2^40]).
std::pair<std::int64_t, std::int64_t> parseWorldSize(const std::string& size) {
  return parseDimensions(size, "--size", std::int64_t(life::kMaxCells), "2^40", "4096x4096");
}

/// One Life configuration: `--visual` modes in turn, each from the same random soup (seed 1).
void runLifeConfig(const FpsOptions& o, const std::string& kernel, const std::string& size,
                   const std::optional<DeviceInfo>& dev, bench::CsvWriter* csv, bench::Progress& progress) {
  const auto [w, h] = parseWorldSize(size);
  const auto& info = life::findKernel(kernel);
  const life::World start = life::randomSoup(w, h, o.density, 1);
  const std::vector<std::string> params = {"life", kernel, "", "", "", "", size, std::to_string(o.gensPerFrame), "", "",
                                           "", "", o.windowSize, ""};
  const std::string label = "life " + kernel + " " + size + " g/f=" + std::to_string(o.gensPerFrame);
  for (const bool visual : visualModes(o)) {
    progress.tick(label + (visual ? " --visual on" : " --visual off"));
    std::vector<double> ends;
    if (!visual) {
      auto engine = life::makeEngine(kernel, life::kConway, {});
      engine->load(start);
      engine->synchronize();
      std::uint64_t piece = 1;
      ends = runPlain(o.seconds, progress,
                      [&] { stepLifeFrame(*engine, std::uint64_t(o.gensPerFrame), piece, progress); });
    } else {
#ifdef FLOCKLIFE_HAVE_WINDOW
      runLifeWindow(benchWindow(o, ends), {life::kConway, start, kernel, {}, std::uint64_t(o.gensPerFrame), o.density,
                                           1, info.backend == life::Backend::Cuda && dev ? dev->index : -1});
#else
      (void)info;
      noWindow();
#endif
    }
    noteLongFrames(ends, o, label + (visual ? " --visual on" : " --visual off"));
    report(csv, params, visual, fpsFromFrameTimes(ends, o.warmupSeconds), label);
  }
}

void runLifeFps(FpsOptions o) {
  validate(o);
  life::requireDensity(o.density);  // before the CSV is opened (found by a new user's trial)
  std::set<std::pair<std::int64_t, std::int64_t>> seen;  // by value: "064x64" is 64x64 (it ran twice)
  for (const auto& size : o.sizes) {  // every size before the first run (2^40 cells at most)
    const auto [w, h] = parseWorldSize(size);
    life::requireWorldSize(w, h);
    if (!seen.insert({w, h}).second)
      throw InputError("--size: '" + size + "' is given twice (" + std::to_string(w) + "x" + std::to_string(h) +
                       "); expected each item once");
  }
  std::string why;
  const auto dev = usableDevice(&why);
  if (o.kernels.empty()) {
    const std::string backend = !o.backend.empty() ? o.backend : dev ? "cuda" : "cpu";
    if (backend == "cuda" && !dev) throw InputError("--backend cuda: " + why);
    if (!dev && o.backend.empty()) std::fprintf(stderr, "flocklife: note: %s; using the CPU backend\n", why.c_str());
    o.kernels = {backend == "cuda" ? "fast" : "cpu-bitsliced"};
  }
  for (const auto& kernel : o.kernels)  // --backend checked as flocklife life checks it (found by a review)
    if (life::findKernelOn(kernel, o.backend).backend == life::Backend::Cuda && !dev)
      throw InputError("--kernel " + kernel + " needs a CUDA device: " + why);
  std::unique_ptr<bench::CsvWriter> csv;
  if (!o.csv.empty()) csv = std::make_unique<bench::CsvWriter>(o.csv, kColumns);
  if (std::any_of(o.kernels.begin(), o.kernels.end(), life::spinsCpuThreads))
    noteIfCoresBusy();  // a busy machine's CPU frame rates mislead
  printHeader();
  // Counts the runs and stops the sweep on a signal; no bar (the rows are the progress).
  bench::Progress progress(o.kernels.size() * o.sizes.size() * visualModes(o).size(), false);
  for (const auto& kernel : o.kernels)
    for (const auto& size : o.sizes) runLifeConfig(o, kernel, size, dev, csv.get(), progress);
  progress.done();
  if (csv) csv->finish();
}

void addCommon(CLI::App* cmd, FpsOptions& o) {
  o.secondsOption = cmd->add_option("--seconds", o.seconds, "Length of each run in seconds, warm-up included (default 20)");
  o.warmupOption =
      cmd->add_option("--warmup-seconds", o.warmupSeconds, "Frames ending in the first S seconds are discarded (default 3)");
  cmd->add_flag("--quick", o.quick, "--seconds 3 --warmup-seconds 1 (unless given)");
  cmd->add_option("--visual", o.visual, "on (window path; headless EGL without DISPLAY, vsync off), off (steps only), "
                                        "or both (default)")
      ->check(CLI::IsMember({"on", "off", "both"}));
  cmd->add_option("--csv", o.csv, "Write one CSV row per run (mode, visual, parameters, fps_mean, ...)")
      ->check(kFileName);
  cmd->add_option("--backend", o.backend, "cpu or cuda (default: cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  o.windowSizeOption = cmd->add_option("--window-size", o.windowSize,
                                       "Frame size WIDTHxHEIGHT of the visual runs" + defaultText(kDefaultWindowSize));
}

}  // namespace

void addFpsBench(CLI::App& bench) {
  auto o = std::make_shared<FpsOptions>();   // boids
  auto lo = std::make_shared<FpsOptions>();  // life
  auto* fps = bench.add_subcommand("fps", "Frames per second with and without the visualization (as in the boids article)");
  fps->require_subcommand(1);
  auto* b = fps->add_subcommand("boids", "FPS of a boids method");
  addCommon(b, *o);
  b->add_option("--n", o->ns, "Numbers of boids, comma-separated (default 100000)")->delimiter(',');
  b->add_option("--method", o->methods, "Boids methods, comma-separated (default: fast on cuda, cpu-grid on cpu)")
      ->delimiter(',')
      ->check(nonEmpty("a method name"));
  b->add_option("--scale", o->params.scale,
                "Half the side of the cube [-scale, scale]^3" + defaultText(o->params.scale))
      ->check(kFloatValue);
  o->tuningOptions.add(b);
  b->add_option("--naive-max", o->naiveMax,
                "Largest --n for naive and cpu-naive, which test every pair of boids (a larger one is refused, "
                "as a frame can take minutes)" + defaultText(o->naiveMax))
      ->check(integerIn(0, 9223372036854775807LL));
  b->add_option("--points", o->points,
                "Window path: gl, splat or auto (as flocklife boids --points; default auto)")
      ->check(CLI::IsMember({"gl", "splat", "auto"}));
  b->callback([o] { runBoidsFps(*o); });
  auto* l = fps->add_subcommand("life", "FPS of a Life kernel (rule B3/S23, random soup)");
  addCommon(l, *lo);
  l->add_option("--size", lo->sizes, "World sizes WIDTHxHEIGHT, comma-separated (default 4096x4096)")->delimiter(',');
  l->add_option("--random", lo->density, "Density of the random soup in [0, 1] (default 0.5)");
  l->add_option("--kernel", lo->kernels, "Life kernels, comma-separated (default: fast on cuda, cpu-bitsliced on cpu)")
      ->delimiter(',')
      ->check(nonEmpty("a kernel name"));
  l->add_option("--gens-per-frame", lo->gensPerFrame, "Generations per frame (default 1)");
  l->callback([lo] { runLifeFps(*lo); });
}

}  // namespace flocklife::app
