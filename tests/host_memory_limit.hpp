#pragma once
/// @file host_memory_limit.hpp
/// FLOCKLIFE_HOST_MEMORY_LIMIT for the scope of a test (common/memory.hpp reads it; child processes
/// inherit it), unset on every way out, so that no later test in the binary runs under the cap.
#include <cstdlib>

namespace flocklife::test {

struct HostMemoryLimit {
  /// `bytes`: the variable's text, e.g. "16777216".
  explicit HostMemoryLimit(const char* bytes) { setenv("FLOCKLIFE_HOST_MEMORY_LIMIT", bytes, 1); }
  ~HostMemoryLimit() { unsetenv("FLOCKLIFE_HOST_MEMORY_LIMIT"); }
  HostMemoryLimit(const HostMemoryLimit&) = delete;
  HostMemoryLimit& operator=(const HostMemoryLimit&) = delete;
};

}  // namespace flocklife::test
