// `tiled`: byte per cell; each block stages a tile of 32 x (rows) cells plus a one-cell halo in
// shared memory and evaluates it from there (tile + halo, the WGSL compute-shader article
// "Игра «Жизнь» на compute shader", ivanpleshkov.dev), two buffers swapped each generation.
// Tile height = (threadsPerBlock / 32) * cellsPerThread rows.
#include <cstdint>

#include "life/byte_engine.cuh"
#include "life/life_gpu.hpp"
#include "life/tiled_kernel.cuh"

namespace flocklife::life {

namespace {

class TiledEngine final : public detail::GpuByteEngine {
 public:
  TiledEngine(const Rule& rule, const KernelParams& p)
      : GpuByteEngine(rule, p, 256, 4), tileHeight_(detail::tileHeightFor(threads_, cellsPerThread_)) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    const detail::TileGrid grid = detail::tileGrid(width_, height_, tileHeight_);
    for (std::uint64_t g = 0; g < generations; ++g) {
      detail::launchTiled<false>(cells_.current(), cells_.next(), nullptr, width_, height_, grid, threads_,
                                 rule_.birthMask, rule_.surviveMask);
      cells_.flip();
    }
  }

  static inline const KernelInfo kInfo{
      "tiled", Backend::Cuda, "byte per cell, 32-wide tiles + one-cell halo in shared memory, two buffers",
      "ivanpleshkov.dev, Game of Life on a compute shader (tile + halo); Cagigas-Muniz et al. 2022 sec. 4.1"};

 private:
  int tileHeight_;
};

}  // namespace

detail::KernelEntry detail::tiledEntry() { return detail::entryOf<TiledEngine>(); }

}  // namespace flocklife::life
