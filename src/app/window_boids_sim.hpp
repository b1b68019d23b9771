#pragma once
/// @file window_boids_sim.hpp
/// Adapter from the boids module (boids/boids.hpp: Simulation, makeSimulation, randomState) to
/// the boids window's BoidsSource. Included by cmd_boids.cpp only (the app is the one target that
/// links both the window and the boids module; modules never see each other).
/// Keys 1..9 pick the 1st..9th method of availableMethods() on the running method's backend;
/// the current state carries over. +/- and R restart from randomState(n, params, seed). With
/// tuningOptions, the cell width, block size, sort interval and x split it leaves to auto are chosen again
/// for the new method or number of boids (boids::autoTuning), as `flocklife boids` chose them at
/// the start.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/tuning_options.hpp"
#include "app/window_boids.hpp"
#include "boids/boids.hpp"
#include "common/errors.hpp"

namespace flocklife::app {

class SimulationBoidsSource final : public BoidsSource {
 public:
  SimulationBoidsSource(const std::string& method, const boids::Params& params, const boids::Tuning& tuning,
                        boids::State start, std::uint64_t seed, std::optional<TuningOptions> tuningOptions = {})
      : params_(params), tuning_(tuning), seed_(seed), tuningOptions_(std::move(tuningOptions)) {
    sim_ = boids::makeSimulation(method, params_, tuned(method, start.size()));
    sim_->load(start);
  }
  std::int64_t numBoids() const override { return std::int64_t(sim_->numBoids()); }
  float scale() const override { return params_.scale; }
  bool step(const std::function<bool()>& stop) override { return sim_->stepUntilStopped(1, stop) == 1; }
  void reset() override { sim_->load(boids::randomState(sim_->numBoids(), params_, seed_)); }
  bool setMethod(int oneBased) override {
    const std::vector<const boids::MethodInfo*> same = sameBackend();
    if (oneBased < 1 || oneBased > int(same.size())) return false;
    const boids::State now = sim_->state();
    const std::string& name = same[std::size_t(oneBased - 1)]->name;
    sim_ = boids::makeSimulation(name, params_, tuned(name, now.size()));
    sim_->load(now);
    return true;
  }
  int methodCount() const override { return int(sameBackend().size()); }
  std::string methodName() const override { return sim_->info().name; }
  void setNumBoids(std::int64_t n) override {
    boids::validateCount(n);
    const std::string name = sim_->info().name;
    // Counted as flocklife boids counts its start, with the window's vertices (6 floats a boid)
    // where they go through the host (the + key skipped the check, and an allocation that failed
    // ended the window and its recording; a new user's trial).
    const bool viaHost = !writesDevice();
    boids::requireStartHostMemory(std::size_t(n), sim_->info(), std::to_string(n) + " boids",
                                  viaHost ? 6 * sizeof(float) : 0, viaHost ? "the window's vertices" : "");
    boids::State start = boids::randomState(std::size_t(n), params_, seed_);  // throws before any change
    const boids::State before = sim_->state();  // put back if the new boids cannot be made
    try {
      sim_.reset();  // the old boids' memory is free for the new ones
      sim_ = boids::makeSimulation(name, params_, tuned(name, std::size_t(n)));
      sim_->load(start);
    } catch (...) {
      sim_.reset();  // the new boids' memory, and the start's, free for the old ones
      start = boids::State();
      try {
        sim_ = boids::makeSimulation(name, params_, tuned(name, before.size()));
        sim_->load(before);
      } catch (const std::exception& e) {  // no simulation left to keep: not a refusal the window survives
        throw std::runtime_error("the running " + std::to_string(before.size()) +
                                 " boids could not be made again after " + std::to_string(n) + " did not fit: " +
                                 e.what());
      }
      throw;
    }
  }
  bool writesDevice() const override { return sim_->info().backend == boids::Backend::Cuda; }
  void writeVertices(float* out, bool outIsDevice) override {
    sim_->writeVertices(out, outIsDevice);
    if (outIsDevice) sim_->synchronize();  // finished before the VBO is unmapped and drawn
  }

 private:
  /// The methods of the running method's backend, in the registry's order.
  std::vector<const boids::MethodInfo*> sameBackend() const {
    std::vector<const boids::MethodInfo*> same;
    for (const auto& m : boids::availableMethods())
      if (m.backend == sim_->info().backend) same.push_back(&m);
    return same;
  }

  /// tuning_, its auto fields (if any) chosen for `method` on n boids.
  boids::Tuning tuned(const std::string& method, std::size_t n) const {
    return tuningOptions_ ? tuningOptions_->resolve(tuning_, method, n, params_) : tuning_;
  }

  boids::Params params_;
  boids::Tuning tuning_;
  std::uint64_t seed_;
  std::optional<TuningOptions> tuningOptions_;
  std::unique_ptr<boids::Simulation> sim_;
};

}  // namespace flocklife::app
