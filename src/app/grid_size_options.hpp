#pragma once
/// @file grid_size_options.hpp
/// --cell-width and --block-size of `flocklife boids` and `flocklife bench fps boids`: a number, or
/// `auto` (the default), which boids::autoTuning resolves per method and number of boids once both
/// are known (header only).
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

#include "boids/boids.hpp"
#include "common/errors.hpp"

namespace flocklife::app {

struct GridSizeOptions {
  std::string cellWidth = "auto";  ///< --cell-width as given
  std::string blockSize = "auto";  ///< --block-size as given

  void add(CLI::App* cmd) {
    cmd->add_option("--cell-width", cellWidth,
                    "Grid cell width as a multiple of the largest rule distance, or auto (default): chosen from the "
                    "method and the expected neighbours per boid (counting and fast: 2 below 2, 1 below 20, 0.5 "
                    "below 150, else 0.33; the other grid methods: 2 below 2, else 1)");
    cmd->add_option("--block-size", blockSize,
                    "CUDA threads per block (multiple of 32, <= 1024), or auto (default): 512 where auto picks "
                    "cell width 0.5 for counting and fast, else 128");
  }

  bool widthAuto() const { return cellWidth == "auto"; }
  bool blockAuto() const { return blockSize == "auto"; }

  /// Sets the numbers given in t (auto leaves t's fields as they are).
  /// @throws InputError naming the flag when the text is neither auto nor a number of the right kind
  /// (boids::validate checks the ranges).
  void applyGiven(boids::Tuning& t) const {
    if (!widthAuto()) {
      char* end = nullptr;
      const float w = std::strtof(cellWidth.c_str(), &end);
      if (cellWidth.empty() || *end != '\0' || !std::isfinite(w))
        throw InputError("--cell-width " + cellWidth + ": expected a number > 0 or auto");
      t.cellWidth = w;
    }
    if (!blockAuto()) {
      char* end = nullptr;
      const long b = std::strtol(blockSize.c_str(), &end, 10);
      if (blockSize.empty() || *end != '\0' || b < -(1L << 20) || b > 1L << 20)
        throw InputError("--block-size " + blockSize + ": expected a multiple of 32 in [32, 1024] or auto");
      t.blockSize = int(b);
    }
  }

  /// t with its auto fields chosen by boids::autoTuning(method, n, p).
  boids::Tuning resolve(boids::Tuning t, const std::string& method, std::size_t n, const boids::Params& p) const {
    const boids::Tuning a = boids::autoTuning(method, n, p);
    if (widthAuto()) t.cellWidth = a.cellWidth;
    if (blockAuto()) t.blockSize = a.blockSize;
    return t;
  }
};

}  // namespace flocklife::app
