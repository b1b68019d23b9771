#pragma once
/// @file point_splat.hpp
/// Point splatting: a software rasterizer for one-pixel points, for point clouds too large for the
/// GPU's graphics pipeline (10M boids take ~16 ms per frame as GL_POINTS on the H200, whose
/// graphics units are few). Each point is projected to a pixel and written with a 64-bit atomic
/// minimum of (depth << 32 | colour), so the nearest point wins and, among equally near points,
/// the smaller packed colour: the image does not depend on the order the points are processed in.
/// After M. Schuetz, B. Kerbl, M. Wimmer, "Rendering Point Clouds with Compute Shaders and Vertex
/// Order Optimization", Computer Graphics Forum 40(4), 2021 (the 64-bit atomicMin technique).
///
/// Layouts: points are numPoints x 6 floats (x, y, z, r, g, b), the PointView vertex layout, colour
/// channels in [0, 1]; mvp is a column-major 4 x 4 matrix (OpenGL / glm); images are width x height
/// packed RGBA8 (byte 0 red ... byte 3 alpha), top row first, the PixelView layout; pixels no point
/// reaches are 0 (alpha 0, so that what was drawn before shows through when blended).
/// Pixel of a point: clip = mvp (x, y, z, 1); points with clip.w <= 0 or outside the clip volume
/// (|x|, |y|, |z| > w) are dropped; column floor((x/w + 1) / 2 * width), row (from the top)
/// floor((1 - y/w) / 2 * height), depth (z/w + 1) / 2 in [0, 1]. Every operation is explicitly
/// rounded (common/rounded.hpp, no fused multiply-add), so the CPU reference and the GPU agree
/// pixel for pixel.
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "common/rounded.hpp"

namespace flocklife::splat {

/// Column-major 4 x 4 matrix (element (row r, column c) at m[4 c + r]).
struct Mat4 {
  float m[16];
};

/// Packed (depth << 32 | rgba) of a pixel that no point reached.
inline constexpr std::uint64_t kEmpty = ~std::uint64_t(0);

/// Row r of mvp times (x, y, z, 1), explicitly rounded.
FL_HD FL_FORCEINLINE float clipRow(const Mat4& mvp, int r, float x, float y, float z) {
  return addRn(addRn(addRn(mulRn(mvp.m[r], x), mulRn(mvp.m[4 + r], y)), mulRn(mvp.m[8 + r], z)), mvp.m[12 + r]);
}

FL_HD FL_FORCEINLINE std::uint32_t channel8(float c) {
  c = c < 0.f ? 0.f : (c > 1.f ? 1.f : c);
  return std::uint32_t(addRn(mulRn(c, 255.f), 0.5f));
}

/// The pixel index (row-major, top row first) and packed (depth << 32 | rgba) of the point at
/// p[0..5] = x, y, z, r, g, b; false when the point is dropped (see the file comment).
FL_HD FL_FORCEINLINE bool splatKey(const float* p, const Mat4& mvp, int width, int height, std::uint32_t* pixel,
                                   std::uint64_t* key) {
  const float cw = clipRow(mvp, 3, p[0], p[1], p[2]);
  if (!(cw > 0.f)) return false;
  const float cx = clipRow(mvp, 0, p[0], p[1], p[2]), cy = clipRow(mvp, 1, p[0], p[1], p[2]),
              cz = clipRow(mvp, 2, p[0], p[1], p[2]);
  if (!(cx >= -cw && cx <= cw && cy >= -cw && cy <= cw && cz >= -cw && cz <= cw)) return false;
  const float nx = divRn(cx, cw), ny = divRn(cy, cw), depth = mulRn(addRn(divRn(cz, cw), 1.f), 0.5f);
  int col = int(mulRn(mulRn(addRn(nx, 1.f), 0.5f), float(width)));
  int row = int(mulRn(mulRn(addRn(1.f, -ny), 0.5f), float(height)));
  col = col >= width ? width - 1 : col;  // x/w == 1 exactly lands on the right edge
  row = row >= height ? height - 1 : row;
  const std::uint32_t depthBits = floatBits(depth);  // depth >= 0: its bits order as unsigned integers
  const std::uint32_t rgba = channel8(p[3]) | channel8(p[4]) << 8 | channel8(p[5]) << 16 | 0xFF000000u;
  *pixel = std::uint32_t(row) * std::uint32_t(width) + std::uint32_t(col);
  *key = std::uint64_t(depthBits) << 32 | rgba;
  return true;
}

/// CPU reference: width x height RGBA8 image of numPoints points (layouts in the file comment).
/// @throws std::invalid_argument when width or height is not positive or numPoints is negative.
std::vector<std::uint32_t> splatCpu(const float* xyzrgb, std::int64_t numPoints, const Mat4& mvp, int width,
                                    int height);

#ifdef FLOCKLIFE_HAVE_CUDA
/// GPU: writes the width x height RGBA8 image of numPoints points (device pointer xyzrgb) into
/// the device pointer rgba, using depthColour (width x height uint64, device) as scratch. Three
/// launches on the default stream: clear, splat (one thread per point, atomicMin), resolve.
/// @throws std::invalid_argument (sizes as splatCpu), CudaError.
void splatGpu(const float* xyzrgb, std::int64_t numPoints, const Mat4& mvp, int width, int height,
              std::uint64_t* depthColour, std::uint32_t* rgba);
#endif

}  // namespace flocklife::splat
