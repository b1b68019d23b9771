#pragma once
/// @file pattern.hpp
/// Life pattern files and initial worlds: reading and writing RLE (the run-length format of
/// Golly and LifeWiki, https://conwaylife.com/wiki/Run_Length_Encoded, including Golly's
/// "Extended RLE" `#CXRLE Pos=` line and its `:T<w>,<h>` bounded-torus rule suffix) and
/// plaintext `.cells` files (https://conwaylife.com/wiki/Plaintext), placing a pattern on a
/// torus the way Golly does, and seeded random soups.
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "life/rule.hpp"
#include "life/world.hpp"

namespace flocklife::life {

/// A pattern as read from a file: a declared width x height rectangle of cells.
struct Pattern {
  std::int64_t width = 0, height = 0;  ///< RLE header `x = , y =`; for .cells the longest row x rows
  std::vector<std::uint8_t> cells;     ///< row-major, width * height bytes, 0 = dead, 1 = live
  std::optional<Rule> rule;            ///< the header's `rule =` (or `#r`), if any
  /// Golly's bounded torus from a `:T<w>,<h>` rule suffix, e.g. {64, 48} for `B3/S23:T64,48`
  /// ({n, n} for `:T<n>`); none for no suffix and for Golly's unbounded `:`, `:T` and `:T0,0`.
  std::optional<std::pair<std::int64_t, std::int64_t>> torus;
  /// Golly's `#CXRLE Pos=x,y`: the position of the top-left cell in Golly's coordinates, each within
  /// +-2^40 (a malformed or larger Pos is an InputError naming the file, line and column).
  std::optional<std::pair<std::int64_t, std::int64_t>> position;
  /// Golly's `#CXRLE Gen=N`: the generation the file was saved at, its digits as written (empty
  /// when not given). Runs start at generation 0 whatever it says; it tells whether Golly saved a
  /// B0 rule's cells complemented (see parseRle).
  std::string generation;
  std::string name;                    ///< `#N` line (RLE) or `!Name:` line (.cells)
  std::vector<std::string> comments;   ///< `#C` / `#c` lines (RLE) or other `!` lines (.cells)

