#pragma once
/// @file rule.hpp
/// Life-like rules: outer-totalistic cellular automata on the Moore neighbourhood (the 8
/// surrounding cells), written in B/S notation. Conway's Game of Life (Gardner, Scientific
/// American, October 1970) is B3/S23.
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/errors.hpp"
#include "common/hd.hpp"

namespace flocklife::life {

/// The error of Rule::parse: what() names the rule text and what was expected; `offset` is the
/// 0-based index in that text of the character at fault (an unexpected or repeated digit, a
/// second '/'), or 0 when the rule as a whole is at fault (empty, no '/', missing prefixes).
struct RuleError : InputError {
  RuleError(const std::string& message, std::size_t at) : InputError(message), offset(at) {}
  std::size_t offset;
};

struct Rule {
  /// Bit n set: a dead cell with n live neighbours is born (n = 0..8).
  std::uint16_t birthMask = 1u << 3;
  /// Bit n set: a live cell with n live neighbours survives (n = 0..8).
  std::uint16_t surviveMask = (1u << 2) | (1u << 3);

  /// Next state of a cell from its current state (0 or 1) and its live-neighbour count (0..8).
  FL_HD constexpr int next(int alive, int neighbours) const {
    return ((alive ? surviveMask : birthMask) >> neighbours) & 1;
  }

  /// True for B0 rules: a dead cell with no live neighbour is born.
  constexpr bool hasB0() const { return birthMask & 1u; }
  /// True for rules where a live cell with 8 live neighbours survives.
  constexpr bool hasS8() const { return surviveMask >> 8 & 1u; }

  /// The rule the complemented world follows: born on k where this rule lets a cell with 8 - k
  /// neighbours die, surviving on k where it leaves a dead cell with 8 - k neighbours dead. Golly
  /// runs a B0 rule with S8 this way, on the complemented state (Golly Help, QuickLife, "Emulating
  /// B0 rules"): B0123478/S01234678 (AntiLife) gives B3/S23.
  constexpr Rule complemented() const {
    Rule r{0, 0};
    for (int k = 0; k <= 8; ++k) {
      if (!(surviveMask >> (8 - k) & 1u)) r.birthMask = std::uint16_t(r.birthMask | (1u << k));
      if (!(birthMask >> (8 - k) & 1u)) r.surviveMask = std::uint16_t(r.surviveMask | (1u << k));
    }
    return r;
  }

  /// Canonical text, "B3/S23" (digits ascending).
  std::string str() const;

  /// Parses "B3/S23" (case-insensitive, either order "S23/B3", the slash optional as Golly has
  /// it: "B3S23", one lettered part alone meaning an empty other part: "B2" and "B2/" are B2/S,
  /// Seeds),
  /// and the older S/B form "23/3"
  /// (survival digits / birth digits). Digits 0..8, each at most once per part; white space
  /// anywhere is ignored ("B3/S2 3" is B3/S23), and "/" alone is B/S. Golly's
  /// bounded-grid suffix (":T64,64") is not part of a rule; strip it before calling.
  /// @throws RuleError (an InputError) naming the text and what was expected, with the offset of
  ///         the character at fault.
  static Rule parse(const std::string& text);

  friend constexpr bool operator==(const Rule& a, const Rule& b) {
    return a.birthMask == b.birthMask && a.surviveMask == b.surviveMask;
  }
  friend constexpr bool operator!=(const Rule& a, const Rule& b) { return !(a == b); }
};

/// Conway's Game of Life, B3/S23.
inline constexpr Rule kConway{};

}  // namespace flocklife::life
