#include "common/checkpoint_io.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/vfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <ctime>
#include <cctype>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <random>
#include <sstream>
#include <vector>

#include "common/errors.hpp"
#include "common/memory.hpp"

namespace flocklife {

namespace {

std::string parentDir(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

/// Whether OutputFile replaces `path` whole through a temporary file: a new file, or a regular file
/// of this user with no other hard link, named directly (not through a symbolic link). Anything else
/// (a link, a device such as /dev/null, a pipe, another user's file, a file with hard links) is
/// written in place, which keeps its owner, its links and the kernel's protections of links in
/// shared folders. "-" (standard output) is never. *exists: whether anything is at `path`.
bool replacedWhole(const std::string& path, bool* exists) {
  if (path == "-") {
    *exists = true;
    return false;
  }
  struct stat st {};
  *exists = ::lstat(path.c_str(), &st) == 0;
  return !*exists || (S_ISREG(st.st_mode) && st.st_uid == ::geteuid() && st.st_nlink == 1);
}

// While an OutputFile's temporary file exists, its name is kept in gTemporary, and SIGINT, SIGTERM
// and SIGHUP that would end the process (default action) first remove that file: the handler
// unlinks the saved name and re-raises the signal with the default action (unlink, sigaction and
// raise are async-signal-safe). A signal with a handler of the process's own (InterruptFlag's SIGINT,
// SIGTERM and SIGHUP during a checkpointed run: the run then finishes the file itself) or ignored is left
// as it is; InterruptFlag's handler removes the file itself when a second signal ends the process.
// One file is guarded at a time; a second OutputFile while one is guarded is not.
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
constexpr std::size_t kTemporarySuffix = 11;  // ".tmp-" and 6 characters
char gTemporary[4096];
char gTemporarySaid[8192];  // "flocklife: <what> <path>: ... was not written\n", said as it is removed
std::size_t gTemporarySaidLength = 0;
std::atomic<int> gHasTemporary{0};  // gTemporary names a file to remove on a fatal signal
static_assert(std::atomic<int>::is_always_lock_free, "the signal handlers read gHasTemporary");
struct sigaction gBeforeCleanup[3];
bool gGuarded[3];  // which of kCleanupSignals got removeTemporaryAndDie

/// Removes the guarded temporary file and says so (the run ended without a word: a new user's
/// trial); async-signal-safe.
void removeTemporaryAndSay() {
  ::unlink(gTemporary);
  const ssize_t ignored = ::write(STDERR_FILENO, gTemporarySaid, gTemporarySaidLength);
  (void)ignored;
}

extern "C" void removeTemporaryAndDie(int sig) {
  // Put back by an InterruptFlag after the file was committed: nothing to remove, nothing to say.
  if (gHasTemporary.load(std::memory_order_acquire)) removeTemporaryAndSay();
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
}

void hookExit();  // below: an exit() mid-run removes the file too

/// Records `tmp` for the signal handlers, with the line they say on removing it ("flocklife: <what>
/// <path>: interrupted while it was written; ..."), and installs removeTemporaryAndDie on each of
/// the three signals whose action is the default; returns whether it recorded the name (false while
/// another file is guarded, or for a name too long to keep).
bool guardTemporary(const std::string& tmp, const std::string& what, const std::string& path) {
  hookExit();
  const std::string said = "flocklife: " + what + " " + path +
                           ": interrupted by a signal while it was written; it was not written, and the file there is "
                           "as it was\n";
  if (gHasTemporary.load(std::memory_order_acquire) || tmp.size() >= sizeof gTemporary ||
      said.size() > sizeof gTemporarySaid)
    return false;
  std::memcpy(gTemporary, tmp.c_str(), tmp.size() + 1);
  std::memcpy(gTemporarySaid, said.data(), said.size());
  gTemporarySaidLength = said.size();
  gHasTemporary.store(1, std::memory_order_release);  // the name is whole before a handler, on any thread, reads it
  struct sigaction sa {};
  sa.sa_handler = removeTemporaryAndDie;
  sigemptyset(&sa.sa_mask);
  for (int sig : kCleanupSignals) sigaddset(&sa.sa_mask, sig);  // one at a time
  for (int k = 0; k < 3; ++k) {
    struct sigaction now {};
    gGuarded[k] = ::sigaction(kCleanupSignals[k], nullptr, &now) == 0 && now.sa_handler == SIG_DFL &&
                  !(now.sa_flags & SA_SIGINFO) && ::sigaction(kCleanupSignals[k], &sa, &gBeforeCleanup[k]) == 0;
  }
  return true;
}

/// Puts back the actions guardTemporary replaced, where removeTemporaryAndDie is still installed
/// (a handler installed since, such as a later InterruptFlag's, stays), and forgets the name.
void unguardTemporary() {
  for (int k = 0; k < 3; ++k) {
    struct sigaction now {};
    if (gGuarded[k] && ::sigaction(kCleanupSignals[k], nullptr, &now) == 0 && now.sa_handler == removeTemporaryAndDie)
      ::sigaction(kCleanupSignals[k], &gBeforeCleanup[k], nullptr);
    gGuarded[k] = false;
  }
  gHasTemporary.store(0, std::memory_order_release);
}

// What a signal that ends the process at once says about a file left on purpose (noteOnAbruptEnd).
char gAbruptNote[4096];
std::atomic<std::size_t> gAbruptNoteLength{0};  // 0: none
static_assert(std::atomic<std::size_t>::is_always_lock_free, "the signal handler reads gAbruptNoteLength");

// Read by other threads too (a boids CPU step's OpenMP threads ask InterruptFlag::raised()).
std::atomic<int> gSignal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads and stores gSignal");
std::atomic<std::int64_t> gFirstSignalNs{0};  // CLOCK_MONOTONIC time of the first signal
static_assert(std::atomic<std::int64_t>::is_always_lock_free, "the signal handler stores gFirstSignalNs");
// The signals an InterruptFlag takes, the handlers they had, and whether the flag took each: one
// ignored when the outermost flag was made (SIGHUP under nohup, SIGINT in a shell's background job)
// stays ignored, since the run was started not to stop on it.
constexpr int kStopSignals[3] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction gOldStop[3], gOldPipe;
bool gStopTaken[3] = {false, false, false}, gPipeTaken = false;
int gFlagDepth = 0;        // InterruptFlags alive: only the outermost installs, clears and restores

std::int64_t monotonicNs() {  // clock_gettime is async-signal-safe
  timespec t{};
  ::clock_gettime(CLOCK_MONOTONIC, &t);
  return std::int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

// What an abrupt end removes besides a temporary file being written (removeOnAbruptEnd).
char gAbruptPaths[4][4096];
std::atomic<int> gAbruptPathCount{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads gAbruptPathCount");

/// Ends the process as `sig` does (its default action), after removing a temporary file being
/// written and the paths of removeOnAbruptEnd, and saying the note set for an abrupt end
/// (noteOnAbruptEnd); async-signal-safe. InterruptFlag's handler of SIGPIPE too: a write to a pipe
/// whose reader left (`flocklife bench boids | head`) ends the run as SIGPIPE does, but says first
/// what a second Ctrl-C would (it ended without a word, its rows in a temporary file never named:
/// a tester's trial).
extern "C" void endAbruptly(int sig) {
  if (gHasTemporary.load(std::memory_order_acquire)) removeTemporaryAndSay();
  for (int k = 0, n = gAbruptPathCount.load(std::memory_order_acquire); k < n; ++k)
    if (::unlink(gAbruptPaths[k]) != 0) ::rmdir(gAbruptPaths[k]);
  if (const std::size_t n = gAbruptNoteLength.load(std::memory_order_acquire)) {
    const ssize_t ignored = ::write(STDERR_FILENO, gAbruptNote, n);
    (void)ignored;
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

extern "C" void onSignal(int sig) {
  if (gSignal.load() != 0) {
    // The same request again within InterruptFlag::kInsistAfterSeconds (`timeout` signals the
    // process and its group, so one stop arrives twice) is ignored; later, the user insists:
    // remove a temporary file being written, then end as the signal does.
    if (monotonicNs() - gFirstSignalNs.load() < std::int64_t(InterruptFlag::kInsistAfterSeconds * 1e9)) return;
    endAbruptly(sig);
    return;
  }
  gFirstSignalNs.store(monotonicNs());
  gSignal.store(sig);
  static const char kSaid[] =
      "flocklife: stopping at the next safe point; a second signal a second or more from now ends the run at once, "
      "losing what it has not saved\n";
  const ssize_t ignored = ::write(STDERR_FILENO, kSaid, sizeof kSaid - 1);  // write is async-signal-safe
  (void)ignored;
}

/// std::cout for "-"; std::cout or std::cerr when `path` names the file that standard output or
/// standard error writes to (same device and inode: "/dev/stdout", "/proc/self/fd/1", or the file
/// itself); else nullptr. Opening it again would start at offset 0 (truncating a regular file) under the
/// stream's own writes.
std::ostream* standardStreamAt(const std::string& path) {
  if (path == "-") return &std::cout;
  struct stat target {}, standard {};
  if (::stat(path.c_str(), &target) != 0) return nullptr;
  if (::fstat(STDOUT_FILENO, &standard) == 0 && standard.st_dev == target.st_dev && standard.st_ino == target.st_ino)
    return &std::cout;
  if (::fstat(STDERR_FILENO, &standard) == 0 && standard.st_dev == target.st_dev && standard.st_ino == target.st_ino)
    return &std::cerr;
  return nullptr;
}

}  // namespace

InPlaceHazard inPlaceHazard(const std::string& path) {
  struct stat link {}, file {};
  if (path.empty() || standardStreamAt(path) || ::lstat(path.c_str(), &link) != 0) return {};
  const bool target = ::stat(path.c_str(), &file) == 0;  // false: a link to nothing yet
  const std::string unlinked = "name a file without other links";
  if (S_ISLNK(link.st_mode) && target && S_ISREG(file.st_mode) && file.st_nlink > 1)
    return {"a symbolic link to a file with other hard links", unlinked};
  if (S_ISLNK(link.st_mode) && (!target || S_ISREG(file.st_mode))) return {"a symbolic link", "name the file it points to"};
  if (S_ISREG(link.st_mode) && link.st_nlink > 1) return {"a file with other hard links", unlinked};
  if (S_ISREG(link.st_mode) && link.st_uid != ::geteuid())  // kept as its owner's (replacedWhole)
    return {"another user's file", "name a file of your own or a new one"};
  return {};
}

bool writesStandardOutput(const std::string& path) { return standardStreamAt(path) == &std::cout; }

bool writesStandardStream(const std::string& path) { return standardStreamAt(path) != nullptr; }

void requireWritableFile(const std::string& path, const std::string& flag) {
  const std::string what = flag + " " + path + ": ";
  const std::string expected = "; expected a file in an existing folder that may be written in";
  if (path.empty()) throw InputError(flag + ": expected a file name");
  if (path == "-") {  // standard output, found closed now rather than once the run is over
    const int mode = ::fcntl(STDOUT_FILENO, F_GETFL);
    if (mode < 0 || (mode & O_ACCMODE) == O_RDONLY)
      throw InputError(what + "standard output is closed or not open for writing; expected it open (or a file name)");
    return;
  }
  struct stat st{};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  // A loop of links, a link to a name too long, a folder on the way that may not be entered: the
  // open after the run failed the same way (a tester's trials).
  if (!exists && errno != ENOENT) throw InputError(what + std::strerror(errno) + expected);
  if (exists && S_ISDIR(st.st_mode)) throw InputError(what + "is a folder" + expected);
  if (exists && ::access(path.c_str(), W_OK) != 0)  // found now, not once the run is over
    throw InputError(what + "cannot write the existing file: " + std::strerror(errno) +
                     "; expected a file that may be written (or a new one)");
  bool found = false;
  if (!exists && ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode)) {  // a link to nothing yet: made through it
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::read_symlink(path, ec);
    const std::filesystem::path folder =
        (target.is_absolute() ? target : std::filesystem::path(parentDir(path)) / target).parent_path();
    if (!ec && !folder.empty() && !std::filesystem::is_directory(folder, ec))  // it said only "cannot open" after the run
      throw InputError(what + "is a symbolic link to '" + target.string() + "', whose folder '" + folder.string() +
                       "' does not exist" + expected);
    if (!ec && !folder.empty() && ::access(folder.c_str(), W_OK) != 0)  // read-only: refused after the run
      throw InputError(what + "is a symbolic link to '" + target.string() + "', in the folder '" + folder.string() +
                       "', which cannot be written in: " + std::strerror(errno) + expected);
  }
  if (!replacedWhole(path, &found)) return;  // written in place: the file itself may be written
  const std::string dir = parentDir(path);  // a new file, or the temporary one, is made there
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(what + "the folder '" + dir + "' does not exist" + expected);
  if (::access(dir.c_str(), W_OK) != 0)
    throw InputError(what + "cannot write in the folder '" + dir + "': " + std::strerror(errno) + expected);
  // /proc and /sys take no new files, though root passes access() there (a tester's run as root
  // ended in "cannot open for writing" after the run).
  struct statfs fs {};
  if (::statfs(dir.c_str(), &fs) == 0 && (fs.f_type == PROC_SUPER_MAGIC || fs.f_type == SYSFS_MAGIC))
    throw InputError(what + "the folder '" + dir + "' is in " + (fs.f_type == PROC_SUPER_MAGIC ? "/proc" : "/sys") +
                     ", where no file can be made" + expected);
  // The file is written under its name plus ".tmp-XXXXXX" first: that name must fit the folder too.
  const std::size_t slash = path.rfind('/');
  const std::size_t nameLength = path.size() - (slash == std::string::npos ? 0 : slash + 1) + kTemporarySuffix;
  errno = 0;
  const long nameMax = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  if (nameMax > 0 && nameLength > std::size_t(nameMax))
    throw InputError(what + "the name is too long: it is written as NAME.tmp-XXXXXX first, " +
                     std::to_string(nameLength) + " characters where the folder allows " + std::to_string(nameMax) +
                     "; expected a name of at most " + std::to_string(nameMax - long(kTemporarySuffix)) + " characters");
}

std::string makeTemporaryBeside(const std::string& path, const std::string& what, int* keptFd) {
  if (keptFd) *keptFd = -1;
  bool exists = false;
  if (!replacedWhole(path, &exists)) return std::string();
  const auto failed = [&](int err) {
    return InputError(what + " " + path + ": cannot open for writing: " + std::strerror(err));
  };
  struct stat st {};
  const bool keepMode = exists && ::stat(path.c_str(), &st) == 0;
  // A name of our own next to the target; created with O_EXCL, mode 0666 less the umask.
  static const char kChars[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device random;
  std::string name;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {
    name = path + ".tmp-";
    for (int k = 0; k < 6; ++k) name += kChars[random() % (sizeof kChars - 1)];
    fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) throw failed(errno);
  }
  if (fd < 0) throw failed(EEXIST);
  // The old file's group, where this user may give it (best effort: a review found a group-readable
  // file's group lost), then its permissions.
  if (keepMode && st.st_gid != ::getegid()) (void)::fchown(fd, uid_t(-1), st.st_gid);
  const bool chmodded = !keepMode || ::fchmod(fd, st.st_mode & 0777) == 0;
  const int err = errno;
  if (!chmodded || !keptFd) ::close(fd);
  if (!chmodded) {
    ::unlink(name.c_str());
    throw failed(err);
  }
  if (keptFd) *keptFd = fd;
  return name;
}

int openInPlace(const std::string& path, const std::string& what) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISFIFO(st.st_mode))
    return ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  // Held while it waits, so that a signal ends the wait with a message also where no run holds one
  // (the final --out: a Ctrl-C there ended the process without a word; a tester's trial).
  std::optional<InterruptFlag> waiting;
  for (bool said = false;; said = true) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      const int flags = ::fcntl(fd, F_GETFL);  // writes block again: a full pipe waits for its reader
      if (flags < 0 || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        const int err = errno;
        ::close(fd);
        errno = err;
        return -1;
      }
      return fd;
    }
    if (errno != ENXIO) return -1;  // ENXIO: no process has it open for reading yet
    if (!waiting) waiting.emplace();
    if (const int sig = gSignal.load(); sig != 0)
      throw Interrupted(what + " " + path + ": interrupted by signal " + std::to_string(sig) +
                            " while waiting for a process to read this named pipe; nothing was written to it",
                        sig);
    if (!said)
      std::fprintf(stderr, "flocklife: %s %s: waiting for a process to read this named pipe\n", what.c_str(),
                   path.c_str());
    const timespec pause{0, 50 * 1000 * 1000};
    ::nanosleep(&pause, nullptr);
  }
}

OutputFile::OutputFile(const std::string& path, const std::string& what) : path_(path), what_(what) {
  if (std::ostream* standard = standardStreamAt(path)) {  // after what the process printed there
    sink_ = standard;
    return;
  }
  int fd = -1;
  tmp_ = makeTemporaryBeside(path, what, &fd);
  if (tmp_.empty()) {  // in place, as any program opens a file
    fd = openInPlace(path, what);
    if (fd < 0) fail("cannot open for writing", errno);
  } else {
    guarded_ = guardTemporary(tmp_, what, path);
  }
  // The descriptor opened here, not the name opened again (makeTemporaryBeside says why).
  file_ = std::make_unique<__gnu_cxx::stdio_filebuf<char>>(fd, std::ios::out | std::ios::binary);
  out_.rdbuf(file_.get());
}

OutputFile::~OutputFile() { dropTemporary(); }

void OutputFile::dropTemporary() {
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  tmp_.clear();
  if (guarded_) unguardTemporary();
  guarded_ = false;
}

void OutputFile::fail(const std::string& step, int err) {
  dropTemporary();
  throw InputError(what_ + " " + path_ + ": " + step + ": " + (err ? std::strerror(err) : "write error"));
}

void OutputFile::commit() {
  if (sink_ != &out_) {  // standard output or error: flushed, left open
    errno = 0;
    sink_->flush();
    if (!*sink_) fail("write failed", errno);
    return;
  }
  // A write that failed while the buffer filled left its errno; otherwise the flush writes the
  // rest, and a full disk shows there.
  if (!out_.fail()) errno = 0;
  out_.flush();
  if (!out_) fail("write failed", errno);
  // A second descriptor of the temporary file for replaceWithTemporary, which fsyncs and closes it
  // (the stream's own closes with the stream).
  auto* file = static_cast<__gnu_cxx::stdio_filebuf<char>*>(file_.get());
  const int held = tmp_.empty() ? -1 : ::fcntl(file->fd(), F_DUPFD_CLOEXEC, 0);
  if (!tmp_.empty() && held < 0) fail("write failed", errno);
  errno = 0;
  if (!file->close()) {
    const int err = errno;
    if (held >= 0) ::close(held);
    fail("write failed", err);
  }
  if (tmp_.empty()) return;
  try {
    replaceWithTemporary(tmp_, path_, what_, held);
  } catch (const TemporaryReplaced&) {
    tmp_.clear();  // not ours any more: left as it is
    dropTemporary();
    throw;
  } catch (const InputError&) {
    dropTemporary();
    throw;
  }
  tmp_.clear();  // renamed: nothing left to remove
  dropTemporary();
}

void replaceWithTemporary(const std::string& tmp, const std::string& path, const std::string& what, int heldFd) {
  const auto failed = [&](int err) {
    return InputError(what + " " + path + ": write failed: " + (err ? std::strerror(err) : "write error"));
  };
  // Without a descriptor, opened again for writing, as the file was: one whose mode allows only
  // that (0200, kept from the file it replaces) may not be opened for reading (found by a review).
  const int fd = heldFd >= 0 ? heldFd : ::open(tmp.c_str(), O_WRONLY | O_CLOEXEC);
  struct stat written {};
  if (fd < 0 || ::fsync(fd) != 0 || ::fstat(fd, &written) != 0) {
    const int err = errno;
    if (fd >= 0) ::close(fd);
    throw failed(err);
  }
  if (::close(fd) != 0) throw failed(errno);  // before the rename: a failure leaves `path` as it was
  // The name must still be the file written: in a folder where others may rename files, a link or
  // another file put in its place would otherwise take the place of `path` (a review).
  struct stat named {};
  if (::lstat(tmp.c_str(), &named) != 0 || named.st_dev != written.st_dev || named.st_ino != written.st_ino)
    throw TemporaryReplaced(what + " " + path + ": write failed: its temporary file " + tmp +
                     " was replaced or removed by another program while it was written; " + path + " is as it was");
  if (::rename(tmp.c_str(), path.c_str()) != 0) throw failed(errno);
  const int dir = ::open(parentDir(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {  // make the rename itself durable; best effort (some filesystems refuse)
    ::fsync(dir);
    ::close(dir);
  }
}

void writeFileAtomically(const std::string& path, const std::string& bytes, const std::string& what) {
  OutputFile f(path, what);
  f.stream().write(bytes.data(), std::streamsize(bytes.size()));
  f.commit();
}

std::string lowerExtension(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return ext;
}

std::ifstream openForReading(const std::string& path, const std::string& what, const std::string& kind) {
  if (path == "-" && !std::filesystem::exists(path))  // "-" is standard output for outputs, not an input here
    throw InputError(what + ": standard input is not read; expected " + kind + " by its name (/dev/stdin names "
                     "standard input)");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(what + ": it is a folder; expected " + kind);
  // Opening a named pipe waits for a writer, which looked like a hang (a tester); a pipe of the
  // shell's (/dev/stdin, <(...)) has no name in the file system (/proc/self/fd/N -> "pipe:[...]")
  // and a writer already.
  struct stat st {};
  std::error_code resolved;
  if (::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode) && std::filesystem::exists(resolvedPath(path, resolved)))
    std::fprintf(stderr, "flocklife: note: %s is a named pipe: waiting for a program to open it for writing\n",
                 path.c_str());
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(what + ": cannot open for reading: " + (errno ? std::strerror(errno) : "unknown error"));
  return in;
}

std::string readWholeFile(const std::string& path, const char* magic) {
  std::ifstream in = openForReading(path, "cannot read checkpoint '" + path + "'", "a checkpoint file");
  const std::string what = "checkpoint '" + path + "'";
  std::string bytes;
  if (magic) {  // the head first: a file of another kind is not read further
    std::string head(256, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(std::size_t(in.gcount()));
    if (in.bad()) throw InputError("cannot read checkpoint '" + path + "': read error");
    if (head.compare(0, 8, std::string(magic, 8)) != 0) return head;
    bytes = std::move(head);
    if (!in) return bytes;  // the whole file was in the head
  }
  struct stat st {};
  const bool regular = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
  if (regular) {
    requireHostMemory(std::uint64_t(st.st_size), what);
    bytes.reserve(std::size_t(st.st_size));  // one allocation, not a doubling string
  }
  // Read in chunks, so that a stream without end (a device such as /dev/zero, a pipe) stops well
  // within the memory available: a growing string holds up to 3 times its bytes while it moves.
  const std::uint64_t available = availableHostBytes();
  std::vector<char> chunk(std::size_t(1) << 20);
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    const std::size_t n = std::size_t(in.gcount());
    if (!regular && available != 0 && 3 * std::uint64_t(bytes.size() + n) > available)
      throw OutOfMemoryError(what + ": reading it would take more than the " + formatBytes(available) +
                             " of host memory available");
    bytes.append(chunk.data(), n);
  }
  if (in.bad()) throw InputError("cannot read checkpoint '" + path + "': read error");
  return bytes;
}

std::optional<std::string> fileHead(const std::string& path, std::size_t n) {
  struct stat st {};
  if (path.empty() || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) return std::string();
  std::string head(n, '\0');
  in.read(head.data(), std::streamsize(n));
  head.resize(std::size_t(in.gcount()));
  return head;
}

namespace {
/// Whether --checkpoint `path` is missing or is the --resume file (`resume`), which a run replaces.
bool nothingToCheck(const std::string& path, const std::string& resume) {
  std::error_code ec;
  return path.empty() || (!resume.empty() && std::filesystem::equivalent(path, resume, ec));
}
}  // namespace

void refuseReplacingOtherFile(const std::string& path, const char magic[8], const std::string& kind,
                              const std::string& resume) {
  if (nothingToCheck(path, resume)) return;
  const std::optional<std::string> head = fileHead(path, 8);
  if (!head) return;
  if (head->empty())  // it would be replaced unseen
    throw InputError("--checkpoint " + path + ": the file there cannot be read (" + std::strerror(errno) +
                     ") to check that it is a " + kind + " checkpoint; a checkpoint replaces its file, so expected a "
                     "new name or a readable earlier " + kind + " checkpoint");
  if (*head == std::string(magic, 8)) return;
  if (otherVersionOf(*head, magic))
    throw InputError("--checkpoint " + path + ": the file there is a " + kind +
                     " checkpoint of another format version ('" + printable(*head) + "', this build writes '" +
                     std::string(magic, 8) + "'), which this run would replace; give another name (or remove it) to "
                     "start anew");
  throw InputError("--checkpoint " + path + ": the file there is not a " + kind + " checkpoint (it begins '" +
                   printable(*head) + "'); a checkpoint replaces its file, so expected a new name or an earlier " +
                   kind + " checkpoint");
}

namespace {
std::uint64_t positionIn(const std::string& bytes, std::size_t at) {  // little-endian u64
  std::uint64_t position = 0;
  for (int i = 7; i >= 0; --i) position = position << 8 | std::uint8_t(bytes[at + std::size_t(i)]);
  return position;
}

/// Whether the file at `path` ends in the FNV-1a checksum of the bytes before it (RecordWriter's
/// finish()), read in chunks of 1 MiB, so that a large checkpoint is not held whole; false where it
/// cannot be read through or is shorter than 16 bytes.
bool checksumMatches(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> chunk(std::size_t(1) << 20);
  std::string tail;  // the last 8 bytes read, which may be the checksum
  std::uint64_t h = kFnv1a64Basis, total = 0;
  while (in.read(chunk.data(), std::streamsize(chunk.size())) || in.gcount() > 0) {
    tail.append(chunk.data(), std::size_t(in.gcount()));
    total += std::uint64_t(in.gcount());
    if (tail.size() <= 8) continue;
    const std::size_t hashed = tail.size() - 8;  // bytes now known not to be among the last 8
    h = fnv1a64(tail.data(), hashed, h);
    tail.erase(0, hashed);
  }
  if (in.bad() || total < 16) return false;
  return positionIn(tail, 0) == h;
}
}  // namespace

namespace {
/// Whether a checkpoint's `head` equals this run's `header` but for the start digest at `startAt`.
bool sameButStart(const std::string& head, const std::string& header, std::size_t startAt) {
  return head.size() == header.size() && head.compare(0, startAt, header, 0, startAt) == 0 &&
         head.compare(startAt + 8, std::string::npos, header, startAt + 8, std::string::npos) == 0;
}
}  // namespace

void refuseReplacingAnotherRun(const std::string& path, const std::string& kind, std::size_t positionAt,
                               std::size_t startAt, const char* unit, const std::string& header,
                               const std::string& differs, const std::string& resume) {
  if (nothingToCheck(path, resume)) return;
  const std::string head = fileHead(path, header.size()).value_or("");
  if (head.size() < positionAt + 8 || head.compare(0, 8, header, 0, 8) != 0) return;  // no checkpoint of this kind
  const std::uint64_t position = positionIn(head, positionAt), target = positionIn(header, positionAt);
  if (position == 0) return;  // a run's start: nothing run to keep
  if (position != target && !checksumMatches(path))
    throw InputError("--checkpoint " + path + ": holds a " + kind + " run at " + unit + " " + std::to_string(position) +
                     " that --resume cannot continue (its checksum does not match: the file is truncated or "
                     "corrupt), which this run would replace; remove it (or give another name) to start anew");
  if (position != target)
    throw InputError("--checkpoint " + path + ": holds a " + kind + " run at " + unit + " " + std::to_string(position) +
                     ", which this run (to " + unit + " " + std::to_string(target) + ", not resumed from it) would "
                     "replace; continue it with --resume " + path + ", or give another name (or remove it) to start "
                     "anew");
  // At this run's end: the same size and rule (parameters, count) is the same command again, as far
  // as a head tells but for the start (refuseReplacingAnotherStart, once the start is made). A file
  // shorter than this run's head is another run's when it is whole (a Life head grows with its rule:
  // an 8x1 world's checkpoint with a short rule was replaced, a review), else no checkpoint to keep.
  if (sameButStart(head, header, startAt) || (head.size() < header.size() && !checksumMatches(path))) return;
  throw InputError("--checkpoint " + path + ": holds another " + kind + " run at " + unit + " " +
                   std::to_string(position) + " (" + differs + " than this run's), which this run would replace; "
                   "give another name (or remove it) to start anew");
}

void refuseReplacingAnotherStart(const std::string& path, const std::string& kind, std::size_t startAt,
                                 const char* unit, std::size_t positionAt, const std::string& header,
                                 const std::string& starts, const std::string& resume) {
  if (nothingToCheck(path, resume)) return;
  const std::string head = fileHead(path, header.size()).value_or("");
  // A run's start (position 0) is nothing run to keep, as for refuseReplacingAnotherRun (a review).
  if (!sameButStart(head, header, startAt) || positionIn(head, positionAt) == 0 ||
      positionIn(head, startAt) == positionIn(header, startAt))
    return;
  throw InputError("--checkpoint " + path + ": holds another " + kind + " run at " + unit + " " +
                   std::to_string(positionIn(head, positionAt)) + ", from another start (" + starts +
                   "), which this run would replace; give another name (or remove it) to start anew");
}

void refuseReplacingCheckpoint(const std::string& path, const char* flag) {
  const std::string head = fileHead(path, 8).value_or("");
  const char* kind = head.size() < 8                             ? nullptr  // any version of either kind
                     : startsWithMagic(head, kLifeCheckpointMagic)  ? "life"
                     : startsWithMagic(head, kBoidsCheckpointMagic) ? "boids"
                                                                    : nullptr;
  if (!kind) return;
  throw InputError(std::string(flag) + " " + path + ": the file there is a flocklife " + kind + " checkpoint; " +
                   flag + " replaces its file, so expected another name (remove the checkpoint first to replace it)");
}

std::filesystem::path resolvedPath(const std::string& path, std::error_code& ec) {
  namespace fs = std::filesystem;
  // absolute() first: weakly_canonical leaves a relative path whose first part is missing relative.
  fs::path p = fs::absolute(path, ec);
  for (int links = 0; links < 40 && !ec; ++links) {
    std::error_code notLink;  // a missing file is no link, and no error here
    if (!fs::is_symlink(p, notLink)) break;
    const fs::path target = fs::read_symlink(p, ec);
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return ec ? p : fs::weakly_canonical(p, ec);
}

CheckpointLock::CheckpointLock(const std::string& path) {
  std::error_code ec;
  const std::string key = path.empty() ? std::string() : resolvedPath(path, ec).string();
  // A device (/dev/null for saves thrown away) is no file that two runs could replace in turn.
  struct stat st {};
  if (key.empty() || (::stat(key.c_str(), &st) == 0 && !S_ISREG(st.st_mode))) return;
  char name[64];
  std::snprintf(name, sizeof name, "flocklife-checkpoint-%016llx",
                static_cast<unsigned long long>(fnv1a64(key.data(), key.size())));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::memcpy(address.sun_path + 1, name, std::strlen(name));  // sun_path[0] = 0: the abstract namespace
  const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + 1 + std::strlen(name));
  fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd_ < 0) return;  // no lock where sockets cannot be made
  if (::bind(fd_, reinterpret_cast<const sockaddr*>(&address), length) == 0) return;
  const int err = errno;
  ::close(fd_);
  fd_ = -1;
  if (err == EADDRINUSE)
    throw InputError("--checkpoint " + path + ": another flocklife run on this machine is saving its checkpoint to "
                     "this file; expected another name, or to wait until that run ends");
}

CheckpointLock::~CheckpointLock() {
  if (fd_ >= 0) ::close(fd_);
}

std::uint64_t fnv1a64(const void* data, std::size_t n, std::uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i) hash = (hash ^ p[i]) * 0x100000001b3ull;
  return hash;
}

