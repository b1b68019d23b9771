// Device half of the Life display: the per-cell trail update, which reads the engine's state in
// its own layout (cell_layout.hpp), and the per-pixel display kernel (NightElfik, "Conway's Game
// of Life on GPU using CUDA", display kernel). The logic is the FL_HD functions of
// cell_layout.hpp and display.hpp; these kernels only index.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/memory.hpp"
#include "life/display_gpu.hpp"

namespace flocklife::life::detail {

namespace {

/// Threads along x (coalesced for every layout: adjacent cells of a row are adjacent bytes, bits
/// of one byte, or adjacent column words); blocks stride over rows along y.
__global__ void updateTrailKernel(CellView cells, std::uint8_t* __restrict__ trail) {
  const std::int64_t x = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (x >= cells.width) return;
  for (std::int64_t y = blockIdx.y; y < cells.height; y += gridDim.y) {
    std::uint8_t& t = trail[std::uint64_t(y) * std::uint64_t(cells.width) + std::uint64_t(x)];
    t = updateTrail(cellAlive(cells, x, y), t);
  }
}

__global__ void displayLifeKernel(std::uint64_t numPixels, const std::uint8_t* __restrict__ trail, std::int64_t width,
                                  std::int64_t height, std::uint32_t* __restrict__ rgba, int pixelsWide,
                                  ViewTransform view) {
  for (std::uint64_t i = globalThreadId(); i < numPixels; i += gridStride()) {
    const std::int64_t py = std::int64_t(i / std::uint64_t(pixelsWide));
    const std::int64_t px = std::int64_t(i - std::uint64_t(py) * std::uint64_t(pixelsWide));
    rgba[i] = pixelRgba(trail, width, height, px, py, view);
  }
}

}  // namespace

std::uint8_t* allocDeviceTrail(std::uint64_t n) {
  requireDeviceMemory(n, "Life display trail bytes");
  std::uint8_t* p = nullptr;
  FL_CUDA_CHECK(cudaMalloc(&p, n));
  FL_CUDA_CHECK(cudaMemset(p, 0, n));
  return p;
}

void freeDeviceTrail(std::uint8_t* d_trail) noexcept {
  if (d_trail) FL_CUDA_WARN(cudaFree(d_trail));
}

void zeroDeviceTrail(std::uint8_t* d_trail, std::uint64_t n) { FL_CUDA_CHECK(cudaMemset(d_trail, 0, n)); }

void copyDeviceTrailToHost(const std::uint8_t* d_trail, std::uint8_t* h_out, std::uint64_t n) {
  FL_CUDA_CHECK(cudaMemcpy(h_out, d_trail, n, cudaMemcpyDeviceToHost));
}

void updateDeviceTrail(const CellView& cells, std::uint8_t* d_trail) {
  if (cells.width < 1 || cells.height < 1) return;
  constexpr int kThreads = 128;
  const std::uint64_t blocksX = (std::uint64_t(cells.width) + kThreads - 1) / kThreads;
  if (blocksX > 0x7FFFFFFFull)
    throw std::invalid_argument("Life display: a world " + std::to_string(cells.width) +
                                " cells wide exceeds one grid's x dimension");
  const dim3 grid(unsigned(blocksX),
                  unsigned(cells.height < 65535 ? cells.height : 65535));
  updateTrailKernel<<<grid, kThreads>>>(cells, d_trail);
  FL_CUDA_CHECK_LAUNCH();
}

void renderDeviceTrail(const std::uint8_t* d_trail, std::int64_t width, std::int64_t height, std::uint32_t* d_rgba,
                       int pixelsWide, int pixelsHigh, const ViewTransform& view) {
  const std::uint64_t numPixels = std::uint64_t(pixelsWide) * std::uint64_t(pixelsHigh);
  if (numPixels == 0) return;
  displayLifeKernel<<<blocksFor(numPixels, 256, 1u << 16), 256>>>(numPixels, d_trail, width, height, d_rgba,
                                                                   pixelsWide, view);
  FL_CUDA_CHECK_LAUNCH();
  FL_CUDA_CHECK(cudaDeviceSynchronize());
}

}  // namespace flocklife::life::detail
