#pragma once
/// @file long_run.hpp
/// Long runs of `flocklife life` and `flocklife boids`: checkpoints every K generations or steps
/// with Ctrl-C saving a final one (--checkpoint/--every), and repeating a whole job in one process
/// for soak tests (--repeat/--repeat-seconds).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/timer.hpp"

namespace flocklife::app {

namespace detail {
template <class Runner, class = void>
struct StopsWithinAStep : std::false_type {};
template <class Runner>
struct StopsWithinAStep<Runner, std::void_t<decltype(std::declval<Runner&>().stepUntilStopped(
                                     std::uint64_t(), std::function<bool()>()))>> : std::true_type {};
}  // namespace detail

/// runner.stepUntilStopped(n, stop) where the runner has it (boids::Simulation, whose CPU methods
/// abandon a step when `stop` answers true), else runner.step(n): the steps or generations completed.
template <class Runner>
std::uint64_t stepUnlessStopped(Runner& runner, std::uint64_t n, const std::function<bool()>& stop) {
  if constexpr (detail::StopsWithinAStep<Runner>::value) {
    return runner.stepUntilStopped(n, stop);
  } else {
    runner.step(n);
    return n;
  }
}

/// Advances `runner` (a life::Engine or boids::Simulation: step(n), synchronize(), and where it has
/// one stepUntilStopped) from position `pos` (generation or step; `unit` names it in messages) to
/// `target`, in batches, each followed by synchronize(), that double while a batch takes under
/// 0.2 s; SIGINT/SIGTERM/SIGHUP is checked between batches, and within a step of a boids CPU method
/// (stepUnlessStopped), which a signal abandons. With a checkpoint path, `save(p)` writes the
/// checkpoint at position p: batches also end
/// on every multiple of `every` (0: none), where a checkpoint is written, and at `target`, after
/// which the signal is checked again (a signal that arrives while it is written is not lost).
/// `repetition`: the run's number under --repeat / --repeat-seconds (which refuse --checkpoint), 0
/// for a single run. Returns the seconds spent in `save`, which a run's time and rate leave out (3
/// steps of 200,000 boids with a checkpoint each read 4.6 steps/s against 7.4 without: a tester's
/// trial).
/// @throws InputError when a save fails: its error, then "; the run stopped at <unit> P of
///         <target>, and --checkpoint <path> holds this run's last save, at <unit> L" (at the end,
///         "; the run reached its end, <unit> P, but --checkpoint <path> ..."; before the first
///         save "is as it was before the run", or "was not written" where there was no file;
///         ", written in place, may be damaged" for a link).
/// @throws Interrupted when a signal arrived ("interrupted by signal S at <unit> P of <target>; ..."):
///         after saving, naming `checkpoint`; without one, saying that nothing was written (and how
///         --checkpoint would have kept the state); in repeated run R, "... of <target> in repeated
///         run R; nothing was written, and nothing more was run".
template <class Runner, class Save>
double runCheckpointed(Runner& runner, std::uint64_t pos, std::uint64_t target, std::uint64_t every,
                       const std::string& checkpoint, const char* unit, int repetition, Save&& save) {
  InterruptFlag interrupt;
  const bool saving = !checkpoint.empty();
  double savingSeconds = 0;
  // A save that fails (a full disk) says where the run stopped and what the file holds (a tester
  // had to work it out); OutputFile keeps the file whole unless it writes it in place.
  const bool inPlace = saving && !inPlaceHazard(checkpoint).what.empty();
  std::error_code ec;
  const bool existed = saving && std::filesystem::exists(checkpoint, ec);
  std::optional<std::uint64_t> lastSaved;
  const auto timedSave = [&](std::uint64_t p) {
    HostTimer t;
    try {
      save(p);
    } catch (const InputError& e) {
      const std::string at = std::string(unit) + " " + std::to_string(p);
      throw InputError(std::string(e.what()) +
                       (p == target ? "; the run reached its end, " + at + ", but --checkpoint "
                                    : "; the run stopped at " + at + " of " + std::to_string(target) +
                                          ", and --checkpoint ") +
                       checkpoint +
                       (inPlace     ? ", written in place, may be damaged"
                        : lastSaved ? " holds this run's last save, at " + std::string(unit) + " " +
                                          std::to_string(*lastSaved)
                        : existed   ? " is as it was before the run"
                                    : " was not written"));
    }
    lastSaved = p;
    savingSeconds += t.elapsedSeconds();
  };
  std::uint64_t batch = 1;
  while (pos < target) {
    std::uint64_t n = std::min(batch, target - pos);
    if (saving && every) n = std::min(n, every - pos % every);
    HostTimer t;
    const std::uint64_t done = stepUnlessStopped(runner, n, [&interrupt] { return interrupt.raised(); });
    runner.synchronize();
    pos += done;
    if (t.elapsedSeconds() < 0.2 && batch < (std::uint64_t(1) << 40)) batch *= 2;
    if (interrupt.raised()) break;
    if (saving && every && pos % every == 0 && pos < target) timedSave(pos);
  }
  if (saving) timedSave(pos);
  if (interrupt.raised())
    throw Interrupted("interrupted by signal " + std::to_string(interrupt.signal()) + " at " + unit + " " +
                          std::to_string(pos) + " of " + std::to_string(target) +
                          (saving       ? "; state saved to --checkpoint " + checkpoint + " (continue with --resume " +
                                        checkpoint + ")"
                           : repetition ? " in repeated run " + std::to_string(repetition) +
                                              "; nothing was written, and nothing more was run"
                                        : "; nothing was written (--checkpoint FILE saves a long run's state when it "
                                          "is interrupted)"),
                      interrupt.signal());
  return savingSeconds;
}

/// `--repeat N` / `--repeat-seconds S` of life and boids (soak tests): the whole job runs again
/// in the same process, engine or simulation created afresh each time.
struct Repeat {
  int count = 1;       ///< --repeat N: exactly N runs (>= 1)
  double seconds = 0;  ///< --repeat-seconds S (> 0): runs until S seconds have passed since the first
                       ///< started, at least two, so that the length holds on a busy GPU too
  /// More than one run.
  bool active() const { return count > 1 || seconds > 0; }
  /// Whether run r (1-based) starts, `elapsed` seconds after the first one started.
  bool runs(int r, double elapsed) const { return seconds > 0 ? r <= 2 || elapsed < seconds : r <= count; }
  /// Total runs when known in advance (--repeat), else 0.
  int planned() const { return seconds > 0 ? 0 : count; }
  /// @throws InputError naming --repeat / --repeat-seconds: both given, or either given with
  /// --checkpoint (`withCheckpoint`). Their values are checked as the options are read (addOptions).
  void validate(bool withCheckpoint) const;
  /// Adds --repeat and --repeat-seconds to `cmd`; `what` says what is checked after each run.
  void addOptions(CLI::App* cmd, const char* what);

