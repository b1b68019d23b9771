// The device-pointer API of common/scan.cuh: in-place scans, unaligned pointers (scalar paths),
// the uint32 overload, scratch checks and the byte sum at odd offsets. CUDA builds only.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "common/device_buffer.cuh"
#include "common/memory.hpp"
#include "common/scan.cuh"
#include "common/scan_detail.cuh"
#include "gpu_test.hpp"

namespace flocklife::scan {
namespace {

std::vector<int> randomInts(std::size_t n, int maxValue, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(0, maxValue);
  std::vector<int> v(n);
  for (auto& x : v) x = d(rng);
  return v;
}

std::vector<int> reference(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  exclusiveScanCpu(in.data(), out.data(), in.size());
  return out;
}

using ScanDevice = test::GpuTest;

TEST_F(ScanDevice, EveryMethodInPlace) {
  const auto in = randomInts(100003, 49, 1);
  for (ScanMethod m : kAllScanMethods) {
    if (!isGpu(m)) continue;
    DeviceBuffer<int> d(in.size());
    d.copyFromHost(in);
    DeviceBuffer<std::uint8_t> temp(scanTempBytes(m, in.size()));
    exclusiveScan(m, d.data(), d.data(), in.size(), temp.data(), temp.size());
    EXPECT_EQ(d.copyToHost(), reference(in)) << name(m);
  }
}

TEST_F(ScanDevice, DecoupledWithUnalignedPointersUsesTheScalarPath) {
  for (std::size_t n : {1u, 4095u, 4096u, 4097u, 65536u + 13u}) {
    const auto in = randomInts(n, 49, n);
    DeviceBuffer<int> d_in(n + 3), d_out(n + 3);
    FL_CUDA_CHECK(cudaMemcpy(d_in.data() + 1, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    d_out.fillBytes(0xFF);
    exclusiveScan(d_in.data() + 1, d_out.data() + 2, n);  // allocating overload, synchronizes
    std::vector<int> got(n + 3);
    FL_CUDA_CHECK(cudaMemcpy(got.data(), d_out.data(), got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    EXPECT_EQ(got[0], -1) << "wrote before the output";
    EXPECT_EQ(got[1], -1) << "wrote before the output";
    EXPECT_EQ(got[n + 2], -1) << "wrote past the output";
    EXPECT_EQ(std::vector<int>(got.begin() + 2, got.begin() + 2 + n), reference(in)) << "n=" << n;
  }
}

TEST_F(ScanDevice, DecoupledTuningsUsedByTheBenchmark) {
  // Tiles hold 3072 (t128v6) to 16384 (t256v16) elements: sizes around each tile, more than 32
  // tiles for every tuning (2^20 + 7: several look-back windows) and more than 512 + 1 tiles of
  // 8192 (5000011: the "-pf512" rows prefetch, the last prefetch is cut at n).
  for (int tuning = 0; tuning < detail::kScanTunings; ++tuning) {
    for (std::size_t n : {1u, 2047u, 3071u, 3072u, 3073u, 4096u, 8191u, 8192u, 8193u, 12289u, 16383u, 16385u,
                          300007u, (1u << 20) + 7u, 5000011u}) {
      const auto in = randomInts(n, 49, n + std::size_t(tuning));
      DeviceBuffer<int> d_in(n), d_out(n);
      DeviceBuffer<std::uint8_t> temp(exclusiveScanTempBytes(n));
      d_in.copyFromHost(in);
      d_out.fillBytes(0xFF);
      detail::scanDecoupled(reinterpret_cast<const unsigned*>(d_in.data()), reinterpret_cast<unsigned*>(d_out.data()),
                            n, temp.data(), temp.size(), tuning, nullptr);
      EXPECT_EQ(d_out.copyToHost(), reference(in)) << detail::scanTuningName(tuning) << " n=" << n;
    }
  }
  DeviceBuffer<int> d(10);
  DeviceBuffer<std::uint8_t> temp(exclusiveScanTempBytes(10));
  EXPECT_THROW(detail::scanDecoupled(reinterpret_cast<const unsigned*>(d.data()), reinterpret_cast<unsigned*>(d.data()),
                                     10, temp.data(), temp.size(), detail::kScanTunings, nullptr),
               std::invalid_argument);
}

// The course scans at the threads per block that `bench scan --block-sizes` sweeps: sizes around
// a block, and one large enough that 32-thread blocks exceed blocksFor's cap of 2^20 blocks, so
// that the grid-stride loops cover the rest.
TEST_F(ScanDevice, CourseScansAtEveryBlockSize) {
  for (int blockSize : {32, 64, 96, 128, 256, 512, 1024}) {
    for (std::size_t n : {1u, 31u, 1000u, 1025u, 100003u}) {
      const auto in = randomInts(n, 49, n + std::size_t(blockSize));
      DeviceBuffer<int> d_in(n), d_out(n);
      d_in.copyFromHost(in);
      for (ScanMethod m : {ScanMethod::Naive, ScanMethod::WorkEfficient, ScanMethod::WorkEfficientLean}) {
        DeviceBuffer<std::uint8_t> temp(scanTempBytes(m, n));
        d_out.fillBytes(0xFF);
        if (m == ScanMethod::Naive)
          detail::scanNaive(d_in.data(), d_out.data(), n, temp.data(), nullptr, blockSize);
        else
          detail::scanWorkEfficient(d_in.data(), d_out.data(), n, temp.data(), m == ScanMethod::WorkEfficientLean,
                                    nullptr, blockSize);
        EXPECT_EQ(d_out.copyToHost(), reference(in)) << name(m) << " block size " << blockSize << " n=" << n;
      }
    }
  }
  const std::size_t n = (std::size_t(1) << 25) + 7;  // 2^20 + 1 blocks of 32 threads
  const auto in = randomInts(n, 49, 25);
  DeviceBuffer<int> d_in(n), d_out(n);
  d_in.copyFromHost(in);
  for (ScanMethod m : {ScanMethod::Naive, ScanMethod::WorkEfficientLean}) {
    DeviceBuffer<std::uint8_t> temp(scanTempBytes(m, n));
    d_out.fillBytes(0xFF);
    if (m == ScanMethod::Naive)
      detail::scanNaive(d_in.data(), d_out.data(), n, temp.data(), nullptr, 32);
    else
      detail::scanWorkEfficient(d_in.data(), d_out.data(), n, temp.data(), true, nullptr, 32);
    EXPECT_EQ(d_out.copyToHost(), reference(in)) << name(m) << " block size 32 n=" << n;
  }
}

// Checked before any launch, so no device is needed.
TEST(ScanCourseBlockSize, OtherSizesAreRefused) {
  for (int blockSize : {0, 16, 48, 1056, -32}) {
    EXPECT_THROW(detail::scanNaive(nullptr, nullptr, 10, nullptr, nullptr, blockSize), std::invalid_argument) << blockSize;
    EXPECT_THROW(detail::scanWorkEfficient(nullptr, nullptr, 10, nullptr, true, nullptr, blockSize), std::invalid_argument)
        << blockSize;
  }
}

TEST_F(ScanDevice, Uint32OverloadOnAStream) {
  const std::size_t n = (1u << 18) + 5;
  std::vector<std::uint32_t> in(n);
  std::mt19937 rng(4);
  for (auto& x : in) x = rng();
  std::vector<std::uint32_t> expect(n);
  std::uint32_t s = 0;
  for (std::size_t i = 0; i < n; ++i) expect[i] = s, s += in[i];
  DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  DeviceBuffer<std::uint8_t> temp(exclusiveScanTempBytes(n));
  d_in.copyFromHost(in);
  Stream stream;
  exclusiveScan(d_in.data(), d_out.data(), n, temp.data(), temp.size(), stream.get());
  stream.synchronize();
  EXPECT_EQ(d_out.copyToHost(), expect);
}

TEST_F(ScanDevice, TooSmallScratchIsRefused) {
  DeviceBuffer<int> d(5000);
  DeviceBuffer<std::uint8_t> temp(8);
  EXPECT_THROW(exclusiveScan(d.data(), d.data(), d.size(), temp.data(), temp.size()), std::invalid_argument);
  EXPECT_THROW(exclusiveScan(ScanMethod::Naive, d.data(), d.data(), d.size(), nullptr, 0), std::invalid_argument);
}

TEST_F(ScanDevice, FusedCompactionWithUnalignedInput) {
  const std::size_t n = 10007;
  auto in = randomInts(n, 3, 8);
  std::vector<int> expect;
  for (int x : in)
    if (x) expect.push_back(x);
  DeviceBuffer<int> d_in(n + 1), d_out(n);
  DeviceBuffer<unsigned long long> d_count(1);
  DeviceBuffer<std::uint8_t> temp(compactTempBytes(CompactMethod::Fused, n));
  d_in.fillBytes(0);
  d_out.fillBytes(0xFF);  // poison: the kernel writes only the first `count` elements
  FL_CUDA_CHECK(cudaMemcpy(d_in.data() + 1, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  compact(CompactMethod::Fused, d_in.data() + 1, d_out.data(), n, d_count.data(), temp.data(), temp.size());
  const auto count = d_count.copyToHost()[0];
  ASSERT_EQ(count, expect.size());
  auto got = d_out.copyToHost();
  for (std::size_t i = count; i < n; ++i) ASSERT_EQ(got[i], -1) << "written past the selected count at " << i;
  got.resize(count);
  EXPECT_EQ(got, expect);
}

TEST_F(ScanDevice, FusedCompactionEveryTuning) {
  for (int tuning = 0; tuning < detail::kCompactTunings; ++tuning) {
    const std::string name = detail::compactTuningName(tuning);
    for (std::size_t n : {1u, 5u, 4095u, 4096u, 4097u, 8191u, 8192u, 8193u, 300007u}) {
      const auto in = randomInts(n, 3, n * 3 + std::size_t(tuning));
      std::vector<int> expect;
      for (int x : in)
        if (x) expect.push_back(x);
      DeviceBuffer<int> d_in(n), d_out(n);
      DeviceBuffer<unsigned long long> d_count(1);
      DeviceBuffer<std::uint8_t> temp(compactTempBytes(CompactMethod::Fused, n));
      d_in.copyFromHost(in);
      d_out.fillBytes(0xFF);
      d_count.fillBytes(0xFF);
      detail::compactFused(d_in.data(), d_out.data(), n, d_count.data(), temp.data(), nullptr, tuning);
      const auto count = d_count.copyToHost()[0];
      ASSERT_EQ(count, expect.size()) << name << " n=" << n;
      auto got = d_out.copyToHost();
      EXPECT_TRUE(std::all_of(got.begin() + std::ptrdiff_t(count), got.end(), [](int x) { return x == -1; }))
          << "wrote past the selected elements, " << name << " n=" << n;
      got.resize(count);
      EXPECT_EQ(got, expect) << name << " n=" << n;
    }
  }
}

TEST_F(ScanDevice, ByteSumAtEveryOffset) {
  const std::size_t n = 1000;
  std::vector<std::uint8_t> bytes(n + 16);
  std::mt19937 rng(2);
  for (auto& b : bytes) b = std::uint8_t(rng());
  DeviceBuffer<std::uint8_t> d(bytes.size());
  d.copyFromHost(bytes);
  for (std::size_t off = 0; off < 16; ++off) {
    std::uint64_t expect = 0;
    for (std::size_t i = 0; i < n; ++i) expect += bytes[off + i];
    EXPECT_EQ(sumBytes(d.data() + off, n), expect) << "offset " << off;
  }
}

/// n > 2^31: the production scan wraps modulo 2^32, the fused compaction counts past 2^31, and the
/// byte sum passes 2^32. Skips unless the device has 24 GiB free and the host 40 GiB available.
TEST_F(ScanDevice, SizesAbove2To31) {
  const std::size_t n = (std::size_t(1) << 31) + 5;
  std::size_t freeB = 0, totalB = 0;
  FL_CUDA_CHECK(cudaMemGetInfo(&freeB, &totalB));
  if (freeB < (std::size_t(24) << 30) || availableHostBytes() < (std::uint64_t(40) << 30))
    GTEST_SKIP() << "needs 24 GiB of free device memory and 40 GiB of host memory";
  {
    DeviceBuffer<std::uint8_t> ones(2 * n + 7);
    FL_CUDA_CHECK(cudaMemset(ones.data(), 1, ones.size()));
    EXPECT_EQ(sumBytes(ones.data(), ones.size()), 2 * n + 7);
  }
  DeviceBuffer<std::uint32_t> d_in(n), d_out(n);
  FL_CUDA_CHECK(cudaMemset(d_in.data(), 1, n * 4));  // every element 0x01010101
  d_out.fillBytes(0xFF);
  exclusiveScan(d_in.data(), d_out.data(), n);
  const auto out = d_out.copyToHost();
  std::size_t bad = n;
  for (std::size_t i = 0; i < n && bad == n; ++i)
    if (out[i] != std::uint32_t(i * 0x01010101ull)) bad = i;
  EXPECT_EQ(bad, n) << "first wrong element of the scan";

  DeviceBuffer<unsigned long long> d_count(1);
  DeviceBuffer<std::uint8_t> temp(compactTempBytes(CompactMethod::Fused, n));
  d_out.fillBytes(0);
  compact(CompactMethod::Fused, reinterpret_cast<const int*>(d_in.data()), reinterpret_cast<int*>(d_out.data()), n,
          d_count.data(), temp.data(), temp.size());
  EXPECT_EQ(d_count.copyToHost()[0], n);
  const auto kept = d_out.copyToHost();
  EXPECT_EQ(std::count(kept.begin(), kept.end(), 0x01010101u), std::ptrdiff_t(n));
}

}  // namespace
}  // namespace flocklife::scan
