#pragma once
/// @file grid_size_options.hpp
/// --cell-width and --block-size of `flocklife boids` and `flocklife bench fps boids`: a number, or
/// `auto` (the default), which boids::autoTuning resolves per method and number of boids once both
/// are known (header only).
#include <CLI/CLI.hpp>

#include <charconv>
#include <cmath>
#include <string>
#include <system_error>

#include "boids/boids.hpp"
#include "common/errors.hpp"

namespace flocklife::app {

struct GridSizeOptions {
  std::string cellWidth = "auto";  ///< --cell-width as given
  std::string blockSize = "auto";  ///< --block-size as given

  void add(CLI::App* cmd) {
    cmd->add_option("--cell-width", cellWidth,
                    "Grid cell width as a multiple of the largest rule distance, or auto (default): chosen from the "
                    "method and the expected neighbours per boid E (counting and fast: 2 for E below 2, 1 below 20, "
                    "0.5 below 150, else 0.33; the other grid methods: 2 below 2, else 1)");
    cmd->add_option("--block-size", blockSize,
                    "CUDA threads per block (multiple of 32, <= 1024), or auto (default): 512 for counting and fast "
                    "at 20 to 150 expected neighbours per boid, else 128");
  }

  bool widthAuto() const { return cellWidth == "auto"; }
  bool blockAuto() const { return blockSize == "auto"; }

  /// Sets the numbers given in t (auto leaves t's fields as they are).
  /// @throws InputError naming the flag and the text given when it is neither auto nor a plain
  /// decimal number (no hex, no spaces; a finite float for --cell-width, an int for --block-size);
  /// boids::validate checks the ranges.
  void applyGiven(boids::Tuning& t) const {
    if (!widthAuto()) {
      float w = 0;
      const char* end = cellWidth.data() + cellWidth.size();
      const auto [ptr, ec] = std::from_chars(cellWidth.data(), end, w, std::chars_format::general);
      if (cellWidth.empty() || ec != std::errc() || ptr != end || !std::isfinite(w))
        throw InputError("--cell-width " + cellWidth + ": expected a number > 0 or auto");
      t.cellWidth = w;
    }
    if (!blockAuto()) {
      int b = 0;
      const char* end = blockSize.data() + blockSize.size();
      const auto [ptr, ec] = std::from_chars(blockSize.data(), end, b);
      if (blockSize.empty() || ec != std::errc() || ptr != end)
        throw InputError("--block-size " + blockSize + ": expected a multiple of 32 in [32, 1024] or auto");
      t.blockSize = b;
    }
  }

  /// t with its auto fields chosen by boids::autoTuning(method, n, p).
  boids::Tuning resolve(boids::Tuning t, const std::string& method, std::size_t n, const boids::Params& p) const {
    const boids::Tuning a = boids::autoTuning(boids::findMethod(method), n, p);
    if (widthAuto()) t.cellWidth = a.cellWidth;
    if (blockAuto()) t.blockSize = a.blockSize;
    return t;
  }
};

}  // namespace flocklife::app
