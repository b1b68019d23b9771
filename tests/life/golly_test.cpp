// Golly (bgolly, Debian package `golly`) as an independent oracle: random soups on Golly's bounded
// tori (`:T<w>,<h>` rule suffix) and several rules, B0 rules included, must end in the same
// pattern, cell for cell and position for position, as cpu-serial and cpu-parallel.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "life/engine.hpp"
#include "life/pattern.hpp"
#include "scratch_dir.hpp"

namespace flocklife::life {

namespace {

namespace fs = std::filesystem;

std::string findBgolly() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':'))
    if (!dir.empty() && access((dir + "/bgolly").c_str(), X_OK) == 0) return dir + "/bgolly";
  return "";
}

World complement(World w) {
  for (auto& c : w.cells()) c ^= 1;
  return w;
}

/// What Golly stores for the true state of a B0 rule at generation `gen` (Golly Help, QuickLife,
/// "Emulating B0 rules"): B0 with S8 is run as its complementary rule, so Golly's cells are the
/// complement of the true state at every generation (the file's cells included); B0 without S8
/// alternates two rules, so Golly's cells are the true state on even generations and its
/// complement on odd ones. Other rules are stored as they are.
World gollyView(const World& truth, const Rule& rule, std::uint64_t gen) {
  const bool s8 = rule.surviveMask >> 8 & 1;
  return rule.hasB0() && (s8 || gen % 2 == 1) ? complement(truth) : truth;
}

class GollyOracle : public ::testing::Test {
 protected:
  void SetUp() override {
    bgolly_ = findBgolly();
    if (bgolly_.empty()) GTEST_SKIP() << "bgolly not found on PATH (Debian package golly; scripts/setup.sh installs it)";
  }

  /// Runs bgolly for `gens` generations of `rule` on the torus of `cells` (Golly's stored cells).
  Pattern runGolly(const World& cells, const Rule& rule, std::uint64_t gens) {
    const fs::path in = scratch_.dir() / "in.rle", out = scratch_.dir() / "out.rle", log = scratch_.dir() / "bgolly.log";
    {
      std::ofstream f(in);
      writeRle(f, cells, rule);
    }
    fs::remove(out);
    const std::string cmd = bgolly_ + " -q -q -m " + std::to_string(gens) + " -o " + out.string() + " " + in.string() +
                            " > " + log.string() + " 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    return loadPattern(out.string());
  }

  /// bgolly writes the bounding box of the live cells in Golly's grid coordinates, whose
  /// top-left cell (-floor(W/2), -floor(H/2)) is our (0, 0), without a position line: compare
  /// the box's size and contents with the box of `expected`. The position is pinned when the box
  /// is the whole torus; `requireFullBox` asserts that, so that a shift cannot go unnoticed.
  void expectSameAsGolly(const Pattern& golly, const World& expected, bool requireFullBox, const std::string& what) {
    std::int64_t x0 = expected.width(), x1 = -1, y0 = expected.height(), y1 = -1;
    for (std::int64_t y = 0; y < expected.height(); ++y)
      for (std::int64_t x = 0; x < expected.width(); ++x)
        if (expected.at(x, y)) {
          x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    const std::int64_t bw = x1 < 0 ? 0 : x1 - x0 + 1, bh = y1 < 0 ? 0 : y1 - y0 + 1;
    ASSERT_EQ(golly.width, bw) << what;
    ASSERT_EQ(golly.height, bh) << what;
    if (requireFullBox) {
      ASSERT_EQ(bw, expected.width()) << what << ": live cells do not span the torus, so the position is not pinned";
      ASSERT_EQ(bh, expected.height()) << what << ": live cells do not span the torus, so the position is not pinned";
    }
    std::uint64_t diff = 0;
    for (std::int64_t y = 0; y < bh; ++y)
      for (std::int64_t x = 0; x < bw; ++x) diff += golly.at(x, y) != expected.at(x0 + x, y0 + y);
    EXPECT_EQ(diff, 0u) << what << ": cells differing from Golly";
  }

  std::string bgolly_;
  test::ScratchDir scratch_{"golly"};
};

}  // namespace

TEST_F(GollyOracle, RandomSoupsOnBoundedToriMatchForSeveralRulesIncludingB0) {
  struct Case {
    int w, h;
    const char* rule;
    double density;
    std::uint64_t gens;
  } cases[] = {
      {37, 29, "B3/S23", 0.35, 50},        {41, 23, "B36/S23", 0.4, 40},
      {33, 31, "B3678/S34678", 0.5, 30},   {45, 27, "B2/S", 0.2, 20},
      {29, 35, "B03/S23", 0.3, 21},        {29, 35, "B03/S23", 0.3, 20},
      {31, 25, "B0123478/S01234678", 0.6, 15},  // AntiLife: B0 with S8, Golly sees a 0.4 soup
      {27, 33, "B0/S8", 0.6, 1},           {35, 21, "B34/S34", 0.3, 33},
  };
  for (const auto& c : cases) {
    const Rule rule = Rule::parse(c.rule);
    const World start = randomSoup(c.w, c.h, c.density, std::uint64_t(c.w) * 131 + c.gens);
    const Pattern golly = runGolly(gollyView(start, rule, 0), rule, c.gens);
    ASSERT_TRUE(golly.torus);
    EXPECT_EQ(*golly.torus, (std::pair<std::int64_t, std::int64_t>{c.w, c.h}));
    const std::string what = std::string(c.rule) + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " gen " +
                             std::to_string(c.gens);
    for (const char* kernel : {"cpu-serial", "cpu-parallel"}) {
      auto e = makeEngine(kernel, rule);
      e->load(start);
      e->step(c.gens);
      expectSameAsGolly(golly, gollyView(e->world(), rule, c.gens), true, what + " " + kernel);
    }
  }
}

