#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/errors.hpp"
#include "life/engine.hpp"
#include "life/pattern.hpp"
#include "host_memory_limit.hpp"
#include "test_paths.hpp"

namespace flocklife::life {

namespace {

Pattern rle(const std::string& text) {
  std::istringstream in(text);
  return parseRle(in, "t.rle");
}

/// Live cells as "x,y x,y ..." in row-major order.
std::string liveCells(const Pattern& p) {
  std::string s;
  for (std::int64_t y = 0; y < p.height; ++y)
    for (std::int64_t x = 0; x < p.width; ++x)
      if (p.at(x, y)) s += (s.empty() ? "" : " ") + std::to_string(x) + "," + std::to_string(y);
  return s;
}

std::string rleError(const std::string& text) {
  try {
    rle(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Rle, ReadsHeaderCommentsRunsAndRowsSpanningLines) {
  const Pattern p = rle(
      "#N Glider\r\n#C one\n#c two\n#O someone\n\nx = 3, y = 3, rule = B36/S23\nbo$2b\no$3o!\n");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.comments, (std::vector<std::string>{"one", "two"}));
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  ASSERT_TRUE(p.rule);
  EXPECT_EQ(p.rule->str(), "B36/S23");
  EXPECT_FALSE(p.torus);
  EXPECT_EQ(liveCells(p), "1,0 2,1 0,2 1,2 2,2");
  std::istringstream spaces(" \n.O\n");  // a line of spaces is a dead row there, as in Golly
  EXPECT_EQ(parseCells(spaces, "s.cells").height, 2);
}

/// Comments are kept, up to 16 MiB in all: an endless stream of them ended in an out-of-memory
/// error that named boids (a tester's `yes '#C comment'`).
TEST(Rle, CommentsOverSixteenMebibytesAreRefusedNamingTheLine) {
  std::string many;
  for (int i = 0; i < 9; ++i) many += "#C " + std::string(std::size_t(1) << 21, 'c') + "\n";  // 2 MiB each
  EXPECT_EQ(rleError(many + "x = 1, y = 1\no!\n"),  // the 8th passes 16 MiB (each counts its line end)
            "t.rle:8:1: comments over 16 MiB in all; expected a pattern file with a header of reasonable size");
  EXPECT_EQ(rle("#C " + std::string(std::size_t(1) << 21, 'c') + "\nx = 1, y = 1\no!\n").comments.size(), 1u);
  std::istringstream cells("!" + std::string(std::size_t(1) << 24, 'c') + "\nO\n");
  try {
    parseCells(cells, "t.cells");
    ADD_FAILURE() << "a 16 MiB comment was kept";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("t.cells:1:1: comments over 16 MiB"), std::string::npos) << e.what();
  }
}

TEST(Rle, MultiRowRunsFreeSpacingAndTrailingContentAfterTheEnd) {
  const Pattern p = rle("x=4,y = 5 ,rule=b3/s23\n2o3$ 4o !\nthis text is ignored: 99z\n");
  EXPECT_EQ(liveCells(p), "0,0 1,0 0,3 1,3 2,3 3,3");
  const Pattern q = rle("x = 2, y = 2\noo$bo!");  // no rule: accepted, rule unset
  EXPECT_FALSE(q.rule);
  EXPECT_EQ(liveCells(q), "0,0 1,0 1,1");
}

// A file that ends before '!' may have been cut short: the gun cut after "...$2o8b" read as 23 of
// its 36 cells. Golly reads it to the end; here it is refused at the end of its last line.
TEST(Rle, AFileThatEndsBeforeTheBangIsRefused) {
  EXPECT_NE(rleError("x = 3, y = 3\nbob$2b").find("t.rle:2:7: the file ends before '!'"), std::string::npos)
      << rleError("x = 3, y = 3\nbob$2b");
  EXPECT_NE(rleError("x = 3, y = 3\nbo$\n#C a comment\n").find("t.rle:3:13: the file ends before '!'"),
            std::string::npos);
  EXPECT_NE(rleError("x = 3, y = 3, rule = B3/S23\n").find("t.rle:1:28: the file ends before '!'"), std::string::npos);
  EXPECT_EQ(liveCells(rle("x = 3, y = 3\nbob$2b!")), "1,0");
}

// Golly's other forms of the suffix (lifealgo::setgridsize): ":T<n>" is the n x n torus (it was
// refused as "expected ','"), the letter may be lowercase, and ":", ":T" and ":T0,0" are Golly's
// unbounded grid, read as no suffix (the default torus).
// A comma ending the rule or the header is read as Golly reads it.
TEST(Rle, ReadsACommaAfterTheRuleOrAtTheEndOfTheHeader) {
  for (const std::string header : {"x = 3, y = 1, rule = B36/S23,", "x = 3, y = 1, rule = B36/S23:T8,8, ",
                                   "x = 3, y = 1, rule = B36/S23 ,"}) {
    const Pattern p = rle(header + "\n3o!\n");
    EXPECT_EQ(p.rule, Rule::parse("B36/S23")) << header;
    EXPECT_EQ(p.width, 3) << header;
  }
  EXPECT_EQ(rle("x = 3, y = 1, rule = B36/S23:T8,8,\n3o!\n").torus, (std::pair<std::int64_t, std::int64_t>{8, 8}));
  // The same torus twice, or none twice, is one torus.
  EXPECT_EQ(rle("#r B3/S23:T8\nx = 3, y = 1, rule = B3/S23:T8,8\n3o!\n").torus, (std::pair<std::int64_t, std::int64_t>{8, 8}));
  EXPECT_FALSE(rle("#r B3/S23\nx = 3, y = 1, rule = B3/S23:\n3o!\n").torus);
}

TEST(Rle, ReadsGollysSquareTorusAndUnboundedSuffixes) {
  using Torus = std::pair<std::int64_t, std::int64_t>;
  for (const auto& [suffix, torus] : std::vector<std::pair<std::string, std::optional<Torus>>>{
           {":T10", Torus{10, 10}}, {":t12,8", Torus{12, 8}}, {":", std::nullopt}, {":T", std::nullopt},
           {":T0,0", std::nullopt}, {":T0", std::nullopt}}) {
    const Pattern p = rle("x = 3, y = 1, rule = B3/S23" + suffix + "\n3o!\n");
    EXPECT_EQ(p.torus, torus) << suffix;
    EXPECT_EQ(p.rule, kConway) << suffix;
  }
}

TEST(Rle, ReadsGollyTorusSuffixAndCxrlePosition) {
  const Pattern p = rle("#CXRLE Pos=-5,-4 Gen=12\nx = 3, y = 1, rule = B3/S23:T10,8\n3o!\n");
  ASSERT_TRUE(p.torus);
  EXPECT_EQ(*p.torus, (std::pair<std::int64_t, std::int64_t>{10, 8}));
  ASSERT_TRUE(p.position);
  EXPECT_EQ(*p.position, (std::pair<std::int64_t, std::int64_t>{-5, -4}));
  EXPECT_EQ(p.generation, "12");
  EXPECT_EQ(rle("#CXRLE Gen=123456789012345678901234567890 Pos=0,0\nx = 1, y = 1\no!\n").generation,
            "123456789012345678901234567890");  // Golly's count is a bigint: kept as text
  EXPECT_EQ(rle("x = 1, y = 1\no!\n").generation, "");
  EXPECT_EQ(defaultWorldSize(p, "t.rle"), (std::pair<std::int64_t, std::int64_t>{10, 8}));
  const World w = placePattern(p, 10, 8);  // Pos is Golly's grid coordinate: top-left of the grid
  EXPECT_EQ(w.at(0, 0) + w.at(1, 0) + w.at(2, 0), 3);
  EXPECT_EQ(w.population(), 3u);
  // Spaces around '=' are read (the position was ignored), and a #r line equal to the header's rule.
  const Pattern spaced = rle("#CXRLE Pos = 2,-1\n#r B3/S23\nx = 1, y = 1, rule = b3/s23\n#r B3/S23\no!\n");
  ASSERT_TRUE(spaced.position);
  EXPECT_EQ(*spaced.position, (std::pair<std::int64_t, std::int64_t>{2, -1}));
  // Blanks before the header, as Golly reads them (refused before; found by a new user's audit).
  EXPECT_EQ(rle("  \tx = 3, y = 1\n3o!\n").population(), 3u);
  // Cells that Pos puts outside the :T torus are not on Golly's bounded grid: they are dropped (they
  // were wrapped, a tester's trial), and the note says that Golly drops them only after its first
  // generation (a tester's bgolly run differed from generation 1 on).
  // On another torus (--size) or at an offset the pattern is whole, wrapped as any other.
  const Pattern outside = rle("#CXRLE Pos=-20,-10\nx = 64, y = 3, rule = B3/S23:T64,64\n3o49b4o$$o62bo!\n");
  EXPECT_EQ(outside.population(), 9u);
  std::uint64_t dropped = 99;
  EXPECT_EQ(placePattern(outside, 64, 64, std::nullopt, &dropped).population(), 4u);
  EXPECT_EQ(dropped, 5u);  // x = 32 to 35 on the first row, 43 on the third
  EXPECT_EQ(outsideTorusNote(outside, "t.rle", dropped),
            "t.rle: #CXRLE Pos=-20,-10 puts 5 live cells outside its :T64,64 torus, where Golly's bounded grid has "
            "none; they are dropped. Golly drops them only after its first generation, in which those just outside an "
            "edge still count as neighbours: the two can differ from generation 1 on");
  EXPECT_EQ(placePattern(outside, 128, 64, std::nullopt, &dropped).population(), 9u);
  EXPECT_EQ(dropped, 0u);
  EXPECT_EQ(placePattern(outside, 64, 64, std::pair<std::int64_t, std::int64_t>{0, 0}, &dropped).population(), 9u);
  EXPECT_EQ(dropped, 0u);
  const Pattern above = rle("#CXRLE Pos=-20,-40\nx = 1, y = 1, rule = B3/S23:T64,64\no!\n");
  EXPECT_EQ(placePattern(above, 64, 64, std::nullopt, &dropped).population(), 0u);
  EXPECT_EQ(dropped, 1u);
  EXPECT_EQ(placePattern(p, 10, 8, std::nullopt, &dropped).population(), 3u);
  EXPECT_EQ(dropped, 0u);
  EXPECT_EQ(outsideTorusNote(p, "t.rle", 0), "");
}

TEST(Rle, ClassicMacLineEndsAndNulBytes) {
  // A lone '\r' ends a line (classic Mac files), as "\n" and "\r\n" do: the header was missed.
  const Pattern p = rle("#N Glider\rx = 3, y = 3\rbo$2bo$3o!\r");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.population(), 5u);
  EXPECT_EQ(rle("x = 3, y = 3\r\n\rbo$\r\n2bo$3o!").population(), 5u);
  EXPECT_NE(rleError("x = 3, y = 2\r\r4o!\r").find("t.rle:3:2: run of 4 cells"), std::string::npos);
  // "\r\r\n" (a DOS file converted twice) is one line end, as before lone '\r's were read: the
  // rows of a .cells file stay rows (an empty row between them would be a dead row).
  std::istringstream twice(".O.\r\r\n..O\r\r\nOOO\r\r\n"), mac(".O.\r..O\rOOO\r");
  EXPECT_EQ(liveCells(parseCells(twice, "t.cells")), "1,0 2,1 0,2 1,2 2,2");
  EXPECT_EQ(liveCells(parseCells(mac, "t.cells")), "1,0 2,1 0,2 1,2 2,2");
  // A NUL byte cut the message short after "unexpected character '".
  const std::string nul = rleError(std::string("x = 3, y = 3\nbo$2b\0o$3o!\n", 25));
  EXPECT_NE(nul.find("t.rle:2:6: unexpected character '\\x00'; expected a run count"), std::string::npos) << nul;
  // A long unknown key is cut as other quotes are (a 20 MB key was quoted whole; a tester's trial).
  const std::string key = rleError("x = 3, y = 1, " + std::string(100, 'k') + " = 1\n3o!\n");
  EXPECT_NE(key.find("t.rle:1:15: unknown key '" + std::string(80, 'k') + "... (100 bytes)'"), std::string::npos)
      << key;
}

TEST(Rle, MalformedInputNamesLineColumnAndWhatWasExpected) {
  struct Case {
    const char* text;
    const char* message;
  } cases[] = {
      {"", "t.rle: no RLE header"},
      {"#C only comments\n", "no RLE header"},
      {"3o!\n", "t.rle:1:1: expected the RLE header"},
      {".O.\n..O\nOOO\n", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, rule = <rule>]' before "
                           "the cells (rows of '.' and 'O' and '!' comments are plaintext: name the file .cells)"},
      {"!Name: glider\n.O.\n", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, rule = <rule>]' before "
                                "the cells (rows of '.' and 'O' and '!' comments are plaintext: name the file .cells)"},
      {"x = 3\n3o!", "t.rle:1:1: missing y"},
      {"x = 3, z = 4\n", "t.rle:1:8: unknown key 'z'"},
      {"x = -3, y = 1\n", "t.rle:1:5: expected a non-negative width"},
      {"x = 3 y = 1\n", "t.rle:1:7: unexpected 'y'"},
      {"x = 3, y = 1, rule = B9/S23\n", "t.rle:1:23: invalid rule 'B9/S23': unexpected character '9'"},
      {"x = 3, y = 1, rule = B3/S23:P10,10\n", "t.rle:1:29: unsupported bounded grid 'P10,10'"},
      {"x = 3, y = 1, rule = B3/S23:T10,0\n", "t.rle:1:29: infinite dimension in 'T10,0' (a tube, which is not supported)"},
      // Golly's shifted torus was refused as "expected ','", and a malformed number in the suffix
      // named the column within the suffix (1:2), not the line's.
      {"x = 3, y = 1, rule = B3/S23:T10+2,8\n", "t.rle:1:32: a shifted torus 'T10+2,8' is not supported"},
      {"x = 3, y = 1, rule = B3/S23:T10,8-1\n", "t.rle:1:34: a shifted torus"},
      {"x = 3, y = 1, rule = B3/S23:Tq\n", "t.rle:1:30: expected Golly's torus suffix :T<width>,<height>"},
      {"x = 3, y = 1, rule = B3/S23:T10,8x\n", "t.rle:1:34: unexpected 'x'"},
      {"x = 3, y = 1, rule = B3/S23:T10x\n", "t.rle:1:32: unexpected 'x'"},
      {"x = 3, y = 1, rule = B3/S23:T10,10*\n", "t.rle:1:35: a twist '*' in a torus suffix (Golly takes one only for a "
                                             "Klein bottle, :K"},
      // A #r line's torus and the header's were not compared: the first one given was kept (found by
      // a review). Golly's unbounded ":T0,0" counts as no torus.
      {"#r B3/S23:T10,10\nx = 3, y = 1, rule = B3/S23:T0,0\n3o!\n", "t.rle:2:28: the torus here (no torus) differs from "
                                                                   "the one given before with the rule (:T10,10)"},
      {"#r B3/S23:T10,10\nx = 3, y = 1, rule = B3/S23:T20,20\n3o!\n", "t.rle:2:28: the torus here (:T20,20) differs"},
      {"#r B3/S23\nx = 3, y = 1, rule = B3/S23:T8\n3o!\n", "the torus here (:T8,8) differs from the one given before with "
                                                         "the rule (no torus)"},
      // A field after the rule was read as part of it ("invalid rule 'B3/S23,'"; a new user's trial).
      {"x = 3, y = 1, rule = B3/S23, extra = 1\n3o!\n", "t.rle:1:30: unknown key 'extra'"},
      // --rule 'B3 / S23' is read whole, so the header's rule said only "unexpected '/'" (a tester).
      {"x = 3, y = 1, rule = B3 / S23\n3o!\n", "t.rle:1:25: unexpected '/' after the rule; in an RLE header the rule "
                                              "ends at the first space (as Golly reads it), so expected it without "
                                              "spaces, such as B3/S23"},
      {"x = 3, y = 1, rule = B3/S23 ;\n3o!\n", "t.rle:1:29: unexpected ';'; expected ',' or the end of a header"},
      // Other formats Golly reads are named (a bare "expected the RLE header" before).
      {"[M2] (golly 3.3)\n#R B3/S23\n$$..*$.*$***$\n", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, "
                                                    "rule = <rule>]' before the cells (this is Golly's macrocell format, .mc"},
      // Said at its first line (it was at the first line after the '#' ones; a new user's trial).
      {"#Life 1.06\n0 -1\n1 0\n", "t.rle:1:1: expected an RLE file (this is the Life 1.06 format, .lif, which "
                                  "flocklife does not read"},
      {"#Life 1.05\n#P -1 -1\n.*.\n", "(this is the Life 1.05 format, .lif,"},
      // Golly's multi-state letters said only "unexpected character" (a new user's trial).
      {"x = 3, y = 3\nbAb$2bA$3A!\n", "t.rle:2:2: unexpected character 'A'; expected a run count, 'b' (dead), 'o' (live), "
                                      "'$' (end of row) or '!' (end) (Golly's multi-state cells, '.' and 'A' to 'X', are not "
                                      "supported: a Life-like rule has two states)"},
      {"x = 3, y = 3\n.A.$2.A$3A!\n", "t.rle:2:1: unexpected character '.'; expected a run count"},
      {"x = 3, y = 1\n3O!\n", "t.rle:2:2: unexpected character 'O'; expected a run count, 'b' (dead), 'o' (live), '$' "
                              "(end of row) or '!' (end) (the tags are lower case;"},
      {"x = 3, y = 2\n3o$b2A!\n", "t.rle:2:6: unexpected character 'A'; expected a run count, 'b' (dead), 'o' (live)"},
      {"x = 3, y = 2\n4o!\n", "t.rle:2:2: run of 4 cells from column 1 goes past the declared width x = 3"},
      {"x = 3, y = 2\n3o$3o$o!\n", "t.rle:2:7: cells below the last row of the declared height y = 2"},
      // '$' counts past the last row were clamped, and the message named row y + 1 whatever they
      // said (found by a new user's trial): it names no row now.
      {"x = 3, y = 3\n3o$999999999999$o!\n", "t.rle:2:17: cells below the last row of the declared height y = 3"},
      {"x = 3, y = 2\n\n2o$2\no!\n", "t.rle:3:5: run count 2 at the end of the line"},
      {"x = 3, y = 2\n2 o!\n", "t.rle:2:2: run count 2 is not followed by"},
      {"x = 3, y = 2\n0o!\n", "t.rle:2:1: run count 0"},
      {"x = 3, y = 2\n99999999999999999o!\n", "t.rle:2:1: run count too large"},
      {"x = 2000000, y = 1000000\no!\n", "t.rle: header x = 2000000, y = 1000000 declares more than 2^40 cells"},
      {"x = 99999999999999, y = 1\n", "t.rle:1:5: number too large"},
      // Found by the pattern fuzzer: a position past int64 overflowed when the pattern was placed.
      {"#CXRLE Pos=-3,11111111111111111111111-1969\nx = 3, y = 3\nbob$2bo$3o!\n",
       "t.rle:1:15: number too large (more than 2^40); expected an integer within +-2^40 for each coordinate of "
       "#CXRLE Pos=X,Y"},
      {"#CXRLE Pos=1099511627777,0\nx = 1, y = 1\no!\n",
       "t.rle:1:12: number too large (more than 2^40); expected an integer within +-2^40"},
      {"#CXRLE Pos=5\nx = 1, y = 1\no!\n", "t.rle:1:13: expected ',' between the coordinates"},
      {"#CXRLE Pos=a,2\nx = 1, y = 1\no!\n", "t.rle:1:12: expected an integer"},
      // Read silently before (found by a review): a repeated key, two rules that differ, a #r or
      // #CXRLE line after the header, and #CXRLE Pos with spaces or with text after it.
      {"x = 3, x = 4, y = 1\n3o!\n", "t.rle:1:8: 'x' given twice"},
      {"#r B36/S23\nx = 1, y = 1, rule = B3/S23\no!\n", "t.rle:2:22: rule B3/S23 differs from the rule B36/S23 given before"},
      {"x = 3, y = 3\n#r B36/S23\nbo!\n", "t.rle:2:1: #r line after the header, with a rule of its own; expected it before 'x = ...'"},
      {"x = 3, y = 3, rule = B3/S23\n#r B36/S23\nbo!\n", "t.rle:2:1: #r line after the header, with a rule of its own"},
      {"x = 3, y = 3\n#CXRLE Pos=1,1\nbo!\n", "t.rle:2:1: #CXRLE line after the header"},
      {"#CXRLE Pos=1,1xyz\nx = 1, y = 1\no!\n", "t.rle:1:15: unexpected 'x' after #CXRLE Pos=X,Y"},
      // Found by a review: a count before '!' was dropped, a :T torus over 2^40 cells was refused
      // without the file's name, a #r line's column ignored its spaces, and control bytes were
      // echoed raw (an escape reached the terminal).
      {"x = 3, y = 3\n3o5!\n", "t.rle:2:3: run count 5 before '!'"},
      {"x = 3, y = 3, rule = B3/S23:T2000000,1000000\n3o!\n",
       "t.rle:1:29: torus 2000000x1000000 has more than 2^40 cells"},
      {"#r    B39/S23\nx = 3, y = 3\n3o!\n", "t.rle:1:9: invalid rule 'B39/S23': unexpected character '9'"},
      {"x = 3, y = 2\n3o$b\x1b[2o!\n", "t.rle:2:5: unexpected character '\\x1b'"},
      {"x = 3, y = 1, rule = B3/S\x07\n3o!\n", "invalid rule 'B3/S\\x07': unexpected character '\\x07'"},
      // Named for what they are (found by a new user's trial); Golly would read the comment's letters
      // 'o' as live cells and the second header again.
      {"x = 3, y = 3\nbob$#C mid comment\n2bo$3o!\n",
       "t.rle:2:5: unexpected character '#'; expected a run count, 'b' (dead), 'o' (live), '$' (end of row) or '!' "
       "(end) (a comment is a line of its own, with '#' in its first column)"},
      {"x = 3, y = 3\nx = 3, y = 3\nbob$2bo$3o!\n",
       "t.rle:2:1: unexpected character 'x'; expected a run count, 'b' (dead), 'o' (live), '$' (end of row) or '!' "
       "(end) (a second header line: 'x = ...' comes once, before the cells)"},
      {"\x1f\x8b\x08\x00rest", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, rule = <rule>]' before "
                                 "the cells (this file is gzip-compressed, as Golly's .rle.gz files are, which flocklife "
                                 "does not read: decompress it first, e.g. with gunzip)"},
      // A comment indented by a blank (a tester's file; bgolly reads it as cells).
      {" #C hi\nx = 3, y = 1\n3o!\n", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, rule = "
                                     "<rule>]' before the cells (a comment line has its '#' in the first column; "
                                     "bgolly misreads this one as cells)"},
      // #CXRLE Gen= in digits only, as Pos= is checked (Gen=abc and Gen=-3 were ignored: a tester).
      {"#CXRLE Gen=abc\nx = 1, y = 1\no!\n", "t.rle:1:12: expected the generation count of #CXRLE Gen=N in decimal "
                                              "digits, followed by a space or the end of the line"},
      {"#CXRLE Pos=0,0 Gen=-3\nx = 1, y = 1\no!\n", "t.rle:1:20: expected the generation count"},
      {"#CXRLE Gen=12x Pos=0,0\nx = 1, y = 1\no!\n", "t.rle:1:14: expected the generation count"},
      // UTF-16 (Windows' "Unicode"; its byte order mark, then "x" cut at its 0 byte): named (a tester's
      // file got only the header message).
      {"\xff\xfex", "t.rle:1:1: expected the RLE header 'x = <width>, y = <height>[, rule = <rule>]' before the "
                     "cells (this file is UTF-16 text, which flocklife does not read: save it as UTF-8 or ASCII)"},
  };
  for (const auto& c : cases) {
    const std::string msg = rleError(c.text);
    EXPECT_NE(msg.find(c.message), std::string::npos) << "input: " << c.text << "\nmessage: " << msg;
  }
}

