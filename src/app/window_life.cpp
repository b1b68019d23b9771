// The Life view (see window_life.hpp).
#include "app/window_life.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <cstdio>
#include <vector>

#include "app/frame_loop.hpp"
#include "common/errors.hpp"
#include "common/render/input.hpp"
#include "common/render/views.hpp"
#include "life/display.hpp"
#include "life/pattern.hpp"

namespace flocklife::app {

namespace {

/// Pan, zoom and key state of the Life view (GLFW events arrive through InputListener; R reseeds).
struct LifeInput final : render::InputListener {
  life::ViewTransform view;
  render::PlaybackKeys keys;
  std::uint64_t gensPerFrame = 1;
  render::DragTracker drag{true};  ///< pans in whole pixels, so that panning stays pixel exact
  std::string dropped;  ///< a pattern file dropped on the window, to open next frame
  int droppedCount = 0;  ///< the files dropped with it (only `dropped` is opened)

  void onKey(int key) override {
    if (keys.handle(key)) return;
    switch (key) {
      case GLFW_KEY_LEFT_BRACKET: gensPerFrame = std::max<std::uint64_t>(1, gensPerFrame / 2); break;
      case GLFW_KEY_RIGHT_BRACKET:  // doubles up to 2^20; a larger --gens-per-frame is never lowered
        gensPerFrame = std::max(gensPerFrame, std::min<std::uint64_t>(1u << 20, gensPerFrame * 2));
        break;
      default: break;
    }
  }
  void onMouseButton(int button, bool pressed, double x, double y) override { drag.button(button, pressed, x, y); }
  void onCursor(double x, double y) override {
    const auto d = drag.move(x, y);
    if (!d) return;
    view.panX -= std::int64_t(d->dx);
    view.panY -= std::int64_t(d->dy);
  }
  void onDrop(const std::string& first, int count) override {
    dropped = first;
    droppedCount = count;
  }
  void onScroll(double dy, double x, double y) override {
    const std::int64_t cx = std::int64_t(x), cy = std::int64_t(y);
    if (dy > 0 && view.zoomLog2 < life::kMaxZoomLog2) {  // zoom in: the view pixel under the cursor stays
      view.panX = 2 * (view.panX + cx) - cx;
      view.panY = 2 * (view.panY + cy) - cy;
      ++view.zoomLog2;
    } else if (dy < 0 && view.zoomLog2 > life::kMinZoomLog2) {
      view.panX = life::floorDiv(view.panX + cx, 2) - cx;
      view.panY = life::floorDiv(view.panY + cy, 2) - cy;
      --view.zoomLog2;
    }
  }
};

/// The largest zoom at which the whole world fits the window, and the pan that centres it.
life::ViewTransform fitView(std::int64_t worldW, std::int64_t worldH, int winW, int winH, int zoom) {
  life::ViewTransform v;
  if (zoom == INT_MIN) {
    zoom = life::kMaxZoomLog2;
    auto span = [](std::int64_t cells, int z) { return z >= 0 ? cells << z : (cells + (1 << -z) - 1) >> -z; };
    while (zoom > life::kMinZoomLog2 && (span(worldW, zoom) > winW || span(worldH, zoom) > winH)) --zoom;
  }
  if (zoom < life::kMinZoomLog2 || zoom > life::kMaxZoomLog2)
    throw InputError("--zoom " + std::to_string(zoom) + ": expected an integer in [" +
                     std::to_string(life::kMinZoomLog2) + ", " + std::to_string(life::kMaxZoomLog2) + "]");
  v.zoomLog2 = zoom;
  const std::int64_t spanX = zoom >= 0 ? worldW << zoom : worldW >> -zoom;
  const std::int64_t spanY = zoom >= 0 ? worldH << zoom : worldH >> -zoom;
  v.panX = life::floorDiv(spanX - winW, 2);
  v.panY = life::floorDiv(spanY - winH, 2);
  return v;
}

}  // namespace

DroppedPattern openDroppedPattern(const std::string& path, std::int64_t width, std::int64_t height,
                                  const life::Rule& rule) {
  DroppedPattern r;
  try {
    const life::Pattern p = life::loadPattern(path, std::pair{width, height});
    std::uint64_t outsideTorus = 0;
    r.world = life::placePattern(p, width, height, std::nullopt, &outsideTorus);
    r.messages.push_back("opened " + path);
    if (outsideTorus) r.messages.push_back("note: " + life::outsideTorusNote(p, path, outsideTorus));
    if (p.rule && *p.rule != rule)
      r.messages.push_back("note: " + path + " gives the rule " + p.rule->str() + "; it runs under this window's " +
                           rule.str() + " (--pattern takes the file's rule)");
    if (p.torus && *p.torus != std::pair{width, height})
      r.messages.push_back("note: " + path + " gives a " + std::to_string(p.torus->first) + "x" +
                           std::to_string(p.torus->second) + " torus; it runs on this window's " + std::to_string(width) +
                           "x" + std::to_string(height));
  } catch (const InputError& e) {  // (a malformed file, one too large for the torus)
    r.messages.push_back(std::string("cannot open the dropped file: ") + e.what());
  } catch (const OutOfMemoryError& e) {  // (not a CudaError: that one ends the window)
    r.messages.push_back(std::string("cannot open the dropped file: ") + e.what());
  }
  return r;
}

LifeWindowResult runLifeWindow(const WindowOptions& options, const LifeWindowSetup& setup) {
  if (options.zoom != INT_MIN && (options.zoom < life::kMinZoomLog2 || options.zoom > life::kMaxZoomLog2))
    fitView(1, 1, 1, 1, options.zoom);  // throws the --zoom message
  const std::int64_t w = setup.world.width(), h = setup.world.height();
  auto engine = life::makeEngine(setup.kernel, setup.rule, setup.params);
  engine->load(setup.world);
  const bool deviceCells = engine->deviceCells().has_value();

  FrameLoop loop(options, "flocklife life " + setup.rule.str() + " " + std::to_string(w) + "x" + std::to_string(h),
                 deviceCells ? setup.cudaDevice : -1);
  render::GlContext& ctx = loop.context();
  render::PixelView pixels(loop.shaderDir());
  pixels.resize(ctx.width(), ctx.height());
  bool interop = false;
  if (deviceCells && !options.noInterop) {
    try {
      pixels.enableInterop();
      interop = true;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "flocklife: note: CUDA-OpenGL interop unavailable (%s); uploading frames from the host\n",
                   e.what());
    }
  }
  // With interop the display reads the engine's state buffer in its own layout and the trail
  // bytes and pixels stay on the device; otherwise each frame's world comes through the host.
  life::LifeDisplay display(w, h, interop);
  std::uint64_t hostCopies = 0;
  auto feed = [&] {
    if (interop) {
      const auto cells = engine->deviceCells();
      if (!cells) throw std::logic_error("Life window: the " + engine->info().name + " kernel lost its device cells");
      display.update(*cells);
      return;
    }
    const life::World current = engine->world();
    display.update(life::CellView::bytePerCell(current.cells().data(), w, h));
    ++hostCopies;
  };
  feed();

