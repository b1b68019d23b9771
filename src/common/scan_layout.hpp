#pragma once
/// @file scan_layout.hpp
/// Index and bit arithmetic of the single-pass scan, the fused compaction and the radix sort, as
/// FL_HD functions: the kernels use them, and the CPU tests check them without a device.
#include <cstdint>

#include "common/hd.hpp"

namespace flocklife::scan::layout {

/// Warp-striped uint4 layout: uint4 number j (0 <= j < V) of lane l (0..31) of a warp whose 128 V
/// elements start at warpBase holds elements warpBase + 4 (32 j + l) + c, c = 0..3. Consecutive
/// lanes read consecutive 16-byte vectors, so one warp instruction reads 512 contiguous bytes, and
/// the scan order of the warp's elements is (j, lane, c).
FL_HD inline std::uint64_t warpStripedIndex(std::uint64_t warpBase, int j, int lane, int c) {
  return warpBase + (std::uint64_t(j) * 32 + std::uint64_t(lane)) * 4 + std::uint64_t(c);
}

/// Look-back status word: flag in the top two bits, a running sum modulo 2^62 below.
inline constexpr std::uint64_t kStatusInvalid = 0;
inline constexpr std::uint64_t kStatusAggregate = 1ull << 62;  ///< value = this tile's sum only
inline constexpr std::uint64_t kStatusPrefix = 2ull << 62;     ///< value = sum of all tiles up to this one
inline constexpr std::uint64_t kStatusValueMask = (1ull << 62) - 1;
inline constexpr std::uint64_t kStatusFlagMask = ~kStatusValueMask;
FL_HD constexpr std::uint64_t makeStatus(std::uint64_t flag, std::uint64_t value) {
  return flag | (value & kStatusValueMask);
}
FL_HD constexpr std::uint64_t statusFlag(std::uint64_t s) { return s & kStatusFlagMask; }
FL_HD constexpr std::uint64_t statusValue(std::uint64_t s) { return s & kStatusValueMask; }

/// Radix digit of `key` for the pass starting at bit `shift` with `bits` (1..4) bits.
FL_HD inline std::uint32_t radixDigit(std::uint32_t key, int shift, int bits) {
  return (key >> shift) & ((1u << bits) - 1u);
}

/// Index in the radix sort's [digit][thread] count table, padded by one word every 32 so that the
/// row-wise (per-thread) and column-wise (per-digit) walks both avoid shared-memory bank conflicts.
FL_HD inline int paddedCountIndex(int i) { return i + (i >> 5); }

}  // namespace flocklife::scan::layout
