// `flocklife bench fps`: the FPS statistics over a window, a short CPU run with and without the
// visualization (under Xvfb when there is no DISPLAY, else the display or EGL; skipped when no GL
// context can be made), and option validation naming the flag (exit status 2).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/fps_stats.hpp"
#include "common/device.hpp"
#include "cli_run.hpp"
#include "csv_rows.hpp"
#include "gpu_test.hpp"
#include "test_paths.hpp"

namespace flocklife {

namespace {

using Result = test::CliResult;

Result run(const std::string& args, bool xvfb = false) { return test::runFlocklife(args, xvfb ? "xvfb-run -a" : ""); }

using test::expectError;

/// Column `name` of a `bench fps` CSV, one (method, value) pair per row, in row order.
std::vector<std::pair<std::string, std::string>> columnOf(const std::filesystem::path& csv, const std::string& name) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& row : test::readCsv(csv.string()))
    out.emplace_back(row.count("method") ? row.at("method") : "(no method)", row.count(name) ? row.at(name) : "(missing)");
  return out;
}

}  // namespace

TEST(FpsStats, CountsFramesAfterWarmupAndPerSecondRates) {
  // 100 frames in the first second (warm-up), then 10 per second for 3 s, then 5 in half a second.
  std::vector<double> t;
  for (int i = 1; i <= 100; ++i) t.push_back(i * 0.01);
  for (int i = 1; i <= 30; ++i) t.push_back(1.0 + i * 0.1 - 0.05);
  for (int i = 1; i <= 5; ++i) t.push_back(4.0 + i * 0.1);
  const app::FpsStats s = app::fpsFromFrameTimes(t, 1.0);
  EXPECT_EQ(s.frames, 35);
  EXPECT_NEAR(s.seconds, 3.5, 1e-9);
  EXPECT_NEAR(s.mean, 10.0, 1e-9);
  EXPECT_DOUBLE_EQ(s.median, 10.0);  // the partial last second (5 frames) is left out
  EXPECT_DOUBLE_EQ(s.min, 10.0);
  EXPECT_DOUBLE_EQ(s.max, 10.0);
}

// Frames over a second long leave whole seconds without a frame end: the rates are then the frames'
// own (the per-second counts gave median, min and max 0 beside a mean of 0.3; a new user's trial).
TEST(FpsStats, FramesOverASecondGiveTheirOwnRates) {
  // Warm-up 0.5 s; frames ending at 0.2 (warm-up), 2.5, 3.0 and 5.0 s.
  const app::FpsStats s = app::fpsFromFrameTimes({0.2, 2.5, 3.0, 5.0}, 0.5);
  EXPECT_EQ(s.frames, 3);
  EXPECT_NEAR(s.mean, 3 / 4.5, 1e-12);
  // The frame 0.2 -> 2.5 began in the warm-up and is left out; 2.5 -> 3.0 and 3.0 -> 5.0 remain.
  EXPECT_DOUBLE_EQ(s.min, 1 / 2.0);
  EXPECT_DOUBLE_EQ(s.median, 0.5 * (1 / 2.0 + 1 / 0.5));
  EXPECT_DOUBLE_EQ(s.max, 1 / 0.5);
  EXPECT_LE(s.min, s.mean);
  EXPECT_LE(s.mean, s.max);
  // A frame's sliver after the warm-up is no rate of its own (it gave a maximum of 1000; a review).
  const app::FpsStats straddle = app::fpsFromFrameTimes({2, 4, 6, 8}, 1.999);
  EXPECT_DOUBLE_EQ(straddle.max, 0.5);
  EXPECT_DOUBLE_EQ(straddle.min, 0.5);
  // One frame, begun in the warm-up and ending 11.4 s later: no rate of its own, so the mean (the
  // three were 0; a tester's trial of 1M boids on the CPU).
  const app::FpsStats one = app::fpsFromFrameTimes({1.5, 12.9}, 2.0);
  EXPECT_NEAR(one.mean, 1 / 10.9, 1e-12);
  EXPECT_DOUBLE_EQ(one.median, one.mean);
  EXPECT_DOUBLE_EQ(one.min, one.mean);
  EXPECT_DOUBLE_EQ(one.max, one.mean);
}

