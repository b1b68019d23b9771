// `simple-lut`: byte per cell, one thread per cell, the rule as a 2x9 look-up table
// [state][live neighbours] -> next state held in shared memory instead of branches
// (Cagigas-Muñiz et al., "Efficient simulation execution of cellular automata on GPU",
// Simulation Modelling Practice and Theory 118, 2022, sec. 5.1). Threads cover columns, blocks
// stride over rows (no 64-bit division per cell); two buffers swapped each generation.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

__global__ void __launch_bounds__(1024) simpleLutKernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out, std::int64_t width,
                                std::int64_t height, std::uint16_t birthMask, std::uint16_t surviveMask) {
  __shared__ std::uint8_t s_rule[18];  // [alive * 9 + neighbours]
  if (threadIdx.x < 18)
    s_rule[threadIdx.x] = std::uint8_t(((threadIdx.x >= 9 ? surviveMask : birthMask) >> (threadIdx.x % 9)) & 1u);
  __syncthreads();
  for (std::int64_t x = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; x < width;
       x += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t xm = x == 0 ? width - 1 : x - 1, xp = x == width - 1 ? 0 : x + 1;
    for (std::int64_t y = blockIdx.y; y < height; y += gridDim.y) {
      const std::int64_t ym = (y == 0 ? height - 1 : y - 1) * width, yc = y * width,
                         yp = (y == height - 1 ? 0 : y + 1) * width;
      const int n = in[ym + xm] + in[ym + x] + in[ym + xp] + in[yc + xm] + in[yc + xp] + in[yp + xm] + in[yp + x] +
                    in[yp + xp];
      out[yc + x] = s_rule[in[yc + x] * 9 + n];
    }
  }
}

class SimpleLutEngine final : public Engine {
 public:
  SimpleLutEngine(const Rule& rule, const KernelParams& p) : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 256) {
    validateBlockSize(threads_, "--threads-per-block");
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
    const dim3 grid(blocksFor(std::size_t(width_), threads_, 1u << 16), unsigned(height_ < 65535 ? height_ : 65535));
    for (std::uint64_t g = 0; g < generations; ++g) {
      simpleLutKernel<<<grid, threads_>>>(cells_.current(), cells_.next(), width_, height_, rule_.birthMask,
                                          rule_.surviveMask);
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

  static inline const KernelInfo kInfo{
      "simple-lut", Backend::Cuda, "byte per cell, one thread per cell, rule as a 2x9 table in shared memory",
      "Cagigas-Muniz et al., Simulation Modelling Practice and Theory 118 (2022), sec. 5.1"};

 private:
  Rule rule_;
  int threads_;
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
