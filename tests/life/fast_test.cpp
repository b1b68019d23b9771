// `fast` kernel against cpu-serial, cell for cell (GPU tests: they skip without a device, and
// without CUDA in the build the kernel is absent and they skip too).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_test.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"

namespace flocklife::life {

namespace {

bool haveFastKernel() {
  for (const auto& k : availableKernels())
    if (k.name == "fast") return true;
  return false;
}

/// Runs `fast` with `params` for `generations` (in one step() call) and compares with cpu-serial.
void expectMatchesSerial(std::int64_t w, std::int64_t h, const Rule& rule, std::uint64_t generations,
                         const KernelParams& params = {}) {
  const World start = randomSoup(w, h, 0.4, std::uint64_t(w * 7919 + h * 31 + rule.birthMask));
  auto engine = makeEngine("fast", rule, params);
  engine->load(start);
  engine->step(generations);
  EXPECT_EQ(engine->world(), stepSerial(start, rule, generations))
      << w << "x" << h << " " << rule.str() << " generations " << generations << " k "
      << params.generationsPerLaunch << " rows " << params.cellsPerThread << " threads " << params.threadsPerBlock;
}

class FastKernel : public test::GpuTest {
 protected:
  void SetUp() override {
    if (!haveFastKernel()) GTEST_SKIP() << "built without CUDA";
    test::GpuTest::SetUp();
  }
};

const char* const kRules[] = {"B3/S23", "B36/S23", "B3678/S34678", "B2/S", "B0123478/S01234678", "B0/S8"};

}  // namespace

TEST_F(FastKernel, MatchesCpuSerialOnOddSizesRulesAndGenerations) {
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1},   {1, 64},   {64, 1},    {7, 13},
                                                         {31, 33}, {63, 65},  {127, 129}, {1000, 999}};
  for (const char* text : kRules)
    for (auto [w, h] : sizes)
      for (std::uint64_t g : {1u, 2u, 17u}) expectMatchesSerial(w, h, Rule::parse(text), g);
}

TEST_F(FastKernel, MatchesCpuSerialOnA4096SquareTorus) {
  expectMatchesSerial(4096, 4096, kConway, 17);
  expectMatchesSerial(4096, 4096, kConway, 40, KernelParams{0, 8, 32, 0});
}

TEST_F(FastKernel, GenerationCountsThatAreNotMultiplesOfK) {
  for (int k : {4, 8, 16, 32})
    for (std::uint64_t g : {std::uint64_t(k - 1), std::uint64_t(k + 1), std::uint64_t(2 * k + 3)})
      for (auto [w, h] : {std::pair<std::int64_t, std::int64_t>{127, 129}, {300, 70}}) {
        expectMatchesSerial(w, h, kConway, g, KernelParams{0, 0, k, 0});
        expectMatchesSerial(w, h, Rule::parse("B0123478/S01234678"), g, KernelParams{0, 8, k, 0});
      }
}

TEST_F(FastKernel, ToriSmallerThanTheHalo) {
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{1, 1}, {2, 3}, {5, 1}, {1, 7}, {3, 3}, {17, 2}, {40, 40}};
  for (auto [w, h] : sizes)
    for (int k : {4, 32}) {
      expectMatchesSerial(w, h, kConway, 33, KernelParams{0, 0, k, 0});
      expectMatchesSerial(w, h, Rule::parse("B36/S23"), 33, KernelParams{0, 8, k, 0});
      expectMatchesSerial(w, h, Rule::parse("B0/S8"), 33, KernelParams{0, 0, k, 0});
    }
}

TEST_F(FastKernel, BlockShapesAndWordRowsPerThreadGiveTheSameWorld) {
  for (int threads : {32, 64, 256})
    for (int rows : {8, 12, 16, 24}) {
      expectMatchesSerial(513, 257, kConway, 21, KernelParams{threads, rows, 8, 0});
      expectMatchesSerial(129, 95, Rule::parse("B3678/S34678"), 21, KernelParams{threads, rows, 16, 0});
    }
}

