#pragma once
/// @file bench_scan.hpp
/// `flocklife bench scan`: every scan, compaction and radix-sort method of common/scan.cuh against
/// CUB (cub::DeviceScan::ExclusiveSum, cub::DeviceSelect::If, cub::DeviceRadixSort::SortPairs)
/// and a device-to-device copy of the same bytes, all measured in the same run.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "bench_common.hpp"

namespace flocklife::bench {

/// Adds `scan` under the `bench` subcommand.
void addScanBench(CLI::App& bench);

/// One measured (operation, method, n): times in milliseconds (CUDA events, after a warm-up run
/// whose output was checked against CUB's), and the bytes the operation must move at least.
struct ScanBenchRow {
  std::string op;      ///< "scan", "compact" or "sort"
  std::string method;  ///< e.g. "decoupled", "cub", "copy"
  std::uint64_t n = 0;
  Stats ms;
  double bytes = 0;  ///< scan 8n; compact 4n + 4 numSelected; sort 16n (keys and values, in and out)
  int blockSize = 0;  ///< threads per block of the course scans (naive, work-efficient[-lean]); 0 for the others
  std::string skipped{};  ///< why this method was not measured (the CPU rows without host memory); empty when it was
};

/// Measures every method of `op` at size n, plus "cub" and "copy" (cudaMemcpy of the input's
/// bytes), and for "scan" and "compact" the serial CPU methods on the host (at most 5 repetitions,
/// std::chrono; rows with `skipped` set, and no times, where the host lacks the memory). `slowMethods` false skips the O(n log n) naive and the non-lean work-efficient
/// scans. The course scans (naive, work-efficient, work-efficient-lean) run once per entry of
/// `blockSizes` (threads per block: multiples of 32 in [32, 1024]).
/// @throws std::runtime_error naming method, n and index when a method's output differs from CUB's;
///         CudaError / OutOfMemoryError from the device. Defined only in CUDA builds.
std::vector<ScanBenchRow> runScanBenchGpu(const std::string& op, std::uint64_t n, int repetitions,
                                          bool slowMethods, const std::vector<int>& blockSizes);

}  // namespace flocklife::bench
