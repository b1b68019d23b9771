// printable(): what an error message may quote of a file's or a flag's text.
#include <gtest/gtest.h>

#include <string>

#include "common/errors.hpp"

namespace flocklife {
namespace {

TEST(Printable, EscapesControlBytesAndBytesOutsideUtf8) {
  EXPECT_EQ(printable("B3/S23"), "B3/S23");
  EXPECT_EQ(printable(std::string("a\0b\x1b[2J\x7f", 8)), "a\\x00b\\x1b[2J\\x7f");
  EXPECT_EQ(printable("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa6"), "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x90\xa6");  // kept
  // A PNG's first bytes, a lone continuation byte, an overlong '/', a surrogate, a cut sequence:
  // printed raw before (found by a new user's trial with --in of a PNG).
  EXPECT_EQ(printable("\x89PNG"), "\\x89PNG");
  EXPECT_EQ(printable("\x80"), "\\x80");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");
  EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");
  // The invisible byte-order mark: "'\uFEFFx,y,z'" read as the expected header (a tester's trial).
  EXPECT_EQ(printable("\xef\xbb\xbfx,y,z"), "\\xef\\xbb\\xbfx,y,z");
}

TEST(Printable, CutsLongTextAndSaysHowLongItWas) {
  EXPECT_EQ(printable(std::string(80, '7')), std::string(80, '7'));
  EXPECT_EQ(printable(std::string(100000, '7')), std::string(80, '7') + "... (100000 bytes)");  // a 100,288-byte message before
  EXPECT_EQ(printable("abcdef", 3), "abc... (6 bytes)");
  EXPECT_EQ(printable("ab\xc3\xa9", 3), "ab\xc3\xa9");  // a character is not split: it may end past max
}

}  // namespace
}  // namespace flocklife