/// No frame after the warm-up is the --seconds given, status 2 (a --seconds of 1e-9, in range, ended
/// with status 1 after running: a tester's trial).
TEST(FpsStats, NoFrameAfterWarmupThrows) {
  EXPECT_THROW(app::fpsFromFrameTimes({0.1, 0.2}, 0.5), InputError);
  const test::CliResult r = test::runFlocklife("bench fps boids --visual off --backend cpu --n 1000 --seconds 1e-9 "
                                               "--warmup-seconds 0 --csv /dev/null");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--seconds: no frame ended after the warm-up"), std::string::npos) << r.output;
}

TEST(FpsCli, BoidsWithAndWithoutVisualizationWriteTwoRows) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-" + std::to_string(getpid()) + ".csv");
  const bool xvfb = std::getenv("DISPLAY") == nullptr && std::system("command -v xvfb-run >/dev/null 2>&1") == 0;
  const Result r = run("bench fps boids --backend cpu --n 500 --seconds 2 --warmup-seconds 0.5 --visual both --csv '" +
                           csv.string() + "'",
                       xvfb);
  if (r.status != 0 && (r.output.find("no window support") != std::string::npos ||
                        r.output.find("context") != std::string::npos || r.output.find("EGL") != std::string::npos ||
                        r.output.find("GLFW") != std::string::npos || r.output.find("display") != std::string::npos)) {
    std::filesystem::remove(csv);
    GTEST_SKIP() << "no GL context: " << r.output;
  }
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(csv);
  ASSERT_TRUE(in) << csv;
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  std::vector<std::string> header;
  {
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) header.push_back(c);
  }
  std::size_t visualCol = header.size(), fpsCol = header.size(), framesCol = header.size();
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "visual") visualCol = i;
    if (header[i] == "fps_mean") fpsCol = i;
    if (header[i] == "frames") framesCol = i;
  }
  ASSERT_LT(fpsCol, header.size()) << line;
  ASSERT_LT(visualCol, header.size()) << line;
  ASSERT_LT(framesCol, header.size()) << line;
  std::vector<std::string> visuals;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, ',')) cells.push_back(c);
    ASSERT_EQ(cells.size(), header.size()) << line;
    EXPECT_GT(std::stod(cells[fpsCol]), 0.0) << line;
    EXPECT_GT(std::stoll(cells[framesCol]), 0) << line;
    visuals.push_back(cells[visualCol]);
  }
  EXPECT_EQ(visuals, (std::vector<std::string>{"off", "on"}));
  std::filesystem::remove(csv);
}

TEST(FpsCli, OffRunWritesOneRowForLife) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-life-" + std::to_string(getpid()) + ".csv");
  const Result r = run("bench fps life --backend cpu --size 64x64 --seconds 0.5 --warmup-seconds 0.1 --visual off "
                       "--csv '" + csv.string() + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(csv);
  std::string header, row, extra;
  ASSERT_TRUE(std::getline(in, header));
  ASSERT_TRUE(std::getline(in, row));
  EXPECT_FALSE(std::getline(in, extra));
  EXPECT_NE(row.find(",life,off,cpu-bitsliced,"), std::string::npos) << row;
  std::filesystem::remove(csv);
}

