// Runs the built `flocklife` executable: every bad option is refused with a message naming the
// flag (exit status 2); checkpoints resume bit-exactly; SIGINT saves a final checkpoint.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "app/long_run.hpp"
#include "app/tuning_options.hpp"
#include "boids/boids.hpp"
#include "common/busy_cores.hpp"
#include "boids/checkpoint.hpp"
#include "common/checkpoint_io.hpp"
#include "life/checkpoint.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"
#include "cli_run.hpp"
#include "gpu_test.hpp"
#include "host_memory_limit.hpp"
#include "scratch_dir.hpp"
#include "test_paths.hpp"

namespace flocklife {

namespace {

namespace fs = std::filesystem;

using Result = test::CliResult;
Result run(const std::string& args) { return test::runFlocklife(args); }
using test::expectError;

class Reliability : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return scratch_.path(name); }
  void expectOk(const std::string& args) {
    const Result r = run(args);
    ASSERT_EQ(r.status, 0) << args << "\n" << r.output;
  }
  test::ScratchDir scratch_{"rel"};
};

std::string readBytes(const std::string& p) { return readWholeFile(p); }

}  // namespace

// ---- option validation: each message names the flag --------------------------------------

TEST_F(Reliability, LifeOptionsAreValidatedNamingTheFlag) {
  const std::string soup = "life --backend cpu --random 0.5 --size 16x16 ";
  expectError(soup + "--gens 1 --points splat", "not expected: --points splat");  // boids windows only
  expectError("life --backend cpu --random 1.5 --size 16x16 --gens 1", "--random 1.5: density must be in [0, 1]");
  expectError("life --backend cpu --random -0.1 --size 16x16 --gens 1", "--random -0.1: density must be in [0, 1]");
  expectError("life --backend cpu --random nan --size 16x16 --gens 1", "--random nan: density must be in [0, 1]");
  expectError("life --backend cpu --random 1.0000001 --size 16x16 --gens 1", "--random 1.0000001: density must be");
  const std::string sizes = "': expected WIDTHxHEIGHT, two whole numbers from 1 to 2^40, e.g. 256x256";
  for (const std::string size : {"0x16", "-4x16", "16", "8x+8", " 8x8", "8x8 ", "0x0", "2199023255553x1", "1x8x8", "x8"})
    expectError("life --backend cpu --random 0.5 --size '" + size + "' --gens 1", "--size '" + size + sizes);
  expectError("bench fps life --backend cpu --size 8x-8", "--size '8x-8': expected WIDTHxHEIGHT, two whole numbers from 1 to 2^40");
  // A window flag without a window is named before "--gens N is required" (a new user left out
  // --window and was told to give --gens); with a window, --gens is per frame and 0 is refused (it ran 1).
  expectError("life --backend cpu --random 0.3 --size 64x64 --frames 3 --zoom 2", "--frames needs --window");
  expectError("life --backend cpu --random 0.3 --size 64x64 --frames 5 --gens 0 --screenshot " + path("a.png"),
              "--gens 0: with a window --gens is the generations per frame; expected >= 1");
  expectError("boids --backend cpu --window --window-size 16385x10",
              "--window-size '16385x10': expected WIDTHxHEIGHT, two whole numbers from 1 to 16384, e.g. 1024x768");
  expectError(soup + "--gens -1", "flocklife: error: --gens: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-1'");
  // Above 2^63 - 1 CLI11 would saturate or wrap (a run that never ends): refused, naming the flag.
  expectError(soup + "--gens 99999999999999999999", "--gens: expected an integer in decimal digits, of absolute value at most 2^63 - 1");
  expectError(soup + "--gens 9223372036854775808", "--gens: expected an integer in decimal digits, of absolute value at most 2^63 - 1");
  expectError(soup + "--gens 5 --window --frames -1", "--frames: expected an integer in [0, 2147483647], got '-1'");
  expectError(soup, "--gens N is required");
  expectError(soup + "--gens 5 --every 2", "--every applies to --checkpoint only");
  expectError(soup + "--gens 5 --checkpoint " + path("c.ck") + " --every 0", "--every 0: expected a number of generations >= 1");
  expectError(soup + "--gens 5 --kernel nope", "unknown kernel 'nope'");
  // Output paths are checked before the run, so a long run never ends in a lost result.
  expectError(soup + "--gens 5 --checkpoint " + path("nodir/c.ck"), "--checkpoint " + path("nodir/c.ck") + ": the folder '");
  expectError(soup + "--gens 5 --out " + path("nodir/x.rle"), "--out " + path("nodir/x.rle") + ": the folder '");
  expectError("life --backend cpu --random 0.5 --size 2000000x2000000 --gens 1", "world size 2000000x2000000: more than 2^40 cells", 3);
  // CLI11 would wrap a negative value of an unsigned option to 2^64 - 1 (a run that never ends).
  expectError(soup + "--gens 5 --checkpoint " + path("c.ck") + " --every -1", "--every: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-1'");
  expectError(soup + "--gens 5 --seed -3", "--seed: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-3'");
  expectError(soup + "--gens 5 --repeat 0", "--repeat: expected an integer in [1, 2147483647], got '0'");
  expectError(soup + "--gens 5 --repeat 2 --checkpoint " + path("c.ck"), "--repeat and --checkpoint exclude each other");
  expectError(soup + "--gens 5 --repeat-seconds 0",
              "--repeat-seconds: expected a finite number of seconds > 0, got '0'");
  // Infinity is > 0: the message says finite (a tester's trial).
  expectError(soup + "--gens 5 --repeat-seconds inf", "--repeat-seconds: expected a finite number of seconds > 0");
  expectError(soup + "--gens 5 --repeat-seconds 2 --repeat 3", "--repeat and --repeat-seconds exclude each other");
  // --repeat 1 too (it was dropped without a word; found by a review).
  expectError(soup + "--gens 5 --repeat 1 --repeat-seconds 0.05", "--repeat and --repeat-seconds exclude each other");
  expectError(soup + "--gens 5 --repeat-seconds 2 --checkpoint " + path("c.ck"),
              "--repeat-seconds and --checkpoint exclude each other");
}

// --repeat-seconds (the soak test's mode): runs again until the time is up, at least twice, one
// "repeat r:" line each (no total: it is not known in advance), the same world every time. Only a
// run on the device reports its free device memory (what scripts/soak.sh reads for leaks).
TEST_F(Reliability, RepeatSecondsRunsUntilTheTimeIsUpAtLeastTwice) {
  std::vector<std::string> jobs{"life --backend cpu --random 0.3 --size 40x30 --gens 7", "boids --backend cpu --n 60 --steps 2"};
  if (test::haveGpu()) {
    jobs.push_back("life --backend cuda --random 0.3 --size 40x30 --gens 7");
    jobs.push_back("boids --backend cuda --n 60 --steps 2");
  }
  for (const std::string& job : jobs) {
    SCOPED_TRACE(job);
    const bool onDevice = job.find("cuda") != std::string::npos;
    const Result r = run(job + " --repeat-seconds 0.2");
    ASSERT_EQ(r.status, 0) << r.output;
    std::istringstream lines(r.output);
    std::string line, firstChecksum;
    int count = 0;
    while (std::getline(lines, line)) {
      if (line.rfind("repeat ", 0) != 0) continue;
      ++count;
      EXPECT_EQ(line.rfind("repeat " + std::to_string(count) + ": ", 0), 0u) << line;
      const std::string checksum = line.substr(line.find("checksum "), 27);
      if (count == 1) firstChecksum = checksum;
      const std::size_t free = line.find(", device memory free ");
      EXPECT_EQ(free != std::string::npos, onDevice) << line;
      if (onDevice) {
        EXPECT_GT(std::atoll(line.c_str() + free + 21), 0) << line;
      }
      if (job.rfind("life", 0) == 0) {
        EXPECT_EQ(checksum, firstChecksum) << line;
      }
    }
    EXPECT_GE(count, 2) << r.output;
  }
}

