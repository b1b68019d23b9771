// GLFW window or headless EGL context (see gl_context.hpp). EGL device selection after NVIDIA's
// "EGL Eye: OpenGL Visualization without an X Server" and the EGL_EXT_platform_device /
// EGL_NV_device_cuda extension specifications.
#include "common/render/gl_context.hpp"

#include <glad/gl.h>
#include <GLFW/glfw3.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "common/errors.hpp"

namespace flocklife::render {

namespace {

constexpr int kVersions[][2] = {{4, 6}, {4, 5}};

bool hasExtension(const char* list, const char* name) {
  if (!list) return false;
  const std::size_t n = std::strlen(name);
  for (const char* p = list; (p = std::strstr(p, name)); p += n)
    if ((p == list || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0')) return true;
  return false;
}

std::string eglErrorText() {
  char buf[32];
  std::snprintf(buf, sizeof buf, "EGL error 0x%04X", unsigned(eglGetError()));
  return buf;
}


}  // namespace

std::string droppedFilesNote(int count, const std::string& first) {
  if (count <= 1) return std::string();
  return "note: " + std::to_string(count) + " files dropped; opening the first, " + first + ", only";
}

bool haveDisplay() {
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  return (x && *x) || (w && *w);
}

namespace {
/// requireDisplayOpens' error, with GLFW's reason.
InputError displayError() {
  const char* d = nullptr;
  glfwGetError(&d);
  // A Wayland session without XWayland's DISPLAY, where GLFW was built for X11 only (Debian's
  // libglfw3), got GLFW's "X11: The DISPLAY environment variable is missing" alone (a tester).
  const char* x = std::getenv("DISPLAY");
  const char* w = std::getenv("WAYLAND_DISPLAY");
  const bool waylandOnly =
      !(x && *x) && (w && *w) && std::strstr(glfwGetVersionString(), "Wayland") == nullptr;
  const std::string wayland =
      waylandOnly ? "; WAYLAND_DISPLAY is set but this build's GLFW (" + std::string(glfwGetVersionString()) +
                        ") opens X11 displays only: set DISPLAY to the session's XWayland display, such as :0"
                  : std::string();
  return InputError(std::string("GLFW cannot open the display (") + (d ? d : "no reason given") + ")" + wayland +
                    "; expected a display that can be opened, or none: with DISPLAY and WAYLAND_DISPLAY unset (or "
                    "--headless, where the command has it) frames are drawn off-screen through EGL");
}
}  // namespace

void requireDisplayOpens() {
  // Once per process, and GLFW is left initialised for the window that follows (its glfwInit is
  // then a no-op): starting and stopping it repeatedly has had X11 bugs of its own.
  static bool opened = false;
  if (opened) return;
  if (!glfwInit()) throw displayError();
  opened = true;
}

struct GlContext::Impl {
  ContextOptions opt;
  GLFWwindow* window = nullptr;
  EGLDisplay eglDisplay = EGL_NO_DISPLAY;
  EGLContext eglContext = EGL_NO_CONTEXT;
  EGLSurface eglSurface = EGL_NO_SURFACE;
  GLuint fbo = 0, colorRb = 0, depthRb = 0;
  InputListener* listener = nullptr;
  bool closeRequested = false;
  std::string how;

  void openWindow() {
    if (!glfwInit()) throw displayError();
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    std::string lastError;
    for (const auto& v : kVersions) {
      glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, v[0]);
      glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, v[1]);
      window = glfwCreateWindow(opt.width, opt.height, opt.title.c_str(), nullptr, nullptr);
      if (window) break;
      const char* d = nullptr;
      glfwGetError(&d);
      lastError = d ? d : "unknown";
    }
    if (!window) {
      glfwTerminate();
      throw std::runtime_error("GLFW: cannot create a window with an OpenGL 4.5 core context: " + lastError);
    }
    glfwMakeContextCurrent(window);
    if (!gladLoadGL(glfwGetProcAddress)) throw std::runtime_error("glad: cannot load the OpenGL functions");
    glfwSwapInterval(opt.vsync ? 1 : 0);
    glfwSetWindowUserPointer(window, this);
    glfwSetKeyCallback(window, [](GLFWwindow* w, int key, int, int action, int) {
      auto* self = static_cast<Impl*>(glfwGetWindowUserPointer(w));
      if (self->listener && (action == GLFW_PRESS || action == GLFW_REPEAT)) self->listener->onKey(key);
    });
    glfwSetMouseButtonCallback(window, [](GLFWwindow* w, int button, int action, int) {
      auto* self = static_cast<Impl*>(glfwGetWindowUserPointer(w));
      double x = 0, y = 0;
      glfwGetCursorPos(w, &x, &y);
      if (self->listener) self->listener->onMouseButton(button, action == GLFW_PRESS, x, y);
    });
    glfwSetCursorPosCallback(window, [](GLFWwindow* w, double x, double y) {
      auto* self = static_cast<Impl*>(glfwGetWindowUserPointer(w));
      if (self->listener) self->listener->onCursor(x, y);
    });
    glfwSetScrollCallback(window, [](GLFWwindow* w, double, double dy) {
      auto* self = static_cast<Impl*>(glfwGetWindowUserPointer(w));
      double x = 0, y = 0;
      glfwGetCursorPos(w, &x, &y);
      if (self->listener) self->listener->onScroll(dy, x, y);
    });
    glfwSetDropCallback(window, [](GLFWwindow* w, int count, const char** paths) {
      auto* self = static_cast<Impl*>(glfwGetWindowUserPointer(w));
      if (self->listener && count > 0) self->listener->onDrop(paths[0], count);
    });
    how = "GLFW window";
  }

