#include "bench_common.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "app/cli_checks.hpp"
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

CsvWriter::CsvWriter(const std::string& path, const std::vector<std::string>& columns)
    : path_(path), columns_(columns) {
  // Opening it again would write over the table from offset 0 (found by a review: the CSV's header
  // was lost and the table garbled, with status 0).
  if (writesStandardStream(path))
    throw InputError("--csv " + path + ": is standard output or standard error, where the table goes; expected a file name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("--csv " + path + ": is a folder; expected a file name");
  app::requireExtension(path, "--csv", {".csv"}, ".csv (or none)", true);  // no CSV text in a .png (a new user's trial)
  // Folders last: a refused name leaves none behind.
  const auto parent = std::filesystem::path(path).parent_path();
  if (!parent.empty() && !std::filesystem::create_directories(parent, ec) && ec)
    throw InputError("--csv " + path + ": cannot make the folder '" + parent.string() + "': " + ec.message());
  // Writable now, opened with the first row: a file that exists must be writable, a new one's folder.
  const bool exists = std::filesystem::exists(path, ec);
  const std::string where = exists ? path : parent.empty() ? std::string(".") : parent.string();
  if (::access(where.c_str(), W_OK) != 0)
    throw InputError("--csv " + path + ": cannot open for writing: " + std::strerror(errno) +
                     (exists ? "" : " (its folder '" + where + "')"));
  writePath_ = replacedThroughTemporary(path) ? path + ".partial" : path;
}

CsvWriter::~CsvWriter() {
  if (finished_ || rows_ == 0 || writePath_ == path_) return;
  std::error_code ec;
  std::fprintf(stderr, "flocklife: note: --csv %s: the sweep did not finish; the %zu row%s it wrote %s in %s, and %s\n",
               path_.c_str(), rows_, rows_ == 1 ? "" : "s", rows_ == 1 ? "is" : "are", writePath_.c_str(),
               std::filesystem::exists(path_, ec) ? "the file there is as it was" : "it was not written");
}

void CsvWriter::row(const std::vector<std::string>& values) {
  if (values.size() != columns_.size()) throw std::logic_error("CsvWriter::row: wrong number of columns");
  if (!out_.is_open()) {
    errno = 0;
    out_.open(writePath_, std::ios::trunc);
    if (!out_)
      throw InputError("--csv " + path_ + ": cannot open for writing" +
                       (writePath_ != path_ ? " " + writePath_ : std::string()) +
                       (errno ? std::string(": ") + std::strerror(errno) : ""));
    out_ << "machine,gpu,commit";
    for (const auto& c : columns_) out_ << ',' << csvCell(c);
    out_ << '\n';
  }
  const auto& m = machineInfo();
  out_ << csvCell(m.host) << ',' << csvCell(m.gpu) << ',' << csvCell(m.commit);
  for (const auto& v : values) out_ << ',' << csvCell(v);
  out_ << '\n';
  out_.flush();  // each row lands at once, so a sweep that ends early keeps the rows it measured
  if (!out_) throw InputError("--csv " + path_ + ": write failed: " + std::strerror(errno));
  ++rows_;
}

void CsvWriter::finish() {
  if (finished_ || !out_.is_open()) return;
  errno = 0;
  out_.close();
  if (!out_) throw InputError("--csv " + path_ + ": write failed: " + (errno ? std::strerror(errno) : "write error"));
  if (writePath_ != path_) {
    struct stat old {};
    if (::stat(path_.c_str(), &old) == 0) ::chmod(writePath_.c_str(), old.st_mode & 07777);  // keeps its permissions
    if (::rename(writePath_.c_str(), path_.c_str()) != 0)
      throw InputError("--csv " + path_ + ": write failed: cannot rename " + writePath_ + " to it: " + std::strerror(errno));
  }
  finished_ = true;
}

void printCsvOrRefuseEmpty(CsvWriter& csv, bool measured, bool memorySkipped) {
  csv.finish();
  if (measured) {
    std::printf("CSV: %s\n", csv.path().c_str());
    return;
  }
  const std::string what = "nothing was measured: every configuration was skipped (said above); --csv " + csv.path() +
                           (csv.rows() > 0 ? " holds no measurement" : " was not written");
  if (memorySkipped) throw OutOfMemoryError(what);
  throw InputError(what);
}

std::string fmt(double v, int precision) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", precision, v);
  return buf;
}

Progress::Progress(std::size_t total, bool enabled)
    : total_(total), enabled_(enabled && isatty(STDERR_FILENO)) {}

void Progress::tick(const std::string& label) {
  ++count_;
  if (!enabled_ || total_ == 0) return;
  const double elapsed = sinceStart_.elapsedSeconds();
  const double left = count_ ? elapsed / double(count_) * double(total_ - std::min(count_, total_)) : 0;
  const int width = 24, filled = int(width * std::min(count_, total_) / total_);
  std::fprintf(stderr, "\r[%s%s] %zu/%zu %-40.40s ~%.0f s left ", std::string(filled, '#').c_str(),
               std::string(width - filled, '.').c_str(), count_, total_, label.c_str(), left);
  std::fflush(stderr);
  drawn_ = true;
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