/// The up-front check counts the room under the address-space limit (ulimit -v), OpenMP's threads
/// included: a run under one passed it, ran, and ended in std::bad_alloc (a tester's trial). The cgroup's limit is counted the
/// same way (not tested: this machine's group has none).
TEST_F(Reliability, HostMemoryCheckCountsTheAddressSpaceLimit) {
  const Result r = test::runCommand("ulimit -v 3000000 && '" + test::flocklifeExe() +
                                    "' life --backend cpu --random 0.5 --size 40000x40000 --gens 1 2>&1");
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("life on a 40000x40000 torus with cpu-bitsliced"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("(3600000000 bytes) of host memory, "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("bad_alloc"), std::string::npos) << r.output;
  // It counts the OpenMP threads' stacks and heap arenas too: this run passed the check and ended in
  // libgomp's "Thread creation failed" with status 1 (a tester's trial).
  const Result threads = test::runCommand("ulimit -v 330000 && env OMP_NUM_THREADS=4 '" + test::flocklifeExe() +
                                          "' boids --backend cpu --n 2500000 --steps 1 2>&1");
  EXPECT_EQ(threads.status, 3) << threads.output;
  EXPECT_NE(threads.output.find("of host memory, "), std::string::npos) << threads.output;
  // The message names the limit and what it counts (it said "1 B available" alone: a tester's trial).
  EXPECT_NE(threads.output.find(" available under ulimit -v (322.27 MiB), of which this process holds "),
            std::string::npos) << threads.output;
  EXPECT_NE(threads.output.find(" and its 3 more OpenMP threads will reserve "), std::string::npos) << threads.output;
  EXPECT_NE(threads.output.find(" for stacks and heap arenas (OMP_NUM_THREADS sets how many)"), std::string::npos)
      << threads.output;
}

TEST_F(Reliability, LifeWorldBeyondHostMemoryIsRefusedWithBothSizes) {
  const test::HostMemoryLimit limit("1000000");  // inherited by the child process
  expectError("life --backend cpu --random 0.5 --size 2000x1000 --gens 1",
              "life on a 2000x1000 torus with cpu-bitsliced (start and final worlds, 1 byte per cell each, and the "
              "kernel's two generations, a bit per cell in rows of whole 8-byte words: 512000 bytes): needs 4.30 MiB "
              "(4512000 bytes) of host memory, 976.56 KiB available",
              3);
  // Rows of whole 8-byte words: a world 1 cell wide takes 16 bytes per row in a bit-per-cell
  // kernel, 8 times its two byte-per-cell worlds (counted at a bit per cell, a new user's
  // 1x300000000 world under a 1 GB limit peaked at 5.3 GB).
  expectError("life --kernel cpu-bitsliced --random 0.5 --size 1x100000 --gens 1",
              "kernel's two generations, a bit per cell in rows of whole 8-byte words: 1600000 bytes): needs 1.72 MiB "
              "(1800000 bytes)",
              3);
  // The whole run is counted, not one copy of the world (a reviewer's 100 MB world under a 150 MB
  // limit peaked at 428 MB with cpu-serial): 300,000 cells fit once, but not four times.
  expectError("life --kernel cpu-serial --random 0.5 --size 600x500 --gens 1",
              "life on a 600x500 torus with cpu-serial (start and final worlds, 1 byte per cell each, and the kernel's "
              "two generations, 2 bytes per cell): needs 1.14 MiB (1200000 bytes)",
              3);
  expectError("life --kernel cpu-bitsliced --random 0.5 --size 600x500 --gens 1", "population", 0);  // 675,000 bytes
  // Every flag is checked before the world is made or a file read (a bad --kernel, --rule or
  // --offset came after a 20000x20000 world was allocated).
  expectError("life --random 0.5 --size 20000x20000 --gens 1 --kernel nope", "--kernel: unknown kernel 'nope'");
  expectError("life --random 0.5 --size 20000x20000 --gens 1 --backend cpu --rule B9", "--rule: invalid rule 'B9'");
  expectError("life --resume " + path("none.ck") + " --gens 5 --kernel nope", "--kernel: unknown kernel 'nope'");
  expectError("life --backend cpu --random 0.5 --size 20x10 --gens 1 --checkpoint " + path("c.ck"), "population", 0);
  // A CPU method holds three states (the start, its own, the next step's) and cpu-grid its cells
  // and order: counted before any is made (a review's 4e8 boids passed a check of one, then ran
  // out of memory).
  expectError("boids --backend cpu --n 20000 --steps 1",
              "--n 20000: the random start and cpu-grid's copies of it (80 bytes per boid): needs 1.53 MiB (1600000 "
              "bytes) of host memory, 976.56 KiB available",
              3);
  // A pattern larger than the --size torus is refused from its header, before its cells are
  // allocated (100000000 x 20 bytes would be beyond the limit: the memory check would speak first).
  const std::string wide = path("wide.rle");
  std::ofstream(wide) << "x = 100000000, y = 20, rule = B3/S23\n!\n";
  expectError("life --backend cpu --pattern " + wide + " --size 64x64 --gens 1",
              wide + ": pattern 100000000x20 does not fit on the 64x64 torus");
  // The world a header implies is checked before the cells are read (a 52-byte file declaring
  // 100000x100000 made 10 GB of cells before its 400000^2 default world was refused; a new user's
  // trial): here the pattern's 250,000 cells fit, its 2048x2048 world does not, and the error comes
  // before the bad character in the body.
  const std::string tall = path("tall.rle");
  std::ofstream(tall) << "x = 500, y = 500, rule = B3/S23\nzz!\n";
  // Named as the file's torus, which the user never gave (only the size's own error was said).
  expectError("life --backend cpu --kernel cpu-serial --pattern " + tall + " --gens 1",
              tall + ": with no :T in the file and no --size, the torus is 4 times the pattern's sides (500x500 in "
                     "its header), at least 64, rounded up to a multiple of 64: 2048x2048, which does not fit: life on "
                     "a 2048x2048 torus with cpu-serial (start and final worlds, 1 byte per cell each, and the "
                     "kernel's two generations, 2 bytes per cell): needs 16.00 MiB (16777216 bytes)",
              3);
  const std::string huge = path("huge.rle");
  std::ofstream(huge) << "x = 99999999999, y = 3\nbo$2bo$3o!\n";
  expectError("life --backend cpu --pattern " + huge + " --gens 1",
              huge + ": with no :T in the file and no --size, the torus is 4 times the pattern's sides "
                     "(99999999999x3 in its header), at least 64, rounded up to a multiple of 64: 400000000000x64, "
                     "which does not fit: world size 400000000000x64: more than 2^40 cells; --size WIDTHxHEIGHT sets "
                     "the torus",
              3);
  expectError("life --backend cpu --kernel cpu-serial --pattern " + tall + " --size 500x500 --gens 1",
              tall + ":2:1: unexpected character 'z'");
}

/// The up-front checks count the largest arrays; an allocation that fails anyway (here under a
/// 300 MB data-segment limit, `ulimit -d`, which the check does not count, below the 480 MB that 20M
/// boids' start state takes; the address-space limit used before is counted since round 49) ends
/// with one clear message and exit status 3.
TEST_F(Reliability, HostAllocationThatFailsAnywayIsAClearError) {
  const Result r = test::runCommand("ulimit -d 300000; timeout 120 env -u FLOCKLIFE_HOST_MEMORY_LIMIT '" +
                                    test::flocklifeExe() + "' boids --backend cpu --n 20000000 --steps 1 2>&1");
  if (r.output.find("of host memory, ") != std::string::npos)
    GTEST_SKIP() << "the up-front check refused it first (less than ~480 MB available): " << r.output;
  EXPECT_EQ(r.status, 3) << r.output;
  EXPECT_NE(r.output.find("flocklife: error: out of memory (std::bad_alloc); try fewer boids or a smaller window"),
            std::string::npos) << r.output;
}

TEST_F(Reliability, BoidsOptionsAreValidatedNamingTheFlag) {
  const std::string base = "boids --backend cpu --n 50 --steps 2 ";
  expectError("boids --backend cpu --n -5", "--n: expected a number of boids in [1, 2147483647], got -5");
  expectError(base + "--scale 0", "--scale: expected a finite number > 0");
  expectError(base + "--rule1-distance -1", "--rule1-distance: expected a finite number > 0");
  expectError(base + "--rule3-distance inf", "--rule3-distance: expected a finite number > 0");
  expectError(base + "--rule1-scale -0.5", "--rule1-scale: expected a finite number >= 0");
  expectError(base + "--max-speed 0", "--max-speed: expected a finite number > 0");
  expectError(base + "--dt 0", "--dt: expected a finite number > 0");
  // Checked as text, before rounding to float (found by a review: "got 0", "got inf", and a
  // negative value rounding to -0 was accepted).
  expectError(base + "--dt 1e-50", "--dt: '1e-50' rounds to 0 as a float (the smallest is about 1.4e-45)");
  expectError(base + "--rule2-scale -1e-50", "--rule2-scale: '-1e-50' rounds to 0 as a float");
  expectError(base + "--rule2-scale -1e-400", "--rule2-scale: '-1e-400' rounds to 0 as a float");  // past the double range
  expectError(base + "--scale 1e39x", "--scale: could not read '1e39x' as a number");
  expectError(base + "--scale 1e39", "--scale: '1e39' is out of the range of a float (magnitude at most 3.4e38)");
  expectError(base + "--max-speed 1e400", "--max-speed: '1e400' is out of the range of a float");
  expectError(base + "--scale 0x10", "--scale: '0x10' is hexadecimal; expected a decimal number");  // was 16
  // Every floating-point option (a new user's trial: life --random 0x0.8p0 ran density 0.5).
  expectError("life --backend cpu --random 0x0.8p0 --size 64x64 --gens 1",
              "--random: '0x0.8p0' is hexadecimal; expected a decimal number");
  expectError("bench boids --methods cpu-grid --n 100 --cell-widths 1,0x2",
              "--cell-widths: '0x2' is hexadecimal; expected a decimal number");
  expectError(base + "--repeat-seconds 0x1", "--repeat-seconds: '0x1' is hexadecimal; expected a decimal number");
  // Blanks: strtold skipped them at the front ("--scale ' 2'" ran, "--n ' 5'" was refused).
  expectError(base + "--scale ' 2'", "--scale: expected a number without spaces, got ' 2' (write it as 2)");
  expectError(base + "--dt '0.2 '", "--dt: expected a number without spaces, got '0.2 ' (write it as 0.2)");
  expectError("bench boids --methods cpu-grid --n 100 --cell-widths '1, 2'",
              "--cell-widths: expected a number without spaces, got ' 2' (write it as 2)");
  // A flag's value is one of the usual words or 1/0: CLI11 read any integer by its sign
  // ("--periodic=-1" ran an open cube; a tester).
  for (const std::string v : {"-1", "5", "+", "t", "maybe"})
    expectError(base + "--periodic=" + v,
                "--periodic: expected no value, or true/false, on/off, yes/no or 1/0, got '" + v + "'");
  expectError("bench boids --methods cpu-grid --n 100 --quick=2", "--quick: expected no value, or true/false");
  const Result off = run(base + "--periodic=OFF --json");
  EXPECT_EQ(off.status, 0) << off.output;
  EXPECT_NE(off.output.find("\"periodic\":false"), std::string::npos) << off.output;
  const Result on = run(base + "--periodic=yes --json");
  EXPECT_NE(on.output.find("\"periodic\":true"), std::string::npos) << on.output;
  expectError(base + "--cell-width -2", "--cell-width: expected a finite number > 0");
  expectError(base + "--block-size 0", "--block-size: expected a multiple of 32 in [32, 1024], got 0");
  expectError(base + "--block-size 1056", "--block-size: expected a multiple of 32 in [32, 1024], got 1056");
  expectError(base + "--cell-width abc", "--cell-width abc: expected a number > 0 or auto");
  for (const std::string bad : {"0x20", "' 2'", "'2 '", "nan", "1e400", "1e-50", "''"})
    expectError(base + "--cell-width " + bad, "--cell-width");
  expectError(base + "--cell-width 0x20", "--cell-width 0x20: expected a number > 0 or auto");
  expectError(base + "--block-size 12.5", "--block-size 12.5: expected a multiple of 32 in [32, 1024] or auto");
  expectError(base + "--block-size 0x20", "--block-size 0x20: expected a multiple of 32 in [32, 1024] or auto");
  for (const std::string bad : {"often", "2.5", "0x4", "4x"})
    expectError(base + "--sort-every " + bad, "--sort-every " + bad + ": expected a number of steps in [1, 64] or auto");
  expectError(base + "--sort-every ' 4'", "--sort-every  4: expected a number of steps in [1, 64] or auto");
  expectError(base + "--sort-every ''", "--sort-every : expected a number of steps in [1, 64] or auto");
  expectError(base + "--sort-every 0", "--sort-every: expected a number of steps in [1, 64], got 0");
  // Tuning flags are checked before a checkpoint is read.
  expectError("boids --backend cpu --resume " + path("missing.ck") + " --steps 5 --sort-every 4x",
              "--sort-every 4x: expected");
  // So are window flags, before a checkpoint or --in file is read or a random start made (they came
  // after all three).
  const std::string junk = path("junk.ck");
  std::ofstream(junk) << "not a checkpoint";
  expectError("boids --backend cpu --resume " + junk + " --steps 5 --window-size 100x100",
              "--window-size needs --window");
  expectError("boids --backend cpu --in " + junk + " --steps 5 --no-vsync", "--no-vsync needs --window");
  expectError("boids --backend cpu --n 2000000000 --steps 5 --headless", "--headless needs --window");
  expectError("boids --backend cpu --n 50 --steps -1", "--steps: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-1'");
  expectError(base + "--seed -1", "--seed: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-1'");
  expectError("boids --backend cpu --n 50 --steps 99999999999999999999", "--steps: expected an integer in decimal digits, of absolute value at most 2^63 - 1");
  expectError(base + "--repeat -2", "--repeat: expected an integer in [1, 2147483647], got '-2'");
  expectError(base + "--every 3", "--every applies to --checkpoint only");
  expectError(base + "--out " + path("nodir/b.csv"), "--out " + path("nodir/b.csv") + ": the folder '");
  expectError(base + "--checkpoint " + path("nodir/b.ck"), "--checkpoint " + path("nodir/b.ck") + ": the folder '");
  expectError(base + "--checkpoint " + path("b.ck") + " --every 0", "--every 0: expected a number of steps >= 1");
  expectError(base + "--points bogus", "--points: bogus not in {gl,splat,auto}");
  expectError(base + "--points gl", "--points needs --window (or --screenshot / --record)");
  // Splatting with a CPU method or --no-interop is refused before the window opens (it was after).
  const auto splat = expectError("boids --backend cpu --n 50 --frames 2 --screenshot " + path("s.png") + " --points splat",
                                 "--points splat: needs CUDA-OpenGL interop, which a CPU method does not use");
  EXPECT_EQ(splat.output.find("flocklife: OpenGL"), std::string::npos) << splat.output;  // no context made
  // Every window-only flag is refused without a window, none dropped silently.
  for (const std::string flag :
       {"--frames 3", "--headless", "--no-vsync", "--no-interop", "--window-size 100x100", "--shader-dir shaders"})
    expectError(base + flag, flag.substr(0, flag.find(' ')) + " needs --window");
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --zoom 3", "--zoom needs --window");
  // A named pipe as --screenshot is refused before the window opens (the save would wait in the
  // frame loop); --zoom's range is checked as it is read (INT_MIN, the internal "fit the world",
  // passed before).
  const std::string pipe = path("pipe.png");
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --window --frames 1 --screenshot " + pipe,
              "--screenshot " + pipe + ": is a named pipe; expected a regular file");
  // A screenshot or recording named by a link to the input is refused: the PNG replaced the
  // pattern (a tester's trial).
  const std::string mine = path("mine.rle"), shot = path("shot.png"), rec = path("rec.gif");
  { std::ofstream(mine) << "x = 3, y = 1\n3o!\n"; }
  ASSERT_EQ(::symlink(mine.c_str(), shot.c_str()), 0);
  ASSERT_EQ(::symlink(mine.c_str(), rec.c_str()), 0);
  expectError("life --backend cpu --pattern " + mine + " --size 16x16 --frames 3 --screenshot " + shot,
              "--screenshot and --pattern name the same file '" + shot + "'; expected different files");
  expectError("life --backend cpu --pattern " + mine + " --size 16x16 --frames 3 --record " + rec,
              "--record and --pattern name the same file '" + rec + "'");
  expectOk("boids --backend cpu --n 5 --steps 0 --out " + path("five.csv"));
  ASSERT_EQ(::symlink(path("five.csv").c_str(), path("five.png").c_str()), 0);
  expectError("boids --backend cpu --in " + path("five.csv") + " --frames 2 --screenshot " + path("five.png"),
              "--screenshot and --in name the same file");
  EXPECT_EQ(readBytes(mine), "x = 3, y = 1\n3o!\n");
  for (const std::string z : {"-2147483648", "-9", "7"})
    expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --window --zoom " + z,
                "--zoom: expected an integer in [-8, 6], got '" + z + "'");
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --window-size 100x100 --shader-dir /nonexistent",
              "--window-size needs --window");
}

/// --cell-width, --block-size and --x-split default to auto (boids::autoTuning: cpu-grid takes
/// width 1 from 2 expected neighbours per boid up, and no split); a number given is used as it is,
/// and said so.
TEST_F(Reliability, BoidsCellWidthAndBlockSizeAreAutoUnlessGiven) {
  const std::string base = "boids --backend cpu --method cpu-grid --n 20000 --steps 1 --json";  // ~1.3 neighbours
  const Result sparse = run(base);
  ASSERT_EQ(sparse.status, 0) << sparse.output;
  EXPECT_NE(sparse.output.find("\"cell_width\":2.0"), std::string::npos) << sparse.output;
  const Result dense = run(base + " --scale 40");  // ~20 expected neighbours
  ASSERT_EQ(dense.status, 0) << dense.output;
  EXPECT_NE(dense.output.find("\"cell_width\":1.0"), std::string::npos) << dense.output;
  // cpu-grid has no block size (a CPU method) and no staging ratio: the line does not name them.
  EXPECT_NE(dense.output.find("each: cell width 1 (auto), x split 1 (auto)\n"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"x_split\":1"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"boids_in_groups\":0,"), std::string::npos) << dense.output;  // no groups on the CPU
  // From a file: the number of boids is the file's (20,000), not --n's default.
  ASSERT_EQ(run("boids --backend cpu --method cpu-grid --n 20000 --scale 40 --steps 0 --out " + path("b20k.csv")).status, 0);
  const Result in = run("boids --backend cpu --method cpu-grid --in " + path("b20k.csv") + " --scale 40 --steps 1 --json");
  ASSERT_EQ(in.status, 0) << in.output;
  EXPECT_NE(in.output.find("\"cell_width\":1.0"), std::string::npos) << in.output;
  EXPECT_NE(in.output.find("cpu-grid, 20000 boids"), std::string::npos) << in.output;
  const Result explicitAuto = run(base + " --scale 40 --cell-width auto --block-size auto");
  ASSERT_EQ(explicitAuto.status, 0) << explicitAuto.output;
  EXPECT_NE(explicitAuto.output.find("\"cell_width\":1.0"), std::string::npos) << explicitAuto.output;
  const Result given = run(base + " --scale 40 --cell-width 2.5 --x-split 3");
  ASSERT_EQ(given.status, 0) << given.output;
  EXPECT_NE(given.output.find("\"cell_width\":2.5"), std::string::npos) << given.output;
  EXPECT_NE(given.output.find("\"block_size\":null"), std::string::npos) << given.output;  // a CPU method
  // A setting the method never uses is refused, naming the methods that do (it was dropped
  // without a word; found by a new user's trial).
  expectError(base + " --block-size 64", "--block-size applies to ");
  expectError(base + " --block-size 64", "; cpu-grid does not use it");
  expectError(base + " --sort-every 4", "--sort-every applies to ");
  expectError("boids --backend cpu --method cpu-naive --n 50 --steps 1 --cell-width 1", "--cell-width applies to cpu-grid");
  expectError("boids --backend cpu --method cpu-naive --n 50 --steps 1 --thrust-gather",
              "--thrust-gather applies to coherent-gather; cpu-naive does not use it");
  EXPECT_NE(given.output.find("\"x_split\":3"), std::string::npos) << given.output;
  EXPECT_EQ(given.output.find("(auto)"), std::string::npos) << given.output;
  // The expected neighbours are said with given settings too, as the README says.
  EXPECT_NE(given.output.find("expected neighbours each: cell width 2.5, x split 3\n"), std::string::npos) << given.output;
}

/// TuningOptions::resolve (no device needed): the numbers given are applied and kept, the auto
/// fields follow them, and bad text is refused naming the flag.
TEST(TuningOptions, ResolveAppliesTheGivenNumbersAndAutoFollowsThem) {
  boids::Params sparse;
  sparse.scale = 1260;  // 10M boids: ~0.33 expected neighbours each
  app::TuningOptions o;
  using P = std::tuple<float, int, int>;
  auto pick = [&](const std::string& method) {
    const boids::Tuning t = o.resolve(boids::Tuning{}, method, 10000000, sparse);
    return P{t.cellWidth, t.blockSize, t.sortEvery};
  };
  // cpu-grid: width 2 widened to half a cell per boid (autoTuning), sorting every step.
  const float cpuWidth = boids::autoTuning(boids::findMethod("cpu-grid"), 10000000, sparse).cellWidth;
  EXPECT_GT(cpuWidth, 2.f);
  EXPECT_EQ(pick("cpu-grid"), (P{cpuWidth, 128, 1}));
  o.sortEvery = "3";
  EXPECT_EQ(pick("cpu-grid"), (P{cpuWidth, 128, 3}));  // kept, though cpu-grid sorts every step
#ifdef FLOCKLIFE_HAVE_CUDA
  o.sortEvery = "auto";
  EXPECT_EQ(pick("fast"), (P{2.25f, 128, 4}));
  o.sortEvery = "2";
  EXPECT_EQ(pick("fast"), (P{2.1f, 128, 2}));  // the width follows the interval given
  o.sortEvery = "auto";
  o.cellWidth = "0.5";
  EXPECT_EQ(pick("fast"), (P{0.5f, 128, 1}));  // a width given: sort every step
  o.cellWidth = "auto";
  o.blockSize = "256";
  EXPECT_EQ(pick("fast"), (P{2.25f, 256, 4}));
#endif
  // The InputError resolve() throws for options t, or "(no InputError)".
  auto errorOf = [](const app::TuningOptions& t) -> std::string {
    try {
      t.resolve(boids::Tuning{}, "cpu-grid", 1000, boids::Params{});
      return "(no InputError)";
    } catch (const InputError& e) {
      return e.what();
    }
  };
  o.sortEvery = "4x";
  EXPECT_EQ(errorOf(o), "--sort-every 4x: expected a number of steps in [1, 64] or auto");
  // --x-split: auto for the walk over rows at 1M boids of the classic scene (~65 expected
  // neighbours) splits 4 times, only with the automatic width; a number given is kept.
  app::TuningOptions s;
  const boids::Params classic;
  auto split = [&](const std::string& method) { return s.resolve(boids::Tuning{}, method, 1000000, classic).xSplit; };
  auto ratio = [&](const std::string& method) {
    return s.resolve(boids::Tuning{}, method, 1000000, classic).stagingRatio;
  };
  EXPECT_EQ(split("cpu-grid"), 1);
  EXPECT_EQ(ratio("cpu-grid"), 1.5f);
#ifdef FLOCKLIFE_HAVE_CUDA
  EXPECT_EQ(split("fast"), 4);
  EXPECT_EQ(ratio("fast"), 0.f);  // --staging-ratio auto, with the split
  s.cellWidth = "0.5";
  EXPECT_EQ(split("fast"), 1);  // a width given: no split, the default ratio
  EXPECT_EQ(ratio("fast"), 1.5f);
  s.cellWidth = "auto";
  s.stagingRatio = "2";
  EXPECT_EQ(ratio("fast"), 2.f);  // a ratio given is kept
  s.stagingRatio = "auto";
  // 5M (~327 expected neighbours): 4 sorting every step, 8 with a --sort-every above 1 given
  // (boids::autoTuning; issue 8, round 27), so the interval given reaches the split.
  auto split5M = [&] { return s.resolve(boids::Tuning{}, "fast", 5000000, classic).xSplit; };
  EXPECT_EQ(split5M(), 4);
  s.sortEvery = "2";
  EXPECT_EQ(split5M(), 8);
  s.sortEvery = "auto";
#endif
  s.stagingRatio = "often";
  EXPECT_EQ(errorOf(s), "--staging-ratio often: expected a number >= 0 or auto");
  s.stagingRatio = "auto";
  s.xSplit = "2";
  EXPECT_EQ(split("cpu-grid"), 2);
  s.xSplit = "thin";
  EXPECT_EQ(errorOf(s), "--x-split thin: expected a number of cells along x per cell width in [1, 64] or auto");
}

