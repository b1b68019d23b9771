// The boids view (see window_boids.hpp).
#include "app/window_boids.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <glm/glm.hpp>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>
#include <optional>
#include <vector>

#include "app/frame_loop.hpp"
#include "common/errors.hpp"
#include "common/render/input.hpp"
#include "common/render/views.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "common/device_buffer.cuh"
#include "common/point_splat.hpp"
#endif

namespace flocklife::app {

std::array<float, 16> orbitMvp(const OrbitCamera& c, float scale, float aspect) {
  const float d = c.distance * scale;
  const glm::vec3 eye(d * std::cos(c.pitchRadians) * std::sin(c.yawRadians), d * std::sin(c.pitchRadians),
                      d * std::cos(c.pitchRadians) * std::cos(c.yawRadians));
  const glm::mat4 view = glm::lookAt(eye, glm::vec3(0.f), glm::vec3(0.f, 1.f, 0.f));
  const glm::mat4 proj = glm::perspective(glm::radians(45.f), aspect, 0.05f * scale, 20.f * scale);
  const glm::mat4 mvp = proj * view;
  std::array<float, 16> out;
  std::memcpy(out.data(), glm::value_ptr(mvp), sizeof out);
  return out;
}

namespace {

/// Orbit camera, method, boid count and play-control state of the boids view (R resets the boids).
struct BoidsInput final : render::InputListener {
  OrbitCamera camera;
  render::PlaybackKeys keys;
  render::DragTracker drag;  // rotates the camera
  int method = 0;          // 1..9 requested, 0 = none
  int countChange = 0;     // +1 double, -1 halve

