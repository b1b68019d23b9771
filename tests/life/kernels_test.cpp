#include <gtest/gtest.h>

#include <numeric>

#include "common/errors.hpp"
#include "gpu_test.hpp"
#include "param_name.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"

namespace flocklife::life {

namespace {
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

/// On tori narrower or shorter than 3 a cell is counted once per appearance in the Moore
/// neighbourhood, as Golly's bounded torus does (it copies the edges into a border).
TEST(CpuSerial, TinyToriCountRepeatedNeighbours) {
  World one(1, 1);  // the single cell is its own 8 neighbours
  one.set(0, 0, true);
  EXPECT_EQ(stepSerial(one, kConway, 1).population(), 0u);           // 8 neighbours: dies
  EXPECT_EQ(stepSerial(one, Rule::parse("B3/S8"), 1).population(), 1u);
  EXPECT_EQ(stepSerial(World(1, 1), Rule::parse("B0/S"), 1).population(), 1u);

  World two(2, 2);  // (0,0) sees (1,1) four times, (1,0) and (0,1) twice each
  two.set(0, 0, true);
  const World b2 = stepSerial(two, Rule::parse("B2/S"), 1);
  EXPECT_EQ(b2.at(1, 0) + b2.at(0, 1), 2);
  EXPECT_EQ(b2.population(), 2u);
  const World b4 = stepSerial(two, Rule::parse("B4/S"), 1);
  EXPECT_EQ(b4.at(1, 1), 1);
  EXPECT_EQ(b4.population(), 1u);

  World column(1, 7);  // (0,y) sees (0,y-1) and (0,y+1) three times each, itself twice
  column.set(0, 0, true);
  const World c1 = stepSerial(column, kConway, 1);
  EXPECT_EQ(c1.at(0, 6) + c1.at(0, 0) + c1.at(0, 1), 3);  // births on 3, survival on 2
  EXPECT_EQ(c1.population(), 3u);
  World row(7, 1);
  row.set(0, 0, true);
  const World r1 = stepSerial(row, kConway, 1);
  EXPECT_EQ(r1.at(6, 0) + r1.at(0, 0) + r1.at(1, 0), 3);
  EXPECT_EQ(r1.population(), 3u);
}

/// stepInPieces runs pieces that double while fast and asks `stop` between them (a window's long
/// frame and bench fps's use it so that Ctrl-C ends a frame of many generations); a call shorter
/// than the piece without waiting is one step. The world is as many plain generations made it.
TEST(StepInPieces, DoublesStopsBetweenPiecesAndCountsWhatItRan) {
  const World start = randomSoup(32, 32, 0.35, 3);
  auto engine = makeEngine("cpu-serial", kConway);
  engine->load(start);
  std::uint64_t piece = 1;
  int asked = 0;
  const auto stopAtThird = [&asked] { return ++asked == 3; };
  EXPECT_EQ(stepInPieces(*engine, 100, piece, stopAtThird), 7u);  // pieces 1, 2 and 4, then stopped
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(piece, 8u);
  EXPECT_EQ(engine->world(), stepSerial(start, kConway, 7));
  EXPECT_EQ(stepInPieces(*engine, 5, piece, stopAtThird, /*waitShort=*/false), 5u);  // shorter than 8: one step
  EXPECT_EQ(asked, 3);
  EXPECT_EQ(stepInPieces(*engine, 8, piece, stopAtThird), 8u);  // a whole piece: run, timed, doubled
  EXPECT_EQ(asked, 3);  // no piece after the last
  EXPECT_EQ(piece, 16u);
  EXPECT_EQ(engine->world(), stepSerial(start, kConway, 20));
}

TEST(Registry, UnknownKernelNamesTheAvailableOnes) {
  try {
    makeEngine("no-such-kernel", kConway);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cpu-serial"), std::string::npos);
  }
}

/// Every kernel of this build; GPU kernels skip without a device.
class EveryKernel : public ::testing::TestWithParam<std::string> {};
/// Every kernel but cpu-serial (stepSerial runs it: compared with itself, it could not fail).
class EveryKernelButTheReference : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryKernelButTheReference, MatchesCpuSerialOnRandomSoups) {
  const auto& name = GetParam();
  for (const auto& k : availableKernels())
    if (k.name == name && k.backend == Backend::Cuda && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  for (auto [w, h] : {std::pair<int, int>{7, 13}, {100, 37}, {1000, 999}, {1, 1}, {2, 2}, {3, 3}, {64, 1}, {1, 64}}) {
    const World start = randomSoup(w, h, 0.5, 42 + w);
    auto e = makeEngine(name, kConway);
    e->load(start);
    e->step(17);
    EXPECT_EQ(e->world(), stepSerial(start, kConway, 17)) << name << " " << w << "x" << h;
  }
}

TEST_P(EveryKernelButTheReference, MatchesCpuSerialForOtherRulesIncludingB0) {
  const auto& name = GetParam();
  if (findKernel(name).backend == Backend::Cuda && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  for (const char* text : {"B36/S23", "B3678/S34678", "B2/S", "B03/S23", "B0/S8", "B0123478/S01234678", "B/S012345678"}) {
    const Rule rule = Rule::parse(text);
    const World start = randomSoup(37, 29, 0.35, 7);
    auto e = makeEngine(name, rule);
    e->load(start);
    e->step(9);
    EXPECT_EQ(e->world(), stepSerial(start, rule, 9)) << name << " " << text;
  }
}

/// The glider "bob$2bo$3o" moves one cell down and one right every 4 generations. On a W x H
/// torus (at least 5 x 5, so that it never meets itself) it is therefore, after 4k generations,
/// the start shifted by (k mod W, k mod H), and it first returns to its start after
/// 4 * lcm(W, H) generations. On odd tori it crosses both seams and the corners on the way.
TEST_P(EveryKernel, GliderCrossesSeamsAndCornersAndReturnsAfterFourLcmGenerations) {
  const auto& name = GetParam();
  if (findKernel(name).backend == Backend::Cuda && !test::haveGpu()) GTEST_SKIP() << "no CUDA device";
  for (auto [w, h] : {std::pair<int, int>{5, 7}, {7, 11}, {13, 9}}) {
    World start(w, h);
    const int gx = w - 2, gy = h - 2;  // straddles the right and bottom seams from the start
    for (auto [x, y] : {std::pair<int, int>{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) start.set((gx + x) % w, (gy + y) % h, true);
    auto e = makeEngine(name, kConway);
    e->load(start);
    const int period = 4 * std::lcm(w, h);
    for (int k = 1; 4 * k <= period; ++k) {
      e->step(4);
      World shifted(w, h);
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) shifted.set((x + k) % w, (y + k) % h, start.at(x, y));
      ASSERT_EQ(e->world(), shifted) << name << " " << w << "x" << h << " after " << 4 * k << " generations";
      if (4 * k < period) {
        ASSERT_NE(shifted, start);
      }
    }
    EXPECT_EQ(e->world(), start) << name << " " << w << "x" << h;
  }
}

/// The kernels of this build, cpu-serial included or not.
std::vector<std::string> kernelNames(bool withReference) {
  std::vector<std::string> names;
  for (const auto& k : availableKernels())
    if (withReference || k.name != "cpu-serial") names.push_back(k.name);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Life, EveryKernel, ::testing::ValuesIn(kernelNames(true)), test::nameOfParam);
INSTANTIATE_TEST_SUITE_P(Life, EveryKernelButTheReference, ::testing::ValuesIn(kernelNames(false)),
                         test::nameOfParam);

}  // namespace flocklife::life
