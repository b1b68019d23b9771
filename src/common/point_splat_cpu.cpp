// CPU reference of point splatting (point_splat.hpp).
#include "common/point_splat.hpp"

#include <stdexcept>
#include <string>

namespace flocklife::splat {

namespace detail {
void checkSizes(std::int64_t numPoints, int width, int height) {
  if (width <= 0 || height <= 0)
    throw std::invalid_argument("splat: image size " + std::to_string(width) + "x" + std::to_string(height) +
                                ": expected positive width and height");
  if (numPoints < 0) throw std::invalid_argument("splat: negative number of points " + std::to_string(numPoints));
}
}  // namespace detail

std::vector<std::uint32_t> splatCpu(const float* xyzrgb, std::int64_t numPoints, const Mat4& mvp, int width,
                                    int height) {
  detail::checkSizes(numPoints, width, height);
  std::vector<std::uint64_t> best(std::size_t(width) * std::size_t(height), kEmpty);
  for (std::int64_t i = 0; i < numPoints; ++i) {
    std::uint32_t pixel;
    std::uint64_t key;
    if (splatKey(xyzrgb + 6 * i, mvp, width, height, &pixel, &key) && key < best[pixel]) best[pixel] = key;
  }
  std::vector<std::uint32_t> rgba(best.size());
  for (std::size_t i = 0; i < best.size(); ++i) rgba[i] = best[i] == kEmpty ? 0u : std::uint32_t(best[i]);
  return rgba;
}

}  // namespace flocklife::splat
