#include <gtest/gtest.h>

#include <random>

#include "common/errors.hpp"
#include "gpu_test.hpp"
#include "life/engine.hpp"

namespace flocklife::life {

namespace {
World soup(std::int64_t w, std::int64_t h, std::uint64_t seed, double density = 0.5) {
  World world(w, h);
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution live(density);
  for (auto& c : world.cells()) c = live(rng);
  return world;
}
}  // namespace

TEST(CpuSerial, BlinkerOscillatesWithPeriodTwo) {
  World w(5, 5);
  w.set(1, 2, true);
  w.set(2, 2, true);
  w.set(3, 2, true);
  const World one = stepSerial(w, kConway, 1);
  EXPECT_EQ(one.at(2, 1) + one.at(2, 2) + one.at(2, 3), 3);
  EXPECT_EQ(one.population(), 3u);
  EXPECT_EQ(stepSerial(w, kConway, 2), w);
}

TEST(Registry, UnknownKernelNamesTheAvailableOnes) {
  try {
    makeEngine("no-such-kernel", kConway);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-serial"), std::string::npos);
  }
}

/// Every kernel of this build against cpu-serial; GPU kernels skip without a device.
class EveryKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryKernel, MatchesCpuSerialOnRandomSoups) {
  const auto& name = GetParam();
  for (const auto& k : availableKernels())
    if (k.name == name && k.backend == Backend::Cuda && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  for (auto [w, h] : {std::pair<int, int>{7, 13}, {100, 37}, {1, 1}, {64, 1}}) {
    const World start = soup(w, h, 42 + w);
    auto e = makeEngine(name, kConway);
    e->load(start);
    e->step(17);
    EXPECT_EQ(e->world(), stepSerial(start, kConway, 17)) << name << " " << w << "x" << h;
  }
}

INSTANTIATE_TEST_SUITE_P(Life, EveryKernel, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& k : availableKernels()) names.push_back(k.name);
                           return names;
                         }()),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (auto& c : s)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return s;
                         });

}  // namespace flocklife::life
