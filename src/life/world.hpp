#pragma once
/// @file world.hpp
/// A Life world: width x height cells on a torus (the left edge wraps to the right edge, the
/// top to the bottom), one byte per cell on the host.
#include <cstdint>
#include <vector>

#include "common/hd.hpp"

namespace flocklife::life {

/// Floor division and modulo for a positive divisor (C++ rounds towards zero): floorMod(a, w) is
/// a's column on a torus of width w, in [0, w), for any a.
/// Without overflow for every a, INT64_MIN included (-a + b - 1 overflowed there, and --offset
/// -9223372036854775808,60 placed cells past the world's buffer; a new user's trial).
FL_HD FL_FORCEINLINE std::int64_t floorDiv(std::int64_t a, std::int64_t b) {
  const std::int64_t q = a / b;
  return a % b < 0 ? q - 1 : q;
}
FL_HD FL_FORCEINLINE std::int64_t floorMod(std::int64_t a, std::int64_t b) {
  const std::int64_t r = a % b;
  return r < 0 ? r + b : r;
}

/// The most cells a world (or a pattern, or a checkpoint) may have: 2^40, also the largest side.
inline constexpr std::uint64_t kMaxCells = std::uint64_t(1) << 40;

/// The size checks of a world, before any memory is counted. @throws InputError "world size WxH:
/// width and height must be at least 1"; OutOfMemoryError "world size WxH: more than 2^40 cells".
void requireWorldSize(std::int64_t width, std::int64_t height);

class World {
 public:
  World() = default;
  /// All cells dead. @throws InputError unless width >= 1 and height >= 1; OutOfMemoryError
  /// "world size WxH: more than 2^40 cells" beyond kMaxCells, or if width * height bytes do not
  /// fit in host memory (checked before allocating).
  World(std::int64_t width, std::int64_t height);

  std::int64_t width() const { return width_; }
  std::int64_t height() const { return height_; }
  /// width * height (64-bit: worlds above 2^32 cells are allowed).
  std::uint64_t cellCount() const { return std::uint64_t(width_) * std::uint64_t(height_); }

  /// Cell (x, y), 0 = dead, 1 = live; x in [0, width), y in [0, height), y = 0 is the top row.
  std::uint8_t at(std::int64_t x, std::int64_t y) const { return cells_[index(x, y)]; }
  void set(std::int64_t x, std::int64_t y, bool alive) { cells_[index(x, y)] = alive ? 1 : 0; }
  /// Cell at (x, y) taken modulo the torus (any integers, negative too).
  std::uint8_t wrapped(std::int64_t x, std::int64_t y) const;

  /// Row-major cells, width * height bytes, each 0 or 1.
  const std::vector<std::uint8_t>& cells() const { return cells_; }
  std::vector<std::uint8_t>& cells() { return cells_; }

  /// Number of live cells.
  std::uint64_t population() const;

  friend bool operator==(const World& a, const World& b) {
    return a.width_ == b.width_ && a.height_ == b.height_ && a.cells_ == b.cells_;
  }
  friend bool operator!=(const World& a, const World& b) { return !(a == b); }

 private:
  std::uint64_t index(std::int64_t x, std::int64_t y) const {
    return std::uint64_t(y) * std::uint64_t(width_) + std::uint64_t(x);
  }
  std::int64_t width_ = 0, height_ = 0;
  std::vector<std::uint8_t> cells_;
};

}  // namespace flocklife::life