TEST(Rle, HostileHeaderIsRefusedBeforeAllocating) {
  // 10^12 cells: below the 2^40 format limit, so the host-memory check refuses it, naming the file.
  try {
    rle("x = 1000000, y = 1000000\no!\n");
    FAIL() << "a 10^12-cell pattern was accepted";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("t.rle: pattern of 1000000x1000000 cells: needs"), std::string::npos) << e.what();
  }
}

TEST(Rle, FuzzFindingBigDeclaredWidthIsRefusedUnderAHostMemoryCap) {
  // Found by scripts/fuzz.sh: 90 bytes declaring x = 16553623, y = 13 (215 MB of cells) took
  // over 10 s to allocate under ASan. With host memory capped (FLOCKLIFE_HOST_MEMORY_LIMIT, as
  // the fuzzer and shared machines do) it is refused before allocating, with both sizes.
  const test::HostMemoryLimit cap("16777216");
  try {
    loadPattern(test::sourceDir() + "/tests/fuzz/regressions/huge-width-pulsar.rle");
    ADD_FAILURE() << "a 215 MB pattern was accepted under a 16 MiB cap";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("huge-width-pulsar.rle: pattern of 16553623x13 cells: needs"), std::string::npos) << m;
    EXPECT_NE(m.find("215197099 bytes"), std::string::npos) << m;
    EXPECT_NE(m.find("16.00 MiB available"), std::string::npos) << m;
  }
}

