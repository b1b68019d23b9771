#pragma once
/// @file bench_common.hpp
/// What every benchmark shares: statistics over repetitions, the machine/GPU/commit stamp,
/// CSV output (one row per configuration) and a progress bar with an estimate of the time left.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/checkpoint_io.hpp"
#include "common/timer.hpp"

namespace flocklife::bench {

/// Median, minimum and maximum of `samples` (any unit). @throws std::invalid_argument if empty.
struct Stats {
  double median = 0, min = 0, max = 0;
  int repetitions = 0;
};
Stats summarize(std::vector<double> samples);

/// Host name, CPU model, GPU name ("none" without a usable device) and the commit the binary was
/// built from (with "+dirty" when the tree had uncommitted changes).
struct MachineInfo {
  std::string host, cpu, gpu, commit;
};
const MachineInfo& machineInfo();

/// CSV file with a fixed header. Every row starts with machine, gpu, commit; then the caller's
/// columns. Values containing commas or quotes are quoted.
///
/// A new file, or a regular file of this user without other hard links, is written through a
/// temporary file "<path>.tmp-XXXXXX" beside it (makeTemporaryBeside: a name of its own, O_EXCL,
/// the replaced file's permissions), made with the first row and written through the descriptor
/// that made it; each row is written to it as it is measured, and finish() renames it over `path` when the sweep is done (replaceWithTemporary). A
/// sweep that ends early (an error, a signal) leaves the file at `path` as it was, and the rows it
/// measured, whole, in the temporary file (the destructor names it on standard error when the
/// process lives on to run it: a first Ctrl-C stops a sweep at its next configuration, Progress;
/// a second one, which ends the process at once, names it too: noteOnAbruptEnd).
/// finish() gives the file the permissions of the one it replaces, read then. Anything else at
/// `path` (a symbolic link, a device such as /dev/null, a pipe, another user's file, a file with
/// other hard links) is written in place, row by row.
class CsvWriter {
 public:
  /// Checks that `path` can be written (requireWritableFile, after missing parent folders are
  /// made); nothing is opened before the first row, so that a run that measures nothing leaves an
  /// existing file as it was. @throws InputError naming the path: "-", or the regular file that
  /// standard output or standard error is redirected to (the table goes there), a folder or a name ending in '/', an
  /// extension other than .csv (any letter case), a folder that cannot be made, or what
  /// requireWritableFile refuses.
  CsvWriter(const std::string& path, const std::vector<std::string>& columns);
  /// Names the temporary file that holds the rows of a sweep that did not finish (see above).
  ~CsvWriter();
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  /// Writes and flushes one row (the header first, with the first). @throws InputError "--csv
  /// <path>: cannot open for writing: <reason>" or "--csv <path>: write failed: <reason>" (a full
  /// disk, a file-size limit); the temporary file then keeps the complete rows only, and is
  /// removed when it has none.
  void row(const std::vector<std::string>& values);
  /// Ends the sweep: the rows written take the place of `path` (nothing happens where no row was
  /// written). @throws InputError "--csv <path>: write failed: <reason>".
  void finish();
  /// Ends a sweep whose rows hold no measurement: the temporary file is removed, and with it the
  /// folders the constructor made for `path` where they are left empty; `path` is left as it was.
  /// Returns true where rows were written in place (they stay). A sweep that ends by an error before
  /// its first row removes those folders too (the destructor).
  bool discard();
  const std::string& path() const { return path_; }
  /// Rows written so far (the header not counted).
  std::size_t rows() const { return rows_; }

