#include "bench_boids.hpp"
#include "boids/boids.hpp"
#include "common/cuda_timer.cuh"

namespace flocklife::bench {

std::vector<double> gpuStepMs(boids::Simulation& sim, int warmup, int repetitions, int stepsPerSample) {
  sim.step(std::uint64_t(warmup));
  sim.synchronize();
  EventTimer t;
  std::vector<double> ms;
  for (int r = 0; r < repetitions; ++r) {
    t.start();
    sim.step(std::uint64_t(stepsPerSample));
    t.stop();
    ms.push_back(double(t.elapsedMs()) / stepsPerSample);
  }
  return ms;
}

}  // namespace flocklife::bench