  std::uint8_t at(std::int64_t x, std::int64_t y) const { return cells[std::uint64_t(y) * std::uint64_t(width) + std::uint64_t(x)]; }
  std::uint64_t population() const;
};

/// Parses RLE text. `source` (usually the file name) prefixes every error message.
/// Accepted: lines ending in "\n", "\r\n" or a lone "\r"; blank lines; `#` lines before the
/// header (`#N` name, `#C`/`#c` comments, `#r` rule, `#CXRLE Pos=X,Y` position, others ignored)
/// and after it (ignored, except that a `#r` must repeat the header's rule and a `#CXRLE` is
/// refused); the header `x = W, y = H[, rule = R]` with free spacing (blanks before it too, which
/// bgolly 3.3 does not take for a header; a comma right after R or at the end, as Golly reads it), where R may carry a
/// `:T<w>,<h>` or `:T<n>` (n x n) torus suffix (`T` in either case; `:`, `:T` and `:T0,0`, Golly's
/// unbounded grid, count as none); runs `[count](b|o|$)`, runs spanning lines, `!` ending the pattern
/// (anything after it is ignored).
/// Strict where Golly is lenient, so that a damaged file is never read as a wrong pattern: every
/// cell must lie inside the declared W x H rectangle, only two-state tags are allowed, and the
/// pattern must end in `!` (Golly reads a file without one to its end).
/// The cells are read as the state of the rule's own world. For a rule with B0 and S8 Golly runs
/// the complementary rule on the complemented state (Golly Help, QuickLife, "Emulating B0
/// rules"), so a file Golly saved under such a rule holds the complement (see writeRle).
/// @throws InputError "<source>:<line>:<column>: <what is wrong>; expected <what>" for a missing
///         or malformed header (a key given twice included), an invalid rule, two rules or tori
///         that differ (`#r` and `rule =`), a `#r` or `#CXRLE` line after the header that would change
///         it, a topology other than a torus (another letter, a tube `:T0,<h>`, a shifted torus
///         `:T<w>+<s>,<h>`, a twist `*`) or a torus of more than 2^40 cells, a pattern larger
///         than its own `:T` torus, an unexpected character (control bytes shown as `\xNN`), a run
///         count without a tag (at the end of a line, before a space or before `!`; a `#` within a
///         line and a second header line are named as such, a gzip-compressed file too), runs that
///         leave the declared rectangle, a file that ends before `!` (it may be cut short; Golly
///         reads it to its end); and "<source>: header x = W, y = H declares more than
///         2^40 cells" before allocating.
///         OutOfMemoryError when W x H bytes do not fit in host memory. With `fitOn` (the torus's
///         width and height), "<source>: pattern WxH does not fit on the AxB torus" before allocating
///         when the header declares a larger pattern.
///         `beforeCells`, when given, is called with the pattern's header (width, height, rule,
///         torus; no cells yet) before its cells are allocated, so that a caller can refuse the world
///         the header implies (life's memory check) before a large pattern is read.
Pattern parseRle(std::istream& in, const std::string& source,
                 std::optional<std::pair<std::int64_t, std::int64_t>> fitOn = std::nullopt,
                 const std::function<void(const Pattern&)>& beforeCells = {});

/// Parses plaintext `.cells`: `!` comment lines (`!Name: ...` gives the name), then one line per
/// row of `.` (dead) and `O` (live); shorter rows are padded with dead cells, empty lines at the
/// start of the file (as Golly's loadpattern skips them) and trailing blank lines are dropped.
/// @throws InputError "<source>:<line>:<column>: ..." for any other character and for a `!` line
/// after the first row, "<source>: no rows of cells; ..." for a file without rows, and with
/// `fitOn` "<source>: pattern WxH does not fit on the AxB torus" before allocating; `beforeCells`
/// as for parseRle.
Pattern parseCells(std::istream& in, const std::string& source,
                   std::optional<std::pair<std::int64_t, std::int64_t>> fitOn = std::nullopt,
                   const std::function<void(const Pattern&)>& beforeCells = {});

/// True when `path` names a plaintext file for loadPattern and savePattern: its name ends in
/// ".cells" in any letter case (".CELLS", and ".cells" alone, included).
bool isPlaintextPath(const std::string& path);

/// Reads a pattern file: `.cells` files (isPlaintextPath) as plaintext, any other name as RLE;
/// an RLE file whose first row is plaintext ('.' or 'O') is refused with a hint to rename it.
/// `fitOn`: the width and height in cells of the torus the pattern goes on, when known, so that a
/// pattern too large for it is refused before its cells are allocated; `beforeCells` as for
/// parseRle (what it throws goes through).
/// @throws InputError "cannot read pattern file '<path>': <reason>", or the parser's errors.
Pattern loadPattern(const std::string& path, std::optional<std::pair<std::int64_t, std::int64_t>> fitOn = std::nullopt,
                    const std::function<void(const Pattern&)>& beforeCells = {});

/// "<source>: #CXRLE Pos=X,Y puts N live cells outside its :TW,H torus, where Golly's bounded grid
/// has none; they are dropped. Golly drops them only after its first generation, ..." for N =
/// `outsideTorus` (placePattern's count) > 0, else "". Golly's bounded grid (lifealgo's
/// CreateBorderCells and DeleteBorderCells) copies each edge into the ring of cells just outside
/// the opposite edge before a generation, keeping the live cells already there, and clears
/// everything outside the grid after it, so such cells in that ring are neighbours once (a
/// tester's bgolly run).
std::string outsideTorusNote(const Pattern& p, const std::string& source, std::uint64_t outsideTorus);

/// The torus a pattern runs on by default: Golly's `:T<w>,<h>` if present; else each side
/// kPatternRoom x the pattern's declared side, at least 64 and rounded up to a multiple of 64 (a
/// glider gets 64x64, the 36x9 Gosper gun 192x64). Golly's default universe is unbounded;
/// a torus of the pattern's own size would wrap its cells onto themselves from the first
/// generation (a glider on 3x3 dies at once), so the pattern gets room to evolve.
/// @throws InputError when the pattern declares no cells and no torus (0 in either dimension).
inline constexpr std::int64_t kPatternRoom = 4;
std::pair<std::int64_t, std::int64_t> defaultWorldSize(const Pattern& p, const std::string& source);

/// Places `p` on an all-dead width x height torus.
/// Without `topLeft` the pattern goes where Golly puts it: Golly's bounded grid has its top-left
/// cell at (-floor(width/2), -floor(height/2)) (Golly Help, "Bounded Grids"), and bgolly 3.3
/// reads an RLE without `#CXRLE Pos=` with its top-left at (-floor(w/2), -floor(h/2)) (checked
/// with `bgolly -a HashLife -o x.mc`), or at Pos when given. In world coordinates the top-left
/// is therefore (floor(width/2) - floor(w/2), floor(height/2) - floor(h/2)): centred, rounding
/// towards the top-left, and a pattern the size of the world fills it exactly.
/// `topLeft` = (x, y) puts the pattern's top-left cell at world (x, y), taken modulo the torus
/// (a pattern may straddle the seams). Where the world is the file's own `:T` torus and Pos places
/// the pattern (no `topLeft`), the world is Golly's bounded grid, which has no cells beyond its
/// edges: live cells that Pos puts there are dropped (they were wrapped onto the torus: a tester's
/// trial; bgolly drops them only after its first generation, see outsideTorusNote), and counted in
/// `*outsideTorus` when given (0 otherwise).
/// @throws InputError "pattern <w>x<h> does not fit on the <width>x<height> torus" when w > width
///         or h > height.
World placePattern(const Pattern& p, std::int64_t width, std::int64_t height,
                   std::optional<std::pair<std::int64_t, std::int64_t>> topLeft = std::nullopt,
                   std::uint64_t* outsideTorus = nullptr);

/// @throws InputError "--random <d>: density must be in [0, 1]" unless 0 <= density <= 1 (NaN
///         refused), as randomSoup checks it; for callers that check flags before any work.
void requireDensity(double density);

/// A width x height world where each cell is live with probability `density`, independently.
/// Cell i (row-major) is live iff splitmix64(seed, i) / 2^64 < density (Steele, Lea & Flood,
/// "Fast splittable pseudorandom number generators", OOPSLA 2014): the same seed gives the same
/// world on every machine and any number of OpenMP threads.
/// @throws InputError "--random <d>: density must be in [0, 1]" otherwise (NaN included).
World randomSoup(std::int64_t width, std::int64_t height, double density, std::uint64_t seed);

/// Writes the whole torus as RLE: `#C` lines from `comments` (a control character in one, such
/// as a newline in a file name, written as '?'), the header
/// `x = W, y = H, rule = <rule>:TW,H`, lines of at most 70 characters, `!`. Read back by
/// parseRle + placePattern (or by Golly) it gives the same torus, positions included.
/// Golly emulates B0 rules and treats a file's cells as the complement of the true state for B0
/// rules with S8 (Golly Help, QuickLife, "Emulating B0 rules"); this writer always writes the true
/// state.
void writeRle(std::ostream& out, const World& world, const Rule& rule, const std::vector<std::string>& comments = {});

/// Writes the whole torus as plaintext `.cells`: `!` comment lines (control characters in a
/// comment written as '?', as writeRle does), then one row per line.
void writeCells(std::ostream& out, const World& world, const std::vector<std::string>& comments = {});

/// Writes `world` to `path` (the --out file): plaintext when the name ends in `.cells`, RLE
/// otherwise, through an OutputFile (common/checkpoint_io.hpp), which replaces an existing file only
/// once the new one is complete.
/// @throws InputError "--out <path>: cannot open for writing: <reason>" or "... write failed: <reason>".
void savePattern(const std::string& path, const World& world, const Rule& rule,
                 const std::vector<std::string>& comments = {});

}  // namespace flocklife::life
