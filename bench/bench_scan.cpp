// `flocklife bench scan`: sweeps n over 2^k and 2^k - 3, runs every method of each operation on the
// GPU (and the serial CPU scan and compactions on the host), writes one CSV row per (operation,
// method, n) with GB/s and the ratios to CUB and to a copy of the same bytes measured in the same
// run, and prints a table.
#include "bench_scan.hpp"

#include <cstdio>
#include <map>
#include <memory>
#include <sstream>

#include "app/cli_checks.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"

namespace flocklife::bench {

namespace {

struct ScanBenchOptions {
  bool quick = false;
  int minLog2 = 20, maxLog2 = 28;
  std::vector<int> log2s;  ///< --log2: these exponents instead of the min..max range
  int repetitions = 20;
  std::vector<std::string> ops = {"scan", "compact", "sort"};
  bool noSlow = false;  ///< --no-slow: skip the naive and plain work-efficient scans
  std::vector<int> blockSizes = {128};  ///< --block-sizes: threads per block of the course scans
  std::string csv = "out/bench/scan.csv";
  /// Options given on the command line, which --quick leaves as they are.
  bool rangeGiven = false, repetitionsGiven = false;
};

void runScanBench(ScanBenchOptions o) {
  if (o.minLog2 < 2 || o.maxLog2 > 31 || o.minLog2 > o.maxLog2)
    throw InputError("--min-log2/--max-log2: expected 2 <= min <= max <= 31, got " + std::to_string(o.minLog2) +
                     " and " + std::to_string(o.maxLog2));
  if (o.repetitions < 1) throw InputError("--reps " + std::to_string(o.repetitions) + ": expected at least 1");
  for (int k : o.log2s)
    if (k < 2 || k > 31) throw InputError("--log2 " + std::to_string(k) + ": expected 2 <= K <= 31");
  std::vector<int> exps;
  if (!o.log2s.empty()) {
    exps = o.log2s;
  } else if (o.quick && !o.rangeGiven) {
    exps = {20, 24, 28};
  } else {
    for (int k = o.minLog2; k <= o.maxLog2; ++k) exps.push_back(k);
  }
  if (o.quick && !o.repetitionsGiven) o.repetitions = std::min(o.repetitions, 10);
  // Every method here is measured against CUB and a device copy (the CPU rows too, which time the
  // serial loops on the host): without a device this is a usage error, as for `life --kernel fast`,
  // reported before anything runs.
  std::string why;
  if (!usableDevice(&why)) throw InputError("bench scan needs a CUDA device: " + why);
#ifdef FLOCKLIFE_HAVE_CUDA
  std::vector<std::uint64_t> sizes;
  for (int k : exps) {
    sizes.push_back(std::uint64_t(1) << k);
    sizes.push_back((std::uint64_t(1) << k) - 3);
  }
  CsvWriter csv(o.csv, {"op", "method", "n", "log2n", "median_ms", "min_ms", "max_ms", "reps", "gbps",
                        "ratio_to_cub", "ratio_to_copy", "block_size"});
  std::printf("%-8s %-20s %5s %12s %10s %9s %8s %8s\n", "op", "method", "block", "n", "median_ms", "GB/s", "x cub",
              "x copy");
  Progress progress(o.ops.size() * sizes.size());
  for (const auto& op : o.ops) {
    for (std::uint64_t n : sizes) {
      progress.tick(op + " n=" + std::to_string(n));
      const auto rows = runScanBenchGpu(op, n, o.repetitions, !o.noSlow, o.blockSizes);
      double cubMs = 0, copyMs = 0;
      for (const auto& r : rows) {
        if (r.method == "cub") cubMs = r.ms.median;
        if (r.method == "copy") copyMs = r.ms.median;
      }
      for (const auto& r : rows) {
        if (!r.skipped.empty()) {  // a table row, as bench life's skipped sizes; none in the CSV
          progress.print("%-8s %-20s %5s %12llu skipped: %s\n", r.op.c_str(), r.method.c_str(), "-",
                         (unsigned long long)r.n, r.skipped.c_str());
          continue;
        }
        const double gbps = r.bytes / (r.ms.median * 1e-3) / 1e9;
        const double toCub = cubMs > 0 ? r.ms.median / cubMs : 0, toCopy = copyMs > 0 ? r.ms.median / copyMs : 0;
        int log2n = 0;
        while ((std::uint64_t(1) << (log2n + 1)) <= r.n) ++log2n;
        const std::string block = r.blockSize ? std::to_string(r.blockSize) : std::string();
        csv.row({r.op, r.method, std::to_string(r.n), std::to_string(log2n), fmt(r.ms.median, kCsvDigits), fmt(r.ms.min, kCsvDigits),
                 fmt(r.ms.max, kCsvDigits), std::to_string(r.ms.repetitions), fmt(gbps, 5), fmt(toCub, 4), fmt(toCopy, 4), block});
        progress.print("%-8s %-20s %5s %12llu %10.4f %9.1f %8.3f %8.3f\n", r.op.c_str(), r.method.c_str(),
                    block.empty() ? "-" : block.c_str(), (unsigned long long)r.n, r.ms.median, gbps, toCub, toCopy);
      }
    }
  }
  progress.done();
  csv.finish();
  std::printf("CSV: %s (x cub and x copy are time ratios: below 1 is faster than the reference)\n",
              csv.path().c_str());
#endif
}

}  // namespace

void addScanBench(CLI::App& bench) {
  auto opts = std::make_shared<ScanBenchOptions>();
  auto* cmd = bench.add_subcommand("scan", "Scan, stream compaction and radix sort vs CUB and a device copy");
  cmd->add_flag("--quick", opts->quick, "Short sweep: n = 2^20, 2^24, 2^28 and each minus 3, at most 10 repetitions; "
                "--log2, --min-log2/--max-log2 and --reps, when given, override these");
  cmd->add_option("--min-log2", opts->minLog2, "Smallest n = 2^K (also 2^K - 3)" + app::defaultText(opts->minLog2));
  cmd->add_option("--max-log2", opts->maxLog2, "Largest n = 2^K (also 2^K - 3)" + app::defaultText(opts->maxLog2));
  cmd->add_option("--log2", opts->log2s, "Only these n = 2^K (and 2^K - 3), e.g. 24,28; overrides the range")
      ->delimiter(',');
  cmd->add_option("--reps", opts->repetitions,
                  "Timed repetitions per method (median reported; the serial CPU methods at most 5)" +
                      app::defaultText(opts->repetitions));
  cmd->add_option("--ops", opts->ops, "Operations to run, e.g. scan,compact")
      ->delimiter(',')
      ->check(CLI::IsMember({"scan", "compact", "sort"}));
  cmd->add_flag("--no-slow", opts->noSlow, "Skip the naive and plain work-efficient scans");
  cmd->add_option("--block-sizes", opts->blockSizes,
                  "Threads per block of the course scans (naive, work-efficient, work-efficient-lean), each timed at "
                  "every size given, e.g. 64,128,256,512,1024 (multiples of 32 up to 1024; default 128)")
      ->delimiter(',')
      ->check(app::integerIn(32, 1024, 32));
  cmd->add_option("--csv", opts->csv, "CSV output path" + app::defaultText(opts->csv))->check(app::kFileName);
  cmd->callback([opts, cmd] {
    opts->rangeGiven = cmd->count("--min-log2") + cmd->count("--max-log2") > 0;
    opts->repetitionsGiven = cmd->count("--reps") > 0;
    runScanBench(*opts);
  });
}

}  // namespace flocklife::bench
