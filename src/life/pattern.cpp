#include "life/pattern.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <istream>
#include <ostream>
#include <sstream>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/line_reader.hpp"
#include "common/memory.hpp"

namespace flocklife::life {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

[[noreturn]] void fail(const std::string& source, long long line, std::size_t column, const std::string& what);

/// Comments are kept (and written back by --out): at most this many bytes of them (each counted
/// with its std::string), so that a
/// stream of comment lines ends with an error naming the file, not an out-of-memory one (a tester's
/// `yes '#C comment'` read on until memory ran out).
constexpr std::size_t kMaxCommentBytes = std::size_t(1) << 24;

void addComment(Pattern& p, std::string text, std::size_t& total, const std::string& source, long long line) {
  total += sizeof(std::string) + text.size();  // empty "#C" lines cost their strings (a review)
  if (total > kMaxCommentBytes)
    fail(source, line, 1, "comments over 16 MiB in all; expected a pattern file with a header of reasonable size");
  p.comments.push_back(std::move(text));
}

[[noreturn]] void fail(const std::string& source, long long line, std::size_t column, const std::string& what) {
  throw InputError(source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what);
}

bool isBlank(const std::string& s) {
  for (char c : s)
    if (!std::isspace(static_cast<unsigned char>(c))) return false;
  return true;
}

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

/// Parses the digits at s[i...]; advances i. Fails unless at least one digit and value <= kMaxCells;
/// the error's column is s[i]'s in the line, where s starts at 1-based column `column` (1: s is the
/// whole line).
std::int64_t parseNumber(const std::string& s, std::size_t& i, const std::string& source, long long line,
                         const std::string& expected, std::size_t column = 1) {
  const std::size_t start = i;
  std::uint64_t v = 0;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    v = v * 10 + std::uint64_t(s[i] - '0');
    if (v > kMaxCells) fail(source, line, column + start, "number too large (more than 2^40); expected " + expected);
    ++i;
  }
  if (i == start) fail(source, line, column + start, "expected " + expected);
  return std::int64_t(v);
}

void skipSpaces(const std::string& s, std::size_t& i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
}

/// The `:T...` suffix of a rule value (from `colon`, npos: none) into p.torus; see parseRuleValue.
void parseTorusSuffix(const std::string& value, std::size_t colon, Pattern& p, const std::string& source,
                      long long line, std::size_t column) {
  if (colon == std::string::npos) return;
  // Golly's bounded grids (Golly Help, "Bounded Grids"; lifealgo::setgridsize): ":T<w>,<h>" is a
  // torus, ":T<n>" the n x n one; ":", ":T" and ":T0,0" are its unbounded grid, read here as no
  // suffix; a 0 for one side is a tube. Only unshifted tori are supported.
  const std::string suffix = value.substr(colon + 1);
  const std::string expected = "Golly's torus suffix :T<width>,<height> (or :T<n> for n x n) with width and height >= 1";
  const std::size_t sufCol = column + colon + 1;
  if (suffix.empty() || suffix == "T" || suffix == "t") return;
  if (suffix[0] != 'T' && suffix[0] != 't')
    fail(source, line, sufCol, "unsupported bounded grid '" + printable(suffix) + "' (only tori are supported); expected " + expected);
  const auto shifted = [&](std::size_t i) {  // Golly's shift of an edge, or a twist (which it takes for :K only)
    if (i < suffix.size() && (suffix[i] == '+' || suffix[i] == '-'))
      fail(source, line, sufCol + i, "a shifted torus '" + printable(suffix) + "' is not supported; expected " + expected);
    if (i < suffix.size() && suffix[i] == '*')
      fail(source, line, sufCol + i, "a twist '*' in a torus suffix (Golly takes one only for a Klein bottle, :K, which is "
                                     "not supported either); expected " + expected);
  };
  std::size_t i = 1;
  const std::int64_t w = parseNumber(suffix, i, source, line, expected, sufCol);
  shifted(i);
  std::int64_t h = w;
  if (i < suffix.size()) {
    if (suffix[i] != ',') fail(source, line, sufCol + i, "unexpected '" + printable(suffix.substr(i)) + "'; expected " + expected);
    ++i;
    h = parseNumber(suffix, i, source, line, expected, sufCol);
    shifted(i);
    if (i != suffix.size()) fail(source, line, sufCol + i, "unexpected '" + printable(suffix.substr(i)) + "'; expected " + expected);
  }
  if (w == 0 && h == 0) return;
  if (w == 0 || h == 0)
    fail(source, line, sufCol, "infinite dimension in '" + printable(suffix) + "' (a tube, which is not supported); expected " + expected);
  if (std::uint64_t(w) > kMaxCells / std::uint64_t(h))
    fail(source, line, sufCol, "torus " + num(w) + "x" + num(h) + " has more than 2^40 cells; expected " + expected +
                                   " and at most 2^40 cells");
  p.torus = {{w, h}};
}