// A UTF-8 byte order mark before the first line (as some editors write) is skipped in both formats
// (it was an unexpected character; found by a new user's trial).
TEST(PatternFile, ByteOrderMarkIsSkipped) {
  std::istringstream rle("\xEF\xBB\xBFx = 3, y = 1\n3o!\n"), cells("\xEF\xBB\xBF!Name: row\nOOO\n");
  const Pattern a = parseRle(rle, "t.rle"), b = parseCells(cells, "t.cells");
  EXPECT_EQ(a.width, 3);
  EXPECT_EQ(b.name, "row");
  EXPECT_EQ(a.cells, b.cells);
}

/// A file without rows was read as an empty pattern, and a '!' line between rows was dropped, closing
/// the rows up where Golly reads it as a row (a tester's trial): both are refused, naming the file.
TEST(Cells, RefusesNoRowsAndCommentsBetweenRows) {
  for (const std::string text : {"", "\n\n", "!Name: nothing\n!only comments\n"}) {
    std::istringstream in(text);
    try {
      parseCells(in, "e.cells");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()), "e.cells: no rows of cells; expected rows of '.' (dead) and 'O' (live) after "
                                       "the '!' comment lines");
    }
  }
  std::istringstream between("!top\n.O.\n..O\n!comment mid\nOOO\n");
  try {
    parseCells(between, "m.cells");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "m.cells:4:1: a '!' comment line after the first row of cells; expected the "
                                     "comments before the rows (or the line as a row of '.' and 'O')");
  }
}

