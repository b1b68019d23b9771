// GPU half of `flocklife bench scan`: inputs generated on the device, each method checked against
// CUB once, then timed with CUDA events. CUB is included only here.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_scan.hpp"
#include "common/cuda_timer.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/memory.hpp"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"  // the decoupled scan at other tile sizes (tuning rows)

namespace flocklife::bench {
namespace {

__device__ __forceinline__ std::uint32_t hash32(std::uint64_t x) {  // splitmix64 finaliser
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return std::uint32_t((x ^ (x >> 31)) >> 32);
}

/// out[i] = random in [0, modulus), last element 0 (as in the course's inputs).
__global__ void fillKernel(std::uint64_t n, int* out, std::uint32_t modulus) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride())
    out[i] = i == n - 1 ? 0 : int(hash32(i) % modulus);
}
__global__ void fillPairsKernel(std::uint64_t n, std::uint32_t* keys, std::uint32_t* values) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    keys[i] = hash32(i ^ 0xABCDEF);
    values[i] = std::uint32_t(i);
  }
}
/// *firstBad = min index where a and b differ (stays ~0 when equal).
__global__ void firstMismatchKernel(std::uint64_t n, const std::uint32_t* a, const std::uint32_t* b,
                                    unsigned long long* firstBad) {
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride())
    if (a[i] != b[i]) atomicMin(firstBad, (unsigned long long)i);
}

struct NonZero {
  __device__ bool operator()(int x) const { return x != 0; }
};

template <class F>
Stats timeIt(F&& f, int repetitions) {
  EventTimer t;
  std::vector<double> ms;
  for (int r = 0; r < repetitions; ++r) {
    t.start();
    f();
    t.stop();
    ms.push_back(t.elapsedMs());
  }
  return summarize(ms);
}

/// The CPU methods' repetitions: at most 5 (a serial pass over 2^28 elements takes a second or so).
constexpr int kCpuRepetitions = 5;

/// Why the host cannot hold `bytes` for the CPU rows ("needs ... of host memory, ... available");
/// empty when it can. Those rows are then skipped and the GPU rows still run, as bench life skips a
/// size it cannot hold.
std::string hostLacks(std::uint64_t bytes) {
  const std::uint64_t available = availableHostBytes();
  if (available == 0 || bytes <= available) return std::string();
  return "needs " + formatBytes(bytes) + " of host memory, " + formatBytes(available) + " available";
}

/// A serial CPU method through the library's host front end (scan::exclusiveScan / scan::compact
/// with a CPU method: the algorithm alone timed with a host timer): one untimed call whose output
/// must equal `expected` (CUB's), then min(repetitions, kCpuRepetitions) timed calls.
/// @throws std::runtime_error "<what>: output differs from CUB's".
template <class Run>
Stats timeCpuMethod(Run&& run, const std::vector<int>& expected, const std::string& what, int repetitions) {
  double ms = 0;
  if (run(&ms) != expected) throw std::runtime_error(what + ": output differs from CUB's");
  std::vector<double> samples;
  for (int r = 0; r < std::min(repetitions, kCpuRepetitions); ++r) {
    run(&ms);
    samples.push_back(ms);
  }
  return summarize(samples);
}

template <class T>
void expectEqual(const T* d_a, const T* d_b, std::uint64_t n, const std::string& what) {
  if (n == 0) return;
  DeviceBuffer<unsigned long long> bad(1);
  bad.fillBytes(0xFF);
  firstMismatchKernel<<<blocksFor(n), kBlockSize>>>(n, reinterpret_cast<const std::uint32_t*>(d_a),
                                                     reinterpret_cast<const std::uint32_t*>(d_b), bad.data());
  FL_CUDA_CHECK_LAUNCH();
  const auto i = bad.copyToHost()[0];
  if (i != ~0ull) throw std::runtime_error(what + ": output differs from CUB's at index " + std::to_string(i));
}

unsigned long long readCount(const DeviceBuffer<unsigned long long>& c) { return c.copyToHost()[0]; }

