#pragma once
/// @file cli_checks.hpp
/// CLI11 validators shared by the subcommands and the benchmark commands (header only).
/// CLI11 2.1 converts "-1" to an unsigned option by wrapping it to 2^64 - 1, so every unsigned
/// option (generations, steps, seeds, checkpoint intervals) carries kNonNegativeInteger.
#include <CLI/CLI.hpp>

#include <string>

namespace flocklife::app {

/// Accepts decimal digits only (at most 20); the error reads "--flag: expected a non-negative
/// integer, got '<value>'".
inline const CLI::Validator kNonNegativeInteger(
    [](std::string& s) -> std::string {
      const bool ok = !s.empty() && s.size() <= 20 && s.find_first_not_of("0123456789") == std::string::npos;
      return ok ? std::string() : "expected a non-negative integer, got '" + s + "'";
    },
    "UINT");

}  // namespace flocklife::app
