// CPU references of the scan primitives, method names, and the host-vector dispatch (the GPU
// halves live in scan_host.cu and exist only in CUDA builds).
#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>

#include "common/errors.hpp"
#include "common/scan.hpp"
#include "common/timer.hpp"

namespace flocklife::scan {

#ifdef FLOCKLIFE_HAVE_CUDA
namespace detail {  // scan_host.cu
std::vector<int> exclusiveScanGpu(ScanMethod m, const std::vector<int>& in, double* elapsedMs);
std::vector<int> compactGpu(CompactMethod m, const std::vector<int>& in, double* elapsedMs);
}  // namespace detail
#endif

const char* label(ScanMethod m) {
  switch (m) {
    case ScanMethod::Cpu: return "cpu";
    case ScanMethod::Naive: return "naive";
    case ScanMethod::WorkEfficient: return "work-efficient";
    case ScanMethod::WorkEfficientLean: return "work-efficient (needed threads only)";
    case ScanMethod::Thrust: return "thrust";
    case ScanMethod::Shared: return "shared-memory work-efficient";
    case ScanMethod::Decoupled: return "decoupled look-back";
  }
  return "?";
}
const char* name(ScanMethod m) {
  switch (m) {
    case ScanMethod::Cpu: return "cpu";
    case ScanMethod::Naive: return "naive";
    case ScanMethod::WorkEfficient: return "work-efficient";
    case ScanMethod::WorkEfficientLean: return "work-efficient-lean";
    case ScanMethod::Thrust: return "thrust";
    case ScanMethod::Shared: return "shared";
    case ScanMethod::Decoupled: return "decoupled";
  }
  return "?";
}
bool isGpu(ScanMethod m) { return m != ScanMethod::Cpu; }

const char* label(CompactMethod m) {
  switch (m) {
    case CompactMethod::CpuNoScan: return "cpu compact without scan";
    case CompactMethod::CpuScan: return "cpu compact with scan";
    case CompactMethod::WorkEfficient: return "work-efficient compact";
    case CompactMethod::Decoupled: return "decoupled-scan compact";
    case CompactMethod::Fused: return "production (fused single-pass) compact";
  }
  return "?";
}
const char* name(CompactMethod m) {
  switch (m) {
    case CompactMethod::CpuNoScan: return "cpu-no-scan";
    case CompactMethod::CpuScan: return "cpu-scan";
    case CompactMethod::WorkEfficient: return "work-efficient";
    case CompactMethod::Decoupled: return "decoupled";
    case CompactMethod::Fused: return "fused";
  }
  return "?";
}
bool isGpu(CompactMethod m) { return m != CompactMethod::CpuNoScan && m != CompactMethod::CpuScan; }

void exclusiveScanCpu(const int* in, int* out, std::size_t n) {
  unsigned sum = 0;  // unsigned: wraps modulo 2^32 like the GPU methods, no signed overflow
  for (std::size_t i = 0; i < n; ++i) {
    const unsigned v = unsigned(in[i]);
    out[i] = int(sum);
    sum += v;
  }
}

std::size_t compactCpuNoScan(const int* in, int* out, std::size_t n) {
  std::size_t k = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (in[i] != 0) out[k++] = in[i];
  return k;
}

std::size_t compactCpuScan(const int* in, int* out, std::size_t n, int* flags, int* index) {
  if (n == 0) return 0;
  for (std::size_t i = 0; i < n; ++i) flags[i] = in[i] != 0;
  exclusiveScanCpu(flags, index, n);
  for (std::size_t i = 0; i < n; ++i)
    if (flags[i]) out[index[i]] = in[i];
  return std::size_t(unsigned(index[n - 1])) + std::size_t(flags[n - 1]);
}

std::vector<int> exclusiveScan(ScanMethod m, const std::vector<int>& in, double* elapsedMs) {
  if (m == ScanMethod::Cpu) {
    std::vector<int> out(in.size());
    HostTimer t;
    exclusiveScanCpu(in.data(), out.data(), in.size());
    if (elapsedMs) *elapsedMs = t.elapsedMs();
    return out;
  }
#ifdef FLOCKLIFE_HAVE_CUDA
  return detail::exclusiveScanGpu(m, in, elapsedMs);
#else
  throw CudaError(std::string(label(m)) + " scan: this build has no CUDA support");
#endif
}

std::vector<int> compact(CompactMethod m, const std::vector<int>& in, double* elapsedMs) {
  if (!isGpu(m)) {
    std::vector<int> out(in.size());
    std::vector<int> flags(m == CompactMethod::CpuScan ? in.size() : 0), index(flags.size());  // scratch, untimed
    HostTimer t;
    const std::size_t k = m == CompactMethod::CpuNoScan
                              ? compactCpuNoScan(in.data(), out.data(), in.size())
                              : compactCpuScan(in.data(), out.data(), in.size(), flags.data(), index.data());
    if (elapsedMs) *elapsedMs = t.elapsedMs();
    out.resize(k);
    return out;
  }
#ifdef FLOCKLIFE_HAVE_CUDA
  return detail::compactGpu(m, in, elapsedMs);
#else
  throw CudaError(std::string(label(m)) + ": this build has no CUDA support");
#endif
}

namespace {
void checkSortArgs(std::size_t keys, std::size_t values, int beginBit, int endBit) {
  if (keys != values)
    throw std::invalid_argument("radix sort: " + std::to_string(keys) + " keys but " + std::to_string(values) +
                                " values");
  if (beginBit < 0 || beginBit > endBit || endBit > 32)
    throw std::invalid_argument("radix sort: bit range [" + std::to_string(beginBit) + ", " + std::to_string(endBit) +
                                ") must satisfy 0 <= beginBit <= endBit <= 32");
}
}  // namespace

void radixSortPairsCpu(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values, int beginBit,
                       int endBit) {
  checkSortArgs(keys.size(), values.size(), beginBit, endBit);
  const std::size_t n = keys.size();
  std::vector<std::uint32_t> k2(n), v2(n);
  for (int shift = beginBit; shift < endBit; shift += 8) {
    const int bits = std::min(8, endBit - shift);
    const std::uint32_t mask = (1u << bits) - 1u;
    std::array<std::size_t, 257> start{};
    for (std::size_t i = 0; i < n; ++i) ++start[((keys[i] >> shift) & mask) + 1];
    for (int d = 0; d < 256; ++d) start[d + 1] += start[d];
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = start[(keys[i] >> shift) & mask]++;
      k2[j] = keys[i];
      v2[j] = values[i];
    }
    keys.swap(k2);
    values.swap(v2);
  }
}

std::uint64_t sumBytesCpu(const std::vector<std::uint8_t>& in) {
  std::uint64_t s = 0;
  for (auto v : in) s += v;
  return s;
}
std::int64_t sumIntsCpu(const std::vector<int>& in) {
  std::int64_t s = 0;
  for (auto v : in) s += v;
  return s;
}

#ifndef FLOCKLIFE_HAVE_CUDA
void radixSortPairsGpu(std::vector<std::uint32_t>&, std::vector<std::uint32_t>&, int, int, double*) {
  throw CudaError("GPU radix sort: this build has no CUDA support");
}
std::uint64_t sumBytesGpu(const std::vector<std::uint8_t>&) {
  throw CudaError("GPU byte sum: this build has no CUDA support");
}
std::int64_t sumIntsGpu(const std::vector<int>&) { throw CudaError("GPU int sum: this build has no CUDA support"); }
#endif

}  // namespace flocklife::scan
