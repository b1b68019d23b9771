// `simple`: byte per cell on the GPU, two buffers swapped each generation (NightElfik, "Conway's
// Game of Life on GPU using CUDA", the simple implementation). Each thread owns one cell column
// and walks down KernelParams::cellsPerThread rows keeping the 3x3 neighbourhood in registers
// (column_walk_kernel.cuh), so a cell costs three byte loads instead of nine.
#include <cstdint>

#include "life/byte_engine.cuh"
#include "life/column_walk_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

class SimpleEngine final : public detail::GpuByteEngine {
 public:
  SimpleEngine(const Rule& rule, const KernelParams& p) : GpuByteEngine(rule, p, 128, 64) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(std::uint64_t(width_), std::uint64_t(width_), std::uint64_t(height_), 1,
                                               cellsPerThread_, threads_);
    detail::runColumnWalk<std::uint8_t, std::uint32_t, 8>(cells_, shape, threads_,
                                                          bits::ByteCellEval{rule_.birthMask, rule_.surviveMask}, generations);
  }

  static inline const KernelInfo kInfo{"simple", Backend::Cuda,
                                       "byte per cell, each thread walks a column strip with its 3x3 neighbourhood in registers, two buffers",
                                       "NightElfik, Conway's Game of Life on GPU using CUDA (simple kernel)"};
};

}  // namespace

detail::KernelEntry detail::simpleEntry() { return detail::entryOf<SimpleEngine>(); }

}  // namespace flocklife::life
