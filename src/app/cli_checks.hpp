#pragma once
/// @file cli_checks.hpp
/// CLI11 validators shared by the subcommands and the benchmark commands (header only).
/// CLI11 2.1 converts "-1" to an unsigned option by wrapping it to 2^64 - 1, so every unsigned
/// option (generations, steps, seeds, checkpoint intervals) carries kNonNegativeInteger.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/checkpoint_io.hpp"
#include "common/float_text.hpp"
#include "common/errors.hpp"

namespace flocklife::app {

/// "WIDTHxHEIGHT" (or "WIDTHXHEIGHT") -> {W, H}, each in decimal digits only (no sign, no spaces)
/// and in [1, maxSide]: the one parser of every size flag (life --size, bench fps life --size,
/// --window-size). `maxName` writes maxSide in the message ("2^40"), `example` is a valid value.
/// @throws InputError "<flag> '<text>': expected WIDTHxHEIGHT, two whole numbers from 1 to
///         <maxName>, e.g. <example>".
inline std::pair<std::int64_t, std::int64_t> parseDimensions(const std::string& text, const std::string& flag,
                                                             std::int64_t maxSide, const std::string& maxName,
                                                             const std::string& example) {
  const InputError error(flag + " '" + text + "': expected WIDTHxHEIGHT, two whole numbers from 1 to " + maxName +
                         ", e.g. " + example);
  const auto side = [&](const std::string& digits) {
    const std::size_t first = digits.find_first_not_of('0');
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || first == std::string::npos ||
        digits.size() - first > 18)
      throw error;
    const std::int64_t v = std::stoll(digits);
    if (v > maxSide) throw error;
    return v;
  };
  const std::size_t x = text.find_first_of("xX");
  if (x == std::string::npos) throw error;
  return {side(text.substr(0, x)), side(text.substr(x + 1))};
}

/// Refuses a file name for `flag` whose extension (the part of its last component from its last
/// '.', not a leading one) is none of `extensions` (lower case, compared in any letter case);
/// a name without an extension ("/dev/stdout", "out") passes when `bareOk`.
/// @throws InputError "<flag> <path>: expected a name ending in <what>".
inline void requireExtension(const std::string& path, const char* flag, std::initializer_list<const char*> extensions,
                             const std::string& what, bool bareOk) {
  const std::string ext = lowerExtension(path);
  if (ext.empty() && bareOk) return;
  for (const char* e : extensions)
    if (ext == e) return;
  throw InputError(std::string(flag) + " " + path + ": expected a name ending in " + what);
}

/// Refuses a --checkpoint name that ends in one of the `outputs` extensions (lower case, compared in
/// any letter case), those of the run's --out format: a checkpoint is flocklife's binary format,
/// and under such a name it would be taken for a pattern or a CSV.
/// @throws InputError "--checkpoint <path>: a checkpoint is flocklife's binary format, not <what>;
///         expected another name, such as run.ck (--out writes <what>)".
inline void refuseCheckpointNamedAsOutput(const std::string& path, std::initializer_list<const char*> outputs,
                                          const std::string& what) {
  const std::string ext = lowerExtension(path);
  for (const char* e : outputs)
    if (!ext.empty() && ext == e)
      throw InputError("--checkpoint " + path + ": a checkpoint is flocklife's binary format, not " + what +
                       "; expected another name, such as run.ck (--out writes " + what + ")");
}

/// Accepts decimal digits only, at most 2^63 - 1 (every such option fits an int64 or a uint64);
/// the error reads "--flag: expected a non-negative integer (decimal digits only) at most 2^63 - 1,
/// got '<value>'" ('+5' is refused too).
inline const CLI::Validator kNonNegativeInteger(
    [](std::string& s) -> std::string {
      const std::string kMax = "9223372036854775807";  // 2^63 - 1
      const std::size_t digits = s.find_first_not_of('0') == std::string::npos ? 1 : s.size() - s.find_first_not_of('0');
      const bool ok = !s.empty() && s.find_first_not_of("0123456789") == std::string::npos &&
                      (digits < kMax.size() || (digits == kMax.size() && s.substr(s.size() - digits) <= kMax));
      return ok ? std::string() : "expected a non-negative integer (decimal digits only) at most 2^63 - 1, got '" + s + "'";
    },
    "");  // no description: --help shows the option's type alone