/// "B3/S23" or "B3/S23:T64,48" -> rule and optional torus. `column` is where the value starts.
void parseRuleValue(const std::string& value, Pattern& p, const std::string& source, long long line, std::size_t column) {
  const auto colon = value.find(':');
  Rule rule;
  try {
    rule = Rule::parse(value.substr(0, colon));
  } catch (const RuleError& e) {
    fail(source, line, column + e.offset, e.what());
  }
  if (p.rule && *p.rule != rule)  // a #r line and the header's rule = (Golly reads one of them)
    fail(source, line, column, "rule " + rule.str() + " differs from the rule " + p.rule->str() +
                                   " given before; expected one rule");
  const bool again = p.rule.has_value();  // so must the torus match (none and Golly's unbounded grid alike)
  const auto before = p.torus;
  p.rule = rule;
  p.torus.reset();
  parseTorusSuffix(value, colon, p, source, line, column);
  const auto name = [](const std::optional<std::pair<std::int64_t, std::int64_t>>& t) {
    return t ? ":T" + num(t->first) + "," + num(t->second) : std::string("no torus");
  };
  if (again && p.torus != before)
    fail(source, line, column + (colon == std::string::npos ? value.size() : colon),
         "the torus here (" + name(p.torus) + ") differs from the one given before with the rule (" + name(before) +
             "); expected one torus");
}

/// A "#r <rule>" line: the rule after "#r", columns counted from the line's start.
void parseRuleLine(const std::string& s, Pattern& p, const std::string& source, long long line) {
  std::size_t start = 2;
  skipSpaces(s, start);
  parseRuleValue(trim(s.substr(start)), p, source, line, start + 1);
}

/// The header line "x = W, y = H[, rule = R]".
void parseHeader(const std::string& s, Pattern& p, const std::string& source, long long line) {
  const std::string form = "a header 'x = <width>, y = <height>[, rule = <rule>]'";
  bool haveX = false, haveY = false, haveRule = false;
  std::size_t i = 0;
  while (true) {
    skipSpaces(s, i);
    const std::size_t keyCol = i + 1;
    std::string key;
    while (i < s.size() && std::isalpha(static_cast<unsigned char>(s[i]))) key += char(std::tolower(static_cast<unsigned char>(s[i++])));
    if (key != "x" && key != "y" && key != "rule")
      fail(source, line, keyCol,
           (key.empty() ? std::string("missing key") : "unknown key '" + printable(key) + "'") + "; expected " + form);
    bool& given = key == "x" ? haveX : key == "y" ? haveY : haveRule;
    if (given) fail(source, line, keyCol, "'" + key + "' given twice; expected " + form);
    given = true;
    skipSpaces(s, i);
    if (i >= s.size() || s[i] != '=') fail(source, line, i + 1, "expected '=' after '" + key + "' in " + form);
    ++i;
    skipSpaces(s, i);
    if (key == "rule") {
      const std::size_t start = i;
      while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      if (i > start && s[i - 1] == ',') --i;  // "rule = B3/S23, ...": the comma ends the rule (Golly's readrle)
      if (i == start) fail(source, line, i + 1, "empty rule; expected a rule such as B3/S23");
      parseRuleValue(s.substr(start, i - start), p, source, line, start + 1);
    } else {
      const std::int64_t v = parseNumber(s, i, source, line, "a non-negative " + std::string(key == "x" ? "width" : "height") + " in " + form);
      (key == "x" ? p.width : p.height) = v;
    }
    skipSpaces(s, i);
    if (i == s.size()) break;
    // --rule 'B3 / S23' is read whole, but Golly ends the header's rule at a space.
    if (key == "rule" && s[i] != '\0' && std::strchr("/0123456789BbSs", s[i]) != nullptr)
      fail(source, line, i + 1, "unexpected '" + printable(std::string(1, s[i])) + "' after the rule; in an RLE header "
           "the rule ends at the first space (as Golly reads it), so expected it without spaces, such as B3/S23");
    if (s[i] != ',') fail(source, line, i + 1, "unexpected '" + printable(std::string(1, s[i])) + "'; expected ',' or the end of " + form);
    ++i;
    skipSpaces(s, i);
    if (i == s.size()) break;  // a comma at the end, as Golly reads it
  }
  if (!haveX || !haveY) fail(source, line, 1, std::string("missing ") + (haveX ? "y" : "x") + "; expected " + form);
}