 private:
  [[noreturn]] void failWrite(int err);  ///< cuts the temporary file back to its complete rows; throws
  void closeFile();  ///< closes fd_, if open
  void removeMadeFolders();  ///< the folders the constructor made for `path`, those left empty
  std::string path_;
  std::vector<std::string> made_;  ///< the folders the constructor made, outermost first
  std::string tmp_;                ///< the temporary file, once the first row made it ("" where in place)
  std::vector<std::string> columns_;
  int fd_ = -1;  ///< the file written (the temporary file's own descriptor), once the first row opened it
  std::size_t rows_ = 0;
  std::uint64_t completeBytes_ = 0;  ///< the header's and the complete rows' bytes
  bool finished_ = false;
};

/// Ends a table whose every configuration may have been skipped (each said in its row): when
/// `measured` (a row holds a measurement; bench life's row for a bgolly not found holds none),
/// csv.finish() and prints "CSV: <path>"; otherwise nothing was measured, which is not a success:
/// csv.discard(), so that an earlier run's file stays as it was. @throws OutOfMemoryError "nothing
/// was measured: every configuration was skipped (said above); --csv <path> was not written" (or
/// "holds no measurement" where rows were written in place) when
/// `memorySkipped` (exit status 3, as where a bench's only configuration does not fit), else
/// InputError with the same words (exit status 2).
void printCsvOrRefuseEmpty(CsvWriter& csv, bool measured, bool memorySkipped);

/// "12.3"-style formatting helper for CSV cells and tables: `precision` significant digits (%g).
std::string fmt(double v, int precision = 4);

/// A setting's value in a CSV (scale, cell width, staging ratio, group radius): the shortest
/// decimal text that reads back as the same float (std::to_chars), so that a row can be run again
/// at its settings. fmt's 4 digits wrote the constant-density scale 1259.92 as 1260.
std::string settingText(float v);

/// Significant digits of a measured time or rate in every benchmark CSV (bench life, boids, scan
/// and fps), so that the CSV is no coarser than the console's table (bench boids and fps wrote 4:
/// 69397.6 frames/s as 6.94e+04).
inline constexpr int kCsvDigits = 6;

/// A sweep's progress: a one-line bar on stderr, "[#####.....] 12/40 life simple 8192^2, ~35 s
/// left", drawn only when stderr is a terminal, and its stop on a signal. The bar ends without a
/// newline, so a table row printed to the same terminal would continue its line: print rows and
/// notes through print(), which clears the bar first (the next tick() draws it again).
///
/// While a Progress lives, SIGINT, SIGTERM and SIGHUP set a flag (an InterruptFlag, which says on
/// stderr that the run stops at the next safe point; a second signal a second or more later ends
/// the process at once), and the next tick(), check() or done() stops the sweep: a Ctrl-C ended the
/// process before, without the note that names the CSV rows measured so far (CsvWriter's destructor).
/// A signal ignored when the Progress is made stays ignored; a SIGPIPE (`| head`) ends the process
/// at once, as a second signal does, after that note.
class Progress {
 public:
  Progress(std::size_t total, bool enabled = true);
  /// Clears the bar, so that an error thrown through the bench starts its own line.
  ~Progress() { clear(); }
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  /// Counts configuration `label` as started and redraws the bar. @throws Interrupted
  /// "interrupted by signal S before configuration K of T (<label>); nothing more was measured"
  /// when a signal arrived since the Progress was made.
  void tick(const std::string& label);
  /// Between the repetitions of a configuration (CPU work, whose configurations can take minutes)
  /// or the frames of a bench fps run; builds no text unless a signal arrived.
  /// @throws Interrupted "interrupted by signal S in configuration K of T (<label>); nothing more
  /// was measured" when a signal arrived.
  void check() const;
  /// The question a CPU boids step asks within itself (boids::Simulation::stepUntilStopped's `stop`):
  /// whether a signal arrived since the Progress was made; check() then stops the sweep as between
  /// steps. Valid while the Progress lives.
  std::function<bool()> stopQuery() const {
    return [this] { return interrupt_.raised(); };
  }
  /// Clears the bar, then std::printf(format, ...) to stdout and flushes it.
  void print(const char* format, ...) __attribute__((format(printf, 2, 3)));
  /// Clears the bar if one is drawn, so that the next output starts a clean line.
  void clear();
  /// Clears the bar at the end of the sweep, before its results are written. @throws Interrupted
  /// "interrupted by signal S in configuration K of T, the last to run; the sweep's results were
  /// not written" when a signal arrived since the last tick() (it exited 0, the signal lost; K is
  /// below T where configurations after it were skipped).
  void done();

 private:
  std::size_t total_, count_ = 0;
  std::string label_;  ///< of the configuration started last
  bool enabled_, drawn_ = false;
  HostTimer sinceStart_;
  InterruptFlag interrupt_;
};

}  // namespace flocklife::bench