  LifeInput input;
  input.gensPerFrame = std::max<std::uint64_t>(1, setup.gensPerFrame);
  input.view = fitView(w, h, ctx.width(), ctx.height(), options.zoom);
  ctx.setListener(&input);
  std::vector<std::uint32_t> hostPixels;
  std::uint64_t generation = setup.generation, reseeds = 0, stepsThisFrame = 0, shown = generation;
  std::uint64_t piece = 1;  // generations per piece of a frame (life::stepInPieces), kept across frames

  while (loop.running()) {
    pixels.resize(ctx.width(), ctx.height());
    if (interop) {
      std::uint32_t* d_rgba = pixels.mapDevice();
      display.render(d_rgba, pixels.width(), pixels.height(), input.view);
      pixels.unmapDevice();
    } else {
      hostPixels.assign(std::size_t(pixels.width()) * std::size_t(pixels.height()), 0xFFFF00FFu);  // poison: magenta
      display.render(hostPixels.data(), pixels.width(), pixels.height(), input.view);
      pixels.upload(hostPixels.data());
    }
    pixels.draw();
    shown = generation;
    const std::string status = std::string(engine->info().name) + (interop ? " interop" : " upload") + " | gen " +
                               std::to_string(generation) + " | " + std::to_string(input.gensPerFrame) +
                               " gen/frame" + (input.keys.paused ? " | paused" : "");
    loop.endFrame(stepsThisFrame, status);
    stepsThisFrame = 0;
    if (input.keys.quit) {  // at once: no step, nor a dropped file or R queued with it
      ctx.requestClose();
      continue;
    }
    if (!loop.running()) continue;  // the last frame (--frames, the bench's time): no step it would not show

    if (!input.dropped.empty()) {
      // A dropped RLE / .cells file replaces the world; a bad one is reported and the window runs on.
      if (const std::string note = render::droppedFilesNote(input.droppedCount, input.dropped); !note.empty())
        std::fprintf(stderr, "flocklife: %s\n", note.c_str());
      const DroppedPattern opened = openDroppedPattern(std::exchange(input.dropped, std::string()), w, h, setup.rule);
      for (const auto& m : opened.messages) std::fprintf(stderr, "flocklife: %s\n", m.c_str());
      if (opened.world) {
        engine->load(*opened.world);
        display.reset();
        generation = 0;
        feed();
      }
    } else if (input.keys.restart) {
      input.keys.restart = false;
      engine->load(life::randomSoup(w, h, setup.density, setup.seed + ++reseeds));
      display.reset();
      generation = 0;
      feed();
    } else if (!input.keys.paused || input.keys.stepOnce) {
      const std::uint64_t g = input.keys.stepOnce ? 1 : input.gensPerFrame;
      input.keys.stepOnce = false;
      // In pieces that a signal ends: a frame of 3e7 generations ran on after Ctrl-C, and a second
      // one lost the recording (a tester). The loop then ends without drawing the generation reached.
      const std::uint64_t done =
          life::stepInPieces(*engine, g, piece, [&loop] { return loop.interrupted(); }, /*waitShort=*/false);
      generation += done;
      stepsThisFrame = done;
      feed();
    }
  }
  ctx.setListener(nullptr);
  loop.finish();
  return {interop, shown, hostCopies};
}

}  // namespace flocklife::app
