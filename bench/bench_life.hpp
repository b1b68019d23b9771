#pragma once
/// @file bench_life.hpp
/// `flocklife bench life`: the Life kernel benchmark (bench_life.cpp).
#include <CLI/CLI.hpp>

namespace flocklife::bench {

/// Adds the `life` subcommand to the `bench` command.
void addLifeBenchCommand(CLI::App& bench);

}  // namespace flocklife::bench