TEST(FpsCli, SweepWritesOneRowPerConfiguration) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-sweep-" + std::to_string(getpid()) + ".csv");
  const Result r = run("bench fps boids --backend cpu --method cpu-naive,cpu-grid --n 200,400 --seconds 0.3 "
                       "--warmup-seconds 0.1 --visual off --csv '" + csv.string() + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  ASSERT_TRUE(std::getline(in, header));
  std::vector<std::string> rows;
  while (std::getline(in, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 4u) << r.output;
  // methods outermost, then n, in the order given
  EXPECT_NE(rows[0].find(",boids,off,cpu-naive,200,"), std::string::npos) << rows[0];
  EXPECT_NE(rows[1].find(",boids,off,cpu-naive,400,"), std::string::npos) << rows[1];
  EXPECT_NE(rows[2].find(",boids,off,cpu-grid,200,"), std::string::npos) << rows[2];
  EXPECT_NE(rows[3].find(",boids,off,cpu-grid,400,"), std::string::npos) << rows[3];
  std::filesystem::remove(csv);
}

/// bench fps boids picks --cell-width, --block-size, --sort-every and --x-split per method and n
/// unless given (boids::autoTuning), and records the values each method ran with.
TEST(FpsCli, BoidsCellWidthIsChosenPerConfigurationUnlessGiven) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-auto-" + std::to_string(getpid()) + ".csv");
  // 2,000 boids at scale 10: ~130 expected neighbours, so cpu-grid takes width 1 and cpu-naive 2.
  const std::string base = "bench fps boids --backend cpu --method cpu-naive,cpu-grid --n 2000 --scale 10 "
                           "--seconds 0.3 --warmup-seconds 0.1 --visual off --csv '" + csv.string() + "'";
  for (const std::string& extra : {std::string(), std::string(" --cell-width 3"), std::string(" --x-split 3")}) {
    const Result r = run(base + extra);
    ASSERT_EQ(r.status, 0) << r.output;
    std::ifstream in(csv);
    std::string header, naive, grid;
    ASSERT_TRUE(std::getline(in, header));
    ASSERT_TRUE(std::getline(in, naive));
    ASSERT_TRUE(std::getline(in, grid));
    // The columns say what each method ran with, blank where it ignores a setting: cpu-naive has no
    // grid (no cell width, sort interval or split), and no CPU method has a block size or a
    // staging ratio. cpu-grid sorts every step (--sort-every, which neither takes, is refused below).
    const bool width = extra == " --cell-width 3";
    EXPECT_NE(grid.find(width ? ",cpu-grid,2000,10,3,," : ",cpu-grid,2000,10,1,,"), std::string::npos) << grid;
    EXPECT_NE(naive.find(",cpu-naive,2000,10,,,"), std::string::npos) << naive;
    // gens_per_frame 1, then staging_ratio, sort_every, x_split: a given split is recorded.
    EXPECT_NE(grid.find(extra == " --x-split 3" ? ",1,,1,3," : ",1,,1,1,"), std::string::npos) << grid;
    EXPECT_NE(naive.find(",1,,,,"), std::string::npos) << naive;
  }
  std::filesystem::remove(csv);
  // A flag no listed method uses is refused (it ran and was ignored); one that some method uses
  // runs, blank in the others' rows (--cell-width above).
  expectError(base + " --sort-every 3", "--sort-every applies to");
  expectError("bench fps boids --backend cpu --cell-width wide", "--cell-width wide: expected a number > 0 or auto");
  expectError("bench fps boids --backend cpu --sort-every often",
              "--sort-every often: expected a number of steps in [1, 64] or auto");
  expectError("bench fps boids --backend cpu --x-split 0",
              "--x-split: expected a number of cells along x per cell width in [1, 64], got 0");
  // A grid too large for a run is refused before the table's header (it came after; a tester's trial).
  const Result tiny = expectError("bench fps boids --backend cpu --n 500,600 --cell-width 1e-30 --visual off",
                                  "--cell-width 1e-30: the grid would have");
  EXPECT_EQ(tiny.output.find("fps_mean"), std::string::npos) << tiny.output;
}

/// The group_radius column: the radius the boid groups ran with for counting and fast on CUDA (the
/// automatic 0.08 from 150 expected neighbours on an open cube, 0 where no group runs), empty for
/// the other methods (boids::formsGroups, boids::groupsRun).
TEST(FpsCli, GroupRadiusColumnSaysWhereBoidGroupsRan) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-groups-" + std::to_string(getpid()) + ".csv");
  const std::string quick = " --seconds 0.3 --warmup-seconds 0.1 --visual off --csv '" + csv.string() + "'";
  Result r = run("bench fps boids --backend cpu --method cpu-grid --n 300" + quick);
  ASSERT_EQ(r.status, 0) << r.output;
  using Rows = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(columnOf(csv, "group_radius"), (Rows{{"cpu-grid", ""}})) << r.output;
  if (!test::haveGpu()) {
    std::filesystem::remove(csv);
    GTEST_SKIP() << "the CUDA rows need a CUDA device";
  }
  // 20,000 boids at scale 5: ~10,000 expected neighbours, so fast forms groups; grid cannot.
  r = run("bench fps boids --method fast,grid --n 20000 --scale 5" + quick);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(columnOf(csv, "group_radius"), (Rows{{"fast", "0.08"}, {"grid", ""}})) << r.output;
  // 2,000 boids at scale 100: ~0.1 expected neighbours, no groups.
  r = run("bench fps boids --method fast --n 2000" + quick);
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(columnOf(csv, "group_radius"), (Rows{{"fast", "0"}})) << r.output;
  std::filesystem::remove(csv);
}

