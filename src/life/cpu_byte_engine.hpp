#pragma once
/// @file cpu_byte_engine.hpp
/// Shared body of the byte-per-cell CPU kernels (internal): two Worlds swapped each generation;
/// derived classes compute one generation.
#include <cstdint>
#include <utility>

#include "life/engine.hpp"

namespace flocklife::life::detail {

class CpuByteEngine : public Engine {
 public:
  explicit CpuByteEngine(const Rule& rule) : rule_(rule) {}
  void load(const World& world) override {
    cur_ = world;
    next_ = World(world.width(), world.height());
  }
  void step(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      generation(cur_, next_);
      std::swap(cur_, next_);
    }
  }
  World world() const override { return cur_; }
  std::uint64_t stateBytes() const override { return 2 * cur_.cellCount(); }

 protected:
  /// Writes the generation after `in` to `out` (same size, distinct).
  virtual void generation(const World& in, World& out) const = 0;

  Rule rule_;

 private:
  World cur_, next_;
};

}  // namespace flocklife::life::detail
