// Atomic checkpoint files, the checksummed record format, the interrupt flag and the host
// memory cap (FLOCKLIFE_HOST_MEMORY_LIMIT).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "host_memory_limit.hpp"

namespace flocklife {
namespace {

namespace fs = std::filesystem;

constexpr char kMagic[8] = {'T', 'E', 'S', 'T', 'R', 'E', 'C', '1'};

fs::path tempDir() {
  const fs::path d = fs::temp_directory_path() / ("flocklife-ckio-" + std::to_string(getpid()));
  fs::create_directories(d);
  return d;
}

std::string sampleRecord() {
  RecordWriter w(kMagic);
  w.u8(7);
  w.u32(0xdeadbeefu);
  w.u64(0x0123456789abcdefull);
  w.f32(-0.1f);
  w.str("B3/S23");
  return w.finish();
}

}  // namespace

TEST(Record, RoundTripKeepsEveryValueAndFloatBits) {
  RecordReader r(sampleRecord(), kMagic, "x.ck", "test");
  EXPECT_EQ(r.u8(), 7);
  EXPECT_EQ(r.u32(), 0xdeadbeefu);
  EXPECT_EQ(r.u64(), 0x0123456789abcdefull);
  EXPECT_EQ(r.f32(), -0.1f);
  EXPECT_EQ(r.str(16), "B3/S23");
  EXPECT_NO_THROW(r.expectEnd());
}

TEST(Record, EveryTruncationAndEveryFlippedByteIsRefused) {
  const std::string good = sampleRecord();
  for (std::size_t n = 0; n < good.size(); ++n)
    EXPECT_THROW(RecordReader(good.substr(0, n), kMagic, "x.ck", "test"), InputError) << "length " << n;
  for (std::size_t i = 0; i < good.size(); ++i) {
    std::string bad = good;
    bad[i] = char(bad[i] ^ 0x10);
    EXPECT_THROW(RecordReader(bad, kMagic, "x.ck", "test"), InputError) << "byte " << i;
  }
  try {
    RecordReader(good.substr(0, good.size() - 3), kMagic, "x.ck", "test");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("checkpoint 'x.ck': checksum mismatch"), std::string::npos) << e.what();
  }
  try {
    RecordReader(std::string("GIF89a..........."), kMagic, "x.ck", "test");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not a test checkpoint"), std::string::npos) << e.what();
  }
  // The start of the magic alone is a checkpoint cut short (it was called a text file: a tester).
  try {
    RecordReader(good.substr(0, 4), kMagic, "x.ck", "test");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "checkpoint 'x.ck': truncated (4 bytes)");
  }
}

TEST(Record, ReadsPastTheDataAndLeftoverBytesAreErrors) {
  RecordReader r(sampleRecord(), kMagic, "x.ck", "test");
  EXPECT_THROW(r.str(3), InputError);  // bytes 7, ef, be, ad read as a length: far above 3
  RecordReader r2(sampleRecord(), kMagic, "x.ck", "test");
  r2.u8();
  EXPECT_THROW(r2.expectEnd(), InputError);
  EXPECT_THROW(r2.bytes(1000), InputError);
}

/// The files in folder `d` whose names start with `prefix` (temporaries left behind).
std::vector<std::string> filesStartingWith(const fs::path& d, const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(d))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path().filename().string());
  return out;
}

TEST(AtomicFile, ReplacesTheFileAndLeavesNoTemporary) {
  const fs::path d = tempDir();
  const std::string path = (d / "state.ck").string();
  writeFileAtomically(path, "first", "--checkpoint");
  writeFileAtomically(path, "second", "--checkpoint");
  EXPECT_EQ(readWholeFile(path), "second");
  EXPECT_EQ(filesStartingWith(d, "state.ck.tmp"), std::vector<std::string>{});
  EXPECT_THROW(writeFileAtomically((d / "no/such/dir/x.ck").string(), "x", "--checkpoint"), InputError);
  EXPECT_THROW(readWholeFile((d / "missing.ck").string()), InputError);
  try {  // a folder opens as a stream on Linux and reads as empty: said as what it is
    readWholeFile(d.string());
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read checkpoint '" + d.string() + "': it is a folder; expected a checkpoint file");
  }
  fs::remove_all(d);
}

