// Point splatting (common/point_splat.hpp): the CPU reference keeps the nearest point of each
// pixel whatever the order, drops points outside the view, and maps the view's corners to the
// image's corners; the GPU image equals the CPU reference pixel for pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "common/point_splat.hpp"
#include "gpu_test.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "common/device_buffer.cuh"
#endif

namespace flocklife::splat {
namespace {

/// Perspective camera at (0, 0, dist) looking down -z, 60 degrees vertical field of view,
/// near 0.1, far 100 (the gluPerspective matrix times a translation), column-major.
Mat4 camera(float aspect, float dist) {
  const float f = 1.f / std::tan(0.5f * 1.0471976f), n = 0.1f, fa = 100.f;
  Mat4 m{};
  m.m[0] = f / aspect;
  m.m[5] = f;
  m.m[10] = (fa + n) / (n - fa);
  m.m[11] = -1.f;
  m.m[14] = 2.f * fa * n / (n - fa);
  // times translate(0, 0, -dist): column 3 += -dist * column 2
  for (int r = 0; r < 4; ++r) m.m[12 + r] += -dist * m.m[8 + r];
  return m;
}

std::uint32_t rgba8(int r, int g, int b) { return std::uint32_t(r) | std::uint32_t(g) << 8 | std::uint32_t(b) << 16 | 0xFF000000u; }

TEST(SplatCpu, NearestPointWinsWhateverTheOrder) {
  const Mat4 m = camera(1.f, 10.f);
  // Three points on the axis (the same pixel), nearest red; one off to the side.
  std::vector<float> p = {0, 0, -2, 0, 0, 1,  0, 0, 3, 1, 0, 0,  0, 0, 0, 0, 1, 0,  2, 0, 0, 1, 1, 1};
  const auto a = splatCpu(p.data(), 4, m, 64, 64);
  std::vector<float> q(p.begin() + 6, p.begin() + 12);  // red first, then the rest
  q.insert(q.end(), p.begin(), p.begin() + 6);
  q.insert(q.end(), p.begin() + 12, p.end());
  EXPECT_EQ(splatCpu(q.data(), 4, m, 64, 64), a);
  EXPECT_EQ(a[32 * 64 + 32], rgba8(255, 0, 0));
  EXPECT_EQ(std::count(a.begin(), a.end(), 0u), 64 * 64 - 2);  // two pixels lit
}

TEST(SplatCpu, PointsBehindOrOutsideTheViewAreDropped) {
  const Mat4 m = camera(1.f, 10.f);
  std::vector<float> p = {0, 0, 20, 1, 1, 1,     // behind the camera
                          0, 0, -200, 1, 1, 1,   // beyond the far plane
                          50, 0, 0, 1, 1, 1,     // far to the right
                          0, 0, 9.95f, 1, 1, 1}; // nearer than the near plane
  const auto img = splatCpu(p.data(), 4, m, 32, 32);
  EXPECT_EQ(std::count(img.begin(), img.end(), 0u), 32 * 32);
}

TEST(SplatCpu, ViewCornersMapToImageCornersTopRowFirst) {
  const Mat4 m = camera(2.f, 10.f);  // 64 x 32 image
  const float f = 1.f / std::tan(0.5f * 1.0471976f), y = 0.999f * 10.f / f, x = 2.f * y;
  std::vector<float> p = {-x, y, 0, 1, 0, 0,  x, -y, 0, 0, 1, 0};  // top left red, bottom right green
  const auto img = splatCpu(p.data(), 2, m, 64, 32);
  EXPECT_EQ(img[0], rgba8(255, 0, 0));
  EXPECT_EQ(img[32 * 64 - 1], rgba8(0, 255, 0));
}

TEST(SplatCpu, BadSizesAreRefused) {
  const Mat4 m = camera(1.f, 10.f);
  EXPECT_THROW(splatCpu(nullptr, 0, m, 0, 10), std::invalid_argument);
  EXPECT_THROW(splatCpu(nullptr, -1, m, 10, 10), std::invalid_argument);
  EXPECT_EQ(splatCpu(nullptr, 0, m, 3, 2), std::vector<std::uint32_t>(6, 0u));
}

#ifdef FLOCKLIFE_HAVE_CUDA
std::vector<float> randomPoints(std::size_t n, float half, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-half, half), c(-0.2f, 1.2f);  // colours beyond [0, 1] are clamped
  std::vector<float> p(6 * n);
  for (std::size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) p[6 * i + k] = u(rng);
    for (int k = 3; k < 6; ++k) p[6 * i + k] = c(rng);
  }
  return p;
}

using SplatGpu = test::GpuTest;

/// 200,000 points in and around the view (many share pixels, some are dropped), two image sizes:
/// the GPU's atomicMin image equals the CPU reference exactly. Outputs are poisoned first.
TEST_F(SplatGpu, EqualsTheCpuReferencePixelForPixel) {
  const std::size_t n = 200000;
  const auto p = randomPoints(n, 8.f, 3);
  DeviceBuffer<float> dp(p.size());
  dp.copyFromHost(p);
  for (auto [w, h] : {std::pair{640, 360}, std::pair{97, 131}}) {
    const Mat4 m = camera(float(w) / float(h), 12.f);
    DeviceBuffer<std::uint64_t> scratch(std::size_t(w) * h);
    DeviceBuffer<std::uint32_t> img(std::size_t(w) * h);
    img.fillBytes(0x5A);
    splatGpu(dp.data(), std::int64_t(n), m, w, h, scratch.data(), img.data());
    const auto got = img.copyToHost();
    const auto want = splatCpu(p.data(), std::int64_t(n), m, w, h);
    ASSERT_EQ(got.size(), want.size());
    std::size_t diff = 0, lit = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      diff += got[i] != want[i];
      lit += want[i] != 0;
    }
    EXPECT_EQ(diff, 0u) << w << "x" << h;
    EXPECT_GT(lit, got.size() / 4) << "the test should light a good share of the image";
  }
}
#endif

}  // namespace
}  // namespace flocklife::splat
