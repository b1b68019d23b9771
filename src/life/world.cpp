#include "life/world.hpp"

#include <numeric>
#include <string>

#include "common/errors.hpp"
#include "common/memory.hpp"

namespace flocklife::life {

void requireWorldSize(std::int64_t width, std::int64_t height) {
  if (width < 1 || height < 1)
    throw InputError("world size " + std::to_string(width) + "x" + std::to_string(height) +
                     ": width and height must be at least 1");
  if (std::uint64_t(width) > kMaxCells / std::uint64_t(height))
    throw OutOfMemoryError("world size " + std::to_string(width) + "x" + std::to_string(height) +
                           ": more than 2^40 cells");
}

World::World(std::int64_t width, std::int64_t height) : width_(width), height_(height) {
  requireWorldSize(width, height);
  requireHostMemory(cellCount(), "world of " + std::to_string(width) + "x" + std::to_string(height) + " cells");
  cells_.assign(cellCount(), 0);
}

std::uint8_t World::wrapped(std::int64_t x, std::int64_t y) const {
  return at(floorMod(x, width_), floorMod(y, height_));
}

std::uint64_t World::population() const {
  return std::accumulate(cells_.begin(), cells_.end(), std::uint64_t(0));
}

}  // namespace flocklife::life
