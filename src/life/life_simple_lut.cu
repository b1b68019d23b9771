// `simple-lut`: byte per cell, one thread per cell, the rule as a 2x9 look-up table
// [state][live neighbours] -> next state held in shared memory instead of branches
// (Cagigas-Muñiz et al., "Efficient simulation execution of cellular automata on GPU",
// Simulation Modelling Practice and Theory 118, 2022, sec. 5.1). Threads own cell columns and
// walk down column strips of KernelParams::cellsPerThread rows keeping the 3x3 neighbourhood in
// registers (column_walk_kernel.cuh); two buffers swapped each generation.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
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

class SimpleLutEngine final : public Engine {
 public:
  SimpleLutEngine(const Rule& rule, const KernelParams& p)
      : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 128), rows_(p.cellsPerThread ? p.cellsPerThread : 64) {
    validateBlockSize(threads_, "--threads-per-block");
    detail::validateCellsPerThread(rows_);
  }
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    width_ = world.width();
    height_ = world.height();
    cells_ = PingPong<std::uint8_t>();
    cells_ = PingPong<std::uint8_t>(world.cellCount(), "simple-lut kernel: two byte-per-cell buffers");
    cells_.currentBuffer().copyFromHost(world.cells());
    (cells_.odd ? cells_.a : cells_.b).fillBytes(0xFF);  // poison: every cell must be written
  }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(std::uint64_t(width_), std::uint64_t(width_), std::uint64_t(height_), 1,
                                               rows_, threads_);
    if (shape.tasks == 0) return;
    for (std::uint64_t g = 0; g < generations; ++g) {
      simpleLutKernel<<<detail::columnWalkBlocks(shape), threads_>>>(cells_.current(), cells_.next(), shape,
                                                                      rule_.birthMask, rule_.surviveMask);
      FL_CUDA_CHECK_LAUNCH();
      cells_.flip();
    }
  }
  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }
  World world() const override {
    World w(width_, height_);
    FL_CUDA_CHECK(cudaMemcpy(w.cells().data(), cells_.current(), w.cellCount(), cudaMemcpyDeviceToHost));
    return w;
  }
  std::optional<CellView> deviceCells() const override {
    if (cells_.size() == 0) return std::nullopt;
    return CellView::bytePerCell(cells_.current(), width_, height_);
  }
  std::uint64_t stateBytes() const override { return 2 * cells_.size(); }

  static inline const KernelInfo kInfo{
      "simple-lut", Backend::Cuda, "byte per cell, column strips per thread, rule as a 2x9 table in shared memory",
      "Cagigas-Muniz et al., Simulation Modelling Practice and Theory 118 (2022), sec. 5.1"};

 private:
  Rule rule_;
  int threads_, rows_;
  std::int64_t width_ = 0, height_ = 0;
  PingPong<std::uint8_t> cells_;
};

}  // namespace

namespace detail {
KernelEntry simpleLutEntry() {
  return {SimpleLutEngine::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> {
            return std::make_unique<SimpleLutEngine>(r, p);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
