// Host half of the Life display and the LifeDisplay class (device calls go to display_gpu.cu).
#include "life/display.hpp"

#include <string>
#include <utility>

#include "common/errors.hpp"
#include "common/memory.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "life/display_gpu.hpp"
#endif

namespace flocklife::life {

LifeDisplay::LifeDisplay(std::int64_t width, std::int64_t height, bool onDevice)
    : width_(width), height_(height), onDevice_(onDevice) {
  if (width < 1 || height < 1)
    throw InputError("Life display: world size " + std::to_string(width) + "x" + std::to_string(height) +
                     ": expected at least 1x1");
  const std::uint64_t n = std::uint64_t(width) * std::uint64_t(height);
  if (onDevice) {
#ifdef FLOCKLIFE_HAVE_CUDA
    d_trail_ = detail::allocDeviceTrail(n);
#else
    throw InputError("Life display on the device: this build has no CUDA");
#endif
  } else {
    requireHostMemory(n, "Life display trail bytes");
    hostTrail_.assign(n, 0);
  }
}

LifeDisplay::~LifeDisplay() {
#ifdef FLOCKLIFE_HAVE_CUDA
  detail::freeDeviceTrail(d_trail_);
#endif
}

LifeDisplay::LifeDisplay(LifeDisplay&& o) noexcept
    : width_(o.width_), height_(o.height_), onDevice_(o.onDevice_), hostTrail_(std::move(o.hostTrail_)),
      d_trail_(std::exchange(o.d_trail_, nullptr)) {}

LifeDisplay& LifeDisplay::operator=(LifeDisplay&& o) noexcept {
  std::swap(width_, o.width_);
  std::swap(height_, o.height_);
  std::swap(onDevice_, o.onDevice_);
  std::swap(hostTrail_, o.hostTrail_);
  std::swap(d_trail_, o.d_trail_);
  return *this;
}

void LifeDisplay::reset() {
  const std::uint64_t n = std::uint64_t(width_) * std::uint64_t(height_);
#ifdef FLOCKLIFE_HAVE_CUDA
  if (onDevice_) return detail::zeroDeviceTrail(d_trail_, n);
#endif
  hostTrail_.assign(n, 0);
}

void LifeDisplay::update(const CellView& cells) {
  validateCellView(cells, width_, height_, "LifeDisplay::update");
#ifdef FLOCKLIFE_HAVE_CUDA
  if (onDevice_) return detail::updateDeviceTrail(cells, d_trail_);
#endif
  for (std::int64_t y = 0; y < height_; ++y) {
    std::uint8_t* row = hostTrail_.data() + std::uint64_t(y) * std::uint64_t(width_);
    for (std::int64_t x = 0; x < width_; ++x) row[x] = updateTrail(cellAlive(cells, x, y), row[x]);
  }
}

void LifeDisplay::render(std::uint32_t* rgba, int pixelsWide, int pixelsHigh, const ViewTransform& view) const {
  if (pixelsWide < 0 || pixelsHigh < 0) throw std::invalid_argument("LifeDisplay::render: negative pixel size");
  if (view.zoomLog2 < kMinZoomLog2 || view.zoomLog2 > kMaxZoomLog2)
    throw std::invalid_argument("LifeDisplay::render: zoomLog2 " + std::to_string(view.zoomLog2) + " outside [" +
                                std::to_string(kMinZoomLog2) + ", " + std::to_string(kMaxZoomLog2) + "]");
#ifdef FLOCKLIFE_HAVE_CUDA
  if (onDevice_) return detail::renderDeviceTrail(d_trail_, width_, height_, rgba, pixelsWide, pixelsHigh, view);
#endif
  for (int py = 0; py < pixelsHigh; ++py)
    for (int px = 0; px < pixelsWide; ++px)
      rgba[std::size_t(py) * std::size_t(pixelsWide) + std::size_t(px)] =
          pixelRgba(hostTrail_.data(), width_, height_, px, py, view);
}

std::vector<std::uint8_t> LifeDisplay::trail() const {
#ifdef FLOCKLIFE_HAVE_CUDA
  if (onDevice_) {
    std::vector<std::uint8_t> h(std::uint64_t(width_) * std::uint64_t(height_));
    detail::copyDeviceTrailToHost(d_trail_, h.data(), h.size());
    return h;
  }
#endif
  return hostTrail_;
}

}  // namespace flocklife::life
