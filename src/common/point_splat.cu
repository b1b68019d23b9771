// Point splatting on the GPU (point_splat.hpp): clear, splat with a 64-bit atomicMin per point,
// resolve to RGBA8. Grid-stride loops: any number of points and pixels.
#include "common/point_splat.hpp"

#include "common/cuda_check.cuh"
#include "common/launch.cuh"

namespace flocklife::splat {

namespace detail {
void checkSizes(std::int64_t numPoints, int width, int height);  // point_splat_cpu.cpp
}

namespace {

__global__ void clearKernel(unsigned long long* depthColour, std::uint64_t pixels) {
  for (std::uint64_t i = globalThreadId(); i < pixels; i += gridStride()) depthColour[i] = kEmpty;
}

__global__ void splatKernel(const float* __restrict__ xyzrgb, std::uint64_t n, Mat4 mvp, int width, int height,
                            unsigned long long* __restrict__ depthColour) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    std::uint32_t pixel;
    std::uint64_t key;
    if (splatKey(xyzrgb + 6 * i, mvp, width, height, &pixel, &key)) atomicMin(&depthColour[pixel], key);
  }
}

__global__ void resolveKernel(const unsigned long long* __restrict__ depthColour, std::uint64_t pixels,
                              std::uint32_t* __restrict__ rgba) {
  for (std::uint64_t i = globalThreadId(); i < pixels; i += gridStride()) {
    const std::uint64_t k = depthColour[i];
    rgba[i] = k == kEmpty ? 0u : std::uint32_t(k);
  }
}

}  // namespace

void splatGpu(const float* xyzrgb, std::int64_t numPoints, const Mat4& mvp, int width, int height,
              std::uint64_t* depthColour, std::uint32_t* rgba) {
  detail::checkSizes(numPoints, width, height);
  static_assert(sizeof(unsigned long long) == sizeof(std::uint64_t), "64-bit atomics");
  auto* dc = reinterpret_cast<unsigned long long*>(depthColour);
  const std::uint64_t pixels = std::uint64_t(width) * std::uint64_t(height);
  constexpr int kBlock = 256;
  clearKernel<<<blocksFor(pixels, kBlock), kBlock>>>(dc, pixels);
  FL_CUDA_CHECK_LAUNCH();
  if (numPoints > 0) {
    splatKernel<<<blocksFor(std::uint64_t(numPoints), kBlock), kBlock>>>(xyzrgb, std::uint64_t(numPoints), mvp, width,
                                                                          height, dc);
    FL_CUDA_CHECK_LAUNCH();
  }
  resolveKernel<<<blocksFor(pixels, kBlock), kBlock>>>(dc, pixels, rgba);
  FL_CUDA_CHECK_LAUNCH();
}

}  // namespace flocklife::splat
