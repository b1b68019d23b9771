#pragma once
/// @file cli_checks.hpp
/// CLI11 validators shared by the subcommands and the benchmark commands (header only).
/// CLI11 2.1 converts "-1" to an unsigned option by wrapping it to 2^64 - 1, so every unsigned
/// option (generations, steps, seeds, checkpoint intervals) carries kNonNegativeInteger.
#include <CLI/CLI.hpp>

#include <string>

namespace flocklife::app {

/// Accepts decimal digits only, at most 2^63 - 1 (every such option fits an int64 or a uint64);
/// the error reads "--flag: expected a non-negative integer at most 2^63 - 1, got '<value>'".
inline const CLI::Validator kNonNegativeInteger(
    [](std::string& s) -> std::string {
      const std::string kMax = "9223372036854775807";  // 2^63 - 1
      const std::size_t digits = s.find_first_not_of('0') == std::string::npos ? 1 : s.size() - s.find_first_not_of('0');
      const bool ok = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos &&
                      (digits < kMax.size() || (digits == kMax.size() && s.substr(s.size() - digits) <= kMax));
      return ok ? std::string() : "expected a non-negative integer at most 2^63 - 1, got '" + s + "'";
    },
    "");  // no description: --help shows the option's type alone

/// Accepts an integer in [lo, hi] (decimal, optional '-'); the error reads "--flag: expected an
/// integer in [lo, hi], got '<value>'".
inline CLI::Validator integerIn(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        const std::string bad = "expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + s + "'";
        const std::size_t first = !s.empty() && s[0] == '-' ? 1 : 0;
        if (s.size() == first || s.size() > 19 || s.find_first_not_of("0123456789", first) != std::string::npos) return bad;
        const long long v = std::stoll(s);
        return v < lo || v > hi ? bad : std::string();
      },
      "");
}

}  // namespace flocklife::app
