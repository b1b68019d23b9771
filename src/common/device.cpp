#include "common/device.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <sched.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/errors.hpp"
#include "common/memory.hpp"

#ifdef FLOCKLIFE_HAVE_CUDA
#include <cuda_runtime.h>
#endif

namespace flocklife {

bool builtWithCuda() {
#ifdef FLOCKLIFE_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

std::optional<DeviceInfo> usableDevice(std::string* whyNot) {
#ifdef FLOCKLIFE_HAVE_CUDA
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess || count == 0) {
    if (whyNot)
      *whyNot = e == cudaErrorInsufficientDriver
                    ? std::string("no usable CUDA device (no NVIDIA driver, or one older than this CUDA runtime: ") +
                          cudaGetErrorString(e) + ")"
                : e != cudaSuccess ? std::string("no usable CUDA device (") + cudaGetErrorString(e) + ")"
                                   : std::string("no CUDA device found");
    cudaGetLastError();  // clear the sticky-free error state
    return std::nullopt;
  }
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) dev = 0;
  cudaDeviceProp p{};
  if ((e = cudaGetDeviceProperties(&p, dev)) != cudaSuccess) {
    if (whyNot) *whyNot = std::string("cannot query CUDA device: ") + cudaGetErrorString(e);
    return std::nullopt;
  }
  std::size_t freeB = 0, totalB = 0;
  if ((e = cudaMemGetInfo(&freeB, &totalB)) != cudaSuccess) {
    if (whyNot) *whyNot = std::string("cannot create a CUDA context: ") + cudaGetErrorString(e);
    return std::nullopt;
  }
  DeviceInfo d;
  d.index = dev;
  d.name = p.name;
  d.computeMajor = p.major;
  d.computeMinor = p.minor;
  d.multiprocessors = p.multiProcessorCount;
  d.totalBytes = totalB;
  d.freeBytes = freeB;
  d.maxThreadsPerBlock = p.maxThreadsPerBlock;
  d.sharedBytesPerBlockOptin = p.sharedMemPerBlockOptin;
  d.l2Bytes = std::uint64_t(p.l2CacheSize);
  return d;
#else
  if (whyNot) *whyNot = "this build has no CUDA support (no CUDA toolkit was found at configure time)";
  return std::nullopt;
#endif
}

namespace {
/// FLOCKLIFE_HOST_MEMORY_LIMIT in bytes (decimal), 0 when unset. Malformed values are an error
/// rather than ignored, so that a typo never lifts a limit the user meant to set.
std::uint64_t hostMemoryLimit() {
  const char* env = std::getenv("FLOCKLIFE_HOST_MEMORY_LIMIT");
  if (!env || !*env) return 0;
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(env, &end, 10);
  if (errno != 0 || *end != '\0' || v == 0 || env[0] == '-')
    throw InputError(std::string("FLOCKLIFE_HOST_MEMORY_LIMIT='") + env + "': expected a positive number of bytes");
  return v;
}

/// The first number in file `path`, or nothing (missing file, "max", no number).
std::optional<std::uint64_t> numberIn(const std::string& path) {
  std::ifstream in(path);
  unsigned long long v = 0;
  if (in >> v) return std::uint64_t(v);
  return std::nullopt;
}

/// The value of `key` (a "key value" line) in file `path`, or nothing.
std::optional<std::uint64_t> statIn(const std::string& path, const std::string& key) {
  std::ifstream in(path);
  std::string k;
  unsigned long long v = 0;
  while (in >> k >> v)
    if (k == key) return std::uint64_t(v);
  return std::nullopt;
}

/// The threads an OpenMP region may start: OMP_NUM_THREADS's first number where set, else the
/// CPUs this process may run on (OpenMP's default). Read here rather than by omp_get_max_threads(),
/// so that common needs no OpenMP runtime: the pattern fuzzer links this file with clang, where
/// libomp is not among the packages (a clean-clone CI run failed to link it).
std::uint64_t ompThreads() {
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && *env) {
    const unsigned long long v = std::strtoull(env, nullptr, 10);
    if (v > 0) return v;
  }
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) return std::uint64_t(CPU_COUNT(&set));
  return 1;
}

/// Host memory a process may use, and what bounds it, as a message says it: "" for MemAvailable,
/// else "under ulimit -v ...", "under the memory cgroup's limit ..." or "under
/// FLOCKLIFE_HOST_MEMORY_LIMIT".
struct Room {
  std::uint64_t bytes = 0;
  std::string bound;
};

