// `tiled`: byte per cell; each block stages a tile of 32 x (rows) cells plus a one-cell halo in
// shared memory and evaluates it from there (tile + halo, the WGSL compute-shader article
// "Игра «Жизнь» на compute shader", ivanpleshkov.dev), two buffers swapped each generation.
// Tile height = (threadsPerBlock / 32) * cellsPerThread rows.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/life_gpu.hpp"
#include "life/tiled_kernel.cuh"

namespace flocklife::life {

namespace {

class TiledEngine final : public Engine {
 public:
  TiledEngine(const Rule& rule, const KernelParams& p)
      : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 256), rowsPerThread_(p.cellsPerThread ? p.cellsPerThread : 4) {
    validateBlockSize(threads_, "--threads-per-block");
    detail::validateCellsPerThread(rowsPerThread_);
    tileHeight_ = threads_ / detail::kTileWidth * rowsPerThread_;
    if (detail::tileSharedBytes(tileHeight_) > 48 * 1024)
      throw std::invalid_argument("--cells-per-thread: a tile of 32 x " + std::to_string(tileHeight_) +
                                  " cells exceeds 48 KiB of shared memory; use fewer rows per thread");
  }
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    width_ = world.width();
    height_ = world.height();
    cells_ = PingPong<std::uint8_t>();
    cells_ = PingPong<std::uint8_t>(world.cellCount(), "tiled kernel: two byte-per-cell buffers");
    cells_.currentBuffer().copyFromHost(world.cells());
    (cells_.odd ? cells_.a : cells_.b).fillBytes(0xFF);  // poison: every cell must be written
  }
  void step(std::uint64_t generations) override {
    const std::uint64_t tilesX = (std::uint64_t(width_) + detail::kTileWidth - 1) / detail::kTileWidth;
    const std::uint64_t tiles = tilesX * ((std::uint64_t(height_) + tileHeight_ - 1) / std::uint64_t(tileHeight_));
    if (tiles == 0) return;
    const dim3 block(detail::kTileWidth, unsigned(threads_ / detail::kTileWidth));
    const unsigned blocks = unsigned(tiles < (1u << 20) ? tiles : (1u << 20));
    for (std::uint64_t g = 0; g < generations; ++g) {
      detail::tiledKernel<false><<<blocks, block, detail::tileSharedBytes(tileHeight_)>>>(
          cells_.current(), cells_.next(), nullptr, width_, height_, tileHeight_, tilesX, tiles, rule_.birthMask,
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
  std::optional<CellView> deviceCells() const override {
    if (cells_.size() == 0) return std::nullopt;
    return CellView::bytePerCell(cells_.current(), width_, height_);
  }
  std::uint64_t stateBytes() const override { return 2 * cells_.size(); }

  static inline const KernelInfo kInfo{
      "tiled", Backend::Cuda, "byte per cell, 32-wide tiles + one-cell halo in shared memory, two buffers",
      "ivanpleshkov.dev, Game of Life on a compute shader (tile + halo); Cagigas-Muniz et al. 2022 sec. 4.1"};

 private:
  Rule rule_;
  int threads_, rowsPerThread_, tileHeight_ = 0;
  std::int64_t width_ = 0, height_ = 0;
  PingPong<std::uint8_t> cells_;
};

}  // namespace

namespace detail {
KernelEntry tiledEntry() {
  return {TiledEngine::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> {
            return std::make_unique<TiledEngine>(r, p);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