 private:
  const CLI::Option* countOption_ = nullptr;  ///< --repeat, once added: given even as 1
};

/// Holds an InterruptFlag across the runs of --repeat / --repeat-seconds (none for a single run), so
/// that a signal between two runs' checkpointed advances, or while a run's result is checked and
/// reported, is kept for the next check instead of being cleared by the next run's flag (found by
/// a new user's trial: a SIGTERM was lost in about 7 % of tries and the run went on to its end).
class RepeatStop {
 public:
  explicit RepeatStop(const Repeat& repeat) {
    if (repeat.active()) flag_.emplace();
  }
  /// Before run r: @throws Interrupted "interrupted by signal S before repeated run r; nothing more
  ///         was run" when a signal arrived.
  void check(int r) const {
    if (flag_ && flag_->raised())
      throw Interrupted("interrupted by signal " + std::to_string(flag_->signal()) + " before repeated run " +
                            std::to_string(r) + "; nothing more was run",
                        flag_->signal());
  }

 private:
  std::optional<InterruptFlag> flag_;
};

/// What a run made, for its summary line: "<target> <unit>s" ("1 <unit>" for one), or for a run
/// resumed from a checkpoint at `start`, "<unit>s <start> to <target> (<target - start> run)", the
/// part whose rate the summary prints. `unit` is singular ("generation", "step").
std::string describeRun(bool resumed, std::uint64_t start, std::uint64_t target, const char* unit);

/// One line per repetition (life, boids): "repeat r/n: <label> V, checksum 0x..., S s" and, for a
/// run on the CUDA device (`onDevice`), ", device memory free F bytes" (free from cudaMemGetInfo);
/// "repeat r:" when n is 0, i.e. not known in advance, printed to `to` (summaryStream). Read by
/// scripts/soak.sh to check for drift and leaks.
void reportRepetition(std::FILE* to, int r, int n, const char* label, std::uint64_t value, std::uint64_t checksum, double seconds,
                      bool onDevice);

}  // namespace flocklife::app
