#pragma once
/// @file cli_checks.hpp
/// CLI11 validators shared by the subcommands and the benchmark commands (header only).
/// CLI11 2.1 converts "-1" to an unsigned option by wrapping it to 2^64 - 1, so every unsigned
/// option (generations, steps, seeds, checkpoint intervals) carries kNonNegativeInteger.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"

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

/// Refuses an empty value, which would otherwise read as "not given" (an empty --resume would
/// start afresh and overwrite the --checkpoint file); the error reads "--flag: expected
/// <what>, got an empty string". For file names, folder names and kernel or method names.
inline CLI::Validator nonEmpty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& s) -> std::string { return s.empty() ? "expected " + what + ", got an empty string" : std::string(); },
      "");
}
inline const CLI::Validator kFileName = nonEmpty("a file name");

/// Throws InputError "<flagA> and <flagB> name the same file '<path>'; ..." when both are given and
/// name one file (after making them absolute and resolving links), so that an --out file never
/// replaces the checkpoint a run saves or resumes from.
inline void refuseSameFile(const std::string& a, const char* flagA, const std::string& b, const char* flagB) {
  if (a.empty() || b.empty()) return;
  std::error_code ea, eb;
  // absolute() first: weakly_canonical leaves a relative path whose first part is missing relative.
  const auto pa = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ea), ea);
  const auto pb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, eb), eb);
  if (ea || eb ? a == b : pa == pb)
    throw InputError(std::string(flagA) + " and " + flagB + " name the same file '" + a +
                     "'; expected different files (one would overwrite the other)");
}

/// Calls f(option) for every option of `app` and of its subcommands, at any depth.
template <class F>
void forEachOption(CLI::App& app, F&& f) {
  for (CLI::Option* opt : app.get_options([](const CLI::Option*) { return true; })) f(opt);
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; })) forEachOption(*sub, f);
}

/// Makes every integer option of `app` and of its subcommands (type INT or UINT, lists included)
/// read its values as decimal numbers. CLI11 2.1 converts them with strtoll / strtoull in base 0,
/// which reads "010" as octal 8 and "0x10" as hex 16 and saturates values beyond 64 bits at the
/// largest one, all without a word. Here leading zeros are dropped ("010" -> 10, "-007" -> -7),
/// and anything but an optional sign and at most 2^63 - 1 in decimal digits is refused, with
/// "--flag: expected a decimal integer at most 2^63 - 1 in size, got '<value>'" (empty items of a
/// comma-separated list: checkListItems). Call it once every option has been added.
inline void decimalIntegers(CLI::App& app) {
  static const CLI::Validator decimal(
      [](std::string& s) -> std::string {
        const std::string kMax = "9223372036854775807";  // 2^63 - 1
        const std::size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
        const std::size_t first = s.find_first_not_of('0', sign);  // first significant digit
        const std::size_t digits = first == std::string::npos ? 0 : s.size() - first;
        const bool ok = s.size() > sign && s.find_first_not_of("0123456789", sign) == std::string::npos &&
                        (digits < kMax.size() || (digits == kMax.size() && s.substr(first) <= kMax));
        if (!ok) return "expected a decimal integer at most 2^63 - 1 in size, got '" + s + "'";
        s = s.substr(0, sign) + (digits == 0 ? std::string("0") : s.substr(first));
        return std::string();
      },
      "");
  forEachOption(app, [](CLI::Option* opt) {
    if (opt->get_type_name() == "INT" || opt->get_type_name() == "UINT") opt->transform(decimal);
  });
}

/// The item of a comma-separated list as checkListItems compares it: a plain decimal number
/// (optional sign, digits, at most one '.') by its value ("010", "+10" and "10.0" are one item),
/// anything else as written.
inline std::string listItemKey(const std::string& item) {
  const std::size_t sign = !item.empty() && (item[0] == '-' || item[0] == '+') ? 1 : 0;
  const bool number = item.size() > sign && item.find_first_not_of("0123456789.", sign) == std::string::npos &&
                      item.find_first_of("0123456789") != std::string::npos &&
                      std::count(item.begin(), item.end(), '.') <= 1;
  if (!number) return item;
  char key[40];
  std::snprintf(key, sizeof key, "%.17Lg", std::strtold(item.c_str(), nullptr));
  return key;
}

/// Checks the items of every comma-separated list option of `app` or its subcommands (one with
/// delimiter ','), both spellings ("--flag value", "--flag=value") and over repeated flags:
/// an empty item ("--n 100,,200", "--sizes 64,") is refused, as CLI11 2.1 drops it before any
/// check sees it, and so is an item given twice ("--n 100,200,100", "--n 100 --n 0100"; numbers
/// compared by value, listItemKey), which a benchmark would otherwise run twice. Call it on the
/// command line before app.parse(). @throws CLI::ValidationError "--flag: empty item in
/// '<value>'; expected a comma-separated list such as 1,2" or "--flag: '<item>' is given twice;
/// expected each item once".
inline void checkListItems(CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> lists;  // long names (without "--") of the list options, every subcommand
  forEachOption(app, [&](const CLI::Option* opt) {
    if (opt->get_delimiter() == ',') lists.insert(lists.end(), opt->get_lnames().begin(), opt->get_lnames().end());
  });
  std::vector<std::pair<std::string, std::string>> seen;  // (name, item key) given so far
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (token.rfind("--", 0) != 0) continue;
    const std::size_t eq = token.find('=');
    const std::string name = token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (std::find(lists.begin(), lists.end(), name) == lists.end()) continue;
    if (eq == std::string::npos && i + 1 >= argc) continue;  // no value: CLI11 says so
    const std::string value = eq != std::string::npos ? token.substr(eq + 1) : std::string(argv[i + 1]);
    if (value.find(",,") != std::string::npos || (!value.empty() && (value.front() == ',' || value.back() == ',')))
      throw CLI::ValidationError("--" + name, "empty item in '" + value + "'; expected a comma-separated list such as 1,2");
    for (std::size_t begin = 0; !value.empty() && begin <= value.size();) {
      const std::size_t end = std::min(value.find(',', begin), value.size());
      const std::string item = value.substr(begin, end - begin);
      const auto key = std::make_pair(name, listItemKey(item));
      if (std::find(seen.begin(), seen.end(), key) != seen.end())
        throw CLI::ValidationError("--" + name, "'" + item + "' is given twice; expected each item once");
      seen.push_back(key);
      begin = end + 1;
    }
  }
}

/// The output checks of a run of life or boids, before anything is read: --out names neither the
/// --checkpoint nor the --resume file, --checkpoint not the input file (`input`, given as
/// `inputFlag`: --pattern or --in), and both outputs can be written (requireWritableFile).
/// @throws InputError naming the flags and the path.
inline void checkRunFiles(const std::string& out, const std::string& checkpoint, const std::string& resume,
                          const std::string& input, const char* inputFlag) {
  refuseSameFile(out, "--out", checkpoint, "--checkpoint");
  refuseSameFile(out, "--out", resume, "--resume");
  refuseSameFile(checkpoint, "--checkpoint", input, inputFlag);
  if (!out.empty()) requireWritableFile(out, "--out");
  if (!checkpoint.empty()) requireWritableFile(checkpoint, "--checkpoint");
}

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