  void onKey(int key) override {
    if (keys.handle(key)) return;
    if (key >= GLFW_KEY_1 && key <= GLFW_KEY_9) method = key - GLFW_KEY_1 + 1;
    switch (key) {
      case GLFW_KEY_EQUAL: case GLFW_KEY_KP_ADD: countChange = 1; break;
      case GLFW_KEY_MINUS: case GLFW_KEY_KP_SUBTRACT: countChange = -1; break;
      default: break;
    }
  }
  void onMouseButton(int button, bool pressed, double x, double y) override { drag.button(button, pressed, x, y); }
  void onCursor(double x, double y) override {
    const auto d = drag.move(x, y);
    if (!d) return;
    camera.yawRadians -= float(d->dx) * 0.01f;
    camera.pitchRadians = std::clamp(camera.pitchRadians + float(d->dy) * 0.01f, -1.5f, 1.5f);
  }
  void onScroll(double dy, double, double) override {
    camera.distance = std::clamp(camera.distance * std::pow(0.9f, float(dy)), 1.2f, 12.f);
  }
};

}  // namespace

void runBoidsWindow(const WindowOptions& options, BoidsSource& source, int cudaDevice) {
  // Known before the window opens (it was refused after; a new user's trial): a CPU method or
  // --no-interop. Interop that fails on this GPU is found only with the window's context, below.
  if (options.points == "splat" && (!source.writesDevice() || options.noInterop))
    throw InputError(std::string("--points splat: needs CUDA-OpenGL interop, which ") +
                     (options.noInterop ? "--no-interop turns off" : "a CPU method does not use") +
                     "; use --points gl");
  FrameLoop loop(options, "flocklife boids", source.writesDevice() ? cudaDevice : -1);
  render::GlContext& ctx = loop.context();
  render::PointView points(loop.shaderDir());
  points.setCube(source.scale(), 0.45f, 0.45f, 0.5f);
  bool interop = false;
  if (source.writesDevice() && !options.noInterop) {
    try {
      points.enableInterop();
      interop = true;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "flocklife: note: CUDA-OpenGL interop unavailable (%s); uploading boids from the host\n",
                   e.what());
    }
  }
  if (options.points == "splat" && !interop)
    throw InputError("--points splat: needs CUDA-OpenGL interop, which this run does not have; use --points gl");
#ifdef FLOCKLIFE_HAVE_CUDA
  // Point splatting: CUDA writes the image into `pixels` (interop), drawn over the cube's edges;
  // made at the first splatted frame.
  std::optional<render::PixelView> pixels;
  DeviceBuffer<std::uint64_t> depthColour;
#endif
  BoidsInput input;
  ctx.setListener(&input);
  std::vector<float> host;
  std::uint64_t stepsThisFrame = 0;
  while (loop.running()) {
    if (input.method) {
      if (!source.setMethod(input.method))
        std::fprintf(stderr, "flocklife: key %d: the %s backend has %d methods (keys 1 to %d); keeping %s\n",
                     input.method, source.writesDevice() ? "CUDA" : "CPU", source.methodCount(), source.methodCount(),
                     source.methodName().c_str());
      input.method = 0;
    }
    if (input.countChange) {
      const std::int64_t n = source.numBoids();
      try {  // a count out of range or beyond memory is said; the window runs on with n boids
        source.setNumBoids(input.countChange > 0 ? n * 2 : std::max<std::int64_t>(1, n / 2));
      } catch (const InputError& e) {
        std::fprintf(stderr, "flocklife: %s; keeping %lld boids\n", e.what(), (long long)n);
      } catch (const OutOfMemoryError& e) {
        std::fprintf(stderr, "flocklife: %s; keeping %lld boids\n", e.what(), (long long)n);
      } catch (const std::bad_alloc&) {  // beyond what the checks saw (a ulimit): the old boids are back
        // (one that fails later, in the frame's vertex buffers, the GL driver or the step, still ends
        // the window: setNumBoids counts the vertices, but not an address-space limit such as ulimit -v)
        std::fprintf(stderr, "flocklife: out of host memory for %lld boids; keeping %lld boids\n",
                     (long long)(input.countChange > 0 ? n * 2 : n / 2), (long long)n);
      }
      input.countChange = 0;
    }
    if (input.keys.restart) {
      source.reset();
      input.keys.restart = false;
    }
    const std::int64_t n = source.numBoids();
    const int w = ctx.width(), h = ctx.height();
    glViewport(0, 0, w, h);
    const auto mvp = orbitMvp(input.camera, source.scale(), float(w) / float(std::max(h, 1)));
    const bool splat = interop && w > 0 && h > 0 &&  // a minimized window has no pixels to splat into
                       (options.points == "splat" || (options.points == "auto" && n > kSplatAbove));
    points.reserve(n);
    if (splat) {
#ifdef FLOCKLIFE_HAVE_CUDA
      if (!pixels) pixels.emplace(loop.shaderDir());
      pixels->resize(w, h);
      pixels->enableInterop();
      if (depthColour.size() != std::size_t(w) * std::size_t(h))
        depthColour = DeviceBuffer<std::uint64_t>(std::size_t(w) * std::size_t(h), "splat: depth and colour per pixel");
      float* vertices = points.mapDevice();
      source.writeVertices(vertices, true);
      splat::Mat4 m;
      std::copy(mvp.begin(), mvp.end(), m.m);
      splat::splatGpu(vertices, n, m, w, h, depthColour.data(), pixels->mapDevice());
      pixels->unmapDevice();
      points.unmapDevice();
      points.draw(mvp.data(), 0, 1.f);  // clears, draws the cube's edges
      pixels->draw(true);
#endif
    } else {
      if (interop) {
        source.writeVertices(points.mapDevice(), true);
        points.unmapDevice();
      } else {
        host.assign(std::size_t(n) * 6, 0.f);
        source.writeVertices(host.data(), false);
        points.upload(host.data(), n);
      }
      points.draw(mvp.data(), n, n > 100000 ? 1.f : 2.f);
    }
    loop.endFrame(stepsThisFrame, source.methodName() + (splat ? " splat" : interop ? " interop" : " upload") + " | " +
                                      std::to_string(n) + " boids" + (input.keys.paused ? " | paused" : ""));
    stepsThisFrame = 0;
    if (input.keys.quit) {  // at once: no step, nor the + / - presses queued with it (a step at 2n on the CPU)
      ctx.requestClose();
      continue;
    }
    if (!loop.running()) continue;  // the last frame (--frames, the bench's time): no step it would not show
    if (!input.keys.paused || input.keys.stepOnce) {
      input.keys.stepOnce = false;
      stepsThisFrame = source.step([&loop] { return loop.interrupted(); }) ? 1 : 0;
    }
  }
  ctx.setListener(nullptr);
  loop.finish();
}

}  // namespace flocklife::app