/// --sort-every defaults to auto too: on the GPU, fast sorts every 4 steps below 2 expected
/// neighbours per boid and every step above; the automatic cell width follows a given interval.
TEST_F(Reliability, GpuBoidsSortIntervalIsAutoUnlessGiven) {
  if (!test::haveGpu()) GTEST_SKIP() << "no usable CUDA device";
  const std::string base = "boids --backend cuda --method fast --n 5000 --steps 9 --json";  // ~0.33 neighbours
  const Result sparse = run(base);
  ASSERT_EQ(sparse.status, 0) << sparse.output;
  EXPECT_NE(sparse.output.find("\"sort_every\":4,"), std::string::npos) << sparse.output;
  EXPECT_NE(sparse.output.find("cell width 2 (auto), block size 128 (auto), sort every 4 steps (auto)"),
            std::string::npos)
      << sparse.output;
  const Result dense = run(base + " --scale 20");  // ~41 expected neighbours
  ASSERT_EQ(dense.status, 0) << dense.output;
  EXPECT_NE(dense.output.find("\"sort_every\":1,"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"cell_width\":0.5,"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"x_split\":4"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"staging_ratio\":0.0"), std::string::npos) << dense.output;
  EXPECT_NE(dense.output.find("\"boids_in_groups\":0,"), std::string::npos) << dense.output;  // groups from ~150
  EXPECT_NE(dense.output.find(", x split 4 (auto), staging ratio 0 (auto)\n"), std::string::npos) << dense.output;
  const Result given = run(base + " --sort-every 2");
  ASSERT_EQ(given.status, 0) << given.output;
  EXPECT_NE(given.output.find("\"sort_every\":2,"), std::string::npos) << given.output;
  EXPECT_NE(given.output.find("cell width 2.1 (auto), block size 128 (auto), sort every 2 steps, x split 1 (auto), "
                              "staging ratio 1.5 (auto)\n"),
            std::string::npos)
      << given.output;
}

/// Where boid groups run (fast on the GPU, from 150 expected neighbours per boid, an open cube),
/// flocklife boids says how many boids the last sorting step put in groups, and --json gives the
/// count: 200,000 boids at the 5M scene's density (scale 34.2, ~327 expected neighbours), whose
/// clumps form within ~30 steps (5M: 73 % of the boids in groups after 30 steps, bench/notes/boids.md,
/// "Issue 8, thirty-first round"), for 40 steps: more than a quarter of them. Where groups do not
/// run (~41 expected neighbours) the line is left out.
TEST_F(Reliability, GpuBoidsSayHowManyBoidsAreInGroups) {
  if (!test::haveGpu()) GTEST_SKIP() << "no usable CUDA device";
  const Result r = run("boids --backend cuda --method fast --n 200000 --scale 34.2 --steps 40 --json");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("boid groups: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" of the 200000 boids ("), std::string::npos) << r.output;
  const std::string key = "\"boids_in_groups\":";
  const std::size_t at = r.output.find(key);
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_GT(std::stoull(r.output.substr(at + key.size())), 50000u) << r.output;
  const Result sparse = run("boids --backend cuda --method fast --n 5000 --scale 20 --steps 3");
  ASSERT_EQ(sparse.status, 0) << sparse.output;
  EXPECT_EQ(sparse.output.find("boid groups: "), std::string::npos) << sparse.output;
}

TEST_F(Reliability, ScanTestAndBenchOptionsAreValidatedNamingTheFlag) {
  expectError("scan-test --size-log2 1", "--size-log2 1: expected an integer in [2, 25]");
  // Sums of 2^27 values up to 49 passed an int's range (negative sums, and "passed").
  expectError("scan-test --size-log2 26", "--size-log2 26: expected an integer in [2, 25] (the sums of 2^K values up to "
              "49 must fit an int)");
  expectError("bench boids --n 0 --methods cpu-naive", "--n: expected a number of boids");
  expectError("bench boids --block-sizes 48 --methods cpu-naive", "--block-sizes 48: expected a multiple of 32");
  expectError("bench boids --cell-widths 0 --methods cpu-naive", "--cell-widths 0: expected a finite number > 0");
  expectError("bench boids --staging-ratios 1,-2 --methods cpu-naive", "--staging-ratios -2: expected a finite number >= 0");
  expectError("bench boids --reps 0 --methods cpu-naive", "--reps: expected an integer in [1, 100000], got '0'");
  expectError("bench life --cpu --sizes 0", "--sizes: expected an integer in [1, 1048576], got '0'");
  expectError("bench life --cpu --gens -5", "--gens: expected an integer in [1, 9223372036854775807], got '-5'");
  expectError("scan-test --seed -1", "--seed: expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '-1'");
  expectError("bench scan --min-log2 1", "--min-log2/--max-log2: expected 2 <= min <= max <= 31");
  expectError("bench scan --log2 24,32", "--log2 32: expected 2 <= K <= 31");
}

/// An empty value reads as "not given" to the code behind an option (an empty --resume would start
/// afresh and overwrite the --checkpoint file), so every file, folder, kernel and method option
/// refuses it before anything runs.
TEST_F(Reliability, EmptyValuesAreRefusedNamingTheFlag) {
  const std::string boids = "boids --backend cpu --n 50 --steps 2 ";
  const std::string life = "life --backend cpu --random 0.5 --size 16x16 --gens 1 ";
  for (const std::string flag : {"--out", "--in", "--checkpoint", "--resume"})
    expectError(boids + flag + " ''", flag + ": expected a file name, got an empty string");
  expectError(boids + "--method ''", "--method: expected a method name, got an empty string");
  for (const std::string flag : {"--out", "--pattern", "--checkpoint", "--resume", "--screenshot", "--record"})
    expectError(life + flag + " ''", flag + ": expected a file name, got an empty string");
  expectError(life + "--kernel ''", "--kernel: expected a kernel name, got an empty string");
  expectError(life + "--shader-dir ''", "--shader-dir: expected a folder name, got an empty string");
  expectError("bench boids --methods cpu-naive --csv ''", "--csv: expected a file name, got an empty string");
  expectError("bench life --cpu --csv ''", "--csv: expected a file name, got an empty string");
  // Empty numbers: CLI11 read them as 0 ("--random ''" ran a soup of density 0).
  expectError("life --backend cpu --random '' --size 16x16 --gens 1", "--random: expected a number, got an empty string");
  expectError(boids + "--scale ' '", "--scale: expected a number, got an empty string");
  expectError("bench boids --methods cpu-naive --n 10 --staging-ratios ''",
              "--staging-ratios: expected a number, got an empty string");
  expectError("bench fps boids --seconds ''", "--seconds: expected a number, got an empty string");
  // The checkpoint is untouched: nothing ran.
  const std::string ck = path("keep.ck");
  expectOk(boids + "--checkpoint " + ck);
  const std::string before = readBytes(ck);
  expectError("boids --backend cpu --steps 4 --resume '' --checkpoint " + ck, "--resume: expected a file name");
  EXPECT_EQ(readBytes(ck), before);
}

/// CLI11 gives a file option the next argument even when it is a flag: `--out --periodic` wrote a
/// file named "--periodic" and ran without --periodic, exit status 0 (found by a new user's trial).
TEST_F(Reliability, AFileOptionFollowedByAFlagIsRefused) {
  const std::string boids = "boids --backend cpu --n 50 --steps 2 ";
  const std::string life = "life --backend cpu --random 0.5 --size 16x16 --gens 1 ";
  for (const std::string flag : {"--out", "--in", "--checkpoint", "--resume"})
    expectError(boids + flag + " --periodic", flag + ": expected a file name, got '--periodic', a flag: was the name "
                                                     "left out? (for one of that name write ./--periodic)");
  for (const std::string flag : {"--out", "--pattern", "--checkpoint", "--resume", "--screenshot", "--record"})
    expectError(life + flag + " --json", flag + ": expected a file name, got '--json', a flag");
  expectError(life + "--shader-dir -h", "--shader-dir: expected a folder name, got '-h', a flag");
  expectError("bench boids --methods cpu-naive --csv --quick", "--csv: expected a file name, got '--quick', a flag");
  expectError("bench life --cpu --csv --json", "--csv: expected a file name, got '--json', a flag");
  EXPECT_FALSE(std::filesystem::exists("--periodic"));
  EXPECT_FALSE(std::filesystem::exists("--json"));
}

/// A given cell width far finer than auto's is said (every step clears and scans every cell): a new
/// user's --cell-width 0.04 for 1,000 boids took 7.8 GB and 40 s a step without a word.
TEST_F(Reliability, AFineCellWidthIsSaid) {
  const std::string boids = "boids --backend cpu --method cpu-grid --n 1000 --steps 1 ";
  expectError(boids + "--cell-width 0.2",
              "flocklife: note: --cell-width 0.2 makes 7.88e+06 cells for 1000 boids (7.88e+03 per boid), and every "
              "step clears and scans them all; auto picks 5.65714 here",
              0);
  const Result usual = expectError(boids + "--cell-width 1", "1000 boids, 1 step with cpu-grid", 0);
  EXPECT_EQ(usual.output.find("clears and scans"), std::string::npos) << usual.output;
}

/// An MP4 needs even sides (H.264 in 4:2:0): a window of side 1 is refused before any frame is
/// drawn (ffmpeg failed once every frame was), and an odd side is said (the video silently lost the
/// window's last column). Found by a new user's trial.
TEST_F(Reliability, AnMp4RecordingNeedsEvenSides) {
  if (std::system("command -v ffmpeg > /dev/null 2>&1") != 0) GTEST_SKIP() << "ffmpeg not installed";
  const std::string life = "life --backend cpu --random 0.5 --size 16x16 --frames 2 --headless ";
  const test::CliResult one = test::runFlocklife(life + "--window-size 1x1 --record " + path("one.mp4"));
  if (one.output.find("no window support") != std::string::npos) GTEST_SKIP() << one.output;
  EXPECT_EQ(one.status, 2) << one.output;
  EXPECT_NE(one.output.find("--record " + path("one.mp4") + ": an MP4 needs a window at least 2x2 (H.264 halves the "
                            "colour resolution); --window-size is 1x1; expected a larger --window-size, or a .gif"),
            std::string::npos) << one.output;
  EXPECT_FALSE(fs::exists(path("one.mp4")));
  const test::CliResult odd = test::runFlocklife(life + "--window-size 33x24 --record " + path("odd.mp4"));
  ASSERT_EQ(odd.status, 0) << odd.output;
  const std::string note = "note: --record " + path("odd.mp4") + ": an MP4 needs even sides, so the video is 32x24 (the "
                           "frame's last column is cropped); a .gif keeps every pixel";
  const std::size_t at = odd.output.find(note);
  EXPECT_NE(at, std::string::npos) << odd.output;
  EXPECT_EQ(odd.output.find(note, at + 1), std::string::npos) << "said twice:\n" << odd.output;
}

/// A display that cannot be opened is refused before the run, with status 2: it ended with status 1,
/// and bench fps --visual both found it only after measuring its steps-only rows (a new user's
/// trial). Display :32767 has no server.
TEST_F(Reliability, AnUnreachableDisplayIsRefusedBeforeTheRun) {
  const std::string why = "); expected a display that can be opened, or none: with DISPLAY and WAYLAND_DISPLAY unset "
                          "(or --headless, where the command has it) frames are drawn off-screen through EGL";
  const test::CliResult life =
      test::runFlocklife("life --backend cpu --random 0.5 --size 16x16 --window --frames 2", "env -u WAYLAND_DISPLAY DISPLAY=:32767");
  if (life.output.find("no window support") != std::string::npos) GTEST_SKIP() << life.output;
  EXPECT_EQ(life.status, 2) << life.output;
  EXPECT_NE(life.output.find("error: GLFW cannot open the display ("), std::string::npos) << life.output;
  EXPECT_NE(life.output.find(why), std::string::npos) << life.output;
  const test::CliResult fps = test::runFlocklife("bench fps life --backend cpu --size 64x64 --seconds 0.5 "
                                                 "--warmup-seconds 0 --visual both --csv " + path("fps.csv"),
                                                 "env -u WAYLAND_DISPLAY DISPLAY=:32767");
  EXPECT_EQ(fps.status, 2) << fps.output;
  EXPECT_NE(fps.output.find(why), std::string::npos) << fps.output;
  EXPECT_FALSE(fs::exists(path("fps.csv")));  // no row measured before the error
  // WAYLAND_DISPLAY alone: Debian's GLFW opens X11 displays only, and its reason named DISPLAY alone
  // (a tester).
  const test::CliResult wayland = test::runFlocklife("life --backend cpu --random 0.5 --size 16x16 --window --frames 2",
                                                     "env -u DISPLAY WAYLAND_DISPLAY=wayland-32767");
  EXPECT_EQ(wayland.status, 2) << wayland.output;
  if (wayland.output.find("(Wayland: ") == std::string::npos) {  // GLFW's reason names its platform
    EXPECT_NE(wayland.output.find("); WAYLAND_DISPLAY is set but this build's GLFW ("), std::string::npos)
        << wayland.output;
  }
  EXPECT_NE(wayland.output.find(why.substr(3)), std::string::npos) << wayland.output;
}

/// Without a display, frames are drawn headless and only --frames ends the run: the error names the
/// flag that asked for frames (it named --window, not given, and suggested --headless, which is
/// automatic; found by a new user's trial).
TEST_F(Reliability, AHeadlessCaptureWithoutFramesNamesItsFlag) {
  const std::string life = "life --backend cpu --random 0.5 --size 16x16 ";
  const test::CliResult record = test::runFlocklife(life + "--record " + path("r.gif"), "env -u DISPLAY -u WAYLAND_DISPLAY");
  if (record.output.find("no window support") != std::string::npos) GTEST_SKIP() << record.output;
  EXPECT_EQ(record.status, 2) << record.output;
  EXPECT_NE(record.output.find("--record " + path("r.gif") + ": no display (DISPLAY is not set), so frames are drawn "
                               "headless and only --frames N ends the run; give --frames N with N >= 1 (the frames to draw)"),
            std::string::npos)
      << record.output;
  const test::CliResult window = test::runFlocklife(life + "--window", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(window.status, 2) << window.output;
  EXPECT_NE(window.output.find("--window: no display (DISPLAY is not set), so frames are drawn headless and only "
                               "--frames N ends the run; give --frames N with N >= 1 (the frames to draw, and --screenshot or "
                               "--record to keep them)"),
            std::string::npos)
      << window.output;
  // Before the input is read: a boids start from --in said its start-up line first (found by a review).
  const std::string in = path("two.csv");
  { std::ofstream(in) << "x,y,z,vx,vy,vz\n0,0,0,0,0,0\n1,1,1,0,0,0\n"; }
  const test::CliResult boids =
      test::runFlocklife("boids --backend cpu --in " + in + " --window", "env -u DISPLAY -u WAYLAND_DISPLAY");
  EXPECT_EQ(boids.status, 2) << boids.output;
  EXPECT_NE(boids.output.find("--window: no display"), std::string::npos) << boids.output;
  EXPECT_EQ(boids.output.find("2 boids"), std::string::npos) << boids.output;
}

/// A write that fails (here /dev/full: every write gets ENOSPC) is an error with the flag and the
/// reason, never a run that reports success without its output.
TEST_F(Reliability, OutputsThatCannotBeWrittenAreErrors) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this machine";
  // Links in the scratch folder, whose folder any user may write (/dev itself only root may).
  const std::string full = path("full.csv"), fullRle = path("full.rle");
  fs::create_symlink("/dev/full", full);
  fs::create_symlink("/dev/full", fullRle);
  const Result boidsOut =
      expectError("boids --backend cpu --n 50 --steps 1 --out " + full, "--out " + full + ": write failed: No space left on device");
  EXPECT_EQ(boidsOut.output.find("boid updates/s"), std::string::npos) << "a summary of success beside the error: " << boidsOut.output;
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --out " + fullRle,
              "--out " + fullRle + ": write failed: No space left on device");
  expectError("bench boids --n 300 --series classic --reps 1 --steps-per-rep 1 --warmup 0 --methods cpu-naive --csv " + full,
              "--csv " + full + ": write failed: No space left on device");
  expectError("bench life --cpu --sizes 16 --gens 1 --reps 1 --kernels cpu-serial --csv " + full,
              "--csv " + full + ": write failed");
  // A checkpoint that cannot be saved says where the run stopped and what the file holds (a
  // tester had to work both out).
  const std::string fullCk = path("full.ck");
  fs::create_symlink("/dev/full", fullCk);
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 30 --every 10 --checkpoint " + fullCk,
              "--checkpoint " + fullCk + ": write failed: No space left on device; the run stopped at generation 10 of "
              "30, and --checkpoint " + fullCk + " is as it was before the run");
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 5 --checkpoint " + fullCk,
              "--checkpoint " + fullCk + ": write failed: No space left on device; the run reached its end, generation "
              "5, but --checkpoint " + fullCk + " is as it was before the run");
  // A folder, or a folder that cannot be made, is named with the reason (it said only "cannot open").
  const std::string bench = "bench boids --n 300 --series classic --reps 1 --steps-per-rep 1 --warmup 0 --methods cpu-naive ";
  expectError(bench + "--csv " + path(""), "--csv " + path("") + ": is a folder; expected a file name");
  expectError(bench + "--csv " + path("table.png"), "--csv " + path("table.png") + ": expected a name ending in .csv (or none)");
  expectOk(bench + "--csv " + path("TABLE.CSV"));
  // bench life's table header came before the error (found by a new user's trial).
  const Result folder = expectError("bench life --cpu --sizes 16 --gens 1 --reps 1 --kernels cpu-serial --csv " + path(""),
                                    "--csv " + path("") + ": is a folder; expected a file name");
  EXPECT_EQ(folder.output.find("ms/gen"), std::string::npos) << folder.output;
  std::ofstream(path("afile")) << "x";
  expectError(bench + "--csv " + path("afile/x.csv"),
              "--csv " + path("afile/x.csv") + ": cannot make the folder '" + path("afile") + "': Not a directory");
  // Standard output is a result too (tables, --json): only stdout goes to /dev/full here.
  const Result r = test::runCommand("timeout 120 '" + test::flocklifeExe() +
                                    "' boids --backend cpu --n 50 --steps 1 --json 2>&1 >/dev/full");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("cannot write the standard output"), std::string::npos) << r.output;
}

