#pragma once
/// @file bench_boids.hpp
/// `flocklife bench boids`: ms per step of every boids method over boid counts, block sizes and
/// cell widths, in two series (classic scene scale and constant density).
#include <CLI/CLI.hpp>

#include <vector>

namespace flocklife::boids {
class Simulation;
}

namespace flocklife::bench {

/// Adds `boids` under the `bench` subcommand.
void addBoidsBench(CLI::App& bench);

#ifdef FLOCKLIFE_HAVE_CUDA
/// Milliseconds per step of a loaded GPU simulation: `warmup` untimed steps, then `repetitions`
/// samples of `stepsPerSample` steps each, timed with CUDA events on the default stream
/// (bench_boids_gpu.cu). @throws CudaError.
std::vector<double> gpuStepMs(boids::Simulation& sim, int warmup, int repetitions, int stepsPerSample);
#endif

}  // namespace flocklife::bench
