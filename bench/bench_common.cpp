#include "bench_common.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "app/cli_checks.hpp"
#include "boids/boids.hpp"
#include "common/checkpoint_io.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "git_commit.hpp"

namespace flocklife::bench {

Stats summarize(std::vector<double> s) {
  if (s.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(s.begin(), s.end());
  Stats st;
  st.repetitions = int(s.size());
  st.min = s.front();
  st.max = s.back();
  st.median = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
  return st;
}

const MachineInfo& machineInfo() {
  static const MachineInfo info = [] {
    MachineInfo m;
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    m.host = host;
    std::ifstream cpu("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpu, line))
      if (line.rfind("model name", 0) == 0) {
        m.cpu = line.substr(line.find(':') + 2);
        break;
      }
    const auto dev = usableDevice();
    m.gpu = dev ? dev->name : "none";
    m.commit = FLOCKLIFE_GIT_COMMIT;
    return m;
  }();
  return info;
}

namespace {
std::string csvCell(const std::string& v) {
  if (v.find_first_of(",\"\n") == std::string::npos) return v;
  std::string q = "\"";
  for (char c : v) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}
}  // namespace

namespace {
/// Refuses a --csv where a file of boids is (its first line the header 'x,y,z,vx,vy,vz' that `boids
/// --in` reads and `boids --out` writes, in any letter case and spacing): a bench CSV replaced a saved
/// state that a run would go on from (a tester's trial), as checkpoints were protected already.
void refuseReplacingBoids(const std::string& path) {
  const std::string head = fileHead(path, 256).value_or("");  // the first line, if short: a header is ~14 bytes
  std::string first = head.substr(0, head.find_first_of("\r\n"));
  if (first.rfind("\xEF\xBB\xBF", 0) == 0) first.erase(0, 3);  // as readCsv (LineReader) drops it
  if (boids::isCsvHeader(first))
    throw InputError("--csv " + path + ": the file there holds boids (its first line is the header x,y,z,vx,vy,vz "
                     "that boids --in reads); --csv replaces its file, so expected another name (remove it first "
                     "to replace it)");
}
}  // namespace

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path), columns_(columns) {
  // Opening a regular file that standard output or error writes again would write over what is
  // there from offset 0 (found by a review: the CSV's header was lost and the table garbled, with
  // status 0); into the pipe or onto the terminal of standard output, where the table goes, the
  // CSV's lines were mixed with the table's (a new user's trial). A device that is not a terminal,
  // such as /dev/null, stays a place to throw the CSV away wherever standard output goes, and
  // standard error's pipe or terminal, where only notes go, a place to see it (a review).
  const auto mixesWithTable = [&] {
    struct stat target {};
    if (!writesStandardStream(path) || ::stat(path.c_str(), &target) != 0) return false;
    if (S_ISREG(target.st_mode)) return true;
    return writesStandardOutput(path) && (!S_ISCHR(target.st_mode) || ::isatty(STDOUT_FILENO) == 1);
  };
  if (path == "-" || mixesWithTable())
    throw InputError("--csv " + path + ": is standard output or standard error, where the table goes; expected a file name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec) || std::filesystem::path(path).filename().empty())
    throw InputError("--csv " + path + ": is a folder; expected a file name");
  app::requireExtension(path, "--csv", {".csv"}, ".csv (or none)", true);  // no CSV text in a .png (a new user's trial)
  refuseReplacingCheckpoint(path, "--csv");  // a life run's --checkpoint run.csv was lost to it (a tester)
  refuseReplacingBoids(path);
  // Folders last, and those made here removed again when the name is refused there: a refused name
  // leaves none behind. Made one by one, so that only folders this run made are recorded
  // ("gone/../kept/x.csv" names an existing kept/ that a missing gone/ hides from exists()).
  const auto parent = std::filesystem::path(path).parent_path();
  std::vector<std::filesystem::path> missing;  // outermost first
  for (auto p = parent; !p.empty() && !std::filesystem::exists(p, ec); p = p.parent_path()) missing.insert(missing.begin(), p);
  try {
    std::error_code made;  // the first failure to make a folder (ec above holds what the checks left)
    for (const auto& p : missing) {
      if (std::filesystem::create_directory(p, made)) made_.push_back(p.string());
      if (made) break;
    }
    // A file where a folder should be ("afile/x.csv") is missing from the list; said here.
    if (made || (!parent.empty() && !std::filesystem::create_directories(parent, made) && made))
      throw InputError("--csv " + path + ": cannot make the folder '" + parent.string() + "': " + made.message());
    requireWritableFile(path, "--csv");  // before the first measurement, not after it
  } catch (const InputError&) {
    removeMadeFolders();
    throw;
  }
  app::noteWrittenInPlace(path, "--csv");  // a link's target is written in place (said only in the docs before)
}

void CsvWriter::removeMadeFolders() {
  std::error_code ec;  // innermost first, each only while empty: remove() refuses one that is not
  for (auto p = made_.rbegin(); p != made_.rend(); ++p) std::filesystem::remove(*p, ec);
  made_.clear();
}

CsvWriter::~CsvWriter() {
  closeFile();
  if (!finished_ && rows_ == 0 && tmp_.empty()) removeMadeFolders();  // an error before the first row
  if (finished_ || tmp_.empty()) return;
  std::error_code ec;
  std::fprintf(stderr, "flocklife: note: --csv %s: the sweep's rows did not take its place (%s); the %zu row%s measured %s in %s\n",
               path_.c_str(), std::filesystem::exists(path_, ec) ? "the file there is as it was" : "it was not written",
               rows_, rows_ == 1 ? "" : "s", rows_ == 1 ? "is" : "are", tmp_.c_str());
}

void CsvWriter::closeFile() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  noteOnAbruptEnd("");
}

void CsvWriter::failWrite(int err) {
  if (!tmp_.empty()) {
    // No torn last row; nothing worth keeping without a complete one.
    if (rows_ == 0 || ::ftruncate(fd_, off_t(completeBytes_)) != 0) {
      ::unlink(tmp_.c_str());
      tmp_.clear();
    }
  }
  closeFile();
  throw InputError("--csv " + path_ + ": write failed: " + (err ? std::strerror(err) : "write error"));
}

void CsvWriter::row(const std::vector<std::string>& values) {
  if (values.size() != columns_.size()) throw std::logic_error("CsvWriter::row: wrong number of columns");
  if (finished_) throw std::logic_error("CsvWriter::row: after finish()");
  std::ostringstream text;
  if (fd_ < 0) {
    // The temporary file's own descriptor (makeTemporaryBeside says why), or the path in place.
    tmp_ = makeTemporaryBeside(path_, "--csv", &fd_);
    if (!tmp_.empty())  // a second Ctrl-C ends the process at once: said too (it left the file unnamed)
      noteOnAbruptEnd("--csv " + path_ + ": the sweep ended at once; the rows measured are in " + tmp_);
    if (tmp_.empty()) {
      fd_ = openInPlace(path_, "--csv");
      if (fd_ < 0) {
        const int err = errno;  // before the message's strings are made
        throw InputError("--csv " + path_ + ": cannot open for writing: " + std::strerror(err));
      }
    }
    text << "machine,gpu,commit";
    for (const auto& c : columns_) text << ',' << csvCell(c);
    text << '\n';
  }
  const auto& m = machineInfo();
  text << csvCell(m.host) << ',' << csvCell(m.gpu) << ',' << csvCell(m.commit);
  for (const auto& v : values) text << ',' << csvCell(v);
  text << '\n';
  // Written at once, so that a sweep that ends early keeps the rows it measured.
  const std::string bytes = text.str();
  for (std::size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) failWrite(n < 0 ? errno : 0);
    done += std::size_t(n);
  }
  completeBytes_ += bytes.size();
  ++rows_;
}

void CsvWriter::finish() {
  if (finished_ || fd_ < 0) return;
  const int fd = fd_;
  fd_ = -1;  // closed below, or by replaceWithTemporary
  noteOnAbruptEnd("");
  if (tmp_.empty()) {  // written in place
    finished_ = true;
    if (::close(fd) != 0) {
      const int err = errno;  // before the message's strings are made
      throw InputError("--csv " + path_ + ": write failed: " + std::strerror(err));
    }
    return;
  }
  struct stat now {};  // the permissions of the file there now, which may have been replaced mid-sweep
  if (::stat(path_.c_str(), &now) == 0 && S_ISREG(now.st_mode)) ::fchmod(fd, now.st_mode & 0777);
  try {
    replaceWithTemporary(tmp_, path_, "--csv", fd);  // throws with tmp_ kept, and named
  } catch (const TemporaryReplaced&) {
    tmp_.clear();  // not ours any more, nor are the rows there: not named
    throw;
  }
  tmp_.clear();
  finished_ = true;
}

bool CsvWriter::discard() {
  closeFile();
  const bool inPlace = tmp_.empty() && rows_ > 0;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  if (!inPlace) removeMadeFolders();
  finished_ = true;
  return inPlace;
}

void printCsvOrRefuseEmpty(CsvWriter& csv, bool measured, bool memorySkipped) {
  if (measured) {
    csv.finish();
    std::printf("CSV: %s\n", csv.path().c_str());
    return;
  }
  const bool inPlace = csv.discard();
  const std::string what = "nothing was measured: every configuration was skipped (said above); --csv " + csv.path() +
                           (inPlace ? " holds no measurement" : " was not written");
  if (memorySkipped) throw OutOfMemoryError(what);
  throw InputError(what);
}

std::string fmt(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

std::string settingText(float v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

Progress::Progress(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled && isatty(STDERR_FILENO)) {}

void Progress::tick(const std::string& label) {
  if (interrupt_.raised()) {
    clear();
    throw Interrupted("interrupted by signal " + std::to_string(interrupt_.signal()) + " before configuration " +
                          std::to_string(count_ + 1) + " of " + std::to_string(total_) + " (" + label +
                          "); nothing more was measured",
                      interrupt_.signal());
  }
  ++count_;
  label_ = label;
  if (!enabled_ || total_ == 0) return;
  const double elapsed = sinceStart_.elapsedSeconds();
  const double left = count_ ? elapsed / double(count_) * double(total_ - std::min(count_, total_)) : 0;
  const int width = 24, filled = int(width * std::min(count_, total_) / total_);
  std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s ~%.0f s left ", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), count_, total_, label.c_str(), left);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::check() const {
  if (interrupt_.raised())
    throw Interrupted("interrupted by signal " + std::to_string(interrupt_.signal()) + " in configuration " +
                          std::to_string(count_) + " of " + std::to_string(total_) + " (" + label_ +
                          "); nothing more was measured",
                      interrupt_.signal());
}

void Progress::done() {
  clear();
  if (interrupt_.raised())
    throw Interrupted("interrupted by signal " + std::to_string(interrupt_.signal()) + " in configuration " +
                          std::to_string(count_) + " of " + std::to_string(total_) +
                          ", the last to run; the sweep's results were not written",
                      interrupt_.signal());
}

void Progress::print(const char* format, ...) {
  clear();
  va_list args;
  va_start(args, format);
  std::vprintf(format, args);
  va_end(args);
  std::fflush(stdout);
}

void Progress::clear() {
  if (!drawn_) return;
  std::fprintf(stderr, "\r%*s\r", 100, "");
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace flocklife::bench
