#include "common/busy_cores.hpp"

#include <sched.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>
#include <vector>

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
/// Per CPU of `allowed`: total and idle (idle + iowait) jiffies from /proc/stat's "cpuN" lines;
/// false where unreadable or where no allowed CPU was found.
bool readCpuTimes(const cpu_set_t& allowed, std::vector<std::pair<unsigned long long, unsigned long long>>& times) {
  std::ifstream stat("/proc/stat");
  std::string line;
  times.clear();
  while (std::getline(stat, line)) {
    if (line.compare(0, 3, "cpu") != 0) break;  // the cpu lines come first
    if (line.size() < 4 || line[3] < '0' || line[3] > '9') continue;  // the aggregate "cpu " line
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    fields >> cpu;
    if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &allowed)) continue;
    unsigned long long total = 0, idle = 0, v = 0;
    for (int i = 0; i < 8 && fields >> v; ++i) {  // user nice system idle iowait irq softirq steal
      total += v;
      if (i == 3 || i == 4) idle += v;
    }
    times.emplace_back(total, idle);
  }
  return !times.empty();
}
}  // namespace

double busyCoresNow(double sampleSeconds) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  std::vector<std::pair<unsigned long long, unsigned long long>> before, after;
  if (!readCpuTimes(allowed, before)) return -1;
  std::this_thread::sleep_for(std::chrono::duration<double>(sampleSeconds));
  if (!readCpuTimes(allowed, after) || after.size() != before.size()) return -1;
  double busy = 0;
  bool advanced = false;
  for (std::size_t i = 0; i < before.size(); ++i) {
    const unsigned long long total = after[i].first - before[i].first, idle = after[i].second - before[i].second;
    if (total == 0) continue;
    advanced = true;
    busy += 1.0 - double(idle) / double(total);
  }
  return advanced ? busy : -1;
}

long coresAllowed() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return ::sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed) : ::sysconf(_SC_NPROCESSORS_ONLN);
}

void noteIfCoresBusy() {
  // No sample where the threads cannot spin: a wait policy set, or one thread (OMP_NUM_THREADS=1).
  const char* threads = std::getenv("OMP_NUM_THREADS");
  if (std::getenv("OMP_WAIT_POLICY") != nullptr || (threads && std::atoi(threads) == 1) || coresAllowed() < 2) return;
  const std::string note = busyCoresNote(busyCoresNow(), coresAllowed(), false);
  if (!note.empty()) std::fprintf(stderr, "flocklife: note: %s\n", note.c_str());
}

}  // namespace flocklife