/// A file-size limit (ulimit -f) fails the write with an error naming the flag, as a full disk does,
/// and keeps the earlier file; SIGXFSZ ended the process without a word and left its temporary
/// file (found by a review). The help is checked as every output on stdout is.
TEST_F(Reliability, AFileSizeLimitIsAWriteError) {
  const std::string out = path("keep.rle");
  std::ofstream(out) << "earlier\n";
  const Result r = test::runFlocklife("life --backend cpu --random 0.5 --size 256x256 --gens 1 --out " + out,
                                      "bash -c 'ulimit -f 4 && exec \"$0\" \"$@\"'");
  EXPECT_EQ(r.status, 2) << r.output;
  EXPECT_NE(r.output.find("--out " + out + ": write failed: File too large"), std::string::npos) << r.output;
  std::ifstream kept(out);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()), "earlier\n");
  for (const auto& e : fs::directory_iterator(path("")))
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << "left behind: " << e.path();
  const Result help = test::runCommand("'" + test::flocklifeExe() + "' life --help 2>&1 >/dev/full");
  EXPECT_EQ(help.status, 2) << help.output;
  EXPECT_NE(help.output.find("cannot write the standard output"), std::string::npos) << help.output;
}

/// --list-kernels refuses flags it would ignore and lists one backend's kernels with --backend; an
/// --out link to a missing folder is named before the run; --json writes floats by their shortest
/// form (each found by a new user's trial).
TEST_F(Reliability, ListKernelsDanglingLinksAndJsonFloats) {
  expectError("life --list-kernels --kernel bogus",
              "--list-kernels lists the kernels and exits, so --kernel would be ignored; expected --list-kernels alone, "
              "or with --backend cpu|cuda");
  expectError("life --list-kernels --random 0.5 --gens 5 --size 3x3", "so --random, --size, --gens would be ignored");
  const Result cpu = run("life --list-kernels --backend cpu");
  EXPECT_EQ(cpu.status, 0) << cpu.output;
  EXPECT_NE(cpu.output.find("cpu-bitsliced"), std::string::npos) << cpu.output;
  EXPECT_EQ(cpu.output.find("cuda"), std::string::npos) << cpu.output;
  const std::string link = path("dangling.rle");
  fs::create_symlink(path("no-such-folder/x.rle"), link);
  const Result dangling = expectError("life --backend cpu --random 0.3 --size 16x16 --gens 1 --out " + link,
                                      "--out " + link + ": is a symbolic link to '" + path("no-such-folder/x.rle") +
                                          "', whose folder '" + path("no-such-folder") + "' does not exist");
  EXPECT_EQ(dangling.output.find("population"), std::string::npos) << dangling.output;
  const Result json = run("boids --backend cpu --n 50 --steps 1 --scale 10.3 --cell-width 2.475 --json");
  ASSERT_EQ(json.status, 0) << json.output;
  EXPECT_NE(json.lastLine().find("\"scale\":10.3,"), std::string::npos) << json.lastLine();
  EXPECT_NE(json.lastLine().find("\"cell_width\":2.475,"), std::string::npos) << json.lastLine();
}

/// Boids read from --in or --resume are counted with the method's copies, as the random start's
/// are (they ran where a random start of as many was refused), and --resume without --method says
/// that the checkpoint does not hold the method (it ran the default silently; a new user's trial).
TEST_F(Reliability, BoidsReadFromFilesAreCountedAndResumeNamesItsMethod) {
  const std::string in = path("big.csv"), ck = path("c.ck");
  expectOk("boids --backend cpu --n 10000 --steps 0 --out " + in);
  const std::string limited = "FLOCKLIFE_HOST_MEMORY_LIMIT=500000";
  expectError("boids --backend cpu --n 10000 --steps 1", "--n 10000: the random start and cpu-grid's copies", 3,
              "env " + limited);
  expectError("boids --backend cpu --in " + in + " --steps 1",
              "--in " + in + ": cpu-grid's copies of its 10000 boids (56 bytes per boid)", 3, "env " + limited);
  expectOk("boids --backend cpu --in " + in + " --steps 0 --checkpoint " + path("big.ck"));
  expectError("boids --backend cpu --resume " + path("big.ck") + " --steps 1",
              "--resume " + path("big.ck") + ": cpu-grid's copies of its 10000 boids (56 bytes per boid)", 3,
              "env " + limited);
  expectOk("boids --backend cpu --n 50 --steps 2 --checkpoint " + ck);
  const Result resumed = run("boids --backend cpu --resume " + ck + " --steps 4");
  EXPECT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("note: --resume " + ck + ": a checkpoint holds the boids, the step and the model, not "
                                "the method: this run uses cpu-grid"),
            std::string::npos)
      << resumed.output;
  const Result given = run("boids --backend cpu --method cpu-grid --resume " + ck + " --steps 4");
  EXPECT_EQ(given.status, 0) << given.output;
  EXPECT_EQ(given.output.find("not the method"), std::string::npos) << given.output;
}

/// --json names the input file; a name that is not UTF-8 (bytes are all a Linux file name needs)
/// becomes U+FFFD in the JSON line instead of an exception that loses the run's result.
TEST_F(Reliability, JsonSurvivesAFileNameThatIsNotUtf8) {
  const std::string name = path("g\xff.rle");
  fs::copy_file(test::sourceDir() + "/data/patterns/glider.rle", name);
  const Result r = run("life --backend cpu --pattern '" + name + "' --size 16x16 --gens 4 --json");
  ASSERT_EQ(r.status, 0) << r.output;
  const std::string json = r.lastLine();
  EXPECT_EQ(json.front(), '{') << json;
  EXPECT_NE(json.find("g\xef\xbf\xbd.rle"), std::string::npos) << json;  // U+FFFD in UTF-8
  EXPECT_NE(json.find("\"population\":5"), std::string::npos) << json;
}

/// Parameters whose step would overflow a float (squared speeds, neighbourhood sums) are refused
/// before the run, where they would give inf or NaN, or clamp an overflowed speed to 0.
TEST_F(Reliability, BoidsParametersWhoseSumsWouldOverflowAreRefused) {
  const std::string base = "boids --backend cpu --n 50 --steps 1 ";
  expectError(base + "--max-speed 1e38",
              "the random start: the velocity before the speed clamp could reach 1.1e+38 per component (--max-speed 1e+38, "
              "--rule1/2/3-scale 0.01 / 0.1 / 0.1, 50 boids); expected at most 1e+18, so that its square is a finite float");
  expectError(base + "--rule2-scale 1e37", "the velocity before the speed clamp could reach 1.47e+39");
  expectError(base + "--method cpu-naive --rule1-scale 0 --rule1-distance 1e37 --rule3-distance 1e37 --scale 1e37",
              "the random start: a neighbourhood sum over 50 boids could reach 5e+38 (--max-speed 1); expected at most 1e+37");
  expectError(base + "--max-speed 1e10 --dt 1e30", "a step's move --max-speed x --dt = 1e+40; expected at most 1e+37");
  expectError(base + "--method cpu-naive --scale 1e38", "--scale 1e+38; expected at most 1e+37");
  // A boid faster than --max-speed in an input state counts too (its square overflows).
  const std::string in = path("fast.csv");
  std::ofstream(in) << "x,y,z,vx,vy,vz\n0,0,0,1e20,0,0\n1,1,1,0,0,0\n";
  expectError("boids --backend cpu --steps 1 --in " + in, "--in " + in + ": the velocity before the speed clamp could "
              "reach 1.1e+20 per component (--max-speed 1, boid 1 of 2 (line 2) moving at 1e+20,");
  // The error named no line before (found by a review): here the fast boid is the third of four.
  std::ofstream(in) << "x,y,z,vx,vy,vz\n0,0,0,0,0,0\n1,1,1,0,0,0\n\n2,2,2,0,0,-2e19\n3,3,3,0,0,0\n";
  expectError("boids --backend cpu --steps 1 --in " + in, "(--max-speed 1, boid 3 of 4 (line 5) moving at 2e+19,");
  // A step longer than the cube's width folds around it and, at this length, leaves every boid
  // at 0: refused, as is one just past the width; one of exactly the width runs.
  expectError(base + "--dt 1e30", "a step's move --max-speed x --dt = 1e+30 is longer than the cube's width 2 x --scale "
                                   "= 200; expected at most that");
  expectError(base + "--max-speed 2 --dt 100.001", "is longer than the cube's width");
  expectOk(base + "--max-speed 2 --dt 100");
  // A step shorter than the float spacing at the cube's faces left the boids there where they were
  // (found by a review: 20 boids at scale 1e10 never moved).
  expectError(base + "--method cpu-naive --scale 1e10 --rule1-distance 1e9 --rule2-distance 1e9 --rule3-distance 1e9",
              "the random start: a step's move --max-speed x --dt = 0.2 is shorter than two float spacings at the "
              "cube's faces (--scale 1e+10: 2048); expected at least that (boids there would not move)");
  // Floats in [2^19, 2^20) are 1/16 apart: a step of 0.2 is 3.2 of them at scale 1e6, 1.6 at 2^20.
  expectOk(base + "--method cpu-naive --scale 1e6 --rule1-distance 1e5 --rule2-distance 1e5 --rule3-distance 1e5");
  expectError(base + "--method cpu-naive --scale 1048576 --rule1-distance 1e5 --rule2-distance 1e5 --rule3-distance 1e5",
              "(--scale 1048576: 0.25)");
  // Large but safe: runs, and the output is finite (2M boids at this speed give sums of 2e18).
  const std::string out = path("big.csv");
  expectOk(base + "--max-speed 1e15 --dt 1e-13 --out " + out);
  EXPECT_EQ(readBytes(out).find("inf"), std::string::npos);
  EXPECT_EQ(readBytes(out).find("nan"), std::string::npos);
}

