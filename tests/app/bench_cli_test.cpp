// `flocklife bench life|boids|scan` and `fast_bench` from the command line: --quick keeps the
// options given beside it; unknown names are refused naming the bench's plural flags (--kernels,
// --methods); GPU-only work without a usable device is refused before anything runs, with exit
// status 2. Tests that need a device, or its absence, skip on the other kind of machine. Also the CSV
// writer every bench shares (bench::CsvWriter): an earlier file is replaced only once a sweep ends.
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_common.hpp"
#include "cli_run.hpp"
#include "common/checkpoint_io.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "csv_rows.hpp"
#include "gpu_test.hpp"
#include "scratch_dir.hpp"

namespace flocklife {

namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;
using test::expectError;

class BenchCli : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return scratch_.path(name); }
  test::ScratchDir scratch_{"bench-cli"};
};

using test::readCsv;

std::set<std::string> column(const std::vector<std::map<std::string, std::string>>& rows, const std::string& name) {
  std::set<std::string> values;
  for (const auto& r : rows) values.insert(r.count(name) ? r.at(name) : "(missing)");
  return values;
}

// ---- the CSV writer -------------------------------------------------------------------------------

std::string fileText(const std::string& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The temporary file beside `p` ("<p>.tmp-XXXXXX"), or "" when there is none; fails the test when
/// there are several.
std::string temporaryBeside(const std::string& p) {
  std::string found;
  const fs::path folder = fs::path(p).parent_path();
  const std::string prefix = fs::path(p).filename().string() + ".tmp-";
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().filename().string().rfind(prefix, 0) == 0) {
      EXPECT_EQ(found, "") << "two temporary files beside " << p;
      found = e.path().string();
    }
  return found;
}

using test::startFlocklife;
using test::waitExit;

/// Waits (at most 60 s) for the temporary file beside `csv` to hold a row; returns its name, or "".
std::string waitForFirstRow(const std::string& csv) {
  for (int i = 0; i < 6000; ++i) {
    const std::string tmp = temporaryBeside(csv);
    if (!tmp.empty() && !test::readCsv(tmp).empty()) return tmp;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return std::string();
}

/// Starts a `bench boids` sweep of two cpu-grid configurations, 1000 boids (quick) then 60000 (slow),
/// each `reps` repetitions of `steps` steps, to `csv` and `log`; waits for the first row and 300 ms
/// more, into the second configuration. Returns the process id and the temporary file ("" when no
/// row came).
std::pair<pid_t, std::string> startIntoSecondConfiguration(const std::string& csv, const std::string& log, int reps,
                                                           int steps) {
  const pid_t pid = startFlocklife({"bench", "boids", "--methods", "cpu-grid", "--n", "1000,60000", "--series",
                                    "classic", "--cell-widths", "6", "--reps", std::to_string(reps), "--steps-per-rep",
                                    std::to_string(steps), "--warmup", "0", "--csv", csv},
                                   log);
  const std::string tmp = waitForFirstRow(csv);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  return {pid, tmp};
}

/// Sends `sig` to `pid` and expects it to exit with status 128 + `sig`, saying `message` in `log`
/// and naming `tmp` as the file that holds the 1 row measured.
void expectStoppedNamingOneRow(pid_t pid, int sig, const std::string& log, const std::string& message,
                               const std::string& tmp) {
  ::kill(pid, sig);
  const int status = waitExit(pid);
  const std::string said = fileText(log);
  EXPECT_EQ(status, 128 + sig) << said;
  EXPECT_NE(said.find(message), std::string::npos) << said;
  EXPECT_NE(said.find("the 1 row measured is in " + tmp), std::string::npos) << said;
}

/// Rows go to a temporary file beside the CSV until finish() renames it over the file: a sweep that
/// ends early leaves an earlier file as it was, its rows beside it, and says where (the first row
/// truncated the earlier file in place: found by a review).
TEST_F(BenchCli, CsvReplacesAnEarlierFileOnlyWhenTheSweepEnds) {
  const std::string p = path("t.csv");
  std::ofstream(p) << "earlier\n";
  ::chmod(p.c_str(), 0640);
  {
    bench::CsvWriter csv(p, {"a"});
    EXPECT_EQ(temporaryBeside(p), "") << "made before the first row";
    csv.row({"1"});
    EXPECT_EQ(fileText(p), "earlier\n");
    ASSERT_NE(temporaryBeside(p), "");
    EXPECT_EQ(test::readCsv(temporaryBeside(p)).size(), 1u);
    csv.row({"2"});
    csv.finish();
    EXPECT_EQ(csv.rows(), 2u);
  }
  const auto rows = test::readCsv(p);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[1].at("a"), "2");
  EXPECT_EQ(temporaryBeside(p), "");
  struct stat st {};
  ASSERT_EQ(::stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u) << "the replaced file's permissions are kept";

  // Ended early: the file stays, the rows are beside it, and the destructor says where.
  std::ofstream(p) << "earlier\n";
  testing::internal::CaptureStderr();
  std::string tmp;
  {
    bench::CsvWriter csv(p, {"a"});
    csv.row({"1"});
    tmp = temporaryBeside(p);
  }
  const std::string said = testing::internal::GetCapturedStderr();
  EXPECT_EQ(fileText(p), "earlier\n");
  EXPECT_EQ(test::readCsv(tmp).size(), 1u);
  EXPECT_NE(said.find("--csv " + p + ": the sweep's rows did not take its place (the file there is as it was); the 1 "
                      "row measured is in " + tmp),
            std::string::npos)
      << said;
  fs::remove(tmp);

  // The rows go through the temporary file's own descriptor, and finish() refuses to rename what
  // took its name (a folder where others may rename files; a review).
  {
    const std::string victim = path("victim");
    std::ofstream(victim) << "victim\n";
    bench::CsvWriter csv(p, {"a"});
    csv.row({"1"});
    const std::string swapped = temporaryBeside(p);
    fs::rename(swapped, path("moved.csv"));
    fs::create_symlink(victim, swapped);
    csv.row({"2"});
    EXPECT_THROW(csv.finish(), TemporaryReplaced);
    EXPECT_EQ(fileText(victim), "victim\n");
    EXPECT_EQ(test::readCsv(path("moved.csv")).size(), 2u);
    testing::internal::CaptureStderr();
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "") << "no rows are in the link left at the temporary name";
  EXPECT_TRUE(fs::is_symlink(temporaryBeside(p))) << "left as it is";
  fs::remove(temporaryBeside(p));
  EXPECT_EQ(fileText(p), "earlier\n");

  // Nothing written, or nothing measured (discard): nothing said, nothing made, the file kept.
  const std::string fresh = path("fresh.csv");
  testing::internal::CaptureStderr();
  { bench::CsvWriter csv(fresh, {"a"}); }
  {
    bench::CsvWriter csv(p, {"a"});
    csv.row({"skipped"});
    csv.discard();
  }
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_FALSE(fs::exists(fresh));
  EXPECT_EQ(temporaryBeside(fresh), "");
  EXPECT_EQ(temporaryBeside(p), "");
  EXPECT_EQ(fileText(p), "earlier\n");
}

// A bare file name is written in the working folder (a review found it refused, "cannot make the
// folder ''": the check of the name left an error code that the folder check then read).
TEST_F(BenchCli, CsvWithoutAFolderIsWrittenInTheWorkingFolder) {
  const fs::path dir = fs::path(path("cwd"));
  fs::create_directories(dir);
  const Result r = test::runCommand("cd '" + dir.string() + "' && timeout 120 '" + test::flocklifeExe() +
                                    "' bench boids --methods cpu-grid --n 100 --series classic --cell-widths 2 "
                                    "--reps 1 --steps-per-rep 1 --warmup 0 --csv bare.csv 2>&1");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(test::readCsv((dir / "bare.csv").string()).size(), 1u) << r.output;
}

