// fast_bench: standalone timing of the `fast` Life kernel through the Engine API (the Life
// benchmark driver of `flocklife bench` is separate). For each world size, rule and parameter set:
// one warm-up run, then `--reps` timed runs of `step(G)` between CUDA events on the default
// stream, G a multiple of k near `--updates` cell updates; the median is reported in billion cell
// updates per second, beside the device-to-device copy bandwidth measured in the same run
// (bench_gpu.cuh) and the single-pass bound it implies (1 bit read + 1 bit written per cell).
#include <CLI/CLI.hpp>

#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "app/cli_checks.hpp"
#include "bench_common.hpp"
#include "bench_gpu.cuh"
#include "common/cuda_timer.cuh"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "life/engine.hpp"

namespace {

using namespace flocklife;

/// Random soup of density 1/2 from splitmix64 (fast enough for 2^32 cells).
life::World soup(std::int64_t size, std::uint64_t seed) {
  life::World w(size, size);
  auto& cells = w.cells();
  std::uint64_t s = seed;
  for (std::size_t i = 0; i < cells.size(); i += 64) {
    std::uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    for (std::size_t b = 0; b < 64 && i + b < cells.size(); ++b) cells[i + b] = std::uint8_t((z >> b) & 1u);
  }
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  std::signal(SIGXFSZ, SIG_IGN);  // a file-size limit is a write error, as in flocklife's main
  CLI::App app{"Timing of the fast Life kernel (bit-sliced, temporally blocked) on an N x N torus"};
  std::vector<std::int64_t> sizes{8192, 16384, 32768};
  std::vector<int> ks{12, 16}, rows{24}, threads{128};
  std::vector<std::string> rules{"B3/S23", "B3678/S34678"};
  double updates = 64e9;
  int reps = 7;
  bool quick = false;
  std::string csvPath = "out/bench/fast_bench.csv";
  // Every value is checked here: the kernel reads 0 as "its default", so a 0 would run one
  // setting under another's label.
  const CLI::Validator updatesRange(
      [](std::string& s) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(s.c_str(), &end);
        const bool ok = !s.empty() && *end == '\0' && std::isfinite(v) && v >= 1 && v <= 1e18;
        return ok ? std::string() : "expected a number of cell updates in [1, 1e18], got '" + s + "'";
      },
      "");
  app.add_option("--sizes", sizes, "World sizes N (N x N torus)")->delimiter(',')->check(app::integerIn(1, 1 << 20));
  app.add_option("--k,--generations-per-launch", ks, "Generations per launch (1..32)")
      ->delimiter(',')
      ->check(app::integerIn(1, 32));
  app.add_option("--rows,--cells-per-thread", rows, "Column words per thread column (8, 12, 16 or 24)")
      ->delimiter(',')
      ->check(CLI::IsMember({8, 12, 16, 24}));
  app.add_option("--threads,--threads-per-block", threads,
                 "Threads per block, a multiple of 32; the block's warps form one tile (at most 256 threads with 24 "
                 "words)")
      ->delimiter(',')
      ->check(app::integerIn(32, 1024, 32));
  app.add_option("--rules", rules, "Rules in B/S notation")->delimiter(',');
  app.add_option("--updates", updates, "Cell updates per timed repetition (sets the generation count)")
      ->check(updatesRange);
  app.add_option("--reps", reps, "Timed repetitions (the median is reported)")->check(app::integerIn(1, 1000));
  app.add_option("--csv", csvPath, "CSV output path")->check(app::kFileName);
  app.add_flag("--quick", quick,
               "One small configuration (8192^2, k = 16, 16 words, 128 threads, B3/S23, 3 repetitions): a few seconds; "
               "the options above, when given, override these");
  app::decimalIntegers(app);
  app::decimalFloats(app);
  app::plainFlags(app);
  try {
    app::refuseEmptyListItems(app, argc, argv);
    app.parse(argc, argv);
    app::refuseRepeatedListItems(app);
  } catch (const CLI::ParseError& e) {
    const int status = app.exit(e);  // prints help, or the error naming the option
    return status == 0 ? 0 : 2;      // usage errors exit 2, as flocklife's do
  }
  if (quick) {  // options given on the command line win
    if (!app.count("--sizes")) sizes = {8192};
    if (!app.count("--k")) ks = {16};
    if (!app.count("--rows")) rows = {16};
    if (!app.count("--threads")) threads = {128};
    if (!app.count("--rules")) rules = {"B3/S23"};
    if (!app.count("--reps")) reps = 3;
  }
  try {
    for (const auto& r : rules) life::Rule::parse(r);  // bad rules fail before any timing
    std::string why;
    if (!usableDevice(&why)) throw InputError("the fast kernel needs a CUDA device: " + why);
    const auto& m = bench::machineInfo();
    std::printf("# fast_bench on %s (%s), commit %s\n", m.gpu.c_str(), m.host.c_str(), m.commit.c_str());
    bench::CsvWriter csv(csvPath, {"kernel", "rule", "width", "height", "k", "rows", "threads", "generations",
                                   "median_ms", "min_ms", "max_ms", "gcups", "copy_GBs", "copy_bound_gcups"});
    std::printf("%-14s %7s %3s %4s %5s %6s %10s %10s %9s %12s\n", "rule", "N", "k", "rows", "thr", "gens",
                "median_ms", "Gcells/s", "copy_GB/s", "1-pass bound");
    for (std::int64_t n : sizes) {
      const life::World start = soup(n, 12345);
      const double cells = double(n) * double(n);
      const std::uint64_t stateBytes = std::uint64_t(n) * std::uint64_t((n + 31) / 32) * 4u;
      const double copyGBs = bench::copyBandwidthGBs(stateBytes);
      // One generation in one pass reads and writes 1 bit per cell: 2 * cells / 8 bytes.
      const double boundGcups = copyGBs * 1e9 / (2.0 * cells / 8.0) * cells / 1e9;
      for (const auto& ruleText : rules)
        for (int k : ks)
          for (int r : rows)
            for (int t : threads) {
              const auto rule = life::Rule::parse(ruleText);
              std::uint64_t gens = std::uint64_t(updates / cells / k + 0.5) * std::uint64_t(k);
              if (gens == 0) gens = std::uint64_t(k);
              std::unique_ptr<life::Engine> engine;
              try {
                engine = life::makeEngine("fast", rule, life::KernelParams{t, r, k, 0});
                engine->load(start);
                engine->step(gens);  // warm-up (also lets the GPU clock ramp up)
              } catch (const std::invalid_argument& e) {  // e.g. a block too large for the registers
                std::printf("# skipped k %d rows %d threads %d: %s\n", k, r, t, e.what());
                continue;
              }
              engine->synchronize();
              EventTimer timer;
              std::vector<double> ms;
              for (int i = 0; i < reps; ++i) {
                timer.start();
                engine->step(gens);
                timer.stop();
                ms.push_back(timer.elapsedMs());
              }
              const auto s = bench::summarize(ms);
              const double gcups = cells * double(gens) / (s.median * 1e-3) / 1e9;
              std::printf("%-14s %7lld %3d %4d %5d %6llu %10.3f %10.0f %9.0f %12.0f\n", ruleText.c_str(),
                          static_cast<long long>(n), k, r, t, static_cast<unsigned long long>(gens), s.median, gcups,
                          copyGBs, boundGcups);
              std::fflush(stdout);
              csv.row({"fast", ruleText, std::to_string(n), std::to_string(n), std::to_string(k), std::to_string(r),
                       std::to_string(t), std::to_string(gens), bench::fmt(s.median), bench::fmt(s.min),
                       bench::fmt(s.max), bench::fmt(gcups, 6), bench::fmt(copyGBs), bench::fmt(boundGcups, 6)});
            }
    }
    if (csv.rows() == 0)  // it printed "# CSV: <path>" for a file it never wrote (found by a review)
      throw InputError("nothing was measured: every configuration was skipped (said above); --csv " + csv.path() +
                       " was not written");
    csv.finish();
    std::printf("# CSV: %s\n", csv.path().c_str());
  } catch (const InputError& e) {
    std::cerr << "fast_bench: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "fast_bench: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