/// Throws InputError "<prefix>pattern WxH does not fit on the AxB torus; ..." unless the pattern's
/// width x height fits on the width x height torus.
void requireFits(const Pattern& p, std::int64_t width, std::int64_t height, const std::string& prefix) {
  if (p.width > width || p.height > height)
    throw InputError(prefix + "pattern " + num(p.width) + "x" + num(p.height) + " does not fit on the " + num(width) +
                     "x" + num(height) + " torus; expected a --size at least as large as the pattern");
}

/// Checks the declared size (against `fitOn` when given, and by `beforeCells`) before allocating
/// width * height bytes.
void allocateCells(Pattern& p, const std::string& where,
                   const std::optional<std::pair<std::int64_t, std::int64_t>>& fitOn,
                   const std::function<void(const Pattern&)>& beforeCells) {
  if (fitOn) requireFits(p, fitOn->first, fitOn->second, where + ": ");
  if (p.height != 0 && std::uint64_t(p.width) > kMaxCells / std::uint64_t(p.height))
    throw InputError(where + ": header x = " + num(p.width) + ", y = " + num(p.height) +
                     " declares more than 2^40 cells; expected a pattern that fits in memory");
  if (beforeCells) beforeCells(p);
  const std::uint64_t n = std::uint64_t(p.width) * std::uint64_t(p.height);
  requireHostMemory(n, where + ": pattern of " + num(p.width) + "x" + num(p.height) + " cells");
  p.cells.assign(n, 0);
}

/// " (this file is gzip-compressed, ...)" where `line` begins with gzip's magic bytes (RFC 1952: 1f
/// 8b), as Golly's .rle.gz files do, " (this file is UTF-16 text, ...)" where it begins with a UTF-16
/// byte order mark (ff fe or fe ff: Windows' "Unicode", which a tester's file was read as bytes),
/// else "".
std::string encodingHint(const std::string& line) {
  if (line.size() >= 2 && line[0] == '\x1f' && line[1] == '\x8b')
    return " (this file is gzip-compressed, as Golly's .rle.gz files are, which flocklife does not read: decompress it "
           "first, e.g. with gunzip)";
  if (line.size() >= 2 && ((line[0] == '\xff' && line[1] == '\xfe') || (line[0] == '\xfe' && line[1] == '\xff')))
    return " (this file is UTF-16 text, which flocklife does not read: save it as UTF-8 or ASCII)";
  return "";
}

