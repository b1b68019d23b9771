// Runs the built `flocklife` executable: exit codes and messages of `flocklife life`.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "gpu_test.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"
#include "cli_run.hpp"
#include "scratch_dir.hpp"
#include "test_paths.hpp"

namespace flocklife {

namespace {


using Result = test::CliResult;
Result run(const std::string& args) { return test::runFlocklife(args); }

std::string patternPath(const std::string& name) { return test::sourceDir() + "/data/patterns/" + name; }

class LifeCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name, const std::string& text) {
    const std::string p = scratch_.path(name);
    std::ofstream(p) << text;
    return p;
  }
  /// Expects exit status 2 and one line "flocklife: error: ..." containing `message`.
  void expectInputError(const std::string& args, const std::string& message) {
    const Result r = test::expectError(args, message);
    EXPECT_NE(r.output.find("flocklife: error: "), std::string::npos) << args << "\n" << r.output;
  }
  test::ScratchDir scratch_{"cli"};
};

}  // namespace

TEST_F(LifeCli, ListKernelsShowsTheCpuKernelsAndWhetherCudaOnesCanRun) {
  const Result r = run("life --list-kernels");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("cpu-serial"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cpu-parallel"), std::string::npos) << r.output;
  // Without a device the list says that its cuda kernels cannot run here.
  EXPECT_EQ(r.output.find("(the cuda kernels cannot run here: ") != std::string::npos, !usableDevice().has_value())
      << r.output;
}

TEST_F(LifeCli, PatternRunPrintsSummaryAndJsonLastLine) {
  const Result r = run("life --pattern '" + patternPath("glider.rle") + "' --size 20x20 --gens 8 --backend cpu --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("B3/S23 on 20x20 torus, 8 generations with cpu-bitsliced (cpu): population 5"), std::string::npos)
      << r.output;
  const std::string j = r.lastLine();
  for (const char* key : {"\"generations\":8", "\"population\":5", "\"width\":20", "\"height\":20", "\"rule\":\"B3/S23\"",
                          "\"backend\":\"cpu\"", "\"kernel\":\"cpu-bitsliced\"", "\"seconds\":", "\"cell_updates_per_second\":"})
    EXPECT_NE(j.find(key), std::string::npos) << key << " missing in " << j;
  EXPECT_EQ(j.front(), '{');
  EXPECT_EQ(j.back(), '}');
}

TEST_F(LifeCli, OutWritesTheTorusThatReadsBackToTheSameWorld) {
  const std::string out = scratch_.path("end.rle");
  const Result r = run("life --pattern '" + patternPath("acorn.rle") + "' --size 40x30 --offset 35,28 --gens 30 --kernel cpu-serial --out '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const life::Pattern acorn = life::loadPattern(patternPath("acorn.rle"));
  const life::World expected = life::stepSerial(life::placePattern(acorn, 40, 30, {{35, 28}}), life::kConway, 30);
  const life::Pattern written = life::loadPattern(out);
  ASSERT_TRUE(written.torus);
  EXPECT_EQ(life::placePattern(written, 40, 30), expected);
  // Reading the written file back with its default size restores the same torus.
  const Result again = run("life --pattern '" + out + "' --gens 0 --backend cpu --json");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.lastLine().find("\"population\":" + std::to_string(expected.population())), std::string::npos) << again.output;
  EXPECT_NE(again.lastLine().find("\"width\":40"), std::string::npos) << again.output;
}

// --out - writes the RLE to standard output, and the summary and --json go to standard error, so
// that the output is a clean pattern for a pipe (a file named "-" was written before; found by a
// new user's trial). --checkpoint - is refused.
TEST_F(LifeCli, OutDashWritesThePatternToStandardOutput) {
  const std::string dir = scratch_.path("dash"), err = scratch_.path("dash.err");
  std::filesystem::create_directories(dir);
  const Result r = test::runCommand("cd '" + dir + "' && timeout 120 '" + test::flocklifeExe() + "' life --pattern '" +
                                    patternPath("glider.rle") + "' --size 20x20 --gens 8 --backend cpu --json --out - 2>'" +
                                    err + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(std::filesystem::exists(dir + "/-"));
  EXPECT_EQ(r.output.rfind("#C generation 8 of B3/S23 on a 20x20 torus", 0), 0u) << r.output;
  std::istringstream rle(r.output);
  const life::Pattern written = life::parseRle(rle, "stdout");
  const life::World expected =
      life::stepSerial(life::placePattern(life::loadPattern(patternPath("glider.rle")), 20, 20), life::kConway, 8);
  EXPECT_EQ(life::placePattern(written, 20, 20), expected);
  std::ifstream in(err);
  const std::string errText((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(errText.find("B3/S23 on 20x20 torus, 8 generations"), std::string::npos) << errText;
  EXPECT_NE(errText.find("\"population\":5"), std::string::npos) << errText;
  expectInputError("life --random 0.5 --size 8x8 --gens 2 --checkpoint -",
                   "--checkpoint -: a checkpoint is a file that --resume reads back, not standard output");
}

// With --window, --resume shows the checkpoint's world and --gens is the generations per frame
// (default 1), as its help says; it was checked as the generation to reach, so a checkpoint at
// generation 50 needed --gens >= 50 per frame (found by a new user's trial).
TEST_F(LifeCli, ResumeInAWindowTakesGensPerFrame) {
  const std::string ck = scratch_.path("k50.ck");
  ASSERT_EQ(run("life --backend cpu --random 0.3 --size 64x64 --gens 50 --checkpoint '" + ck + "'").status, 0);
  for (const std::string gens : {"", " --gens 2"}) {
    const Result r = run("life --backend cpu --resume '" + ck + "' --window --headless --frames 3" + gens);
    if (r.output.find("no window support") != std::string::npos) GTEST_SKIP() << r.output;
    EXPECT_EQ(r.status, 0) << gens << "\n" << r.output;
    EXPECT_NE(r.output.find("3 frames in"), std::string::npos) << gens << "\n" << r.output;
  }
}

// Plaintext has no header: --out *.cells says so and names the flags that read it back as the
// same torus and rule, and with them it does.
TEST_F(LifeCli, PlaintextOutSaysHowToReadItBack) {
  const std::string out = scratch_.path("rep.cells");
  const Result r = run("life --pattern '" + patternPath("replicator.rle") + "' --size 64x48 --gens 5 --backend cpu --json --out '" +
                       out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("flocklife: note: --out " + out + ": plaintext keeps the cells of the whole torus but neither "
                          "its size nor its rule; read it back with --size 64x48 --rule B36/S23 (an .rle file keeps both)"),
            std::string::npos)
      << r.output;
  const std::string back = scratch_.path("back.cells");
  const Result again = run("life --pattern '" + out + "' --size 64x48 --rule B36/S23 --gens 0 --backend cpu --json --out '" +
                           back + "'");
  ASSERT_EQ(again.status, 0) << again.output;
  EXPECT_NE(again.lastLine().find("\"rule\":\"B36/S23\""), std::string::npos) << again.output;
  const auto rows = [](const std::string& path) {  // the cell rows, without the ! comment lines
    std::ifstream in(path);
    std::string line, cells;
    while (std::getline(in, line))
      if (line.empty() || line[0] != '!') cells += line + "\n";
    return cells;
  };
  const std::string written = rows(out);
  EXPECT_EQ(std::count(written.begin(), written.end(), '\n'), 48);
  EXPECT_EQ(rows(back), written);
  // B3/S23 needs no --rule.
  const Result conway = run("life --pattern '" + patternPath("glider.rle") + "' --gens 1 --backend cpu --out '" + out + "'");
  EXPECT_NE(conway.output.find("read it back with --size 64x64 (an .rle file keeps both)"), std::string::npos) << conway.output;
}

TEST_F(LifeCli, ARuleWithB0AndS8SaysHowGollySavesIt) {
  // AntiLife (B0123478/S01234678): Golly runs B3/S23 on the complement and saves that (found by a
  // review: such a file was read as the true state without a word). Written, such a file gets a
  // note too (usage.md said Golly reads --out files back as the same torus; bgolly ran another
  // world from one; a new user's trial).
  const std::string antiLife = file("anti.rle", "x = 3, y = 2, rule = B0123478/S01234678:T9,7\n2o$bo!\n");
  const std::string out = file("out.rle", "");
  const Result r = run("life --pattern '" + antiLife + "' --gens 1 --backend cpu --out '" + out + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("flocklife: note: " + antiLife + ": rule B0123478/S01234678 has B0 and S8, and its cells "
                          "are read as that rule's own state; Golly saves such patterns complemented (it runs B3/S23 "
                          "on the complement), so for a file Golly wrote give --rule B3/S23"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("flocklife: note: --out " + out + ": rule B0123478/S01234678 has B0 and S8; flocklife "
                          "reads the file's cells back as they are, but Golly takes such a file's cells as the "
                          "complement of the world"),
            std::string::npos)
      << r.output;
  const Result given = run("life --pattern '" + antiLife + "' --gens 1 --backend cpu --rule B3/S23");
  ASSERT_EQ(given.status, 0) << given.output;
  EXPECT_EQ(given.output.find("B0 and S8"), std::string::npos) << given.output;
  // B0 without S8 (Golly alternates two rules there) and rules without B0 get no note, read or written.
  const Result b0 = run("life --pattern '" + file("b0.rle", "x = 1, y = 1, rule = B03/S23:T8,8\no!\n") +
                        "' --gens 1 --backend cpu --out '" + out + "'");
  EXPECT_EQ(b0.output.find("B0 and S8"), std::string::npos) << b0.output;
}

// Golly runs a B0 rule without S8 by alternating two rules and saves the complement at odd
// generations: a file whose #CXRLE Gen is odd says so (read silently before; a new user's trial).
TEST_F(LifeCli, ABZeroRuleSavedAtAnOddGenerationSaysGollySavedItComplemented) {
  const std::string odd = file("odd.rle", "#CXRLE Pos=-1,-1 Gen=1\nx = 3, y = 3, rule = B01/S\n3o$3o$3o!\n");
  const std::string even = file("even.rle", "#CXRLE Pos=0,0 Gen=2\nx = 1, y = 1, rule = B01/S\no!\n");
  const Result r = run("life --pattern '" + odd + "' --size 16x16 --gens 1 --backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rule B01/S has B0 without S8, and the file's #CXRLE Gen=1 is odd: Golly saves such a "
                          "pattern complemented at odd generations"),
            std::string::npos) << r.output;
  // A long count is cut as other quotes are (500 digits were said whole; a tester's trial).
  const std::string longGen =
      file("long.rle", "#CXRLE Pos=0,0 Gen=" + std::string(499, '1') + "1\nx = 1, y = 1, rule = B01/S\no!\n");
  const Result cut = run("life --pattern '" + longGen + "' --size 16x16 --gens 1 --backend cpu");
  ASSERT_EQ(cut.status, 0) << cut.output;
  EXPECT_NE(cut.output.find("#CXRLE Gen=" + std::string(80, '1') + "... (500 bytes) is odd"), std::string::npos)
      << cut.output;
  for (const std::string& args : {"--pattern '" + even + "'", "--pattern '" + odd + "' --rule B01/S"}) {
    const Result quiet = run("life " + args + " --size 16x16 --gens 1 --backend cpu");
    ASSERT_EQ(quiet.status, 0) << quiet.output;
    EXPECT_EQ(quiet.output.find("is odd"), std::string::npos) << quiet.output;
  }
}

TEST_F(LifeCli, OffsetIsTakenModuloTheTorus) {
  // --help: "taken modulo the torus (e.g. 100 on a width of 64 is 36; -5 is 59)".
  auto world = [&](const std::string& offset) {
    const std::string out = scratch_.path("offset" + offset + ".rle");
    const Result r = run("life --pattern '" + patternPath("glider.rle") + "' --size 64x64 --offset " + offset +
                         " --gens 0 --backend cpu --out '" + out + "'");
    EXPECT_EQ(r.status, 0) << r.output;
    return life::placePattern(life::loadPattern(out), 64, 64);
  };
  const life::Pattern glider = life::loadPattern(patternPath("glider.rle"));
  EXPECT_EQ(world("100,0"), life::placePattern(glider, 64, 64, {{36, 0}}));
  EXPECT_EQ(world("-5,70"), life::placePattern(glider, 64, 64, {{59, 6}}));
}

// --size over a pattern's own :T torus says so (it ran on the other torus without a word; found by
// a new user's trial); the same size, or no :T, says nothing of it.
TEST_F(LifeCli, SizeOverAPatternsTorusSaysSo) {
  const std::string torus = file("torus.rle", "x = 3, y = 1, rule = B3/S23:T10,10\n3o!\n");
  const Result r = run("life --pattern '" + torus + "' --size 20x20 --gens 1 --backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("flocklife: note: --size 20x20 replaces the 10x10 torus of " + torus + " (its :T)"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("on 20x20 torus"), std::string::npos) << r.output;
  for (const std::string& args : {"--pattern '" + torus + "' --size 10x10", "--pattern '" + patternPath("glider.rle") + "' --size 20x20"}) {
    const Result same = run("life " + args + " --gens 1 --backend cpu");
    ASSERT_EQ(same.status, 0) << same.output;
    EXPECT_EQ(same.output.find("replaces the"), std::string::npos) << same.output;
  }
}

TEST_F(LifeCli, RuleComesFromThePatternUnlessGiven) {
  const Result r = run("life --pattern '" + patternPath("replicator.rle") + "' --size 64x64 --gens 12 --backend cpu");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("B36/S23 on 64x64 torus, 12 generations"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("population 24"), std::string::npos) << r.output;  // two replicators
  const Result c = run("life --pattern '" + patternPath("replicator.rle") + "' --size 64x64 --gens 12 --backend cpu --rule B3/S23");
  EXPECT_NE(c.output.find("B3/S23 on 64x64 torus"), std::string::npos) << c.output;
  // Said (it replaced the file's rule without a word; a new user's trial), and not where they agree.
  EXPECT_NE(c.output.find("flocklife: note: --rule B3/S23 replaces the rule of " + patternPath("replicator.rle") +
                          " (B36/S23)"),
            std::string::npos)
      << c.output;
  const Result same = run("life --pattern '" + patternPath("replicator.rle") + "' --size 64x64 --gens 1 --backend cpu "
                          "--rule B36/S23");
  EXPECT_EQ(same.output.find("replaces the rule"), std::string::npos) << same.output;
}

TEST_F(LifeCli, BadInputExitsWithOneClearMessage) {
  const std::string glider = "'" + patternPath("glider.rle") + "'";
  expectInputError("life --size 8x8 --gens 1", "no initial world: give --pattern FILE or --random DENSITY");
  expectInputError("life --pattern " + glider + " --random 0.5 --size 8x8 --gens 1", "exclude each other");
  expectInputError("life --pattern /nonexistent.rle --gens 1", "cannot read pattern file '/nonexistent.rle'");
  const std::string bad = file("bad.rle", "#C broken\nx = 3, y = 3\n3o$4o!\n");
  expectInputError("life --pattern '" + bad + "' --gens 1", "bad.rle:3:5: run of 4 cells from column 1 goes past the declared width x = 3");
  expectInputError("life --pattern " + glider + " --size 2x2 --gens 1", "pattern 3x3 does not fit on the 2x2 torus");
  expectInputError("life --random 0.5 --size 0x5 --gens 1", "--size '0x5': expected WIDTHxHEIGHT, two whole numbers from 1 to 2^40");
  expectInputError("life --random 0.5 --size -3x5 --gens 1", "--size '-3x5': expected WIDTHxHEIGHT");
  expectInputError("life --random 0.5 --size 12 --gens 1", "--size '12': expected WIDTHxHEIGHT");
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --rule B9/S23", "--rule: invalid rule 'B9/S23': unexpected character '9'");
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --rule ''", "--rule: invalid rule '': empty");
  // A rule in a pattern file: the column is the character at fault (the '9' of B39), not the rule's start.
  const std::string badRule = file("rule.rle", "x = 3, y = 3, rule = B39/S23\nbo$2bo$3o!\n");
  expectInputError("life --pattern '" + badRule + "' --gens 1", "rule.rle:1:24: invalid rule 'B39/S23': unexpected character '9'");
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --kernel nope", "unknown kernel 'nope'; available in this build: cpu-serial");
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --backend cuda --kernel cpu-serial",
                   "--backend cuda cannot run --kernel cpu-serial, which is a cpu kernel");
  expectInputError("life --random 1.5 --size 8x8 --gens 1 --backend cpu", "--random 1.5: density must be in [0, 1]");
  expectInputError("life --random 0.5 --gens 1", "--random needs --size");
  expectInputError("life --random 0.5 --size 8x8", "--gens N is required");
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --offset 1,1", "--offset applies to --pattern only");
  expectInputError("life --pattern " + glider + " --gens 1 --offset 1", "--offset '1': expected X,Y");
  // std::stoll skipped leading spaces and '+', but not trailing spaces (found by a review).
  for (const char* offset : {" 5,3", "5, 3", "+5,3", "5,3 ", "5,", "5,3,1", "99999999999999999999,1"})
    expectInputError("life --pattern " + glider + " --gens 1 --offset '" + offset + "'",
                     "--offset '" + std::string(offset) + "': expected X,Y");
  expectInputError("life --pattern " + glider + " --gens 1 --out /nonexistent/dir/x.rle --backend cpu",
                   "--out /nonexistent/dir/x.rle: the folder '/nonexistent/dir' does not exist");
}

TEST_F(LifeCli, CudaBackendWithoutDeviceIsAnErrorAndTheDefaultFallsBackWithANote) {
  if (test::haveGpu()) GTEST_SKIP() << "a CUDA device is present";
  expectInputError("life --random 0.5 --size 8x8 --gens 1 --backend cuda", "--backend cuda: ");
  if (builtWithCuda()) expectInputError("life --random 0.5 --size 8x8 --gens 1 --kernel simple", "--kernel simple needs a CUDA device: ");
  const Result r = run("life --random 0.5 --size 8x8 --gens 1");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("flocklife: note: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("using the CPU backend"), std::string::npos) << r.output;
}

using LifeCliGpu = test::GpuTest;
TEST_F(LifeCliGpu, CudaBackendMatchesTheCpuPopulation) {
  const std::string args = "life --random 0.4 --seed 9 --size 301x203 --gens 40 --json";
  const Result g = run(args + " --backend cuda");
  const Result c = run(args + " --backend cpu");
  ASSERT_EQ(g.status, 0) << g.output;
  ASSERT_EQ(c.status, 0) << c.output;
  const auto pop = [](const std::string& j) { return j.substr(j.find("\"population\":"), j.find(',', j.find("\"population\":")) - j.find("\"population\":")); };
  EXPECT_EQ(pop(g.lastLine()), pop(c.lastLine()));
  EXPECT_NE(g.lastLine().find("\"backend\":\"cuda\""), std::string::npos) << g.output;
}

}  // namespace flocklife