TEST_F(FastKernel, WarpsOfABlockShareTheirEdgeLanesExactly) {
  // Blocks of 2..16 warps (refreshes every 4 generations: k = 32 does 7 per launch, k = 5 and 13
  // leave halos that split a lane), on worlds wider than a block, narrower than one and in between.
  const std::pair<std::int64_t, std::int64_t> sizes[] = {{4100, 70}, {2000, 97}, {300, 64}, {961, 33}};
  for (int threads : {64, 128, 256})
    for (int k : {5, 12, 13, 32})
      for (auto [w, h] : sizes) {
        expectMatchesSerial(w, h, kConway, std::uint64_t(2 * k + 3), KernelParams{threads, 0, k, 0});
        expectMatchesSerial(w, h, Rule::parse("B3678/S34678"), std::uint64_t(k), KernelParams{threads, 12, k, 0});
      }
  for (auto [w, h] : sizes) expectMatchesSerial(w, h, kConway, 29, KernelParams{512, 8, 12, 0});
}

TEST_F(FastKernel, TheLastTileRowRunsAShorterRingExactlyWhenItsRowsFit) {
  // (words per thread column, k, heights): the last tile row's word rows just fit the shorter
  // ring (16 words for 24, 8 for 16 and 12), fit with a partial bottom word, or just do not fit.
  struct Case {
    int rows, k;
    std::int64_t heights[3];
  };
  const Case cases[] = {{24, 16, {1216, 1215, 1248}},  // core 23 words; 38 word rows fit (15 left), 39 do not
                        {16, 16, {704, 703, 736}},     // core 15; 22 fit (7 left), 23 do not
                        {12, 20, {512, 511, 544}}};    // two halo words: core 10; 16 fit (6 left), 17 do not
  for (const Case& c : cases)
    for (std::int64_t h : c.heights) {
      expectMatchesSerial(600, h, kConway, std::uint64_t(2 * c.k + 3), KernelParams{128, c.rows, c.k, 0});
      expectMatchesSerial(600, h, Rule::parse("B36/S23"), std::uint64_t(c.k), KernelParams{128, c.rows, c.k, 0});
    }
}

TEST_F(FastKernel, BlocksLargerThanTheRegistersAllowAreRejectedNamingTheFlag) {
  const World start = randomSoup(300, 64, 0.4, 3);
  for (const char* text : {"B3/S23", "B36/S23"}) {
    auto engine = makeEngine("fast", Rule::parse(text), KernelParams{1024, 24, 12, 0});
    engine->load(start);
    try {
      engine->step(5);
      FAIL() << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--threads-per-block"), std::string::npos) << e.what();
    }
    EXPECT_EQ(engine->world(), start) << "a refused step leaves the world as it was";
  }
}

TEST_F(FastKernel, SeveralStepCallsEqualOneAndZeroGenerationsChangeNothing) {
  const World start = randomSoup(200, 150, 0.4, 5);
  auto engine = makeEngine("fast", kConway, KernelParams{0, 0, 8, 0});
  engine->load(start);
  engine->step(0);
  EXPECT_EQ(engine->world(), start);
  engine->step(5);
  engine->step(12);
  EXPECT_EQ(engine->world(), stepSerial(start, kConway, 17));
}

TEST(FastKernelParams, RejectsOutOfRangeParametersNamingTheFlag) {
  if (!haveFastKernel()) GTEST_SKIP() << "built without CUDA";
  for (int k : {-1, 33}) {
    try {
      makeEngine("fast", kConway, KernelParams{0, 0, k, 0});
      FAIL() << k;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("--generations-per-launch"), std::string::npos);
    }
  }
  EXPECT_THROW(makeEngine("fast", kConway, KernelParams{0, 10, 0, 0}), std::invalid_argument);
  EXPECT_THROW(makeEngine("fast", kConway, KernelParams{48, 0, 0, 0}), std::invalid_argument);
}

}  // namespace flocklife::life
