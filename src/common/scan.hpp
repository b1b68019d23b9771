#pragma once
/// @file scan.hpp
/// Exclusive scan (prefix sum), stream compaction, LSD radix sort and reductions over host
/// vectors: the CPU references and a host-vector front end to every GPU method (the harness of
/// `flocklife scan-test`, the tests and the benchmarks). No CUDA types: usable from plain C++.
/// Modules that hold device pointers use common/scan.cuh instead.
///
/// Algorithms: Hillis & Steele, "Data parallel algorithms", CACM 1986 (naive scan); Blelloch,
/// "Prefix sums and their applications", CMU-CS-90-190, 1990 (work-efficient up-sweep/down-sweep);
/// Harris, Sengupta & Owens, "Parallel prefix sum (scan) with CUDA", GPU Gems 3 ch. 39, 2007
/// (shared-memory scan with bank-conflict avoidance and block sums); Merrill & Garland,
/// "Single-pass parallel prefix scan with decoupled look-back", NVIDIA NVR-2016-002 (production
/// scan and the fused compaction).
///
/// Every GPU method here copies the input to the device, runs, and copies back; the elapsed time
/// it reports (CUDA events) covers the algorithm only, not the two copies. GPU methods throw
/// CudaError when the build has no CUDA or the device fails, OutOfMemoryError when the buffers do
/// not fit.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flocklife::scan {

/// Exclusive-scan methods, in the order of the course report.
enum class ScanMethod {
  Cpu,                ///< serial loop (the reference)
  Naive,              ///< Hillis-Steele, ping-pong global buffers, ceil(log2 n) launches
  WorkEfficient,      ///< Blelloch up-sweep/down-sweep, padded to a power of two, n threads per level
  WorkEfficientLean,  ///< the same, launching only the threads each level needs
  Thrust,             ///< thrust::exclusive_scan
  Shared,             ///< GPU Gems 3 ch. 39: shared memory, bank-conflict-free, recursive block sums
  Decoupled,          ///< single pass with decoupled look-back, int4 loads (the production scan)
};
inline constexpr ScanMethod kAllScanMethods[] = {ScanMethod::Cpu,    ScanMethod::Naive,
                                                 ScanMethod::WorkEfficient, ScanMethod::WorkEfficientLean,
                                                 ScanMethod::Thrust, ScanMethod::Shared,
                                                 ScanMethod::Decoupled};
/// Report label, e.g. "work-efficient" (as in "==== work-efficient scan, power-of-two ====").
const char* label(ScanMethod m);
/// Short name for CSV files and flags, e.g. "work-efficient-lean".
const char* name(ScanMethod m);
bool isGpu(ScanMethod m);

/// Stream-compaction methods (keep the non-zero elements, stable).
enum class CompactMethod {
  CpuNoScan,      ///< one serial loop that copies the non-zero elements
  CpuScan,        ///< CPU map -> exclusive scan -> scatter
  WorkEfficient,  ///< GPU map -> work-efficient scan (lean launches) -> scatter
  Decoupled,      ///< GPU map -> production scan -> scatter
  Fused,          ///< GPU single pass: flags, look-back over counts and scatter in one kernel
};
inline constexpr CompactMethod kAllCompactMethods[] = {CompactMethod::CpuNoScan, CompactMethod::CpuScan,
                                                       CompactMethod::WorkEfficient, CompactMethod::Decoupled,
                                                       CompactMethod::Fused};
/// Report label, e.g. "cpu compact without scan".
const char* label(CompactMethod m);
const char* name(CompactMethod m);
bool isGpu(CompactMethod m);

// ---- CPU references (pointer forms; in == out is allowed for the scan) ----

/// out[i] = in[0] + ... + in[i-1], out[0] = 0; n elements (n may be 0). Sums wrap modulo 2^32
/// (computed in unsigned arithmetic). in and out may be the same array.
void exclusiveScanCpu(const int* in, int* out, std::size_t n);
/// Copies the non-zero elements of in[0..n) to out in order; returns how many. out must hold n.
std::size_t compactCpuNoScan(const int* in, int* out, std::size_t n);
/// The same through flags -> exclusive scan -> scatter (the GPU algorithm run serially). `flags`
/// and `index` are the caller's scratch of n ints each (so that a timing of it leaves out their
/// allocation, as the GPU methods' timings leave out theirs); their contents are overwritten.
std::size_t compactCpuScan(const int* in, int* out, std::size_t n, int* flags, int* index);

// ---- host-vector front end to every method ----

/// Exclusive scan of `in` with method `m`; `elapsedMs`, when given, receives the algorithm's time
/// (std::chrono for Cpu, CUDA events otherwise), excluding host<->device copies.
std::vector<int> exclusiveScan(ScanMethod m, const std::vector<int>& in, double* elapsedMs = nullptr);
/// Non-zero elements of `in`, in input order, with method `m`; timing as for exclusiveScan.
std::vector<int> compact(CompactMethod m, const std::vector<int>& in, double* elapsedMs = nullptr);

/// Stable LSD radix sort of (key, value) pairs by the key bits [beginBit, endBit) (bits outside
/// the range are ignored for ordering but kept). keys.size() must equal values.size().
/// Cpu: serial counting sort per 8-bit digit. Gpu: 4-bit digits, per-tile histograms, our
/// production scan, stable scatter (see scan.cuh).
/// @throws std::invalid_argument on a size mismatch or 0 <= beginBit <= endBit <= 32 violated.
void radixSortPairsCpu(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values,
                       int beginBit = 0, int endBit = 32);
void radixSortPairsGpu(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values,
                       int beginBit = 0, int endBit = 32, double* elapsedMs = nullptr);

/// Sum of bytes (e.g. the population of a Life world stored one byte per cell) and of int32
/// values, exact in 64 bits.
std::uint64_t sumBytesCpu(const std::vector<std::uint8_t>& in);
std::int64_t sumIntsCpu(const std::vector<int>& in);
std::uint64_t sumBytesGpu(const std::vector<std::uint8_t>& in);
std::int64_t sumIntsGpu(const std::vector<int>& in);

}  // namespace flocklife::scan
