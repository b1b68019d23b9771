#pragma once
/// @file tile_border.hpp
/// Tile geometry for the tiled byte-per-cell kernels (FL_HD, shared with CPU tests): torus
/// coordinate wrapping and the staging slots of a tile's border cells used by `tiled-inplace`
/// (the single-buffer scheme of the WGSL compute-shader article "Игра «Жизнь» на compute
/// shader", ivanpleshkov.dev: tile + halo in workgroup memory, tile borders to a staging buffer,
/// copied back by a second pass).
#include <cstdint>

#include "common/hd.hpp"

namespace flocklife::life::tiles {

/// v taken modulo n for v >= -1 and n >= 1 (cheap for the common cases -1 and [0, n)).
FL_HD FL_FORCEINLINE std::int64_t wrapCoord(std::int64_t v, std::int64_t n) {
  if (v < 0) return v + n;
  if (v < n) return v;
  return v % n;
}

/// Staging slots per tile of tw x th cells: top row, bottom row, left and right columns.
FL_HD constexpr int borderSlots(int tw, int th) { return 2 * tw + 2 * th; }

/// The staging slot of cell (lx, ly) of a tile clipped to cw x ch cells (cw <= tw, ch <= th), or -1
/// for an interior cell. Border = first or last valid row or column. The halo of every tile
/// consists only of border cells of (possibly the same) tiles, so interior cells can be written
/// in place while other blocks still read their halos.
FL_HD FL_FORCEINLINE int borderSlot(int lx, int ly, int cw, int ch, int tw, int th) {
  if (ly == 0) return lx;
  if (ly == ch - 1) return tw + lx;
  if (lx == 0) return 2 * tw + ly;
  if (lx == cw - 1) return 2 * tw + th + ly;
  return -1;
}

/// Inverse of borderSlot: the cell that `slot` holds in a tile clipped to cw x ch cells; false if
/// the slot holds no cell (slots past the clipped tile, or corners already counted in a row).
FL_HD FL_FORCEINLINE bool borderCell(int slot, int cw, int ch, int tw, int th, int& lx, int& ly) {
  if (slot < tw) {
    lx = slot;
    ly = 0;
    return lx < cw;
  }
  if (slot < 2 * tw) {
    lx = slot - tw;
    ly = ch - 1;
    return lx < cw && ch > 1;
  }
  if (slot < 2 * tw + th) {
    lx = 0;
    ly = slot - 2 * tw;
    return ly >= 1 && ly < ch - 1;
  }
  lx = cw - 1;
  ly = slot - 2 * tw - th;
  return ly >= 1 && ly < ch - 1 && cw > 1;
}

}  // namespace flocklife::life::tiles