// The temporary file is written through the descriptor that made it (O_EXCL), not its name opened
// again: in a folder where others may rename files (world-writable, no sticky bit), the name swapped
// for a link to another file between the two opens would have sent the bytes there (a review).
TEST(OutputFile, TheTemporaryFileIsWrittenThroughItsOwnDescriptor) {
  const fs::path d = tempDir();
  const std::string path = (d / "out.rle").string(), victim = (d / "victim").string();
  std::ofstream(victim) << "victim";
  int fd = -2;
  const std::string tmp = makeTemporaryBeside(path, "--out", &fd);
  ASSERT_GE(fd, 0);
  struct stat byName {}, byFd {};
  ASSERT_EQ(::stat(tmp.c_str(), &byName), 0);
  ASSERT_EQ(::fstat(fd, &byFd), 0);
  EXPECT_EQ(byName.st_ino, byFd.st_ino);
  EXPECT_EQ(byName.st_dev, byFd.st_dev);
  EXPECT_EQ(::fcntl(fd, F_GETFL) & O_ACCMODE, O_WRONLY);
  EXPECT_TRUE(::fcntl(fd, F_GETFD) & FD_CLOEXEC);
  fs::rename(tmp, d / "moved");
  fs::create_symlink(victim, tmp);
  ASSERT_EQ(::write(fd, "data", 4), 4);
  ::close(fd);
  EXPECT_EQ(readWholeFile(victim), "victim");
  EXPECT_EQ(readWholeFile((d / "moved").string()), "data");
  fs::remove(tmp);
  // OutputFile: the bytes stay in its own file, and commit() refuses to rename what took its name
  // (the link would have taken the place of `path`).
  {
    OutputFile f(path, "--out");
    const auto tmps = filesStartingWith(d, "out.rle.tmp");
    ASSERT_EQ(tmps.size(), 1u);
    fs::rename(d / tmps[0], d / "moved-out");
    fs::create_symlink(victim, d / tmps[0]);
    f.stream() << "new bytes";
    try {
      f.commit();
      FAIL() << "expected TemporaryReplaced";
    } catch (const TemporaryReplaced& e) {
      EXPECT_EQ(std::string(e.what()), "--out " + path + ": write failed: its temporary file " + (d / tmps[0]).string() +
                                           " was replaced or removed by another program while it was written; " + path +
                                           " is as it was");
    }
  }
  EXPECT_EQ(readWholeFile(victim), "victim");
  EXPECT_EQ(readWholeFile((d / "moved-out").string()), "new bytes");
  EXPECT_FALSE(fs::exists(fs::symlink_status(path)));
  EXPECT_EQ(filesStartingWith(d, "out.rle.tmp").size(), 1u) << "what took the name is left as it is";
  for (const auto& t : filesStartingWith(d, "out.rle.tmp")) fs::remove(d / t);
  // Written in place: no temporary file, no descriptor.
  EXPECT_EQ(makeTemporaryBeside("/dev/null", "--out", &fd), "");
  EXPECT_EQ(fd, -1);
  fs::remove_all(d);
}

// An output file replaces the old one only once complete: a write that fails, or an exception
// before commit(), leaves the previous file as it was and no temporary file behind.
TEST(OutputFile, APreviousFileSurvivesAnUnfinishedWrite) {
  const fs::path d = tempDir();
  const std::string path = (d / "out.rle").string();
  std::ofstream(path) << "previous";
  fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
  {
    OutputFile f(path, "--out");
    f.stream() << "half of the new";
    EXPECT_EQ(readWholeFile(path), "previous");  // not touched while the new file is written
  }  // no commit(): as when the writer throws
  EXPECT_EQ(readWholeFile(path), "previous");
  EXPECT_EQ(filesStartingWith(d, "out.rle.tmp"), std::vector<std::string>{});
  {
    OutputFile f(path, "--out");
    f.stream() << "new";
    f.commit();
  }
  EXPECT_EQ(readWholeFile(path), "new");
  EXPECT_EQ(fs::status(path).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);  // the old file's mode
  // And its group, where this user may give it (root may give any; it got this user's group, so a
  // group-readable file was no longer readable by its group: found by a review).
  if (::geteuid() == 0) {
    ASSERT_EQ(::chown(path.c_str(), uid_t(-1), gid_t(65534)), 0);
    {
      OutputFile f(path, "--out");
      f.stream() << "grouped";
      f.commit();
    }
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_gid, gid_t(65534));
  }
  // A link is written through in place: the file it names gets the bytes, the link stays a link.
  fs::create_symlink(path, d / "link.rle");
  {
    OutputFile f((d / "link.rle").string(), "--out");
    f.stream() << "through the link";
    f.commit();
  }
  EXPECT_TRUE(fs::is_symlink(d / "link.rle"));
  EXPECT_EQ(readWholeFile(path), "through the link");
  // A file with another hard link is written in place too, so both names see the new bytes.
  fs::create_hard_link(path, d / "hard.rle");
  {
    OutputFile f(path, "--out");
    f.stream() << "both names";
    f.commit();
  }
  EXPECT_EQ(readWholeFile((d / "hard.rle").string()), "both names");
  EXPECT_EQ(filesStartingWith(d, "out.rle.tmp"), std::vector<std::string>{});
  fs::remove_all(d);
}

