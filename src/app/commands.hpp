#pragma once
/// @file commands.hpp
/// Each subcommand of the flocklife executable registers itself on the CLI11 app. A command's
/// callback runs the job; errors are thrown (InputError, OutOfMemoryError, CudaError) and turned
/// into one message and an exit status by main().
#include <CLI/CLI.hpp>

#include <cstdint>

namespace flocklife::app {

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
  /// @throws InputError naming --repeat / --repeat-seconds: count < 1, seconds not finite or < 0,
  /// both given, or either given with --checkpoint (`withCheckpoint`).
  void validate(bool withCheckpoint) const;
  /// Adds --repeat and --repeat-seconds to `cmd`; `what` says what is checked after each run.
  void addOptions(CLI::App* cmd, const char* what);
};

/// One line per repetition of `--repeat` / `--repeat-seconds` (life, boids): "repeat r/n: <label>
/// V, checksum 0x..., S s, device memory free F bytes" ("repeat r:" when n is 0, i.e. not known in
/// advance; free from cudaMemGetInfo, "n/a" without a device), read by scripts/soak.sh to check
/// for drift and leaks.
void reportRepetition(int r, int n, const char* label, std::uint64_t value, std::uint64_t checksum, double seconds);

void addLifeCommand(CLI::App& app);
void addScanTestCommand(CLI::App& app);
void addBoidsCommand(CLI::App& app);
/// `bench fps boids|life` under the `bench` subcommand (cmd_fps.cpp).
void addFpsBench(CLI::App& bench);

}  // namespace flocklife::app