std::vector<ScanBenchRow> benchScan(std::uint64_t n, int reps, bool slow, const std::vector<int>& blockSizes) {
  std::vector<ScanBenchRow> rows;
  DeviceBuffer<int> in(n, "scan input"), ref(n, "CUB scan output"), out(n, "scan output");
  fillKernel<<<blocksFor(n), kBlockSize>>>(n, in.data(), 50);
  FL_CUDA_CHECK_LAUNCH();
  std::size_t cubBytes = 0;
  FL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, cubBytes, in.data(), ref.data(), (long long)n));
  DeviceBuffer<std::uint8_t> cubTemp(cubBytes, "CUB scratch");
  auto cub = [&] {
    FL_CUDA_CHECK(cub::DeviceScan::ExclusiveSum(cubTemp.data(), cubBytes, in.data(), ref.data(), (long long)n));
  };
  ref.fillBytes(0xFF);
  cub();
  auto copy = [&] {
    if (n) FL_CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice));
  };
  copy();
  rows.push_back({"scan", "copy", n, timeIt(copy, reps), 8.0 * double(n)});
  rows.push_back({"scan", "cub", n, timeIt(cub, reps), 8.0 * double(n)});
  if (const std::string lacks = hostLacks(3 * n * sizeof(int)); !lacks.empty()) {
    rows.push_back({"scan", scan::name(scan::ScanMethod::Cpu), n, {}, 0, 0, lacks});
  } else {  // the serial CPU scan on the host (the course's CPU line)
    const std::vector<int> hostIn = in.copyToHost();
    auto run = [&](double* ms) { return scan::exclusiveScan(scan::ScanMethod::Cpu, hostIn, ms); };
    rows.push_back({"scan", scan::name(scan::ScanMethod::Cpu), n,
                    timeCpuMethod(run, ref.copyToHost(), "scan cpu n=" + std::to_string(n), reps), 8.0 * double(n)});
  }
  for (scan::ScanMethod m : scan::kAllScanMethods) {
    if (!scan::isGpu(m)) continue;
    if (!slow && (m == scan::ScanMethod::Naive || m == scan::ScanMethod::WorkEfficient)) continue;
    DeviceBuffer<std::uint8_t> temp(scan::scanTempBytes(m, n), "scan scratch");
    const bool course = m == scan::ScanMethod::Naive || m == scan::ScanMethod::WorkEfficient ||
                        m == scan::ScanMethod::WorkEfficientLean;
    for (int blockSize : course ? blockSizes : std::vector<int>{0}) {
      auto run = [&] {
        if (m == scan::ScanMethod::Naive)
          scan::detail::scanNaive(in.data(), out.data(), n, temp.data(), nullptr, blockSize);
        else if (course)
          scan::detail::scanWorkEfficient(in.data(), out.data(), n, temp.data(), m == scan::ScanMethod::WorkEfficientLean,
                                          nullptr, blockSize);
        else
          scan::exclusiveScan(m, in.data(), out.data(), n, temp.data(), temp.size());
      };
      out.fillBytes(0xFF);
      run();
      expectEqual(out.data(), ref.data(), n,
                  std::string("scan ") + scan::name(m) + " n=" + std::to_string(n) +
                      (course ? " block size " + std::to_string(blockSize) : std::string()));
      rows.push_back({"scan", scan::name(m), n, timeIt(run, reps), 8.0 * double(n), blockSize});
    }
  }
  // Tuning rows: the single-pass scan's other tunings (tuning 0 is the production "decoupled" row).
  DeviceBuffer<std::uint8_t> temp(scan::exclusiveScanTempBytes(n), "scan scratch");
  for (int tuning = 1; tuning < scan::detail::kScanTunings; ++tuning) {
    auto run = [&] {
      scan::detail::scanDecoupled(reinterpret_cast<const unsigned*>(in.data()), reinterpret_cast<unsigned*>(out.data()),
                                  n, temp.data(), temp.size(), tuning, nullptr);
    };
    const std::string method = std::string("decoupled-") + scan::detail::scanTuningName(tuning);
    out.fillBytes(0xFF);
    run();
    expectEqual(out.data(), ref.data(), n, "scan " + method + " n=" + std::to_string(n));
    rows.push_back({"scan", method, n, timeIt(run, reps), 8.0 * double(n)});
  }
  return rows;
}