TEST(Cells, ReadsNameCommentsAndRaggedRows) {
  // Empty lines at the start of the file are skipped, as Golly's loadpattern skips them (they were
  // dead rows, which moved a centred pattern; found by a new user's trial).
  std::istringstream in("\n\r\n!Name: Glider\n!a comment\n.O\n..O\r\nOOO  \n\n\n");
  const Pattern p = parseCells(in, "g.cells");
  EXPECT_EQ(p.name, "Glider");
  EXPECT_EQ(p.comments, std::vector<std::string>{"a comment"});
  EXPECT_EQ(p.width, 3);
  EXPECT_EQ(p.height, 3);
  EXPECT_EQ(liveCells(p), "1,0 2,1 0,2 1,2 2,2");
  // '*' (a variant LifeWiki names) and 'o' stay refused: Golly's readers disagree on them.
  std::istringstream bad("!x\n.O\n.*.\n");
  try {
    parseCells(bad, "g.cells");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("g.cells:3:2: unexpected character '*'; expected '.' (dead) or 'O' (live), or a "
                                         "'!' comment line (not read as live: Golly reads such a file with '!' lines as "
                                         "live at 'O' only"),
              std::string::npos)
        << e.what();
  }
  std::istringstream rle("#N Glider\nx = 3, y = 3\nbo$2bo$3o!\n");  // RLE under a .cells name: the hint says so
  try {
    parseCells(rle, "g.cells");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "g.cells:1:1: unexpected character '#'; expected '.' (dead) or 'O' (live), or a "
                                     "'!' comment line (a first line starting with '#' or 'x' is RLE: name the file .rle)");
  }
  // Golly's other formats under a .cells name are named, not taken for RLE (a new user's trial).
  for (const auto& [text, hint] :
       {std::pair{"#Life 1.06\n0 0\n", "(this is the Life 1.06 format, .lif,"},
        std::pair{"[M2] (golly 3.3)\n#R B3/S23\n", "(this is Golly's macrocell format, .mc,"}}) {
    std::istringstream other(text);
    try {
      parseCells(other, "o.cells");
      FAIL() << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("o.cells:1:1: unexpected character", 0), 0u) << e.what();
      EXPECT_NE(std::string(e.what()).find(hint), std::string::npos) << e.what();
    }
  }
}

