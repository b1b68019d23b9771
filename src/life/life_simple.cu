// `simple`: byte per cell on the GPU, one thread per cell in a grid-stride loop, two buffers
// swapped each generation (NightElfik, "Conway's Game of Life on GPU using CUDA", the simple
// implementation).
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

/// One generation. Threads cover columns (x from the block's x index), blocks stride over rows,
/// so no thread divides a 64-bit cell index; each cell reads its 8 neighbours with torus wrap.
__global__ void simpleGenerationKernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                                       std::int64_t width, std::int64_t height, std::uint16_t birthMask,
                                       std::uint16_t surviveMask) {
  for (std::int64_t x = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; x < width;
       x += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t xm = x == 0 ? width - 1 : x - 1, xp = x == width - 1 ? 0 : x + 1;
    for (std::int64_t y = blockIdx.y; y < height; y += gridDim.y) {
      const std::int64_t ym = (y == 0 ? height - 1 : y - 1) * width, yc = y * width,
                         yp = (y == height - 1 ? 0 : y + 1) * width;
      const int count = in[ym + xm] + in[ym + x] + in[ym + xp] + in[yc + xm] + in[yc + xp] + in[yp + xm] +
                        in[yp + x] + in[yp + xp];
      const std::uint16_t mask = in[yc + x] ? surviveMask : birthMask;
      out[yc + x] = std::uint8_t((mask >> count) & 1u);
    }
  }
}

class SimpleEngine final : public Engine {
 public:
  SimpleEngine(const Rule& rule, const KernelParams& p) : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 256) {
    validateBlockSize(threads_, "--threads-per-block");
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
    const dim3 grid(blocksFor(std::size_t(width_), threads_, 1u << 16),
                    unsigned(height_ < 65535 ? height_ : 65535));
    for (std::uint64_t g = 0; g < generations; ++g) {
      simpleGenerationKernel<<<grid, threads_>>>(cells_.current(), cells_.next(), width_,
                                                                        height_, rule_.birthMask, rule_.surviveMask);
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
  const std::uint8_t* deviceBytePerCell() const override { return cells_.current(); }
  std::uint64_t stateBytes() const override { return 2 * cells_.size(); }

  static inline const KernelInfo kInfo{"simple", Backend::Cuda,
                                       "byte per cell, one thread per cell, grid-stride loop, two buffers",
                                       "NightElfik, Conway's Game of Life on GPU using CUDA (simple kernel)"};

 private:
  Rule rule_;
  int threads_;
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
