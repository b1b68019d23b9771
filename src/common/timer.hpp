#pragma once
/// @file timer.hpp
/// Wall-clock timer on std::chrono::steady_clock, for CPU code ("std::chrono Measured").
#include <chrono>

namespace flocklife {

class HostTimer {
 public:
  HostTimer() : start_(Clock::now()) {}
  void restart() { start_ = Clock::now(); }
  /// Milliseconds since construction or the last restart().
  double elapsedMs() const {
    return std::chrono::duration<double, std::milli>(Clock::now() - start_).count();
  }
  double elapsedSeconds() const { return elapsedMs() * 1e-3; }

 private:
  using Clock = std::chrono::steady_clock;
  Clock::time_point start_;
};

}  // namespace flocklife