TEST(PatternFile, UnreadableFilesAreReportedWithTheirName) {
  try {
    loadPattern("/nonexistent/dir/x.rle");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot read pattern file '/nonexistent/dir/x.rle'"), std::string::npos) << e.what();
  }
  try {
    loadPattern(test::sourceDir());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("it is a folder; expected a pattern file"), std::string::npos) << e.what();
  }
}

TEST(PatternFile, ShippedPatternsParseWithNameRuleAndExpectedPopulation) {
  const std::pair<const char*, std::uint64_t> files[] = {
      {"glider.rle", 5}, {"glider.cells", 5}, {"lwss.rle", 9}, {"blinker.rle", 3}, {"pulsar.rle", 48},
      {"r-pentomino.rle", 5}, {"acorn.rle", 7}, {"gosper-glider-gun.rle", 36}, {"replicator.rle", 12}};
  for (const auto& [name, population] : files) {
    const Pattern p = loadPattern(test::sourceDir() + "/data/patterns/" + name);
    EXPECT_FALSE(p.name.empty()) << name;
    EXPECT_FALSE(p.comments.empty()) << name;
    EXPECT_EQ(p.population(), population) << name;
  }
  EXPECT_EQ(liveCells(loadPattern(test::sourceDir() + "/data/patterns/glider.rle")),
            liveCells(loadPattern(test::sourceDir() + "/data/patterns/glider.cells")));
}

