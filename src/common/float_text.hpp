#pragma once
/// @file float_text.hpp
/// Reads a decimal number meant for a float (boids' model flags, the boids CSV's fields) as a
/// double first, so that a value beyond the float range is reported with the text given rather
/// than as the inf or 0 that rounding it would make (header only).
#include <cctype>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <string>

namespace flocklife {

/// What std::strtod made of a float's text.
struct FloatText {
  double value = 0;         ///< as read (a double)
  bool number = false;      ///< the whole text is one number, blanks (space, tab) after it allowed
  bool overflows = false;   ///< a finite magnitude above FLT_MAX (3.4e38), or past the double range ("1e400")
  bool underflows = false;  ///< not zero, but 0 once rounded to float (below ~1.4e-45, "1e-400" included)
  bool hexadecimal = false; ///< "0x10", "-0x1p3": strtod's hexadecimal form, which `number` refuses
};

/// Reads `text` (leading blanks allowed, as strtod). "inf" and "nan" read as numbers that neither
/// overflow nor underflow: the caller's own check of finite values names them. A hexadecimal
/// number is not a number here (`hexadecimal`): a field "0x10" was read as 16 without a word.
inline FloatText readFloatText(const std::string& text) {
  FloatText r;
  std::size_t at = 0;  // past the blanks strtod skips (isspace: "\v0x10" too) and a sign
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
  if (at + 2 < text.size() && text[at] == '0' && (text[at + 1] == 'x' || text[at + 1] == 'X') &&
      (std::isxdigit(static_cast<unsigned char>(text[at + 2])) || text[at + 2] == '.')) {
    r.hexadecimal = true;  // what strtod reads as hexadecimal; "0x" alone it reads as 0 and stops
    return r;
  }
  char* end = nullptr;
  errno = 0;
  r.value = std::strtod(text.c_str(), &end);
  const bool range = errno == ERANGE;
  if (end == text.c_str()) return r;
  r.number = text.find_first_not_of(" \t", std::size_t(end - text.c_str())) == std::string::npos;
  r.overflows = (std::isfinite(r.value) && std::fabs(r.value) > double(FLT_MAX)) || (range && std::isinf(r.value));
  r.underflows = !r.overflows && (range || r.value != 0) && float(r.value) == 0;
  return r;
}

}  // namespace flocklife