/// Runs `body` in a child process with standard error to the file `said`, then raises SIGTERM
/// there; returns the child's wait status. The child never returns into the test suite.
template <class Body>
int statusAfterSigterm(const std::string& said, Body&& body) {
  const pid_t child = fork();
  if (child < 0) return -1;
  if (child == 0) {
    std::freopen(said.c_str(), "w", stderr);
    try {
      body();
      std::raise(SIGTERM);
    } catch (...) {
      _exit(3);
    }
    _exit(0);  // not reached
  }
  int status = 0;
  return waitpid(child, &status, 0) == child ? status : -1;
}

/// Whether SIGTERM is at its default action in this process, as the tests that end a child by it
/// need.
bool sigtermAtDefault() {
  struct sigaction term {};
  EXPECT_EQ(sigaction(SIGTERM, nullptr, &term), 0);
  return term.sa_handler == SIG_DFL;
}

// An InterruptFlag made while a file was being written puts back, when it ends, the guard the
// file had installed, though the file was committed meanwhile: a later signal ends the process
// without a word about that file (it said "it was not written" of a file written; a review).
TEST(OutputFile, AGuardPutBackAfterTheCommitSaysNothing) {
  if (!sigtermAtDefault()) GTEST_SKIP() << "SIGTERM is ignored or handled in this test process";
  const fs::path d = tempDir();
  const std::string path = (d / "out.csv").string(), said = (d / "said.txt").string();
  const int status = statusAfterSigterm(said, [&] {
    OutputFile f(path, "--out");
    f.stream() << "new";
    InterruptFlag flag;  // ends after the commit, putting back f's guard
    f.commit();
  });
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(readWholeFile(path), "new");
  EXPECT_EQ(readWholeFile(said), "");
  fs::remove_all(d);
}