/// " (default V)" for a help text, V as an output stream writes it (100, 0.2, 0.01,
/// out/bench/boids.csv), a list's items joined by commas ("1,2"), so that --help shows the value
/// the option starts with.
template <class T>
std::string defaultText(const T& value) {
  std::ostringstream text;
  text << " (default " << value << ")";
  return text.str();
}
template <class T>
std::string defaultText(const std::vector<T>& values) {
  std::ostringstream text;
  text << " (default ";
  for (std::size_t i = 0; i < values.size(); ++i) text << (i ? "," : "") << values[i];
  text << ")";
  return text.str();
}

/// Refuses an empty value, which would otherwise read as "not given" (an empty --resume would
/// start afresh and overwrite the --checkpoint file); the error reads "--flag: expected
/// <what>, got an empty string". For kernel or method names and sizes; file and folder names
/// take pathName, which refuses flags too.
inline CLI::Validator nonEmpty(const std::string& what) {
  return CLI::Validator(
      [what](std::string& s) -> std::string { return s.empty() ? "expected " + what + ", got an empty string" : std::string(); },
      "");
}

/// A file or folder name (`what`: "a file name", "a folder name"): not empty (as nonEmpty), and
/// not a flag. CLI11 gives an option the next argument even when that is a flag, so `--out
/// --periodic` wrote a file named "--periodic" and dropped the flag; a value that starts with '-'
/// and a letter or a second '-' is refused: "expected a file name, got '--periodic', a flag: was
/// the name left out? (for one of that name write ./--periodic)".
inline CLI::Validator pathName(const std::string& what) {
  return CLI::Validator(
      [what](std::string& s) -> std::string {
        if (s.empty()) return "expected " + what + ", got an empty string";
        if (s.size() >= 2 && s[0] == '-' && (s[1] == '-' || std::isalpha(static_cast<unsigned char>(s[1]))))
          return "expected " + what + ", got '" + s + "', a flag: was the name left out? (for one of that name write ./" +
                 s + ")";
        return std::string();
      },
      "");
}
inline const CLI::Validator kFileName = pathName("a file name");

/// Accepts a number that a float holds (boids' model options), read by readFloatText: at most
/// 3.4e38 in magnitude and, unless zero, not rounding to 0 as a float. Such values were rounded
/// first and reported as "got inf" or "got 0", and a negative one that rounded to -0 passed a
/// ">= 0" check. The error reads "--flag: '1e-50' rounds to 0 as a float (the smallest is about
/// 1.4e-45)" or "--flag: '1e39' is out of the range of a float (magnitude at most 3.4e38)"; text
/// that is not one number is left to CLI11's conversion ("could not read") and to decimalFloats
/// (a hexadecimal number), and the option's own range ("inf" included) to boids::validate.
inline const CLI::Validator kFloatValue(
    [](std::string& s) -> std::string {
      const FloatText f = readFloatText(s);
      if (!f.number) return std::string();
      if (f.overflows) return "'" + s + "' is out of the range of a float (magnitude at most 3.4e38)";
      if (f.underflows) return "'" + s + "' rounds to 0 as a float (the smallest is about 1.4e-45)";
      return std::string();
    },
    "");

