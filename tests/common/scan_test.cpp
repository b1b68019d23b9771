// Scan, stream compaction, radix sort and sums: every method against the CPU reference. The CPU
// methods always run; the GPU ones skip without a device (test::GpuTest).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "common/scan.hpp"
#include "common/scan_layout.hpp"
#include "gpu_test.hpp"

namespace flocklife::scan {
namespace {

std::vector<int> randomInts(std::size_t n, int maxValue, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(0, maxValue);
  std::vector<int> v(n);
  for (auto& x : v) x = d(rng);
  if (n) v.back() = 0;
  return v;
}

std::vector<int> referenceScan(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  exclusiveScanCpu(in.data(), out.data(), in.size());
  return out;
}

std::vector<int> referenceCompact(const std::vector<int>& in) {
  std::vector<int> out;
  for (int x : in)
    if (x) out.push_back(x);
  return out;
}

/// Sizes around every block and tile boundary of the GPU methods (256, 512, 2048, 4096, 8192), powers of
/// two minus 3, 2^20 + 7, and random sizes.
std::vector<std::size_t> testSizes() {
  std::vector<std::size_t> s = {0, 1, 2, 3, 4, 5, 127, 128, 129, 255, 256, 257, 511, 512, 513, 2047, 2048, 2049,
                                4095, 4096, 4097, 8191, 8192, 8193, 8192 + 5, (1u << 13) - 3, (1u << 16) - 3,
                                (1u << 20) + 7};
  std::mt19937_64 rng(42);
  std::uniform_int_distribution<std::size_t> d(1, 300000);
  for (int i = 0; i < 6; ++i) s.push_back(d(rng));
  return s;
}

/// First index where a and b differ, or -1; sizes must match.
long long firstDifference(const std::vector<int>& a, const std::vector<int>& b) {
  if (a.size() != b.size()) return -2;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return (long long)i;
  return -1;
}

}  // namespace

// ---------------------------------------------------------------- CPU

TEST(ScanCpu, SmallKnownInput) {
  const std::vector<int> in = {3, 1, 7, 0, 4, 1, 6, 3};
  EXPECT_EQ(exclusiveScan(ScanMethod::Cpu, in), (std::vector<int>{0, 3, 4, 11, 11, 15, 16, 22}));
}

TEST(ScanCpu, EmptyAndSingle) {
  EXPECT_TRUE(exclusiveScan(ScanMethod::Cpu, {}).empty());
  EXPECT_EQ(exclusiveScan(ScanMethod::Cpu, {42}), std::vector<int>{0});
}

TEST(ScanCpu, InPlaceMatchesOutOfPlace) {
  auto in = randomInts(1000, 49, 7);
  const auto expect = referenceScan(in);
  exclusiveScanCpu(in.data(), in.data(), in.size());
  EXPECT_EQ(in, expect);
}

TEST(ScanCpu, WrapsModulo2To32) {
  const std::vector<int> in = {2147483647, 1, 5};
  const auto out = exclusiveScan(ScanMethod::Cpu, in);
  EXPECT_EQ(out[2], int(0x80000000u));
}

TEST(CompactCpu, BothCpuMethodsKeepNonZerosInOrder) {
  for (std::size_t n : {0u, 1u, 2u, 3u, 1000u, 4097u}) {
    const auto in = randomInts(n, 3, n + 1);
    const auto expect = referenceCompact(in);
    EXPECT_EQ(compact(CompactMethod::CpuNoScan, in), expect) << "n=" << n;
    EXPECT_EQ(compact(CompactMethod::CpuScan, in), expect) << "n=" << n;
  }
  EXPECT_EQ(compact(CompactMethod::CpuScan, {0, 5, 0, 0, 7, 1, 0}), (std::vector<int>{5, 7, 1}));
}

TEST(RadixSortCpu, MatchesStableSortOnBitRange) {
  std::mt19937 rng(3);
  for (auto [b, e] : {std::pair{0, 32}, std::pair{4, 12}, std::pair{0, 3}, std::pair{5, 5}}) {
    std::vector<std::uint32_t> keys(5000), values(5000);
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = rng(), values[i] = std::uint32_t(i);
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0);
    const std::uint32_t mask = e - b == 32 ? ~0u : ((1u << (e - b)) - 1u) << b;
    std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return (keys[x] & mask) < (keys[y] & mask); });
    auto k = keys, v = values;
    radixSortPairsCpu(k, v, b, e);
    for (std::size_t i = 0; i < order.size(); ++i) {
      ASSERT_EQ(k[i], keys[order[i]]) << "bits [" << b << "," << e << ") i=" << i;
      ASSERT_EQ(v[i], values[order[i]]);
    }
  }
}

