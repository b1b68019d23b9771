#pragma once
/// @file bench_commands.hpp
/// `flocklife bench <life|boids|scan>`: each benchmark registers itself under the bench command.
#include <CLI/CLI.hpp>

namespace flocklife::bench {

/// Adds the `bench` subcommand and its benchmarks to `app`.
void addBenchCommand(CLI::App& app);

}  // namespace flocklife::bench
