// Repeat (--repeat / --repeat-seconds) and the per-repetition report of life and boids.
#include "app/long_run.hpp"


#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

#include "app/cli_checks.hpp"
#include "common/device.hpp"

namespace flocklife::app {

void Repeat::validate(bool withCheckpoint) const {
  if ((count > 1 || (countOption_ && countOption_->count() > 0)) && seconds > 0)
    throw InputError("--repeat and --repeat-seconds exclude each other");
  if (active() && withCheckpoint)
    throw InputError(std::string(seconds > 0 ? "--repeat-seconds" : "--repeat") + " and --checkpoint exclude each other");
}

void Repeat::addOptions(CLI::App* cmd, const char* what) {
  countOption_ = cmd->add_option("--repeat", count, std::string("Run the whole job N times in this process, ") + what)
      ->check(integerIn(1, std::numeric_limits<int>::max()));
  cmd->add_option("--repeat-seconds", seconds,
                  std::string("Run the whole job again until S seconds have passed (at least twice), ") + what)
      ->check(CLI::Validator(
          [](std::string& v) -> std::string {
            char* end = nullptr;
            const double x = std::strtod(v.c_str(), &end);
            return end != v.c_str() && *end == '\0' && std::isfinite(x) && x > 0
                       ? std::string()
                       : "expected a finite number of seconds > 0, got '" + v + "'";
          },
          "SECONDS > 0"));
}

std::string describeRun(bool resumed, std::uint64_t start, std::uint64_t target, const char* unit) {
  const std::string units = std::string(unit) + "s";
  if (resumed)
    return units + " " + std::to_string(start) + " to " + std::to_string(target) + " (" +
           std::to_string(target - start) + " run)";
  return std::to_string(target) + " " + (target == 1 ? std::string(unit) : units);
}

void reportRepetition(std::FILE* to, int r, int n, const char* label, std::uint64_t value, std::uint64_t checksum, double seconds,
                      bool onDevice) {
  const auto dev = onDevice ? usableDevice() : std::nullopt;
  const std::string of = n > 0 ? "/" + std::to_string(n) : "";
  const std::string free = dev ? ", device memory free " + std::to_string(dev->freeBytes) + " bytes" : "";
  std::fprintf(to, "repeat %d%s: %s %llu, checksum 0x%016llx, %.3f s%s\n", r, of.c_str(), label, (unsigned long long)value,
              (unsigned long long)checksum, seconds, free.c_str());
  std::fflush(to);
}

}  // namespace flocklife::app
