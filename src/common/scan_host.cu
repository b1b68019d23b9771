// The exclusiveScan(ScanMethod, ...) dispatcher over device pointers, and the host-vector front end
// of scan.hpp: copy in, poison the output, time the algorithm with CUDA events, copy out.
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/cuda_timer.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan {

namespace detail {

void requireTemp(const char* what, std::size_t need, std::size_t have, const void* d_temp) {
  if (have < need || (need > 0 && d_temp == nullptr))
    throw std::invalid_argument(std::string(what) + ": scratch of " + std::to_string(need) + " bytes needed, " +
                                std::to_string(d_temp ? have : 0) + " given");
}

std::vector<int> exclusiveScanGpu(ScanMethod m, const std::vector<int>& in, double* elapsedMs) {
  const std::size_t n = in.size();
  DeviceBuffer<int> d_in(n, "scan input"), d_out(n, "scan output");
  DeviceBuffer<std::uint8_t> temp(scanTempBytes(m, n), "scan scratch");
  d_in.copyFromHost(in);
  d_out.fillBytes(0xFF);
  FL_CUDA_CHECK(cudaDeviceSynchronize());
  EventTimer t;
  t.start();
  exclusiveScan(m, d_in.data(), d_out.data(), n, temp.data(), temp.size());
  t.stop();
  const double ms = t.elapsedMs();
  if (elapsedMs) *elapsedMs = ms;
  return d_out.copyToHost();
}

std::vector<int> compactGpu(CompactMethod m, const std::vector<int>& in, double* elapsedMs) {
  const std::size_t n = in.size();
  DeviceBuffer<int> d_in(n, "compaction input"), d_out(n, "compaction output");
  DeviceBuffer<unsigned long long> d_count(1, "compaction count");
  DeviceBuffer<std::uint8_t> temp(compactTempBytes(m, n), "compaction scratch");
  d_in.copyFromHost(in);
  d_out.fillBytes(0xFF);
  d_count.fillBytes(0xFF);
  FL_CUDA_CHECK(cudaDeviceSynchronize());
  EventTimer t;
  t.start();
  compact(m, d_in.data(), d_out.data(), n, d_count.data(), temp.data(), temp.size());
  t.stop();
  const double ms = t.elapsedMs();
  if (elapsedMs) *elapsedMs = ms;
  const unsigned long long count = d_count.copyToHost()[0];
  if (count > n)
    throw std::logic_error(std::string(label(m)) + ": count " + std::to_string(count) + " exceeds n = " +
                           std::to_string(n));
  std::vector<int> out = d_out.copyToHost();
  out.resize(count);
  return out;
}

}  // namespace detail

std::size_t scanTempBytes(ScanMethod m, std::size_t n) {
  switch (m) {
    case ScanMethod::Naive: return detail::naiveTempBytes(n);
    case ScanMethod::WorkEfficient:
    case ScanMethod::WorkEfficientLean: return detail::workEfficientTempBytes(n);
    case ScanMethod::Thrust: return 0;
    case ScanMethod::Shared: return detail::sharedTempBytes(n);
    case ScanMethod::Decoupled: return exclusiveScanTempBytes(n);
    case ScanMethod::Cpu: break;
  }
  throw std::invalid_argument(std::string("scanTempBytes: '") + name(m) + "' is not a GPU method");
}

void exclusiveScan(ScanMethod m, const int* d_in, int* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   cudaStream_t stream) {
  detail::requireTemp(label(m), scanTempBytes(m, n), tempBytes, d_temp);
  switch (m) {
    case ScanMethod::Naive: return detail::scanNaive(d_in, d_out, n, d_temp, stream, kBlockSize);
    case ScanMethod::WorkEfficient: return detail::scanWorkEfficient(d_in, d_out, n, d_temp, false, stream, kBlockSize);
    case ScanMethod::WorkEfficientLean: return detail::scanWorkEfficient(d_in, d_out, n, d_temp, true, stream, kBlockSize);
    case ScanMethod::Thrust: return detail::scanThrust(d_in, d_out, n, stream);
    case ScanMethod::Shared: return detail::scanShared(d_in, d_out, n, d_temp, stream);
    case ScanMethod::Decoupled: return exclusiveScan(d_in, d_out, n, d_temp, tempBytes, stream);
    case ScanMethod::Cpu: break;
  }
  throw std::invalid_argument("exclusiveScan: cpu is not a device method");
}

void radixSortPairsGpu(std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& values, int beginBit,
                       int endBit, double* elapsedMs) {
  if (keys.size() != values.size())
    throw std::invalid_argument("radix sort: " + std::to_string(keys.size()) + " keys but " +
                                std::to_string(values.size()) + " values");
  const std::size_t n = keys.size();
  DeviceBuffer<std::uint32_t> kIn(n, "sort keys"), vIn(n, "sort values"), kOut(n, "sorted keys"),
      vOut(n, "sorted values");
  DeviceBuffer<std::uint8_t> temp(radixSortPairsTempBytes(n), "sort scratch");
  kIn.copyFromHost(keys);
  vIn.copyFromHost(values);
  kOut.fillBytes(0xFF);
  vOut.fillBytes(0xFF);
  FL_CUDA_CHECK(cudaDeviceSynchronize());
  EventTimer t;
  t.start();
  radixSortPairs(kIn.data(), kOut.data(), vIn.data(), vOut.data(), n, beginBit, endBit, temp.data(), temp.size());
  t.stop();
  const double ms = t.elapsedMs();
  if (elapsedMs) *elapsedMs = ms;
  keys = kOut.copyToHost();
  values = vOut.copyToHost();
}

std::uint64_t sumBytesGpu(const std::vector<std::uint8_t>& in) {
  DeviceBuffer<std::uint8_t> d(in.size(), "byte sum input");
  d.copyFromHost(in);
  return sumBytes(d.data(), d.size());
}

std::int64_t sumIntsGpu(const std::vector<int>& in) {
  DeviceBuffer<int> d(in.size(), "int sum input");
  d.copyFromHost(in);
  return sumInts(d.data(), d.size());
}

}  // namespace flocklife::scan
