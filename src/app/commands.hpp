#pragma once
/// @file commands.hpp
/// Each subcommand of the flocklife executable registers itself on the CLI11 app. A command's
/// callback runs the job; errors are thrown (InputError, OutOfMemoryError, CudaError) and turned
/// into one message and an exit status by main().
#include <CLI/CLI.hpp>

#include <cstdint>

namespace flocklife::app {

void addLifeCommand(CLI::App& app);
void addScanTestCommand(CLI::App& app);
void addBoidsCommand(CLI::App& app);
/// `bench fps boids|life` under the `bench` subcommand (cmd_fps.cpp).
void addFpsBench(CLI::App& bench);

}  // namespace flocklife::app