/// Golly's "#CXRLE Pos=X,Y" (the pattern's top-left cell relative to the torus centre). Each
/// coordinate must be an integer within +-2^40 (parseNumber's bound, the largest world side), so
/// that placing the pattern cannot overflow.
void parseCxrle(const std::string& s, Pattern& p, const std::string& source, long long line) {
  if (const auto g = s.find(" Gen="); g != std::string::npos) {  // Golly's generation count: its digits, kept as text
    std::size_t end = g + 5;
    while (end < s.size() && std::isdigit(static_cast<unsigned char>(s[end]))) ++end;
    // Anything else was ignored without a word (Gen=abc, Gen=-3: a tester), where Pos=abc is refused.
    if (end == g + 5 || (end < s.size() && !std::isspace(static_cast<unsigned char>(s[end]))))
      fail(source, line, end + 1,
           "expected the generation count of #CXRLE Gen=N in decimal digits, followed by a space or the end of the "
           "line");
    p.generation = s.substr(g + 5, end - (g + 5));
  }
  auto i = s.find("Pos");
  if (i == std::string::npos) return;
  i += 3;
  skipSpaces(s, i);
  if (i >= s.size() || s[i] != '=') fail(source, line, i + 1, "expected '=' after Pos in #CXRLE Pos=X,Y");
  ++i;
  skipSpaces(s, i);
  const std::string expected = "an integer within +-2^40 for each coordinate of #CXRLE Pos=X,Y";
  auto coordinate = [&] {
    const bool negative = i < s.size() && s[i] == '-';
    if (negative) ++i;
    const std::int64_t v = parseNumber(s, i, source, line, expected);
    return negative ? -v : v;
  };
  const std::int64_t x = coordinate();
  if (i == s.size() || s[i] != ',') fail(source, line, i + 1, "expected ',' between the coordinates of #CXRLE Pos=X,Y");
  ++i;
  const std::int64_t y = coordinate();
  if (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i])))
    fail(source, line, i + 1, "unexpected '" + printable(std::string(1, s[i])) + "' after #CXRLE Pos=X,Y; expected a space or the end of the line");
  p.position = {{x, y}};
}

}  // namespace

std::uint64_t Pattern::population() const {
  std::uint64_t n = 0;
  for (auto c : cells) n += c;
  return n;
}

namespace {
/// " (this is the Life 1.06 format, ...)" for a first line of Golly's other formats flocklife does
/// not read (Life 1.05 / 1.06, macrocell), whatever the file's name; "" for any other line.
std::string otherFormatHint(const std::string& line) {
  if (line.rfind("#Life 1.0", 0) == 0)
    return " (this is the " + printable(trim(line.substr(1))) +
           " format, .lif, which flocklife does not read: save the pattern as RLE in Golly)";
  if (line.rfind("[M2]", 0) == 0)
    return " (this is Golly's macrocell format, .mc, which flocklife does not read: save the pattern as RLE in Golly)";
  return "";
}
}  // namespace