/// Throws InputError "<flagA> and <flagB> name the same file '<path>'; ..." when both are given and
/// name one file (after making them absolute and resolving links, resolvedPath), so that an --out
/// file never replaces the checkpoint a run saves or resumes from.
inline void refuseSameFile(const std::string& a, const char* flagA, const std::string& b, const char* flagB) {
  if (a.empty() || b.empty()) return;
  std::error_code ea, eb;
  const auto pa = resolvedPath(a, ea);
  const auto pb = resolvedPath(b, eb);
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

/// Whether `opt`'s values are of CLI11's type `type` ("INT", "UINT", "FLOAT"): its type name is
/// that, or that followed by ':' and its validators' descriptions ("FLOAT:SECONDS > 0").
inline bool hasType(const CLI::Option& opt, const std::string& type) {
  const std::string name = opt.get_type_name();
  return name == type || name.rfind(type + ":", 0) == 0;
}

/// Makes every integer option of `app` and of its subcommands (type INT or UINT, lists included)
/// read its values as decimal numbers. CLI11 2.1 converts them with strtoll / strtoull in base 0,
/// which reads "010" as octal 8 and "0x10" as hex 16 and saturates values beyond 64 bits at the
/// largest one, all without a word. Here leading zeros are dropped ("010" -> 10, "-007" -> -7),
/// and anything but an optional sign and at most 2^63 - 1 in decimal digits is refused, with
/// "--flag: expected an integer in decimal digits, of absolute value at most 2^63 - 1, got
/// '<value>'", followed by " (write it as 1000)" where the value is a whole number in another
/// notation ("1e3", "5.0"); empty items of a comma-separated list: refuseEmptyListItems. Call it
/// once every option has been added.
inline void decimalIntegers(CLI::App& app) {
  static const CLI::Validator decimal(
      [](std::string& s) -> std::string {
        const std::string kMax = "9223372036854775807";  // 2^63 - 1
        const std::size_t sign = !s.empty() && (s[0] == '-' || s[0] == '+') ? 1 : 0;
        const std::size_t first = s.find_first_not_of('0', sign);  // first significant digit
        const std::size_t digits = first == std::string::npos ? 0 : s.size() - first;
        const bool ok = s.size() > sign && s.find_first_not_of("0123456789", sign) == std::string::npos &&
                        (digits < kMax.size() || (digits == kMax.size() && s.substr(first) <= kMax));
        if (!ok) {
          std::string message =
              "expected an integer in decimal digits, of absolute value at most 2^63 - 1, got '" + s + "'";
          // A whole number in another notation ("1e3", "5e6", "100.0") gets its digits named.
          // Only where the double holds it exactly (|v| <= 2^53) and no underflow made it 0 (a review:
          // "12345678901234567.0" was named 12345678901234568, "1e-400" 0).
          char* end = nullptr;
          errno = 0;
          const double v = s.find_first_of("xXnN") == std::string::npos ? std::strtod(s.c_str(), &end) : 0.5;
          if (end == s.c_str() + s.size() && !s.empty() && errno != ERANGE && v == std::floor(v) &&
              std::fabs(v) <= 9007199254740992.0) {
            char digits[32];
            std::snprintf(digits, sizeof digits, "%.0f", v + 0.0);  // + 0.0: -0 as 0
            message += " (write it as " + std::string(digits) + ")";
          }
          return message;
        }
        s = s.substr(0, sign) + (digits == 0 ? std::string("0") : s.substr(first));
        return std::string();
      },
      "");
  forEachOption(app, [](CLI::Option* opt) {
    if (hasType(*opt, "INT") || hasType(*opt, "UINT")) opt->transform(decimal);
  });
}

/// Makes every floating-point option of `app` and of its subcommands (type FLOAT, lists included)
/// refuse an empty value, which CLI11 2.1 reads as 0 ("life --random ''" ran a soup of density 0,
/// "bench boids --staging-ratios ''" a ratio of 0), with "--flag: expected a number, got an empty
/// string", and a hexadecimal one, which it reads with strtold ("life --random 0x0.8p0" ran density
/// 0.5), with "--flag: '0x10' is hexadecimal; expected a decimal number" (readFloatText), and one
/// with a space or other blank, which strtold skipped at the front ("--scale ' 2'" ran, while
/// "--n ' 5'" is refused by decimalIntegers), with "--flag: expected a number without spaces, got
/// ' 2' (write it as 2)". Call it once every option has been added.
inline void decimalFloats(CLI::App& app) {
  static const CLI::Validator given(
      [](std::string& s) -> std::string {
        if (s.find_first_not_of(" \t") == std::string::npos) return "expected a number, got an empty string";
        if (readFloatText(s).hexadecimal) return "'" + s + "' is hexadecimal; expected a decimal number";
        const auto blank = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
        if (std::any_of(s.begin(), s.end(), blank)) {
          std::string bare = s;
          bare.erase(std::remove_if(bare.begin(), bare.end(), blank), bare.end());
          return "expected a number without spaces, got '" + s + "'" +
                 (readFloatText(bare).number ? " (write it as " + bare + ")" : std::string());
        }
        return std::string();
      },
      "");
  forEachOption(app, [](CLI::Option* opt) {
    if (hasType(*opt, "FLOAT")) opt->check(given);
  });
}

/// Makes every flag of `app` and of its subcommands (an option without a value, such as
/// --periodic) take, as --flag=V, only true, false, on, off, yes, no, 1 or 0 (in any letter case).
/// CLI11 2.1 reads any integer there, its sign deciding ("--periodic=-1" ran an open cube, "=5"
/// a periodic one: a tester), and the single letters t, f, y, n, + and -. The error reads "--flag:
/// expected no value, or true/false, on/off, yes/no or 1/0, got '<value>'". Call it once every
/// option has been added.
inline void plainFlags(CLI::App& app) {
  static const CLI::Validator plain(
      [](std::string& s) -> std::string {
        std::string lower = s;
        for (char& c : lower) c = char(std::tolower(static_cast<unsigned char>(c)));
        for (const char* ok : {"true", "false", "on", "off", "yes", "no", "1", "0"})
          if (lower == ok) return std::string();
        return "expected no value, or true/false, on/off, yes/no or 1/0, got '" + s + "'";
      },
      "");
  forEachOption(app, [](CLI::Option* opt) {
    if (opt->get_expected_max() == 0) opt->check(plain);
  });
}

/// The commands the leading words of a command line name: `apps` holds `app` and then one
/// subcommand per word ("bench fps boids --n 5" gives app, bench, fps, boids), `next` the index in
/// argv of the first word after them. Option groups (subcommands without a name) never match.
struct CommandPath {
  std::vector<CLI::App*> apps;
  int next = 1;
};
inline CommandPath commandPath(CLI::App& app, int argc, const char* const* argv) {
  CommandPath path{{&app}, 1};
  for (; path.next < argc; ++path.next) {
    const auto sub = path.apps.back()->get_subcommands(
        [&](CLI::App* s) { return !s->get_name().empty() && s->check_name(argv[path.next]); });
    if (sub.empty()) break;
    path.apps.push_back(sub.front());
  }
  return path;
}

/// CLI11 2.1's error `message` in plainer words: unexpected words listed in the order given (it
/// lists them last first), "At Most 1 required but received 2" as "given 2 times; expected it
/// once", "Could not convert: --random = abc" as "--random: could not read 'abc' as a number" (the
/// option's type from `path`'s commands), 'auto' in a sweep list of bench boids with a pointer to
/// flocklife boids, which picks such settings, and the closing "Run with --help" naming the command
/// whose --help lists the options meant ("Run 'flocklife life --help' to list its options.").
inline std::string rewordCli11Error(std::string message, const CommandPath& path, const char* const* argv) {
  for (const std::string lead :
       {"The following arguments were not expected: ", "The following argument was not expected: "}) {
    const std::size_t at = message.find(lead);
    if (at == std::string::npos) continue;
    const std::size_t start = at + lead.size(), end = std::min(message.find('\n', start), message.size());
    std::istringstream words(message.substr(start, end - start));
    std::vector<std::string> given{std::istream_iterator<std::string>(words), {}};
    std::string inOrder;
    for (auto w = given.rbegin(); w != given.rend(); ++w) inOrder += (inOrder.empty() ? "" : " ") + *w;
    message.replace(start, end - start, inOrder);
  }
  const std::string atMostOnce = "At Most 1 required but received ";
  if (const std::size_t at = message.find(atMostOnce); at != std::string::npos) {
    const std::size_t end = message.find_first_not_of("0123456789", at + atMostOnce.size());
    message.replace(at, end - at,
                    "given " + message.substr(at + atMostOnce.size(), end - at - atMostOnce.size()) +
                        " times; expected it once");
  }
  // CLI11 2.1 says "Could not convert: --random = abc" where a value is not of the option's type.
  const std::string convert = "Could not convert: ";
  if (const std::size_t at = message.find(convert); at != std::string::npos) {
    const std::size_t eq = message.find(" = ", at), end = std::min(message.find('\n', at), message.size());
    if (eq != std::string::npos && eq < end) {
      const std::string flag = message.substr(at + convert.size(), eq - at - convert.size());
      const std::string value = message.substr(eq + 3, end - eq - 3);
      const CLI::Option* opt = nullptr;  // the command's own option, or a parent's
      for (auto c = path.apps.rbegin(); c != path.apps.rend() && !opt; ++c) opt = (*c)->get_option_no_throw(flag);
      message.replace(at, end - at,
                      flag + ": could not read '" + value + "' as " +
                          (opt && hasType(*opt, "FLOAT")                            ? "a number"
                           : opt && (hasType(*opt, "INT") || hasType(*opt, "UINT")) ? "an integer"
                                                                                    : "its value"));
    }
  }
  // bench boids's sweep lists take numbers only, where flocklife boids's single flags take "auto".
  const bool benchBoids = path.apps.size() == 3 && path.apps[1]->get_name() == "bench" &&
                          path.apps[2]->get_name() == "boids";
  const bool tuningFlag = [&message] {
    for (const char* f : {"--cell-widths:", "--block-sizes:", "--x-splits:", "--staging-ratios:", "--sort-every:"})
      if (message.rfind(f, 0) == 0) return true;
    return false;
  }();
  const bool autoItem = [&message] {  // 'auto' as the value or one item of it ("1,auto")
    for (const std::string lead : {"could not read '", "got '"}) {
      const std::size_t at = message.find(lead);
      if (at == std::string::npos) continue;
      const std::size_t start = at + lead.size(), end = message.find('\'', start);
      std::istringstream items(message.substr(start, end == std::string::npos ? std::string::npos : end - start));
      for (std::string item; std::getline(items, item, ',');)
        if (item == "auto") return true;
    }
    return false;
  }();
  if (benchBoids && tuningFlag && autoItem) {
    const std::size_t end = std::min(message.find('\n'), message.size());
    message.insert(end, " (the sweep runs the values given; flocklife boids picks 'auto' settings and prints them)");
  }
  std::string command = "flocklife";
  for (int i = 1; i < path.next; ++i) command += std::string(" ") + argv[i];
  const std::string runWith = "Run with --help for more information.";
  if (const std::size_t at = message.find(runWith); at != std::string::npos)
    message.replace(at, runWith.size(), "Run '" + command + " --help' to list its options.");
  return message;
}

/// Refuses a word that is neither a flag nor a command where `app` (or the subcommand the leading
/// words name, e.g. "bench") needs a subcommand, and a missing command: CLI11 2.1 would say only
/// "A subcommand is required". Commands that need a subcommand take no flags of their own but
/// --help, so a flag there means the command was left out. @throws InputError "unknown command
/// 'frob'; expected one of life, scan-test, ..." ("unknown command 'frob' after 'bench'; ..."
/// below a subcommand), or "a command is needed after 'bench fps' [before '--seconds']: one of
/// boids, life" when the words end, or a flag comes, before one.
inline void refuseUnknownCommand(CLI::App& app, int argc, const char* const* argv) {
  const CommandPath path = commandPath(app, argc, argv);
  CLI::App& current = *path.apps.back();
  if (current.get_require_subcommand_min() == 0) return;  // the words after it are its own
  std::string parents, names;
  for (int i = 1; i < path.next; ++i) parents += (i > 1 ? " " : "") + std::string(argv[i]);
  for (const CLI::App* s : current.get_subcommands([](CLI::App* a) { return !a->get_name().empty(); }))
    names += (names.empty() ? "" : ", ") + s->get_name();
  const std::string after = parents.empty() ? std::string() : " after '" + parents + "'";
  const std::string hint = " (--help describes them)";
  if (path.next == argc)  // no word left: "flocklife", "flocklife bench"
    throw InputError("a command is needed" + after + ": one of " + names + hint);
  const std::string word = argv[path.next];
  if (word.empty() || word[0] != '-')
    throw InputError("unknown command '" + word + "'" + after + "; expected one of " + names + hint);
  if (word != "-h" && word != "--help" && word != "--help-all" && !(word == "--version" && path.next == 1))
    throw InputError("a command is needed" + after + " before '" + word + "': one of " + names + hint);
}

/// Refuses "--flag=" with nothing after the '=' (the shell's "--out=''" too): CLI11 2.1 would
/// take the next word as the value ("--out= --json" wrote a file named "--json"). "--" ends the
/// options. @throws InputError "--out=: nothing after '='; expected --out=VALUE, or the flag
/// without '='" (which also fits a flag that takes no value, such as --json).
inline void refuseEmptyValuesAfterEquals(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string token = argv[i];
    if (token == "--") return;
    if (token.size() > 3 && token.rfind("--", 0) == 0 && token.find('=') == token.size() - 1) {
      const std::string flag = token.substr(0, token.size() - 1);
      throw InputError(token + ": nothing after '='; expected " + flag + "=VALUE, or the flag without '='");
    }
  }
}

