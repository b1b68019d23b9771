#pragma once
/// @file window_options.hpp
/// The flags every windowed subcommand shares (--window, --frames, --screenshot, --record,
/// --headless, --no-vsync, ...), and the frame loop around a GL context that implements them:
/// title-bar FPS and steps/s, PNG of frame N, GIF/MP4 of every frame.
#include <CLI/CLI.hpp>

#include <climits>
#include <initializer_list>
#include <string>
#include <vector>

namespace flocklife::app {

struct WindowOptions {
  bool window = false;        ///< --window
  int frames = 0;             ///< --frames N: stop after N frames (0: until the window closes)
  std::string screenshot;     ///< --screenshot FILE.png: frame N as PNG (needs --frames)
  std::string record;         ///< --record FILE.gif|mp4: every frame through ffmpeg
  bool headless = false;      ///< --headless: EGL on the GPU, no window (automatic without DISPLAY)
  bool noVsync = false;       ///< --no-vsync
  bool noInterop = false;     ///< --no-interop: feed GL by host uploads even where interop works
  std::string size;           ///< --window-size WxH (empty: kDefaultWindowSize)
  int zoom = INT_MIN;         ///< --zoom Z (Life: log2 pixels per cell; INT_MIN: fit the world)
  std::string shaderDir;      ///< --shader-dir DIR
  /// --points gl|splat|auto (boids): draw the boids as GL_POINTS, or splat them with CUDA into a
  /// pixel buffer (common/point_splat.hpp; needs interop), or auto: splat above kSplatAbove boids
  /// when interop works.
  std::string points = "auto";
  /// Not flags; set by `bench fps`: stop once this many seconds passed since the loop started
  /// (0: no limit), and append each frame's end time (seconds since the loop started) here.
  double stopAfterSeconds = 0;
  std::vector<double>* frameEndSeconds = nullptr;

  /// True when any window flag asks for a window or a capture.
  bool enabled() const { return window || !screenshot.empty() || !record.empty(); }
};

/// The window (or headless frame) size without --window-size.
inline constexpr const char* kDefaultWindowSize = "1024x768";

/// --points auto splats above this many boids (GL_POINTS cost ~1.6 ns per point on the H200).
inline constexpr long long kSplatAbove = 1000000;

/// What a window shows: --zoom applies to Life windows only, --points to boids windows only.
enum class WindowSubject { Life, Boids };

/// Adds the flags above that apply to `subject` to a subcommand.
void addWindowOptions(CLI::App* cmd, WindowOptions& options, WindowSubject subject);
/// Adds only --points (bench fps boids).
void addPointsOption(CLI::App* cmd, WindowOptions& options);

/// Checks the combination and that this build has window support.
/// @throws InputError naming the flag: "<flag> needs --window (or --screenshot / --record)" for the
///         first window-only flag set without them to anything but its default (--frames,
///         --headless, --no-vsync, --no-interop, --window-size, --shader-dir, --zoom, --points),
///         so that no setting is dropped silently (a default given again changes nothing);
///         --screenshot without --frames or not .png, --headless or no display (DISPLAY unset)
///         without --frames or a time limit ("<--window, --record F or --screenshot F>: no display
///         ..., so frames are drawn headless and only --frames N ends the run; ..."), --points splat
///         with --no-interop, a bad --window-size, no window support,
///         a --screenshot or --record path whose folder is missing or not writable
///         (requireWritableFile), or that names the same file as one of `inputs` (flag name and
///         path: --pattern, --in, --resume; refuseSameFile: a link named as the screenshot replaced
///         the pattern it pointed to with a PNG, a tester's trial). (FrameLoop then gives a
///         --screenshot or --record written in place noteWrittenInPlace's note.)
void validateWindowOptions(const WindowOptions& options,
                           std::initializer_list<std::pair<const char*, std::string>> inputs = {});

/// With a window, throws InputError "<flag> applies to runs without a window ..." for the first
/// given flag among `runOnly` (pairs of flag name and whether it was given): --checkpoint,
/// --repeat, --out and --json have no effect on a windowed run, so they are refused, not dropped.
void refuseWithWindow(const WindowOptions& options, std::initializer_list<std::pair<const char*, bool>> runOnly);

/// Parses --window-size "WxH" (empty: kDefaultWindowSize). @throws InputError naming the flag.
std::pair<int, int> parseWindowSize(const std::string& s);

}  // namespace flocklife::app
