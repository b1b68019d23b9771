#include "common/busy_cores.hpp"

#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
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
/// /proc/stat's "cpuN" lines: per CPU number, total and idle (idle + iowait) jiffies.
std::map<int, std::pair<unsigned long long, unsigned long long>> cpuTimes(const std::string& stat) {
  std::map<int, std::pair<unsigned long long, unsigned long long>> times;
  std::istringstream lines(stat);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.compare(0, 3, "cpu") != 0) break;  // the cpu lines come first
    if (line.size() < 4 || line[3] < '0' || line[3] > '9') continue;  // the aggregate "cpu " line
    std::istringstream fields(line.substr(3));
    int cpu = -1;
    fields >> cpu;
    unsigned long long total = 0, idle = 0, v = 0;
    for (int i = 0; i < 8 && fields >> v; ++i) {  // user nice system idle iowait irq softirq steal
      total += v;
      if (i == 3 || i == 4) idle += v;
    }
    if (cpu >= 0) times[cpu] = {total, idle};
  }
  return times;
}

std::string readProcStat() {
  std::ifstream in("/proc/stat");
  std::ostringstream text;
  text << in.rdbuf();
  return in ? text.str() : std::string();
}
}  // namespace

double busyCoresBetween(const std::string& before, const std::string& after, const std::vector<int>& allowedCpus) {
  const auto t0 = cpuTimes(before), t1 = cpuTimes(after);
  if (allowedCpus.empty() || t0.size() != t1.size()) return -1;
  std::vector<int> cpus;
  for (int cpu : allowedCpus)
    if (t0.count(cpu) && t1.count(cpu)) cpus.push_back(cpu);
  if (cpus.size() != allowedCpus.size()) {
    // Not every allowed CPU has its line: a container's /proc (lxcfs) lists only its cpuset,
    // renumbered from cpu0. Where the lines are as many as the allowed CPUs, they are those CPUs;
    // otherwise which lines are ours is unknown, and no figure is better than a wrong one.
    if (t0.size() != allowedCpus.size()) return -1;
    cpus.clear();
    for (const auto& [cpu, times] : t0) cpus.push_back(cpu);
  }
  double busy = 0;
  bool advanced = false;
  for (int cpu : cpus) {
    const auto& [total0, idle0] = t0.at(cpu);
    const auto it = t1.find(cpu);
    if (it == t1.end() || it->second.first < total0) return -1;
    // iowait, counted as idle, may decrease (proc(5)): no idle time then, rather than no figure.
    const unsigned long long total = it->second.first - total0,
                             idle = it->second.second > idle0 ? it->second.second - idle0 : 0;
    if (total == 0) continue;
    advanced = true;
    busy += 1.0 - double(std::min(idle, total)) / double(total);
  }
  return advanced ? busy : -1;
}

double busyCoresNow(double sampleSeconds) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return -1;
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  const std::string before = readProcStat();
  if (before.empty()) return -1;
  std::this_thread::sleep_for(std::chrono::duration<double>(sampleSeconds));
  return busyCoresBetween(before, readProcStat(), cpus);
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
