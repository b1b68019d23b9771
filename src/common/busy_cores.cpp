#include "common/busy_cores.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

namespace flocklife {

std::string busyCoresNote(double busyCores, long cores, bool waitPolicySet) {
  if (waitPolicySet || cores < 1 || busyCores < 0.5) return std::string();
  char text[256];
  std::snprintf(text, sizeof text,
                "other work keeps %.1f of the %ld cores busy; the CPU kernels' OpenMP threads spin while they wait for "
                "each other, which can slow them many times: OMP_WAIT_POLICY=passive avoids it",
                busyCores, cores);
  return text;
}

namespace {
/// Total and idle (idle + iowait) jiffies of /proc/stat's "cpu" line; false where unreadable.
bool readCpuTimes(unsigned long long& total, unsigned long long& idle) {
  std::ifstream stat("/proc/stat");
  std::string line, name;
  if (!std::getline(stat, line)) return false;
  std::istringstream fields(line);
  fields >> name;
  if (name != "cpu") return false;
  total = idle = 0;
  unsigned long long v = 0;
  for (int i = 0; i < 8 && fields >> v; ++i) {  // user nice system idle iowait irq softirq steal
    total += v;
    if (i == 3 || i == 4) idle += v;
  }
  return total > 0;
}
}  // namespace

double busyCoresNow(double sampleSeconds) {
  unsigned long long total0 = 0, idle0 = 0, total1 = 0, idle1 = 0;
  if (!readCpuTimes(total0, idle0)) return -1;
  std::this_thread::sleep_for(std::chrono::duration<double>(sampleSeconds));
  if (!readCpuTimes(total1, idle1) || total1 <= total0) return -1;
  const double idleShare = double(idle1 - idle0) / double(total1 - total0);
  return (1.0 - idleShare) * double(::sysconf(_SC_NPROCESSORS_ONLN));
}

void noteIfCoresBusy() {
  if (std::getenv("OMP_WAIT_POLICY") != nullptr) return;  // no sample needed
  const double busy = busyCoresNow();
  const std::string note = busyCoresNote(busy, ::sysconf(_SC_NPROCESSORS_ONLN), false);
  if (!note.empty()) std::fprintf(stderr, "flocklife: note: %s\n", note.c_str());
}

}  // namespace flocklife
