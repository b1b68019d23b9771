#pragma once
/// @file bitslice.hpp
/// Column words, the bit-per-cell layout of the `fast` kernel (internal to the life module): a
/// world of W x H cells is stored as wordRows(H) = ceil(H / 32) rows of W 32-bit words,
/// row-major; bit b of word (v, x) is cell (x, 32 v + b). So one word holds 32 vertically adjacent
/// cells of one column: the vertical neighbours of all 32 cells are one funnel shift away, the
/// horizontal neighbours are the same bit of the words to the left and right. Bits of the last
/// word row at or above H are don't-care. The per-word logic is in bitslice_logic.hpp.
#include <cstdint>
#include <vector>

#include "life/bitslice_logic.hpp"

namespace flocklife::life::bits {

/// Number of word rows for a world of `height` cells (height >= 1).
FL_HD constexpr std::int64_t wordRows(std::int64_t height) { return (height + 31) / 32; }

/// Packs a byte-per-cell row-major world (width x height, 0 = dead) into column words.
/// Bits at or above `height` in the last word row are 0.
inline std::vector<std::uint32_t> pack(const std::vector<std::uint8_t>& cells, std::int64_t width, std::int64_t height) {
  std::vector<std::uint32_t> words(std::size_t(wordRows(height) * width), 0u);
  for (std::int64_t y = 0; y < height; ++y) {
    const std::uint8_t* row = cells.data() + std::size_t(y) * std::size_t(width);
    std::uint32_t* out = words.data() + std::size_t(y / 32) * std::size_t(width);
    const std::uint32_t bit = 1u << (y % 32);
    for (std::int64_t x = 0; x < width; ++x)
      if (row[x]) out[x] |= bit;
  }
  return words;
}

/// Inverse of pack(): writes width x height bytes (0 or 1) into `cells` (resized).
inline void unpack(const std::vector<std::uint32_t>& words, std::int64_t width, std::int64_t height,
                   std::vector<std::uint8_t>& cells) {
  cells.resize(std::size_t(width) * std::size_t(height));
  for (std::int64_t y = 0; y < height; ++y) {
    std::uint8_t* row = cells.data() + std::size_t(y) * std::size_t(width);
    const std::uint32_t* in = words.data() + std::size_t(y / 32) * std::size_t(width);
    const int b = int(y % 32);
    for (std::int64_t x = 0; x < width; ++x) row[x] = std::uint8_t((in[x] >> b) & 1u);
  }
}

}  // namespace flocklife::life::bits
