#pragma once
/// @file commands.hpp
/// Each subcommand of the flocklife executable registers itself on the CLI11 app. A command's
/// callback runs the job; errors are thrown (InputError, OutOfMemoryError, CudaError) and turned
/// into one message and an exit status by main().
#include <CLI/CLI.hpp>

#include <cstdint>

namespace flocklife::app {

/// One line per repetition of `--repeat` (life, boids): "repeat r/n: <label> V, checksum
/// 0x..., S s, device memory free F bytes" (free from cudaMemGetInfo; "n/a" without a device),
/// read by scripts/soak.sh to check for drift and leaks.
void reportRepetition(int r, int n, const char* label, std::uint64_t value, std::uint64_t checksum, double seconds);

void addLifeCommand(CLI::App& app);
void addScanTestCommand(CLI::App& app);
void addBoidsCommand(CLI::App& app);
/// `bench fps boids|life` under the `bench` subcommand (cmd_fps.cpp).
void addFpsBench(CLI::App& bench);

}  // namespace flocklife::app
