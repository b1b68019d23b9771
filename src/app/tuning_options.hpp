#pragma once
/// @file tuning_options.hpp
/// --cell-width, --block-size, --sort-every, --x-split and --staging-ratio of `flocklife boids` and
/// `flocklife bench fps boids`:
/// a number, or `auto` (the default), which boids::autoTuning resolves per method and number of
/// boids once both are known (header only).
#include <CLI/CLI.hpp>

#include <charconv>
#include <cstdio>
#include <cmath>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "boids/boids.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"

namespace flocklife::app {

struct TuningOptions {
  std::string cellWidth = "auto";  ///< --cell-width as given
  std::string blockSize = "auto";  ///< --block-size as given
  std::string sortEvery = "auto";  ///< --sort-every as given
  std::string xSplit = "auto";     ///< --x-split as given
  std::string stagingRatio = "auto";  ///< --staging-ratio as given

  void add(CLI::App* cmd) {
    cmd->add_option("--cell-width", cellWidth,
                    "Grid cell width as a multiple of the largest rule distance, or auto (default): chosen from the "
                    "method and the expected neighbours per boid E (counting and fast: below E 2, 2 widened with the "
                    "skin of the sort interval K, 2.1 / 2.2 / 2.25 for K 2 / 3 / >= 4 at the classic speed and dt, but "
                    "2 for K >= 4 below a million boids; below E 20, 1; below 150, 0.5; else 0.33; the other grid "
                    "methods: 2 below E 2, else 1; any of these widened until the grid has at most 256 cells per "
                    "boid, or 4,096 cells where that is more; cpu-grid half a cell per boid, or 64 cells)");
    cmd->add_option("--block-size", blockSize,
                    "CUDA threads per block (multiple of 32, <= 1024), or auto (default): 512 for counting and fast "
                    "at 11 to 150 expected neighbours per boid, else 128");
    cmd->add_option("--sort-every", sortEvery,
                    "counting and fast: sort the boids by cell every K steps (1 to 64), or auto (default): 4 below 2 "
                    "expected neighbours per boid when --cell-width is auto too and 3 x max speed x dt is at most "
                    "15 % of the largest rule distance, else 1. In between, walk the last sort's grid with the reach "
                    "widened by k x max speed x dt k steps after the sort, the farthest a boid moves since: the "
                    "same neighbours, fewer sorts, which pays in sparse scenes");
    cmd->add_option("--x-split", xSplit,
                    "Grid cells S times narrower along x than along y and z (1 to 64), or auto (default): for "
                    "counting and fast when --cell-width is auto too, 4 from 5 up to 150 expected neighbours per "
                    "boid, from 150 on 4 on an open cube (where boid groups run) and 8 on a --periodic one or with a "
                    "--sort-every above 1, 2 in sparse scenes from a million boids whose cells are about twice the "
                    "reach (with the sort interval's skin) wide with fewer boids than cells (such as 10M boids at "
                    "--scale 1260), else 1. Cells are numbered x fastest, so counting and fast read a line of "
                    "cells along x as one range of sorted boids however many cells it has, and thinner cells trim "
                    "it closer to the neighbourhood ball; the methods that visit cells one by one only get more "
                    "cells (auto leaves them at 1)");
    cmd->add_option("--staging-ratio", stagingRatio,
                    "Warp kernel (coherent-zip, coherent-gather, counting, fast): stage a warp's candidates in "
                    "shared memory when its union box has <= R times a lane's cells; 0 never, huge always; or auto "
                    "(default): 0 for counting and fast from 5 expected neighbours per boid when --cell-width is "
                    "auto too (their cells are split along x there, and lanes walking alone were faster), else 1.5. "
                    "flocklife boids (without --window) refuses it for the other methods; counting and fast ignore it when cells are >= 2 times the "
                    "walk's reach wide (the largest rule distance, plus the skin of --sort-every) and outnumber the "
                    "boids");
  }

  bool widthAuto() const { return cellWidth == "auto"; }
  bool blockAuto() const { return blockSize == "auto"; }
  bool sortAuto() const { return sortEvery == "auto"; }
  bool splitAuto() const { return xSplit == "auto"; }
  bool ratioAuto() const { return stagingRatio == "auto"; }

