#pragma once
/// @file gl_context.hpp
/// An OpenGL 4.5+ core context: a GLFW window on a display, or, without one, a headless EGL
/// context on the GPU (EGL_EXT_platform_device, the EGL device whose EGL_CUDA_DEVICE_NV is the
/// CUDA device; surfaceless or a 1x1 pbuffer) that draws into a framebuffer object. Asks for 4.6
/// and falls back to 4.5 (Mesa's llvmpipe stops at 4.5). GL functions are loaded with glad.
/// Include <glad/gl.h> (or this header) before any GLFW header.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace flocklife::render {

struct ContextOptions {
  int width = 1024, height = 768;  ///< window or framebuffer size, pixels
  std::string title = "flocklife";
  bool vsync = true;               ///< swap interval 1 (windows only)
  bool headless = false;           ///< EGL + framebuffer object even where a display exists
  int cudaDevice = -1;             ///< headless: the CUDA device to render on (-1: the first EGL device)
};

/// Input events of a window (GLFW key and button codes). Headless contexts send none.
class InputListener {
 public:
  virtual ~InputListener() = default;
  virtual void onKey(int /*glfwKey*/) {}
  virtual void onMouseButton(int /*glfwButton*/, bool /*pressed*/, double /*x*/, double /*y*/) {}
  virtual void onCursor(double /*x*/, double /*y*/) {}
  virtual void onScroll(double /*dy*/, double /*x*/, double /*y*/) {}
  /// Files dropped on the window: the first of them, and how many there were.
  virtual void onDrop(const std::string& /*first*/, int /*count*/) {}
};

/// The note of a window that opens one dropped file of `count` dropped at once, `first`: "" for one
/// file, else "note: 3 files dropped; opening the first, <first>, only" (the others were left
/// without a word; a new user's trial).
std::string droppedFilesNote(int count, const std::string& first);

/// True when a window can be opened: DISPLAY or WAYLAND_DISPLAY is set.
bool haveDisplay();

/// Checks that GLFW can reach the display haveDisplay found (glfwInit, once per process; GLFW stays
/// initialised for the window that follows), so that a run refuses an unreachable one before it
/// reads its input or measures anything (bench fps --visual both measured its steps-only row first).
/// @throws InputError "GLFW cannot open the display (<GLFW's reason>); expected a display that can be
///         opened, or none: with DISPLAY and WAYLAND_DISPLAY unset (or --headless, where the command
///         has it) frames are drawn off-screen through EGL"; with WAYLAND_DISPLAY alone and a GLFW
///         built for X11 only, "(<reason>); WAYLAND_DISPLAY is set but this build's GLFW (<version>)
///         opens X11 displays only: set DISPLAY to the session's XWayland display, such as :0; ...".
void requireDisplayOpens();

class GlContext {
 public:
  /// Opens the window (or the headless context) and makes its context current.
  /// @throws std::runtime_error naming the step that failed (GLFW init, window creation, no EGL
  ///         device, no 4.5 core context, glad load).
  explicit GlContext(const ContextOptions& options);
  ~GlContext();
  GlContext(const GlContext&) = delete;
  GlContext& operator=(const GlContext&) = delete;

  bool headless() const;
  /// "OpenGL 4.6 core, NVIDIA H200/PCIe/SSE2, EGL headless" (for logs).
  std::string describe() const;
  /// Current drawable size in pixels.
  int width() const;
  int height() const;
  /// True once the user closed the window (or requestClose() was called).
  bool shouldClose() const;
  void requestClose();
  void setTitle(const std::string& title);
  /// Receives the window's input events until replaced; nullptr to stop.
  void setListener(InputListener* listener);
  /// Ends a frame: swaps buffers and polls events (window), or finishes the GL work (headless).
  void endFrame();
  /// The drawn frame (call before endFrame()): width() x height() RGBA8, top row first; the size
  /// read goes to `*width` and `*height` when given (a window may be resized between two calls of
  /// width()).
  std::vector<std::uint8_t> readPixels(int* width = nullptr, int* height = nullptr) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace flocklife::render