// A signal that ends the process while the new file is written removes the temporary file first
// and still ends the process by that signal; the previous file stays as it was.
TEST(OutputFile, ASignalWhileWritingLeavesNoTemporary) {
  if (!sigtermAtDefault()) GTEST_SKIP() << "SIGTERM is ignored or handled in this test process";
  const fs::path d = tempDir();
  const std::string path = (d / "out.csv").string(), said = (d / "said.txt").string();
  std::ofstream(path) << "previous";
  // The writer, ended by SIGTERM halfway (the raise inside the body, with the file open).
  std::optional<OutputFile> f;
  int status = statusAfterSigterm(said, [&] {
    f.emplace(path, "--out");
    f->stream() << "half of the new" << std::flush;
  });
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
  EXPECT_EQ(readWholeFile(path), "previous");
  EXPECT_EQ(filesStartingWith(d, "out.csv.tmp"), std::vector<std::string>{});
  // And says so (the run ended without a word, its result lost: a new user's trial).
  EXPECT_EQ(readWholeFile(said), "flocklife: --out " + path +
                                     ": interrupted by a signal while it was written; it was not written, and the "
                                     "file there is as it was\n");
  // With a handler of the process's own (InterruptFlag during a checkpointed run) nothing is
  // installed: the flag is set and the writer goes on to commit.
  {
    InterruptFlag flag;
    OutputFile f(path, "--out");
    f.stream() << "new";
    std::raise(SIGINT);
    EXPECT_TRUE(flag.raised());
    f.commit();
  }
  EXPECT_EQ(readWholeFile(path), "new");
  // A second SIGINT a second or more after the first ends the process (the user insists): the
  // temporary file goes first (found by a reviewer: a double Ctrl-C during a checkpoint left it
  // behind). One at once is the same request and is ignored (`timeout -s INT` signals the process
  // and its group: a new user's runs lost their checkpoint to it).
  const pid_t insists = fork();
  ASSERT_GE(insists, 0);
  if (insists == 0) {
    InterruptFlag flag;
    OutputFile f(path, "--checkpoint");
    f.stream() << "half" << std::flush;
    std::raise(SIGINT);
    std::raise(SIGINT);  // ignored
    if (!flag.raised()) _exit(3);
    ::usleep(useconds_t(InterruptFlag::kInsistAfterSeconds * 1e6) + 100000);
    std::raise(SIGINT);
    _exit(0);  // not reached
  }
  ASSERT_EQ(waitpid(insists, &status, 0), insists);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << status;
  EXPECT_EQ(readWholeFile(path), "new");
  EXPECT_EQ(filesStartingWith(d, "out.csv.tmp"), std::vector<std::string>{});
  // Without an InterruptFlag, SIGHUP is guarded as the others; after commit() the default action
  // is back.
  struct sigaction hup0 {};
  ASSERT_EQ(sigaction(SIGHUP, nullptr, &hup0), 0);
  if (hup0.sa_handler != SIG_DFL) {  // ignored in this process (nohup): nothing to guard
    fs::remove_all(d);
    return;
  }
  {
    OutputFile f(path, "--out");
    struct sigaction hup {};
    ASSERT_EQ(sigaction(SIGHUP, nullptr, &hup), 0);
    EXPECT_NE(hup.sa_handler, SIG_DFL);
    f.stream() << "newer";
    f.commit();
  }
  struct sigaction hup {};
  ASSERT_EQ(sigaction(SIGHUP, nullptr, &hup), 0);
  EXPECT_EQ(hup.sa_handler, SIG_DFL);
  EXPECT_EQ(readWholeFile(path), "newer");
  fs::remove_all(d);
}

// Devices are written in place: a full one fails at commit() naming the flag, and /dev/null takes
// the bytes and stays the device (run as root, a rename would have replaced it with a file).
TEST(OutputFile, DevicesAreWrittenDirectly) {
  {
    OutputFile f("/dev/null", "--out");
    f.stream() << "gone";
    EXPECT_NO_THROW(f.commit());
  }
  EXPECT_TRUE(fs::is_character_file("/dev/null"));
  EXPECT_EQ(filesStartingWith("/dev", "null.tmp"), std::vector<std::string>{});
  EXPECT_NO_THROW(requireWritableFile("/dev/null", "--out"));  // no folder check for a file written in place
  OutputFile full("/dev/full", "--out");
  full.stream() << std::string(1 << 16, 'x');
  try {
    full.commit();
    FAIL() << "expected a write failure";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--out /dev/full: write failed: No space left on device");
  }
}

/// A named pipe is written in place once a process reads it; until then the writer waits, and a
/// signal an InterruptFlag takes ends the wait (open() blocked where the first Ctrl-C did nothing:
/// found by a tester).
TEST(OutputFile, ANamedPipeIsWrittenOnceReadAndASignalEndsTheWait) {
  const fs::path d = tempDir();
  const std::string fifo = (d / "pipe.rle").string();
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  {
    const int reader = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a reader before the writer
    ASSERT_GE(reader, 0);
    OutputFile f(fifo, "--out");
    f.stream() << "through the pipe";
    f.commit();
    char got[64] = {};
    EXPECT_EQ(::read(reader, got, sizeof got), 16);
    EXPECT_EQ(std::string(got), "through the pipe");
    ::close(reader);
  }
  EXPECT_EQ(filesStartingWith(d, "pipe.rle.tmp"), std::vector<std::string>{});
  // Opening `fifo` as `what` waits for a reader until SIGINT ends the wait with its message.
  const auto expectWaitInterrupted = [&fifo](const std::string& what) {
    try {
      OutputFile f(fifo, what);
      ADD_FAILURE() << "opened a pipe that no process reads";
    } catch (const Interrupted& e) {
      EXPECT_EQ(std::string(e.what()), what + " " + fifo +
                                           ": interrupted by signal 2 while waiting for a process to read this "
                                           "named pipe; nothing was written to it");
      EXPECT_EQ(e.signal, SIGINT);
    }
  };
  {
    InterruptFlag flag;
    std::raise(SIGINT);  // taken before the wait: the first failed open ends it
    expectWaitInterrupted("--checkpoint");
  }
  {  // No InterruptFlag held by the caller (a run's final --out): the wait holds its own, so that a
     // signal ends it with the message (the process ended without a word: a tester's trial).
    std::thread signaller([] {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      ::kill(::getpid(), SIGINT);
    });
    expectWaitInterrupted("--out");
    signaller.join();
  }
  EXPECT_TRUE(fs::is_fifo(fifo));
  fs::remove_all(d);
}

