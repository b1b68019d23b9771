#pragma once
/// @file frame_loop.hpp
/// The loop shared by the Life and boids windows: opens the GL context (a window, or EGL
/// headless with --headless or when there is no display), finds the shaders, and at the end of
/// each frame records it (--record), saves frame N (--screenshot), updates the title bar with
/// FPS and simulation steps/s, swaps and polls events. Built only with window support.
#include <cstdint>
#include <memory>
#include <string>

#include "app/window_options.hpp"
#include "common/checkpoint_io.hpp"
#include "common/render/capture.hpp"
#include "common/render/gl_context.hpp"
#include "common/timer.hpp"

namespace flocklife::app {

class FrameLoop {
 public:
  /// @param cudaDevice the CUDA device the simulation runs on (-1: none); a headless context is
  ///        created on it so that interop works.
  /// @throws InputError for bad options (see validateWindowOptions), std::runtime_error when no
  ///         context can be created.
  FrameLoop(const WindowOptions& options, const std::string& title, int cudaDevice);

  render::GlContext& context() { return *ctx_; }
  const std::string& shaderDir() const { return shaderDir_; }
  /// False once the window closed, --frames N frames were drawn, stopAfterSeconds passed, or
  /// SIGINT, SIGTERM or SIGHUP arrived (which the loop catches while it lives, as InterruptFlag).
  bool running() const;
  /// Whether SIGINT, SIGTERM or SIGHUP arrived (running() is then false).
  bool interrupted() const { return interrupt_->raised(); }
  /// Frames finished so far.
  std::int64_t frame() const { return frame_; }
  /// Ends the drawn frame. `steps`: simulation steps (generations, boid steps) done since the
  /// last call; `status`: the title bar's tail (method, paused, ...). With --record, a frame of
  /// another size than the first (the window resized or minimised) is cropped or padded with black
  /// to the first's size, its top-left corner kept, with a note the first time.
  void endFrame(std::uint64_t steps, const std::string& status);
  /// Prints the run's line ("flocklife: N frames in T s: F FPS and S steps/s over the whole run
  /// (warm-up included)", stderr,
  /// from the start to the end of the last frame) and finishes the recording (ffmpeg), so that a
  /// recording stopped by Ctrl-C keeps the frames drawn. @throws InputError when ffmpeg failed, or
  /// "--screenshot <path> was not saved: the window was closed after frame F, before frame N
  /// (--frames N)"; Interrupted ("interrupted by signal S after frame F: ...", saying what was kept) when a signal
  /// ended the loop.
  void finish();

 private:
  WindowOptions opt_;
  std::string title_, shaderDir_;
  std::unique_ptr<render::GlContext> ctx_;
  std::unique_ptr<render::Recorder> recorder_;
  std::unique_ptr<InterruptFlag> interrupt_;
  int recordWidth_ = 0, recordHeight_ = 0;  ///< the recording's frame size (the first frame's)
  bool resizeNoted_ = false;                 ///< the note on a resized window was printed
  mutable bool stoppedBySignal_ = false;  ///< running() ended the loop on a signal
  std::int64_t frame_ = 0;
  HostTimer titleTimer_, runTimer_;
  std::int64_t titleFrames_ = 0;
  std::uint64_t titleSteps_ = 0;
  double fps_ = 0, stepsPerSecond_ = 0;
  std::uint64_t totalSteps_ = 0;  ///< steps reported by every endFrame so far
  double endSeconds_ = 0;         ///< run time at the end of the last frame
};

}  // namespace flocklife::app