// A row's settings read back as the floats it ran with (4 digits wrote the constant-density scale
// 1259.92 as 1260, a cell width 0.33333 as 0.3333).
TEST_F(BenchCli, CsvSettingsReadBackAsTheFloatsRun) {
  const std::string csv = path("settings.csv");
  const Result r = test::runFlocklife("bench boids --methods cpu-grid --n 3000 --series constant-density --cell-widths "
                                      "0.33333 --reps 1 --steps-per-rep 1 --warmup 0 --csv '" + csv + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(csv);
  ASSERT_EQ(rows.size(), 1u) << r.output;
  EXPECT_EQ(std::stof(rows[0].at("scale")), float(100.0 * std::cbrt(3000.0 / 5000.0))) << rows[0].at("scale");
  EXPECT_EQ(std::stof(rows[0].at("cell_width")), 0.33333f) << rows[0].at("cell_width");
  EXPECT_EQ(bench::settingText(1259.921f), "1259.921");
  EXPECT_EQ(bench::settingText(512.f), "512");
}

// A signal after the last configuration's last repetition stops the sweep before its results are
// written (it exited 0); one before a configuration or a repetition stops it there.
TEST(Progress, ASignalStopsTheSweepAtTheNextCheck) {
  {
    bench::Progress progress(2, false);
    progress.tick("first");
    EXPECT_NO_THROW(progress.check());
    std::raise(SIGTERM);  // caught by the Progress's InterruptFlag
    try {
      progress.check();
      FAIL() << "expected Interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(e.signal, SIGTERM);
      EXPECT_EQ(std::string(e.what()), "interrupted by signal 15 in configuration 1 of 2 (first); nothing more was measured");
    }
    try {
      progress.tick("second");
      FAIL() << "expected Interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(std::string(e.what()), "interrupted by signal 15 before configuration 2 of 2 (second); nothing more was measured");
    }
    try {
      progress.done();
      FAIL() << "expected Interrupted";
    } catch (const Interrupted& e) {
      EXPECT_EQ(std::string(e.what()),
                "interrupted by signal 15 in configuration 1 of 2, the last to run; the sweep's results were not written");
    }
  }
  bench::Progress quiet(1, false);  // a new sweep starts clear
  quiet.tick("only");
  EXPECT_NO_THROW(quiet.check());
  EXPECT_NO_THROW(quiet.done());
}

/// A write that fails (a file-size limit here) leaves the complete rows only, and no file where
/// there were none (a torn last row was left, which the note counted out).
TEST_F(BenchCli, CsvKeepsOnlyCompleteRowsWhenAWriteFails) {
  const std::string p = path("limited.csv");
  const Result r = test::runFlocklife(
      "bench fps life --backend cpu --visual off --seconds 0.2 --warmup-seconds 0 --size 8x8,9x9,10x10,11x11,12x12,"
      "13x13,14x14,15x15 --csv " + p,
      "bash -c 'ulimit -f 1 && exec \"$0\" \"$@\"'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--csv " + p + ": write failed: File too large"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(p));
  const std::string tmp = temporaryBeside(p);
  ASSERT_NE(tmp, "") << r.output;
  const std::string text = fileText(tmp);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n') << "a torn last row";
  const std::size_t rows = test::readCsv(tmp).size();
  EXPECT_GE(rows, 1u);
  EXPECT_LE(text.size(), 1024u);  // whole rows may end exactly at the limit
  EXPECT_NE(r.output.find("the " + std::to_string(rows) + " row" + (rows == 1 ? " measured is" : "s measured are") +
                          " in " + tmp),
            std::string::npos)
      << r.output;
  // Not even the first row fits: no file is left.
  fs::remove(tmp);
  const Result none = test::runFlocklife(
      "bench fps life --backend cpu --visual off --seconds 0.2 --warmup-seconds 0 --size 8x8 --csv " + p,
      "bash -c 'ulimit -f 0 && exec \"$0\" \"$@\"'");
  EXPECT_EQ(none.status, 2) << none.output;
  EXPECT_NE(none.output.find("--csv " + p + ": write failed: File too large"), std::string::npos) << none.output;
  EXPECT_EQ(temporaryBeside(p), "") << none.output;
  EXPECT_FALSE(fs::exists(p));
}

/// A symbolic link is written in place (its target keeps its other names), with a note; "-" and a file or pipe
/// that standard output goes to, where the table goes, are refused (--csv /dev/stdout garbled
/// the table and lost the CSV's header, with status 0; --csv - wrote a file named '-'); /dev/null
/// stays a place to throw the CSV away, wherever standard output goes.
TEST_F(BenchCli, CsvIsWrittenInPlaceThroughALinkAndNeverToTheTable) {
  const std::string target = path("target.csv"), link = path("link.csv");
  std::ofstream(target) << "earlier\n";
  fs::create_symlink(target, link);
  {
    testing::internal::CaptureStderr();
    bench::CsvWriter csv(link, {"a"});
    const std::string said = testing::internal::GetCapturedStderr();  // said before the run, not only in the docs
    EXPECT_NE(said.find("flocklife: note: --csv " + link + " is a symbolic link: it is written in place"),
              std::string::npos)
        << said;
    csv.row({"1"});
    EXPECT_EQ(temporaryBeside(link), "");
    csv.finish();
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(test::readCsv(target).size(), 1u);
  try {
    bench::CsvWriter csv("-", {"a"});
    ADD_FAILURE() << "- was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--csv -: is standard output or standard error, where the table goes; expected a file name");
  }
  const std::string table = path("table.txt");
  const std::string fps = "bench fps life --backend cpu --visual off --seconds 0.2 --warmup-seconds 0 --size 8x8 ";
  const Result redirected = test::runCommand("'" + test::flocklifeExe() + "' " + fps + "--csv /dev/stdout > " + table + " 2>&1");
  EXPECT_EQ(redirected.status, 2);
  EXPECT_NE(readWholeFile(table).find("--csv /dev/stdout: is standard output or standard error, where the table goes"),
            std::string::npos)
      << readWholeFile(table);
  // Into a pipe the CSV's lines were mixed with the table's (a new user's trial).
  const std::string piped = path("piped.txt");
  test::runCommand("'" + test::flocklifeExe() + "' " + fps + "--csv /dev/stdout 2>&1 | cat > " + piped);
  EXPECT_NE(readWholeFile(piped).find("--csv /dev/stdout: is standard output or standard error, where the table goes"),
            std::string::npos)
      << readWholeFile(piped);
  EXPECT_EQ(readWholeFile(piped).find("machine,"), std::string::npos) << readWholeFile(piped);
  // Standard error's pipe, where only notes go, takes the CSV while the table goes to a file (a
  // review found it refused for a while).
  const std::string errPipe = path("err-pipe.txt");
  test::runCommand("'" + test::flocklifeExe() + "' " + fps + "--csv /dev/stderr 2>&1 > " + table + " | cat > " + errPipe);
  EXPECT_NE(readWholeFile(errPipe).find("machine,"), std::string::npos) << readWholeFile(errPipe);
  EXPECT_EQ(readWholeFile(errPipe).find("where the table goes"), std::string::npos) << readWholeFile(errPipe);
  const Result discarded = test::runCommand("'" + test::flocklifeExe() + "' " + fps + "--csv /dev/null > /dev/null 2>&1");
  EXPECT_EQ(discarded.status, 0);
  // A refused name makes no folder, nor leaves one made for it; a name ending in '/' is a folder's.
  EXPECT_THROW(bench::CsvWriter(path("new/a/t.png"), {"a"}), InputError);
  EXPECT_THROW(bench::CsvWriter(path("new/a/"), {"a"}), InputError);
  EXPECT_THROW(bench::CsvWriter(path("new/a/" + std::string(300, 'n') + ".csv"), {"a"}), InputError);  // too long
  EXPECT_FALSE(fs::exists(path("new")));
}

// ---- --quick keeps explicit options --------------------------------------------------------------

TEST_F(BenchCli, BoidsQuickKeepsAnExplicitNAndReps) {
  const Result r = test::runFlocklife("bench boids --quick --n 200,300 --reps 2 --methods cpu-grid --series classic "
                                      "--csv '" + path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(path("boids.csv"));
  ASSERT_FALSE(rows.empty()) << r.output;
  EXPECT_EQ(column(rows, "n"), (std::set<std::string>{"200", "300"})) << r.output;
  EXPECT_EQ(column(rows, "repetitions"), std::set<std::string>{"2"});
  EXPECT_EQ(column(rows, "steps_per_rep"), std::set<std::string>{"5"});  // --quick's, not given
  EXPECT_EQ(column(rows, "periodic"), std::set<std::string>{"0"});
}

TEST_F(BenchCli, BoidsPeriodicNamesItsSeries) {
  const Result r = test::runFlocklife("bench boids --periodic --n 300 --reps 1 --steps-per-rep 1 --warmup 0 "
                                      "--methods cpu-grid --csv '" + path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(path("boids.csv"));
  EXPECT_EQ(column(rows, "series"), (std::set<std::string>{"classic-periodic", "constant-density-periodic"}))
      << r.output;
  EXPECT_EQ(column(rows, "periodic"), std::set<std::string>{"1"}) << r.output;  // the Params the runs used
}

/// The values of `column` in the bench CSV at `path`, per method (one per row).
std::map<std::string, std::multiset<std::string>> columnByMethod(const std::string& path, const std::string& column) {
  std::map<std::string, std::multiset<std::string>> values;
  for (const auto& row : readCsv(path)) values[row.at("method")].insert(row.at(column));
  return values;
}

/// --cuda-graphs sweeps counting and fast with and without CUDA graphs (column cuda_graphs 1 / 0);
/// methods that do not replay graphs run once, with the column empty. A value other than on / off
/// is refused naming the flag.
TEST_F(BenchCli, BoidsCudaGraphsSweepsCountingAndFastOnly) {
  expectError("bench boids --n 300 --methods cpu-grid --cuda-graphs sometimes", "--cuda-graphs");
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = test::runFlocklife("bench boids --n 5000 --series classic --reps 1 --steps-per-rep 2 --warmup 0 "
                                      "--methods fast,coherent-gather --sort-every 2 --cuda-graphs on,off --csv '" +
                                      path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto graphs = columnByMethod(path("boids.csv"), "cuda_graphs");
  EXPECT_EQ(graphs["fast"], (std::multiset<std::string>{"0", "0", "1", "1"})) << r.output;  // x cell widths 1, 2
  EXPECT_EQ(graphs["coherent-gather"], (std::multiset<std::string>{"", ""})) << r.output;
}

/// --block-sizes sweeps the CUDA methods only: a CPU method runs once, with the column empty. A
/// swept flag that none of the methods run uses is refused, naming the methods that use it (it was
/// taken, and every column stayed empty: a tester's item); so is --cell-widths for naive alone.
TEST_F(BenchCli, BoidsBlockSizesSweepTheCudaMethodsOnly) {
  // Without a device, where only CUDA methods use the flag, naming one is no way out: it says so.
  expectError("bench boids --n 300 --methods cpu-naive,cpu-grid --block-sizes 128,256",
              "--block-sizes applies to naive, grid, coherent-zip, coherent-gather, shared, counting, fast; none of "
              "the methods run (cpu-naive, cpu-grid) uses it: " +
                  std::string(test::haveGpu() ? "drop it, or name one in --methods"
                                              : "those need a CUDA device: no usable CUDA device"));
  expectError("bench boids --n 300 --methods cpu-naive --x-splits 2",
              "--x-splits applies to cpu-grid, grid, coherent-zip, coherent-gather, shared, counting, fast; none of "
              "the methods run (cpu-naive) uses it: drop it, or name one in --methods");
  expectError("bench boids --n 300 --methods cpu-naive --cell-widths 1", "--cell-widths applies to ");
  expectError("bench boids --n 300 --methods cpu-grid --group-radii 0", "--group-radii applies to counting, fast; ");
  expectError("bench boids --n 300 --methods cpu-grid --sort-every 2", "--sort-every applies to counting, fast; ");
  expectError("bench boids --n 300 --methods cpu-grid --cuda-graphs off", "--cuda-graphs applies to counting, fast; ");
  expectError("bench boids --n 300 --methods cpu-grid --staging-ratios 0", "--staging-ratios applies to ");
  expectError("bench boids --n 300 --methods cpu-grid --thrust-gather", "--thrust-gather applies to coherent-gather; ");
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = test::runFlocklife("bench boids --n 300 --series classic --reps 1 --steps-per-rep 1 --warmup 0 "
                                      "--methods cpu-naive,cpu-grid,grid --cell-widths 1 --block-sizes 128,256 "
                                      "--csv '" +
                                      path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto blocks = columnByMethod(path("boids.csv"), "block_size");
  EXPECT_EQ(blocks["grid"], (std::multiset<std::string>{"128", "256"})) << r.output;
  EXPECT_EQ(blocks["cpu-grid"], (std::multiset<std::string>{""})) << r.output;
  EXPECT_EQ(blocks["cpu-naive"], (std::multiset<std::string>{""})) << r.output;
  // cpu-grid's ratio to cpu-naive, both run once, is still written.
  auto ratio = columnByMethod(path("boids.csv"), "speedup_vs_naive");
  EXPECT_EQ(ratio["cpu-grid"].size(), 1u) << r.output;
  EXPECT_EQ(ratio["cpu-grid"].count(""), 0u) << r.output;
}

/// --x-splits sweeps the methods with a grid over the splits (column x_split); cpu-naive runs once,
/// with the column empty, as is its sort_every, which is 1 for cpu-grid. A split out of range is
/// refused before any run.
TEST_F(BenchCli, BoidsXSplitsSweepsTheGridMethodsOnly) {
  expectError("bench boids --n 300 --methods cpu-grid --x-splits 1,0", "--x-splits 0: expected a number of cells along x");
  const Result r = test::runFlocklife("bench boids --n 300 --series classic --reps 1 --steps-per-rep 1 --warmup 0 "
                                      "--methods cpu-naive,cpu-grid --cell-widths 1 --x-splits 1,4 --csv '" +
                                      path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto splits = columnByMethod(path("boids.csv"), "x_split");
  EXPECT_EQ(splits["cpu-grid"], (std::multiset<std::string>{"1", "4"})) << r.output;
  EXPECT_EQ(splits["cpu-naive"], (std::multiset<std::string>{""})) << r.output;
  // sort_every as `boids --json` says it (usedTuning): 1 for a grid method that sorts every step.
  auto sorts = columnByMethod(path("boids.csv"), "sort_every");
  EXPECT_EQ(sorts["cpu-grid"], (std::multiset<std::string>{"1", "1"})) << r.output;
  EXPECT_EQ(sorts["cpu-naive"], (std::multiset<std::string>{""})) << r.output;
}

/// --group-radii sweeps counting and fast on CUDA over boid group radii (column group_radius: the
/// radius the groups ran with, 0 where none ran); the other methods run once, with the column
/// empty. Column grouped_share: 0 for counting and fast here (no clumps at 0.33 expected
/// neighbours per boid, whatever the radius), empty for the others. A radius that is neither auto
/// nor a number >= 0 is refused naming the flag.
TEST_F(BenchCli, BoidsGroupRadiiSweepsCountingAndFastOnly) {
  expectError("bench boids --n 300 --methods cpu-grid --group-radii=-1", "--group-radii -1: expected auto or a number >= 0");
  expectError("bench boids --n 300 --methods cpu-grid --group-radii wide", "--group-radii wide");
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = test::runFlocklife("bench boids --n 5000 --series classic --reps 1 --steps-per-rep 2 --warmup 0 "
                                      "--methods fast,counting,coherent-gather --cell-widths 1 --group-radii 0,0.08,auto "
                                      "--csv '" +
                                      path("boids.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  auto radii = columnByMethod(path("boids.csv"), "group_radius");
  // auto: no groups at 0.33 expected neighbours per boid.
  EXPECT_EQ(radii["fast"], (std::multiset<std::string>{"0", "0", "0.08"})) << r.output;
  EXPECT_EQ(radii["counting"], (std::multiset<std::string>{"0", "0", "0.08"})) << r.output;
  EXPECT_EQ(radii["coherent-gather"], (std::multiset<std::string>{""})) << r.output;
  auto shares = columnByMethod(path("boids.csv"), "grouped_share");
  EXPECT_EQ(shares["fast"], (std::multiset<std::string>{"0", "0", "0"})) << r.output;
  EXPECT_EQ(shares["counting"], (std::multiset<std::string>{"0", "0", "0"})) << r.output;
  EXPECT_EQ(shares["coherent-gather"], (std::multiset<std::string>{""})) << r.output;
}

/// Without a device, bench boids and bench fps boids say that they fall back to the CPU.
TEST_F(BenchCli, BoidsAndFpsWithoutADeviceSayTheyRunOnTheCpu) {
  if (test::haveGpu()) GTEST_SKIP() << "needs a machine without a usable CUDA device";
  const Result bench = test::runFlocklife("bench boids --n 300 --series classic --reps 1 --steps-per-rep 1 --warmup 0 "
                                          "--csv '" + path("boids.csv") + "'");
  EXPECT_EQ(bench.status, 0) << bench.output;
  EXPECT_NE(bench.output.find("flocklife: note: no usable CUDA device"), std::string::npos) << bench.output;
  EXPECT_NE(bench.output.find("running the CPU methods"), std::string::npos) << bench.output;
  const Result fps = test::runFlocklife("bench fps boids --n 200 --seconds 0.2 --warmup-seconds 0 --visual off");
  EXPECT_EQ(fps.status, 0) << fps.output;
  EXPECT_NE(fps.output.find("using the CPU backend"), std::string::npos) << fps.output;
}

TEST_F(BenchCli, LifeCpuQuickKeepsExplicitSizesGensAndReps) {
  const Result r = test::runFlocklife("bench life --cpu --quick --kernels cpu-serial --sizes 32,48 --gens 3 --reps 2 "
                                      "--warmup 0 --csv '" + path("life.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(path("life.csv"));
  EXPECT_EQ(column(rows, "width"), (std::set<std::string>{"32", "48"})) << r.output;
  EXPECT_EQ(column(rows, "generations"), std::set<std::string>{"3"});
  // bgolly's row: the runs it completed, 3 (the least it makes) where it ran; fewer, with the console
  // saying why, where it failed (a run failing ends its runs), and none where it is not on PATH (the
  // H200's machine has none: round 48 found this test assuming bgolly).
  const bool onPath = std::system("command -v bgolly > /dev/null 2>&1") == 0;
  const bool failed = r.output.find("not measured (bgolly") != std::string::npos;
  EXPECT_TRUE(onPath || r.output.find("not measured (bgolly was not found on PATH") != std::string::npos) << r.output;
  for (const auto& row : rows) {
    const std::string& reps = row.at("repetitions");
    if (row.at("kernel") != "bgolly-quicklife")
      EXPECT_EQ(reps, "2") << row.at("kernel");
    else if (!onPath)
      EXPECT_EQ(reps, "0");
    else
      EXPECT_TRUE(reps == "3" || (failed && (reps == "0" || reps == "1" || reps == "2"))) << reps << "\n" << r.output;
  }
}

// The progress bar (stderr, drawn only on a terminal, without a newline) is cleared before each
// table row, so that a row starts its own line: run under script(1), which gives the bench a
// terminal, no line as the terminal shows it (the text after its last carriage return) holds both
// the bar's "s left" and a row. Life's CPU table and the boids table (CPU methods here).
TEST_F(BenchCli, ProgressBarIsClearedBeforeEachRow) {
  if (std::system("script --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "needs script(1) (util-linux)";
  const std::string life = "bench life --cpu --quick --kernels cpu-serial --sizes 32,48 --gens 3 --reps 2 --warmup 0 "
                           "--csv '" + path("life.csv") + "'";
  const std::string boids = "bench boids --methods cpu-grid --n 300,400 --series classic --cell-widths 2 --reps 1 "
                            "--steps-per-rep 1 --warmup 0 --csv '" + path("boids.csv") + "'";
  for (const auto& [args, rowStart] : {std::pair{life, "cpu-serial "}, std::pair{boids, "classic "}}) {
    const Result r =
        test::runCommand("timeout 120 script -qec \"'" + test::flocklifeExe() + "' " + args + "\" /dev/null 2>&1");
    ASSERT_EQ(r.status, 0) << args << "\n" << r.output;
    int rows = 0;
    std::istringstream lines(r.output);
    for (std::string line; std::getline(lines, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();  // the terminal's CR LF
      const auto cr = line.rfind('\r');
      const std::string shown = cr == std::string::npos ? line : line.substr(cr + 1);
      EXPECT_EQ(shown.find("s left"), std::string::npos) << args << "\nthe bar left on a row's line: " << shown;
      if (shown.rfind(rowStart, 0) == 0) ++rows;
    }
    EXPECT_EQ(rows, 2) << args << "\n" << r.output;
  }
}

// A Ctrl-C stops a sweep before its next configuration, with status 130 and a note naming the
// temporary file that holds the rows measured; the earlier CSV stays (a Ctrl-C ended the process at
// once and silently, the rows left in a file nobody named).
TEST_F(BenchCli, CtrlCStopsASweepAndNamesTheRowsMeasured) {
  const std::string csv = path("boids.csv"), log = path("log.txt");
  std::ofstream(csv) << "earlier\n";
  std::string widths = "1";  // 60 configurations of a few hundredths of a second each
  for (int k = 1; k < 30; ++k) widths += "," + std::to_string(1 + 0.1 * k);
  const std::vector<std::string> args = {"bench", "boids", "--methods", "cpu-grid", "--n", "20000,40000",
                                         "--series", "classic", "--cell-widths", widths, "--reps", "3",
                                         "--steps-per-rep", "2", "--warmup", "0", "--csv", csv};
  const pid_t pid = startFlocklife(args, log);
  ASSERT_GT(pid, 0);
  const bool rowSeen = !waitForFirstRow(csv).empty();  // the first row in the temporary file, then the signal
  ::kill(pid, SIGINT);
  const int status = waitExit(pid);
  const std::string said = fileText(log);
  ASSERT_TRUE(rowSeen) << said;
  EXPECT_EQ(status, 130) << said;
  EXPECT_NE(said.find("flocklife: interrupted by signal 2 "), std::string::npos) << said;  // in or before one
  EXPECT_NE(said.find(" configuration "), std::string::npos) << said;
  EXPECT_NE(said.find(" of 60 (classic cpu-grid "), std::string::npos) << said;
  EXPECT_NE(said.find("); nothing more was measured"), std::string::npos) << said;
  const std::string tmp = temporaryBeside(csv);
  ASSERT_NE(tmp, "") << said;
  const std::size_t rows = test::readCsv(tmp).size();
  EXPECT_GE(rows, 1u);
  EXPECT_LT(rows, 60u);
  EXPECT_NE(said.find("--csv " + csv + ": the sweep's rows did not take its place (the file there is as it was); the " +
                      std::to_string(rows) + " row"),
            std::string::npos)
      << said;
  EXPECT_NE(said.find(" in " + tmp + "\n"), std::string::npos) << said;
  EXPECT_EQ(fileText(csv), "earlier\n");
  fs::remove(tmp);

  // A signal in a configuration stops it between two repetitions: the first configuration here is
  // quick, the second, the last, takes many seconds (a signal in the last one exited 0).
  const auto [two, lastTmp] = startIntoSecondConfiguration(csv, log, 200, 10);
  ASSERT_NE(lastTmp, "") << fileText(log);
  expectStoppedNamingOneRow(two, SIGTERM, log,
                            "flocklife: interrupted by signal 15 in configuration 2 of 2 (classic cpu-grid 60000); "
                            "nothing more was measured",
                            lastTmp);
  fs::remove(lastTmp);
  EXPECT_EQ(fileText(csv), "earlier\n");
}

// bench fps's --visual off runs stop on a signal too, between frames (they ended at once and without
// a word, the CSV's rows in an unnamed temporary file; a new user's trial).
TEST_F(BenchCli, FpsVisualOffStopsOnASignalAndNamesTheRows) {
  const std::string csv = path("fps.csv"), log = path("log.txt");
  const pid_t pid = startFlocklife({"bench", "fps", "boids", "--backend", "cpu", "--visual", "off", "--n",
                                    "1000,2000,3000", "--seconds", "3", "--warmup-seconds", "0.2", "--csv", csv},
                                   log);
  ASSERT_GT(pid, 0);
  const std::string tmp = waitForFirstRow(csv);
  ASSERT_NE(tmp, "") << fileText(log);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into the second run
  expectStoppedNamingOneRow(pid, SIGINT, log,
                            "flocklife: interrupted by signal 2 in configuration 2 of 3 (boids cpu-grid n=2000 "
                            "--visual off); nothing more was measured",
                            tmp);
  EXPECT_FALSE(fs::exists(csv));
}

// A frame of many generations stops on a signal within a piece of it (a frame of 2e7 generations
// ran on for 55 s after Ctrl-C, one of 1e9 for more than 10 minutes; new users' trials).
TEST_F(BenchCli, FpsLifeFrameOfManyGenerationsStopsOnASignal) {
  const std::string log = path("log.txt");
  const pid_t pid = startFlocklife({"bench", "fps", "life", "--backend", "cpu", "--visual", "off", "--size", "64x64",
                                    "--gens-per-frame", "1000000000", "--seconds", "0.3", "--warmup-seconds", "0",
                                    "--csv", path("fps.csv")},
                                   log);
  ASSERT_GT(pid, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));  // into the first frame
  ::kill(pid, SIGINT);
  const int status = waitExit(pid, 20);
  const std::string said = fileText(log);
  EXPECT_EQ(status, 130) << said;  // -2: still running after 20 s, killed
  EXPECT_NE(said.find("interrupted by signal 2 in configuration 1 of 1"), std::string::npos) << said;
}

// A boids CPU step that takes minutes (cpu-naive at 300,000 boids) stops on a signal within it, in
// bench boids's repetitions and bench fps's --visual off frames (the first Ctrl-C waited for the
// step's end; a tester's trial).
TEST_F(BenchCli, ALongBoidsCpuStepStopsOnASignal) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"bench", "boids", "--methods", "cpu-naive", "--n", "300000", "--naive-max", "300000", "--series", "classic",
            "--reps", "1", "--steps-per-rep", "1", "--warmup", "0", "--csv", path("boids.csv")},
           {"bench", "fps", "boids", "--backend", "cpu", "--method", "cpu-naive", "--n", "300000", "--naive-max",
            "300000", "--visual", "off", "--seconds", "1", "--warmup-seconds", "0", "--csv", path("fps.csv")}}) {
    const std::string log = path("log.txt");
    const pid_t pid = startFlocklife(args, log);
    ASSERT_GT(pid, 0);
    // Into the first step (minutes long): past the CUDA probe and the handler's start on a busy machine.
    std::this_thread::sleep_for(std::chrono::milliseconds(3000));
    ::kill(pid, SIGINT);
    const int status = waitExit(pid, 20);
    const std::string said = fileText(log);
    EXPECT_EQ(status, 130) << args[1] << "\n" << said;  // -2: still running after 20 s, killed
    EXPECT_NE(said.find("interrupted by signal 2 in configuration 1 of 1"), std::string::npos) << said;
  }
}

// A frame longer than the run's measured window is said (--seconds 0.3 ran 6.1 s for one frame,
// without a word; a new user's trial).
TEST_F(BenchCli, FpsNotesAFrameLongerThanTheRun) {
  const test::CliResult r = test::runFlocklife(
      "bench fps life --backend cpu --visual off --size 64x64 --gens-per-frame 400000 --seconds 0.2 "
      "--warmup-seconds 0 --csv " + path("fps.csv"));
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("--visual off: a frame took "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(", longer than the 0.2 s measured (--seconds minus --warmup-seconds)"), std::string::npos)
      << r.output;
}

// A second Ctrl-C a second or more after the first ends the run at once, as it says it will, and
// names the temporary file that holds the rows measured (it was left without a word; a new user's
// trial). The one repetition of cpu-serial here (5,000 generations of 2048^2, about two minutes)
// is one call, so the first signal waits for its end; the row measured is bgolly's, which a
// stand-in that fails makes at once (a boids CPU step, used before, now stops on the first).
TEST_F(BenchCli, ASecondCtrlCEndsTheRunAtOnceNamingTheRows) {
  const std::string csv = path("life.csv"), log = path("log.txt");
  const fs::path bin = fs::path(path("bin"));
  fs::create_directories(bin);
  std::ofstream(bin / "bgolly") << "#!/bin/sh\nexit 1\n";
  fs::permissions(bin / "bgolly", fs::perms::owner_all);
  // Its folder for bgolly's soup is made here, and must be gone (it was left; a tester's trial).
  const fs::path tmpdir = fs::path(path("tmpdir"));
  fs::create_directories(tmpdir);
  const char* before = std::getenv("TMPDIR");
  const std::string saved = before ? before : "";
  setenv("TMPDIR", tmpdir.c_str(), 1);
  const pid_t pid = startFlocklife({"bench", "life", "--cpu", "--kernels", "cpu-serial", "--sizes", "2048", "--gens",
                                    "5000", "--reps", "1", "--warmup", "0", "--csv", csv},
                                   log, bin.string());
  if (before) setenv("TMPDIR", saved.c_str(), 1);
  else unsetenv("TMPDIR");
  const std::string tmp = waitForFirstRow(csv);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // into cpu-serial's repetition
  ASSERT_NE(tmp, "") << fileText(log);
  ::kill(pid, SIGINT);
  std::this_thread::sleep_for(std::chrono::milliseconds(1300));  // past InterruptFlag::kInsistAfterSeconds
  ::kill(pid, SIGINT);
  const int status = waitExit(pid);
  const std::string said = fileText(log);
  EXPECT_EQ(status, -1) << "ended by the signal\n" << said;
  EXPECT_NE(said.find("flocklife: --csv " + csv + ": the sweep ended at once; the rows measured are in " + tmp + "\n"),
            std::string::npos)
      << said;
  EXPECT_EQ(test::readCsv(tmp).size(), 1u);
  EXPECT_FALSE(fs::exists(csv));
  EXPECT_TRUE(fs::is_empty(tmpdir)) << fs::directory_iterator(tmpdir)->path();
}

/// A reader that leaves the table's pipe (`| head -1`) ends the sweep as SIGPIPE does, naming the
/// file that holds the rows measured, as a second Ctrl-C does (it ended without a word, the rows in
/// a temporary file never named: a tester's trial).
TEST_F(BenchCli, ABrokenPipeEndsTheSweepNamingTheRows) {
  const std::string csv = path("boids.csv"), err = path("err.txt"), st = path("status.txt");
  std::string ns = "300";  // 20 rows of 600 steps, ~0.6 s in all here: the reader has left long before
  for (int n = 301; n < 320; ++n) ns += "," + std::to_string(n);
  // head leaves after the header and the first row; a later row's line meets the broken pipe.
  const Result r = test::runCommand("{ '" + test::flocklifeExe() + "' bench boids --methods cpu-grid --n " + ns +
                                    " --series classic --cell-widths 2 --reps 3 --steps-per-rep 200 --warmup 0 "
                                    "--csv '" +
                                    csv + "' 2>'" + err + "'; echo $? > '" + st + "'; } | head -n 2");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(fileText(st), "141\n") << fileText(err);  // 128 + SIGPIPE
  const std::string said = fileText(err);
  const std::string tmp = temporaryBeside(csv);
  ASSERT_NE(tmp, "") << said;
  EXPECT_NE(said.find("flocklife: --csv " + csv + ": the sweep ended at once; the rows measured are in " + tmp + "\n"),
            std::string::npos)
      << said;
  EXPECT_GE(test::readCsv(tmp).size(), 1u);
  EXPECT_FALSE(fs::exists(csv));
}

// A Ctrl-C that ends bgolly stops the sweep with status 130, keeping the earlier CSV (std::system
// ignores SIGINT in flocklife while bgolly runs: the sweep went on, named bgolly as missing and
// replaced the CSV; found by a new user's trial), and so does a SIGTERM (it gave an empty bgolly row;
// a review). The bgolly here is a script that ends itself by the signal, as a terminal's Ctrl-C or a
// `timeout` sent to the process group would; bgolly runs first for each size, so no row is measured.
TEST_F(BenchCli, LifeCpuStopsWhenASignalEndsBgolly) {
  for (const auto& [name, status] : {std::pair{"INT", 130}, std::pair{"TERM", 143}}) {
    const fs::path bin = fs::path(path(std::string("bin-") + name));
    fs::create_directories(bin);
    std::ofstream(bin / "bgolly") << "#!/bin/sh\nkill -" << name << " $$\n";
    fs::permissions(bin / "bgolly", fs::perms::owner_all);
    const std::string csv = path("life.csv");
    std::ofstream(csv) << "earlier\n";
    const Result r = test::runCommand("PATH='" + bin.string() + "':\"$PATH\" '" + test::flocklifeExe() +
                                      "' bench life --cpu --kernels cpu-serial --sizes 64 --gens 1 --reps 1 --warmup 0 "
                                      "--csv '" + csv + "' 2>&1");
    EXPECT_EQ(r.status, status) << r.output;
    EXPECT_NE(r.output.find("flocklife: interrupted by signal " + std::to_string(status - 128) + " while bgolly ran"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find("not measured"), std::string::npos) << r.output;
    EXPECT_EQ(readWholeFile(csv), "earlier\n");
    EXPECT_EQ(temporaryBeside(csv), "") << r.output;
  }
}

// bgolly's row says why it was not measured: a failed run by its status (it said "missing or
// failed"), and a difference between the runs with and without generations within twice their
// noise, which on a busy machine gave 2.9e-05 ms per generation and every kernel's "x bgolly"
// with it (a new user's trial). The second bgolly's runs with generations take 20, 110 and 110 ms
// (median 110, noise 90) and those without 20, 60 and 60 ms: a difference of 50 ms, within twice
// the noise (180 ms) whatever the machine's jitter (a review found 60 and 20 ms in turn flaky; 100
// without, 10 ms from the runs with, read as no longer than loading on a busy machine). --reps 1
// still runs bgolly 3 times each (one run has no noise to compare with; a review).
TEST_F(BenchCli, LifeCpuSaysWhyBgollyWasNotMeasured) {
  const fs::path failing = fs::path(path("bin-failing")), noisy = fs::path(path("bin-noisy"));
  fs::create_directories(failing);
  fs::create_directories(noisy);
  std::ofstream(failing / "bgolly") << "#!/bin/sh\nexit 3\n";
  const std::string count = (noisy / "count").string();
  std::ofstream(noisy / "bgolly") << "#!/bin/sh\nn=$(cat '" << count << "' 2>/dev/null || echo 0)\necho $((n + 1)) > '"
                                  << count
                                  << "'\ncase $n in 0|3) sleep 0.02;; 1|2) sleep 0.11;; *) sleep 0.06;; esac\n";
  for (const fs::path& bin : {failing, noisy}) fs::permissions(bin / "bgolly", fs::perms::owner_all);
  auto run = [&](const fs::path& bin) {
    return test::runCommand("PATH='" + bin.string() + "':\"$PATH\" '" + test::flocklifeExe() +
                            "' bench life --cpu --kernels cpu-serial --sizes 64 --gens 10 --reps 1 --warmup 0 --csv '" +
                            path("life.csv") + "' 2>&1");
  };
  const Result failed = run(failing);
  EXPECT_EQ(failed.status, 0) << failed.output;  // the kernel's row was measured
  EXPECT_NE(failed.output.find("bgolly-quicklife      64 not measured (bgolly exited with status 3)"), std::string::npos)
      << failed.output;
  const Result noise = run(noisy);
  EXPECT_EQ(noise.status, 0) << noise.output;
  EXPECT_NE(noise.output.find("bgolly-quicklife      64 not measured (its 10 generations took "), std::string::npos)
      << noise.output;
  EXPECT_NE(noise.output.find("within twice the runs' noise of "), std::string::npos) << noise.output;
  EXPECT_EQ(readWholeFile(count), "6\n") << "bgolly ran 3 times with generations and 3 without at --reps 1";
  for (const auto& row : readCsv(path("life.csv"))) {
    if (row.at("kernel") == "bgolly-quicklife") {
      EXPECT_EQ(row.at("median_ms_per_gen"), "") << noise.output;
      EXPECT_EQ(row.at("repetitions"), "3") << "the runs made, not --reps";  // it said 1 (a new user's trial)
    }
  }
}

// A SIGINT to flocklife alone while bgolly runs stops the sweep at once and ends bgolly (std::system
// ignored SIGINT in flocklife meanwhile: the signal was lost and the sweep ran to its end, status
// 0; a new user's trial), with SIGKILL 2 s after SIGTERM where bgolly ignores SIGTERM. The bgolly
// here is a script that writes its process id, then becomes a long sleep (the second ignoring
// SIGTERM).
TEST_F(BenchCli, LifeCpuStopsWhenFlocklifeAloneIsInterruptedDuringBgolly) {
  for (const std::string ignoreTerm : {"", "trap '' TERM\n"}) {
    const fs::path bin = fs::path(path(ignoreTerm.empty() ? "bin" : "bin-ignoring"));
    fs::create_directories(bin);
    const std::string self = (bin / "bgolly.pid").string();
    std::ofstream(bin / "bgolly") << "#!/bin/sh\n" << ignoreTerm << "echo $$ > '" << self << ".tmp'\nmv '" << self
                                  << ".tmp' '" << self << "'\nexec sleep 60\n";
    fs::permissions(bin / "bgolly", fs::perms::owner_all);
    const std::string csv = path("life.csv"), log = path("log.txt");
    std::ofstream(csv) << "earlier\n";
    const pid_t pid = startFlocklife({"bench", "life", "--cpu", "--kernels", "cpu-serial", "--sizes", "64", "--gens",
                                      "1", "--reps", "1", "--warmup", "0", "--csv", csv},
                                     log, bin.string());
    ASSERT_GT(pid, 0);
    for (int i = 0; i < 6000 && !fs::exists(self); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_TRUE(fs::exists(self)) << fileText(log);
    const pid_t bgolly = pid_t(std::stol(fileText(self)));
    ::kill(pid, SIGINT);
    const int status = waitExit(pid, 20);  // not bgolly's 60 s
    const std::string said = fileText(log);
    EXPECT_EQ(status, 130) << ignoreTerm << said;
    EXPECT_NE(said.find("flocklife: interrupted by signal 2 while bgolly ran"), std::string::npos) << said;
    EXPECT_EQ(readWholeFile(csv), "earlier\n");
    EXPECT_TRUE(::kill(bgolly, 0) != 0 && errno == ESRCH) << "bgolly " << bgolly << " lives on " << ignoreTerm;
    ::kill(bgolly, SIGKILL);  // in case
  }
}

// A size that does not fit is skipped and the others run, as in the GPU table; bgolly's soup
// folder goes in every case (a size beyond memory ended the run and left it in the temp folder).
TEST_F(BenchCli, LifeCpuSkipsASizeThatDoesNotFitAndLeavesNoFolder) {
  const fs::path tmp = fs::path(path("tmp"));
  fs::create_directories(tmp);
  const Result r = test::runCommand("TMPDIR='" + tmp.string() + "' FLOCKLIFE_HOST_MEMORY_LIMIT=100000 '" +
                                    test::flocklifeExe() + "' bench life --cpu --kernels cpu-serial --sizes 64,1024 "
                                    "--gens 1 --reps 1 --warmup 0 --csv '" + path("life.csv") + "' 2>&1");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("1024 skipped: bench life soup: needs 2.00 MiB"), std::string::npos) << r.output;
  EXPECT_EQ(column(readCsv(path("life.csv")), "width"), std::set<std::string>{"64"}) << r.output;
  EXPECT_TRUE(fs::is_empty(tmp)) << fs::directory_iterator(tmp)->path();
  // With every size skipped nothing was measured: not a success, and the CSV of the run before is
  // kept and not named as this run's (it exited 0 with "CSV: <path>"; a new user's trial).
  const std::string before = readWholeFile(path("life.csv"));
  const Result none = test::runCommand("TMPDIR='" + tmp.string() + "' FLOCKLIFE_HOST_MEMORY_LIMIT=100000 '" +
                                       test::flocklifeExe() + "' bench life --cpu --kernels cpu-serial --sizes 1024 "
                                       "--gens 1 --reps 1 --warmup 0 --csv '" + path("life.csv") + "' 2>&1");
  EXPECT_EQ(none.status, 3) << none.output;
  EXPECT_NE(none.output.find("error: nothing was measured: every configuration was skipped (said above); --csv " +
                             path("life.csv") + " was not written"), std::string::npos) << none.output;
  EXPECT_EQ(none.output.find("CSV: "), std::string::npos) << none.output;
  EXPECT_EQ(readWholeFile(path("life.csv")), before);
  // Nor are the folders made for the CSV left behind, empty (a new run's out/bench/ was).
  const Result noFolder = test::runCommand("TMPDIR='" + tmp.string() + "' FLOCKLIFE_HOST_MEMORY_LIMIT=100000 '" +
                                           test::flocklifeExe() + "' bench life --cpu --kernels cpu-serial --sizes 1024 "
                                           "--gens 1 --reps 1 --warmup 0 --csv '" + path("new/sub/life.csv") + "' 2>&1");
  EXPECT_EQ(noFolder.status, 3) << noFolder.output;
  EXPECT_FALSE(fs::exists(path("new"))) << noFolder.output;
  // Only folders the run made go: "gone/../kept" names kept/, which was there (it was removed; a review).
  fs::create_directories(path("kept"));
  const Result kept = test::runCommand("TMPDIR='" + tmp.string() + "' FLOCKLIFE_HOST_MEMORY_LIMIT=100000 '" +
                                       test::flocklifeExe() + "' bench life --cpu --kernels cpu-serial --sizes 1024 "
                                       "--gens 1 --reps 1 --warmup 0 --csv '" + path("gone/../kept/life.csv") + "' 2>&1");
  EXPECT_EQ(kept.status, 3) << kept.output;
  EXPECT_TRUE(fs::is_directory(path("kept"))) << kept.output;
  EXPECT_FALSE(fs::exists(path("gone"))) << kept.output;
}

// The naive methods' counts above --naive-max are named in a note (--naive-max 0 dropped cpu-naive
// without a word; a new user's trial).
TEST_F(BenchCli, NaiveCountsLeftOutAreSaid) {
  const Result r = test::runFlocklife("bench boids --methods cpu-naive,cpu-grid --n 300,400 --naive-max 300 --series "
                                      "classic --cell-widths 2 --reps 1 --steps-per-rep 1 --warmup 0 --csv '" +
                                      path("n.csv") + "'");
  EXPECT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("flocklife: note: cpu-naive runs only up to --naive-max 300: not at --n 400"), std::string::npos)
      << r.output;
  EXPECT_EQ(readCsv(path("n.csv")).size(), 3u) << r.output;
}

// A random start that does not fit is skipped, as a configuration that does not fit is, and the
// sweep goes on (it ended the sweep with status 3; a new user's trial); so is one whose method's
// copies do not fit beside it, naming the configuration's settings (two cell widths' skips read the
// same: a tester's trial), and bench fps refuses it.
TEST_F(BenchCli, BoidsSkipsAStartThatDoesNotFit) {
  const std::string csv = path("m.csv");
  // The start itself; then a start that fits beside a method's copies that do not, skipped as
  // flocklife boids refuses it (the start alone, 24 bytes per boid, was counted; a new user's trial).
  for (const auto& [limit, n, said] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"300000", "50000", "skipping classic n=50000: --n 50000: positions and velocities of the random start: needs"},
           {"1000000", "20000",
            "skipping classic cpu-grid 20000 (cell width 2, x split 1): --n 20000: cpu-grid's copies of the random "
            "start (56 bytes per boid): needs"}}) {
    const Result r = test::runCommand("FLOCKLIFE_HOST_MEMORY_LIMIT=" + limit + " timeout 120 '" + test::flocklifeExe() +
                                      "' bench boids --n " + n + ",1000 --methods cpu-grid --cell-widths 2 --series "
                                      "classic --reps 1 --steps-per-rep 1 --warmup 0 --csv '" + csv + "' 2>&1");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("flocklife: " + said), std::string::npos) << r.output;
    EXPECT_EQ(column(readCsv(csv), "n"), std::set<std::string>{"1000"}) << r.output;
  }
  // bench fps refuses it before its first run (the check came with the run of that N).
  const Result fps = test::runCommand("FLOCKLIFE_HOST_MEMORY_LIMIT=1000000 timeout 120 '" + test::flocklifeExe() +
                                      "' bench fps boids --backend cpu --n 1000,20000 --visual off --seconds 0.2 "
                                      "--warmup-seconds 0 --csv '" + path("fps.csv") + "' 2>&1");
  EXPECT_EQ(fps.status, 3) << fps.output;
  EXPECT_EQ(fps.output.find("n=1000"), std::string::npos) << fps.output;
  EXPECT_FALSE(fs::exists(path("fps.csv"))) << fps.output;
  EXPECT_NE(fps.output.find("--n 20000: the random start and cpu-grid's copies of it (80 bytes per boid): needs"),
            std::string::npos)
      << fps.output;
}

// The sweep flags and the table a kernel belongs in are checked before anything runs, with or
// without a device (a --sweep-size not among --sizes gave no sweep rows without a word).
TEST_F(BenchCli, LifeSweepFlagsAndKernelTablesAreChecked) {
  expectError("bench life --cpu --sizes 64 --sweep-size 64", "--sweep-size applies to the GPU table only");
  expectError("bench life --cpu --sizes 64 --no-sweep", "--no-sweep applies to the GPU table only");
  expectError("bench life --sizes 64 --sweep-size 128",
              "--sweep-size 128: not one of the sizes timed; expected one of --sizes");
  expectError("bench life --quick --sweep-size 1024", "--sweep-size 1024: not one of the sizes timed");
  expectError("bench life --no-sweep --sweep-size 64", "--sweep-size and --no-sweep exclude each other");
  expectError("bench life --kernels cpu-bitsliced --sizes 64", "--kernels cpu-bitsliced: a CPU kernel; add --cpu");
}

TEST_F(BenchCli, LifeGpuQuickSweepsAtAnExplicitSweepSize) {
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = test::runFlocklife("bench life --quick --kernels simple --sizes 256 --sweep-size 256 --gens 2 "
                                      "--reps 1 --warmup 0 --csv '" + path("life.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto tpb = column(readCsv(path("life.csv")), "threads_per_block");
  EXPECT_TRUE(tpb.count("0") && tpb.count("128") && tpb.count("512")) << r.output;  // defaults plus the sweep
}

// bench boids' list items are checked by flocklife boids' rules but named by this command's flags
// (they named --cell-width for --cell-widths 0), float items beyond a float's range as given; counts have ranges (--naive-max -1 dropped every
// naive row, a huge --steps-per-rep overflowed its rounding to whole sort intervals).
TEST_F(BenchCli, BoidsItemsAreRefusedNamingTheListFlags) {
  const std::string bench = "bench boids --methods cpu-grid --n 10 ";
  expectError(bench + "--cell-widths 1,0", "--cell-widths 0: expected a finite number > 0");
  expectError(bench + "--block-sizes 100", "--block-sizes 100: expected a multiple of 32 in [32, 1024]");
  expectError(bench + "--staging-ratios -1", "--staging-ratios -1: expected a finite number >= 0");
  // Beyond a float: quoted as given (1e400 was refused as "got inf").
  expectError(bench + "--cell-widths 1,1e400", "--cell-widths: '1e400' is out of the range of a float");
  expectError(bench + "--staging-ratios 1e-50", "--staging-ratios: '1e-50' rounds to 0 as a float");
  expectError(bench + "--x-splits 65", "--x-splits 65: expected a number of cells along x per cell width in [1, 64]");
  expectError(bench + "--sort-every 65", "--sort-every 65: expected a number of steps in [1, 64]");
  expectError(bench + "--naive-max -1", "--naive-max: expected an integer in [0, 9223372036854775807], got '-1'");
  expectError(bench + "--reps 0", "--reps: expected an integer in [1, 100000], got '0'");
  expectError(bench + "--steps-per-rep 2000000000", "--steps-per-rep: expected an integer in [1, 1000000]");
  expectError(bench + "--warmup -1", "--warmup: expected an integer in [0, 1000000], got '-1'");
  // Only naive methods, every N above --naive-max: nothing to measure (it exited 0 naming a CSV it
  // never wrote; a new user's trial).
  expectError("bench boids --methods cpu-naive --n 2000 --naive-max 1000 --csv " + path("new/none.csv"),
              "--naive-max 1000: every --n is above it and --methods names only the naive methods, so nothing would "
              "be measured");
  EXPECT_FALSE(fs::exists(path("new"))) << "a folder made for a CSV never written";
}

TEST_F(BenchCli, ScanQuickKeepsAnExplicitRangeAndReps) {
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = test::runFlocklife("bench scan --quick --min-log2 10 --max-log2 10 --reps 12 --ops scan --no-slow "
                                      "--block-sizes 64,256 --csv '" + path("scan.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(path("scan.csv"));
  EXPECT_EQ(column(rows, "n"), (std::set<std::string>{"1021", "1024"})) << r.output;
  std::vector<std::map<std::string, std::string>> gpu, cpu;  // the serial CPU rows take at most 5
  for (const auto& row : rows) (row.at("method") == "cpu" ? cpu : gpu).push_back(row);
  EXPECT_EQ(column(gpu, "reps"), std::set<std::string>{"12"});
  EXPECT_EQ(column(cpu, "reps"), std::set<std::string>{"5"});
  std::vector<std::map<std::string, std::string>> lean;  // the course scan that --no-slow keeps, per block size
  for (const auto& row : rows)
    if (row.at("method") == "work-efficient-lean") lean.push_back(row);
  EXPECT_EQ(column(lean, "block_size"), (std::set<std::string>{"64", "256"}));
  EXPECT_EQ(lean.size(), 4u);  // two block sizes at n = 1024 and 1021
}

// ---- unknown names name the bench's flags ------------------------------------------------------

TEST_F(BenchCli, UnknownNamesNameThePluralFlags) {
  expectError("bench life --kernels nope", "error: --kernels: unknown kernel 'nope'; available in this build: cpu-serial");
  expectError("bench life --cpu --kernels cpu-serial,nope", "error: --kernels: unknown kernel 'nope'");
  expectError("bench boids --methods cpu-grid,nope", "error: --methods: unknown method 'nope'; available in this build: cpu-naive");
  // The singular options of the other commands keep their names.
  expectError("life --kernel nope --random 0.5 --size 8x8 --gens 1", "error: --kernel: unknown kernel 'nope'");
}

// ---- GPU-only work without a device ------------------------------------------------------------

// CLI11 drops the empty items of comma-separated lists; flocklife refuses them first, naming the
// flag, in both spellings (before, "--n 100,,200" ran 100 and 200 without a word). An item given
// twice is refused too, numbers compared by value (before, bench boids timed "--n 100,100" twice).
TEST_F(BenchCli, ListOptionsRefuseEmptyAndRepeatedItems) {
  expectError("bench boids --n 100,,200 --methods cpu-naive", "error: --n: empty item in '100,,200'");
  expectError("bench boids --methods cpu-naive --n=100,", "error: --n: empty item in '100,'");
  expectError("bench scan --log2 ,24", "error: --log2: empty item in ',24'");
  expectError("bench fps boids --method cpu-grid,,cpu-naive", "error: --method: empty item in 'cpu-grid,,cpu-naive'");
  expectError("bench boids --methods cpu-naive --n 100,200,100", "error: --n: '100' is given twice; expected each item once");
  expectError("bench boids --methods cpu-naive --n 100 --n=0100", "error: --n: '100' is given twice");
  // Further words that CLI11 takes as values of the list are checked too.
  expectError("bench boids --methods cpu-naive --n 100 100", "error: --n: '100' is given twice");
  expectError("bench boids --methods cpu-naive cpu-naive --n 100", "error: --methods: 'cpu-naive' is given twice");
  expectError("bench boids --methods cpu-naive --n 100 ,200", "error: --n: empty item in ',200'");
  expectError("bench boids --methods cpu-naive --n 100 --cell-widths 1,1e0", "error: --cell-widths: '1e0' is given twice");
  // As the float the sweep runs (1.00000001 is 1 as a float), and group radii by value (a tester's trial).
  expectError("bench boids --methods cpu-naive --n 100 --cell-widths 1,1.00000001",
              "error: --cell-widths: '1.00000001' is given twice");
  expectError("bench boids --methods fast --n 100 --group-radii 0,0.0",
              "--group-radii: '0.0' is given twice (as '0'); expected each radius once");
  // World sizes by value too (064x64 is 64x64: it ran twice; a new user's trial).
  expectError("bench fps life --backend cpu --visual off --size 64x64,064x64",
              "error: --size: '064x64' is given twice (64x64); expected each item once");
  expectError("bench boids --methods cpu-naive --n 100 --staging-ratios 0,-0", "error: --staging-ratios: '-0' is given twice");
  // Single-value options of other commands keep CLI11's own message.
  expectError("boids --n 100 --n 200 --steps 1", "error: --n: ");
  expectError("life --size 64x64,,64x64 --random 0.5 --gens 1", "error: --size '64x64,,64x64': expected WIDTHxHEIGHT");
  expectError("bench boids --methods cpu-naive,cpu-naive --n 100", "error: --methods: 'cpu-naive' is given twice");
  expectError("bench boids --methods cpu-naive --n 100 --cell-widths 0.5,.50", "error: --cell-widths: '.50' is given twice");
  expectError("bench scan --log2 10,12,10", "error: --log2: '10' is given twice");
  expectError("bench scan --block-sizes 64,64", "error: --block-sizes: '64' is given twice");
  expectError("bench scan --block-sizes 48", "error: --block-sizes: expected a multiple of 32 in [32, 1024], got '48'");
  expectError("bench fps boids --method cpu-grid --n 100,100", "error: --n: '100' is given twice");
  // bench life's lists are the same kind of option (before, it split them itself).
  const std::string cpu = "bench life --cpu --reps 1 --gens 1 --csv '" + path("l.csv") + "' ";
  expectError(cpu + "--sizes 16,,32", "error: --sizes: empty item in '16,,32'");
  expectError(cpu + "--sizes 16,", "error: --sizes: empty item in '16,'");
  expectError(cpu + "--sizes 16,16", "error: --sizes: '16' is given twice");
  expectError(cpu + "--sizes 16 --kernels cpu-serial,cpu-serial", "error: --kernels: 'cpu-serial' is given twice");
  expectError(cpu + "--sizes 16 16", "error: --sizes: '16' is given twice");
  expectError(cpu + "--sizes 16,0", "error: --sizes: expected an integer in [1, 1048576], got '0'");
  expectError("bench life --cpu --sizes 16 --gens 0", "error: --gens: expected an integer in [1, 9223372036854775807], got '0'");
  // Items that differ run: both sizes are in the table.
  const Result r = test::runFlocklife(cpu + "--sizes 16,32 --kernels cpu-serial");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_EQ(column(test::readCsv(path("l.csv")), "width"), (std::set<std::string>{"16", "32"})) << r.output;
}

// Integers are decimal everywhere: CLI11 alone would read 010 as octal 8 and 0x10 as hex 16.
TEST_F(BenchCli, IntegerOptionsAreDecimal) {
  expectError("bench boids --n 100,0x10 --methods cpu-naive", "error: --n: expected an integer in decimal digits, of absolute value at most 2^63 - 1, got '0x10'");
  expectError("bench scan --reps 1e3", "error: --reps: expected an integer in decimal digits, of absolute value at most 2^63 - 1, got '1e3'");
  const Result r = test::runFlocklife("bench life --cpu --sizes 16 --kernels cpu-serial --gens 010 --reps 02 --csv '" + path("d.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = test::readCsv(path("d.csv"));
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.back().at("generations"), "10");
  EXPECT_EQ(rows.back().at("repetitions"), "2");
}

TEST_F(BenchCli, GpuOnlyBenchesAreRefusedUpFrontWithoutADevice) {
  if (test::haveGpu()) GTEST_SKIP() << "a CUDA device is usable here";
  if (builtWithCuda()) {
    const Result life = expectError("bench life --cpu --kernels cpu-serial,simple --sizes 32 --gens 2 --csv '" +
                                        path("life.csv") + "'",
                                    "flocklife: error: --kernels simple: a GPU kernel, which the --cpu table times "
                                    "beside the CPU kernels only with a CUDA device: ");
    EXPECT_EQ(life.output.find("bgolly"), std::string::npos) << life.output;  // nothing ran before the refusal
    EXPECT_FALSE(fs::exists(path("life.csv")));
    expectError("bench boids --methods naive --csv '" + path("boids.csv") + "'",
                "flocklife: error: --methods naive needs a CUDA device: ");
  } else {  // a CPU-only build has no GPU kernels at all
    expectError("bench life --cpu --kernels simple", "error: --kernels: unknown kernel 'simple'");
    expectError("bench boids --methods naive", "error: --methods: unknown method 'naive'");
  }
  const Result scan = expectError("bench scan --quick --csv '" + path("scan.csv") + "'",
                                  "flocklife: error: bench scan needs a CUDA device: ");
  EXPECT_EQ(scan.output.find("CUDA error"), std::string::npos) << scan.output;
  EXPECT_FALSE(fs::exists(path("scan.csv")));
}

#ifdef FLOCKLIFE_FAST_BENCH_EXE
/// `fast_bench <args>`, stdout and stderr together, within 120 s. The executable is found as
/// test_paths.hpp finds flocklife: the compiled-in path, else bench/ beside this test's folder.
Result runFastBench(const std::string& args) {
  std::string exe = FLOCKLIFE_FAST_BENCH_EXE;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!fs::exists(exe) && !ec) exe = (self.parent_path().parent_path() / "bench" / "fast_bench").string();
  return test::runCommand("timeout 120 '" + exe + "' " + args + " 2>&1");
}

TEST_F(BenchCli, FastBenchSaysFirstThatItNeedsADevice) {
  if (test::haveGpu()) GTEST_SKIP() << "a CUDA device is usable here";
  const Result r = runFastBench("--quick --csv '" + path("fast.csv") + "'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_EQ(r.output.rfind("fast_bench: error: the fast kernel needs a CUDA device: ", 0), 0u) << r.output;
  EXPECT_FALSE(fs::exists(path("fast.csv")));
}

// fast_bench's lists take the same checks as flocklife's, before it looks for a device.
TEST_F(BenchCli, FastBenchRefusesEmptyAndRepeatedListItems) {
  Result r = runFastBench("--sizes 1024,,2048 --csv '" + path("fast.csv") + "'");
  EXPECT_EQ(r.status, 2);  // as flocklife's usage errors (CLI11 alone: 105)
  EXPECT_NE(r.output.find("--sizes: empty item in '1024,,2048'"), std::string::npos) << r.output;
  r = runFastBench("--rules B3/S23,B36/S23,B3/S23 --csv '" + path("fast.csv") + "'");
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--rules: 'B3/S23' is given twice; expected each item once"), std::string::npos) << r.output;
  r = runFastBench("--k 16 --generations-per-launch 16 --csv '" + path("fast.csv") + "'");  // one option, two names
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.output.find("--k: '16' is given twice"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("fast.csv")));
}

// Values the kernel would read as "its default" (0), or that would divide by zero or never end,
// are refused naming the flag, before fast_bench looks for a device (found by a review: --k 0 ran
// k = 16 under the label 0).
TEST_F(BenchCli, FastBenchRefusesValuesOutsideTheirRanges) {
  const std::string csv = " --csv '" + path("fast.csv") + "'";
  const std::pair<const char*, const char*> cases[] = {
      {"--k 0", "--k: expected an integer in [1, 32], got '0'"},
      {"--rows 10", "--rows: 10 not in {8,12,16,24}"},
      {"--threads 0", "--threads: expected a multiple of 32 in [32, 1024], got '0'"},
      {"--threads 100", "--threads: expected a multiple of 32 in [32, 1024], got '100'"},
      {"--reps 0", "--reps: expected an integer in [1, 1000], got '0'"},
      {"--updates -1e12", "--updates: expected a number of cell updates in [1, 1e18], got '-1e12'"},
      {"--updates inf", "--updates: expected a number of cell updates in [1, 1e18], got 'inf'"},
      {"--sizes 0", "--sizes: expected an integer in [1, 1048576], got '0'"},
  };
  for (const auto& [args, message] : cases) {
    const Result r = runFastBench(std::string(args) + csv);
    EXPECT_EQ(r.status, 2) << args << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << args << ": " << r.output;
  }
  const Result r = runFastBench("--csv ''");
  EXPECT_NE(r.output.find("--csv: expected a file name, got an empty string"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(path("fast.csv")));
}

TEST_F(BenchCli, FastBenchQuickKeepsExplicitSizesAndReps) {
  if (!test::haveGpu()) GTEST_SKIP() << "needs a CUDA device";
  const Result r = runFastBench("--quick --sizes 1024 --reps 2 --updates 1e8 --csv '" + path("fast.csv") + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  const auto rows = readCsv(path("fast.csv"));
  EXPECT_EQ(column(rows, "width"), std::set<std::string>{"1024"}) << r.output;
  EXPECT_EQ(column(rows, "k"), std::set<std::string>{"16"});  // --quick's, not given
}
#endif

}  // namespace

}  // namespace flocklife
