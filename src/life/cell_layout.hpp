#pragma once
/// @file cell_layout.hpp
/// A read-only view of the cells of a Life world in the layout an engine keeps them in, so that
/// the display (life/display.hpp) reads an engine's own state buffer, on the device, without
/// converting it to byte per cell first and without a copy through the host.
///
/// Layouts (cell (x, y), x in [0, width), y in [0, height), y = 0 the top row):
///   BytePerCell   byte y * pitchBytes + x; 0 = dead, anything else live. pitchBytes >= width.
///                 simple, simple-lut, tiled, tiled-inplace (pitchBytes = width); packet64 (rows
///                 padded to whole 64-bit packets: pitchBytes = 8 * ceil(width / 8), cell x in
///                 byte x % 8 of packet x / 8, Cagigas-Muñiz et al. 2022, sec. 5.2).
///   BitRows       bit x % 8 of byte y * pitchBytes + x / 8, least significant bit first
///                 (bit_layout.hpp); read as little-endian 32- or 64-bit words this is bit x % W
///                 of word x / W, so one layout covers bitcount (bytes), bitcount32 and lut6x3
///                 (32-bit words). pitchBytes >= ceil(width / 8).
///   ColumnWords32 bit y % 32 of the 32-bit word (y / 32) * width + x (bitslice.hpp): one word
///                 holds 32 vertically adjacent cells of a column (fast). pitchBytes unused.
/// Bits and bytes outside the world (row padding, bits of the last word row at or past height)
/// are never read, so engines may leave anything there.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/hd.hpp"

namespace flocklife::life {

enum class CellLayout : std::uint8_t { BytePerCell, BitRows, ColumnWords32 };

/// The cells of a width x height world in `layout`, starting at `data` (host or device memory,
/// as the producer says; a device view is valid until the engine's next load() or step()).
struct CellView {
  const void* data = nullptr;
  CellLayout layout = CellLayout::BytePerCell;
  std::int64_t width = 0, height = 0;
  std::uint64_t pitchBytes = 0;  ///< bytes from one row to the next (BytePerCell, BitRows)

  /// Row-major bytes, one per cell (a World's cells(), or a byte-per-cell engine's buffer).
  static CellView bytePerCell(const std::uint8_t* cells, std::int64_t width, std::int64_t height) {
    return {cells, CellLayout::BytePerCell, width, height, std::uint64_t(width)};
  }
};

/// Whether cell (x, y) of `v` is live. x and y must lie in the world (no wrapping here).
FL_HD FL_FORCEINLINE bool cellAlive(const CellView& v, std::int64_t x, std::int64_t y) {
  const auto* bytes = static_cast<const std::uint8_t*>(v.data);
  switch (v.layout) {
    case CellLayout::BytePerCell:
      return bytes[std::uint64_t(y) * v.pitchBytes + std::uint64_t(x)] != 0;
    case CellLayout::BitRows:
      return (bytes[std::uint64_t(y) * v.pitchBytes + (std::uint64_t(x) >> 3)] >> (x & 7)) & 1u;
    case CellLayout::ColumnWords32: {
      const auto* words = static_cast<const std::uint32_t*>(v.data);
      return (words[std::uint64_t(y >> 5) * std::uint64_t(v.width) + std::uint64_t(x)] >> (y & 31)) & 1u;
    }
  }
  return false;
}

/// Bytes from `data` to one past the last byte that cellAlive() may read (what a host copy of a
/// view must hold).
inline std::uint64_t cellViewSpanBytes(const CellView& v) {
  if (v.width < 1 || v.height < 1) return 0;
  const std::uint64_t w = std::uint64_t(v.width), h = std::uint64_t(v.height);
  switch (v.layout) {
    case CellLayout::BytePerCell: return (h - 1) * v.pitchBytes + w;
    case CellLayout::BitRows: return (h - 1) * v.pitchBytes + (w + 7) / 8;
    case CellLayout::ColumnWords32: return (h + 31) / 32 * w * 4;
  }
  return 0;
}

/// Checks that `v` describes a world of width x height cells that cellAlive() can read.
/// @throws std::invalid_argument naming `who` for a null pointer, another size, or a pitch
///         shorter than a row.
inline void validateCellView(const CellView& v, std::int64_t width, std::int64_t height, const char* who) {
  auto fail = [&](const std::string& what) { throw std::invalid_argument(std::string(who) + ": cell view " + what); };
  if (v.data == nullptr) fail("has no data");
  if (v.width != width || v.height != height)
    fail("is " + std::to_string(v.width) + "x" + std::to_string(v.height) + ", expected " + std::to_string(width) +
         "x" + std::to_string(height));
  const std::uint64_t rowBytes = v.layout == CellLayout::BytePerCell ? std::uint64_t(width)
                                 : v.layout == CellLayout::BitRows   ? (std::uint64_t(width) + 7) / 8
                                                                     : 0;
  if (v.pitchBytes < rowBytes)
    fail("pitch " + std::to_string(v.pitchBytes) + " bytes is shorter than a row (" + std::to_string(rowBytes) +
         " bytes)");
}

}  // namespace flocklife::life