/// Room under the address-space limit (ulimit -v, RLIMIT_AS): the limit minus the address space
/// this process holds (/proc/self/statm's first field) and what each OpenMP thread beyond the
/// first will reserve (its stack, RLIMIT_STACK or 8 MiB, and glibc's 64 MiB heap arena; a run that
/// passed the check ended in libgomp's "Thread creation failed", status 1: a tester's trial);
/// nothing where unlimited or unknown. Its bound names the three amounts (a refusal said "1 B
/// available" alone: a tester's trial).
std::optional<Room> addressSpaceRoom() {
  rlimit r{};
  if (::getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return std::nullopt;
  const auto pages = numberIn("/proc/self/statm");
  const long pageBytes = ::sysconf(_SC_PAGESIZE);
  if (!pages || pageBytes <= 0) return std::nullopt;
  rlimit stack{};
  const std::uint64_t stackBytes =
      ::getrlimit(RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY ? stack.rlim_cur : 8u << 20;
  const std::uint64_t held = *pages * std::uint64_t(pageBytes), more = ompThreads() - 1;
  const std::uint64_t threads = more * (stackBytes + (std::uint64_t(64) << 20));
  const std::uint64_t limit = r.rlim_cur, used = held + threads;
  std::string bound = "under ulimit -v (" + formatBytes(limit) + "), of which this process holds " + formatBytes(held);
  if (more > 0)
    bound += " and its " + std::to_string(more) + " more OpenMP thread" + (more == 1 ? "" : "s") + " will reserve " +
             formatBytes(threads) + " for stacks and heap arenas (OMP_NUM_THREADS sets how many)";
  return Room{limit > used ? limit - used : 0, bound};
}

/// Room under this process's memory cgroup limit (a container's, a systemd unit's): the limit
/// minus the group's usage less the file cache it may reclaim (inactive_file); nothing where it
/// has no limit or none can be read. cgroup v2 (memory.max) and v1 (memory.limit_in_bytes), at the
/// group's path from /proc/self/cgroup or, where a container shows only its own group, at the root.
std::optional<Room> cgroupRoom() {
  std::ifstream in("/proc/self/cgroup");
  std::string v2, v1;  // the group's paths
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("0::", 0) == 0) v2 = line.substr(3);
    const std::size_t a = line.find(':'), b = line.find(':', a + 1);
    if (a != std::string::npos && b != std::string::npos) {
      std::istringstream controllers(line.substr(a + 1, b - a - 1));
      for (std::string c; std::getline(controllers, c, ',');)
        if (c == "memory") v1 = line.substr(b + 1);
    }
  }
  struct Files {
    std::string dir, limit, usage, inactive;
  };
  std::vector<Files> tries;
  for (const std::string& dir : {"/sys/fs/cgroup" + v2, std::string("/sys/fs/cgroup")})
    tries.push_back({dir, "memory.max", "memory.current", "inactive_file"});
  if (!v1.empty())
    for (const std::string& dir : {"/sys/fs/cgroup/memory" + v1, std::string("/sys/fs/cgroup/memory")})
      tries.push_back({dir, "memory.limit_in_bytes", "memory.usage_in_bytes", "total_inactive_file"});
  for (const Files& f : tries) {
    const auto limit = numberIn(f.dir + "/" + f.limit);
    if (!limit || *limit >= (std::uint64_t(1) << 60)) continue;  // "max", or v1's "no limit"
    const auto usage = numberIn(f.dir + "/" + f.usage);
    if (!usage) continue;
    const std::uint64_t inactive = statIn(f.dir + "/memory.stat", f.inactive).value_or(0);
    const std::uint64_t held = *usage > inactive ? *usage - inactive : 0;
    return Room{*limit > held ? *limit - held : 0,
                "under the memory cgroup's limit (" + formatBytes(*limit) + "), of which the group holds " +
                    formatBytes(held)};
  }
  return std::nullopt;
}

/// The least of the rooms known (availableHostBytes), bytes 0 where none is known.
Room hostRoom() {
  const std::uint64_t limit = hostMemoryLimit();
  std::optional<Room> avail;
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") {
      avail = Room{kb * 1024, ""};
      break;
    }
  for (const auto& room : {addressSpaceRoom(), cgroupRoom(),
                           limit ? std::optional(Room{limit, "under FLOCKLIFE_HOST_MEMORY_LIMIT"}) : std::nullopt})
    if (room && (!avail || room->bytes < avail->bytes)) avail = room;
  if (!avail) return {};                                  // nothing known
  avail->bytes = std::max<std::uint64_t>(avail->bytes, 1);  // 0 means unknown: a process at its limit has 1 byte
  return *avail;
}
}  // namespace

std::uint64_t availableHostBytes() { return hostRoom().bytes; }

std::string formatBytes(std::uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  double v = double(bytes);
  int u = 0;
  while (v >= 1024.0 && u < 5) {
    v /= 1024.0;
    ++u;
  }
  char buf[64];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.2f %s", v, units[u]);
  return buf;
}

void requireHostMemory(std::uint64_t bytes, const std::string& what) {
  const Room room = hostRoom();
  if (room.bytes != 0 && bytes > room.bytes)
    throw OutOfMemoryError(what + ": needs " + formatBytes(bytes) + " (" + std::to_string(bytes) +
                           " bytes) of host memory, " + formatBytes(room.bytes) + " available" +
                           (room.bound.empty() ? "" : " " + room.bound));
}

void requireDeviceMemory(std::uint64_t bytes, const std::string& what) {
#ifdef FLOCKLIFE_HAVE_CUDA
  std::size_t freeB = 0, totalB = 0;
  cudaError_t e = cudaMemGetInfo(&freeB, &totalB);
  if (e != cudaSuccess)
    throw CudaError(what + ": cannot query device memory: " + cudaGetErrorString(e));
  if (bytes > freeB)
    throw OutOfMemoryError(what + ": needs " + formatBytes(bytes) + " (" + std::to_string(bytes) +
                           " bytes) of device memory, " + formatBytes(freeB) + " free of " +
                           formatBytes(totalB));
#else
  (void)bytes;
  throw CudaError(what + ": this build has no CUDA support");
#endif
}

}  // namespace flocklife