/// boids --out - writes the CSV to standard output, the summary and --json to standard error (a
/// file named "-" was written before); it reads back as the same state. --checkpoint - is refused.
TEST_F(Reliability, BoidsOutDashWritesTheCsvToStandardOutput) {
  const std::string err = path("dash.err"), csv = path("dash.csv");
  const Result r = test::runCommand("cd '" + path(".") + "' && timeout 120 '" + test::flocklifeExe() +
                                    "' boids --backend cpu --n 40 --steps 3 --json --out - 2>'" + err + "'");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_FALSE(fs::exists(path("-")));
  EXPECT_EQ(r.output.rfind("x,y,z,vx,vy,vz\n", 0), 0u) << r.output;
  { std::ofstream(csv) << r.output; }
  expectOk("boids --backend cpu --n 40 --steps 3 --out " + path("file.csv"));
  EXPECT_EQ(readBytes(path("file.csv")), r.output);
  EXPECT_EQ(boids::readCsv(csv).size(), 40u);
  EXPECT_NE(readBytes(err).find("40 boids, 3 steps with"), std::string::npos) << readBytes(err);
  EXPECT_NE(readBytes(err).find("\"n\":40"), std::string::npos) << readBytes(err);
  expectError("boids --backend cpu --n 40 --steps 3 --checkpoint -", "--checkpoint -: a checkpoint is a file");
  // Inputs named "-" say that standard input is not read (they said "No such file"; review).
  expectError("boids --backend cpu --in -", "--in -: standard input is not read; expected a CSV file by its name");
  expectError("boids --backend cpu --resume - --steps 3", "standard input is not read; expected a checkpoint file");
  expectError("life --backend cpu --pattern - --gens 1", "standard input is not read; expected a pattern file");
  // /dev/stdout is standard output too: the summary goes to standard error (it was mixed into the CSV).
  const Result dev = test::runCommand("timeout 120 '" + test::flocklifeExe() +
                                      "' boids --backend cpu --n 40 --steps 3 --out /dev/stdout 2>/dev/null");
  EXPECT_EQ(dev.output, r.output);
  // Redirected to a file, it is written through std::cout, with no note about a link written in place.
  const Result devToFile = test::runCommand("timeout 120 '" + test::flocklifeExe() +
                                            "' boids --backend cpu --n 40 --steps 3 --out /dev/stdout 2>&1 >'" +
                                            path("dev.csv") + "'");
  EXPECT_EQ(readBytes(path("dev.csv")), r.output);
  EXPECT_EQ(devToFile.output.find("written in place"), std::string::npos) << devToFile.output;
  // A closed standard output is refused before the run, naming "--out -" (it ran, then failed).
  const Result closed = test::runCommand("timeout 120 '" + test::flocklifeExe() +
                                         "' boids --backend cpu --n 40 --steps 3 --out - 2>&1 >&-");
  EXPECT_EQ(closed.status, 2) << closed.output;
  EXPECT_NE(closed.output.find("--out -: standard output is closed"), std::string::npos) << closed.output;
  EXPECT_EQ(closed.output.find("steps with"), std::string::npos) << closed.output;
}

/// --repeat checks the speed clamp only once a step has run: a start from --in faster than
/// --max-speed, run for 0 steps, was reported as a broken invariant (found by a review); after a
/// step the clamp holds.
TEST_F(Reliability, RepeatChecksTheSpeedClampOnlyAfterAStep) {
  const std::string in = path("fast.csv");
  { std::ofstream(in) << "x,y,z,vx,vy,vz\n0,0,0,5,0,0\n1,1,1,0,0,0\n"; }
  expectOk("boids --backend cpu --in " + in + " --steps 0 --repeat 2");
  expectOk("boids --backend cpu --in " + in + " --steps 2 --repeat 2");
}

/// A --checkpoint or --out that is a symbolic link or a hard-linked file is written in place (its
/// links kept), where a failed write damages it: the run says so (checkpoint.hpp promised
/// atomic writes without the exception; found by a review).
TEST_F(Reliability, CheckpointWrittenInPlaceIsSaid) {
  const std::string boids = "boids --backend cpu --n 40 --steps 2 ";
  const std::string real = path("real.ck"), link = path("link.ck"), csv = path("real.csv"), hard = path("hard.csv");
  expectOk(boids + "--checkpoint " + real);
  EXPECT_EQ(run(boids + "--checkpoint " + real).output.find("written in place"), std::string::npos);
  fs::create_symlink(real, link);
  expectError(boids + "--checkpoint " + link, "note: --checkpoint " + link + " is a symbolic link: it is written in place", 0);
  expectError(boids + "--checkpoint " + link, "damages it; name the file it points to for a safe write", 0);
  expectOk(boids + "--out " + csv);
  fs::create_hard_link(csv, hard);
  expectError(boids + "--out " + hard, "note: --out " + hard + " is a file with other hard links", 0);
  // A hard link has no "file itself" to name, which the note said for both (a new user's trial).
  expectError(boids + "--out " + hard, "damages it; name a file without other links for a safe write", 0);
  EXPECT_EQ(run(boids + "--out /dev/null").output.find("written in place"), std::string::npos);
  // A link to a hard-linked file: naming the file it points to would be written in place too (review).
  const std::string linkToHard = path("link-to-hard.csv");
  fs::create_symlink(hard, linkToHard);
  expectError(boids + "--out " + linkToHard, "note: --out " + linkToHard + " is a symbolic link to a file with other hard "
                                             "links: it is written in place", 0);
  expectError(boids + "--out " + linkToHard, "name a file without other links for a safe write", 0);
  // A link to nothing yet is written in place too, once it exists (review).
  const std::string dangling = path("dangling.ck");
  fs::create_symlink(path("nothing-yet.ck"), dangling);
  expectError(boids + "--checkpoint " + dangling, "note: --checkpoint " + dangling + " is a symbolic link", 0);
  // Standard error is written through std::cerr: no note; a checkpoint there is refused as one on
  // standard output is.
  EXPECT_EQ(run(boids + "--out /dev/stderr").output.find("written in place"), std::string::npos);
  expectError(boids + "--checkpoint /dev/stdout", "--checkpoint /dev/stdout: a checkpoint is a file that --resume reads "
                                                  "back, not standard output or error");
}

/// Flags that a windowed run does not honour are refused rather than dropped, --out never names
/// the checkpoint a run saves or resumes from, --checkpoint never names the input file, and --out
/// ends in its format's extension (or none).
TEST_F(Reliability, FlagsThatWouldBeIgnoredOrOverwriteAreRefused) {
  const std::string boids = "boids --backend cpu --n 50 --steps 2 ";
  const std::string life = "life --backend cpu --random 0.5 --size 16x16 --gens 1 ";
  expectError(boids + "--window --frames 1 --out " + path("w.csv"), "--out applies to runs without a window");
  expectError(boids + "--window --frames 1 --json", "--json applies to runs without a window");
  expectError("boids --backend cpu --n 50 --window --frames 1 --steps 3", "--steps applies to runs without a window");
  expectError(life + "--window --frames 1 --checkpoint " + path("w.ck"), "--checkpoint applies to runs without a window");
  expectError(life + "--window --frames 1 --json", "--json applies to runs without a window");
  const std::string ck = path("same.ck");
  expectError(boids + "--checkpoint " + ck + " --out " + ck, "--out and --checkpoint name the same file");
  expectError(life + "--checkpoint " + ck + " --out " + path(".") + "/same.ck", "--out and --checkpoint name the same file");
  // Relative spellings of a file that does not exist yet (the first run) are the same file too.
  const std::string inScratch = "cd '" + path(".") + "' && timeout 120 '" + test::flocklifeExe() + "' ";
  for (const std::string& other : {std::string("./fresh.ck"), std::string("sub/../fresh.ck"), path("fresh.ck")}) {
    fs::create_directories(path("sub"));
    const Result r = test::runCommand(inScratch + boids + "--checkpoint fresh.ck --out " + other + " 2>&1");
    EXPECT_EQ(r.status, 2) << other << "\n" << r.output;
    EXPECT_NE(r.output.find("--out and --checkpoint name the same file"), std::string::npos) << other << "\n" << r.output;
    EXPECT_FALSE(fs::exists(path("fresh.ck"))) << other;
  }
  // A symbolic link to a file not made yet, either way round (the run wrote the pattern over its own
  // checkpoint; a tester's trial).
  fs::create_symlink("later.ck", path("to-later"));
  expectError(life + "--out " + path("to-later") + " --checkpoint " + path("later.ck"),
              "--out and --checkpoint name the same file");
  expectError(life + "--out " + path("later.ck") + " --checkpoint " + path("to-later"),
              "--out and --checkpoint name the same file");
  EXPECT_FALSE(fs::exists(path("later.ck")));
  expectOk(boids + "--checkpoint " + ck);
  const std::string before = readBytes(ck);
  expectError("boids --backend cpu --steps 4 --resume " + ck + " --out " + ck, "--out and --resume name the same file");
  EXPECT_EQ(readBytes(ck), before);
  // A checkpoint never overwrites the input it started from (it did, with binary data).
  const std::string rle = path("in.rle"), csv = path("in.csv");
  { std::ofstream(rle) << "x = 3, y = 1\n3o!\n"; }
  { std::ofstream(csv) << "x,y,z,vx,vy,vz\n1,2,3,0,0,0\n"; }
  expectError("life --backend cpu --pattern " + rle + " --size 8x8 --gens 2 --checkpoint " + rle,
              "--checkpoint and --pattern name the same file");
  expectError("boids --backend cpu --in " + csv + " --steps 2 --checkpoint " + csv, "--checkpoint and --in name the same file");
  EXPECT_EQ(readBytes(rle), "x = 3, y = 1\n3o!\n");
  EXPECT_EQ(readBytes(csv), "x,y,z,vx,vy,vz\n1,2,3,0,0,0\n");
  // --out may name the input: it is read whole before the run, and replaced once the output is
  // complete (advancing a state file in place).
  expectOk("life --backend cpu --pattern " + rle + " --size 8x8 --gens 2 --out " + rle);
  EXPECT_NE(readBytes(rle).find("x = 8, y = 8"), std::string::npos) << readBytes(rle);
  const std::string moving = path("moving.csv");
  { std::ofstream(moving) << "x,y,z,vx,vy,vz\n1,2,3,1,0,0\n"; }
  expectOk("boids --backend cpu --in " + moving + " --steps 2 --out " + moving);
  EXPECT_EQ(readBytes(moving).rfind("x,y,z,vx,vy,vz\n1.4000001,2,3,1,0,0", 0), 0u) << readBytes(moving);  // 2 steps of dt 0.2
  // An --out name with another format's ending is refused: it would hold RLE or CSV text.
  expectError(life + "--out " + path("end.png"), "--out " + path("end.png") + ": expected a name ending in .rle (RLE) or .cells (plaintext)");
  expectError(boids + "--out " + path("end.rle"), "--out " + path("end.rle") + ": expected a name ending in .csv (x,y,z,vx,vy,vz rows)");
  expectOk(life + "--out " + path("END.RLE"));
  expectOk(boids + "--out " + path("plain"));
  // A checkpoint under the --out format's name would be taken for a pattern or a CSV (found by a new
  // user's trial), and a text file given to --resume, or a checkpoint to --pattern or --in, says which
  // flag reads it.
  expectError(life + "--checkpoint " + path("c.RLE"), "--checkpoint " + path("c.RLE") + ": a checkpoint is "
              "flocklife's binary format, not a pattern file; expected another name, such as run.ck (--out writes a "
              "pattern file)");
  expectError(boids + "--checkpoint " + path("c.csv"), "--checkpoint " + path("c.csv") + ": a checkpoint is "
              "flocklife's binary format, not a CSV of boids");
  const std::string lifeCk = path("life.ck"), boidsCk = path("boids.ck");
  expectOk(life + "--checkpoint " + lifeCk);
  expectOk(boids + "--checkpoint " + boidsCk);
  // A checkpoint replaces its file, so a file there that is not a checkpoint of the run's kind is
  // refused and kept (boids --checkpoint on a shipped .rle replaced it with binary; a new user's
  // trial); the run's own earlier checkpoint is replaced.
  const std::string notes = path("notes.txt");
  { std::ofstream(notes) << "some notes\n"; }
  expectError(boids + "--checkpoint " + notes, "--checkpoint " + notes + ": the file there is not a flocklife boids "
              "checkpoint (it begins 'some not'); a checkpoint replaces its file, so expected a new name or an earlier "
              "flocklife boids checkpoint");
  expectError(life + "--checkpoint " + boidsCk, "--checkpoint " + boidsCk + ": the file there is not a flocklife life "
              "checkpoint (it begins 'FLBOID02')");
  expectError(boids + "--checkpoint " + lifeCk, "(it begins 'FLLIFE02')");
  // A checkpoint of the first format (no start digest) is named as one, kept, and refused by
  // --resume with the reason; --out does not replace it either.
  const std::string first = path("first-format");  // no extension: --out and --checkpoint both take the name
  {
    std::string bytes = readBytes(boidsCk);
    bytes[7] = '1';
    std::ofstream(first, std::ios::binary) << bytes;
  }
  const std::string firstBytes = readBytes(first);
  expectError(boids + "--checkpoint " + first, "--checkpoint " + first + ": the file there is a flocklife boids "
              "checkpoint of another format version ('FLBOID01', this build writes 'FLBOID02'), which this run would "
              "replace; give another name (or remove it) to start anew");
  expectError("boids --backend cpu --resume " + first + " --steps 9",
              "a flocklife boids checkpoint of another format version ('FLBOID01', this build reads 'FLBOID02')");
  expectError(life + "--out " + first, "the file there is a flocklife boids checkpoint; --out replaces its file");
  // Resumed into itself, its read says why; given as a pattern or a CSV, it is not sent to --resume.
  expectError("boids --backend cpu --resume " + first + " --steps 9 --checkpoint " + first,
              "a flocklife boids checkpoint of another format version ('FLBOID01', this build reads 'FLBOID02')");
  expectError("boids --backend cpu --in " + first + " --steps 1",
              "a flocklife boids checkpoint of another format version ('FLBOID01'), which this build does not read, "
              "not a CSV of boids");
  const std::string firstRle = path("first-format.rle");
  fs::copy_file(first, firstRle);
  expectError("life --backend cpu --pattern " + firstRle + " --gens 1",
              "(this is a flocklife boids checkpoint of another format version ('FLBOID01'), which this build does not "
              "read)");
  EXPECT_EQ(readBytes(first), firstBytes);
  // A checkpoint of another run (past its start, not resumed, not ending where this run ends) is
  // not replaced: a fresh run that forgot --resume lost a run at generation 20,479 (a new user's
  // trial), and a review found --gens 0 and a later --gens passing. The same command again, or
  // --resume from it, replaces it. --out never replaces a checkpoint.
  const std::string far = path("far.ck"), farBoids = path("far-boids.ck");
  expectOk("life --backend cpu --random 0.3 --size 16x16 --gens 40 --checkpoint " + far);
  const std::string farBytes = readBytes(far);
  expectError("life --backend cpu --random 0.3 --size 16x16 --gens 3 --checkpoint " + far,
              "--checkpoint " + far + ": holds a flocklife life run at generation 40, which this run (to generation "
              "3, not resumed from it) would replace; continue it with --resume " + far + ", or give another name "
              "(or remove it) to start anew");
  for (const char* gens : {"0", "50"})
    expectError("life --backend cpu --random 0.3 --size 16x16 --gens " + std::string(gens) + " --checkpoint " + far,
                "holds a flocklife life run at generation 40");
  EXPECT_EQ(readBytes(far), farBytes);
  // One whose checksum does not match is still kept, and the message does not offer --resume,
  // which would refuse it (a tester followed that hint).
  const std::string corrupt = path("corrupt.ck");
  {
    std::string bytes = farBytes;
    bytes[bytes.size() - 20] ^= 1;
    std::ofstream(corrupt, std::ios::binary) << bytes;
  }
  expectError("life --backend cpu --random 0.3 --size 16x16 --gens 3 --checkpoint " + corrupt,
              "--checkpoint " + corrupt + ": holds a flocklife life run at generation 40 that --resume cannot "
              "continue (its checksum does not match: the file is truncated or corrupt), which this run would "
              "replace; remove it (or give another name) to start anew");
  expectError("life --backend cpu --resume " + corrupt + " --gens 45", "checksum mismatch");
  expectOk("life --backend cpu --random 0.3 --size 16x16 --gens 40 --checkpoint " + far);
  expectOk("life --backend cpu --resume " + far + " --gens 45 --checkpoint " + far);
  expectOk("boids --backend cpu --n 20 --steps 6 --checkpoint " + farBoids);
  expectError("boids --backend cpu --n 20 --steps 2 --checkpoint " + farBoids,
              "--checkpoint " + farBoids + ": holds a flocklife boids run at step 6, which this run (to step 2");
  expectOk("boids --backend cpu --n 20 --steps 6 --checkpoint " + farBoids);
  // At this run's end position too, a checkpoint of another world, rule, boid count or parameters
  // is not replaced (a tester lost a 2000x1000 run to a 64x64 one to the same generation).
  const std::string lateBytes = readBytes(far), lateBoids = readBytes(farBoids);
  for (const std::string other : {"--size 32x16 --gens 45", "--size 16x16 --rule B36/S23 --gens 45"})
    expectError("life --backend cpu --random 0.3 " + other + " --checkpoint " + far,
                "--checkpoint " + far + ": holds another flocklife life run at generation 45 (another world size or "
                "rule than this run's), which this run would replace; give another name (or remove it) to start anew");
  for (const std::string other : {"--n 21", "--n 20 --scale 50"})
    expectError("boids --backend cpu " + other + " --steps 6 --checkpoint " + farBoids,
                "holds another flocklife boids run at step 6 (other parameters or another boid count than this run's)");
  EXPECT_EQ(readBytes(far), lateBytes);
  EXPECT_EQ(readBytes(farBoids), lateBoids);
  // Nor one of the same size, rule and end position from another start (another --seed or input
  // replaced it without a word: a tester); the same start again, here the resumed run's first one,
  // replaces its own.
  expectError("life --backend cpu --random 0.3 --size 16x16 --seed 5 --gens 45 --checkpoint " + far,
              "--checkpoint " + far + ": holds another flocklife life run at generation 45, from another start "
              "(another --seed, --random density or --pattern), which this run would replace; give another name "
              "(or remove it) to start anew");
  expectError("life --backend cpu --random 0.31 --size 16x16 --gens 45 --checkpoint " + far, "from another start");
  expectError("boids --backend cpu --n 20 --seed 2 --steps 6 --checkpoint " + farBoids,
              "--checkpoint " + farBoids + ": holds another flocklife boids run at step 6, from another start (another "
              "--seed or --in), which this run would replace; give another name (or remove it) to start anew");
  EXPECT_EQ(readBytes(far), lateBytes);
  EXPECT_EQ(readBytes(farBoids), lateBoids);
  expectOk("life --backend cpu --random 0.3 --size 16x16 --gens 45 --checkpoint " + far);
  EXPECT_EQ(readBytes(far), lateBytes);  // the same run again, bit for bit
  expectOk("boids --backend cpu --n 20 --steps 6 --checkpoint " + farBoids);
  // A run resumed from another chain is told so; a start (position 0) is nothing to keep, whatever
  // its start; a whole checkpoint shorter than this run's head (a Life head grows with its rule) is
  // another run's (a review found each).
  expectOk("life --backend cpu --random 0.3 --size 16x16 --seed 7 --gens 30 --checkpoint " + path("other.ck"));
  expectError("life --backend cpu --resume " + path("other.ck") + " --gens 45 --checkpoint " + far,
              "holds another flocklife life run at generation 45, from another start (the run that --resume " +
                  path("other.ck") + " continues began elsewhere)");
  const std::string zero = path("zero.ck");
  expectOk("life --backend cpu --random 0.3 --size 16x16 --gens 0 --checkpoint " + zero);
  expectOk("life --backend cpu --random 0.3 --size 16x16 --seed 5 --gens 0 --checkpoint " + zero);
  const std::string small = path("small.ck");
  expectOk("life --backend cpu --random 0.5 --size 8x1 --rule B3/S23 --gens 5 --checkpoint " + small);
  expectError("life --backend cpu --random 0.5 --size 8x1 --rule B12345678/S012345678 --gens 5 --checkpoint " + small,
              "holds another flocklife life run at generation 5 (another world size or rule than this run's)");
  const std::string start = path("start.ck");  // a run's start (generation 0) is no run to keep
  expectOk("life --backend cpu --random 0.3 --size 32x32 --gens 0 --checkpoint " + start);
  expectOk("life --backend cpu --random 0.3 --size 16x16 --gens 0 --checkpoint " + start);
  const std::string ckNoEnding = path("ck-no-ending");
  fs::copy_file(far, ckNoEnding);
  expectError(boids + "--out " + ckNoEnding, "--out " + ckNoEnding + ": the file there is a flocklife life checkpoint; "
              "--out replaces its file, so expected another name (remove the checkpoint first to replace it)");
  // A bench's CSV, a screenshot and a recording would replace it too (a life run's --checkpoint
  // run.csv was lost to bench life's --csv run.csv: a tester's trial).
  const std::string ckCsv = path("run.csv"), ckPng = path("run.png");
  fs::copy_file(far, ckCsv);
  fs::copy_file(far, ckPng);
  expectError("bench life --cpu --sizes 64 --gens 2 --reps 1 --kernels cpu-serial --csv " + ckCsv,
              "--csv " + ckCsv + ": the file there is a flocklife life checkpoint; --csv replaces its file");
  expectError(life + "--screenshot " + ckPng + " --frames 1", "--screenshot " + ckPng + ": the file there is a flocklife "
              "life checkpoint; --screenshot replaces its file");
  if (std::system("command -v ffmpeg > /dev/null 2>&1") == 0) {  // --record checks ffmpeg first
    const std::string ckGif = path("run.gif");
    fs::copy_file(far, ckGif);
    expectError(life + "--record " + ckGif + " --frames 1", "--record " + ckGif + ": the file there is a flocklife "
                "life checkpoint; --record replaces its file");
    EXPECT_EQ(readBytes(ckGif), readBytes(far));
  }
  EXPECT_EQ(readBytes(ckCsv), readBytes(far));
  EXPECT_EQ(readBytes(ckPng), readBytes(far));
  // Nor does a bench's CSV replace boids saved by --out, which --in goes on from (a tester's trial).
  const std::string state = path("state.csv");
  expectOk(boids + "--out " + state);
  const std::string saved = readBytes(state);
  expectError("bench boids --methods cpu-grid --n 100 --reps 1 --warmup 0 --steps-per-rep 1 --series classic --csv " +
                  state,
              "--csv " + state + ": the file there holds boids (its first line is the header x,y,z,vx,vy,vz");
  EXPECT_EQ(readBytes(state), saved);
  expectError(life + "--checkpoint " + moving, "(it begins 'x,y,z,vx')");
  EXPECT_EQ(readBytes(notes), "some notes\n");
  EXPECT_EQ(readBytes(boidsCk).substr(0, 8), "FLBOID02");
  EXPECT_EQ(readBytes(lifeCk).substr(0, 8), "FLLIFE02");
  expectOk(life + "--checkpoint " + lifeCk);
  expectError("life --backend cpu --gens 5 --resume " + rle, "wrong magic bytes); it is a text file, such as a pattern (read "
              "by life's --pattern) or a CSV of boids (boids' --in); checkpoints are what --checkpoint writes");
  expectError("life --backend cpu --gens 5 --pattern " + lifeCk, "(this is a flocklife life checkpoint: give it to --resume)");
  expectError("boids --backend cpu --steps 5 --in " + boidsCk, "--in " + boidsCk + ":1: a flocklife boids checkpoint, "
              "not a CSV; give it to --resume");
  // A life checkpoint printed 4 KB of escaped binary (found by a new user's trial); a boids one
  // given to life --pattern only asked for an RLE header.
  const Result lifeIn = expectError("boids --backend cpu --steps 5 --in " + lifeCk, "--in " + lifeCk + ":1: a flocklife "
                                    "life checkpoint, not a CSV of boids (flocklife life --resume reads it)");
  EXPECT_LT(lifeIn.output.size(), 1000u) << lifeIn.output;
  expectError("life --backend cpu --gens 5 --pattern " + boidsCk,
              "(this is a flocklife boids checkpoint: give it to flocklife boids --resume)");
  std::ofstream(path("long.csv")) << std::string(500, 'z') << "\n";
  const Result longLine = expectError("boids --backend cpu --steps 5 --in " + path("long.csv"),
                                      "got '" + std::string(80, 'z') + "... (500 bytes)'");
  // A field is cut the same way (it was echoed whole: a 100,000-digit field, a 100 KB message).
  std::ofstream(path("longfield.csv")) << "x,y,z,vx,vy,vz\n" << std::string(100000, '1') << "x,0,0,0,0,0\n";
  const Result longField = expectError("boids --backend cpu --steps 5 --in " + path("longfield.csv"),
                                       "field 1 '" + std::string(80, '1') + "... (100001 bytes)' is not a number");
  EXPECT_LT(longField.output.size(), 1000u) << longField.output;
  EXPECT_LT(longLine.output.size(), 1000u) << longLine.output;
  // --resume names the step to reach, as life's --gens does; the default 100 is not assumed.
  expectError("boids --backend cpu --resume " + ck, "--resume " + ck + ": --steps N is required (the step to reach)");
}

