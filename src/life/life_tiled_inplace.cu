// `tiled-inplace`: byte per cell in a single buffer (the WGSL compute-shader article "Игра «Жизнь»
// на compute shader", ivanpleshkov.dev). Pass 1 stages each tile plus halo in shared memory,
// writes interior cells straight back into the buffer and the tile's border cells to a small
// staging buffer (nobody reads a tile's interior but its own block; halos are made only of
// border cells); pass 2 copies the staged borders into the buffer. State = cells + staging,
// about (1 + borderSlots / tile cells) bytes per cell instead of 2 (stateBytes()).
#include <cstdint>

#include "life/byte_engine.cuh"
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

class TiledInplaceEngine final : public detail::GpuByteEngine {
 public:
  TiledInplaceEngine(const Rule& rule, const KernelParams& p)
      : GpuByteEngine(rule, p, 256, 4, detail::ByteCells{1, false}),
        tileHeight_(detail::tileHeightFor(threads_, cellsPerThread_)) {}
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    staging_ = DeviceBuffer<std::uint8_t>();  // free the previous state before allocating the new one
    GpuByteEngine::load(world);
    grid_ = detail::tileGrid(width_, height_, tileHeight_);
    staging_ = DeviceBuffer<std::uint8_t>(grid_.tiles * std::uint64_t(tiles::borderSlots(detail::kTileWidth, tileHeight_)),
                                          "tiled-inplace kernel: tile-border staging buffer");
    staging_.fillBytes(0xFF);  // poison: pass 1 must stage every border cell that pass 2 copies
  }
  void step(std::uint64_t generations) override {
    if (grid_.tiles == 0) return;
    const std::uint64_t slots = staging_.size();
    for (std::uint64_t g = 0; g < generations; ++g) {
      detail::launchTiled<true>(cells_.current(), cells_.current(), staging_.data(), width_, height_, grid_, threads_,
                                rule_.birthMask, rule_.surviveMask);
      tiledCopyBackKernel<<<blocksFor(slots, 256), 256>>>(staging_.data(), cells_.current(), width_, height_, tileHeight_,
                                                           grid_.tilesX, grid_.tiles);
      FL_CUDA_CHECK_LAUNCH();
    }
  }
  /// The cell buffer plus the staging buffer (a ping-pong pair would need 2 bytes per cell).
  std::uint64_t stateBytes() const override { return GpuByteEngine::stateBytes() + staging_.bytes(); }

  static inline const KernelInfo kInfo{
      "tiled-inplace", Backend::Cuda,
      "byte per cell, one buffer: tiles + halo in shared memory, tile borders via a staging buffer and a second pass",
      "ivanpleshkov.dev, Game of Life on a compute shader (single buffer + staging)"};

 private:
  int tileHeight_;
  detail::TileGrid grid_;
  DeviceBuffer<std::uint8_t> staging_;
};

}  // namespace

detail::KernelEntry detail::tiledInplaceEntry() { return detail::entryOf<TiledInplaceEngine>(); }

}  // namespace flocklife::life
