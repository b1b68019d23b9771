// PixelView and PointView (see views.hpp).
#include "common/render/views.hpp"

#include <glad/gl.h>

#include <stdexcept>
#include <vector>

#include "common/errors.hpp"
#include "common/render/shader.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "common/render/interop.hpp"
#endif

namespace flocklife::render {

#ifdef FLOCKLIFE_HAVE_CUDA
bool interopBuilt() { return true; }
// InteropBuffer is complete here, so the unique_ptr members can be destroyed.
#define FL_MAKE_INTEROP(buffer) std::make_unique<InteropBuffer>(buffer)
#else
bool interopBuilt() { return false; }
class InteropBuffer {
 public:
  void* map() { return nullptr; }
  void unmap() {}
};
#define FL_MAKE_INTEROP(buffer) \
  (throw InputError("CUDA-OpenGL interop: this build has no CUDA"), std::unique_ptr<InteropBuffer>())
#endif

// ---- PixelView ----

PixelView::PixelView(const std::string& shaderDir) {
  program_ = loadProgram(shaderDir, "life.vert", "life.frag");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &pbo_);
  glGenTextures(1, &texture_);
}

PixelView::~PixelView() {
  interop_.reset();
  glDeleteTextures(1, &texture_);
  glDeleteBuffers(1, &pbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteProgram(program_);
}

void PixelView::resize(int width, int height) {
  if (width < 1 || height < 1) throw std::invalid_argument("PixelView::resize: size must be at least 1x1");
  if (width == width_ && height == height_) return;
  interop_.reset();
  width_ = width;
  height_ = height;
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
  glBufferData(GL_PIXEL_UNPACK_BUFFER, GLsizeiptr(width) * height * 4, nullptr, GL_STREAM_DRAW);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  if (wantInterop_) interop_ = FL_MAKE_INTEROP(pbo_);
}

void PixelView::enableInterop() {
  wantInterop_ = true;
  if (!interop_ && width_ > 0) interop_ = FL_MAKE_INTEROP(pbo_);
}

bool PixelView::interopEnabled() const { return interop_ != nullptr; }

std::uint32_t* PixelView::mapDevice() {
  if (!interop_) throw std::logic_error("PixelView::mapDevice: interop not enabled");
  return static_cast<std::uint32_t*>(interop_->map());
}

void PixelView::unmapDevice() {
  if (interop_) interop_->unmap();
}

void PixelView::upload(const std::uint32_t* rgba) {
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
  glBufferSubData(GL_PIXEL_UNPACK_BUFFER, 0, GLsizeiptr(width_) * height_ * 4, rgba);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
}

void PixelView::draw(bool blend) {
  glViewport(0, 0, width_, height_);
  glDisable(GL_DEPTH_TEST);
  if (blend) {
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  }
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, pbo_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glBindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glUseProgram(program_);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  if (blend) glDisable(GL_BLEND);
}

// ---- PointView ----

namespace {
void setXyzRgbLayout() {
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), reinterpret_cast<void*>(3 * sizeof(float)));
}
}  // namespace

PointView::PointView(const std::string& shaderDir) {
  program_ = loadProgram(shaderDir, "points.vert", "points.frag");
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  setXyzRgbLayout();
  glGenVertexArrays(1, &cubeVao_);
  glGenBuffers(1, &cubeVbo_);
  glBindVertexArray(cubeVao_);
  glBindBuffer(GL_ARRAY_BUFFER, cubeVbo_);
  glBufferData(GL_ARRAY_BUFFER, 24 * 6 * sizeof(float), nullptr, GL_STATIC_DRAW);
  setXyzRgbLayout();
  glBindVertexArray(0);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

PointView::~PointView() {
  interop_.reset();
  glDeleteBuffers(1, &vbo_);
  glDeleteBuffers(1, &cubeVbo_);
  glDeleteVertexArrays(1, &vao_);
  glDeleteVertexArrays(1, &cubeVao_);
  glDeleteProgram(program_);
}

void PointView::reserve(std::int64_t numPoints) {
  if (numPoints < 0) throw std::invalid_argument("PointView::reserve: negative count");
  if (numPoints <= capacity_) return;
  interop_.reset();
  capacity_ = numPoints;
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, GLsizeiptr(capacity_) * 6 * GLsizeiptr(sizeof(float)), nullptr, GL_DYNAMIC_DRAW);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
  if (wantInterop_) interop_ = FL_MAKE_INTEROP(vbo_);
}

void PointView::enableInterop() {
  wantInterop_ = true;
  if (!interop_ && capacity_ > 0) interop_ = FL_MAKE_INTEROP(vbo_);
}

bool PointView::interopEnabled() const { return interop_ != nullptr; }

float* PointView::mapDevice() {
  if (!interop_) throw std::logic_error("PointView::mapDevice: interop not enabled");
  return static_cast<float*>(interop_->map());
}

void PointView::unmapDevice() {
  if (interop_) interop_->unmap();
}

void PointView::upload(const float* xyzrgb, std::int64_t numPoints) {
  if (numPoints > capacity_) throw std::invalid_argument("PointView::upload: more points than reserved");
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(numPoints) * 6 * GLsizeiptr(sizeof(float)), xyzrgb);
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void PointView::setCube(float scale, float r, float g, float b) {
  std::vector<float> v;
  v.reserve(24 * 6);
  // The 12 edges: pairs of corners that differ in one coordinate.
  for (int a = 0; a < 8; ++a)
    for (int bit = 0; bit < 3; ++bit) {
      const int c = a | (1 << bit);
      if (c == a) continue;
      for (int corner : {a, c})
        v.insert(v.end(), {corner & 1 ? scale : -scale, corner & 2 ? scale : -scale, corner & 4 ? scale : -scale, r, g, b});
    }
  glBindBuffer(GL_ARRAY_BUFFER, cubeVbo_);
  glBufferSubData(GL_ARRAY_BUFFER, 0, GLsizeiptr(v.size() * sizeof(float)), v.data());
  glBindBuffer(GL_ARRAY_BUFFER, 0);
}

void PointView::draw(const float* mvp, std::int64_t numPoints, float pointSizePixels) {
  glClearColor(0.f, 0.f, 0.f, 1.f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  glEnable(GL_DEPTH_TEST);
  glEnable(GL_PROGRAM_POINT_SIZE);
  glUseProgram(program_);
  glUniformMatrix4fv(glGetUniformLocation(program_, "mvp"), 1, GL_FALSE, mvp);
  glUniform1f(glGetUniformLocation(program_, "pointSize"), pointSizePixels);
  glBindVertexArray(cubeVao_);
  glDrawArrays(GL_LINES, 0, 24);
  if (numPoints > 0) {
    glBindVertexArray(vao_);
    glDrawArrays(GL_POINTS, 0, GLsizei(numPoints < capacity_ ? numPoints : capacity_));
  }
  glBindVertexArray(0);
}

}  // namespace flocklife::render