RecordWriter::RecordWriter(const char magic[8]) : buf_(magic, 8) {}
void RecordWriter::u8(std::uint8_t v) { buf_ += char(v); }
void RecordWriter::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) buf_ += char((v >> (8 * i)) & 0xff);
}
void RecordWriter::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) buf_ += char((v >> (8 * i)) & 0xff);
}
void RecordWriter::f32(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  u32(bits);
}
void RecordWriter::str(const std::string& s) {
  u32(std::uint32_t(s.size()));
  buf_ += s;
}
void RecordWriter::bytes(const std::string& s) { buf_ += s; }
std::string RecordWriter::finish() {
  const std::uint64_t h = fnv1a64(buf_.data(), buf_.size());
  u64(h);
  return std::move(buf_);
}

RecordReader::RecordReader(std::string data, const char magic[8], const std::string& path, const std::string& kind)
    : data_(std::move(data)), path_(path) {
  if (data_.empty()) fail("an empty file; expected a " + kind + " checkpoint, as --checkpoint writes it");
  // The start of the magic alone ("FLLI"): a checkpoint cut short, not a text file (a tester).
  if (data_.size() < 8 && std::string(magic, 8).compare(0, data_.size(), data_) == 0)
    fail("truncated (" + std::to_string(data_.size()) + " bytes)");
  if (otherVersionOf(data_, magic))
    fail("a " + kind + " checkpoint of another format version ('" + printable(data_.substr(0, 8)) +
         "', this build reads '" + std::string(magic, 8) + "'); resume it with the flocklife build that wrote it, or "
         "start anew");
  if (data_.size() < 8 || data_.compare(0, 8, std::string(magic, 8)) != 0) {
    // Magic bytes of letters and digits are named, so that another kind's checkpoint (FLLIFE02
    // given to boids) is recognisable.
    const bool printable = data_.size() >= 8 && std::all_of(data_.begin(), data_.begin() + 8, [](char c) {
                             return std::isalnum(static_cast<unsigned char>(c)) != 0;
                           });
    // A text file (a pattern, a CSV) given where a checkpoint belongs is said to be one.
    const std::size_t head = std::min<std::size_t>(data_.size(), 256);
    const bool text = head > 0 && std::all_of(data_.begin(), data_.begin() + std::ptrdiff_t(head), [](char c) {
                        return std::isprint(static_cast<unsigned char>(c)) || std::isspace(static_cast<unsigned char>(c));
                      });
    // The other kind's checkpoint is named with the command that reads it (a new user's trial).
    const auto is = [&](const char* m) { return data_.compare(0, 8, m, 8) == 0; };  // this build's version only
    const std::string other = is(kLifeCheckpointMagic)    ? "; it is a flocklife life checkpoint: give it to flocklife life --resume"
                              : is(kBoidsCheckpointMagic) ? "; it is a flocklife boids checkpoint: give it to flocklife boids --resume"
                                                          : "";
    fail("not a " + kind + " checkpoint (wrong magic bytes" +
         (printable ? ": '" + data_.substr(0, 8) + "', expected '" + std::string(magic, 8) + "'" : std::string()) + ")" +
         other +
         (text ? "; it is a text file, such as a pattern (read by life's --pattern) or a CSV of boids (boids' "
                 "--in); checkpoints are what --checkpoint writes"
               : ""));
  }
  if (data_.size() < 16) fail("truncated (" + std::to_string(data_.size()) + " bytes)");
  end_ = data_.size() - 8;
  std::uint64_t stored = 0;
  for (int i = 0; i < 8; ++i) stored |= std::uint64_t(static_cast<unsigned char>(data_[end_ + i])) << (8 * i);
  if (stored != fnv1a64(data_.data(), end_)) fail("checksum mismatch: the file is truncated or corrupt");
}