/// Refuses an empty item in the value of a comma-separated list option (one with delimiter ','),
/// e.g. "--n 100,,200", "--sizes 64," or "--n 100 ,200": CLI11 2.1 drops empty items before any
/// check sees them. Reads the command line before app.parse(): the leading subcommand names choose
/// the (sub)command whose list options, and whose parents' list options, are checked; each such
/// flag's value ("--flag value", "--flag=value") and the words after it that CLI11 also takes as
/// values (up to the next word that starts with '-' and is not a negative number) are read; "--"
/// ends the options. @throws CLI::ValidationError "--flag: empty item in '<value>'; expected a
/// comma-separated list such as 1,2".
inline void refuseEmptyListItems(CLI::App& app, int argc, const char* const* argv) {
  std::vector<std::string> lists;  // long names (without "--") of the list options in scope
  const auto addLists = [&lists](CLI::App& a) {
    for (const CLI::Option* opt : a.get_options([](const CLI::Option* o) { return o->get_delimiter() == ','; }))
      lists.insert(lists.end(), opt->get_lnames().begin(), opt->get_lnames().end());
  };
  const CommandPath path = commandPath(app, argc, argv);  // bench, bench fps boids, ...
  for (CLI::App* a : path.apps) addLists(*a);
  int i = path.next;
  const auto isValue = [](const std::string& w) {  // a word CLI11 takes as a further list value
    return w.empty() || w[0] != '-' || (w.size() > 1 && (std::isdigit(static_cast<unsigned char>(w[1])) || w[1] == '.'));
  };
  for (; i < argc; ++i) {
    const std::string token = argv[i];
    if (token == "--") break;
    if (token.rfind("--", 0) != 0) continue;
    const std::size_t eq = token.find('=');
    const std::string name = token.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (std::find(lists.begin(), lists.end(), name) == lists.end()) continue;
    std::vector<std::string> values;
    if (eq != std::string::npos) values.push_back(token.substr(eq + 1));
    for (; i + 1 < argc && isValue(argv[i + 1]); ++i) values.push_back(argv[i + 1]);
    for (const std::string& value : values)
      if (value.find(",,") != std::string::npos || (!value.empty() && (value.front() == ',' || value.back() == ',')))
        throw CLI::ValidationError("--" + name, "empty item in '" + value + "'; expected a comma-separated list such as 1,2");
  }
}

