// LineReader (common/line_reader.hpp): the lines and their numbers for each kind of line end.
#include "common/line_reader.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace flocklife {
namespace {

std::vector<std::pair<long long, std::string>> linesOf(const std::string& text) {
  std::istringstream in(text);
  LineReader reader(in);
  std::vector<std::pair<long long, std::string>> out;
  for (std::string line; reader.next(line);) out.emplace_back(reader.number(), line);
  return out;
}

using Lines = std::vector<std::pair<long long, std::string>>;

TEST(LineReader, EveryKindOfLineEndGivesTheSameLines) {
  const Lines want{{1, "a"}, {2, ""}, {3, "b c"}};
  EXPECT_EQ(linesOf("a\n\nb c\n"), want);        // Unix
  EXPECT_EQ(linesOf("a\r\n\r\nb c\r\n"), want);  // DOS
  EXPECT_EQ(linesOf("a\r\r\n\r\r\nb c\r\r\n"), want);  // a DOS file converted twice
  EXPECT_EQ(linesOf("a\r\rb c\r"), want);        // classic Mac
  EXPECT_EQ(linesOf("a\n\nb c"), want);          // no line end after the last line
  EXPECT_EQ(linesOf("\xEF\xBB\xBF" "a\n\nb c\n"), want);  // a UTF-8 byte order mark
}

TEST(LineReader, MixedAndOddEndsAreEachALineEnd) {
  EXPECT_EQ(linesOf("a\nb\rc\r\nd"), (Lines{{1, "a"}, {2, "b"}, {3, "c"}, {4, "d"}}));
  EXPECT_EQ(linesOf("a\n\rb"), (Lines{{1, "a"}, {2, ""}, {3, "b"}}));  // "\n\r": two, as Python reads it
  EXPECT_EQ(linesOf("x\n\xEF\xBB\xBF"), (Lines{{1, "x"}, {2, "\xEF\xBB\xBF"}}));  // a mark past line 1 is kept
  EXPECT_TRUE(linesOf("").empty());
}

}  // namespace
}  // namespace flocklife