TEST(RadixSortCpu, RejectsBadArguments) {
  std::vector<std::uint32_t> k(3), v(2);
  EXPECT_THROW(radixSortPairsCpu(k, v), std::invalid_argument);
  v.resize(3);
  EXPECT_THROW(radixSortPairsCpu(k, v, 4, 2), std::invalid_argument);
  EXPECT_THROW(radixSortPairsCpu(k, v, 0, 33), std::invalid_argument);
}

TEST(SumCpu, BytesAndInts) {
  EXPECT_EQ(sumBytesCpu({255, 255, 1}), 511u);
  EXPECT_EQ(sumIntsCpu({2147483647, 2147483647, -3}), 4294967291LL);
  EXPECT_EQ(sumBytesCpu({}), 0u);
}

// ---------------------------------------------------------------- layout arithmetic of the kernels

TEST(ScanLayout, WarpStripedIndexCoversTheWarpOnceAndMatchesTheVectorLoad) {
  for (int vecs : {2, 4, 8}) {
    const std::uint64_t base = 1000 * 512;
    std::vector<int> hits(std::size_t(128 * vecs), 0);
    for (int j = 0; j < vecs; ++j)
      for (int lane = 0; lane < 32; ++lane)
        for (int c = 0; c < 4; ++c) {
          const std::uint64_t i = layout::warpStripedIndex(base, j, lane, c);
          ASSERT_GE(i, base);
          ASSERT_LT(i - base, hits.size());
          ++hits[i - base];
          // The vector path loads uint4 number (32 j + lane) of the warp: component c is element 4 * that + c.
          EXPECT_EQ(i - base, std::uint64_t(4 * (32 * j + lane) + c));
        }
    EXPECT_TRUE(std::all_of(hits.begin(), hits.end(), [](int h) { return h == 1; })) << "V=" << vecs;
  }
  // Scan order is (j, lane, c): lane 31 of vector j is followed by lane 0 of vector j + 1.
  EXPECT_EQ(layout::warpStripedIndex(0, 0, 31, 3) + 1, layout::warpStripedIndex(0, 1, 0, 0));
}

TEST(ScanLayout, StatusWordKeepsFlagAndValueApart) {
  using namespace layout;
  const std::uint64_t big = (1ull << 62) + 5;  // wraps modulo 2^62
  for (std::uint64_t flag : {kStatusInvalid, kStatusAggregate, kStatusPrefix}) {
    EXPECT_EQ(statusFlag(makeStatus(flag, 123)), flag);
    EXPECT_EQ(statusValue(makeStatus(flag, 123)), 123u);
    EXPECT_EQ(statusFlag(makeStatus(flag, big)), flag);
    EXPECT_EQ(statusValue(makeStatus(flag, big)), 5u);
  }
  EXPECT_NE(kStatusAggregate, kStatusPrefix);
  // A 32-bit scan truncates the 62-bit sums: 2^32 divides 2^62, so the result is exact modulo 2^32.
  EXPECT_EQ(std::uint32_t(statusValue(makeStatus(kStatusPrefix, 0xFFFFFFFFull + 0xFFFFFFFFull))), 0xFFFFFFFEu);
}

TEST(ScanLayout, RadixDigitAndPaddedTable) {
  EXPECT_EQ(layout::radixDigit(0xABCD1234u, 0, 4), 0x4u);
  EXPECT_EQ(layout::radixDigit(0xABCD1234u, 28, 4), 0xAu);
  EXPECT_EQ(layout::radixDigit(0xABCD1234u, 30, 2), 0x2u);
  EXPECT_EQ(layout::radixDigit(0xFFFFFFFFu, 3, 1), 1u);
  // The 16 x 256 table fits its padded shared array, and the walks the scatter kernel makes are
  // conflict-free: 32 consecutive threads reading entry 16 t + e hit 32 different banks.
  EXPECT_LT(layout::paddedCountIndex(16 * 256 - 1), 16 * 256 + 16 * 256 / 32);
  for (int e = 0; e < 16; ++e) {
    std::vector<int> banks;
    for (int t = 0; t < 32; ++t) banks.push_back(layout::paddedCountIndex(16 * t + e) % 32);
    std::sort(banks.begin(), banks.end());
    EXPECT_TRUE(std::adjacent_find(banks.begin(), banks.end()) == banks.end()) << "e=" << e;
  }
}

// ---------------------------------------------------------------- GPU

class ScanGpu : public test::GpuTest, public ::testing::WithParamInterface<ScanMethod> {};

TEST_P(ScanGpu, MatchesCpuAtEverySize) {
  for (std::size_t n : testSizes()) {
    const auto in = randomInts(n, 49, n);
    const auto got = exclusiveScan(GetParam(), in);
    ASSERT_EQ(firstDifference(got, referenceScan(in)), -1) << name(GetParam()) << " n=" << n;
  }
}

