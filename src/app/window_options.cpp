// Window flags and their checks (built in every configuration, so the flags always parse and a
// build without GLFW says so clearly).
#include "app/window_options.hpp"

#include <sys/stat.h>

#include <filesystem>

#include "app/cli_checks.hpp"
#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "life/display.hpp"
#ifdef FLOCKLIFE_HAVE_WINDOW
#include "common/render/capture.hpp"
#include "common/render/gl_context.hpp"
#endif

namespace flocklife::app {

void addWindowOptions(CLI::App* cmd, WindowOptions& o, WindowSubject subject) {
  cmd->add_flag("--window", o.window, "Show the simulation in a window (GLFW + OpenGL)");
  cmd->add_option("--frames", o.frames, "With --window: stop after N frames (default: until closed)")
      ->check(integerIn(0, 2147483647));
  cmd->add_option("--screenshot", o.screenshot, "Save frame N (--frames N) as this PNG file")->check(kFileName);
  cmd->add_option("--record", o.record, "Record every frame to this .gif or .mp4 file (needs ffmpeg)")->check(kFileName);
  cmd->add_flag("--headless", o.headless, "Render off-screen through EGL on the GPU (automatic without DISPLAY)");
  cmd->add_flag("--no-vsync", o.noVsync, "Do not wait for the display's refresh between frames");
  cmd->add_flag("--no-interop", o.noInterop, "Feed OpenGL by host uploads even where CUDA-GL interop works");
  cmd->add_option("--window-size", o.size,
                  "Window (or headless frame) size WIDTHxHEIGHT in pixels" + defaultText(kDefaultWindowSize))
      ->check(nonEmpty("WIDTHxHEIGHT"));
  cmd->add_option("--shader-dir", o.shaderDir, "Folder with the GLSL shader files (default: found automatically)")
      ->check(pathName("a folder name"));
  if (subject == WindowSubject::Life)  // checked as read: -2147483648, the internal "fit the world", passed (a tester)
    cmd->add_option("--zoom", o.zoom, "Initial zoom, log2 of pixels per cell (negative: cells per pixel)")
        ->check(integerIn(life::kMinZoomLog2, life::kMaxZoomLog2));
  else
    addPointsOption(cmd, o);
}

void addPointsOption(CLI::App* cmd, WindowOptions& o) {
  cmd->add_option("--points", o.points,
                  "Boids: gl (GL_POINTS), splat (CUDA point splatting into a pixel buffer, needs interop) or auto "
                  "(splat above " + std::to_string(kSplatAbove) + " boids when interop works; default)")
      ->check(CLI::IsMember({"gl", "splat", "auto"}));
}

std::pair<int, int> parseWindowSize(const std::string& given) {
  const auto [w, h] = parseDimensions(given.empty() ? std::string(kDefaultWindowSize) : given, "--window-size", 16384,
                                      "16384", "1024x768");
  return {int(w), int(h)};
}

void validateWindowOptions(const WindowOptions& o, std::initializer_list<std::pair<const char*, std::string>> inputs) {
  if (!o.enabled()) {
    const std::pair<const char*, bool> windowOnly[] = {
        {"--frames", o.frames > 0},       {"--headless", o.headless},         {"--no-vsync", o.noVsync},
        {"--no-interop", o.noInterop},    {"--window-size", !o.size.empty()}, {"--shader-dir", !o.shaderDir.empty()},
        {"--zoom", o.zoom != INT_MIN},    {"--points", o.points != "auto"}};
    for (const auto& [flag, given] : windowOnly)
      if (given) throw InputError(std::string(flag) + " needs --window (or --screenshot / --record)");
    return;
  }
#ifndef FLOCKLIFE_HAVE_WINDOW
  throw InputError("--window: this build has no window support (GLFW, glm, EGL or python3-glad were not found "
                   "at configure time; see scripts/setup.sh)");
#endif
  const auto [width, height] = parseWindowSize(o.size);
  for (const auto& [flag, path] : inputs) {
    refuseSameFile(o.screenshot, "--screenshot", path, flag);
    refuseSameFile(o.record, "--record", path, flag);
  }
  if (!o.screenshot.empty()) {
    if (o.frames <= 0) throw InputError("--screenshot " + o.screenshot + ": needs --frames N with N >= 1 (the frame to save)");
    requireExtension(o.screenshot, "--screenshot", {".png"}, ".png", false);
    requireWritableFile(o.screenshot, "--screenshot");
    refuseReplacingCheckpoint(o.screenshot, "--screenshot");
    // The frame is saved inside the frame loop, where a wait for a pipe's reader that Ctrl-C ended
    // would drop a --record of the same run (a review).
    struct stat st {};
    if (::stat(o.screenshot.c_str(), &st) == 0 && S_ISFIFO(st.st_mode))
      throw InputError("--screenshot " + o.screenshot + ": is a named pipe; expected a regular file");
  }
#ifdef FLOCKLIFE_HAVE_WINDOW
  if ((o.headless || !render::haveDisplay()) && o.frames == 0 && o.stopAfterSeconds <= 0) {
    // Without a display frames are drawn headless (EGL), which only a count of frames can end:
    // said here, before a pattern, --in or a checkpoint is read (found by a review), and before
    // ffmpeg is looked for (flag logic first).
    const std::string asked = !o.record.empty()       ? "--record " + o.record
                              : !o.screenshot.empty() ? "--screenshot " + o.screenshot
                                                      : std::string("--window");
    throw InputError(asked + ": " +
                     (o.headless ? std::string("--headless") : std::string("no display (DISPLAY is not set)")) +
                     ", so frames are drawn headless and only --frames N ends the run; give --frames N with N >= 1 (the "
                     "frames to draw" + (o.record.empty() ? std::string(", and --screenshot or --record to keep them") : "") +
                     ")");
  }
#endif
  if (!o.record.empty()) {
#ifdef FLOCKLIFE_HAVE_WINDOW
    render::checkRecording(o.record);  // the name and ffmpeg, before a window or context opens
#endif
    requireWritableFile(o.record, "--record");
    refuseReplacingCheckpoint(o.record, "--record");
    // H.264 in 4:2:0 needs even sides: the recorder crops an odd last column or row (FrameLoop says
    // so), and a side of 1 left nothing (ffmpeg failed once every frame was drawn).
    if (lowerExtension(o.record) == ".mp4" && (width < 2 || height < 2))
      throw InputError("--record " + o.record + ": an MP4 needs a window at least 2x2 (H.264 halves the colour "
                       "resolution); --window-size is " + std::to_string(width) + "x" + std::to_string(height) +
                       "; expected a larger --window-size, or a .gif");
  }
  if (o.points == "splat" && o.noInterop)
    throw InputError("--points splat: needs CUDA-OpenGL interop; drop --no-interop or use --points gl");
#ifdef FLOCKLIFE_HAVE_WINDOW
  if (!o.headless && render::haveDisplay()) render::requireDisplayOpens();  // before the input is read
#endif
}

void refuseWithWindow(const WindowOptions& o, std::initializer_list<std::pair<const char*, bool>> runOnly) {
  if (!o.enabled()) return;
  for (const auto& [flag, given] : runOnly)
    if (given)
      throw InputError(std::string(flag) + " applies to runs without a window (--window, --screenshot or --record); "
                       "run it separately");
}

}  // namespace flocklife::app