/// inPlaceHazard names the files OutputFile writes in place where a failed write would damage them,
/// and nothing else.
TEST(OutputFile, InPlaceHazardNamesLinksAndHardLinkedFiles) {
  const fs::path d = fs::temp_directory_path() / ("flocklife-hazard-" + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  const std::string plain = (d / "plain.ck").string(), link = (d / "link.ck").string(),
                    dangling = (d / "dangling.ck").string(), hard = (d / "hard.ck").string(),
                    toDevice = (d / "null.ck").string();
  { std::ofstream(plain) << "x"; }
  fs::create_symlink(plain, link);
  fs::create_symlink(d / "nothing-yet.ck", dangling);
  fs::create_symlink("/dev/null", toDevice);
  EXPECT_EQ(inPlaceHazard(plain).what, "");
  EXPECT_EQ(inPlaceHazard((d / "new.ck").string()).what, "");
  EXPECT_EQ(inPlaceHazard(link).what, "a symbolic link");
  EXPECT_EQ(inPlaceHazard(dangling).what, "a symbolic link");
  EXPECT_EQ(inPlaceHazard(link).instead, "name the file it points to");
  EXPECT_EQ(inPlaceHazard(plain).instead, "");
  EXPECT_EQ(inPlaceHazard(toDevice).what, "");
  EXPECT_EQ(inPlaceHazard("/dev/null").what, "");
  EXPECT_EQ(inPlaceHazard("-").what, "");
  EXPECT_EQ(inPlaceHazard("").what, "");
  fs::create_hard_link(plain, hard);
  EXPECT_EQ(inPlaceHazard(plain).what, "a file with other hard links");
  EXPECT_EQ(inPlaceHazard(hard).what, "a file with other hard links");
  EXPECT_EQ(inPlaceHazard(link).what, "a symbolic link to a file with other hard links");  // its target has two now
  EXPECT_EQ(inPlaceHazard(link).instead, "name a file without other links");
  EXPECT_EQ(inPlaceHazard(hard).instead, "name a file without other links");
  // Another user's file (where this test may hand one over: as root) is written in place too, keeping
  // its owner (a tester's trial lost one to a full disk, without the note).
  const std::string theirs = (d / "theirs.csv").string();
  std::ofstream(theirs) << "theirs";
  if (::geteuid() == 0 && ::chown(theirs.c_str(), 65534, 65534) == 0) {
    EXPECT_EQ(inPlaceHazard(theirs).what, "another user's file");
    EXPECT_EQ(inPlaceHazard(theirs).instead, "name a file of your own or a new one");
  }
  fs::remove_all(d);
}

// /dev/stdout while standard output goes to a file: the bytes follow what was printed before and
// precede what is printed after (opening it again truncated the file under the stream's offset;
// found by a new user's trial: "--out /dev/stdout > file" gave a corrupt file).
TEST(OutputFile, StandardOutputRedirectedToAFileIsWrittenInOrder) {
  const fs::path d = tempDir();
  const std::string path = (d / "stdout.txt").string();
  // What this process printed but has not yet written (gtest's "Running main()" with --gtest_brief
  // and standard output not a terminal) would be copied into the child and written to its file.
  std::cout.flush();
  std::fflush(stdout);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) _exit(3);
    std::cout << "summary before\n";
    try {
      OutputFile f("/dev/stdout", "--out");
      f.stream() << "x = 1, y = 1\no!\n";
      f.commit();
    } catch (...) {
      _exit(4);
    }
    std::cout << "summary after\n" << std::flush;
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  EXPECT_EQ(readWholeFile(path), "summary before\nx = 1, y = 1\no!\nsummary after\n");
  fs::remove_all(d);
}