TEST_P(ScanGpu, WrapsModulo2To32LikeTheCpu) {
  const auto in = randomInts(20000, 2000000000, 11);
  EXPECT_EQ(firstDifference(exclusiveScan(GetParam(), in), referenceScan(in)), -1);
}

INSTANTIATE_TEST_SUITE_P(AllGpuMethods, ScanGpu,
                         ::testing::Values(ScanMethod::Naive, ScanMethod::WorkEfficient,
                                           ScanMethod::WorkEfficientLean, ScanMethod::Thrust, ScanMethod::Shared,
                                           ScanMethod::Decoupled),
                         [](const auto& info) {
                           std::string s = name(info.param);
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

class CompactGpu : public test::GpuTest, public ::testing::WithParamInterface<CompactMethod> {};

TEST_P(CompactGpu, MatchesCpuCountAndValues) {
  for (std::size_t n : testSizes()) {
    const auto in = randomInts(n, 3, n + 99);
    const auto expect = referenceCompact(in);
    const auto got = compact(GetParam(), in);
    ASSERT_EQ(got.size(), expect.size()) << name(GetParam()) << " n=" << n;
    ASSERT_EQ(firstDifference(got, expect), -1) << name(GetParam()) << " n=" << n;
  }
}

TEST_P(CompactGpu, AllZeroAndAllNonZero) {
  EXPECT_TRUE(compact(GetParam(), std::vector<int>(10000, 0)).empty());
  std::vector<int> ones(10001);
  std::iota(ones.begin(), ones.end(), 1);
  EXPECT_EQ(compact(GetParam(), ones), ones);
}

INSTANTIATE_TEST_SUITE_P(AllGpuMethods, CompactGpu,
                         ::testing::Values(CompactMethod::WorkEfficient, CompactMethod::Decoupled,
                                           CompactMethod::Fused),
                         [](const auto& info) {
                           std::string s = name(info.param);
                           std::replace(s.begin(), s.end(), '-', '_');
                           return s;
                         });

using RadixSortGpu = test::GpuTest;

TEST_F(RadixSortGpu, MatchesCpuReferenceOnBitRangesAndSizes) {
  std::mt19937 rng(5);
  for (std::size_t n : {0u, 1u, 2u, 3u, 2047u, 2048u, 2049u, 100003u, (1u << 20) + 7}) {
    for (auto [b, e] : {std::pair{0, 32}, std::pair{3, 17}, std::pair{0, 1}, std::pair{8, 8}}) {
      std::vector<std::uint32_t> keys(n), values(n);
      for (std::size_t i = 0; i < n; ++i) keys[i] = rng(), values[i] = std::uint32_t(i);
      auto kc = keys, vc = values, kg = keys, vg = values;
      radixSortPairsCpu(kc, vc, b, e);
      radixSortPairsGpu(kg, vg, b, e);
      ASSERT_EQ(kg, kc) << "n=" << n << " bits [" << b << "," << e << ")";
      ASSERT_EQ(vg, vc) << "n=" << n << " bits [" << b << "," << e << ")";
    }
  }
}

TEST_F(RadixSortGpu, ManyDuplicatesStayStableAndArePermutation) {
  const std::size_t n = 300001;
  std::mt19937 rng(9);
  std::vector<std::uint32_t> keys(n), values(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = rng() % 7, values[i] = std::uint32_t(i);
  auto k = keys, v = values;
  radixSortPairsGpu(k, v, 0, 32);
  std::vector<char> seen(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_LT(v[i], n);
    ASSERT_FALSE(seen[v[i]]) << "value " << v[i] << " twice";
    seen[v[i]] = 1;
    ASSERT_EQ(k[i], keys[v[i]]) << "pair broken at " << i;
    if (i) {
      ASSERT_LE(k[i - 1], k[i]) << "order at " << i;
      if (k[i - 1] == k[i]) {
        ASSERT_LT(v[i - 1], v[i]) << "stability at " << i;
      }
    }
  }
}

using SumGpu = test::GpuTest;

TEST_F(SumGpu, BytesAndIntsMatchCpu) {
  std::mt19937 rng(1);
  for (std::size_t n : {0u, 1u, 15u, 16u, 17u, 4099u, (1u << 20) + 7}) {
    std::vector<std::uint8_t> b(n);
    std::vector<int> x(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = std::uint8_t(rng()), x[i] = int(rng());
    EXPECT_EQ(sumBytesGpu(b), sumBytesCpu(b)) << "n=" << n;
    EXPECT_EQ(sumIntsGpu(x), sumIntsCpu(x)) << "n=" << n;
  }
}

}  // namespace flocklife::scan
