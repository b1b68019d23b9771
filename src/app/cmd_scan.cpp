// `flocklife scan-test`: the stream-compaction course's test report. For a power-of-two size and
// the same size minus 3, every scan method then every compaction method prints its time, the
// abridged result and "passed" or the first differing index; the CPU result is the reference.
#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>

#include "app/cli_checks.hpp"
#include "app/commands.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "common/scan.hpp"

namespace flocklife::app {

namespace {

/// The largest --size-log2: 49 x 2^25 < 2^31 - 1.
constexpr int kMaxSizeLog2 = 25;

struct ScanTestOptions {
  int sizeLog2 = 8;
  std::uint64_t seed = 0;
};

void printArray(const std::vector<int>& a) {
  std::printf("    [ ");
  const std::size_t n = a.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (n > 16 && i == 13) {
      std::printf("... ");
      i = n - 2;
    }
    std::printf("%3d ", a[i]);
  }
  std::printf("]\n");
}

void printHeader(const std::string& title) { std::printf("==== %s ====\n", title.c_str()); }

void printTime(double ms, bool gpu) {
  std::printf("   elapsed time: %gms    %s\n", ms, gpu ? "(CUDA Measured)" : "(std::chrono Measured)");
}

/// Prints "passed" or the first difference; returns whether it passed.
bool printComparison(const std::vector<int>& expect, const std::vector<int>& got) {
  if (got.size() != expect.size()) {
    std::printf("    FAILED: expected %zu elements, got %zu\n", expect.size(), got.size());
    return false;
  }
  const auto mismatch = std::mismatch(expect.begin(), expect.end(), got.begin());
  if (mismatch.first != expect.end()) {
    const auto i = std::size_t(mismatch.first - expect.begin());
    std::printf("    FAILED: first difference at index %zu: expected %d, got %d\n", i, *mismatch.first,
                *mismatch.second);
    return false;
  }
  std::printf("    passed\n");
  return true;
}

void printBanner(const char* text) {
  const std::string stars(std::string(text).size() + 6, '*');
  std::printf("\n%s\n** %s **\n%s\n", stars.c_str(), text, stars.c_str());
}

void runScanTest(const ScanTestOptions& o) {
  // Values are 0 to 49, so that every prefix sum of 2^25 of them stays within an int (49 x 2^25 <
  // 2^31 - 1); at 2^27 the sums passed it and printed as negative, and "passed" (both wrapped).
  if (o.sizeLog2 < 2 || o.sizeLog2 > kMaxSizeLog2)
    throw InputError("--size-log2 " + std::to_string(o.sizeLog2) + ": expected an integer in [2, 25] (the sums of 2^K "
                     "values up to 49 must fit an int)");
  const std::size_t size = std::size_t(1) << o.sizeLog2, npot = size - 3;
  // Inputs, their non-power-of-two copies, references and results: about 8 int arrays of `size`.
  requireHostMemory(8 * size * sizeof(int), "scan-test --size-log2 " + std::to_string(o.sizeLog2));
  std::string why;
  const bool gpu = usableDevice(&why).has_value();
  std::mt19937_64 rng(o.seed);
  int failures = 0;
  bool skipped = false;

  std::vector<int> a(size);
  std::uniform_int_distribution<int> scanValue(0, 49);
  for (auto& x : a) x = scanValue(rng);
  a.back() = 0;
  const std::vector<int> aNpot(a.begin(), a.begin() + std::ptrdiff_t(npot));

  printBanner("SCAN TESTS");
  printArray(a);
  std::vector<int> expect, expectNpot;
  for (scan::ScanMethod m : scan::kAllScanMethods) {
    const bool isGpu = scan::isGpu(m);
    if (isGpu && !gpu) {
      skipped = true;
      continue;
    }
    for (const bool pot : {true, false}) {
      printHeader(std::string(scan::label(m)) + " scan, " + (pot ? "power-of-two" : "non-power-of-two"));
      double ms = 0;
      const auto out = scan::exclusiveScan(m, pot ? a : aNpot, &ms);
      printTime(ms, isGpu);
      printArray(out);
      if (m == scan::ScanMethod::Cpu && pot) {
        expect = out;  // the reference
      } else if (m == scan::ScanMethod::Cpu) {
        expectNpot = out;  // must equal the reference's prefix
        failures += !printComparison(std::vector<int>(expect.begin(), expect.begin() + std::ptrdiff_t(npot)), out);
      } else {
        failures += !printComparison(pot ? expect : expectNpot, out);
      }
    }
  }

  std::vector<int> c(size);
  std::uniform_int_distribution<int> compactValue(0, 3);
  for (auto& x : c) x = compactValue(rng);
  c.back() = 0;
  const std::vector<int> cNpot(c.begin(), c.begin() + std::ptrdiff_t(npot));
  printBanner("STREAM COMPACTION TESTS");
  printArray(c);
  std::vector<int> keep, keepNpot;  // an independent reference: std::copy_if
  std::copy_if(c.begin(), c.end(), std::back_inserter(keep), [](int x) { return x != 0; });
  std::copy_if(cNpot.begin(), cNpot.end(), std::back_inserter(keepNpot), [](int x) { return x != 0; });
  for (scan::CompactMethod m : scan::kAllCompactMethods) {
    const bool isGpu = scan::isGpu(m);
    if (isGpu && !gpu) {
      skipped = true;
      continue;
    }
    for (const bool pot : {true, false}) {
      printHeader(std::string(scan::label(m)) + ", " + (pot ? "power-of-two" : "non-power-of-two"));
      double ms = 0;
      const auto out = scan::compact(m, pot ? c : cNpot, &ms);
      printTime(ms, isGpu);
      printArray(out);
      failures += !printComparison(pot ? keep : keepNpot, out);
    }
  }
  if (skipped) std::printf("\n(GPU sections skipped: %s)\n", why.c_str());
  if (failures) throw std::runtime_error("scan-test: " + std::to_string(failures) + " check(s) failed");
}

}  // namespace

void addScanTestCommand(CLI::App& app) {
  auto opts = std::make_shared<ScanTestOptions>();
  auto* cmd = app.add_subcommand("scan-test", "Course-style scan and stream-compaction test report");
  cmd->add_option("--size-log2", opts->sizeLog2, "Array size 2^K (and 2^K - 3), K in [2, 25]: the values are 0 to 49 and their sums must fit an int" + defaultText(opts->sizeLog2));
  cmd->add_option("--seed", opts->seed, "Seed of the random inputs" + defaultText(opts->seed))->check(kNonNegativeInteger);
  cmd->callback([opts] { runScanTest(*opts); });
}

}  // namespace flocklife::app