// ---- checkpoints ----------------------------------------------------------------------------

TEST_F(Reliability, LifeHalfRunCheckpointResumeEqualsTheFullRunBitExactly) {
  const std::string soup = "life --backend cpu --kernel cpu-serial --random 0.3 --size 61x47 --seed 5 ";
  expectOk(soup + "--gens 40 --checkpoint " + path("full.ck"));
  expectOk(soup + "--gens 20 --checkpoint " + path("half.ck") + " --every 7");
  const life::LifeCheckpoint half = life::loadCheckpoint(path("half.ck"));
  EXPECT_EQ(half.generation, 20u);
  EXPECT_EQ(half.world, life::stepSerial(life::randomSoup(61, 47, 0.3, 5), life::kConway, 20));
  const Result resumed = run("life --backend cpu --kernel cpu-parallel --resume " + path("half.ck") +
                             " --gens 40 --checkpoint " + path("resumed.ck") + " --every 3 --json");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_EQ(readBytes(path("resumed.ck")), readBytes(path("full.ck")));  // world, rule and generation
  // The summary names the generations this run made, whose rate it prints.
  EXPECT_NE(resumed.output.find("torus, generations 20 to 40 (20 run) with cpu-parallel"), std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("\"start_generation\":20"), std::string::npos) << resumed.output;
  for (const auto& e : fs::directory_iterator(path(".")))  // no temporary checkpoint left behind
    EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
  // The checkpoint keeps the rule.
  expectOk(soup + "--rule B36/S23 --gens 4 --checkpoint " + path("hl.ck"));
  EXPECT_EQ(life::loadCheckpoint(path("hl.ck")).rule.str(), "B36/S23");
}

TEST_F(Reliability, LifeResumeErrorsNameTheFlagOrTheFile) {
  const std::string soup = "life --backend cpu --random 0.3 --size 20x20 ";
  expectOk(soup + "--gens 10 --checkpoint " + path("c.ck"));
  expectError("life --backend cpu --resume " + path("c.ck") + " --gens 5",
              "--gens 5: the checkpoint " + path("c.ck") + " is already at generation 10");
  expectError("life --backend cpu --resume " + path("c.ck") + " --gens 20 --size 8x8",
              "the world, its size and its rule come from the checkpoint");
  expectError("life --backend cpu --resume " + path("missing.ck") + " --gens 20",
              "--resume: cannot read checkpoint '" + path("missing.ck") + "'");
  const std::string bytes = readBytes(path("c.ck"));
  std::ofstream(path("cut.ck"), std::ios::binary) << bytes.substr(0, bytes.size() - 10);
  expectError("life --backend cpu --resume " + path("cut.ck") + " --gens 20",
              "--resume: checkpoint '" + path("cut.ck") + "': checksum mismatch: the file is truncated or corrupt");
  expectOk("boids --backend cpu --n 20 --steps 1 --checkpoint " + path("b.ck"));
  expectError("life --backend cpu --resume " + path("b.ck") + " --gens 20",
              "not a flocklife life checkpoint (wrong magic bytes: 'FLBOID02', expected 'FLLIFE02'); it is a "
              "flocklife boids checkpoint: give it to flocklife boids --resume");
  expectError("boids --backend cpu --resume " + path("c.ck") + " --steps 20",
              "not a flocklife boids checkpoint (wrong magic bytes: 'FLLIFE02', expected 'FLBOID02'); it is a "
              "flocklife life checkpoint: give it to flocklife life --resume");
  // An empty file is said to be one ("wrong magic bytes" before; a new user's trial).
  { std::ofstream(path("empty.ck")); }
  expectError("boids --backend cpu --resume " + path("empty.ck") + " --steps 20",
              "--resume: checkpoint '" + path("empty.ck") + "': an empty file; expected a flocklife boids checkpoint, as --checkpoint writes it");
  // A device without end is refused by its first bytes (it was read until the memory ran out), and
  // so is a text input without line ends.
  expectError("life --backend cpu --resume /dev/zero --gens 20", "checkpoint '/dev/zero': not a flocklife life "
              "checkpoint (wrong magic bytes)");
  expectError("boids --backend cpu --resume /dev/urandom --steps 20", "checkpoint '/dev/urandom': not a flocklife "
              "boids checkpoint (wrong magic bytes");
  expectError("life --backend cpu --pattern /dev/zero --gens 20", "/dev/zero:1: a line longer than 256 MiB (no line end)");
}

TEST_F(Reliability, BoidsHalfRunCheckpointResumeIsBitIdenticalOnCpuNaive) {
  const std::string start = "boids --backend cpu --method cpu-naive --n 400 --seed 9 --dt 0.25 --periodic ";
  expectOk(start + "--steps 30 --checkpoint " + path("full.ck"));
  expectOk(start + "--steps 15 --checkpoint " + path("half.ck") + " --every 4");
  EXPECT_EQ(boids::loadCheckpoint(path("half.ck")).step, 15u);
  const Result resumed = run("boids --backend cpu --method cpu-naive --resume " + path("half.ck") +
                             " --steps 30 --checkpoint " + path("resumed.ck") + " --json");
  ASSERT_EQ(resumed.status, 0) << resumed.output;
  EXPECT_EQ(readBytes(path("resumed.ck")), readBytes(path("full.ck")));  // parameters, step and float bits
  // The summary names the steps this run made, whose rate it prints.
  EXPECT_NE(resumed.output.find("400 boids, steps 15 to 30 (15 run) with cpu-naive"), std::string::npos)
      << resumed.output;
  EXPECT_NE(resumed.output.find("\"start_step\":15"), std::string::npos) << resumed.output;
  const boids::BoidsCheckpoint c = boids::loadCheckpoint(path("resumed.ck"));
  EXPECT_EQ(c.params.dt, 0.25f);
  EXPECT_TRUE(c.params.periodic);
}

// The same half-run + resume on the GPU (skipped without a device). Life: the checkpoint of the
// resumed run equals the uninterrupted run's byte for byte, for the default kernel and simple.
// Boids: naive and the scattered grid read neighbours in a fixed order (grid: stable sort of
// (cell, original index)), so a resumed run is bit-identical too; the coherent methods reorder
// boids inside a cell by the previous step's order, which a resume starts afresh.
TEST_F(Reliability, GpuLifeHalfRunCheckpointResumeEqualsTheFullRunBitExactly) {
  if (!test::haveGpu()) GTEST_SKIP() << "no usable CUDA device";
  for (const std::string kernel : {"fast", "simple"}) {
    SCOPED_TRACE(kernel);
    const std::string soup = "life --backend cuda --kernel " + kernel + " --random 0.4 --size 333x257 --seed 8 ";
    expectOk(soup + "--gens 90 --checkpoint " + path(kernel + "-full.ck"));
    expectOk(soup + "--gens 45 --checkpoint " + path(kernel + "-half.ck") + " --every 11");
    EXPECT_EQ(life::loadCheckpoint(path(kernel + "-half.ck")).world,
              life::stepSerial(life::randomSoup(333, 257, 0.4, 8), life::kConway, 45));
    expectOk("life --backend cuda --kernel " + kernel + " --resume " + path(kernel + "-half.ck") +
             " --gens 90 --checkpoint " + path(kernel + "-resumed.ck"));
    EXPECT_EQ(readBytes(path(kernel + "-resumed.ck")), readBytes(path(kernel + "-full.ck")));
  }
}