/// A glider crossing the right seam, with a block straddling the four corners as an anchor: the
/// block makes the live cells span the torus, which pins Golly's output to absolute positions.
TEST_F(GollyOracle, GliderCrossingTheSeamEndsAtTheSamePosition) {
  World start(23, 17);
  for (auto [x, y] : {std::pair<int, int>{22, 16}, {0, 16}, {22, 0}, {0, 0}}) start.set(x, y, true);  // block
  for (auto [x, y] : {std::pair<int, int>{1, 0}, {2, 1}, {0, 2}, {1, 2}, {2, 2}}) start.set(18 + x, 5 + y, true);
  for (std::uint64_t gens : {std::uint64_t(0), std::uint64_t(13), std::uint64_t(24)}) {
    const Pattern golly = runGolly(start, kConway, gens);
    expectSameAsGolly(golly, stepSerial(start, kConway, gens), true, "glider gen " + std::to_string(gens));
  }
  const World end = stepSerial(start, kConway, 24);  // the glider moved (6, 6): now at (24, 11) = (1, 11)
  EXPECT_EQ(end.at(2, 11) + end.at(3, 12) + end.at(1, 13) + end.at(2, 13) + end.at(3, 13), 5);
  EXPECT_EQ(end.population(), 9u);
}

/// A pattern smaller than its `:T` torus, read by bgolly and by parseRle + placePattern, must
/// start at the same place: the R-pentomino (declared 3x3, and 4x4 to test rounding of even
/// sizes) and the acorn grow into chaos that spans these small tori, which pins the positions.
TEST_F(GollyOracle, SmallPatternsAreCentredAsGollyCentresThem) {
  struct Case {
    const char* header;
    const char* cells;
    int w, h;
    std::uint64_t gens;
  } cases[] = {{"x = 3, y = 3", "b2o$2o$bo!", 17, 15, 60},
               {"x = 3, y = 3", "b2o$2o$bo!", 17, 16, 60},
               {"x = 4, y = 4", "b2o$2o$bo!", 12, 13, 60},
               {"x = 4, y = 4", "b2o$2o$bo!", 13, 12, 30},
               {"x = 7, y = 3", "bo$3bo$2o2b3o!", 20, 14, 60},
               {"x = 7, y = 3", "bo$3bo$2o2b3o!", 16, 15, 40}};
  for (const auto& c : cases) {
    const std::string text = std::string(c.header) + ", rule = B3/S23:T" + std::to_string(c.w) + "," + std::to_string(c.h) +
                             "\n" + c.cells + "\n";
    const fs::path in = scratch_.dir() / "small.rle", out = scratch_.dir() / "small-out.rle";
    std::ofstream(in) << text;
    const std::string cmd = bgolly_ + " -q -q -m " + std::to_string(c.gens) + " -o " + out.string() + " " + in.string() +
                            " > " + (scratch_.dir() / "bgolly.log").string() + " 2>&1";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
    std::istringstream ours(text);
    const Pattern p = parseRle(ours, "small.rle");
    const auto [w, h] = defaultWorldSize(p, "small.rle");
    ASSERT_EQ(w, c.w);
    ASSERT_EQ(h, c.h);
    expectSameAsGolly(loadPattern(out.string()), stepSerial(placePattern(p, w, h), kConway, c.gens), true, text);
  }
}

/// Tori of width or height 1 and 2, where a cell appears several times in its own Moore
/// neighbourhood. Golly's live cells rarely span such tori, so this compares the bounding box.
TEST_F(GollyOracle, TinyToriAgreeUpToTheBoundingBox) {
  struct Case {
    int w, h;
    const char* rule;
  } cases[] = {{1, 7, "B3/S23"}, {7, 1, "B3/S23"}, {1, 1, "B3/S8"}, {2, 2, "B2/S"}, {2, 5, "B36/S23"}, {1, 9, "B1/S1"}};
  for (const auto& c : cases) {
    const Rule rule = Rule::parse(c.rule);
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const World start = randomSoup(c.w, c.h, 0.5, seed);
      for (std::uint64_t gens : {std::uint64_t(1), std::uint64_t(2), std::uint64_t(5)}) {
        const Pattern golly = runGolly(start, rule, gens);
        expectSameAsGolly(golly, stepSerial(start, rule, gens), false,
                          std::string(c.rule) + " " + std::to_string(c.w) + "x" + std::to_string(c.h) + " seed " +
                              std::to_string(seed) + " gen " + std::to_string(gens));
      }
    }
  }
}

}  // namespace flocklife::life
