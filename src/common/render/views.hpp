#pragma once
/// @file views.hpp
/// The two things flocklife draws (a current GL context is needed for every call):
/// - PixelView: a width x height RGBA8 pixel buffer object shown one texel per window pixel
///   (the Life display writes it), after NightElfik's PBO + texture + full-window quad.
/// - PointView: numPoints x 6 floats (x, y, z, r, g, b) in a vertex buffer drawn as points in a
///   3-D view, plus the edges of the cube [-scale, scale]^3 (boids).
/// Both are filled either through CUDA-OpenGL interop (mapDevice / unmapDevice: a device
/// pointer, no host copy; builds with CUDA only) or by a host upload (glBufferSubData).
#include <cstdint>
#include <memory>
#include <string>

namespace flocklife::render {

class InteropBuffer;

/// True when this build can map GL buffers into CUDA (built with CUDA).
bool interopBuilt();

class PixelView {
 public:
  /// Loads life.vert + life.frag from `shaderDir`. @throws InputError (shader files)
  explicit PixelView(const std::string& shaderDir);
  ~PixelView();
  PixelView(const PixelView&) = delete;
  PixelView& operator=(const PixelView&) = delete;

  /// Reallocates the buffer and texture for width x height pixels (no-op if unchanged). With
  /// interop enabled the buffer is registered again.
  void resize(int width, int height);
  int width() const { return width_; }
  int height() const { return height_; }

  /// Registers the pixel buffer with CUDA (once per size). @throws CudaError, InputError
  /// without CUDA.
  void enableInterop();
  bool interopEnabled() const;
  /// Device pointer to width x height packed RGBA8 pixels (top row first) until unmapDevice().
  std::uint32_t* mapDevice();
  void unmapDevice();
  /// Copies width x height host pixels (top row first) into the buffer.
  void upload(const std::uint32_t* rgba);
  /// Draws the buffer over the whole viewport; with `blend`, by alpha over what was drawn before
  /// (pixels of alpha 0 leave it as it was).
  void draw(bool blend = false);

 private:
  unsigned program_ = 0, vao_ = 0, pbo_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
  bool wantInterop_ = false;
  std::unique_ptr<InteropBuffer> interop_;
};

class PointView {
 public:
  /// Loads points.vert + points.frag from `shaderDir`. @throws InputError (shader files)
  explicit PointView(const std::string& shaderDir);
  ~PointView();
  PointView(const PointView&) = delete;
  PointView& operator=(const PointView&) = delete;

  /// Capacity for numPoints points (reallocates, and re-registers with interop, when it grows).
  void reserve(std::int64_t numPoints);
  void enableInterop();
  bool interopEnabled() const;
  /// Device pointer to capacity x 6 floats until unmapDevice().
  float* mapDevice();
  void unmapDevice();
  /// Copies numPoints x 6 host floats into the buffer (numPoints <= capacity).
  void upload(const float* xyzrgb, std::int64_t numPoints);
  /// Sets the cube drawn by draw(): edges of [-scale, scale]^3 in colour (r, g, b).
  void setCube(float scale, float r, float g, float b);
  /// Clears to black and draws the cube edges and the first numPoints points.
  /// @param mvp column-major 4x4 model-view-projection matrix (glm::value_ptr)
  void draw(const float* mvp, std::int64_t numPoints, float pointSizePixels);

 private:
  unsigned program_ = 0, vao_ = 0, vbo_ = 0, cubeVao_ = 0, cubeVbo_ = 0;
  std::int64_t capacity_ = 0;
  bool wantInterop_ = false;
  std::unique_ptr<InteropBuffer> interop_;
};

}  // namespace flocklife::render