std::vector<ScanBenchRow> benchCompact(std::uint64_t n, int reps) {
  std::vector<ScanBenchRow> rows;
  DeviceBuffer<int> in(n, "compaction input"), ref(n, "CUB compaction output"), out(n, "compaction output");
  DeviceBuffer<unsigned long long> refCount(1), count(1);
  fillKernel<<<blocksFor(n), kBlockSize>>>(n, in.data(), 4);
  FL_CUDA_CHECK_LAUNCH();
  std::size_t cubBytes = 0;
  FL_CUDA_CHECK(cub::DeviceSelect::If(nullptr, cubBytes, in.data(), ref.data(), refCount.data(), (long long)n,
                                      NonZero{}));
  DeviceBuffer<std::uint8_t> cubTemp(cubBytes, "CUB scratch");
  auto cub = [&] {
    FL_CUDA_CHECK(cub::DeviceSelect::If(cubTemp.data(), cubBytes, in.data(), ref.data(), refCount.data(),
                                        (long long)n, NonZero{}));
  };
  ref.fillBytes(0xFF);
  refCount.fillBytes(0);
  cub();
  const unsigned long long k = n ? readCount(refCount) : 0;
  const double bytes = 4.0 * double(n) + 4.0 * double(k);
  auto copy = [&] {
    if (n) FL_CUDA_CHECK(cudaMemcpyAsync(out.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice));
  };
  copy();
  rows.push_back({"compact", "copy", n, timeIt(copy, reps), bytes});
  rows.push_back({"compact", "cub", n, timeIt(cub, reps), bytes});
  // The serial CPU compactions on the host, without and with a scan (the course's CPU lines); the one
  // with a scan holds two more n-element arrays (flags and their scan).
  if (const std::string lacks = hostLacks(5 * n * sizeof(int)); !lacks.empty()) {
    for (scan::CompactMethod m : {scan::CompactMethod::CpuNoScan, scan::CompactMethod::CpuScan})
      rows.push_back({"compact", scan::name(m), n, {}, 0, 0, lacks});
  } else {
    const std::vector<int> hostIn = in.copyToHost();
    std::vector<int> expected = ref.copyToHost();
    expected.resize(k);  // CUB's selected elements
    for (scan::CompactMethod m : {scan::CompactMethod::CpuNoScan, scan::CompactMethod::CpuScan}) {
      auto run = [&](double* ms) { return scan::compact(m, hostIn, ms); };
      const std::string what = std::string("compact ") + scan::name(m) + " n=" + std::to_string(n);
      rows.push_back({"compact", scan::name(m), n, timeCpuMethod(run, expected, what, reps), bytes});
    }
  }
  for (scan::CompactMethod m : scan::kAllCompactMethods) {
    if (!scan::isGpu(m)) continue;
    DeviceBuffer<std::uint8_t> temp(scan::compactTempBytes(m, n), "compaction scratch");
    auto run = [&] { scan::compact(m, in.data(), out.data(), n, count.data(), temp.data(), temp.size()); };
    out.fillBytes(0xFF);
    count.fillBytes(0xFF);
    run();
    const std::string what = std::string("compact ") + scan::name(m) + " n=" + std::to_string(n);
    const auto got = readCount(count);
    if (got != k) throw std::runtime_error(what + ": count " + std::to_string(got) + ", CUB " + std::to_string(k));
    expectEqual(out.data(), ref.data(), k, what);
    rows.push_back({"compact", scan::name(m), n, timeIt(run, reps), bytes});
  }
  // Tuning rows: the fused compaction's other tunings (tuning 0 is the production "fused" row).
  DeviceBuffer<std::uint8_t> temp(scan::compactTempBytes(scan::CompactMethod::Fused, n), "compaction scratch");
  for (int tuning = 1; tuning < scan::detail::kCompactTunings; ++tuning) {
    const std::string method = std::string("fused-") + scan::detail::compactTuningName(tuning);
    auto run = [&] { scan::detail::compactFused(in.data(), out.data(), n, count.data(), temp.data(), nullptr, tuning); };
    out.fillBytes(0xFF);
    count.fillBytes(0xFF);
    run();
    const auto got = readCount(count);
    if (got != k) throw std::runtime_error(method + " n=" + std::to_string(n) + ": count " + std::to_string(got));
    expectEqual(out.data(), ref.data(), k, method + " n=" + std::to_string(n));
    rows.push_back({"compact", method, n, timeIt(run, reps), bytes});
  }
  return rows;
}