  /// Sets the numbers given in t (auto leaves t's fields as they are).
  /// @throws InputError naming the flag and the text given when it is neither auto nor a plain
  /// decimal number (no hex, no spaces; a finite float for --cell-width and --staging-ratio, an
  /// int for --block-size, --sort-every and --x-split); boids::validate checks the ranges.
  void applyGiven(boids::Tuning& t) const {
    auto real = [](const std::string& text, const std::string& flag, const std::string& expected) {
      float v = 0;
      const char* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, v, std::chars_format::general);
      if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(v))
        throw InputError(flag + " " + text + ": expected " + expected + " or auto");
      return v;
    };
    if (!widthAuto()) t.cellWidth = real(cellWidth, "--cell-width", "a number > 0");
    if (!ratioAuto()) t.stagingRatio = real(stagingRatio, "--staging-ratio", "a number >= 0");
    auto integer = [](const std::string& text, const std::string& flag, const std::string& expected) {
      int v = 0;
      const char* end = text.data() + text.size();
      const auto [ptr, ec] = std::from_chars(text.data(), end, v);
      if (text.empty() || ec != std::errc() || ptr != end)
        throw InputError(flag + " " + text + ": expected " + expected + " or auto");
      return v;
    };
    if (!blockAuto()) t.blockSize = integer(blockSize, "--block-size", "a multiple of 32 in [32, 1024]");
    if (!sortAuto())
      t.sortEvery = integer(sortEvery, "--sort-every", "a number of steps in [1, " +
                                                           std::to_string(boids::kMaxSortEvery) + "]");
    if (!splitAuto())
      t.xSplit = integer(xSplit, "--x-split",
                         "a number of cells along x per cell width in [1, " + std::to_string(boids::kMaxXSplit) + "]");
  }

  /// t with the numbers given applied (applyGiven) and its auto fields chosen by
  /// boids::autoTuning(method, n, p): given a --sort-every, the automatic cell width goes by it;
  /// given a --cell-width, an automatic --sort-every and --x-split are 1 and an automatic
  /// --staging-ratio is Tuning's default (sorting less often was measured with the automatic widths
  /// only, and the splits and ratios were chosen for those widths); the group radius, which has no
  /// flag, is always automatic.
  /// @throws InputError as applyGiven.
  boids::Tuning resolve(boids::Tuning t, const std::string& method, std::size_t n, const boids::Params& p) const {
    applyGiven(t);
    const boids::Tuning a = boids::autoTuning(boids::findMethod(method), n, p,
                                              sortAuto() ? std::nullopt : std::optional<int>(t.sortEvery));
    if (widthAuto()) t.cellWidth = a.cellWidth;
    if (blockAuto()) t.blockSize = a.blockSize;
    if (sortAuto()) t.sortEvery = widthAuto() ? a.sortEvery : 1;
    if (splitAuto()) t.xSplit = widthAuto() ? a.xSplit : 1;
    if (ratioAuto()) t.stagingRatio = widthAuto() ? a.stagingRatio : boids::Tuning{}.stagingRatio;
    t.groupRadius = a.groupRadius;  // no flag: always automatic
    return t;
  }
};

/// The tuning a method runs with for n boids of p, for reports (`flocklife boids` and its `--json`,
/// the `bench fps` CSV): each field, or nullopt where the method ignores it. The cell width and x split
/// need a grid (not naive, cpu-naive), the block size a CUDA method, the staging ratio the warp
/// kernel (MethodInfo::takesStagingRatio); the sort interval is Tuning::sortEvery for the methods
/// that take it and 1 for the other grid methods, which sort every step; the group radius is
/// Tuning::groupRadius where boids::groupsRun holds, 0 where it does not, for counting and fast on
/// CUDA (boids::formsGroups). See usedTuning.
struct UsedTuning {
  std::optional<float> cellWidth;
  std::optional<int> blockSize;
  std::optional<float> stagingRatio;
  std::optional<int> sortEvery;
  std::optional<int> xSplit;
  std::optional<float> groupRadius;  ///< counting and fast on CUDA (Tuning::groupRadius, 0: no groups)
};
/// UsedTuning of method m with tuning t for n boids of p. @throws InputError as boids::groupsRun.
inline UsedTuning usedTuning(const boids::MethodInfo& m, std::size_t n, const boids::Params& p,
                             const boids::Tuning& t) {
  const bool grid = m.walk != boids::GridWalk::None;
  UsedTuning u;
  if (grid) u.cellWidth = t.cellWidth, u.xSplit = t.xSplit, u.sortEvery = m.takesSortEvery ? t.sortEvery : 1;
  if (m.backend == boids::Backend::Cuda) u.blockSize = t.blockSize;
  if (m.takesStagingRatio) u.stagingRatio = t.stagingRatio;
  if (boids::formsGroups(m)) u.groupRadius = boids::groupsRun(m, n, p, t) ? t.groupRadius : 0.f;
  return u;
}