Pattern parseRle(std::istream& in, const std::string& source,
                 std::optional<std::pair<std::int64_t, std::int64_t>> fitOn,
                 const std::function<void(const Pattern&)>& beforeCells) {
  Pattern p;
  LineReader lines(in, source);
  std::string s;
  bool haveHeader = false;
  std::size_t commentBytes = 0;
  while (!haveHeader && lines.next(s)) {
    if (isBlank(s)) continue;
    if (s[0] == '#') {
      if (const std::string hint = otherFormatHint(s); !hint.empty()) {  // refused at this line (#Life 1.0x)
        fail(source, lines.number(), 1, "expected an RLE file" + hint);
      } else if (s.rfind("#CXRLE", 0) == 0) {
        parseCxrle(s, p, source, lines.number());
      } else if (s.size() >= 2 && s[1] == 'N') {
        p.name = trim(s.substr(2));
      } else if (s.size() >= 2 && (s[1] == 'C' || s[1] == 'c')) {
        addComment(p, trim(s.substr(2)), commentBytes, source, lines.number());
      } else if (s.size() >= 2 && s[1] == 'r') {
        parseRuleLine(s, p, source, lines.number());
      }
      continue;
    }
    // Blanks before the header (and 'X', or a UTF-8 byte-order mark, LineReader) are read as the
    // header; bgolly 3.3 reads none of them as one (a tester's trial), but no other reading makes sense.
    const char first = s[s.find_first_not_of(" \t")];
    if (const std::string hint = otherFormatHint(s); first != 'x' && first != 'X')
      fail(source, lines.number(), 1,
           std::string("expected the RLE header 'x = <width>, y = <height>[, rule = <rule>]' before the cells") +
               (!hint.empty() ? hint
                : s[0] == '.' || s[0] == 'O' || s[0] == '!' ? " (rows of '.' and 'O' and '!' comments are plaintext: name the file .cells)"
                : !encodingHint(s).empty()                  ? encodingHint(s)
                : first == '#' ? " (a comment line has its '#' in the first column; bgolly misreads this one as cells)"
                : !otherFormatVersion(s).empty()            ? " (this is " + otherFormatVersion(s) + ")"
                : startsWithMagic(s, kLifeCheckpointMagic)  ? " (this is a flocklife life checkpoint: give it to --resume)"
                : startsWithMagic(s, kBoidsCheckpointMagic) ? " (this is a flocklife boids checkpoint: give it to flocklife boids --resume)"
                                                            : ""));
    parseHeader(s, p, source, lines.number());
    if (!fitOn && p.torus && (p.width > p.torus->first || p.height > p.torus->second))  // --size overrides :T
      fail(source, lines.number(), 1,
           "the pattern (x = " + num(p.width) + ", y = " + num(p.height) + ") does not fit on its own :T" +
               num(p.torus->first) + "," + num(p.torus->second) +
               " torus; expected a :T torus at least as large as the pattern, or --size WIDTHxHEIGHT");
    haveHeader = true;
  }
  if (!haveHeader)
    throw InputError(source + ": no RLE header; expected a line 'x = <width>, y = <height>[, rule = <rule>]'");
  allocateCells(p, source, fitOn, beforeCells);

  std::int64_t x = 0, y = 0;
  std::uint64_t count = 0;
  bool haveCount = false;
  std::size_t countCol = 0;
  const std::string tags = "expected a run count, 'b' (dead), 'o' (live), '$' (end of row) or '!' (end)";
  std::size_t lastLength = s.size();  // of the last line read (the header first), for a missing '!'
  while (lines.next(s)) {
    lastLength = s.size();
    if (s.rfind("#r", 0) == 0) {  // too late to set the rule: accepted only if it repeats the one given
      Pattern again;
      parseRuleLine(s, again, source, lines.number());
      if (!p.rule || *again.rule != *p.rule || again.torus != p.torus)
        fail(source, lines.number(), 1, "#r line after the header, with a rule of its own; expected it before 'x = ...'");
    }
    if (s.rfind("#CXRLE", 0) == 0)  // the position would be ignored here: said instead
      fail(source, lines.number(), 1, "#CXRLE line after the header; expected it before 'x = ...'");
    if (!s.empty() && s[0] == '#') continue;
    for (std::size_t i = 0; i < s.size(); ++i) {
      const char c = s[i];
      const std::size_t col = i + 1;
      if (std::isdigit(static_cast<unsigned char>(c))) {
        if (!haveCount) countCol = col;
        haveCount = true;
        count = count * 10 + std::uint64_t(c - '0');
        if (count > kMaxCells) fail(source, lines.number(), countCol, "run count too large (more than 2^40)");
        continue;
      }
      if (std::isspace(static_cast<unsigned char>(c))) {
        if (haveCount) fail(source, lines.number(), col, "run count " + std::to_string(count) + " is not followed by 'b', 'o' or '$'");
        continue;
      }
      if (c == '!' && haveCount)
        fail(source, lines.number(), countCol, "run count " + std::to_string(count) + " before '!'; " + tags);
      const std::int64_t n = haveCount ? std::int64_t(count) : 1;
      if (haveCount && count == 0) fail(source, lines.number(), countCol, "run count 0; expected a count of at least 1");
      haveCount = false;
      count = 0;
      if (c == 'b' || c == 'o') {
        if (y >= p.height)
          fail(source, lines.number(), col, "cells below the last row of the declared height y = " + num(p.height));
        if (n > p.width - x)
          fail(source, lines.number(), col,
               "run of " + num(n) + (n == 1 ? " cell" : " cells") + " from column " + num(x + 1) +
                   " goes past the declared width x = " + num(p.width));
        if (c == 'o')
          for (std::int64_t k = 0; k < n; ++k) p.cells[std::uint64_t(y) * std::uint64_t(p.width) + std::uint64_t(x + k)] = 1;
        x += n;
      } else if (c == '$') {
        y = n > p.height - y ? p.height : y + n;  // rows past the end are an error only if cells follow
        x = 0;
      } else if (c == '!') {
        return p;  // anything after '!' is ignored
      } else {
        const bool multistate = c == '.' || (c >= 'A' && c <= 'X');  // Golly's state letters (readrle)
        const bool header = (c == 'x' || c == 'X') && s.find('=') != std::string::npos;
        fail(source, lines.number(), col,
             "unexpected character '" + printable(std::string(1, c)) + "'; " + tags +
                 (c == '#' ? " (a comment is a line of its own, with '#' in its first column)"
                  : header ? " (a second header line: 'x = ...' comes once, before the cells)"
                  : c == 'O' || c == 'B' ? " (the tags are lower case; Golly reads upper-case letters as the states of "
                                         "multi-state rules)"
                  : multistate ? " (Golly's multi-state cells, '.' and 'A' to 'X', are not supported: a Life-like rule "
                                 "has two states)"
                               : ""));
      }
    }
    if (haveCount) fail(source, lines.number(), s.size() + 1, "run count " + std::to_string(count) + " at the end of the line; " + tags);
  }
  // Golly reads a file without '!' to its end; here that is refused, as a file cut short would be
  // read as another pattern.
  fail(source, lines.number(), lastLength + 1,
       "the file ends before '!', which ends an RLE pattern: it may be cut short; expected '!' after the last run "
       "(add it if the file is whole)");
}