std::vector<ScanBenchRow> benchSort(std::uint64_t n, int reps) {
  std::vector<ScanBenchRow> rows;
  DeviceBuffer<std::uint32_t> kIn(n, "sort keys"), vIn(n, "sort values"), kRef(n, "CUB keys"), vRef(n, "CUB values"),
      kOut(n, "sorted keys"), vOut(n, "sorted values");
  fillPairsKernel<<<blocksFor(n), kBlockSize>>>(n, kIn.data(), vIn.data());
  FL_CUDA_CHECK_LAUNCH();
  std::size_t cubBytes = 0;
  FL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, cubBytes, kIn.data(), kRef.data(), vIn.data(), vRef.data(),
                                                (long long)n, 0, 32));
  DeviceBuffer<std::uint8_t> cubTemp(cubBytes, "CUB scratch");
  auto cub = [&] {
    FL_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(cubTemp.data(), cubBytes, kIn.data(), kRef.data(), vIn.data(),
                                                  vRef.data(), (long long)n, 0, 32));
  };
  kRef.fillBytes(0xFF);
  vRef.fillBytes(0xFF);
  cub();
  const double bytes = 16.0 * double(n);
  auto copy = [&] {
    if (n) FL_CUDA_CHECK(cudaMemcpyAsync(kOut.data(), kIn.data(), n * 4, cudaMemcpyDeviceToDevice));
    if (n) FL_CUDA_CHECK(cudaMemcpyAsync(vOut.data(), vIn.data(), n * 4, cudaMemcpyDeviceToDevice));
  };
  copy();
  rows.push_back({"sort", "copy", n, timeIt(copy, reps), bytes});
  rows.push_back({"sort", "cub", n, timeIt(cub, reps), bytes});
  DeviceBuffer<std::uint8_t> temp(scan::radixSortPairsTempBytes(n), "sort scratch");
  auto run = [&] {
    scan::radixSortPairs(kIn.data(), kOut.data(), vIn.data(), vOut.data(), n, 0, 32, temp.data(), temp.size());
  };
  kOut.fillBytes(0xFF);
  vOut.fillBytes(0xFF);
  run();
  expectEqual(kOut.data(), kRef.data(), n, "sort keys n=" + std::to_string(n));
  expectEqual(vOut.data(), vRef.data(), n, "sort values n=" + std::to_string(n));
  rows.push_back({"sort", "radix-lsd", n, timeIt(run, reps), bytes});
  return rows;
}

}  // namespace

std::vector<ScanBenchRow> runScanBenchGpu(const std::string& op, std::uint64_t n, int repetitions, bool slowMethods,
                                          const std::vector<int>& blockSizes) {
  std::vector<ScanBenchRow> rows;
  if (op == "scan") rows = benchScan(n, repetitions, slowMethods, blockSizes);
  else if (op == "compact") rows = benchCompact(n, repetitions);
  else if (op == "sort") rows = benchSort(n, repetitions);
  else throw std::invalid_argument("runScanBenchGpu: unknown operation '" + op + "'");
  FL_CUDA_CHECK(cudaDeviceSynchronize());
  return rows;
}

}  // namespace flocklife::bench
