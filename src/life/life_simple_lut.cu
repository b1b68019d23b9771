// `simple-lut`: byte per cell, one thread per cell, the rule as a 2x9 look-up table
// [state][live neighbours] -> next state held in shared memory instead of branches
// (Cagigas-Muñiz et al., "Efficient simulation execution of cellular automata on GPU",
// Simulation Modelling Practice and Theory 118, 2022, sec. 5.1). Threads own cell columns and
// walk down column strips of KernelParams::cellsPerThread rows keeping the 3x3 neighbourhood in
// registers (column_walk_kernel.cuh); two buffers swapped each generation.
#include <cstdint>

#include "life/byte_engine.cuh"
#include "life/column_walk_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

/// One generation: the 2x9 rule table goes to shared memory, then the column walk.
__global__ void __launch_bounds__(1024) simpleLutKernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                                        detail::ColumnWalkShape sh, std::uint16_t birthMask,
                                                        std::uint16_t surviveMask) {
  __shared__ std::uint8_t s_rule[18];  // [alive * 9 + neighbours]
  if (threadIdx.x < 18)
    s_rule[threadIdx.x] = std::uint8_t(((threadIdx.x >= 9 ? surviveMask : birthMask) >> (threadIdx.x % 9)) & 1u);
  __syncthreads();
  detail::columnWalkBlock<std::uint8_t, std::uint32_t, 8>(in, out, sh, bits::ByteCellLutEval{s_rule});
}

class SimpleLutEngine final : public detail::GpuByteEngine {
 public:
  SimpleLutEngine(const Rule& rule, const KernelParams& p) : GpuByteEngine(rule, p, 128, 64) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(std::uint64_t(width_), std::uint64_t(width_), std::uint64_t(height_), 1,
                                               cellsPerThread_, threads_);
    if (shape.tasks == 0) return;
    for (std::uint64_t g = 0; g < generations; ++g) {
      simpleLutKernel<<<detail::columnWalkBlocks(shape), threads_>>>(cells_.current(), cells_.next(), shape,
                                                                      rule_.birthMask, rule_.surviveMask);
      FL_CUDA_CHECK_LAUNCH();
      cells_.flip();
    }
  }

  static inline const KernelInfo kInfo{
      "simple-lut", Backend::Cuda, "byte per cell, column strips per thread, rule as a 2x9 table in shared memory",
      "Cagigas-Muniz et al., Simulation Modelling Practice and Theory 118 (2022), sec. 5.1"};
};

}  // namespace

detail::KernelEntry detail::simpleLutEntry() { return detail::entryOf<SimpleLutEngine>(); }

}  // namespace flocklife::life
