#pragma once
/// @file display.hpp
/// The Life display: turns a world into RGBA8 pixels for a window, on the CPU or on the GPU (into
/// a pixel buffer the renderer maps through CUDA-OpenGL interop). It reads the cells in whatever
/// layout the engine keeps them (life/cell_layout.hpp: byte per cell, bit per cell in rows,
/// 32-cell column words), so a GPU engine's state feeds it with no conversion and no host copy.
/// No GL here: the caller hands in a plain host or device pointer.
///
/// Technique after NightElfik, "Conway's Game of Life on GPU using CUDA" (display kernel): one
/// thread per pixel, pixel-precise zoom, several cells averaged per pixel when zoomed out, cyclic
/// (seamless torus) rendering with the world's border drawn only over dead cells, and colours that
/// show births bright, ageing live cells darker and recent deaths as fading trails. Unlike the
/// article, the history lives in a per-cell trail byte (not in the pixels), so panning and zooming
/// keep it.
///
/// Trail byte per cell (updated once per displayed frame by updateTrail()):
///   0            dead, no recent death
///   1..kTrailLen dead; died kTrailLen - t frames ago (fading trail)
///   128 + a      live for a frames (a = 0: born this frame), saturating at 255
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "life/cell_layout.hpp"
#include "life/world.hpp"

namespace flocklife::life {

inline constexpr std::uint8_t kTrailLen = 40;  ///< frames a death trail stays visible
inline constexpr int kMinZoomLog2 = -8;        ///< 256 cells per pixel (furthest out)
inline constexpr int kMaxZoomLog2 = 6;         ///< 64 pixels per cell (closest in)
inline constexpr int kMaxSamples = 8;          ///< at most 8 x 8 cells averaged per pixel

/// What part of the torus the window shows. Integer maths throughout, so every pan and zoom is
/// exact to the pixel. Pixel (px, py) of the window (py = 0 is the top row) is "view pixel"
/// (panX + px, panY + py); at zoomLog2 = z >= 0 one cell covers 2^z x 2^z view pixels, at z < 0
/// one view pixel covers 2^-z x 2^-z cells. View pixel (0, 0) is the top-left corner of cell (0, 0).
struct ViewTransform {
  std::int64_t panX = 0, panY = 0;  ///< view pixels
  int zoomLog2 = 0;                 ///< in [kMinZoomLog2, kMaxZoomLog2]
};

/// Colours (RGBA8 packed little-endian: R in the low byte, so the bytes in memory are R, G, B, A).
FL_HD FL_FORCEINLINE std::uint32_t packRgba(std::uint32_t r, std::uint32_t g, std::uint32_t b) {
  return r | (g << 8) | (b << 16) | 0xFF000000u;
}
inline constexpr std::uint32_t kBornRgba = 0xFFFFFFFFu;  ///< white
inline constexpr std::uint32_t kDeadRgba = 0xFF000000u;  ///< black
inline constexpr std::uint32_t kBorderRgba = 0xFF303078u;  ///< dark red (R 0x78, G 0x30, B 0x30)

/// Next trail byte of one cell, given its state this frame (`alive`) and its trail byte `t`.
FL_HD FL_FORCEINLINE std::uint8_t updateTrail(bool alive, std::uint8_t t) {
  if (alive) return t >= 128 ? std::uint8_t(t == 255 ? 255 : t + 1) : std::uint8_t(128);
  if (t >= 128) return kTrailLen;  // died this frame
  return t > 0 ? std::uint8_t(t - 1) : std::uint8_t(0);
}

/// Colour of one cell from its trail byte. Live: white when born, one step darker per frame down
/// to grey 95. Dead: a green trail fading to black over kTrailLen frames; the world's border
/// (x == 0 or y == 0) is drawn over dead cells only.
FL_HD FL_FORCEINLINE std::uint32_t cellRgba(std::uint8_t t, bool onBorder) {
  if (t >= 128) {
    const std::uint32_t age = t - 128u, v = age >= 80 ? 95u : 255u - 2u * age;
    return packRgba(v, v, v);
  }
  if (t > 0) return packRgba(0, 8u + 3u * t, t);
  return onBorder ? kBorderRgba : kDeadRgba;
}

/// Colour of window pixel (px, py): the cell under it, or the average of up to kMaxSamples^2
/// cells (evenly spread over the 2^-z x 2^-z cells the pixel covers) when zoomed out. The world
/// repeats in both directions (torus).
/// @param trail  width x height trail bytes, row-major, y = 0 the top row
FL_HD inline std::uint32_t pixelRgba(const std::uint8_t* trail, std::int64_t width, std::int64_t height,
                                     std::int64_t px, std::int64_t py, const ViewTransform& v) {
  const std::int64_t vx = v.panX + px, vy = v.panY + py;
  if (v.zoomLog2 >= 0) {
    const std::int64_t x = floorMod(vx >> v.zoomLog2, width), y = floorMod(vy >> v.zoomLog2, height);
    return cellRgba(trail[std::uint64_t(y) * std::uint64_t(width) + std::uint64_t(x)], x == 0 || y == 0);
  }
  const std::int64_t cellsPerPixel = std::int64_t(1) << -v.zoomLog2;
  const std::int64_t samples = cellsPerPixel < kMaxSamples ? cellsPerPixel : kMaxSamples;
  const std::int64_t stride = cellsPerPixel / samples;
  std::uint32_t r = 0, g = 0, b = 0;
  for (std::int64_t sy = 0; sy < samples; ++sy) {
    const std::int64_t y = floorMod(vy * cellsPerPixel + sy * stride, height);
    for (std::int64_t sx = 0; sx < samples; ++sx) {
      const std::int64_t x = floorMod(vx * cellsPerPixel + sx * stride, width);
      const std::uint32_t c = cellRgba(trail[std::uint64_t(y) * std::uint64_t(width) + std::uint64_t(x)], x == 0 || y == 0);
      r += c & 0xFF;
      g += (c >> 8) & 0xFF;
      b += (c >> 16) & 0xFF;
    }
  }
  const std::uint32_t n = std::uint32_t(samples * samples);
  return packRgba(r / n, g / n, b / n);
}

/// Per-cell trail state of one Life world, on the host or on the device, and the two display
/// passes: update() once per displayed frame, render() once per drawn frame.
class LifeDisplay {
 public:
  /// @param onDevice keep the trail in device memory (needs CUDA); then update() takes device
  ///        cells and render() writes device pixels.
  /// @throws InputError for width or height < 1; InputError if onDevice in a build without CUDA;
  ///         OutOfMemoryError / CudaError from the allocation.
  LifeDisplay(std::int64_t width, std::int64_t height, bool onDevice);
  ~LifeDisplay();
  LifeDisplay(LifeDisplay&&) noexcept;
  LifeDisplay& operator=(LifeDisplay&&) noexcept;