Pattern parseCells(std::istream& in, const std::string& source,
                   std::optional<std::pair<std::int64_t, std::int64_t>> fitOn,
                   const std::function<void(const Pattern&)>& beforeCells) {
  Pattern p;
  LineReader lines(in, source);
  std::string s;
  std::vector<std::string> rows;
  bool started = false;  // a line other than an empty one was read
  std::size_t commentBytes = 0;
  while (lines.next(s)) {
    if (!started && s.empty()) continue;  // empty lines at the start of the file, which Golly's loadpattern skips
    started = true;
    if (!s.empty() && s[0] == '!') {
      if (!rows.empty())  // Golly reads such a line as a row of live cells; dropping it closed the rows up
        fail(source, lines.number(), 1,
             "a '!' comment line after the first row of cells; expected the comments before the rows (or the "
             "line as a row of '.' and 'O')");
      const std::string text = trim(s.substr(1));
      if (text.rfind("Name:", 0) == 0)
        p.name = trim(text.substr(5));
      else
        addComment(p, text, commentBytes, source, lines.number());
      continue;
    }
    std::string row = s;
    while (!row.empty() && std::isspace(static_cast<unsigned char>(row.back()))) row.pop_back();
    for (std::size_t i = 0; i < row.size(); ++i)
      if (row[i] != '.' && row[i] != 'O')
        fail(source, lines.number(), i + 1,
             "unexpected character '" + printable(std::string(1, row[i])) +
                 "'; expected '.' (dead) or 'O' (live), or a '!' comment line" +
                 (i == 0 && !encodingHint(row).empty() ? encodingHint(row)
                  : i == 0 && rows.empty() && !otherFormatHint(row).empty() ? otherFormatHint(row)
                  : i == 0 && (row[0] == '#' || row[0] == 'x') && rows.empty()
                      ? " (a first line starting with '#' or 'x' is RLE: name the file .rle)"
                  : row[i] == '*' || row[i] == 'o'
                      ? " (not read as live: Golly reads such a file with '!' lines as live at 'O' only, and one without "
                        "them as live at every character but '.')"
                      : ""));
    rows.push_back(row);
  }
  while (!rows.empty() && rows.back().empty()) rows.pop_back();
  if (rows.empty())  // an empty file read as an empty world, silently (a tester's trial)
    throw InputError(source + ": no rows of cells; expected rows of '.' (dead) and 'O' (live) after the '!' comment "
                              "lines");
  p.height = std::int64_t(rows.size());
  for (const auto& r : rows) p.width = std::max<std::int64_t>(p.width, std::int64_t(r.size()));
  allocateCells(p, source, fitOn, beforeCells);
  for (std::size_t y = 0; y < rows.size(); ++y)
    for (std::size_t x = 0; x < rows[y].size(); ++x) p.cells[y * std::size_t(p.width) + x] = rows[y][x] == 'O';
  return p;
}

