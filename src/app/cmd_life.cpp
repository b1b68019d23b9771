// `flocklife life`: run a Life-like rule on a torus, from a pattern file or a random soup.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "app/long_run.hpp"
#include "common/busy_cores.hpp"
#include "common/checkpoint_io.hpp"
#include "app/window_life.hpp"
#include "app/window_options.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "common/timer.hpp"
#include "life/checkpoint.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"

namespace flocklife::app {

namespace {

struct LifeOptions {
  std::string pattern;
  double density = -1;
  std::uint64_t seed = 1;
  std::string size;
  std::string offset;
  std::string rule;
  std::int64_t gens = 0;
  std::string backend;
  std::string kernel;
  std::string out;
  bool json = false;
  bool listKernels = false;
  std::vector<std::string> givenFlags;  ///< the flags given, but --list-kernels and --backend
  std::string checkpoint, resume;
  std::uint64_t every = 0;
  Repeat repeat;
  // Which options were given (filled from CLI11 before running).
  bool haveRandom = false, haveSeed = false, haveGens = false, haveEvery = false, haveRule = false;
  WindowOptions window;
};

/// --size "WxH" -> {W, H}, each in [1, 2^40] (the world's own check bounds the product).
std::pair<std::int64_t, std::int64_t> parseSize(const std::string& s) {
  return parseDimensions(s, "--size", std::int64_t(life::kMaxCells), "2^40", "256x256");
}

/// "X,Y" -> {X, Y}: two integers, digits with an optional '-' and nothing else (no spaces, no
/// '+'); taken modulo the torus.
std::pair<std::int64_t, std::int64_t> parseOffset(const std::string& s) {
  const auto whole = [](const char* first, const char* last, std::int64_t& v) {
    const auto [end, ec] = std::from_chars(first, last, v);
    return first != last && ec == std::errc() && end == last;
  };
  const auto c = s.find(',');
  std::int64_t x = 0, y = 0;
  if (c == std::string::npos || !whole(s.data(), s.data() + c, x) || !whole(s.data() + c + 1, s.data() + s.size(), y))
    throw InputError("--offset '" + printable(s) +
                     "': expected X,Y (the world cell of the pattern's top-left corner, integers without spaces), "
                     "e.g. 10,20");
  return {x, y};
}

/// The kernels of this build, of `backend` only when given ("cpu" or "cuda").
void listKernels(const std::string& backend) {
  for (const auto& k : life::availableKernels())
    if (backend.empty() || backend == life::backendName(k.backend))
      std::printf("%-14s %-5s %s\n", k.name.c_str(), life::backendName(k.backend), k.description.c_str());
  std::string why;
  if (backend != "cpu" && !usableDevice(&why)) std::printf("(the cuda kernels cannot run here: %s)\n", why.c_str());
}

/// Backend and kernel from --backend / --kernel and the machine.
std::pair<std::string, std::string> chooseKernel(const LifeOptions& o) {
  std::string why;
  const bool device = usableDevice(&why).has_value();
  std::string backend = o.backend;
  if (!o.kernel.empty()) {
    backend = life::backendName(life::findKernelOn(o.kernel, backend).backend);
  } else if (backend.empty()) {
    backend = device ? "cuda" : "cpu";
    if (!device) std::fprintf(stderr, "flocklife: note: %s; using the CPU backend\n", why.c_str());
  }
  if (backend == "cuda" && !device)
    throw InputError((o.backend.empty() ? "--kernel " + o.kernel + " needs a CUDA device: " : std::string("--backend cuda: ")) + why);
  const std::string kernel = !o.kernel.empty() ? o.kernel : backend == "cuda" ? "fast" : "cpu-bitsliced";
  return {backend, kernel};
}

/// Advances `engine` from generation `gen` to `target` through runCheckpointed (batches; with
/// --checkpoint, checkpoints every --every generations and on Ctrl-C); `repetition` as there.
/// Returns the seconds spent writing checkpoints, which the run's time leaves out. `startId`: the
/// run's start digest (life::startDigest), which each checkpoint carries.
double advance(life::Engine& engine, const life::Rule& rule, std::uint64_t gen, std::uint64_t target,
               std::uint64_t startId, const LifeOptions& o, int repetition) {
  return runCheckpointed(engine, gen, target, o.every, o.checkpoint, "generation", repetition, [&](std::uint64_t g) {
    life::saveCheckpoint(o.checkpoint, {engine.world(), rule, g, startId});
  });
}

/// The rule of --rule; an invalid one is an InputError naming the flag.
life::Rule parseRuleFlag(const std::string& text) {
  try {
    return life::Rule::parse(text);
  } catch (const InputError& e) {
    throw InputError(std::string("--rule: ") + e.what());
  }
}

void runLife(const LifeOptions& o) {
  if (o.listKernels) {  // the other flags would be ignored (found by a new user's trial: --kernel bogus was)
    if (!o.givenFlags.empty()) {
      std::string flags;
      for (const auto& f : o.givenFlags) flags += (flags.empty() ? "" : ", ") + f;
      throw InputError("--list-kernels lists the kernels and exits, so " + flags + " would be ignored; expected "
                       "--list-kernels alone, or with --backend cpu|cuda");
    }
    listKernels(o.backend);
    return;
  }
  // Pure flag logic, before anything is read or allocated (and before a build without a window says so).
  refuseWithWindow(o.window, {{"--checkpoint", !o.checkpoint.empty()},
                              {"--repeat", o.repeat.active()},
                              {"--out", !o.out.empty()},
                              {"--json", o.json}});
  o.repeat.validate(!o.checkpoint.empty());
  // First: a window flag without --window says so, not "--gens N is required".
  validateWindowOptions(o.window, {{"--pattern", o.pattern}, {"--resume", o.resume}});
  if (o.window.enabled() && o.haveGens && o.gens == 0)
    throw InputError("--gens 0: with a window --gens is the generations per frame; expected >= 1 (space pauses)");
  if (o.haveEvery && o.checkpoint.empty()) throw InputError("--every applies to --checkpoint only");
  if (o.haveEvery && o.every == 0) throw InputError("--every 0: expected a number of generations >= 1");
  if (!o.resume.empty()) {
    if (!o.pattern.empty() || o.haveRandom || o.haveSeed || !o.size.empty() || !o.offset.empty() || o.haveRule)
      throw InputError("--resume " + o.resume +
                       ": the world, its size and its rule come from the checkpoint; drop --pattern, --random, --seed, "
                       "--size, --offset and --rule");
  }
  const bool havePattern = !o.pattern.empty();
  if (o.resume.empty() && havePattern == o.haveRandom)
    throw InputError(havePattern ? "--pattern and --random exclude each other; give one of them"
                                 : "no initial world: give --pattern FILE or --random DENSITY");
  if (o.haveSeed && !o.haveRandom) throw InputError("--seed applies to --random only");
  if (!o.offset.empty() && !havePattern) throw InputError("--offset applies to --pattern only");
  if (!o.haveGens && !o.window.enabled())
    throw InputError("--gens N is required (the number of generations to run; with --resume, the generation to reach)");
  checkRunFiles(o.out, o.checkpoint, o.resume, o.pattern, "--pattern");
  if (!o.out.empty()) requireExtension(o.out, "--out", {".rle", ".cells"}, ".rle (RLE) or .cells (plaintext)", true);
  if (!o.checkpoint.empty()) refuseCheckpointNamedAsOutput(o.checkpoint, {".rle", ".cells"}, "a pattern file");
  const CheckpointLock checkpointLock(o.checkpoint);  // held to the end of the run; before the file is read
  refuseReplacingOtherFile(o.checkpoint, kLifeCheckpointMagic, "flocklife life", o.resume);
  refuseReplacingCheckpoint(o.out, "--out");
  // Every flag's value, before a checkpoint or pattern is read and the world allocated.
  const auto sizeGiven = o.size.empty() ? std::nullopt : std::optional(parseSize(o.size));
  const auto offset = o.offset.empty() ? std::nullopt : std::optional(parseOffset(o.offset));
  const auto ruleGiven = o.haveRule ? std::optional(parseRuleFlag(o.rule)) : std::nullopt;
  const auto [backend, kernel] = chooseKernel(o);  // last: it may print a note on the backend
  noteWrittenInPlace(o.out, o.checkpoint);

  std::optional<life::LifeCheckpoint> resumed;
  if (!o.resume.empty()) {
    resumed = loadForResume([&] { return life::loadCheckpoint(o.resume); });
    // With a window --gens is the generations per frame (as boids' window takes no step to reach).
    if (!o.window.enabled() && std::uint64_t(o.gens) < resumed->generation)
      throw InputError("--gens " + std::to_string(o.gens) + ": the checkpoint " + o.resume + " is already at generation " +
                       std::to_string(resumed->generation) + "; expected --gens >= that (the generation to reach)");
  }
  // The run holds the start and final worlds (a byte per cell each) and the kernel's own state:
  // checked whole before the start world is made (the world's own check counts one copy), and
  // for a pattern from its header already, before its cells are read (a 52-byte file declaring
  // 100000x100000 made 10 GB of cells before its 400000^2 world was refused). A checkpoint's world
  // (the start) or a pattern's cells (freed once placed) are in memory already, so the memory
  // available has dropped by them: `heldBytes` are not counted twice.
  const life::KernelInfo& info = life::findKernel(kernel);
  const auto requireRunMemory = [&](std::int64_t w, std::int64_t h, double heldBytes, const char* held) {
    life::requireWorldSize(w, h);
    std::ostringstream footprint;
    footprint << "life on a " << w << "x" << h << " torus with " << kernel << " (start and final worlds, 1 byte per cell each";
    const std::uint64_t kernelBytes = info.hostStateBytes(w, h);
    if (info.hostState == life::KernelInfo::HostState::BytePerCell)
      footprint << ", and the kernel's two generations, 2 bytes per cell";
    else if (info.hostState == life::KernelInfo::HostState::BitPerCell)
      footprint << ", and the kernel's two generations, a bit per cell in rows of whole 8-byte words: " << kernelBytes
                << " bytes";
    if (heldBytes > 0) footprint << ", less the " << held << " already read";
    footprint << ")";
    requireHostMemory(std::uint64_t(2 * double(w) * double(h) + double(kernelBytes) - heldBytes), footprint.str());
  };
  std::optional<life::Pattern> pattern;
  if (havePattern)
    pattern = life::loadPattern(o.pattern, sizeGiven, [&](const life::Pattern& header) {
      if (sizeGiven) return requireRunMemory(sizeGiven->first, sizeGiven->second, 0, "");
      // A size the user never chose is said as the file's: it named neither (a new user's trial).
      const auto [w, h] = life::defaultWorldSize(header, o.pattern);
      const std::string whose =
          o.pattern + ": " +
          (header.torus ? "its torus (:T), " : "with no :T in the file and no --size, the torus is " +
                                                  std::to_string(life::kPatternRoom) + " times the pattern's sides (" +
                                                  std::to_string(header.width) + "x" + std::to_string(header.height) +
                                                  " in its header), at least 64, rounded up to a multiple of 64: ") +
          std::to_string(w) + "x" + std::to_string(h) + ", which does not fit: ";
      try {
        requireRunMemory(w, h, 0, "");
      } catch (const OutOfMemoryError& e) {
        throw OutOfMemoryError(whose + e.what() + "; --size WIDTHxHEIGHT sets the torus");
      } catch (const InputError& e) {
        throw InputError(whose + e.what() + "; --size WIDTHxHEIGHT sets the torus");
      }
    });
  if (!ruleGiven && pattern && pattern->rule && pattern->rule->hasB0()) {
    // Golly emulates B0 rules and saves the state it runs (Golly Help, QuickLife, "Emulating B0
    // rules"): with S8 its complementary rule on the complemented state, always; without S8 two
    // rules in turn, the complement at odd generations (found by a new user's trial with bgolly).
    // Said, with what runs such a file as Golly does where there is one.
    const life::Rule& r = *pattern->rule;
    if (r.hasS8()) {
      const life::Rule golly = r.complemented();
      std::fprintf(stderr,
                   "flocklife: note: %s: rule %s has B0 and S8, and its cells are read as that rule's own state; Golly "
                   "saves such patterns complemented (it runs %s on the complement), so for a file Golly wrote give "
                   "--rule %s\n",
                   o.pattern.c_str(), r.str().c_str(), golly.str().c_str(), golly.str().c_str());
    } else if (!pattern->generation.empty() && (pattern->generation.back() - '0') % 2 == 1) {
      std::fprintf(stderr,
                   "flocklife: note: %s: rule %s has B0 without S8, and the file's #CXRLE Gen=%s is odd: Golly saves "
                   "such a pattern complemented at odd generations; its cells are read here as they are, as "
                   "generation 0\n",
                   o.pattern.c_str(), r.str().c_str(), printable(pattern->generation).c_str());
    }
  }
  const life::Rule rule = resumed ? resumed->rule
                          : ruleGiven ? *ruleGiven
                          : pattern && pattern->rule ? *pattern->rule
                                                     : life::kConway;
  if (ruleGiven && pattern && pattern->rule && !(*ruleGiven == *pattern->rule))  // it was replaced without a word
    std::fprintf(stderr, "flocklife: note: --rule %s replaces the rule of %s (%s)\n", ruleGiven->str().c_str(),
                 o.pattern.c_str(), pattern->rule->str().c_str());
  std::pair<std::int64_t, std::int64_t> size;
  if (resumed)
    size = {resumed->world.width(), resumed->world.height()};
  else if (sizeGiven) {
    size = *sizeGiven;
    if (pattern && pattern->torus && *pattern->torus != size)  // said, as below: Golly would run the file's torus
      std::fprintf(stderr, "flocklife: note: --size %lldx%lld replaces the %lldx%lld torus of %s (its :T)\n",
                   (long long)size.first, (long long)size.second, (long long)pattern->torus->first,
                   (long long)pattern->torus->second, o.pattern.c_str());
  } else if (pattern) {
    size = life::defaultWorldSize(*pattern, o.pattern);
    if (!pattern->torus)  // said, since the torus changes how the pattern evolves
      std::fprintf(stderr,
                   "flocklife: note: %s gives no torus (:T) and --size was not given: a %lldx%lld torus (%lld times the "
                   "pattern's sides, at least 64, rounded up to a multiple of 64; --size sets another)\n",
                   o.pattern.c_str(), (long long)size.first, (long long)size.second, (long long)life::kPatternRoom);
  } else
    throw InputError("--random needs --size WIDTHxHEIGHT");
  const auto [w, h] = size;
  refuseReplacingAnotherRun(o.checkpoint, "flocklife life", life::kCheckpointGenerationAt, life::kCheckpointStartAt,
                            "generation",
                            life::checkpointHeader(std::uint64_t(w), std::uint64_t(h), std::uint64_t(o.gens), rule, 0),
                            "another world size or rule", o.resume);
  requireRunMemory(w, h, resumed ? double(w) * double(h) : pattern ? double(pattern->cells.size()) : 0.0,
                   resumed ? "checkpoint's world" : "pattern's cells");

  std::uint64_t outsideTorus = 0;  // live cells Pos put beyond the file's own torus (placePattern)
  const life::World start =
      resumed ? std::move(resumed->world) : pattern ? life::placePattern(*pattern, w, h, offset, &outsideTorus)
              : life::randomSoup(w, h, o.density, o.seed);
  if (outsideTorus)
    std::fprintf(stderr, "flocklife: note: %s\n", life::outsideTorusNote(*pattern, o.pattern, outsideTorus).c_str());
  pattern.reset();  // placed: its cells (up to the world's count) are not held through the run
  // The start's digest, which each checkpoint carries (a resumed run keeps the first run's), and a
  // checkpoint of another start at this run's end refused (another --seed replaced it: a tester).
  const std::uint64_t startId = resumed ? resumed->start : o.checkpoint.empty() ? 0 : life::startDigest(start);
  refuseReplacingAnotherStart(
      o.checkpoint, "flocklife life", life::kCheckpointStartAt, "generation", life::kCheckpointGenerationAt,
      life::checkpointHeader(std::uint64_t(w), std::uint64_t(h), std::uint64_t(o.gens), rule, startId),
      resumed ? "the run that --resume " + o.resume + " continues began elsewhere"
              : std::string("another --seed, --random density or --pattern"),
      o.resume);
  // Once the input is read (a bad one gets its error alone).
  if (life::spinsCpuThreads(kernel)) noteIfCoresBusy();
#ifdef FLOCKLIFE_HAVE_WINDOW
  if (o.window.enabled()) {
    const auto dev = usableDevice();
    runLifeWindow(o.window, {rule, start, kernel, {}, o.haveGens ? std::uint64_t(o.gens) : 1,
                             o.haveRandom ? o.density : 0.5, o.seed, dev && backend == "cuda" ? dev->index : -1,
                             resumed ? resumed->generation : 0});
    return;
  }
#endif
  const std::uint64_t startGen = resumed ? resumed->generation : 0;
  life::World end;
  double seconds = 0, saving = 0;
  std::uint64_t firstChecksum = 0;
  HostTimer sinceFirst;
  const RepeatStop stop(o.repeat);
  for (int r = 1; o.repeat.runs(r, sinceFirst.elapsedSeconds()); ++r) {  // the whole job again, engine created afresh
    stop.check(r);
    auto engine = life::makeEngine(kernel, rule, {});
    engine->load(start);
    engine->synchronize();
    HostTimer t;
    saving = advance(*engine, rule, startGen, std::uint64_t(o.gens), startId, o, o.repeat.active() ? r : 0);
    engine->synchronize();
    seconds = t.elapsedSeconds() - saving;  // the rate of the generations, not of the disk (a tester's trial)
    end = engine->world();
    if (!o.repeat.active()) break;
    engine.reset();
    const std::uint64_t checksum = fnv1a64(end.cells().data(), end.cells().size());
    if (r == 1) firstChecksum = checksum;
    reportRepetition(summaryStream(o.out), r, o.repeat.planned(), "population", end.population(), checksum, seconds,
                     backend == "cuda");
    if (checksum != firstChecksum)
      throw std::runtime_error("--repeat: repetition " + std::to_string(r) + " ended in a different world than repetition 1");
  }
  const double cups = seconds > 0 ? double(end.cellCount()) * double(std::uint64_t(o.gens) - startGen) / seconds : 0.0;
  std::ostringstream source;
  if (resumed)
    source << "checkpoint " << o.resume << " at generation " << startGen;
  else if (havePattern)
    source << o.pattern;
  else
    source << "random " << o.density << " seed " << o.seed;
  if (!o.out.empty()) {
    life::savePattern(o.out, end, rule,
                      {"generation " + std::to_string(o.gens) + " of " + rule.str() + " on a " + std::to_string(w) + "x" +
                           std::to_string(h) + " torus from " + source.str() + ", written by flocklife"});
    if (!life::isPlaintextPath(o.out) && rule.hasB0() && rule.hasS8())  // the read side's note, at writing
      std::fprintf(stderr,
                   "flocklife: note: --out %s: rule %s has B0 and S8; flocklife reads the file's cells back as they "
                   "are, but Golly takes such a file's cells as the complement of the world (it saves such patterns "
                   "complemented and runs %s on them), so Golly runs another world from it\n",
                   o.out.c_str(), rule.str().c_str(), rule.complemented().str().c_str());
    if (life::isPlaintextPath(o.out)) {  // the format has no header: say what it loses
      const std::string flags = "--size " + std::to_string(w) + "x" + std::to_string(h) +
                                (rule == life::kConway ? std::string() : " --rule " + rule.str());
      std::fprintf(stderr,
                   "flocklife: note: --out %s: plaintext keeps the cells of the whole torus but neither its size nor "
                   "its rule; read it back with %s (an .rle file keeps both)\n",
                   o.out.c_str(), flags.c_str());
    }
  }
  const std::string ran = describeRun(bool(resumed), startGen, std::uint64_t(o.gens), "generation");
  std::FILE* const summary = summaryStream(o.out);
  std::fprintf(summary, "%s on %lldx%lld torus, %s with %s (%s): population %llu, %.3f s, %.3g cell updates/s\n",
              rule.str().c_str(), (long long)w, (long long)h, ran.c_str(), kernel.c_str(), backend.c_str(),
              (unsigned long long)end.population(), seconds, cups);
  if (!o.checkpoint.empty())
    std::fprintf(summary, "checkpoints written in %.3f s, left out of the time above\n", saving);
  if (o.json) {
    nlohmann::json j{{"generations", o.gens}, {"start_generation", startGen}, {"population", end.population()},
                     {"width", w}, {"height", h}, {"rule", rule.str()}, {"backend", backend}, {"kernel", kernel},
                     {"seconds", seconds}, {"cell_updates_per_second", cups}, {"source", source.str()}};
    // A file name need not be UTF-8: such bytes become U+FFFD instead of an exception.
    std::fprintf(summary, "%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
}

}  // namespace

void addLifeCommand(CLI::App& app) {
  auto opts = std::make_shared<LifeOptions>();
  auto* cmd = app.add_subcommand("life", "Run a Life-like cellular automaton on a torus");
  cmd->add_option("--pattern", opts->pattern, "Start from this pattern file (.rle, or .cells plaintext)")->check(kFileName);
  auto* random = cmd->add_option("--random", opts->density, "Start from a random soup with this density of live cells, in [0, 1]");
  auto* seed = cmd->add_option("--seed", opts->seed, "Seed of the random soup (default 1)")->check(kNonNegativeInteger);
  cmd->add_option("--size", opts->size, "World size WIDTHxHEIGHT (default: the pattern's :T torus, else 4 times its sides, at least 64, rounded up to a multiple of 64)")
      ->check(nonEmpty("WIDTHxHEIGHT"));
  cmd->add_option("--offset", opts->offset,
                  "World cell X,Y of the pattern's top-left corner, taken modulo the torus (e.g. 100 on a width of "
                  "64 is 36; -5 is 59) (default: centred as Golly does)")
      ->check(nonEmpty("X,Y"));
  auto* rule = cmd->add_option("--rule", opts->rule, "Rule in B/S notation, e.g. B36/S23 (default: the pattern's rule, else B3/S23)");
  auto* gens = cmd->add_option("--gens", opts->gens,
                               "Generations to run (required; with --resume: the generation to reach; with --window, "
                               "--resume or not: generations per frame, default 1)")
                   ->check(kNonNegativeInteger)
                   ->type_name("UINT");
  cmd->add_option("--backend", opts->backend, "cpu or cuda (default: cuda when a device is usable, else cpu)")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_option("--kernel", opts->kernel,
                  "Kernel name (see --list-kernels; default: fast on cuda, cpu-bitsliced on cpu)")
      ->check(nonEmpty("a kernel name"));
  cmd->add_option("--out", opts->out, "Write the final torus to this file (.rle, or .cells plaintext; - for RLE on standard output, the summary then on standard error)")->check(kFileName);
  cmd->add_flag("--json", opts->json, "Print one JSON object as the last line");
  cmd->add_flag("--list-kernels", opts->listKernels, "List the kernels of this build (of --backend only, when given) and exit");
  cmd->add_option("--checkpoint", opts->checkpoint,
                  "Save the state to this file (atomically) at the end, every --every generations and on Ctrl-C")
      ->check(kFileName);
  auto* every = cmd->add_option("--every", opts->every,
                                "Generations between checkpoints (with --checkpoint; default: only at the end and on "
                                "Ctrl-C)")
                    ->check(kNonNegativeInteger);
  cmd->add_option("--resume", opts->resume, "Continue from this checkpoint; --gens is the generation to reach")->check(kFileName);
  opts->repeat.addOptions(cmd, "printing population, checksum (and, on the GPU, free device memory) after each "
                               "(soak test; fails if a run ends in a different world)");
  addWindowOptions(cmd, opts->window, WindowSubject::Life);
  cmd->callback([cmd, opts, random, seed, gens, every, rule] {
    for (const CLI::Option* opt : cmd->get_options())
      if (opt->count() > 0 && opt->get_name() != "--list-kernels" && opt->get_name() != "--backend")
        opts->givenFlags.push_back(opt->get_name());
    opts->haveRule = rule->count() > 0;
    opts->haveEvery = every->count() > 0;
    opts->haveRandom = random->count() > 0;
    opts->haveSeed = seed->count() > 0;
    opts->haveGens = gens->count() > 0;
    runLife(*opts);
  });
}

}  // namespace flocklife::app