/// Refuses an item given twice to a comma-separated list option (delimiter ',') of `app` or its
/// subcommands, among the values CLI11 read for it ("--n 100,200,100", "--n 100 --n 0100", "--k 16
/// --generations-per-launch 16"), which a benchmark would otherwise run twice. Integers and floats
/// are compared by value (0100 and 100, 1e0 and 1, -0 and 0 are one item), floats as the `float`
/// every such list holds (1 and 1.00000001 are one; a tester's trial), other items as written.
/// Call it after parsing and before any command runs: from the top app's parse_complete_callback,
/// which CLI11 runs before the subcommands' callbacks. @throws CLI::ValidationError "--flag:
/// '<item>' is given twice; expected each item once".
inline void refuseRepeatedListItems(CLI::App& app) {
  forEachOption(app, [](const CLI::Option* opt) {
    if (opt->get_delimiter() != ',' || opt->count() < 2) return;
    const std::string type = opt->get_type_name();
    const auto same = [&type](const std::string& a, const std::string& b) {
      try {
        if (type.rfind("INT", 0) == 0 || type.rfind("UINT", 0) == 0) return std::stoll(a) == std::stoll(b);
        if (type.rfind("FLOAT", 0) == 0)  // every FLOAT list holds floats, read as CLI11 does (strtold)
          return static_cast<float>(std::stold(a)) == static_cast<float>(std::stold(b));
      } catch (const std::logic_error&) {  // not a number after all (its own check says so): as written
      }
      return a == b;
    };
    const auto& items = opt->results();
    for (std::size_t k = 1; k < items.size(); ++k)
      for (std::size_t j = 0; j < k; ++j)
        if (same(items[j], items[k]))
          throw CLI::ValidationError(opt->get_name(), "'" + items[k] + "' is given twice; expected each item once");
  });
}