TEST(Placement, CentresAsGollyDoesAndFillsExactlyAtEqualSize) {
  const Pattern p = rle("x = 3, y = 3\nb2o$2o$bo!");  // R-pentomino
  // 10x8 torus: Golly's grid top-left is (-5,-4), the pattern's top-left (-1,-1) -> world (4,3).
  const World w = placePattern(p, 10, 8);
  EXPECT_EQ(w.population(), 5u);
  EXPECT_EQ(w.at(5, 3) + w.at(6, 3) + w.at(4, 4) + w.at(5, 4) + w.at(5, 5), 5);
  // Even pattern size on an odd torus: 4x2 on 9x7 -> top-left (4 - 2, 3 - 1) = (2, 2).
  const World v = placePattern(rle("x = 4, y = 2\no2bo$bobo!"), 9, 7);
  EXPECT_EQ(v.at(2, 2) + v.at(5, 2) + v.at(3, 3) + v.at(5, 3), 4);
  EXPECT_EQ(v.population(), 4u);
  // Equal size fills exactly.
  const Pattern full = rle("x = 3, y = 2\no$2bo!");
  const World f = placePattern(full, 3, 2);
  EXPECT_EQ(f.at(0, 0) + f.at(2, 1), 2);
  EXPECT_EQ(f.population(), 2u);
}