bool isPlaintextPath(const std::string& path) {
  const std::string suffix = ".cells";
  if (path.size() < suffix.size()) return false;
  return std::equal(suffix.begin(), suffix.end(), path.end() - std::ptrdiff_t(suffix.size()),
                    [](char a, char b) { return a == std::tolower(static_cast<unsigned char>(b)); });
}

Pattern loadPattern(const std::string& path, std::optional<std::pair<std::int64_t, std::int64_t>> fitOn,
                    const std::function<void(const Pattern&)>& beforeCells) {
  std::ifstream in = openForReading(path, "cannot read pattern file '" + path + "'", "a pattern file");
  return isPlaintextPath(path) ? parseCells(in, path, fitOn, beforeCells) : parseRle(in, path, fitOn, beforeCells);
}

std::pair<std::int64_t, std::int64_t> defaultWorldSize(const Pattern& p, const std::string& source) {
  if (p.torus) return *p.torus;
  if (p.width < 1 || p.height < 1)
    throw InputError(source + ": the pattern is empty (" + num(p.width) + "x" + num(p.height) +
                     "); give the world size with --size WIDTHxHEIGHT");
  auto side = [](std::int64_t extent) { return (std::max<std::int64_t>(64, kPatternRoom * extent) + 63) / 64 * 64; };
  return {side(p.width), side(p.height)};
}

std::string outsideTorusNote(const Pattern& p, const std::string& source, std::uint64_t outsideTorus) {
  if (outsideTorus == 0 || !p.torus || !p.position) return std::string();
  return source + ": #CXRLE Pos=" + num(p.position->first) + "," + num(p.position->second) + " puts " +
         std::to_string(outsideTorus) + (outsideTorus == 1 ? " live cell" : " live cells") + " outside its :T" +
         num(p.torus->first) + "," + num(p.torus->second) +
         " torus, where Golly's bounded grid has none; they are dropped. Golly drops them only after its first "
         "generation, in which those just outside an edge still count as neighbours: the two can differ from "
         "generation 1 on";
}

World placePattern(const Pattern& p, std::int64_t width, std::int64_t height,
                   std::optional<std::pair<std::int64_t, std::int64_t>> topLeft, std::uint64_t* outsideTorus) {
  requireFits(p, width, height, "");
  World world(width, height);
  if (outsideTorus) *outsideTorus = 0;
  // Golly's bounded grid: the file's own torus, the pattern where Pos puts it.
  const bool bounded = !topLeft && p.position && p.torus && *p.torus == std::pair{width, height};
  std::int64_t ox, oy;
  if (topLeft) {
    ox = topLeft->first;
    oy = topLeft->second;
  } else if (p.position) {
    ox = p.position->first + width / 2;
    oy = p.position->second + height / 2;
  } else {
    ox = width / 2 - p.width / 2;
    oy = height / 2 - p.height / 2;
  }
  if (bounded) {  // cells beyond the grid's edges are not on it
    std::uint64_t dropped = 0;
    for (std::int64_t y = 0; y < p.height; ++y)
      for (std::int64_t x = 0; x < p.width; ++x) {
        if (!p.at(x, y)) continue;
        if (ox + x < 0 || ox + x >= width || oy + y < 0 || oy + y >= height)
          ++dropped;
        else
          world.set(ox + x, oy + y, true);
      }
    if (outsideTorus) *outsideTorus = dropped;
    return world;
  }
  ox = floorMod(ox, width);
  oy = floorMod(oy, height);
  for (std::int64_t y = 0; y < p.height; ++y) {
    const std::int64_t wy = (oy + y) % height;
    std::int64_t wx = ox;
    for (std::int64_t x = 0; x < p.width; ++x) {
      if (p.at(x, y)) world.set(wx, wy, true);
      if (++wx == width) wx = 0;
    }
  }
  return world;
}

