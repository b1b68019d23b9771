#pragma once
/// @file bit_layout.hpp
/// The bit-per-cell layout that every bit-per-cell kernel (CPU and GPU) keeps internally, and the
/// conversions from and to the byte-per-cell World. Internal to the life module.
///
/// Layout: row y occupies pitchBytes bytes starting at byte y * pitchBytes; cell x of the row is
/// bit x % 8 of byte x / 8 (least significant bit first, see bit_word.hpp). pitchBytes is
/// ceil(width / 8) rounded up to a multiple of 8, so that a row is also a whole number of 32-bit
/// and 64-bit words. Bits and bytes past the row's width are padding: zero after packing, left
/// unspecified by the kernels, ignored by unpacking.
#include <cstdint>
#include <vector>

#include "common/hd.hpp"
#include "life/world.hpp"

namespace flocklife::life {

struct BitLayout {
  std::int64_t width = 0, height = 0;
  std::uint64_t pitchBytes = 0;

  static BitLayout of(std::int64_t width, std::int64_t height) {
    const std::uint64_t rowBytes = (std::uint64_t(width) + 7) / 8;
    return {width, height, (rowBytes + 7) / 8 * 8};
  }
  /// Words of `wordBits` bits that hold the cells of a row (the last one partly padding).
  FL_HD std::uint64_t wordsPerRow(int wordBits) const { return (std::uint64_t(width) + wordBits - 1) / wordBits; }
  /// Valid cells in the last word of a row, 1..wordBits.
  FL_HD int lastValid(int wordBits) const { return int(width - std::int64_t(wordsPerRow(wordBits) - 1) * wordBits); }
  FL_HD std::uint64_t totalBytes() const { return pitchBytes * std::uint64_t(height); }
};

/// Byte `byteIndex` of a packed row from the row's byte-per-cell cells (cells past width read as 0).
FL_HD inline std::uint8_t packByte(const std::uint8_t* rowCells, std::int64_t width, std::uint64_t byteIndex) {
  std::uint8_t b = 0;
  const std::int64_t x0 = std::int64_t(byteIndex) * 8;
  for (int j = 0; j < 8; ++j)
    if (x0 + j < width) b |= std::uint8_t((rowCells[x0 + j] & 1u) << j);
  return b;
}

/// Writes the valid cells of packed byte `byteIndex` to the row's byte-per-cell cells.
FL_HD inline void unpackByte(std::uint8_t b, std::uint8_t* rowCells, std::int64_t width, std::uint64_t byteIndex) {
  const std::int64_t x0 = std::int64_t(byteIndex) * 8;
  for (int j = 0; j < 8; ++j)
    if (x0 + j < width) rowCells[x0 + j] = std::uint8_t((b >> j) & 1u);
}

/// Host conversions (OpenMP over rows). `bits` must hold layout.totalBytes() bytes.
void packWorld(const World& world, const BitLayout& layout, std::uint8_t* bits);
World unpackWorld(const std::uint8_t* bits, const BitLayout& layout);

}  // namespace flocklife::life