TEST(Placement, OffsetWrapsAroundTheSeamsAndTooLargeIsAnError) {
  const Pattern p = rle("x = 2, y = 2\n2o$bo!");
  const World w = placePattern(p, 5, 4, {{4, -1}});  // top-left at (4, 3): straddles both seams
  EXPECT_EQ(w.at(4, 3) + w.at(0, 3) + w.at(0, 0), 3);
  EXPECT_EQ(w.population(), 3u);
  // Offsets at the ends of int64 (INT64_MIN placed cells past the world's buffer; a new user's
  // trial): -2^63 is 92 modulo 100, and 2^63 - 1 is 3 modulo 4.
  const std::int64_t lo = std::numeric_limits<std::int64_t>::min(), hi = std::numeric_limits<std::int64_t>::max();
  EXPECT_EQ(placePattern(p, 100, 4, {{lo, hi}}), placePattern(p, 100, 4, {{92, 3}}));
  try {
    placePattern(rle("x = 6, y = 2\n6o!"), 5, 40);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pattern 6x2 does not fit on the 5x40 torus"), std::string::npos) << e.what();
  }
  EXPECT_THROW(defaultWorldSize(rle("x = 0, y = 0\n!"), "e.rle"), InputError);
}

// A :T torus smaller than the pattern is named with the file and line (before, the message blamed a
// --size that was not given); a --size that fits overrides it.
TEST(Rle, TorusSmallerThanThePatternIsRefusedUnlessSizeIsGiven) {
  const std::string text = "#C a comment\nx = 3, y = 3, rule = B3/S23:T2,2\nbob$2bo$3o!\n";
  std::istringstream a(text);
  try {
    parseRle(a, "t.rle");
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("t.rle:2:1: the pattern (x = 3, y = 3) does not fit on its own :T2,2 torus", 0), 0u)
        << e.what();
  }
  std::istringstream b(text);
  EXPECT_EQ(parseRle(b, "t.rle", std::pair<std::int64_t, std::int64_t>{8, 8}).population(), 5u);
}

