#pragma once
/// @file memory.hpp
/// Up-front memory checks, so that a problem too large for the machine is refused with a clear
/// message instead of an allocation failure deep inside a kernel launch.
#include <cstdint>
#include <string>

namespace flocklife {

/// Bytes of host memory available now: MemAvailable from /proc/meminfo, capped by the room under
/// this process's address-space limit (ulimit -v), under its memory cgroup's limit (a container's:
/// the limit minus the usage less reclaimable file cache; cgroup v2 or v1), and by the environment
/// variable FLOCKLIFE_HOST_MEMORY_LIMIT (bytes) when set (for tests, fuzzing and shared machines);
/// 0 if none is known. The data-segment limit (ulimit -d) is not counted. (A run under `ulimit -v`
/// passed the check and ended in std::bad_alloc, and under a cgroup's limit would be killed without
/// a word: a tester's trial.)
/// @throws InputError when FLOCKLIFE_HOST_MEMORY_LIMIT is set but not a positive integer.
std::uint64_t availableHostBytes();

/// Throws OutOfMemoryError("<what>: needs N bytes of host memory, M available[ <bound>]") when
/// `bytes` exceeds the available host memory; <bound> names a limit below MemAvailable and what it
/// counts: "under ulimit -v (L), of which this process holds H and its K more OpenMP threads will
/// reserve T for stacks and heap arenas (OMP_NUM_THREADS sets how many)", "under the memory
/// cgroup's limit (L), of which the group holds H" or "under FLOCKLIFE_HOST_MEMORY_LIMIT". Does
/// nothing when the amount cannot be read.
void requireHostMemory(std::uint64_t bytes, const std::string& what);

/// Throws OutOfMemoryError("<what>: needs N bytes of device memory, M free on <GPU>") when
/// `bytes` exceeds the free memory of the current CUDA device. CudaError if the query fails.
/// In a build without CUDA it throws CudaError("built without CUDA").
void requireDeviceMemory(std::uint64_t bytes, const std::string& what);

/// "1.50 GiB"-style rendering of a byte count, for messages.
std::string formatBytes(std::uint64_t bytes);

}  // namespace flocklife
