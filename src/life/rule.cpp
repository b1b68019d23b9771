#include "life/rule.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "common/errors.hpp"

namespace flocklife::life {

std::string Rule::str() const {
  std::string s = "B";
  for (int n = 0; n <= 8; ++n)
    if (birthMask >> n & 1) s += char('0' + n);
  s += "/S";
  for (int n = 0; n <= 8; ++n)
    if (surviveMask >> n & 1) s += char('0' + n);
  return s;
}

namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why, std::size_t offset = 0) {
  throw RuleError("invalid rule '" + printable(text) + "': " + why + " (expected B/S notation such as B3/S23, or the S/B form 23/3)",
                  offset);
}

/// The text without white space, upper case, and where each of its characters was in `text`.
struct Normalized {
  std::string t;
  std::vector<std::size_t> at;
};

/// Why an unexpected character `c` (upper case) may be there: a rule of Golly's that is not
/// Life-like, or a bounded-grid suffix; empty for anything else.
std::string whyUnexpected(char c) {
  if (c == 'H' || c == 'V')
    return " (Golly's hexagonal 'H' and von Neumann 'V' neighbourhoods are not supported: only Life-like rules, on the "
           "8 cells of the Moore neighbourhood)";
  if (c == ':')
    return " (a bounded-grid suffix such as :T100,100 is not part of the rule: the torus is set with --size)";
  // The letters (and '-') of the Hensel notation of isotropic non-totalistic rules (LifeWiki,
  // "Isotropic non-totalistic rule"), as Golly reads them: "B2-a/S12", "B3/S23-q".
  if (c != 0 && std::string("CEKAINYQJRTWZ-").find(c) != std::string::npos)
    return " (non-totalistic rules such as B2a/S12 are not supported: only Life-like rules, where a cell's next state "
           "depends on the number of its live neighbours alone)";
  return "";
}

/// The digit mask of t[first, last); errors point at the digit in the original text.
std::uint16_t digits(const std::string& text, const Normalized& n, std::size_t first, std::size_t last) {
  std::uint16_t mask = 0;
  for (std::size_t i = first; i < last; ++i) {
    const char c = n.t[i];
    if (c < '0' || c > '8')  // named as typed
      bad(text, "unexpected character '" + printable(std::string(1, text[n.at[i]])) + "'" + whyUnexpected(c), n.at[i]);
    const std::uint16_t bit = std::uint16_t(1u << (c - '0'));
    if (mask & bit) bad(text, std::string("digit ") + c + " repeated", n.at[i]);
    mask |= bit;
  }
  return mask;
}

}  // namespace

Rule Rule::parse(const std::string& text) {
  Normalized n;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (std::isspace(c)) continue;
    n.t += char(std::toupper(c));
    n.at.push_back(i);
  }
  const std::string& t = n.t;
  if (t.empty()) bad(text, "empty");
  auto slash = t.find('/');  // the end of the first part
  std::size_t bStart = slash + 1;  // the start of the second
  if (slash == std::string::npos) {  // "B3S23" (Golly reads it): the second letter starts the second part
    const bool lettered = t[0] == 'B' || t[0] == 'S';
    const std::size_t letter = lettered ? t.find(t[0] == 'B' ? 'S' : 'B', 1) : std::string::npos;
    // Letters only, other than B and S alone (Seeds and Serviettes begin with S; a review).
    const bool letters =
        std::all_of(t.begin(), t.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)); });
    const bool name = letters && t.find_first_not_of("BS") != std::string::npos;
    if (name)
      bad(text, "a rule name, which flocklife does not read (Golly's named rules); give a Life-like rule in B/S "
                "form, e.g. B3/S23 for Life, B36/S23 for HighLife, B2/S for Seeds (rules of other kinds are not run)");
    if (!lettered) bad(text, "expected exactly one '/'");
    slash = bStart = letter == std::string::npos ? t.size() : letter;  // "B2" alone: an empty second part
  }
  if (const auto second = t.find('/', slash + 1); second != std::string::npos)
    bad(text,
        "expected exactly one '/' (three parts, such as 23/3/3, are a Generations rule with more than two states, "
        "which flocklife does not run: it runs Life-like rules)",
        n.at[second]);
  const bool aLetter = slash > 0 && (t[0] == 'B' || t[0] == 'S');
  const bool bLetter = bStart < t.size() && (t[bStart] == 'B' || t[bStart] == 'S');
  if (aLetter && bStart == t.size()) {  // "B2/" or "B2": an empty second part, as Golly reads it (B2/S)
    const std::uint16_t mask = digits(text, n, 1, slash);
    return t[0] == 'B' ? Rule{mask, 0} : Rule{0, mask};
  }
  if (aLetter != bLetter) bad(text, "both parts need a B or S prefix, or neither");
  Rule r{0, 0};
  if (aLetter) {
    if (t[0] == t[bStart]) bad(text, std::string("two '") + t[0] + "' parts", n.at[bStart]);
    const bool birthFirst = t[0] == 'B';
    const std::uint16_t first = digits(text, n, 1, slash), second = digits(text, n, bStart + 1, t.size());
    r.birthMask = birthFirst ? first : second;
    r.surviveMask = birthFirst ? second : first;
  } else {
    r.surviveMask = digits(text, n, 0, slash);  // S/B form: survival first
    r.birthMask = digits(text, n, bStart, t.size());
  }
  return r;
}

}  // namespace flocklife::life
