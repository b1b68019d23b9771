// The Life display's per-cell and per-pixel maths (life/display.hpp), on the host; the GPU
// kernels run the same FL_HD functions (checked against this path in render_test.cpp).
#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "gpu_test.hpp"
#include "life/display.hpp"
#include "life/engine.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "common/device_buffer.cuh"
#endif

namespace flocklife::life {

TEST(LifeTrail, BornAgesDiesAndFades) {
  std::uint8_t t = 0;
  t = updateTrail(true, t);
  EXPECT_EQ(t, 128);  // born
  EXPECT_EQ(cellRgba(t, false), kBornRgba);
  t = updateTrail(true, t);
  EXPECT_EQ(t, 129);
  EXPECT_EQ(cellRgba(t, false), packRgba(253, 253, 253));  // one step darker
  t = updateTrail(false, t);
  EXPECT_EQ(t, kTrailLen);  // died: full trail
  EXPECT_EQ(cellRgba(t, false), packRgba(0, 8 + 3 * kTrailLen, kTrailLen));
  for (int i = 0; i < kTrailLen; ++i) t = updateTrail(false, t);
  EXPECT_EQ(t, 0);
  EXPECT_EQ(cellRgba(t, false), kDeadRgba);
  EXPECT_EQ(cellRgba(t, true), kBorderRgba);
  EXPECT_EQ(cellRgba(128, true), kBornRgba);  // the border never hides a live cell
}

TEST(LifeTrail, AgeSaturatesAtGrey) {
  std::uint8_t t = 128;
  for (int i = 0; i < 300; ++i) t = updateTrail(true, t);
  EXPECT_EQ(t, 255);
  EXPECT_EQ(cellRgba(t, false), packRgba(95, 95, 95));
}

TEST(LifePixels, ZoomInRepeatsCellsAndWrapsTheTorus) {
  std::vector<std::uint8_t> trail(4 * 3, 0);
  trail[1 * 4 + 2] = 128;  // cell (2, 1) live
  ViewTransform v;
  v.zoomLog2 = 1;  // 2x2 pixels per cell
  EXPECT_EQ(pixelRgba(trail.data(), 4, 3, 4, 2, v), kBornRgba);
  EXPECT_EQ(pixelRgba(trail.data(), 4, 3, 5, 3, v), kBornRgba);
  EXPECT_EQ(pixelRgba(trail.data(), 4, 3, 6, 2, v), kDeadRgba);
  v.panX = -8;  // one world width to the left: same picture
  v.panY = 6;   // one world height down
  EXPECT_EQ(pixelRgba(trail.data(), 4, 3, 12, -4, v), kBornRgba);
  EXPECT_EQ(pixelRgba(trail.data(), 4, 3, 0, 0, v), kBorderRgba);  // cell (0, 0)
}

TEST(LifePixels, ZoomOutAveragesTheCellsOfAPixel) {
  std::vector<std::uint8_t> trail(4 * 4, 0);
  trail[1 * 4 + 1] = 128;  // cell (1, 1): one of the four cells of pixel (0, 0)
  trail[2 * 4 + 3] = 128;
  trail[3 * 4 + 3] = 128;
  ViewTransform v;
  v.zoomLog2 = -1;  // 2x2 cells per pixel
  // Pixel (0, 0): cells (0,0) border, (1,0) border, (0,1) border, (1,1) live.
  const std::uint32_t r = (0x78 * 3 + 255) / 4, gb = (0x30 * 3 + 255) / 4;
  EXPECT_EQ(pixelRgba(trail.data(), 4, 4, 0, 0, v), packRgba(r, gb, gb));
  // Pixel (1, 1): cells (2,2) dead, (3,2) live, (2,3) dead, (3,3) live.
  EXPECT_EQ(pixelRgba(trail.data(), 4, 4, 1, 1, v), packRgba(127, 127, 127));
}

TEST(LifePixels, FloorDivAndModRoundDown) {
  EXPECT_EQ(floorDiv(-1, 4), -1);
  EXPECT_EQ(floorDiv(-4, 4), -1);
  EXPECT_EQ(floorDiv(-5, 4), -2);
  EXPECT_EQ(floorMod(-1, 4), 3);
  EXPECT_EQ(floorMod(7, 4), 3);
  // The ends of int64 (-a + b - 1 overflowed near INT64_MIN: --offset placed cells past the world).
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(floorMod(lo, 64), 0);  // -2^63 is a multiple of 64
  EXPECT_EQ(floorMod(lo, 100), 92);  // -2^63 = -92233720368547759 x 100 + 92
  EXPECT_EQ(floorDiv(lo, 100), -92233720368547759);
  EXPECT_EQ(floorMod(lo + 1, 64), 1);
  EXPECT_EQ(floorMod(hi, 100), 7);
  EXPECT_EQ(floorDiv(lo, 1), lo);
}

TEST(LifeDisplayHost, RendersEveryPixelFromTheWorld) {
  LifeDisplay d(3, 2, false);
  const std::vector<std::uint8_t> cells = {0, 1, 0, 0, 0, 1};
  d.update(CellView::bytePerCell(cells.data(), 3, 2));
  std::vector<std::uint32_t> px(6 * 2, 0x12345678u);
  d.render(px.data(), 6, 2, {});
  const std::vector<std::uint32_t> expect = {kBorderRgba, kBornRgba, kBorderRgba, kBorderRgba, kBornRgba, kBorderRgba,
                                             kBorderRgba, kDeadRgba, kBornRgba,   kBorderRgba, kDeadRgba, kBornRgba};
  EXPECT_EQ(px, expect);
  EXPECT_THROW(d.render(px.data(), 6, 2, {0, 0, kMaxZoomLog2 + 1}), std::invalid_argument);
  EXPECT_THROW(LifeDisplay(0, 3, false), InputError);
}

class LifeDisplayDevice : public test::GpuTest {};

#ifdef FLOCKLIFE_HAVE_CUDA
namespace {

/// The engine's device buffer copied to the host as it is and read through cellAlive().
World readDeviceView(const CellView& v) {
  std::vector<std::uint8_t> h_bytes(cellViewSpanBytes(v), 0);
  EXPECT_EQ(cudaMemcpy(h_bytes.data(), v.data, cellViewSpanBytes(v), cudaMemcpyDeviceToHost), cudaSuccess);
  CellView h = v;
  h.data = h_bytes.data();
  World w(v.width, v.height);
  for (std::int64_t y = 0; y < v.height; ++y)
    for (std::int64_t x = 0; x < v.width; ++x) w.set(x, y, cellAlive(h, x, y));
  return w;
}

}  // namespace
#endif

// Every GPU engine feeds the display from its own state buffer (byte per cell, padded packet rows,
// bit rows, column words): the device trail and pixels equal those made from world() on the host.
TEST_F(LifeDisplayDevice, EveryGpuKernelsOwnLayoutGivesTheHostPathsTrailAndPixels) {
#ifdef FLOCKLIFE_HAVE_CUDA
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1}, {37, 70}, {200, 130}, {65, 33}, {1000, 999}};
  int engines = 0;
  for (const KernelInfo& k : availableKernels()) {
    if (k.backend != Backend::Cuda) continue;
    ++engines;
    for (auto [w, h] : sizes) {
      SCOPED_TRACE(k.name + " " + std::to_string(w) + "x" + std::to_string(h));
      World start(w, h);
      std::mt19937_64 rng(std::uint64_t(w * 7 + h));
      for (auto& c : start.cells()) c = std::uint8_t(rng() % 3 == 0);
      auto engine = makeEngine(k.name, kConway);
      ASSERT_FALSE(engine->deviceCells().has_value()) << "a view before load()";
      engine->load(start);
      LifeDisplay dev(w, h, true), host(w, h, false);
      for (int g = 0; g < 6; ++g) {
        const World world = engine->world();
        const auto view = engine->deviceCells();
        ASSERT_TRUE(view.has_value());
        ASSERT_EQ(readDeviceView(*view), world) << "generation " << g << ": the view does not read the world";
        dev.update(*view);
        host.update(CellView::bytePerCell(world.cells().data(), w, h));
        engine->step(g < 3 ? 1 : 5);
      }
      ASSERT_EQ(dev.trail(), host.trail());
      const int pw = 97, ph = 61;  // odd sizes: the last block is partial
      for (int zoom : {2, 0, -1, -3}) {
        const ViewTransform v{-37, 11, zoom};
        DeviceBuffer<std::uint32_t> d_px(std::size_t(pw) * ph);
        d_px.fillBytes(0xFF);  // poison: every pixel must be written
        dev.render(d_px.data(), pw, ph, v);
        std::vector<std::uint32_t> expect(std::size_t(pw) * ph, 0);
        host.render(expect.data(), pw, ph, v);
        EXPECT_EQ(d_px.copyToHost(), expect) << "zoom " << zoom;
      }
    }
  }
  EXPECT_GE(engines, 9) << "every GPU kernel of this build";
#endif
}

}  // namespace flocklife::life