TEST_F(Reliability, GpuBoidsHalfRunCheckpointResumeIsBitIdenticalOnNaiveAndGrid) {
  if (!test::haveGpu()) GTEST_SKIP() << "no usable CUDA device";
  for (const std::string method : {"naive", "grid"}) {
    SCOPED_TRACE(method);
    const std::string start = "boids --backend cuda --method " + method + " --n 3000 --seed 9 --scale 30 ";
    expectOk(start + "--steps 40 --checkpoint " + path(method + "-full.ck"));
    expectOk(start + "--steps 20 --checkpoint " + path(method + "-half.ck") + " --every 6");
    EXPECT_EQ(boids::loadCheckpoint(path(method + "-half.ck")).step, 20u);
    expectOk("boids --backend cuda --method " + method + " --resume " + path(method + "-half.ck") +
             " --steps 40 --checkpoint " + path(method + "-resumed.ck"));
    EXPECT_EQ(readBytes(path(method + "-resumed.ck")), readBytes(path(method + "-full.ck")));
  }
}

/// The time and rate of a run with --checkpoint leave out the writing of its checkpoints, said on a
/// line of its own (3 steps of 200,000 boids with a checkpoint each read 4.6 steps/s against 7.4
/// without: a tester's trial).
TEST_F(Reliability, CheckpointWritesAreLeftOutOfTheRate) {
  for (const std::string& args : {"boids --backend cpu --n 2000 --steps 3 --every 1 --checkpoint " + path("b.ck"),
                                 "life --backend cpu --random 0.5 --size 64x64 --gens 6 --every 2 --checkpoint " +
                                     path("l.ck")}) {
    const Result r = run(args);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("\ncheckpoints written in "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(" s, left out of the time above\n"), std::string::npos) << r.output;
  }
  EXPECT_EQ(run("boids --backend cpu --n 2000 --steps 3").output.find("checkpoints written"), std::string::npos);
}

TEST_F(Reliability, BoidsResumeErrorsNameTheFlagOrTheFile) {
  expectOk("boids --backend cpu --n 30 --steps 6 --checkpoint " + path("c.ck"));
  expectError("boids --backend cpu --resume " + path("c.ck") + " --steps 2", "--steps 2: the checkpoint " + path("c.ck") +
                                                                                 " is already at step 6");
  expectError("boids --backend cpu --resume " + path("c.ck") + " --steps 9 --dt 0.1",
              "the boids and the model parameters come from the checkpoint");
  expectError("boids --backend cpu --resume " + path("c.ck") + " --steps 9 --n 5",
              "the boids and the model parameters come from the checkpoint");
  const std::string bytes = readBytes(path("c.ck"));
  std::ofstream(path("cut.ck"), std::ios::binary) << bytes.substr(0, 40);
  expectError("boids --backend cpu --resume " + path("cut.ck") + " --steps 9", "checksum mismatch");
  std::ofstream(path("text.ck")) << "x,y,z,vx,vy,vz\n0,0,0,0,0,0\n";
  expectError("boids --backend cpu --resume " + path("text.ck") + " --steps 9", "not a flocklife boids checkpoint");
}

// ---- Ctrl-C ---------------------------------------------------------------------------------