// A run that measures nothing leaves an existing --csv as it was: the file is opened with the first
// row (a bad --random, checked only after the CSV was opened, and a run whose frames all fell in
// the warm-up each left a header alone; found by a new user's trial).
TEST(FpsCli, ARunThatMeasuresNothingKeepsAnExistingCsv) {
  const auto csv = std::filesystem::temp_directory_path() / ("flocklife-fps-keep-" + std::to_string(getpid()) + ".csv");
  const std::string kept = "machine,gpu,commit,earlier\nvm,none,abc,1\n";
  for (const std::string args : {"bench fps life --backend cpu --size 64x64 --seconds 0.3 --warmup-seconds 0.1 "
                                 "--visual off --random 2",
                                 "bench fps boids --backend cpu --n 100 --seconds 1e-9 --warmup-seconds 0 --visual off"}) {
    { std::ofstream(csv) << kept; }
    const Result r = run(args + " --csv '" + csv.string() + "'");
    EXPECT_NE(r.status, 0) << args << "\n" << r.output;
    std::ifstream in(csv);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), kept) << args << "\n" << r.output;
  }
  std::filesystem::remove(csv);
}

TEST(FpsCli, BadOptionsNameTheFlag) {
  expectError("bench fps boids --backend cpu --seconds 0", "--seconds 0");
  expectError("bench fps boids --backend cpu --seconds -1", "--seconds");
  expectError("bench fps boids --backend cpu --seconds 1 --warmup-seconds 1", "--warmup-seconds 1");
  expectError("bench fps boids --backend cpu --warmup-seconds -1", "--warmup-seconds");
  expectError("bench fps boids --backend cpu --visual maybe", "--visual");
  expectError("bench fps boids --backend cpu --n 0", "--n");
  expectError("bench fps boids --backend cpu --n 100,0 --seconds 0.2 --warmup-seconds 0", "--n");
  expectError("bench fps boids --backend cpu --method cpu-grid,nosuch --seconds 0.2 --warmup-seconds 0", "nosuch");
  // A GPU method under --backend cpu (or, in a CPU-only build, unknown) fails before any run.
  expectError("bench fps boids --backend cpu --method cpu-grid,naive --seconds 0.2 --warmup-seconds 0", "naive");
  expectError("bench fps life --backend cpu --size 8x8,9 --seconds 0.2 --warmup-seconds 0", "--size '9'");
  expectError("bench fps boids --backend gpu", "--backend");
  // The naive methods above --naive-max (a frame of cpu-naive at 200,000 boids took minutes, and only
  // Ctrl-C ended it); a given --naive-max lets it run (here: refused later, by the grid of cpu-grid).
  expectError("bench fps boids --backend cpu --method cpu-grid,cpu-naive --n 200,200000 --visual off",
              "--n 200000: cpu-naive tests every pair of boids (4e+10 per step), and a run ends only with its frame; "
              "expected --n at most --naive-max 100000 for it (give a larger --naive-max to run it anyway)");
  expectError("bench fps boids --backend cpu --method cpu-naive --n 300 --naive-max 299 --visual off",
              "--n 300: cpu-naive tests every pair");
  expectError("bench fps boids --backend cpu --method cpu-naive,cpu-grid --n 200000 --naive-max 200000 "
              "--cell-width 1e-30 --visual off",
              "--cell-width");
  // Splatting needs CUDA-OpenGL interop: refused before the first run, not after the steps-only one.
  expectError("bench fps boids --backend cpu --points splat --seconds 0.2 --warmup-seconds 0",
              "--points splat: needs the CUDA backend");
  expectError("bench fps boids --backend cpu --points bogus", "--points");
  // Without the window path --points is not used (it was taken, and written to the CSV).
  expectError("bench fps boids --backend cpu --visual off --points splat --seconds 0.2 --warmup-seconds 0",
              "--points splat applies to the window path; drop it, or give --visual on or both");
  expectError("bench fps boids --backend cpu --visual off --points gl", "--points gl applies to the window path");
  // So is --window-size (a tester's item); its default is written to the CSV's visual off rows.
  for (const char* mode : {"boids", "life"})
    expectError(std::string("bench fps ") + mode + " --backend cpu --visual off --window-size 640x360",
                "--window-size 640x360 applies to the window path; drop it, or give --visual on or both");
  expectError("bench fps boids --backend cpu --staging-ratio -1", "--staging-ratio: expected a finite number >= 0");
  expectError("bench fps boids --backend cpu --window-size 10", "--window-size");
  expectError("bench fps life --backend cpu --size 10", "--size '10'");
  // The default warm-up is named as such (found by a new user's trial: it named a flag not given).
  expectError("bench fps boids --backend cpu --seconds 1", "--warmup-seconds 3 (the default): expected 0 <= warm-up < --seconds (1)");
  // --quick's warm-up is named as such (it was called the default, which is 3; a new user's trial).
  expectError("bench fps boids --backend cpu --seconds 1 --quick",
              "--warmup-seconds 1 (--quick's): expected 0 <= warm-up < --seconds (1)");
  expectError("bench fps life --backend cpu --gens-per-frame 0", "--gens-per-frame 0");
  expectError("bench fps life --backend cpu --random 2 --size 8x8", "--random");
  expectError("bench fps life --kernel nosuch", "--kernel");
  // As flocklife life refuses them, and every size before the first run (found by a review: the
  // kernel's own backend ran; a size too large failed after the first size's row).
  expectError("bench fps life --backend cuda --kernel cpu-bitsliced --visual off --seconds 0.2 --warmup-seconds 0",
              "--backend cuda cannot run --kernel cpu-bitsliced, which is a cpu kernel");
  const Result late = expectError("bench fps life --backend cpu --visual off --seconds 0.2 --warmup-seconds 0 --size "
                                  "8x8,2000000x2000000",
                                  "world size 2000000x2000000: more than 2^40 cells", 3);
  EXPECT_EQ(late.output.find("fps_mean"), std::string::npos) << late.output;
  expectError("bench fps", "a command is needed after 'bench fps': one of boids, life");
  // As flocklife boids (found by a review): the model's arithmetic is checked before the table,
  // naming the flags bench fps boids has, and a CUDA method without a device needs a device.
  const Result small = expectError("bench fps boids --scale 0.05 --n 10 --visual off --seconds 0.5 --warmup-seconds 0",
                                   "--n 10 at --scale 0.05 (bench fps boids runs the default --max-speed and --dt): a "
                                   "step's move --max-speed x --dt = 0.2 is longer than the cube's width");
  EXPECT_EQ(small.output.find("fps_mean"), std::string::npos) << small.output;
  if (builtWithCuda()) {  // (a CPU-only build has no CUDA methods)
    if (!test::haveGpu())
      expectError("bench fps boids --method fast --seconds 0.2 --warmup-seconds 0", "--method fast needs a CUDA device");
    // Without --backend, a list of both backends is refused whatever its order (it named a
    // --backend not given, or a device, by the first method).
    for (const char* list : {"cpu-grid,naive", "naive,cpu-grid"})
      expectError(std::string("bench fps boids --method ") + list + " --seconds 0.2 --warmup-seconds 0",
                  "; expected methods of one backend");
  }
  // A tuning flag a listed method never uses is refused, as flocklife boids refuses it.
  expectError("bench fps boids --backend cpu --method cpu-grid --block-size 128 --seconds 0.2 --warmup-seconds 0",
              "--block-size applies to");
  expectError("bench fps boids --backend cpu --method cpu-naive --cell-width 3 --seconds 0.2 --warmup-seconds 0",
              "cpu-naive does not use it");
  // --quick sets a 1 s warm-up, which a given --seconds 0.5 cannot hold.
  expectError("bench fps life --backend cpu --size 8x8 --quick --seconds 0.5", "--warmup-seconds 1");
}

}  // namespace flocklife
