#pragma once
/// @file scan.cuh
/// Device-pointer API of the parallel primitives: exclusive scan (every course method and the
/// production single-pass scan), stream compaction, LSD radix sort of key-value pairs on a bit
/// range, and 64-bit sums. Declarations only: the definitions are compiled once into
/// flocklife_common, so any module's .cu file can include this header cheaply.
///
/// Conventions (all functions):
///  - Pointers starting with d_ are device pointers; n is a 64-bit element count, 0 allowed.
///  - Work is enqueued on `stream` and is asynchronous unless a function says it blocks.
///  - Scratch: functions taking (d_temp, tempBytes) use caller-provided device scratch of at least
///    the size returned by the matching *TempBytes(n) function (any alignment of 256 bytes, as
///    cudaMalloc gives); they allocate nothing and never synchronize. Overloads without d_temp
///    allocate their scratch with cudaMalloc and free it, which synchronizes the device: use them
///    in setup code, not in a hot loop.
///  - @throws std::invalid_argument when tempBytes is too small or a precondition stated below
///    fails; CudaError on a failed launch; OutOfMemoryError when an allocating overload cannot get
///    its scratch.
/// Sources: see common/scan.hpp (Hillis-Steele 1986, Blelloch 1990, GPU Gems 3 ch. 39,
/// Merrill & Garland 2016).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/scan.hpp"

namespace flocklife::scan {

// ---------------------------------------------------------------- exclusive scan, any method

/// Scratch bytes that exclusiveScan(m, ...) needs for n elements (0 for Thrust, which allocates
/// its own). Cpu is not a device method: @throws std::invalid_argument.
std::size_t scanTempBytes(ScanMethod m, std::size_t n);

/// d_out[i] = d_in[0] + ... + d_in[i-1], d_out[0] = 0, for i < n, with method m (int32 sums
/// wrap modulo 2^32). d_in and d_out may be the same array (in-place) for every method.
/// Naive: ceil(log2 n) + 1 launches over two n-element scratch arrays. WorkEfficient and
/// WorkEfficientLean: a scratch copy padded to the next power of two, 2 log2 of it launches.
/// Shared: 512 elements per block in shared memory, block sums scanned recursively.
/// Decoupled: one pass over the data, see exclusiveScan below.
void exclusiveScan(ScanMethod m, const int* d_in, int* d_out, std::size_t n, void* d_temp,
                   std::size_t tempBytes, cudaStream_t stream = nullptr);

// ---------------------------------------------------------------- production scan

/// Scratch bytes for the production exclusive scan of n elements: one 8-byte look-back status
/// word per tile of 4096 elements plus a tile counter (about n / 512 bytes).
std::size_t exclusiveScanTempBytes(std::size_t n);

/// Production exclusive scan: a single pass with decoupled look-back (Merrill & Garland 2016),
/// 256 threads x 32 elements per tile (8 int4 per thread, registers capped so that 4 blocks fit
/// per SM), int4 loads and stores with the evict-first hint when d_in and d_out are 16-byte
/// aligned (scalar otherwise), tiles taken in order from an atomic counter so that look-back
/// always makes progress. Reads 4n and writes 4n bytes, plus n/1024 of status.
/// Any n; in-place allowed; unsigned sums wrap modulo 2^32. Asynchronous; no allocation.
void exclusiveScan(const int* d_in, int* d_out, std::size_t n, void* d_temp, std::size_t tempBytes,
                   cudaStream_t stream = nullptr);
void exclusiveScan(const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n, void* d_temp,
                   std::size_t tempBytes, cudaStream_t stream = nullptr);
/// Allocating overloads (synchronize; see the conventions above).
void exclusiveScan(const int* d_in, int* d_out, std::size_t n, cudaStream_t stream = nullptr);
void exclusiveScan(const std::uint32_t* d_in, std::uint32_t* d_out, std::size_t n,
                   cudaStream_t stream = nullptr);

// ---------------------------------------------------------------- stream compaction

/// Scratch bytes for compact(m, ...) on n elements. m must be a GPU method.
std::size_t compactTempBytes(CompactMethod m, std::size_t n);

/// Stream compaction: copies the non-zero elements of d_in[0..n) to d_out in input order (stable)
/// and writes their count to *d_numSelected (device memory). d_out must hold n elements and must
/// not overlap d_in.
/// WorkEfficient / Decoupled: flags (map) -> exclusive scan -> scatter; need n <= 2^31 - 1.
/// Fused: one kernel: per tile of 8192 elements, flags, a look-back over the selected counts
/// (62-bit), and the scatter, staged per warp in shared memory so that the stores are coalesced;
/// any n.
void compact(CompactMethod m, const int* d_in, int* d_out, std::size_t n,
             unsigned long long* d_numSelected, void* d_temp, std::size_t tempBytes,
             cudaStream_t stream = nullptr);

// ---------------------------------------------------------------- radix sort

/// Scratch bytes for radixSortPairs on n pairs (two n-element ping-pong buffers for keys and
/// values, per-tile digit counts and the scan's scratch).
std::size_t radixSortPairsTempBytes(std::size_t n);

/// Stable LSD radix sort of (key, value) pairs by key bits [beginBit, endBit): 4-bit digits, one
/// pass per digit; each pass counts digits per 2048-element tile, scans the digit-major count
/// table with the production scan, then scatters every tile stably (a block-wide scan of per-thread
/// digit counts gives each element its rank). The inputs are left unchanged; the outputs must not
/// overlap them. Needs n < 2^32 and 0 <= beginBit <= endBit <= 32.
void radixSortPairs(const std::uint32_t* d_keysIn, std::uint32_t* d_keysOut,
                    const std::uint32_t* d_valuesIn, std::uint32_t* d_valuesOut, std::size_t n,
                    int beginBit, int endBit, void* d_temp, std::size_t tempBytes,
                    cudaStream_t stream = nullptr);

// ---------------------------------------------------------------- reductions

/// *d_sum = sum of the n bytes (e.g. the live cells of a one-byte-per-cell Life world), exact in
/// 64 bits. Zeroes *d_sum first (on the stream). Asynchronous; no scratch.
void sumBytesAsync(const std::uint8_t* d_in, std::size_t n, unsigned long long* d_sum,
                   cudaStream_t stream = nullptr);
/// *d_sum = sum of the n int32 values, exact in 64 bits. Asynchronous; no scratch.
void sumIntsAsync(const int* d_in, std::size_t n, long long* d_sum, cudaStream_t stream = nullptr);
/// Blocking forms: allocate 8 bytes, wait for the stream, return the sum.
std::uint64_t sumBytes(const std::uint8_t* d_in, std::size_t n, cudaStream_t stream = nullptr);
std::int64_t sumInts(const int* d_in, std::size_t n, cudaStream_t stream = nullptr);

}  // namespace flocklife::scan