namespace {

/// Starts `flocklife args...` with output to `log`, lets it run `ms`, sends `sig` `times` times
/// back to back, waits. Returns the exit status (-1 if it did not exit normally).
int interruptAfter(const std::vector<std::string>& args, int ms, const std::string& log, int times = 1,
                   int sig = SIGINT) {
  const pid_t pid = test::startFlocklife(args, log);
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  for (int k = 0; k < times; ++k) kill(pid, sig);
  return test::waitExit(pid);  // at most 60 s, then killed: -2
}

std::string slurp(const std::string& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

/// --in gives the boids, so --n and --seed (which only seeds a random start) are refused beside it
/// without a window, rather than ignored.
TEST_F(Reliability, BoidsInRefusesTheRandomStartsFlags) {
  const std::string in = path("two.csv");
  std::ofstream(in) << "x,y,z,vx,vy,vz\n0,0,0,1,0,0\n1,1,1,0,1,0\n";
  expectOk("boids --backend cpu --steps 1 --in " + in);
  expectError("boids --backend cpu --steps 1 --in " + in + " --n 5", "--n and --in: give one of them");
  expectError("boids --backend cpu --steps 1 --in " + in + " --seed 3",
              "--seed and --in: the boids come from the file; --seed seeds only a random start");
}

/// Usage mistakes CLI11 words vaguely are said plainly: an unknown command (at the top and below
/// bench), no command where one is needed, and a flag given twice. --help and --version still work. CLI11's
/// closing hint names the command whose --help lists the options meant.
TEST_F(Reliability, UnknownCommandsAndRepeatedFlagsAreNamed) {
  expectError("frob", "unknown command 'frob'; expected one of life, scan-test, boids, bench (--help");
  expectError("bench frob --n 5", "unknown command 'frob' after 'bench'; expected one of scan, life, boids, fps");
  expectError("", "a command is needed: one of life, scan-test, boids, bench");
  expectError("bench", "a command is needed after 'bench': one of scan, life, boids, fps");
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --gens 2", "--gens: given 2 times; expected it once");
  const Result help = run("bench --help");
  EXPECT_EQ(help.status, 0) << help.output;
  EXPECT_NE(help.output.find("fps"), std::string::npos) << help.output;
  expectError("bench fps --seconds 1", "a command is needed after 'bench fps' before '--seconds': one of boids, life");
  // --version needs no command (before one; below bench it is a missing command, as other flags are).
  const Result version = run("--version");
  EXPECT_EQ(version.status, 0) << version.output;
  EXPECT_EQ(version.output.rfind("flocklife 0.", 0), 0u) << version.output;
  EXPECT_NE(version.output.find("(commit "), std::string::npos) << version.output;
  expectError("bench --version", "a command is needed after 'bench' before '--version'");
  // A word after a command that takes no subcommand is CLI11's to refuse, as before.
  expectError("boids extra --backend cpu", "The following argument was not expected: extra");
  expectError("boids --backend cpu -n 100 --steps 2 --zoom 2", "were not expected: -n 100 --zoom 2");
  expectError("bench fps life extra --backend cpu", "The following argument was not expected: extra");
  expectError("bench fps life extra --backend cpu", "Run 'flocklife bench fps life --help' to list its options.");
  expectError("life --in glider.rle --gens 1", "Run 'flocklife life --help' to list its options.");
  // A value not of the option's type ("Could not convert: --random = abc" before), and --repeat
  // beyond an int ("Could not convert" with no range; found by a review).
  expectError("life --random abc --size 8x8 --gens 1", "--random: could not read 'abc' as a number");
  expectError("bench fps boids --seconds x", "--seconds: could not read 'x' as a number");
  // bench boids's tuning sweeps take numbers; 'auto' there points to flocklife boids (not for --n).
  const std::string pointer = "(the sweep runs the values given; flocklife boids picks 'auto' settings";
  expectError("bench boids --cell-widths auto", "--cell-widths: could not read 'auto' as a number " + pointer);
  expectError("bench boids --block-sizes 128,auto", "got 'auto' " + pointer);
  expectError("bench boids --cell-widths 1,auto", "could not read '1,auto' as a number " + pointer);
  const Result n = run("bench boids --n auto");
  EXPECT_EQ(n.status, 2) << n.output;
  EXPECT_EQ(n.output.find(pointer), std::string::npos) << n.output;
  expectError("life --backend cpu --random 0.5 --size 8x8 --gens 1 --repeat 99999999999",
              "--repeat: expected an integer in [1, 2147483647], got '99999999999'");
  // "--flag=" with nothing after '=' is refused: CLI11 took the next word ("--out= --json" wrote a
  // file named --json and printed no JSON; found by a new user's trial).
  expectError("life --backend cpu --random 0.5 --size 8x8 --gens 1 --out= --json",
              "--out=: nothing after '='; expected --out=VALUE, or the flag without '='");
  expectError("boids --backend cpu --n 10 --steps 1 --method= --json", "--method=: nothing after '='");
  expectError("boids --backend cpu --n 10 --steps 1 --json=", "--json=: nothing after '='");
  EXPECT_FALSE(std::filesystem::exists("--json"));
}

// Integers are read as decimal numbers: CLI11 alone reads "010" as octal 8, "0x10" as hex 16 and
// saturates values beyond 64 bits, each without a word.
TEST_F(Reliability, IntegerOptionsAreDecimal) {
  const Result life = run("life --backend cpu --random 0.5 --size 16x16 --gens 010 --seed 007 --json");
  ASSERT_EQ(life.status, 0) << life.output;
  EXPECT_NE(life.output.find("\"generations\":10,"), std::string::npos) << life.output;
  EXPECT_NE(life.output.find("seed 7"), std::string::npos) << life.output;
  const Result boids = run("boids --backend cpu --n 010 --steps 02 --json");
  ASSERT_EQ(boids.status, 0) << boids.output;
  EXPECT_NE(boids.output.find("\"n\":10,"), std::string::npos) << boids.output;
  EXPECT_NE(boids.output.find("\"steps\":2,"), std::string::npos) << boids.output;
  const std::string expected = ": expected an integer in decimal digits, of absolute value at most 2^63 - 1, got '";
  expectError("boids --backend cpu --n 0x10 --steps 1", "--n" + expected + "0x10'");
  expectError("boids --backend cpu --n 99999999999999999999 --steps 1", "--n" + expected + "99999999999999999999'");
  expectError("boids --backend cpu --n 10x --steps 1", "--n" + expected + "10x'");
  expectError("life --backend cpu --random 0.5 --size 16x16 --gens 1 --repeat 0b11", "--repeat" + expected + "0b11'");
  // A whole number in another notation gets its digits named; other text does not.
  expectError("boids --backend cpu --n 1e3 --steps 1", "--n" + expected + "1e3' (write it as 1000)");
  expectError("boids --backend cpu --n 50 --steps 5.0", "--steps" + expected + "5.0' (write it as 5)");
  const Result half = run("boids --backend cpu --n 2.5 --steps 1");
  EXPECT_EQ(half.status, 2);
  EXPECT_EQ(half.output.find("write it as"), std::string::npos) << half.output;
}

namespace {
/// A runner for runCheckpointed that only counts the steps it was asked to make.
struct CountingRunner {
  std::uint64_t steps = 0;
  void step(std::uint64_t n) { steps += n; }
  void synchronize() {}
};
}  // namespace

// A signal that arrives while the final checkpoint is written is not lost: the run ends with
// Interrupted (exit status 128 + signal) instead of going on as if nothing had happened.
/// The busy-cores note (a new user's trial: a 46x slowdown on a loaded machine said nothing): only
/// when other work keeps at least half a core busy and OMP_WAIT_POLICY is unset (the load average
/// used before stayed below the cores with one busy loop on a 2-core machine: a 16x slowdown
/// without a word, a second trial).
TEST(BusyCores, NoteOnlyWhenOtherWorkHoldsACoreWithoutAWaitPolicy) {
  EXPECT_EQ(busyCoresNote(0.4, 2, false), "");
  EXPECT_EQ(busyCoresNote(-1, 2, false), "");  // /proc/stat unreadable
  EXPECT_EQ(busyCoresNote(1.9, 2, true), "");
  EXPECT_EQ(busyCoresNote(1.0, 2, false),
            "other work keeps 1.0 of the 2 cores busy; the CPU kernels' OpenMP threads spin while they wait for each "
            "other, which can slow them many times: OMP_WAIT_POLICY=passive avoids it");
  EXPECT_NE(busyCoresNote(0.5, 64, false), "");
}

/// busyCoresNow sees a core that a busy loop holds while it samples.
TEST(BusyCores, ABusyLoopIsSeen) {
  std::atomic<bool> stop{false};
  std::thread spin([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  const double busy = busyCoresNow(0.2);
  stop = true;
  spin.join();
  if (busy < 0) GTEST_SKIP() << "no /proc/stat here";
  EXPECT_GE(busy, 0.7);
}

/// busyCoresBetween reads the allowed CPUs' lines of /proc/stat; a container's renumbered lines
/// (lxcfs: a cpuset of CPUs 4 and 5 listed as cpu0 and cpu1) are taken when they are as many as the
/// allowed CPUs, and an unknown mapping gives no figure rather than another CPU's.
TEST(BusyCores, ReadsTheAllowedCpusLines) {
  const std::string before =
      "cpu  400 0 0 400 0 0 0 0 0 0\ncpu0 100 0 0 100 0 0 0 0 0 0\ncpu1 300 0 0 300 0 0 0 0 0 0\nintr 1\n";
  // cpu0 busy for all 100 jiffies, cpu1 idle for all 100.
  const std::string after =
      "cpu  600 0 0 500 0 0 0 0 0 0\ncpu0 200 0 0 100 0 0 0 0 0 0\ncpu1 300 0 0 400 0 0 0 0 0 0\nintr 2\n";
  EXPECT_DOUBLE_EQ(busyCoresBetween(before, after, {0, 1}), 1.0);
  EXPECT_DOUBLE_EQ(busyCoresBetween(before, after, {0}), 1.0);
  EXPECT_DOUBLE_EQ(busyCoresBetween(before, after, {1}), 0.0);
  EXPECT_DOUBLE_EQ(busyCoresBetween(before, after, {4, 5}), 1.0);  // lxcfs: both lines are ours
  EXPECT_EQ(busyCoresBetween(before, after, {7}), -1);  // one allowed CPU, two lines: which is unknown
  EXPECT_EQ(busyCoresBetween(before, before, {0, 1}), -1);  // no time passed
  EXPECT_EQ(busyCoresBetween("", after, {0, 1}), -1);
}

/// With a core held by a busy loop, flocklife life notes it for an OpenMP kernel, and not for
/// cpu-serial, which has no threads to spin.
TEST(BusyCores, NoNoteForTheSerialKernel) {
  std::atomic<bool> stop{false};
  std::thread spin([&] {
    while (!stop.load(std::memory_order_relaxed)) {
    }
  });
  const std::string life = "life --backend cpu --random 0.3 --size 64x64 --gens 2 --kernel ";
  const Result serial = test::runFlocklife(life + "cpu-serial", "env -u OMP_WAIT_POLICY -u OMP_NUM_THREADS");
  const Result parallel = test::runFlocklife(life + "cpu-parallel", "env -u OMP_WAIT_POLICY -u OMP_NUM_THREADS");
  stop = true;
  spin.join();
  if (coresAllowed() < 2 || busyCoresNow(0.01) < 0) GTEST_SKIP() << "one CPU, or no /proc/stat here";
  ASSERT_EQ(serial.status, 0) << serial.output;
  ASSERT_EQ(parallel.status, 0) << parallel.output;
  EXPECT_EQ(serial.output.find("cores busy"), std::string::npos) << serial.output;
  EXPECT_NE(parallel.output.find("cores busy"), std::string::npos) << parallel.output;
}

/// runCheckpointed returns the time its saves took, which the runs leave out of their rate.
TEST(RunCheckpointed, ReturnsTheSecondsSpentSaving) {
  CountingRunner runner;
  int saves = 0;
  const double seconds = app::runCheckpointed(runner, 0, 4, 2, "x.ck", "step", 0, [&](std::uint64_t) {
    ++saves;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  EXPECT_EQ(saves, 2);  // at step 2 and at the end
  EXPECT_GE(seconds, 0.1);
  EXPECT_LT(seconds, 30.0);
  EXPECT_EQ(app::runCheckpointed(runner, 0, 4, 2, "", "step", 0, [](std::uint64_t) {}), 0.0);  // no checkpoint
}

TEST(RunCheckpointed, SignalDuringTheFinalSaveInterrupts) {
  CountingRunner runner;
  std::vector<std::uint64_t> saved;
  try {
    app::runCheckpointed(runner, 0, 10, 0, "x.ck", "step", 0, [&](std::uint64_t p) {
      saved.push_back(p);
      if (p == 10) std::raise(SIGTERM);  // caught by runCheckpointed's InterruptFlag
    });
    FAIL() << "expected Interrupted";
  } catch (const Interrupted& e) {
    EXPECT_EQ(e.signal, SIGTERM);
    EXPECT_NE(std::string(e.what()).find("interrupted by signal 15 at step 10 of 10; state saved to --checkpoint x.ck"),
              std::string::npos) << e.what();
  }
  EXPECT_EQ(runner.steps, 10u);
  EXPECT_EQ(saved, std::vector<std::uint64_t>{10});
}

// Under --repeat (which refuses --checkpoint) a signal names the run, and the message no longer
// suggests --checkpoint, which the run could not have been given.
TEST(RunCheckpointed, SignalInARepeatedRunNamesTheRun) {
  struct Raising : CountingRunner {
    void step(std::uint64_t n) {
      CountingRunner::step(n);
      std::raise(SIGINT);
    }
  } raising;
  try {
    app::runCheckpointed(raising, 0, 1000, 0, "", "step", 3, [](std::uint64_t) { FAIL() << "nothing to save"; });
    FAIL() << "expected Interrupted";
  } catch (const Interrupted& e) {
    EXPECT_EQ(std::string(e.what()),
              "interrupted by signal 2 at step 1 of 1000 in repeated run 3; nothing was written, and nothing more was run");
  }
}

// --repeat: a signal between two runs' own flags (each run's runCheckpointed makes one) was
// cleared by the next run's flag, and the job went on to its end (a new user's trial: ~7 % of
// SIGTERMs under --repeat-seconds). RepeatStop holds a flag across the runs; nested flags keep it.
TEST(RepeatStop, ASignalBetweenRunsIsKeptAndStopsTheNextRun) {
  app::Repeat repeat;
  repeat.count = 3;
  const app::RepeatStop stop(repeat);
  EXPECT_NO_THROW(stop.check(1));
  { InterruptFlag run1; }  // run 1's own flag, made and ended
  std::raise(SIGTERM);     // while run 1's result is checked and reported
  {
    InterruptFlag run2;  // what runCheckpointed makes for run 2: the signal is not cleared
    EXPECT_TRUE(run2.raised());
    EXPECT_EQ(run2.signal(), SIGTERM);
  }
  try {
    stop.check(2);
    FAIL() << "expected Interrupted";
  } catch (const Interrupted& e) {
    EXPECT_EQ(e.signal, SIGTERM);
    EXPECT_NE(std::string(e.what()).find("interrupted by signal 15 before repeated run 2; nothing more was run"),
              std::string::npos) << e.what();
  }
  app::Repeat once;
  EXPECT_NO_THROW(app::RepeatStop(once).check(1));  // a single run holds no flag of its own
}

// A signal between batches saves once, at the position reached, and interrupts.
TEST(RunCheckpointed, SignalBetweenBatchesSavesOnceAndInterrupts) {
  std::vector<std::uint64_t> saved;
  struct Raising : CountingRunner {
    void step(std::uint64_t n) {
      CountingRunner::step(n);
      if (steps >= 3) std::raise(SIGINT);
    }
  } raising;
  try {
    app::runCheckpointed(raising, 0, 1000, 0, "x.ck", "generation", 0, [&](std::uint64_t p) { saved.push_back(p); });
    FAIL() << "expected Interrupted";
  } catch (const Interrupted& e) {  // the target too, as without a checkpoint (a new user's trial)
    EXPECT_NE(std::string(e.what()).find("interrupted by signal 2 at generation " + std::to_string(raising.steps) + " of 1000; state saved"),
              std::string::npos) << e.what();
  }
  ASSERT_EQ(saved.size(), 1u);
  EXPECT_EQ(saved[0], raising.steps);
  EXPECT_LT(raising.steps, 1000u);
}

/// A closed terminal (SIGHUP) saves the checkpoint as Ctrl-C does; it ended the run at once.
TEST_F(Reliability, HangUpWritesAFinalCheckpoint) {
  const std::string ck = path("hup.ck");
  const int status = interruptAfter({"life", "--backend", "cpu", "--kernel", "cpu-serial", "--random", "0.4", "--size",
                                     "256x256", "--seed", "3", "--gens", "1000000000", "--checkpoint", ck},
                                    1000, path("log.txt"), 1, SIGHUP);
  EXPECT_EQ(status, 129) << slurp(path("log.txt"));
  EXPECT_NE(slurp(path("log.txt")).find("interrupted by signal 1 at generation"), std::string::npos)
      << slurp(path("log.txt"));
  ASSERT_TRUE(fs::exists(ck));
  EXPECT_GT(life::loadCheckpoint(ck).generation, 0u);
}

TEST_F(Reliability, LifeCtrlCWritesAFinalCheckpointThatResumes) {
  const std::string ck = path("int.ck");
  // Two SIGINTs at once are one request (`timeout -s INT` signals the process and its group; a new
  // user's runs lost their checkpoint to the second): the run still saves and says so.
  const int status = interruptAfter({"life", "--backend", "cpu", "--kernel", "cpu-serial", "--random", "0.4", "--size",
                                     "256x256", "--seed", "3", "--gens", "1000000000", "--checkpoint", ck},
                                    1500, path("log.txt"), 2);
  EXPECT_EQ(status, 130) << slurp(path("log.txt"));
  EXPECT_NE(slurp(path("log.txt")).find("flocklife: stopping at the next safe point"), std::string::npos)
      << slurp(path("log.txt"));
  EXPECT_NE(slurp(path("log.txt")).find("interrupted by signal 2 at generation"), std::string::npos) << slurp(path("log.txt"));
  ASSERT_TRUE(fs::exists(ck));
  const life::LifeCheckpoint c = life::loadCheckpoint(ck);
  EXPECT_GT(c.generation, 0u);
  EXPECT_LT(c.generation, 1000000000u);
  EXPECT_EQ(c.world, life::stepSerial(life::randomSoup(256, 256, 0.4, 3), life::kConway, c.generation));
  expectOk("life --backend cpu --resume " + ck + " --gens " + std::to_string(c.generation + 3) + " --checkpoint " +
           path("after.ck"));
  EXPECT_EQ(life::loadCheckpoint(path("after.ck")).world, life::stepSerial(c.world, c.rule, 3));
}

// Without --checkpoint, Ctrl-C still says where the run stopped and that nothing was written (it
// ended without a word, found by a new user's trial), and the --out file is not made.
TEST_F(Reliability, CtrlCWithoutACheckpointSaysNothingWasWritten) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"life", "--backend", "cpu", "--random", "0.4", "--size", "256x256", "--gens", "1000000000", "--out",
            path("end.rle")},
           {"boids", "--backend", "cpu", "--n", "2000", "--steps", "100000000", "--out", path("end.csv")}}) {
    const int status = interruptAfter(args, 1500, path("log.txt"));
    const std::string log = slurp(path("log.txt"));
    EXPECT_EQ(status, 130) << args[0] << ": " << log;
    EXPECT_NE(log.find("interrupted by signal 2 at " + std::string(args[0] == "life" ? "generation " : "step ")),
              std::string::npos) << log;
    EXPECT_NE(log.find("nothing was written (--checkpoint FILE saves a long run's state when it is interrupted)"),
              std::string::npos) << log;
  }
  EXPECT_FALSE(fs::exists(path("end.rle")));
  EXPECT_FALSE(fs::exists(path("end.csv")));
}

/// A SIGINT inherited as ignored (a background job of a shell script, `cmd &`) stays ignored, as
/// with other programs: the run goes on through one and stops at a SIGTERM (it had been taken as a
/// Ctrl-C; a tester's trial).
TEST_F(Reliability, AnInheritedIgnoredSigintStaysIgnored) {
  struct sigaction ignore {}, before {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ASSERT_EQ(sigaction(SIGINT, &ignore, &before), 0);
  const pid_t pid = test::startFlocklife(
      {"life", "--backend", "cpu", "--random", "0.4", "--size", "256x256", "--gens", "1000000000"}, path("log.txt"));
  ASSERT_EQ(sigaction(SIGINT, &before, nullptr), 0);
  // Its signal masks (/proc/<pid>/status, hexadecimal, bit s - 1 for signal s), once the run's
  // InterruptFlag has taken SIGTERM: SIGINT still ignored, not caught. Then a SIGINT sent is
  // known to arrive after the flag was made (a fixed wait could send it before, to the same end).
  const auto mask = [pid](const std::string& key) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind(key + ":", 0) == 0) return std::stoull(line.substr(key.size() + 1), nullptr, 16);
    return 0ull;
  };
  const auto bit = [](int sig) { return 1ull << (sig - 1); };
  for (int k = 0; k < 3000 && !(mask("SigCgt") & bit(SIGTERM)); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(mask("SigCgt") & bit(SIGTERM)) << "no flag within 30 s: " << slurp(path("log.txt"));
  EXPECT_TRUE(mask("SigIgn") & bit(SIGINT));
  EXPECT_FALSE(mask("SigCgt") & bit(SIGINT));
  ASSERT_EQ(kill(pid, SIGINT), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  int st = 0;
  EXPECT_EQ(waitpid(pid, &st, WNOHANG), 0) << "ended by an ignored SIGINT: " << slurp(path("log.txt"));
  ASSERT_EQ(kill(pid, SIGTERM), 0);
  EXPECT_EQ(test::waitExit(pid), 128 + SIGTERM);
  const std::string log = slurp(path("log.txt"));
  EXPECT_NE(log.find("interrupted by signal 15 at generation "), std::string::npos) << log;
  EXPECT_EQ(log.find("signal 2"), std::string::npos) << log;
}

/// A step of cpu-naive at 300,000 boids takes minutes on one core, and the first Ctrl-C waited for
/// its end (a tester's trial): the step under way is abandoned, and the checkpoint holds the last
/// completed step, here the random start.
TEST_F(Reliability, BoidsCtrlCAbandonsALongCpuStep) {
  const std::string ck = path("long.ck");
  // Into the first step (minutes long): past the CUDA probe and the handler's start on a busy machine.
  const auto sent = std::chrono::steady_clock::now() + std::chrono::milliseconds(3000);
  const int status = interruptAfter({"boids", "--backend", "cpu", "--method", "cpu-naive", "--n", "300000", "--seed",
                                     "4", "--steps", "2", "--checkpoint", ck},
                                    3000, path("log.txt"));
  const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - sent).count();
  EXPECT_EQ(status, 130) << slurp(path("log.txt"));
  EXPECT_LT(waited, 20.0) << slurp(path("log.txt"));
  EXPECT_NE(slurp(path("log.txt")).find("interrupted by signal 2 at step 0 of 2; state saved to --checkpoint " + ck),
            std::string::npos) << slurp(path("log.txt"));
  ASSERT_TRUE(fs::exists(ck));
  const boids::BoidsCheckpoint c = boids::loadCheckpoint(ck);
  EXPECT_EQ(c.step, 0u);
  const boids::State start = boids::randomState(300000, c.params, 4);
  EXPECT_EQ(boids::encodeCheckpoint(c), boids::encodeCheckpoint({c.params, start, 0, boids::startDigest(start)}));
}

TEST_F(Reliability, BoidsCtrlCWritesAFinalCheckpointThatResumes) {
  const std::string ck = path("int.ck");
  const int status = interruptAfter({"boids", "--backend", "cpu", "--method", "cpu-naive", "--n", "2000", "--steps",
                                     "100000000", "--checkpoint", ck, "--every", "1000000"},
                                    1500, path("log.txt"));
  EXPECT_EQ(status, 130) << slurp(path("log.txt"));
  EXPECT_NE(slurp(path("log.txt")).find("interrupted by signal 2 at step"), std::string::npos) << slurp(path("log.txt"));
  ASSERT_TRUE(fs::exists(ck));
  const boids::BoidsCheckpoint c = boids::loadCheckpoint(ck);
  EXPECT_GT(c.step, 0u);
  EXPECT_EQ(c.state.size(), 2000u);
  expectOk("boids --backend cpu --method cpu-naive --resume " + ck + " --steps " + std::to_string(c.step + 2));
}

/// Opening a named pipe waits for its writer, which looked like a hang (a tester): the wait is said
/// first. The shell's pipes (/dev/stdin here) have a writer already and are not named.
TEST_F(Reliability, ANamedPipeInputIsSaidBeforeItsWriterComes) {
  const std::string five = path("five.csv"), fifo = path("in.csv");
  expectOk("boids --backend cpu --n 5 --steps 0 --out " + five);
  const std::string csv = readBytes(five);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {  // opens once flocklife reads (ENXIO before), gives up after 60 s
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    int fd = -1;
    while ((fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK)) < 0 && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, 0);
    EXPECT_EQ(::write(fd, csv.data(), csv.size()), ssize_t(csv.size()));
    ::close(fd);
  });
  const Result named = run("boids --backend cpu --in " + fifo + " --steps 1");
  writer.join();
  EXPECT_EQ(named.status, 0) << named.output;
  EXPECT_NE(named.output.find("flocklife: note: " + fifo + " is a named pipe: waiting for a program to open it for "
                              "writing\n"),
            std::string::npos)
      << named.output;
  const Result piped = test::runCommand("cat '" + five + "' | timeout 120 '" + test::flocklifeExe() +
                                        "' boids --backend cpu --in /dev/stdin --steps 1 2>&1");
  EXPECT_EQ(piped.status, 0) << piped.output;
  EXPECT_EQ(piped.output.find("named pipe"), std::string::npos) << piped.output;
}

/// Two runs given one --checkpoint file replaced each other's saves without a word, and the first
/// said it had succeeded (a tester's trial): the second is refused while the first runs, under
/// another name for the same file too (the first names it by a link made before the file), and the
/// file is free again once the first has ended.
TEST_F(Reliability, TwoRunsDoNotShareACheckpointFile) {
  const std::string ck = path("same.ck"), alias = path("alias.ck");
  ASSERT_EQ(::symlink(ck.c_str(), alias.c_str()), 0);
  struct Reap {  // the run is ended however the test ends
    pid_t pid;
    ~Reap() {
      if (pid <= 0) return;
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  } first{test::startFlocklife({"life", "--backend", "cpu", "--random", "0.4", "--size", "256x256", "--gens",
                                "1000000000", "--checkpoint", alias, "--every", "1000"},
                               path("log.txt"))};
  for (int k = 0; k < 3000 && !fs::exists(ck); ++k) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(fs::exists(ck)) << "no checkpoint within 30 s: " << slurp(path("log.txt"));
  const std::string taken = ": another flocklife run on this machine is saving its checkpoint to this file; expected "
                            "another name, or to wait until that run ends";
  expectError("life --backend cpu --random 0.4 --seed 2 --size 64x64 --gens 10 --checkpoint " + ck,
              "--checkpoint " + ck + taken);
  expectError("life --backend cpu --random 0.4 --size 32x32 --gens 5 --checkpoint " + alias,
              "--checkpoint " + alias + taken);
  ASSERT_EQ(kill(first.pid, SIGTERM), 0);
  EXPECT_EQ(test::waitExit(first.pid), 143) << slurp(path("log.txt"));
  first.pid = 0;
  fs::remove(ck);
  expectOk("life --backend cpu --random 0.4 --seed 2 --size 64x64 --gens 10 --checkpoint " + ck);
}

}  // namespace flocklife
