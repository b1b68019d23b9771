#include "life/bit_layout.hpp"

namespace flocklife::life {

void packWorld(const World& world, const BitLayout& layout, std::uint8_t* bits) {
  const std::uint8_t* cells = world.cells().data();
#pragma omp parallel for schedule(static)
  for (std::int64_t y = 0; y < layout.height; ++y) {
    const std::uint8_t* row = cells + std::uint64_t(y) * std::uint64_t(layout.width);
    std::uint8_t* out = bits + std::uint64_t(y) * layout.pitchBytes;
    for (std::uint64_t b = 0; b < layout.pitchBytes; ++b) out[b] = packByte(row, layout.width, b);
  }
}

World unpackWorld(const std::uint8_t* bits, const BitLayout& layout) {
  World w(layout.width, layout.height);
  std::uint8_t* cells = w.cells().data();
  const std::uint64_t rowBytes = (std::uint64_t(layout.width) + 7) / 8;
#pragma omp parallel for schedule(static)
  for (std::int64_t y = 0; y < layout.height; ++y) {
    std::uint8_t* row = cells + std::uint64_t(y) * std::uint64_t(layout.width);
    const std::uint8_t* in = bits + std::uint64_t(y) * layout.pitchBytes;
    for (std::uint64_t b = 0; b < rowBytes; ++b) unpackByte(in[b], row, layout.width, b);
  }
  return w;
}

}  // namespace flocklife::life