  std::int64_t width() const { return width_; }
  std::int64_t height() const { return height_; }
  bool onDevice() const { return onDevice_; }

  /// Forgets the history (all trail bytes 0).
  void reset();
  /// Advances every cell's trail byte by one frame, reading each cell with cellAlive().
  /// @param cells the current generation, width() x height(), in any CellLayout; its data is
  ///        device memory iff onDevice() (e.g. Engine::deviceCells()), host memory otherwise
  /// @throws std::invalid_argument when `cells` is null, of another size or its pitch is short
  ///         (validateCellView); CudaError on a launch failure
  void update(const CellView& cells);
  /// Writes pixelsWide x pixelsHigh RGBA8 pixels (row-major, top row first, 4 bytes per pixel,
  /// see packRgba) into `rgba`: a device pointer iff onDevice(). Every pixel is written.
  /// @throws std::invalid_argument for a negative pixel size or a view.zoomLog2 outside
  ///         [kMinZoomLog2, kMaxZoomLog2] (the message names it); CudaError on a launch failure
  void render(std::uint32_t* rgba, int pixelsWide, int pixelsHigh, const ViewTransform& view) const;
  /// Host copy of the trail bytes (for tests).
  std::vector<std::uint8_t> trail() const;

 private:
  std::int64_t width_ = 0, height_ = 0;
  bool onDevice_ = false;
  std::vector<std::uint8_t> hostTrail_;
  std::uint8_t* d_trail_ = nullptr;
};

}  // namespace flocklife::life
