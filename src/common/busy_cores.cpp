#include "common/busy_cores.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace flocklife {

std::string busyCoresNote(double load, long cores, bool waitPolicySet) {
  if (waitPolicySet || cores < 1 || load < double(cores)) return std::string();
  char text[256];
  std::snprintf(text, sizeof text,
                "other work holds the cores (load %.1f on %ld); the CPU kernels' OpenMP threads spin while they wait, "
                "which can slow them many times: OMP_WAIT_POLICY=passive avoids it",
                load, cores);
  return text;
}

void noteIfCoresBusy() {
  double load = 0;
  if (::getloadavg(&load, 1) != 1) return;
  const std::string note = busyCoresNote(load, ::sysconf(_SC_NPROCESSORS_ONLN), std::getenv("OMP_WAIT_POLICY") != nullptr);
  if (!note.empty()) std::fprintf(stderr, "flocklife: note: %s\n", note.c_str());
}

}  // namespace flocklife