/// `load()` (a checkpoint read for --resume), its InputError said after the flag that named the
/// file: "--resume: checkpoint 'x.ck': ..." (the file alone was named).
template <class Load>
auto loadForResume(Load&& load) {
  try {
    return load();
  } catch (const InputError& e) {
    throw InputError(std::string("--resume: ") + e.what());
  }
}

/// Where a run of life or boids prints its summary, --json and --repeat lines: standard error when
/// --out writes to standard output ("-", or "/dev/stdout": writesStandardOutput), so that the
/// output stays a clean RLE or CSV stream for a pipe; else standard output.
inline std::FILE* summaryStream(const std::string& out) {
  return !out.empty() && writesStandardOutput(out) ? stderr : stdout;
}

/// The output checks of a run of life or boids, before anything is read: --out names neither the
/// --checkpoint nor the --resume file, --checkpoint not the input file (`input`, given as
/// `inputFlag`: --pattern or --in) nor standard output or error ("-", "/dev/stdout":
/// writesStandardStream), and both outputs can be written (requireWritableFile).
/// @throws InputError naming the flags and the path.
inline void checkRunFiles(const std::string& out, const std::string& checkpoint, const std::string& resume,
                          const std::string& input, const char* inputFlag) {
  if (!checkpoint.empty() && writesStandardStream(checkpoint))
    throw InputError("--checkpoint " + checkpoint +
                     ": a checkpoint is a file that --resume reads back, not standard output or error; expected a "
                     "file name such as run.ck");
  refuseSameFile(out, "--out", checkpoint, "--checkpoint");
  refuseSameFile(out, "--out", resume, "--resume");
  refuseSameFile(checkpoint, "--checkpoint", input, inputFlag);
  if (!out.empty()) requireWritableFile(out, "--out");
  if (!checkpoint.empty()) requireWritableFile(checkpoint, "--checkpoint");
}

