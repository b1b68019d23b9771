// `tiled-inplace`: byte per cell in a single buffer (the WGSL compute-shader article "Игра «Жизнь»
// на compute shader", ivanpleshkov.dev). Pass 1 stages each tile plus halo in shared memory,
// writes interior cells straight back into the buffer and the tile's border cells to a small
// staging buffer (nobody reads a tile's interior but its own block; halos are made only of
// border cells); pass 2 copies the staged borders into the buffer. State = cells + staging,
// about (1 + borderSlots / tile cells) bytes per cell instead of 2 (stateBytes()).
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/life_gpu.hpp"
#include "life/tiled_kernel.cuh"

namespace flocklife::life {

namespace {

__global__ void tiledCopyBackKernel(const std::uint8_t* __restrict__ staging, std::uint8_t* __restrict__ cells,
                                    std::int64_t width, std::int64_t height, int tileHeight, std::uint64_t tilesX,
                                    std::uint64_t tiles) {
  const int slots = tiles::borderSlots(detail::kTileWidth, tileHeight);
  const std::uint64_t n = tiles * std::uint64_t(slots);
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    std::uint64_t tile, slot, ty, tx;
    detail::divMod(i, std::uint64_t(slots), tile, slot);
    detail::divMod(tile, tilesX, ty, tx);
    const std::int64_t x0 = std::int64_t(tx) * detail::kTileWidth, y0 = std::int64_t(ty) * tileHeight;
    const int cw = int(width - x0 < detail::kTileWidth ? width - x0 : detail::kTileWidth);
    const int ch = int(height - y0 < tileHeight ? height - y0 : tileHeight);
    int lx, ly;
    if (tiles::borderCell(int(slot), cw, ch, detail::kTileWidth, tileHeight, lx, ly))
      cells[std::uint64_t(y0 + ly) * std::uint64_t(width) + std::uint64_t(x0 + lx)] = staging[i];
  }
}

class TiledInplaceEngine final : public Engine {
 public:
  TiledInplaceEngine(const Rule& rule, const KernelParams& p)
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
    tilesX_ = (std::uint64_t(width_) + detail::kTileWidth - 1) / detail::kTileWidth;
    tiles_ = tilesX_ * ((std::uint64_t(height_) + tileHeight_ - 1) / std::uint64_t(tileHeight_));
    cells_ = DeviceBuffer<std::uint8_t>();
    staging_ = DeviceBuffer<std::uint8_t>();
    cells_ = DeviceBuffer<std::uint8_t>(world.cellCount(), "tiled-inplace kernel: byte-per-cell buffer");
    staging_ = DeviceBuffer<std::uint8_t>(tiles_ * std::uint64_t(tiles::borderSlots(detail::kTileWidth, tileHeight_)),
                                          "tiled-inplace kernel: tile-border staging buffer");
    cells_.copyFromHost(world.cells());
    staging_.fillBytes(0xFF);  // poison: pass 1 must stage every border cell that pass 2 copies
  }
  void step(std::uint64_t generations) override {
    if (tiles_ == 0) return;
    const dim3 block(detail::kTileWidth, unsigned(threads_ / detail::kTileWidth));
    const unsigned blocks = unsigned(tiles_ < (1u << 20) ? tiles_ : (1u << 20));
    const std::uint64_t slots = staging_.size();
    for (std::uint64_t g = 0; g < generations; ++g) {
      detail::tiledKernel<true><<<blocks, block, detail::tileSharedBytes(tileHeight_)>>>(
          cells_.data(), cells_.data(), staging_.data(), width_, height_, tileHeight_, tilesX_, tiles_, rule_.birthMask,
          rule_.surviveMask);
      FL_CUDA_CHECK_LAUNCH();
      tiledCopyBackKernel<<<blocksFor(slots, 256), 256>>>(staging_.data(), cells_.data(), width_, height_, tileHeight_,
                                                           tilesX_, tiles_);
      FL_CUDA_CHECK_LAUNCH();
    }
  }
  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }
  World world() const override {
    World w(width_, height_);
    FL_CUDA_CHECK(cudaMemcpy(w.cells().data(), cells_.data(), w.cellCount(), cudaMemcpyDeviceToHost));
    return w;
  }
  /// The single cell buffer: after step() returns, pass 2 has restored every tile border.
  std::optional<CellView> deviceCells() const override {
    if (cells_.empty()) return std::nullopt;
    return CellView::bytePerCell(cells_.data(), width_, height_);
  }
  /// The cell buffer plus the staging buffer (a ping-pong pair would need 2 bytes per cell).
  std::uint64_t stateBytes() const override { return cells_.bytes() + staging_.bytes(); }

  static inline const KernelInfo kInfo{
      "tiled-inplace", Backend::Cuda,
      "byte per cell, one buffer: tiles + halo in shared memory, tile borders via a staging buffer and a second pass",
      "ivanpleshkov.dev, Game of Life on a compute shader (single buffer + staging)"};

 private:
  Rule rule_;
  int threads_, rowsPerThread_, tileHeight_ = 0;
  std::int64_t width_ = 0, height_ = 0;
  std::uint64_t tilesX_ = 0, tiles_ = 0;
  DeviceBuffer<std::uint8_t> cells_, staging_;
};

}  // namespace

namespace detail {
KernelEntry tiledInplaceEntry() {
  return {TiledInplaceEngine::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> {
            return std::make_unique<TiledInplaceEngine>(r, p);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