  EGLDisplay pickEglDevice() {
    auto queryDevices = reinterpret_cast<PFNEGLQUERYDEVICESEXTPROC>(eglGetProcAddress("eglQueryDevicesEXT"));
    auto queryAttrib = reinterpret_cast<PFNEGLQUERYDEVICEATTRIBEXTPROC>(eglGetProcAddress("eglQueryDeviceAttribEXT"));
    auto getPlatformDisplay =
        reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(eglGetProcAddress("eglGetPlatformDisplayEXT"));
    if (!queryDevices || !getPlatformDisplay)
      throw std::runtime_error("EGL: no EGL_EXT_device_enumeration / EGL_EXT_platform_base (is libEGL and a vendor "
                               "library installed?)");
    EGLDeviceEXT devices[16];
    EGLint count = 0;
    if (!queryDevices(16, devices, &count) || count == 0)
      throw std::runtime_error("EGL: no EGL device found (" + eglErrorText() + ")");
    EGLDeviceEXT chosen = nullptr;
    if (opt.cudaDevice >= 0 && queryAttrib) {
      for (EGLint i = 0; i < count && !chosen; ++i) {
        EGLAttrib cuda = -1;
        if (queryAttrib(devices[i], EGL_CUDA_DEVICE_NV, &cuda) && cuda == opt.cudaDevice) chosen = devices[i];
      }
      if (!chosen) eglGetError();  // clear the error of devices without EGL_NV_device_cuda
    }
    if (!chosen && opt.cudaDevice >= 0)
      throw std::runtime_error("EGL: no EGL device has EGL_CUDA_DEVICE_NV = " + std::to_string(opt.cudaDevice) +
                               " (CUDA-OpenGL interop needs the GL context on the CUDA device)");
    if (!chosen) chosen = devices[0];
    EGLDisplay d = getPlatformDisplay(EGL_PLATFORM_DEVICE_EXT, chosen, nullptr);
    if (d == EGL_NO_DISPLAY) throw std::runtime_error("EGL: eglGetPlatformDisplayEXT failed (" + eglErrorText() + ")");
    return d;
  }

  void openHeadless() {
    eglDisplay = pickEglDevice();
    EGLint major = 0, minor = 0;
    if (!eglInitialize(eglDisplay, &major, &minor))
      throw std::runtime_error("EGL: eglInitialize failed (" + eglErrorText() + ")");
    if (!eglBindAPI(EGL_OPENGL_API)) throw std::runtime_error("EGL: no desktop OpenGL API (" + eglErrorText() + ")");
    const bool surfaceless = hasExtension(eglQueryString(eglDisplay, EGL_EXTENSIONS), "EGL_KHR_surfaceless_context");
    const EGLint configAttribs[] = {EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
                                    EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT,
                                    EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE};
    EGLConfig config = nullptr;
    EGLint numConfigs = 0;
    if (!eglChooseConfig(eglDisplay, configAttribs, &config, 1, &numConfigs) || numConfigs == 0)
      throw std::runtime_error("EGL: no OpenGL-renderable config (" + eglErrorText() + ")");
    for (const auto& v : kVersions) {
      const EGLint ctxAttribs[] = {EGL_CONTEXT_MAJOR_VERSION, v[0], EGL_CONTEXT_MINOR_VERSION, v[1],
                                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE};
      eglContext = eglCreateContext(eglDisplay, config, EGL_NO_CONTEXT, ctxAttribs);
      if (eglContext != EGL_NO_CONTEXT) break;
    }
    if (eglContext == EGL_NO_CONTEXT)
      throw std::runtime_error("EGL: cannot create an OpenGL 4.5 core context (" + eglErrorText() + ")");
    if (!surfaceless) {
      const EGLint pbufferAttribs[] = {EGL_WIDTH, 1, EGL_HEIGHT, 1, EGL_NONE};
      eglSurface = eglCreatePbufferSurface(eglDisplay, config, pbufferAttribs);
      if (eglSurface == EGL_NO_SURFACE) throw std::runtime_error("EGL: cannot create a pbuffer (" + eglErrorText() + ")");
    }
    if (!eglMakeCurrent(eglDisplay, eglSurface, eglSurface, eglContext))
      throw std::runtime_error("EGL: eglMakeCurrent failed (" + eglErrorText() + ")");
    if (!gladLoadGL(reinterpret_cast<GLADloadfunc>(eglGetProcAddress)))
      throw std::runtime_error("glad: cannot load the OpenGL functions");
    // Everything is drawn into this framebuffer object: RGBA8 colour and 24-bit depth.
    glGenFramebuffers(1, &fbo);
    glGenRenderbuffers(1, &colorRb);
    glGenRenderbuffers(1, &depthRb);
    glBindRenderbuffer(GL_RENDERBUFFER, colorRb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, opt.width, opt.height);
    glBindRenderbuffer(GL_RENDERBUFFER, depthRb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, opt.width, opt.height);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colorRb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depthRb);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
      throw std::runtime_error("OpenGL: the headless framebuffer object is incomplete");
    how = std::string("EGL headless") + (surfaceless ? " (surfaceless)" : " (pbuffer)");
  }

