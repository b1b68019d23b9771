#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "life/rule.hpp"

namespace flocklife::life {

TEST(Rule, ParsesBSNotation) {
  const Rule r = Rule::parse("B3/S23");
  EXPECT_EQ(r, kConway);
  EXPECT_EQ(r.str(), "B3/S23");
  EXPECT_EQ(Rule::parse("b36/s23").str(), "B36/S23");
  EXPECT_EQ(Rule::parse("S23/B3"), kConway);
  EXPECT_EQ(Rule::parse("B2/S").str(), "B2/S");
  EXPECT_EQ(Rule::parse("B0123478/S01234678").str(), "B0123478/S01234678");
  // Without the slash, as Golly reads it (refused before; found by a new user's trial).
  EXPECT_EQ(Rule::parse("B3S23"), kConway);
  EXPECT_EQ(Rule::parse("s23b3"), kConway);
  EXPECT_EQ(Rule::parse("B36S23").str(), "B36/S23");
  EXPECT_EQ(Rule::parse("BS").str(), "B/S");
  // One lettered part alone: the other is empty, as Golly reads it (refused before; found by a
  // new user's trial: --rule B2 for Seeds).
  EXPECT_EQ(Rule::parse("B2").str(), "B2/S");
  EXPECT_EQ(Rule::parse("B2/").str(), "B2/S");
  EXPECT_EQ(Rule::parse("S23/").str(), "B/S23");
  EXPECT_EQ(Rule::parse("s23").str(), "B/S23");
  EXPECT_EQ(Rule::parse("B").str(), "B/S");
}

TEST(Rule, ParsesOlderSurvivalBirthForm) {
  EXPECT_EQ(Rule::parse("23/3"), kConway);
  EXPECT_EQ(Rule::parse("34678/3678").str(), "B3678/S34678");
}

TEST(Rule, NextFollowsTheMasks) {
  EXPECT_EQ(kConway.next(0, 3), 1);
  EXPECT_EQ(kConway.next(0, 2), 0);
  EXPECT_EQ(kConway.next(1, 2), 1);
  EXPECT_EQ(kConway.next(1, 4), 0);
  EXPECT_FALSE(kConway.hasB0());
  EXPECT_TRUE(Rule::parse("B0/S8").hasB0());
}

/// The complemented world follows the complemented rule: a cell's next state under r is the
/// complement of its complement's next state under r.complemented(), whose neighbour count is
/// 8 - n (Golly's emulation of B0 rules with S8).
TEST(Rule, ComplementedRuleRunsTheComplementedWorld) {
  EXPECT_EQ(Rule::parse("B0123478/S01234678").complemented(), kConway);  // AntiLife, as Golly's help has it
  for (const char* text : {"B3/S23", "B36/S23", "B0/S8", "B/S", "B012345678/S012345678", "B03/S23"}) {
    const Rule r = Rule::parse(text), c = r.complemented();
    EXPECT_EQ(c.complemented(), r) << text;
    for (int alive = 0; alive <= 1; ++alive)
      for (int n = 0; n <= 8; ++n) EXPECT_EQ(r.next(alive, n), 1 - c.next(1 - alive, 8 - n)) << text << " " << n;
  }
}

TEST(Rule, RejectsMalformedRulesWithTheText) {
  for (const char* bad : {"", "3", "B9", "B33", "B9/S23", "B3/S23/", "X3/S23", "B3/23", "B33/S23", "B3/B3", "B3S23/", "3S23", "B3S2S3"}) {
    try {
      Rule::parse(bad);
      FAIL() << "accepted '" << bad << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos) << e.what();
    }
  }
}

/// RuleError::offset points at the character at fault in the text as given (spaces included).
TEST(Rule, ErrorsPointAtTheCharacterAtFault) {
  const struct {
    const char* text;
    std::size_t offset;
  } cases[] = {{"B9/S23", 1}, {"B3/S239", 6}, {"b3 / s2 9", 8}, {"B33/S23", 2}, {"23/39", 4},
               {"B3/S23/", 6}, {"B3/B3", 3}, {"", 0}, {"3", 0}, {"B9", 1}, {"s2 2", 3}, {"B3/23", 0}};
  for (const auto& c : cases) {
    try {
      Rule::parse(c.text);
      ADD_FAILURE() << "accepted '" << c.text << "'";
    } catch (const RuleError& e) {
      EXPECT_EQ(e.offset, c.offset) << c.text << ": " << e.what();
    }
  }
}

/// The character named is the one typed, not its upper-case form used for parsing.
TEST(Rule, ErrorsNameTheCharacterAsTyped) {
  try {
    Rule::parse("B3/S2x");
    FAIL() << "accepted 'B3/S2x'";
  } catch (const RuleError& e) {
    EXPECT_NE(std::string(e.what()).find("unexpected character 'x'"), std::string::npos) << e.what();
  }
}

/// Golly's rules that are not Life-like, and a bounded-grid suffix copied into --rule, say what
/// they are (a bare "unexpected character" before; found by a new user's trial).
TEST(Rule, ErrorsSayWhichOfGollysRulesAreNotLifeLike) {
  for (const auto& [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"B3/S23H", "unexpected character 'H' (Golly's hexagonal 'H' and von Neumann 'V' neighbourhoods are not supported"},
           {"B2/S0v", "unexpected character 'v' (Golly's hexagonal"},
           {"B2a/S12", "unexpected character 'a' (non-totalistic rules such as B2a/S12 are not supported"},
           {"B3/S23:T100,100", "unexpected character ':' (a bounded-grid suffix such as :T100,100 is not part of the rule"},
           {"B2-a/S12", "unexpected character '-' (non-totalistic"},
           {"B3/S23-q", "unexpected character '-' (non-totalistic"},
           {"B9/S23", "unexpected character '9' (expected B/S notation"},
           // Golly's named rules and Generations rules (a bare "expected exactly one '/'" before; a
           // new user's trial).
           {"Life", "a rule name, which flocklife does not read (Golly's named rules); give a Life-like rule"},
           {"HighLife", "a rule name"},
           {"Seeds", "a rule name"},  // a name that begins with S (a review)
           {"Wireworld", "rules of other kinds are not run"},
           {"23/3/3", "three parts, such as 23/3/3, are a Generations rule"}}) {
    try {
      Rule::parse(text);
      ADD_FAILURE() << "accepted '" << text << "'";
    } catch (const RuleError& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << text << ": " << e.what();
    }
  }
  try {  // a letter of no notation: no guess
    Rule::parse("B3/S23x");
    ADD_FAILURE() << "accepted 'B3/S23x'";
  } catch (const RuleError& e) {
    EXPECT_NE(std::string(e.what()).find("unexpected character 'x' (expected B/S notation"), std::string::npos) << e.what();
  }
}

}  // namespace flocklife::life
