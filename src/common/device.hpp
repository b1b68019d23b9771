#pragma once
/// @file device.hpp
/// "Is there a usable CUDA device, and which one?" Callable from plain C++ (no CUDA types).
#include <cstdint>
#include <optional>
#include <string>

namespace flocklife {

struct DeviceInfo {
  int index = 0;                    ///< CUDA device ordinal
  std::string name;                 ///< e.g. "NVIDIA H200"
  int computeMajor = 0, computeMinor = 0;
  int multiprocessors = 0;
  std::uint64_t totalBytes = 0;     ///< global memory
  std::uint64_t freeBytes = 0;      ///< free global memory at the time of the query
  int maxThreadsPerBlock = 0;
  std::uint64_t sharedBytesPerBlockOptin = 0;
  std::uint64_t l2Bytes = 0;
};

/// True when this build contains the CUDA kernels.
bool builtWithCuda();

/// The current CUDA device if this build has CUDA and a device can actually run kernels
/// (driver present, at least one device, a context can be created); std::nullopt otherwise.
/// `whyNot`, when given, receives a one-line reason for the nullopt (e.g. "no CUDA device").
/// Never throws.
std::optional<DeviceInfo> usableDevice(std::string* whyNot = nullptr);

}  // namespace flocklife
