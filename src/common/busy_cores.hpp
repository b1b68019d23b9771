#pragma once
/// @file busy_cores.hpp
/// A note for CPU work on a machine whose cores other work holds: OpenMP's waiting threads spin
/// (OMP_WAIT_POLICY unset), and the CPU kernels and methods then slow down many times (the
/// README's "Long runs" gives the figures), so their run times and benchmark rows mislead.
#include <string>

namespace flocklife {

/// The note noteIfCoresBusy prints for a 1-minute load average `load` on `cores` online cores,
/// with OMP_WAIT_POLICY set or not: "" unless the load is at least the cores and the policy unset.
std::string busyCoresNote(double load, long cores, bool waitPolicySet);

/// Prints busyCoresNote for this machine on stderr ("flocklife: note: ..."). Called where a CPU
/// method or kernel is about to run or be timed.
void noteIfCoresBusy();

}  // namespace flocklife
