#pragma once
/// @file input.hpp
/// Input state the Life and boids windows share, fed from their render::InputListener
/// (gl_context.hpp) callbacks: a left-button drag and the play-control keys. Plain state, no GL
/// calls, so it works (and is tested) without a context.
#include <optional>

namespace flocklife::render {

/// Cursor movement of a drag, window pixels (x right, y down).
struct DragDelta {
  double dx = 0, dy = 0;
};

/// A drag with the left mouse button: button() starts it at the press and ends it at the
/// release; each move() while it lasts returns the movement since the last position consumed.
class DragTracker {
 public:
  /// @param wholePixels  move() returns whole pixels only (each coordinate's difference of
  ///                     truncated positions) and keeps the remainder for the next move, so that
  ///                     a pixel-exact pan never drifts; otherwise the full movement
  explicit DragTracker(bool wholePixels = false) : wholePixels_(wholePixels) {}
  /// From InputListener::onMouseButton: other buttons than the left one are ignored.
  void button(int glfwButton, bool pressed, double x, double y);
  /// From InputListener::onCursor: the movement to (x, y), or nullopt when no drag is on.
  std::optional<DragDelta> move(double x, double y);
  bool active() const { return active_; }

 private:
  bool wholePixels_;
  bool active_ = false;
  double lastX_ = 0, lastY_ = 0;
};

/// The keys both windows give the same meaning: Space pauses or resumes, N steps once and
/// pauses, R restarts (the window decides from what), Escape quits. The window reads and clears
/// the flags in its frame loop.
struct PlaybackKeys {
  bool paused = false, stepOnce = false, restart = false, quit = false;
  /// From InputListener::onKey. @return true when `glfwKey` is one of the four keys above
  bool handle(int glfwKey);
};

}  // namespace flocklife::render
