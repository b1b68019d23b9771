#pragma once
/// @file busy_cores.hpp
/// A note for CPU work on a machine whose cores other work holds: OpenMP's waiting threads spin
/// (OMP_WAIT_POLICY unset), and the CPU kernels and methods then slow down many times (the
/// README's "Long runs" gives the figures), so their run times and benchmark rows mislead.
#include <string>
#include <vector>

namespace flocklife {

/// The note noteIfCoresBusy prints when other work kept `busyCores` cores busy (a fraction of
/// `cores`, measured while flocklife slept), with OMP_WAIT_POLICY set or not: "" unless at least
/// half a core was busy and the policy is unset. One core held by other work is enough to slow
/// every OpenMP barrier: the 1-minute load average, used before, stayed below the 2 cores of a
/// machine with one busy loop running, which slowed the Life kernels 16x (a new user's trial).
std::string busyCoresNote(double busyCores, long cores, bool waitPolicySet);

/// The cores other work keeps busy among those this process may run on (sched_getaffinity: a
/// taskset or a container's cpuset; OpenMP sizes its team from them): from two readings of
/// /proc/stat's "cpuN" lines `sampleSeconds` apart, flocklife sleeping in between, the sum over
/// those CPUs of 1 - their idle share; -1 where /proc/stat cannot be read or did not advance.
double busyCoresNow(double sampleSeconds = 0.05);

/// busyCoresNow's figure from two /proc/stat texts, `before` and `after`, over the CPUs numbered
/// in `allowedCpus`: the sum of 1 - idle share (idle + iowait) over their "cpuN" lines. Where not
/// every allowed CPU has a line but the lines are as many as the allowed CPUs (a container's /proc
/// from lxcfs lists its cpuset renumbered from cpu0), all lines are taken; where they are not, or
/// the texts have no such lines, differ in CPUs or did not advance, -1.
double busyCoresBetween(const std::string& before, const std::string& after, const std::vector<int>& allowedCpus);

/// The CPUs this process may run on (sched_getaffinity), or the online CPUs where it fails.
long coresAllowed();

/// Prints busyCoresNote for this machine (busyCoresNow, coresAllowed) on stderr ("flocklife:
/// note: ..."). Called where a CPU method or kernel is about to run or be timed; takes about 50 ms,
/// and nothing where OpenMP's threads cannot spin: OMP_WAIT_POLICY set, OMP_NUM_THREADS=1, or one
/// allowed CPU.
void noteIfCoresBusy();

}  // namespace flocklife
