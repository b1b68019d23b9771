// GpuByteEngine: the host-side body of the GPU byte-per-cell kernels (byte_engine.cuh).
#include "life/byte_engine.cuh"

#include <string>

namespace flocklife::life::detail {

namespace {
/// `height` rows of `width` bytes between buffers whose rows are dpitch and spitch bytes apart;
/// one linear copy when neither is padded (cudaMemcpy2D limits pitches to cudaDevAttrMaxPitch).
void copyRows(void* dst, std::size_t dpitch, const void* src, std::size_t spitch, std::size_t width, std::size_t height,
              cudaMemcpyKind kind) {
  if (dpitch == width && spitch == width)
    FL_CUDA_CHECK(cudaMemcpy(dst, src, width * height, kind));
  else
    FL_CUDA_CHECK(cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind));
}
}  // namespace

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
  copyRows(cells_.a.data(), pitch_, world.cells().data(), std::size_t(width_), std::size_t(width_), std::size_t(height_),
           cudaMemcpyHostToDevice);
  cells_.b.fillBytes(0xFF);  // poison (nothing to do for single-buffer kernels)
  FL_CUDA_CHECK(cudaDeviceSynchronize());
}

World GpuByteEngine::world() const {
  World w(width_, height_);
  copyRows(w.cells().data(), std::size_t(width_), cells_.current(), pitch_, std::size_t(width_), std::size_t(height_),
           cudaMemcpyDeviceToHost);
  return w;
}

}  // namespace flocklife::life::detail
