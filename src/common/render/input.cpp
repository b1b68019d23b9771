// Drag and play-control key state of the windows (see input.hpp).
#include "common/render/input.hpp"

#include <GLFW/glfw3.h>

#include <cstdint>

namespace flocklife::render {

void DragTracker::button(int glfwButton, bool pressed, double x, double y) {
  if (glfwButton != GLFW_MOUSE_BUTTON_LEFT) return;
  active_ = pressed;
  lastX_ = x;
  lastY_ = y;
}

std::optional<DragDelta> DragTracker::move(double x, double y) {
  if (!active_) return std::nullopt;
  DragDelta d;
  if (wholePixels_) {
    d.dx = double(std::int64_t(x) - std::int64_t(lastX_));
    d.dy = double(std::int64_t(y) - std::int64_t(lastY_));
    lastX_ += d.dx;
    lastY_ += d.dy;
  } else {
    d.dx = x - lastX_;
    d.dy = y - lastY_;
    lastX_ = x;
    lastY_ = y;
  }
  return d;
}

bool PlaybackKeys::handle(int glfwKey) {
  switch (glfwKey) {
    case GLFW_KEY_SPACE: paused = !paused; return true;
    case GLFW_KEY_N: paused = true; stepOnce = true; return true;
    case GLFW_KEY_R: restart = true; return true;
    case GLFW_KEY_ESCAPE: quit = true; return true;
    default: return false;
  }
}

}  // namespace flocklife::render
