// `flocklife boids`: run a boids simulation with any method, optionally from / to a CSV state.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "app/tuning_options.hpp"
#include "app/long_run.hpp"
#include "common/busy_cores.hpp"
#include "app/window_options.hpp"
#ifdef FLOCKLIFE_HAVE_WINDOW
#include "app/window_boids_sim.hpp"
#endif
#include "boids/boids.hpp"
#include "boids/checkpoint.hpp"
#include "common/checkpoint_io.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "common/timer.hpp"

namespace flocklife::app {

namespace {

/// A float as JSON by its shortest decimal form that reads back as the same float (2.475, where
/// the float widened to double printed 2.4749999046325684; found by a new user's trial).
nlohmann::json floatJson(float f) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, f).ptr;
  return std::strtod(std::string(buf, end).c_str(), nullptr);
}

/// v as JSON (floats by floatJson), or null when it is empty.
template <class T>
nlohmann::json nullable(const std::optional<T>& v) {
  if (!v) return nullptr;
  if constexpr (std::is_same_v<T, float>) return floatJson(*v);
  return nlohmann::json(*v);
}

struct BoidsOptions {
  long long n = 5000;
  std::string method;
  std::uint64_t steps = 100;
  std::uint64_t seed = 1;
  std::string backend;
  bool json = false;
  std::string out, in;
  boids::Params params;
  boids::Tuning tuning;
  TuningOptions tuningOptions;  ///< --cell-width, --block-size, --sort-every, --x-split, --staging-ratio: numbers or auto
  const CLI::Option* nOption = nullptr;
  std::string checkpoint, resume;
  std::uint64_t every = 0;
  Repeat repeat;
  const CLI::Option* everyOption = nullptr;
  const CLI::Option* seedOption = nullptr;
  const CLI::Option* stepsOption = nullptr;
  std::vector<const CLI::Option*> modelOptions;  ///< --scale, --rule*, --max-speed, --dt, --periodic
  WindowOptions window;
};

/// Runs `sim` from step `step` to `target` through runCheckpointed (batches; with --checkpoint,
/// checkpoints every --every steps and on Ctrl-C); `repetition` as there. Returns the seconds spent
/// writing checkpoints, which the run's time leaves out.
/// `startId`: the run's start digest (boids::startDigest), which each checkpoint carries.
double advance(boids::Simulation& sim, const boids::Params& params, std::uint64_t step, std::uint64_t target,
               std::uint64_t startId, const BoidsOptions& o, int repetition) {
  return runCheckpointed(sim, step, target, o.every, o.checkpoint, "step", repetition, [&](std::uint64_t s) {
    boids::saveCheckpoint(o.checkpoint, {params, sim.state(), s, startId});
  });
}

