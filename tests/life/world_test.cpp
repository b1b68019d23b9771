#include <gtest/gtest.h>

#include "common/errors.hpp"
#include "life/world.hpp"

namespace flocklife::life {

TEST(World, StartsDeadAndWraps) {
  World w(5, 3);
  EXPECT_EQ(w.cellCount(), 15u);
  EXPECT_EQ(w.population(), 0u);
  w.set(4, 2, true);
  EXPECT_EQ(w.wrapped(-1, -1), 1);
  EXPECT_EQ(w.wrapped(9, 5), 1);
  EXPECT_EQ(w.population(), 1u);
}

TEST(World, RejectsEmptySizes) {
  EXPECT_THROW(World(0, 5), InputError);
  EXPECT_THROW(World(5, -1), InputError);
}

}  // namespace flocklife::life
