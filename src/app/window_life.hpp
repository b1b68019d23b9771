#pragma once
/// @file window_life.hpp
/// `flocklife life --window`: the Life view. The engine runs `gensPerFrame` generations per
/// frame; the Life display (life/display.hpp) turns the world into pixels. With a GPU engine it
/// reads the engine's own state buffer (Engine::deviceCells(), any layout) and writes straight into
/// the GL pixel buffer through CUDA-OpenGL interop, with no copy through the host; otherwise it
/// takes Engine::world() on the host each frame and uploads the pixels.
/// Mouse: drag pans, scroll zooms around the cursor (powers of two, pixel exact). Keys: space
/// pause, N one step, [ and ] halve / double generations per frame, R re-seed, Esc quit. A
/// pattern file (.rle, .cells) dropped on the window replaces the world (same torus size).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/window_options.hpp"
#include "life/engine.hpp"
#include "life/rule.hpp"
#include "life/world.hpp"

namespace flocklife::app {

struct LifeWindowSetup {
  life::Rule rule;
  life::World world;              ///< the first generation shown
  std::string kernel;             ///< engine name (makeEngine)
  life::KernelParams params;
  std::uint64_t gensPerFrame = 1;
  double density = 0.5;           ///< R re-seeds a soup of this density ...
  std::uint64_t seed = 1;         ///< ... with seed + 1, seed + 2, ...
  int cudaDevice = -1;            ///< the CUDA device of GPU kernels (-1: none)
  std::uint64_t generation = 0;   ///< the number of `world`'s generation (a resumed checkpoint's; 0 for a new start)
};

/// What a run of the window did (for tests and logs).
struct LifeWindowResult {
  bool interop = false;         ///< pixels went through CUDA-OpenGL interop (else host uploads)
  std::uint64_t generation = 0; ///< the generation shown when the window closed
  std::uint64_t hostCopies = 0; ///< frames whose world came through the host (Engine::world()); 0 with interop
};

/// A pattern file (.rle, .cells) dropped on a width x height window that runs `rule`: the world to
/// load, the pattern placed as Golly does (life::placePattern), and the lines to print: "opened
/// PATH", then a note where the file gives another rule or torus (the window keeps its own). A
/// file that cannot be read, is malformed, or does not fit the torus or the host memory gives no
/// world and one line saying why; the window keeps running. Throws nothing from the file.
struct DroppedPattern {
  std::optional<life::World> world;
  std::vector<std::string> messages;  ///< each without "flocklife: " and the newline
};
DroppedPattern openDroppedPattern(const std::string& path, std::int64_t width, std::int64_t height,
                                  const life::Rule& rule);

/// Runs the window until it closes or --frames N frames are drawn. Frame 1 shows
/// setup.world; frame k shows generation (k - 1) * gensPerFrame unless paused.
/// @throws InputError for bad window options; std::runtime_error when no GL context exists.
LifeWindowResult runLifeWindow(const WindowOptions& options, const LifeWindowSetup& setup);

}  // namespace flocklife::app
