// LineReader (common/line_reader.hpp): the lines and their numbers for each kind of line end.
#include "common/line_reader.hpp"

#include "common/errors.hpp"

#include <gtest/gtest.h>

#include <istream>
#include <sstream>
#include <streambuf>
#include <string>
#include <utility>
#include <vector>

namespace flocklife {
namespace {

std::vector<std::pair<long long, std::string>> linesOf(const std::string& text) {
  std::istringstream in(text);
  LineReader reader(in, "t.txt");
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

// Lines are read in chunks of 64 KiB: lines about a chunk long, and longer ones, come back whole.
TEST(LineReader, LongLinesComeBackWhole) {
  for (const std::size_t n : {65534u, 65535u, 65536u, 65537u, 200000u}) {
    const std::string a(n, 'a'), b(n + 1, 'b');
    EXPECT_EQ(linesOf(a + "\n" + b + "\r\nc"), (Lines{{1, a}, {2, b}, {3, "c"}})) << n;
    EXPECT_EQ(linesOf(a), (Lines{{1, a}})) << n;  // no line end
  }
}

/// An endless stream of NUL bytes, as /dev/zero: no line end ever comes.
class Zeros : public std::streambuf {
 public:
  Zeros() { setg(block_, block_, block_ + sizeof block_); }

 protected:
  int_type underflow() override {
    setg(block_, block_, block_ + sizeof block_);
    return traits_type::to_int_type(block_[0]);
  }

 private:
  char block_[1 << 16] = {};
};

// The bound is per line whatever the line ends: a classic Mac file longer than 256 MiB, of short
// lines ended by '\r' alone, was refused as one line (a review).
TEST(LineReader, TheBoundIsPerLineForEveryKindOfLineEnd) {
  const std::string row = "1,2,3,4,5,6";
  std::string mac;
  mac.reserve((LineReader::kMaxLineBytes / (row.size() + 1) + 2) * (row.size() + 1));
  while (mac.size() <= LineReader::kMaxLineBytes) mac += row + "\r";
  std::istringstream in(mac);
  LineReader reader(in, "mac.csv");
  std::string line;
  long long lines = 0;
  bool same = true;
  while (reader.next(line)) {
    ++lines;
    same = same && line == row;
  }
  EXPECT_TRUE(same);
  EXPECT_EQ(lines, static_cast<long long>(mac.size() / (row.size() + 1)));
}

/// Gives `good` bytes of "a\n" lines, then fails as a disk does: underflow throws, which the
/// stream turns into its badbit.
class FailingAfter : public std::streambuf {
 public:
  explicit FailingAfter(std::size_t good) : text_(good, 'a') {
    for (std::size_t i = 1; i < text_.size(); i += 2) text_[i] = '\n';
    setg(text_.data(), text_.data(), text_.data() + text_.size());
  }

 protected:
  int_type underflow() override { throw std::ios_base::failure("disk error"); }

 private:
  std::string text_;
};

// A read error ended the input like the end of the file (a review): the file would have been read
// as its first part.
TEST(LineReader, AReadErrorIsAnErrorNotTheEnd) {
  FailingAfter bad(100000);
  std::istream in(&bad);
  LineReader reader(in, "cut.csv");
  std::string line;
  long long lines = 0;
  try {
    while (reader.next(line)) ++lines;
    FAIL() << "the read error ended the input after " << lines << " lines";
  } catch (const InputError& e) {
    // The block the error cut short is not returned: the error names the first line not returned
    // and the bytes read before it.
    EXPECT_LT(lines, 50000);
    EXPECT_EQ(std::string(e.what()), "cut.csv:" + std::to_string(lines + 1) + ": read error after " +
                                         std::to_string(2 * lines) + " bytes; expected the whole file to be readable");
  }
}

// A stream without line ends stops at 256 MiB (the pattern and CSV readers read /dev/zero until the
// memory ran out; a new user's trial).
TEST(LineReader, ALineLongerThanTheLimitIsAnError) {
  Zeros zeros;
  std::istream in(&zeros);
  LineReader reader(in, "zeros.rle");
  std::string line;
  try {
    reader.next(line);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "zeros.rle:1: a line longer than 256 MiB (no line end); expected a text file (a binary "
                           "file, or a device such as /dev/zero, has no lines)");
  }
}

}  // namespace
}  // namespace flocklife