/// The up-front check of an output path: passes for a new or existing (writable) file in a folder
/// that exists, names the flag and the path otherwise.
TEST(OutputPath, MissingFolderAFolderOrAReadOnlyFileIsRefusedNamingTheFlag) {
  const fs::path d = tempDir();
  EXPECT_NO_THROW(requireWritableFile((d / "new.rle").string(), "--out"));
  std::ofstream(d / "old.rle") << "x";
  EXPECT_NO_THROW(requireWritableFile((d / "old.rle").string(), "--out"));
  auto message = [](const std::string& path, const std::string& flag) {
    try {
      requireWritableFile(path, flag);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  const std::string missing = (d / "nodir" / "x.ck").string();
  EXPECT_EQ(message(missing, "--checkpoint"), "--checkpoint " + missing + ": the folder '" + (d / "nodir").string() +
                                                  "' does not exist; expected a file in an existing folder that may be written in");
  EXPECT_NE(message(d.string(), "--out").find("--out " + d.string() + ": is a folder"), std::string::npos);
  EXPECT_EQ(message("", "--out"), "--out: expected a file name");
  // The temporary file's name (the name plus ".tmp-XXXXXX") must fit the folder too: found by a
  // reviewer, a 250-character --out name passed this check and failed after the whole run.
  const long nameMax = pathconf(d.c_str(), _PC_NAME_MAX);
  if (nameMax > 11) {
    const std::string fits = (d / std::string(std::size_t(nameMax - 11), 'a')).string();
    EXPECT_NO_THROW(requireWritableFile(fits, "--out"));
    const std::string longer = (d / std::string(std::size_t(nameMax - 10), 'a')).string();
    EXPECT_EQ(message(longer, "--out"), "--out " + longer + ": the name is too long: it is written as NAME.tmp-XXXXXX first, " +
                                            std::to_string(nameMax + 1) + " characters where the folder allows " +
                                            std::to_string(nameMax) + "; expected a name of at most " +
                                            std::to_string(nameMax - 11) + " characters");
    OutputFile f(fits, "--out");  // and the longest name that passes is written
    f.stream() << "x";
    EXPECT_NO_THROW(f.commit());
  }
  // A loop of links, or a link to a name too long, failed the open after the run (a tester's trials).
  fs::create_symlink("loop2.rle", d / "loop1.rle");
  fs::create_symlink("loop1.rle", d / "loop2.rle");
  EXPECT_EQ(message((d / "loop1.rle").string(), "--out"),
            "--out " + (d / "loop1.rle").string() +
                ": Too many levels of symbolic links; expected a file in an existing folder that may be written in");
  fs::create_symlink(std::string(std::size_t(nameMax > 0 ? nameMax + 1 : 256), 'n'), d / "long.rle");
  EXPECT_NE(message((d / "long.rle").string(), "--out").find(": File name too long;"), std::string::npos);
  // /proc and /sys, which root's access() passes (a tester's run as root failed after the run).
  // (Another user is refused by the folder's permissions first.)
  if (geteuid() == 0) {
    EXPECT_EQ(message("/proc/x.ck", "--checkpoint"), "--checkpoint /proc/x.ck: the folder '/proc' is in /proc, where "
                                                     "no file can be made; expected a file in an existing folder that "
                                                     "may be written in");
    EXPECT_NE(message("/sys/x.csv", "--out").find("is in /sys, where no file can be made"), std::string::npos);
  } else {
    EXPECT_NE(message("/proc/x.ck", "--checkpoint").find("cannot write in the folder '/proc'"), std::string::npos);
  }
  if (geteuid() != 0) {  // root may write anywhere
    fs::create_directories(d / "ro");
    fs::permissions(d / "ro", fs::perms::owner_read | fs::perms::owner_exec);
    EXPECT_NE(message((d / "ro" / "x.png").string(), "--screenshot").find("cannot write in the folder"), std::string::npos);
    // Through a link to a new file there, or into a folder that may be written in but not entered
    // (its lookup fails: stat's error is named).
    fs::create_symlink(d / "ro" / "target.rle", d / "rolink.rle");
    EXPECT_NE(message((d / "rolink.rle").string(), "--out").find("', which cannot be written in: Permission denied"),
              std::string::npos);
    fs::create_directories(d / "noenter");
    fs::permissions(d / "noenter", fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(message((d / "noenter" / "x.ck").string(), "--checkpoint"),
              "--checkpoint " + (d / "noenter" / "x.ck").string() +
                  ": Permission denied; expected a file in an existing folder that may be written in");
    fs::permissions(d / "noenter", fs::perms::owner_all);
    fs::permissions(d / "ro", fs::perms::owner_all);
    std::ofstream(d / "ro.rle") << "x";  // an existing read-only file: found before the run
    fs::permissions(d / "ro.rle", fs::perms::owner_read);
    EXPECT_EQ(message((d / "ro.rle").string(), "--out"),
              "--out " + (d / "ro.rle").string() +
                  ": cannot write the existing file: Permission denied; expected a file that may be written (or a new one)");
  }
  fs::remove_all(d);
}

TEST(InterruptFlag, SignalSetsTheFlagInsteadOfEndingTheProcess) {
  {
    InterruptFlag flag;
    EXPECT_FALSE(flag.raised());
    std::raise(SIGINT);
    EXPECT_TRUE(flag.raised());
    EXPECT_EQ(flag.signal(), SIGINT);
  }
  InterruptFlag again;  // a new flag starts clear
  EXPECT_FALSE(again.raised());
}

/// Flags nest: an inner flag shares the outer one's handler and signal, and ending it leaves the
/// outer one catching; only the outermost restores the handler that was there before.
TEST(InterruptFlag, InnerFlagsShareTheOuterOnesSignal) {
  struct sigaction before {};
  ASSERT_EQ(sigaction(SIGINT, nullptr, &before), 0);
  {
    InterruptFlag outer;
    { InterruptFlag inner; }
    std::raise(SIGINT);  // caught: the outer flag's handler is still there
    EXPECT_TRUE(outer.raised());
    InterruptFlag inner;
    EXPECT_TRUE(inner.raised());
  }
  struct sigaction after {};
  ASSERT_EQ(sigaction(SIGINT, nullptr, &after), 0);
  EXPECT_EQ(after.sa_handler, before.sa_handler);
}

/// SIGHUP (a closed terminal) is caught as Ctrl-C is (a long run over ssh lost everything since its
/// last checkpoint), unless it was ignored (nohup: the run is meant to outlive its terminal). So are
/// SIGINT and SIGTERM: one inherited as ignored (SIGINT in a background job of a shell script) stays
/// ignored, where the flag had taken it (a tester's trial); raised then, it is lost, as it should be.
TEST(InterruptFlag, ASignalIsCaughtUnlessIgnored) {
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
    SCOPED_TRACE(sig);
    struct sigaction before {}, ignore {};
    ASSERT_EQ(sigaction(sig, nullptr, &before), 0);
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    ASSERT_EQ(sigaction(sig, &ignore, nullptr), 0);
    {
      InterruptFlag flag;
      struct sigaction now {};
      ASSERT_EQ(sigaction(sig, nullptr, &now), 0);
      EXPECT_EQ(now.sa_handler, SIG_IGN);
      std::raise(sig);
      EXPECT_FALSE(flag.raised());
    }
    struct sigaction ignoredAfter {};
    ASSERT_EQ(sigaction(sig, nullptr, &ignoredAfter), 0);
    EXPECT_EQ(ignoredAfter.sa_handler, SIG_IGN);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    ASSERT_EQ(sigaction(sig, &dfl, nullptr), 0);
    {
      InterruptFlag flag;
      std::raise(sig);
      EXPECT_TRUE(flag.raised());
      EXPECT_EQ(flag.signal(), sig);
    }
    struct sigaction after {};
    ASSERT_EQ(sigaction(sig, nullptr, &after), 0);
    EXPECT_EQ(after.sa_handler, SIG_DFL);
    ASSERT_EQ(sigaction(sig, &before, nullptr), 0);
  }
}

TEST(Memory, HostLimitFromTheEnvironmentCapsTheAvailableBytes) {
  {
    test::HostMemoryLimit limit("1048576");
    EXPECT_EQ(availableHostBytes(), 1048576u);
    try {
      requireHostMemory(2000000, "world of 2000x1000 cells");
      FAIL() << "2 MB accepted under a 1 MiB limit";
    } catch (const OutOfMemoryError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("world of 2000x1000 cells: needs"), std::string::npos) << m;
      EXPECT_NE(m.find("2000000 bytes"), std::string::npos) << m;
      EXPECT_NE(m.find("1.00 MiB available"), std::string::npos) << m;
    }
    EXPECT_NO_THROW(requireHostMemory(1000000, "small"));
    // A "checkpoint" without end stops at the available memory (it read until memory ran out;
    // found by a review), and a regular file is checked by its size before it is read.
    EXPECT_THROW(readWholeFile("/dev/zero"), OutOfMemoryError);
    const fs::path d = tempDir();
    { std::ofstream(d / "big.ck") << std::string(1100000, 'x'); }
    EXPECT_THROW(readWholeFile((d / "big.ck").string()), OutOfMemoryError);
    { std::ofstream(d / "small.ck") << "FLLIFE01"; }
    EXPECT_EQ(readWholeFile((d / "small.ck").string()), "FLLIFE01");
    fs::remove_all(d);
  }
  {
    test::HostMemoryLimit bad("12abc");
    EXPECT_THROW(availableHostBytes(), InputError);
  }
}

// One holder per checkpoint file, whatever name reaches it: a link made before the file, a path
// through "."; another file, a device (/dev/null) and no name are not held; a lock ends with its
// object.
TEST(CheckpointLock, OneHolderPerFileWhateverItsName) {
  const fs::path d = tempDir();
  const std::string file = (d / "run.ck").string(), alias = (d / "alias.ck").string();
  fs::create_symlink(file, alias);  // dangling: the run has not saved yet
  {
    const CheckpointLock held(alias);
    EXPECT_THROW(CheckpointLock{file}, InputError);
    EXPECT_THROW(CheckpointLock{(d / "." / "run.ck").string()}, InputError);
    EXPECT_NO_THROW(CheckpointLock{(d / "other.ck").string()});
  }
  EXPECT_NO_THROW(CheckpointLock{file});  // released
  const CheckpointLock first(file);
  try {
    CheckpointLock second(alias);
    ADD_FAILURE() << "a second lock of " << file;
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--checkpoint " + alias + ": another flocklife run on this machine is saving its "
                                     "checkpoint to this file; expected another name, or to wait until that run ends");
  }
  const CheckpointLock null1("/dev/null"), null2("/dev/null"), none1(""), none2("");
  fs::remove_all(d);
}

