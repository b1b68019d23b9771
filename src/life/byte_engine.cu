// GpuByteEngine: the host-side body of the GPU byte-per-cell kernels (byte_engine.cuh).
#include "life/byte_engine.cuh"

#include <string>

namespace flocklife::life::detail {

void GpuByteEngine::load(const World& world) {
  width_ = world.width();
  height_ = world.height();
  const auto align = std::uint64_t(layout_.rowAlignment);
  pitch_ = (std::uint64_t(width_) + align - 1) / align * align;
  const std::uint64_t n = pitch_ * std::uint64_t(height_);
  const std::string what = info().name + " kernel: byte-per-cell buffer";
  cells_ = PingPong<std::uint8_t>();  // free the previous state before allocating the new one
  cells_.a = DeviceBuffer<std::uint8_t>(n, what.c_str());
  if (layout_.pingPong) cells_.b = DeviceBuffer<std::uint8_t>(n, what.c_str());
  if (pitch_ != std::uint64_t(width_)) cells_.a.fillBytes(0);  // padding bytes read as dead cells
  FL_CUDA_CHECK(cudaMemcpy2D(cells_.a.data(), pitch_, world.cells().data(), std::size_t(width_), std::size_t(width_),
                             std::size_t(height_), cudaMemcpyHostToDevice));
  cells_.b.fillBytes(0xFF);  // poison (nothing to do for single-buffer kernels)
  FL_CUDA_CHECK(cudaDeviceSynchronize());
}

World GpuByteEngine::world() const {
  World w(width_, height_);
  FL_CUDA_CHECK(cudaMemcpy2D(w.cells().data(), std::size_t(width_), cells_.current(), pitch_, std::size_t(width_),
                             std::size_t(height_), cudaMemcpyDeviceToHost));
  return w;
}

const std::uint8_t* GpuByteEngine::deviceBytePerCell() const {
  return pitch_ == std::uint64_t(width_) ? cells_.current() : nullptr;
}

}  // namespace flocklife::life::detail
