// `simple`: byte per cell on the GPU, two buffers swapped each generation (NightElfik, "Conway's
// Game of Life on GPU using CUDA", the simple implementation). Each thread owns one cell column
// and walks down KernelParams::cellsPerThread rows keeping the 3x3 neighbourhood in registers
// (column_walk_kernel.cuh), so a cell costs three byte loads instead of nine.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/column_walk_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

class SimpleEngine final : public Engine {
 public:
  SimpleEngine(const Rule& rule, const KernelParams& p)
      : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 128), rows_(p.cellsPerThread ? p.cellsPerThread : 64) {
    validateBlockSize(threads_, "--threads-per-block");
    detail::validateCellsPerThread(rows_);
  }
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    width_ = world.width();
    height_ = world.height();
    cells_ = PingPong<std::uint8_t>(world.cellCount(), "simple kernel: two byte-per-cell buffers");
    cells_.currentBuffer().copyFromHost(world.cells());
    (cells_.odd ? cells_.a : cells_.b).fillBytes(0xFF);  // poison: every cell must be written
  }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(std::uint64_t(width_), std::uint64_t(width_), std::uint64_t(height_), 1,
                                               rows_, threads_);
    detail::runColumnWalk<std::uint8_t, std::uint32_t, 8>(cells_, shape, threads_,
                                                          bits::ByteCellEval{rule_.birthMask, rule_.surviveMask}, generations);
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

  static inline const KernelInfo kInfo{"simple", Backend::Cuda,
                                       "byte per cell, each thread walks a column strip with its 3x3 neighbourhood in registers, two buffers",
                                       "NightElfik, Conway's Game of Life on GPU using CUDA (simple kernel)"};

 private:
  Rule rule_;
  int threads_, rows_;
  std::int64_t width_ = 0, height_ = 0;
  PingPong<std::uint8_t> cells_;
};

}  // namespace

namespace detail {
KernelEntry simpleEntry() {
  return {SimpleEngine::kInfo,
          [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> { return std::make_unique<SimpleEngine>(r, p); }};
}
}  // namespace detail

}  // namespace flocklife::life