/// After every check of an output flag: a note on standard error when `path` (given as `flag`) is
/// written in place where a write that fails, such as on a full disk, damages it (inPlaceHazard: a
/// symbolic link, a file with other hard links); nothing for any other path or an empty one.
inline void noteWrittenInPlace(const std::string& path, const char* flag) {
  if (const InPlaceHazard hazard = inPlaceHazard(path); !hazard.what.empty())
    std::fprintf(stderr,
                 "flocklife: note: %s %s is %s: it is written in place, not replaced whole, so a write that "
                 "fails (a full disk) damages it; %s for a safe write\n",
                 flag, path.c_str(), hazard.what.c_str(), hazard.instead.c_str());
}

/// noteWrittenInPlace for a run's --out and --checkpoint (OutputFile writes both).
inline void noteWrittenInPlace(const std::string& out, const std::string& checkpoint) {
  noteWrittenInPlace(out, "--out");
  noteWrittenInPlace(checkpoint, "--checkpoint");
}

/// Accepts an integer in [lo, hi] (decimal, optional '-') that is a multiple of `step` (1: any);
/// the error reads "--flag: expected an integer in [lo, hi], got '<value>'", or with a step above 1
/// "--flag: expected a multiple of <step> in [lo, hi], got '<value>'".
inline CLI::Validator integerIn(long long lo, long long hi, long long step = 1) {
  return CLI::Validator(
      [lo, hi, step](std::string& s) -> std::string {
        const std::string bad = (step > 1 ? "expected a multiple of " + std::to_string(step) : std::string("expected an integer")) +
                                " in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got '" + s + "'";
        const std::size_t first = !s.empty() && s[0] == '-' ? 1 : 0;
        if (s.size() == first || s.size() > 19 || s.find_first_not_of("0123456789", first) != std::string::npos) return bad;
        const long long v = std::stoll(s);
        return v < lo || v > hi || v % step != 0 ? bad : std::string();
      },
      "");
}

}  // namespace flocklife::app