/// Whether method m ever uses the tuning setting of `flag`, one of "--cell-width", "--x-split" (a
/// grid), "--block-size" (CUDA), "--sort-every", "--staging-ratio", "--thrust-gather" (coherent-gather)
/// and "--group-radius" (boids::formsGroups), by what the registry says of it; false for another
/// flag. Settings a method uses only in some scenes (the staging ratio of counting and fast) count.
inline bool usesTuning(const boids::MethodInfo& m, const std::string& flag) {
  if (flag == "--cell-width" || flag == "--x-split") return m.walk != boids::GridWalk::None;
  if (flag == "--block-size") return m.backend == boids::Backend::Cuda;
  if (flag == "--sort-every") return m.takesSortEvery;
  if (flag == "--staging-ratio") return m.takesStagingRatio;
  if (flag == "--thrust-gather") return m.name == "coherent-gather";
  if (flag == "--group-radius") return boids::formsGroups(m);
  return false;
}

/// The methods of this build that use the tuning setting of `flag` (usesTuning), comma-separated,
/// or "no method of this build".
inline std::string methodsUsing(const std::string& flag) {
  std::string users;
  for (const auto& x : boids::availableMethods())
    if (usesTuning(x, flag)) users += (users.empty() ? "" : ", ") + x.name;
  return users.empty() ? "no method of this build" : users;
}

/// Refuses a tuning flag given (not "auto") for a method that never uses it, naming the methods
/// that do: "--block-size applies to naive, grid, ...; cpu-grid does not use it". For a run
/// without a window (with one, keys 1-9 switch to methods that may use it); `bench boids` refuses
/// a swept setting that none of its methods uses instead.
inline void refuseUnusedTuning(const boids::MethodInfo& m, const TuningOptions& to, bool thrustGather) {
  for (const auto& [given, flag] : {std::pair<bool, const char*>{to.cellWidth != "auto", "--cell-width"},
                                    {to.xSplit != "auto", "--x-split"},
                                    {to.blockSize != "auto", "--block-size"},
                                    {to.sortEvery != "auto", "--sort-every"},
                                    {to.stagingRatio != "auto", "--staging-ratio"},
                                    {thrustGather, "--thrust-gather"}})
    if (given && !usesTuning(m, flag))
      throw InputError(std::string(flag) + " applies to " + methodsUsing(flag) + "; " + m.name + " does not use it");
}

/// Refuses a block size the device cannot launch (auto picks at most 512), so that a given
/// --block-size fails before any boid is made or read. @throws InputError naming --block-size,
/// the device and its limit.
inline void requireBlockSizeFits(const boids::Tuning& t, const DeviceInfo& dev) {
  if (t.blockSize > dev.maxThreadsPerBlock)
    throw InputError("--block-size " + std::to_string(t.blockSize) + ": " + dev.name + " allows at most " +
                     std::to_string(dev.maxThreadsPerBlock) + " threads per block");
}

/// The backend ("cuda" or "cpu") of a boids run, shared by `flocklife boids` and `bench fps boids`:
/// --backend when given; else that of the first method named; else cuda when a device is usable,
/// cpu otherwise, with a note saying why. `why`: usableDevice's reason when there is no device.
/// @throws InputError "--backend cuda: <why>" or "--method M needs a CUDA device: <why>" when cuda
/// is asked for without a usable device; "--method M runs on cuda, but --backend is cpu" (or the
/// other way) for a method of the other backend, and "--method: A runs on cpu, B on cuda; ..."
/// for a list of both without --backend; findMethod's error for an unknown method.
inline std::string boidsBackend(const std::string& backendFlag, const std::vector<std::string>& methods, bool device,
                                const std::string& why) {
  auto backendOf = [](const std::string& m) {
    return boids::findMethod(m).backend == boids::Backend::Cuda ? std::string("cuda") : std::string("cpu");
  };
  std::string backend = backendFlag;
  if (backend.empty() && !methods.empty()) {
    backend = backendOf(methods.front());
    for (const auto& m : methods)
      if (backendOf(m) != backend)
        throw InputError("--method: " + methods.front() + " runs on " + backend + ", " + m + " on " + backendOf(m) +
                         "; expected methods of one backend");
  }
  if (backend.empty()) {
    backend = device ? "cuda" : "cpu";
    if (!device) std::fprintf(stderr, "flocklife: note: %s; using the CPU backend\n", why.c_str());
  }
  if (backend == "cuda" && !device)
    throw InputError((backendFlag.empty() ? "--method " + methods.front() + " needs a CUDA device: " : "--backend cuda: ") +
                     why);
  for (const auto& m : methods)
    if (backendOf(m) != backend)
      throw InputError("--method " + m + " runs on " + backendOf(m) + ", but --backend is " + backend);
  return backend;
}

}  // namespace flocklife::app