// Without :T a pattern gets a torus of 4 times its sides, at least 64, in multiples of 64: on its
// own 3x3 a glider dies in one generation, on 64x64 it glides.
TEST(Placement, DefaultTorusGivesThePatternRoom) {
  using Size = std::pair<std::int64_t, std::int64_t>;
  const Pattern glider = rle("x = 3, y = 3\nbo$2bo$3o!");
  EXPECT_EQ(defaultWorldSize(glider, "g.rle"), (Size{64, 64}));
  EXPECT_EQ(defaultWorldSize(rle("x = 36, y = 9\no!"), "gun.rle"), (Size{192, 64}));
  EXPECT_EQ(defaultWorldSize(rle("x = 1, y = 17\no!"), "line.rle"), (Size{64, 128}));
  EXPECT_EQ(defaultWorldSize(rle("x = 3, y = 3, rule = B3/S23:T5,7\no!"), "t.rle"), (Size{5, 7}));  // :T wins
  const auto [w, h] = defaultWorldSize(glider, "g.rle");
  EXPECT_EQ(stepSerial(placePattern(glider, w, h), kConway, 4).population(), 5u);
  EXPECT_EQ(stepSerial(placePattern(glider, 3, 3), kConway, 1).population(), 0u);  // why not its own size
}

TEST(RandomSoup, DensityIsValidatedAndSeedsAreReproducible) {
  for (double bad : {-0.1, 1.5, std::nan("")}) {
    try {
      randomSoup(4, 4, bad, 1);
      FAIL() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("density must be in [0, 1]"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(randomSoup(30, 20, 0.0, 7).population(), 0u);
  EXPECT_EQ(randomSoup(30, 20, 1.0, 7).population(), 600u);
  const World a = randomSoup(300, 200, 0.3, 7);
  EXPECT_EQ(a, randomSoup(300, 200, 0.3, 7));
  EXPECT_NE(a, randomSoup(300, 200, 0.3, 8));
  EXPECT_NEAR(double(a.population()) / 60000.0, 0.3, 0.01);
}

TEST(RleWriter, RoundTripRestoresTheTorusAndKeepsLinesShort) {
  for (auto [w, h] : {std::pair<int, int>{1, 1}, {7, 13}, {100, 37}, {257, 3}}) {
    const World world = randomSoup(w, h, 0.4, std::uint64_t(w * 1000 + h));
    const Rule rule = Rule::parse("B36/S23");
    std::stringstream s;
    writeRle(s, world, rule, {"a comment", "from new\nline.rle"});  // a file name with a newline: one line
    const std::string text = s.str();
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) EXPECT_LE(line.size(), 70u) << line;
    EXPECT_NE(text.find("x = " + std::to_string(w) + ", y = " + std::to_string(h) + ", rule = B36/S23:T" +
                        std::to_string(w) + "," + std::to_string(h) + "\n"),
              std::string::npos)
        << text;
    const Pattern p = parseRle(s, "round");
    EXPECT_EQ(p.comments, (std::vector<std::string>{"a comment", "from new?line.rle"}));
    ASSERT_TRUE(p.rule);
    EXPECT_EQ(*p.rule, rule);
    const auto [dw, dh] = defaultWorldSize(p, "round");
    EXPECT_EQ(placePattern(p, dw, dh), world) << w << "x" << h;
  }
}

TEST(RleWriter, WritesCanonicalRunsAndMergesEmptyRows) {
  World w(6, 5);
  w.set(0, 0, true);
  w.set(1, 0, true);
  w.set(5, 0, true);
  w.set(2, 3, true);
  std::ostringstream s;
  writeRle(s, w, kConway);
  EXPECT_EQ(s.str(), "x = 6, y = 5, rule = B3/S23:T6,5\n2o3bo3$2bo!\n");
  std::ostringstream e;
  writeRle(e, World(3, 2), kConway);
  EXPECT_EQ(e.str(), "x = 3, y = 2, rule = B3/S23:T3,2\n!\n");
}

TEST(PatternFile, PlaintextIsChosenByTheNameEnding) {
  EXPECT_TRUE(isPlaintextPath("runs/end.cells"));
  EXPECT_TRUE(isPlaintextPath(".cells"));  // a hidden file named only by its ending
  EXPECT_TRUE(isPlaintextPath("GLIDER.CELLS"));
  EXPECT_TRUE(isPlaintextPath("glider.Cells"));
  EXPECT_FALSE(isPlaintextPath("end.rle"));
  EXPECT_FALSE(isPlaintextPath("cells"));
  EXPECT_FALSE(isPlaintextPath("end.cells.rle"));
}

TEST(CellsWriter, RoundTrip) {
  const World world = randomSoup(9, 4, 0.5, 3);
  std::stringstream s;
  writeCells(s, world, {"c"});
  const Pattern p = parseCells(s, "round.cells");
  EXPECT_EQ(placePattern(p, 9, 4), world);
}

}  // namespace flocklife::life