void runBoids(BoidsOptions o) {
  // Pure flag logic, before anything is read or allocated (and before a build without a window says so).
  refuseWithWindow(o.window, {{"--checkpoint", !o.checkpoint.empty()},
                              {"--repeat", o.repeat.active()},
                              {"--out", !o.out.empty()},
                              {"--json", o.json},
                              {"--steps", o.stepsOption->count() > 0}});
  o.repeat.validate(!o.checkpoint.empty());
  if (o.everyOption->count() && o.checkpoint.empty()) throw InputError("--every applies to --checkpoint only");
  if (o.everyOption->count() && o.every == 0) throw InputError("--every 0: expected a number of steps >= 1");
  checkRunFiles(o.out, o.checkpoint, o.resume, o.in, "--in");
  if (!o.out.empty()) requireExtension(o.out, "--out", {".csv"}, ".csv (x,y,z,vx,vy,vz rows)", true);
  if (!o.checkpoint.empty()) refuseCheckpointNamedAsOutput(o.checkpoint, {".csv"}, "a CSV of boids");
  const CheckpointLock checkpointLock(o.checkpoint);  // held to the end of the run; before the file is read
  refuseReplacingOtherFile(o.checkpoint, kBoidsCheckpointMagic, "flocklife boids", o.resume);
  refuseReplacingCheckpoint(o.out, "--out");
  o.tuningOptions.applyGiven(o.tuning);  // tuning flags first: the checkpoint may be large
  boids::validate(o.tuning);
  // As life: every flag before a checkpoint or --in is read.
  validateWindowOptions(o.window, {{"--in", o.in}, {"--resume", o.resume}});
  std::optional<boids::BoidsCheckpoint> resumed;
  if (!o.resume.empty()) {
    bool model = false;
    for (const auto* opt : o.modelOptions) model = model || opt->count() > 0;
    if (model || o.nOption->count() || o.seedOption->count() || !o.in.empty())
      throw InputError("--resume " + o.resume +
                       ": the boids and the model parameters come from the checkpoint; drop --n, --in, --seed, "
                       "--scale, --rule*, --max-speed, --dt and --periodic");
    // As life's --gens: without a window the step to reach is given, never the default 100.
    if (!o.stepsOption->count() && !o.window.enabled())
      throw InputError("--resume " + o.resume + ": --steps N is required (the step to reach)");
    resumed = loadForResume([&] { return boids::loadCheckpoint(o.resume); });
    if (!o.window.enabled() && o.steps < resumed->step)
      throw InputError("--steps " + std::to_string(o.steps) + ": the checkpoint " + o.resume + " is already at step " +
                       std::to_string(resumed->step) + "; expected --steps >= that (the step to reach)");
    o.params = resumed->params;
  }
  boids::validate(o.params);
  if (!resumed && o.in.empty())
    boids::validateCount(o.n);
  else if (!resumed && o.nOption->count())
    throw InputError("--n and --in: give one of them (the number of boids comes from the file)");
  if (!resumed && !o.in.empty() && o.seedOption->count() && !o.window.enabled())
    throw InputError("--seed and --in: the boids come from the file; --seed seeds only a random start (and, with "
                     "--window, the random restarts of the R key)");

  std::string why;
  const auto dev = usableDevice(&why);
  const std::string backend =
      boidsBackend(o.backend, o.method.empty() ? std::vector<std::string>{} : std::vector<std::string>{o.method},
                   dev.has_value(), why);
  const std::string method = o.method.empty() ? (backend == "cuda" ? "fast" : "cpu-grid") : o.method;
  const boids::MethodInfo& info = boids::findMethod(method);
  const bool methodOnCuda = info.backend == boids::Backend::Cuda;
  if (dev && methodOnCuda) requireBlockSizeFits(o.tuning, *dev);
  if (!o.window.enabled()) refuseUnusedTuning(info, o.tuningOptions, o.tuning.thrustGather);
  noteWrittenInPlace(o.out, o.checkpoint);

  boids::State start;
  const auto refuseOtherRun = [&o](std::size_t n) {  // before a random start is made
    refuseReplacingAnotherRun(o.checkpoint, "flocklife boids", boids::kCheckpointStepAt, boids::kCheckpointStartAt,
                              "step", boids::checkpointHeader(o.params, n, std::uint64_t(o.steps), 0),
                              "other parameters or another boid count", o.resume);
  };
  if (resumed) {
    start = std::move(resumed->state);
  } else if (o.in.empty()) {
    refuseOtherRun(std::size_t(o.n));
    boids::checkArithmetic(o.params, std::size_t(o.n), o.params.maxSpeed, "the random start");  // before allocating
    // The start and the method's copies of it in host memory, counted before any is made (found by
    // a review: 4e8 boids passed a check of one copy, then ran out).
    boids::requireStartHostMemory(std::size_t(o.n), info, "--n " + std::to_string(o.n));
    start = boids::randomState(std::size_t(o.n), o.params, o.seed);
  } else {
    std::vector<std::size_t> lines;
    start = boids::readCsv(o.in, &lines);
    boids::checkFits(start, o.params, "--in " + o.in, &lines);
  }
  if (resumed || !o.in.empty()) {  // the method's copies, as the random start counts them (a new user's trial)
    refuseOtherRun(start.size());
    const std::uint64_t perBoid = boids::hostBytesPerBoid(info);
    requireHostMemory(std::uint64_t(start.size()) * perBoid,
                      (resumed ? "--resume " + o.resume : "--in " + o.in) + ": " + method + "'s copies of its " +
                          std::to_string(start.size()) + " boids (" + std::to_string(perBoid) + " bytes per boid)");
  }
  // The start's digest, which each checkpoint carries (a resumed run keeps the first run's), and a
  // checkpoint of another start at this run's end refused (another --seed replaced it: a tester).
  const std::uint64_t startId = resumed ? resumed->start : o.checkpoint.empty() ? 0 : boids::startDigest(start);
  refuseReplacingAnotherStart(o.checkpoint, "flocklife boids", boids::kCheckpointStartAt, "step",
                              boids::kCheckpointStepAt,
                              boids::checkpointHeader(o.params, start.size(), std::uint64_t(o.steps), startId),
                              resumed ? "the run that --resume " + o.resume + " continues began elsewhere"
                                      : std::string("another --seed or --in"),
                              o.resume);
  if (resumed && o.method.empty())  // it ran the default silently (found by a new user's trial)
    std::fprintf(stderr,
                 "flocklife: note: --resume %s: a checkpoint holds the boids, the step and the model, not the method: "
                 "this run uses %s, and continues the first run bit for bit only with that run's --method and tuning "
                 "flags\n",
                 o.resume.c_str(), method.c_str());
  o.tuning = o.tuningOptions.resolve(o.tuning, method, start.size(), o.params);
  // The expected neighbours per boid, and the settings the method runs with (usedTuning; the sort
  // interval only for the methods that take one), each marked where auto chose it.
  const UsedTuning used = usedTuning(info, start.size(), o.params, o.tuning);
  if (used.cellWidth && !o.tuningOptions.widthAuto()) {
    // A given width far finer than auto's: every step clears and scans every cell (found by a new
    // user's trial: --cell-width 0.04 for 1,000 boids took 7.8 GB and 40 s a step). Said, not refused.
    const boids::Derived d = boids::derive(o.params, o.tuning);
    const double cells = double(d.resolution) * d.resolution * d.xResolution;
    // Far finer: past the GPU's cap, whatever the method (the CPU's half a cell per boid would say it
    // of widths that run well there, such as 1 for 100K boids at scale 100).
    if (cells > boids::maxAutoCells(start.size(), boids::Backend::Cuda))
      std::fprintf(stderr,
                   "flocklife: note: --cell-width %g makes %.3g cells for %zu boids (%.3g per boid), and every step "
                   "clears and scans them all; auto picks %g here\n",
                   double(o.tuning.cellWidth), cells, start.size(), cells / double(start.size()),
                   double(boids::autoTuning(info, start.size(), o.params).cellWidth));
  }
  const TuningOptions& to = o.tuningOptions;
  const bool sorts = info.takesSortEvery;
  {
    std::string said;
    auto say = [&](const std::string& what, bool isAuto) {
      said += (said.empty() ? "" : ", ") + what + (isAuto ? " (auto)" : "");
    };
    auto g = [](double v) {
      char s[32];
      std::snprintf(s, sizeof s, "%g", v);
      return std::string(s);
    };
    if (used.cellWidth) say("cell width " + g(*used.cellWidth), to.widthAuto());
    if (used.blockSize) say("block size " + std::to_string(*used.blockSize), to.blockAuto());
    if (sorts)
      say(*used.sortEvery == 1 ? std::string("sort every step")
                               : "sort every " + std::to_string(*used.sortEvery) + " steps",
          to.sortAuto());
    if (used.xSplit) say("x split " + std::to_string(*used.xSplit), to.splitAuto());
    if (used.stagingRatio) say("staging ratio " + g(*used.stagingRatio), to.ratioAuto());
    if (used.groupRadius && *used.groupRadius > 0) say("boid groups of radius " + g(*used.groupRadius), true);
    std::fprintf(stderr, "flocklife: %s, %zu boid%s, %.3g expected neighbours each%s%s\n", method.c_str(), start.size(),
                 start.size() == 1 ? "" : "s", boids::expectedNeighbours(start.size(), o.params),
                 said.empty() ? "" : ": ", said.c_str());
  }
  if (!methodOnCuda) noteIfCoresBusy();  // once the input is read: a bad one gets its error alone
#ifdef FLOCKLIFE_HAVE_WINDOW
  if (o.window.enabled()) {  // the window's source makes the one simulation
    SimulationBoidsSource source(method, o.params, o.tuning, start, o.seed, o.tuningOptions);
    runBoidsWindow(o.window, source, methodOnCuda && dev ? dev->index : -1);
    return;
  }
#endif
  std::unique_ptr<boids::Simulation> sim = boids::makeSimulation(method, o.params, o.tuning);
  const std::uint64_t startStep = resumed ? resumed->step : 0;
  double seconds = 0, saving = 0;
  HostTimer sinceFirst;
  const RepeatStop stop(o.repeat);
  for (int r = 1; o.repeat.runs(r, sinceFirst.elapsedSeconds()); ++r) {  // the whole job again, simulation afresh
    stop.check(r);
    if (r > 1) {
      sim.reset();  // freed before the next one is made, so free device memory is comparable
      sim = boids::makeSimulation(method, o.params, o.tuning);
    }
    sim->load(start);
    sim->synchronize();
    HostTimer t;
    saving = advance(*sim, o.params, startStep, o.steps, startId, o, o.repeat.active() ? r : 0);
    sim->synchronize();
    seconds = t.elapsedSeconds() - saving;  // the rate of the steps, not of the disk (a tester's trial)
    if (!o.repeat.active()) break;
    const boids::State end = sim->state();
    // Float sums in neighbour order: GPU methods need not repeat bit for bit, so the check is the
    // model's invariants; the checksum is printed for scripts/soak.sh to compare.
    boids::checkFits(end, o.params, "--repeat " + std::to_string(r) + ": final state");
    // The speed clamp holds once a step has run (a start from --in may be faster; found by a review).
    for (std::size_t i = 0; o.steps > startStep && i < end.size(); ++i) {
      const boids::Vec3 v = end.vel[i];
      if (std::sqrt(double(v.x) * v.x + double(v.y) * v.y + double(v.z) * v.z) > double(o.params.maxSpeed) * (1 + 1e-5))
        throw std::runtime_error("--repeat " + std::to_string(r) + ": boid " + std::to_string(i + 1) + " of " +
                                 std::to_string(end.size()) + " is faster than --max-speed");
    }
    std::uint64_t checksum = fnv1a64(end.pos.data(), end.size() * sizeof(boids::Vec3));
    checksum ^= fnv1a64(end.vel.data(), end.size() * sizeof(boids::Vec3)) * 31;
    reportRepetition(summaryStream(o.out), r, o.repeat.planned(), "boids", end.size(), checksum, seconds, methodOnCuda);
  }
  const double stepsPerSecond = seconds > 0 ? double(o.steps - startStep) / seconds : 0.0;
  const std::size_t n = sim->numBoids();
  const std::string ran = describeRun(bool(resumed), startStep, o.steps, "step");
  // The output first: a write that fails is then the run's one message, with no summary of success
  // before it (found by a new user's trial); life writes its --out first too.
  if (!o.out.empty()) boids::writeCsv(o.out, sim->state());
  std::FILE* const summary = summaryStream(o.out);
  std::fprintf(summary, "%zu boid%s, %s with %s (%s%s): %.3f s, %.1f steps/s, %.3g boid updates/s\n", n, n == 1 ? "" : "s",
              ran.c_str(), method.c_str(), backend.c_str(), o.params.periodic ? ", periodic" : "", seconds,
              stepsPerSecond, stepsPerSecond * double(n));
  if (!o.checkpoint.empty())
    std::fprintf(summary, "checkpoints written in %.3f s, left out of the time above\n", saving);
  const std::size_t inGroups = sim->boidsInGroups();
  if (inGroups > 0)
    std::fprintf(summary, "boid groups: %zu of the %zu boids (%.1f %%) in the last sorting step\n", inGroups, n,
                100.0 * double(inGroups) / double(n));
  if (o.json) {
    nlohmann::json j{{"n", n},
                     {"method", method},
                     {"backend", backend},
                     {"steps", o.steps},
                     {"start_step", startStep},
                     {"seconds", seconds},
                     {"steps_per_second", stepsPerSecond},
                     {"periodic", o.params.periodic},
                     {"scale", floatJson(o.params.scale)},
                     // What the method ran with; null where it ignores the setting (usedTuning).
                     {"cell_width", nullable(used.cellWidth)},
                     {"block_size", nullable(used.blockSize)},
                     {"staging_ratio", nullable(used.stagingRatio)},
                     {"sort_every", nullable(used.sortEvery)},
                     {"x_split", nullable(used.xSplit)},
                     {"group_radius", nullable(used.groupRadius)},
                     // Boids whose neighbour sums the group kernel computed in the last step that
                     // formed boid groups (0: none).
                     {"boids_in_groups", inGroups}};
    // A file name need not be UTF-8: such bytes become U+FFFD instead of an exception.
    std::fprintf(summary, "%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
}

}  // namespace

void addBoidsCommand(CLI::App& app) {
  auto o = std::make_shared<BoidsOptions>();
  auto* cmd = app.add_subcommand("boids", "Run a Reynolds boids simulation");
  std::string methods;
  for (const auto& m : boids::availableMethods()) methods += (methods.empty() ? "" : ", ") + m.name;
  o->nOption = cmd->add_option("--n", o->n, "Number of boids (random start; default 5000)");
  auto model = [&o](CLI::Option* opt) {
    o->modelOptions.push_back(opt);
    return opt;
  };
  cmd->add_option("--method", o->method, "Method: " + methods + " (default: fast on cuda, cpu-grid on cpu)")
      ->check(nonEmpty("a method name"));
  o->stepsOption = cmd->add_option("--steps", o->steps, "Steps to run (default 100; with --resume: the step to reach, required)")->check(kNonNegativeInteger);
  o->seedOption =
      cmd->add_option("--seed", o->seed, "Seed of the random start" + defaultText(o->seed))
          ->check(kNonNegativeInteger);
  cmd->add_option("--backend", o->backend, "cpu or cuda (default: cuda when a device is usable)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  o->tuningOptions.add(cmd);
  cmd->add_flag("--thrust-gather", o->tuning.thrustGather, "coherent-gather: reshuffle with thrust::gather");
  model(cmd->add_flag("--periodic", o->params.periodic, "Neighbourhoods wrap across the cube's faces (a 3-torus); positions wrap in both modes: a boid leaving through a face comes back through the opposite one"));
  // A model parameter (float): help text with its default, and remembered for --resume's check.
  const auto modelOption = [&](const char* flag, float& value, const std::string& what) {
    model(cmd->add_option(flag, value, what + defaultText(value))->check(kFloatValue));
  };
  modelOption("--scale", o->params.scale, "Half the side of the cube [-scale, scale]^3");
  modelOption("--rule1-distance", o->params.rule1Distance, "Cohesion radius");
  modelOption("--rule2-distance", o->params.rule2Distance, "Separation radius");
  modelOption("--rule3-distance", o->params.rule3Distance, "Alignment radius");
  modelOption("--rule1-scale", o->params.rule1Scale, "Cohesion strength");
  modelOption("--rule2-scale", o->params.rule2Scale, "Separation strength");
  modelOption("--rule3-scale", o->params.rule3Scale, "Alignment strength");
  modelOption("--max-speed", o->params.maxSpeed, "Maximum speed in world units per time unit");
  modelOption("--dt", o->params.dt, "Time step in time units per step");
  cmd->add_option("--out", o->out, "Write the final state as CSV x,y,z,vx,vy,vz (- for standard output, the summary then on standard error)")->check(kFileName);
  cmd->add_option("--in", o->in, "Start from a CSV state x,y,z,vx,vy,vz (header line first)")
      ->check(kFileName);
  cmd->add_flag("--json", o->json, "Print one JSON object as the last line");
  cmd->add_option("--checkpoint", o->checkpoint,
                  "Save the state to this file (atomically) at the end, every --every steps and on Ctrl-C")
      ->check(kFileName);
  o->everyOption = cmd->add_option("--every", o->every,
                                   "Steps between checkpoints (with --checkpoint; default: only at the end and on "
                                   "Ctrl-C)")
                       ->check(kNonNegativeInteger);
  cmd->add_option("--resume", o->resume, "Continue from this checkpoint; --steps is the step to reach")->check(kFileName);
  o->repeat.addOptions(cmd, "checking the model's invariants and printing a checksum (and, on the GPU, free "
                           "device memory) after each (soak test)");
  addWindowOptions(cmd, o->window, WindowSubject::Boids);
  cmd->callback([o] { runBoids(*o); });
}

}  // namespace flocklife::app
