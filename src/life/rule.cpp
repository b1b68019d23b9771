#include "life/rule.hpp"

#include <cctype>

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

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  throw InputError("invalid rule '" + text + "': " + why +
                   " (expected B/S notation such as B3/S23, or the S/B form 23/3)");
}

std::uint16_t digits(const std::string& text, const std::string& part) {
  std::uint16_t mask = 0;
  for (char c : part) {
    if (c < '0' || c > '8') bad(text, std::string("unexpected character '") + c + "'");
    const std::uint16_t bit = std::uint16_t(1u << (c - '0'));
    if (mask & bit) bad(text, std::string("digit ") + c + " repeated");
    mask |= bit;
  }
  return mask;
}

}  // namespace

Rule Rule::parse(const std::string& text) {
  std::string t;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) t += char(std::toupper(static_cast<unsigned char>(c)));
  if (t.empty()) bad(text, "empty");
  const auto slash = t.find('/');
  if (slash == std::string::npos || t.find('/', slash + 1) != std::string::npos)
    bad(text, "expected exactly one '/'");
  std::string a = t.substr(0, slash), b = t.substr(slash + 1);
  Rule r{0, 0};
  const bool aLetter = !a.empty() && (a[0] == 'B' || a[0] == 'S');
  const bool bLetter = !b.empty() && (b[0] == 'B' || b[0] == 'S');
  if (aLetter != bLetter) bad(text, "both parts need a B or S prefix, or neither");
  if (aLetter) {
    if (a[0] == b[0]) bad(text, std::string("two '") + a[0] + "' parts");
    const std::string& bp = a[0] == 'B' ? a : b;
    const std::string& sp = a[0] == 'B' ? b : a;
    r.birthMask = digits(text, bp.substr(1));
    r.surviveMask = digits(text, sp.substr(1));
  } else {
    r.surviveMask = digits(text, a);  // S/B form: survival first
    r.birthMask = digits(text, b);
  }
  return r;
}

}  // namespace flocklife::life