  void close() {
    if (window) {
      glfwDestroyWindow(window);
      glfwTerminate();
      window = nullptr;
    }
    if (eglDisplay != EGL_NO_DISPLAY) {
      if (eglContext != EGL_NO_CONTEXT) {
        if (fbo) {
          glDeleteFramebuffers(1, &fbo);
          glDeleteRenderbuffers(1, &colorRb);
          glDeleteRenderbuffers(1, &depthRb);
        }
        eglMakeCurrent(eglDisplay, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(eglDisplay, eglContext);
      }
      if (eglSurface != EGL_NO_SURFACE) eglDestroySurface(eglDisplay, eglSurface);
      eglTerminate(eglDisplay);
      eglDisplay = EGL_NO_DISPLAY;
    }
  }
};

GlContext::GlContext(const ContextOptions& options) : impl_(std::make_unique<Impl>()) {
  if (options.width < 1 || options.height < 1)
    throw std::invalid_argument("window size " + std::to_string(options.width) + "x" +
                                std::to_string(options.height) + ": expected at least 1x1");
  impl_->opt = options;
  try {
    if (options.headless) impl_->openHeadless();
    else impl_->openWindow();
  } catch (...) {
    impl_->close();
    throw;
  }
}

GlContext::~GlContext() { impl_->close(); }

bool GlContext::headless() const { return impl_->window == nullptr; }

std::string GlContext::describe() const {
  const char* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
  const char* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  return std::string("OpenGL ") + (version ? version : "?") + ", " + (renderer ? renderer : "?") + ", " + impl_->how;
}

int GlContext::width() const {
  if (!impl_->window) return impl_->opt.width;
  int w = 0, h = 0;
  glfwGetFramebufferSize(impl_->window, &w, &h);
  return w;
}

int GlContext::height() const {
  if (!impl_->window) return impl_->opt.height;
  int w = 0, h = 0;
  glfwGetFramebufferSize(impl_->window, &w, &h);
  return h;
}

bool GlContext::shouldClose() const {
  return impl_->closeRequested || (impl_->window && glfwWindowShouldClose(impl_->window));
}

void GlContext::requestClose() { impl_->closeRequested = true; }

void GlContext::setTitle(const std::string& title) {
  if (impl_->window) glfwSetWindowTitle(impl_->window, title.c_str());
}

void GlContext::setListener(InputListener* listener) { impl_->listener = listener; }

void GlContext::endFrame() {
  if (impl_->window) {
    glfwSwapBuffers(impl_->window);
    glfwPollEvents();
  } else {
    glFinish();
  }
}

std::vector<std::uint8_t> GlContext::readPixels(int* width, int* height) const {
  const int w = this->width(), h = this->height();
  if (width) *width = w;
  if (height) *height = h;
  std::vector<std::uint8_t> bottomUp(std::size_t(w) * std::size_t(h) * 4), topDown(bottomUp.size());
  glBindBuffer(GL_PIXEL_PACK_BUFFER, 0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  if (impl_->window) glReadBuffer(GL_BACK);
  glReadPixels(0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, bottomUp.data());
  const std::size_t row = std::size_t(w) * 4;
  for (int y = 0; y < h; ++y)
    std::memcpy(topDown.data() + std::size_t(y) * row, bottomUp.data() + std::size_t(h - 1 - y) * row, row);
  return topDown;
}

}  // namespace flocklife::render