void RecordReader::fail(const std::string& what) const { throw InputError("checkpoint '" + path_ + "': " + what); }

const unsigned char* RecordReader::need(std::uint64_t n) {
  if (n > end_ - pos_) fail("truncated: expected " + std::to_string(n) + " more bytes at offset " + std::to_string(pos_));
  const auto* p = reinterpret_cast<const unsigned char*>(data_.data()) + pos_;
  pos_ += std::size_t(n);
  return p;
}
std::uint8_t RecordReader::u8() { return *need(1); }
std::uint32_t RecordReader::u32() {
  const auto* p = need(4);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(p[i]) << (8 * i);
  return v;
}
std::uint64_t RecordReader::u64() {
  const auto* p = need(8);
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= std::uint64_t(p[i]) << (8 * i);
  return v;
}
float RecordReader::f32() {
  const std::uint32_t bits = u32();
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
std::string RecordReader::str(std::size_t maxLength) {
  const std::uint32_t n = u32();
  if (n > maxLength) fail("string of " + std::to_string(n) + " bytes, expected at most " + std::to_string(maxLength));
  const auto* p = need(n);
  return std::string(reinterpret_cast<const char*>(p), n);
}
std::string RecordReader::bytes(std::uint64_t n) {
  const auto* p = need(n);
  return std::string(reinterpret_cast<const char*>(p), std::size_t(n));
}
void RecordReader::expectEnd() {
  if (pos_ != end_) fail(std::to_string(end_ - pos_) + " unexpected bytes after the data");
}

namespace {
/// The atexit hook of noteOnAbruptEnd, removeOnAbruptEnd and OutputFile's guard: a process that
/// exit() ends mid-run, as Xlib ends it when the display is lost, removes and says what a signal's
/// abrupt end would, an OutputFile's temporary file included (a lost display left bench fps's rows
/// in an unnamed temporary file: a tester's trial). A run that ends normally has cleared them.
extern "C" void endAbruptlyAtExit() {
  if (gHasTemporary.exchange(0)) ::unlink(gTemporary);  // an OutputFile's, never committed
  for (int k = 0, n = gAbruptPathCount.exchange(0); k < n; ++k)
    if (::unlink(gAbruptPaths[k]) != 0) ::rmdir(gAbruptPaths[k]);
  if (const std::size_t n = gAbruptNoteLength.exchange(0)) std::fwrite(gAbruptNote, 1, n, stderr);
}

void hookExit() {
  static const bool hooked = std::atexit(endAbruptlyAtExit) == 0;
  (void)hooked;
}
}  // namespace

void noteOnAbruptEnd(const std::string& note) {
  hookExit();
  gAbruptNoteLength.store(0, std::memory_order_release);  // forgotten before the text changes
  const std::string line = "flocklife: " + note + "\n";
  if (note.empty() || line.size() > sizeof gAbruptNote) return;
  std::memcpy(gAbruptNote, line.data(), line.size());
  gAbruptNoteLength.store(line.size(), std::memory_order_release);
}

void removeOnAbruptEnd(const std::vector<std::string>& paths) {
  hookExit();
  gAbruptPathCount.store(0, std::memory_order_release);  // forgotten before the names change
  int n = 0;
  for (const std::string& p : paths)
    if (n < 4 && p.size() < sizeof gAbruptPaths[0]) std::memcpy(gAbruptPaths[n++], p.c_str(), p.size() + 1);
  gAbruptPathCount.store(n, std::memory_order_release);
}

InterruptFlag::InterruptFlag() {
  if (gFlagDepth++ > 0) return;  // inside another: its handlers and its signal, kept
  gSignal.store(0);
  struct sigaction sa {};
  sa.sa_handler = onSignal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;  // a checkpoint being written when the signal arrives is not disturbed
  for (int k = 0; k < 3; ++k) {
    struct sigaction now {};
    gStopTaken[k] = sigaction(kStopSignals[k], nullptr, &now) == 0 && now.sa_handler != SIG_IGN &&
                    sigaction(kStopSignals[k], &sa, &gOldStop[k]) == 0;
  }
  struct sigaction pipe {}, now {};
  pipe.sa_handler = endAbruptly;
  sigemptyset(&pipe.sa_mask);
  gPipeTaken = sigaction(SIGPIPE, nullptr, &now) == 0 && now.sa_handler == SIG_DFL &&
               sigaction(SIGPIPE, &pipe, &gOldPipe) == 0;
}
InterruptFlag::~InterruptFlag() {
  if (--gFlagDepth > 0) return;
  for (int k = 0; k < 3; ++k) {
    if (gStopTaken[k]) sigaction(kStopSignals[k], &gOldStop[k], nullptr);
    gStopTaken[k] = false;
  }
  if (gPipeTaken) sigaction(SIGPIPE, &gOldPipe, nullptr);
  gPipeTaken = false;
}
bool InterruptFlag::raised() const { return gSignal.load() != 0; }
int InterruptFlag::signal() const { return gSignal.load(); }

}  // namespace flocklife
