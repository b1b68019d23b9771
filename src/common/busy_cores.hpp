#pragma once
/// @file busy_cores.hpp
/// A note for CPU work on a machine whose cores other work holds: OpenMP's waiting threads spin
/// (OMP_WAIT_POLICY unset), and the CPU kernels and methods then slow down many times (the
/// README's "Long runs" gives the figures), so their run times and benchmark rows mislead.
#include <string>

namespace flocklife {

/// The note noteIfCoresBusy prints when other work kept `busyCores` cores busy (a fraction of
/// `cores`, measured while flocklife slept), with OMP_WAIT_POLICY set or not: "" unless at least
/// half a core was busy and the policy is unset. One core held by other work is enough to slow
/// every OpenMP barrier: the 1-minute load average, used before, stayed below the 2 cores of a
/// machine with one busy loop running, which slowed the Life kernels 16x (a new user's trial).
std::string busyCoresNote(double busyCores, long cores, bool waitPolicySet);

/// The cores other work keeps busy: from two readings of /proc/stat's "cpu" line `sampleSeconds`
/// apart, flocklife sleeping in between, (1 - idle share) x the online cores; -1 where /proc/stat
/// cannot be read or did not advance.
double busyCoresNow(double sampleSeconds = 0.05);

/// Prints busyCoresNote for this machine (busyCoresNow) on stderr ("flocklife: note: ..."). Called
/// where a CPU method or kernel is about to run or be timed; takes about 50 ms unless
/// OMP_WAIT_POLICY is set.
void noteIfCoresBusy();

}  // namespace flocklife
