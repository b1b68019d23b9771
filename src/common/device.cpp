#include "common/device.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

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
}  // namespace

std::uint64_t availableHostBytes() {
  const std::uint64_t limit = hostMemoryLimit();
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kb = 0;
  std::string unit;
  while (in >> key >> kb >> unit)
    if (key == "MemAvailable:") return limit ? std::min(limit, kb * 1024) : kb * 1024;
  return limit;
}

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
  const std::uint64_t avail = availableHostBytes();
  if (avail != 0 && bytes > avail)
    throw OutOfMemoryError(what + ": needs " + formatBytes(bytes) + " (" + std::to_string(bytes) +
                           " bytes) of host memory, " + formatBytes(avail) + " available");
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