void requireDensity(double density) {
  if (!(density >= 0.0 && density <= 1.0)) {
    // The shortest text that reads back as the value: 6 digits said "--random 1" for 1.0000001 (a tester).
    char text[32] = {};
    for (int digits = 1; digits <= 17; ++digits) {
      std::snprintf(text, sizeof text, "%.*g", digits, density);
      if (std::strtod(text, nullptr) == density) break;
    }
    throw InputError("--random " + std::string(text) + ": density must be in [0, 1]");
  }
}

World randomSoup(std::int64_t width, std::int64_t height, double density, std::uint64_t seed) {
  requireDensity(density);
  World world(width, height);
  const bool all = density >= 1.0;
  const std::uint64_t threshold = all ? 0 : std::uint64_t(std::ldexp(density, 64));
  std::uint8_t* cells = world.cells().data();
  const std::int64_t n = std::int64_t(world.cellCount());
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; ++i) {
    std::uint64_t z = seed + (std::uint64_t(i) + 1) * 0x9E3779B97F4A7C15ull;  // splitmix64, i-th output
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    cells[i] = all || z < threshold;
  }
  return world;
}

namespace {

/// Collects RLE tokens into lines of at most 70 characters.
class LineWrapper {
 public:
  explicit LineWrapper(std::ostream& out) : out_(out) {}
  void put(const std::string& token) {
    if (line_.size() + token.size() > 70) flush();
    line_ += token;
  }
  void flush() {
    if (!line_.empty()) out_ << line_ << '\n';
    line_.clear();
  }

 private:
  std::ostream& out_;
  std::string line_;
};

std::string run(std::int64_t n, char tag) { return n == 1 ? std::string(1, tag) : std::to_string(n) + tag; }

}  // namespace

namespace {
/// `text` with each control character (a newline in a file name, say) written as '?', so that a
/// comment stays one line of the file.
std::string oneLine(std::string text) {
  for (char& c : text)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return text;
}
}  // namespace

void writeRle(std::ostream& out, const World& world, const Rule& rule, const std::vector<std::string>& comments) {
  for (const auto& c : comments) out << "#C " << oneLine(c) << '\n';
  const std::int64_t w = world.width(), h = world.height();
  out << "x = " << w << ", y = " << h << ", rule = " << rule.str() << ":T" << w << ',' << h << '\n';
  LineWrapper lw(out);
  std::int64_t pendingRows = 0;  // row ends not yet written (merged into one "n$")
  for (std::int64_t y = 0; y < h; ++y) {
    std::int64_t x = 0;
    while (x < w) {
      const std::uint8_t v = world.at(x, y);
      std::int64_t e = x + 1;
      while (e < w && world.at(e, y) == v) ++e;
      if (v || e < w) {  // trailing dead cells of a row are implied by '$'
        if (pendingRows) lw.put(run(pendingRows, '$'));
        pendingRows = 0;
        lw.put(run(e - x, v ? 'o' : 'b'));
      }
      x = e;
    }
    ++pendingRows;
  }
  lw.put("!");
  lw.flush();
}

void writeCells(std::ostream& out, const World& world, const std::vector<std::string>& comments) {
  for (const auto& c : comments) out << '!' << oneLine(c) << '\n';
  std::string row;
  for (std::int64_t y = 0; y < world.height(); ++y) {
    row.clear();
    for (std::int64_t x = 0; x < world.width(); ++x) row += world.at(x, y) ? 'O' : '.';
    out << row << '\n';
  }
}

void savePattern(const std::string& path, const World& world, const Rule& rule, const std::vector<std::string>& comments) {
  OutputFile file(path, "--out");
  if (isPlaintextPath(path))
    writeCells(file.stream(), world, comments);
  else
    writeRle(file.stream(), world, rule, comments);
  file.commit();
}

}  // namespace flocklife::life