// A process that exit() ends mid-run (Xlib's exit(1) when the display is lost) says the note set
// for an abrupt end and removes its paths, as a second signal would: a lost display left bench
// fps's rows in an unnamed temporary file (a tester's trial). Cleared, neither happens.
TEST(AbruptEnd, AnExitMidRunSaysTheNoteAndRemovesThePaths) {
  const fs::path d = tempDir();
  const std::string left = (d / "soup.rle").string(), kept = (d / "kept.rle").string();
  std::ofstream(left) << "x";
  std::ofstream(kept) << "x";
  EXPECT_EXIT(
      {
        removeOnAbruptEnd({left});
        noteOnAbruptEnd("--csv t.csv: the sweep ended at once; the rows measured are in t.csv.tmp-abc123");
        std::exit(1);
      },
      ::testing::ExitedWithCode(1), "flocklife: --csv t.csv: the sweep ended at once; the rows measured are in "
                                    "t\\.csv\\.tmp-abc123");
  EXPECT_FALSE(fs::exists(left));
  EXPECT_EXIT(
      {
        removeOnAbruptEnd({kept});
        noteOnAbruptEnd("never said");
        removeOnAbruptEnd({});
        noteOnAbruptEnd("");
        std::fprintf(stderr, "done\n");
        std::exit(0);
      },
      ::testing::ExitedWithCode(0), "^done\n$");
  EXPECT_TRUE(fs::exists(kept));
  // An OutputFile being written when exit() ends the process leaves no temporary file.
  const std::string out = (d / "out.csv").string();
  EXPECT_EXIT(
      {
        OutputFile f(out, "--out");
        f.stream() << "rows";
        std::exit(1);
      },
      ::testing::ExitedWithCode(1), "");
  EXPECT_EQ(filesStartingWith(d, "out.csv"), std::vector<std::string>{});
  fs::remove_all(d);
}

}  // namespace flocklife
