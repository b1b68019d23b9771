#pragma once
/// @file checkpoint_io.hpp
/// Pieces shared by the Life and boids checkpoints and output files: an output file that replaces
/// its path only once complete, a whole-file read, a little-endian binary record with an FNV-1a
/// checksum, a SIGINT/SIGTERM flag, and a check, before a run, that an output file can be written
/// at its end.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <system_error>
#include <vector>

#include "common/errors.hpp"

namespace flocklife {

/// Checks before a run that `path` can be written when the run ends, so that a long run never
/// ends in a lost result: the path can be looked up (not a loop of links, a name too long, or a
/// folder on the way that may not be entered: stat's error is named), is not a folder, a file
/// already there may be written (not read-only for this user), a link to a file not there yet
/// points into a folder that exists and may be written in, and where OutputFile makes a new file
/// there (see below), its folder exists, may be written in, is not in /proc or /sys (which root's
/// access() passes), and allows the temporary file's name (the file's name plus 11 characters,
/// pathconf's _PC_NAME_MAX).
/// @throws InputError naming `flag` and the path, e.g. "--out runs/a.rle: the folder 'runs' does
///         not exist; expected a file in an existing folder", or "...: the name is too long: it is
///         written as NAME.tmp-XXXXXX first, 261 characters where the folder allows 255; ...".
/// "-" is standard output (OutputFile): it must be open for writing ("--out -: standard output is
/// closed or not open for writing; ...").
void requireWritableFile(const std::string& path, const std::string& flag);

/// Why OutputFile would write a file in place where a failed write (a full disk) damages a file the
/// user meant to keep whole, and what to name instead for a safe write.
struct InPlaceHazard {
  /// "a symbolic link" (to a regular file, or to nothing yet, which the write makes), "a symbolic
  /// link to a file with other hard links", "a file with other hard links" or "another user's file"
  /// (written by a user it lets write it; a tester's trial lost one to a full disk); "" for anything else:
  /// a path replaced whole through a temporary file, standard output or error (the file they are
  /// redirected to included), a device, a pipe.
  std::string what;
  /// "name the file it points to" for a link to a file without other links, "name a file of your
  /// own or a new one" for another user's file, else "name a file without other links"; "" when
  /// `what` is.
  std::string instead;
};

/// The InPlaceHazard of `path`; callers say so before a long run.
InPlaceHazard inPlaceHazard(const std::string& path);

/// Whether OutputFile writes `path` through std::cout: "-", or the file standard output writes to
/// ("/dev/stdout", or that file by its name).
bool writesStandardOutput(const std::string& path);

/// Whether OutputFile writes `path` through std::cout or std::cerr (writesStandardOutput, or the
/// file standard error writes to: "/dev/stderr").
bool writesStandardStream(const std::string& path);

/// The temporary file OutputFile writes before it renames it over `path`: a new empty file
/// "<path>.tmp-XXXXXX" beside it (O_EXCL; mode 0666 less the umask, or the permission bits and,
/// where this user may give it, the group of the file at `path`), whose name is returned; "" where `path` is written in place instead (see
/// OutputFile). The caller renames or removes it. With `fd`, the file stays open: `*fd` is its
/// descriptor (O_WRONLY, close-on-exec; -1 where "" is returned), for the caller to write and
/// close. Writing through it rather than opening the name again keeps the bytes in the file made
/// here even where others may rename files in the folder (a world-writable one without the sticky
/// bit, where the name could be swapped for a link to another file). @throws InputError "<what>
/// <path>: cannot open for writing: <reason>".
std::string makeTemporaryBeside(const std::string& path, const std::string& what, int* fd = nullptr);

/// Opens `path` for writing in place (O_WRONLY | O_CREAT | O_TRUNC; a device, a named pipe, a file
/// that is not replaced whole), for an output named `what` ("--out"). A named pipe (FIFO) that no
/// process reads yet would block open() where no signal stops it: an InterruptFlag's handler returns
/// and open() restarts (found by a tester: the first Ctrl-C did nothing). It is opened without
/// blocking instead, and again every 50 ms while no process reads it, after a note on standard
/// error saying so; its writes block as usual. Returns the descriptor, or -1 with errno set.
/// It holds an InterruptFlag while it waits (one of the caller's, or its own).
/// @throws Interrupted "<what> <path>: interrupted by signal S while waiting for a process to read
///         this named pipe; nothing was written to it" when a signal arrived meanwhile.
int openInPlace(const std::string& path, const std::string& what);

/// Makes the temporary file `tmp` (written; makeTemporaryBeside) take the place of `path`, as
/// OutputFile::commit() does: fsyncs it through `fd`, its descriptor, which this closes in every
/// case (without one, -1, the file is opened again by name), checks that the name `tmp` is still
/// that file, renames it over `path` (atomically) and fsyncs the folder. @throws InputError "<what>
/// <path>: write failed: <reason>" (a failed fsync or close), or TemporaryReplaced "...: its
/// temporary file <tmp> was replaced or removed by another program while it was written; <path> is
/// as it was"; `tmp` is then left for the caller to remove or keep, and `path` as it was.
void replaceWithTemporary(const std::string& tmp, const std::string& path, const std::string& what, int fd = -1);

/// replaceWithTemporary's error when the name of the temporary file no longer holds the file
/// written (another program renamed or replaced it): the caller then forgets that name, leaving
/// what is there now as it is, and says nothing of rows or bytes kept there.
struct TemporaryReplaced : InputError {
  using InputError::InputError;
};

/// An output file (a checkpoint, --out, a screenshot) that takes the place of `path` only once it
/// is complete, so that a full disk, an exception or a signal while it is written leaves the file
/// that was there before as it was, never a torn one. The bytes go to a new temporary file
/// "<path>.tmp-XXXXXX" in the same folder (O_EXCL, mode 0666 less the umask, or the replaced
/// file's permission bits), written through the descriptor that made it; commit() closes it, fsyncs
/// it, checks that its name is still that file (replaceWithTemporary), renames it over `path` (POSIX rename(2)
/// replaces the target atomically) and fsyncs the folder. The destructor removes the temporary
/// file unless commit() ran; so does SIGINT, SIGTERM or SIGHUP while it exists, before ending the
/// process as it would have (each of them whose action is the default; one file at a time). A
/// SIGKILL or a crash of the machine cannot be caught: then a "<path>.tmp-XXXXXX" may be left
/// beside `path`, which is never read and may be deleted. Only a new file, or a regular file of
/// this user without other hard links named directly, is replaced so; anything else at `path` (a
/// symbolic link, a device such as /dev/null or /dev/stdout, a pipe, another user's file, a file
/// with hard links) is written in place, as any program writes it, keeping its owner and links;
/// the file that standard output or standard error writes to ("/dev/stdout" redirected to a file
/// included) is written through std::cout or std::cerr, after what the process printed there, and
/// so is the path "-" (standard output).
/// `what`: the flag that named the file ("--out"), or a few words saying what the file is, for
/// the errors: InputError "<what> <path>: cannot open for writing: <reason>" (constructor) and
/// "<what> <path>: write failed: <reason>" (commit; the temporary file is removed).
class OutputFile {
 public:
  OutputFile(const std::string& path, const std::string& what);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  /// Where the bytes go until commit().
  std::ostream& stream() { return *sink_; }
  /// Finishes the file (see above); call once, after the last write.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& step, int err);
  void dropTemporary();  ///< removes the temporary file, if any, and its signal guard
  std::string path_, what_, tmp_;  ///< tmp_ empty: written in place
  bool guarded_ = false;           ///< the signal guard of tmp_ is installed
  std::unique_ptr<std::filebuf> file_;  ///< over the descriptor of the file opened (a libstdc++ stdio_filebuf)
  std::ostream out_{nullptr};      ///< writes to file_
  std::ostream* sink_ = &out_;     ///< out_, or std::cout / std::cerr for the file they write to
};

/// Writes `bytes` to `path` through an OutputFile (`what` as there).
void writeFileAtomically(const std::string& path, const std::string& bytes, const std::string& what);

/// The extension of `path`'s last component (std::filesystem's: from its last '.', not a leading
/// one), in lower case: "A.GIF" -> ".gif", "/dev/stdout" -> "".
std::string lowerExtension(const std::string& path);

/// `path` opened for reading, in binary mode: the one open of every input file (patterns, boids
/// CSV, checkpoints). @throws InputError "<what>: it is a folder; expected <kind>" (a folder opens
/// as a stream on Linux and reads as empty), "<what>: cannot open for reading: <reason>" (missing,
/// not readable), or for "-" when no file has that name, "<what>: standard input is not read;
/// expected <kind> by its name (/dev/stdin names standard input)". A named pipe (one in the file
/// system, not the shell's /dev/stdin or <(...)) is said on stderr before the open waits for its
/// writer: "flocklife: note: <path> is a named pipe: waiting for a program to open it for writing".
std::ifstream openForReading(const std::string& path, const std::string& what, const std::string& kind);

/// The whole file. With `magic` (8 bytes, a checkpoint's first bytes), a file that does not begin
/// with them is read no further than its first 256 bytes, which are returned, so that RecordReader
/// reports the wrong magic bytes at once for any file, even one without end (/dev/urandom, a pipe)
/// or larger than the memory (a 40 GiB file of zeros). @throws InputError "cannot read checkpoint
/// '<path>': <reason>" (a folder, a missing or unreadable file: openForReading);
/// OutOfMemoryError "checkpoint '<path>': ..." when the file (or a stream without end, such as
/// /dev/zero, that begins with `magic`) exceeds the available host memory.
std::string readWholeFile(const std::string& path, const char* magic = nullptr);

/// Refuses a --checkpoint path where a file is there already that is not a checkpoint of this
/// kind (`magic`, `kind` as "flocklife life"): a checkpoint replaces its file, and a pattern, a
/// CSV or any other file named there by mistake would be lost. A new name, an empty file, a
/// device (/dev/null) and a checkpoint of this kind (the one --resume read, or an earlier run's)
/// pass. @throws InputError "--checkpoint <path>: the file there is not a <kind> checkpoint (it
/// begins 'x = 3, y = 3...'); a checkpoint replaces its file, so expected a new name or an earlier
/// <kind> checkpoint", "...: the file there is a <kind> checkpoint of another format version
/// ('FLBOID01', this build writes 'FLBOID02'), which this run would replace; give another name (or
/// remove it) to start anew", or "...: the file there cannot be read (<reason>) to check that it
/// is a <kind> checkpoint; ..." (a file of this user's without read permission).
/// `resume`: the --resume file, which passes (its own read says what is wrong with it, such as a
/// first-format checkpoint that this build does not read).
void refuseReplacingOtherFile(const std::string& path, const char magic[8], const std::string& kind,
                              const std::string& resume = std::string());

/// Refuses a --checkpoint path that holds a checkpoint of another run, given `header`, the head
/// this run's own checkpoint will have (checkpointHeader of life or boids: the magic, the position
/// this run ends at, a u64 at byte `positionAt`, little-endian, the start digest, a u64 at byte
/// `startAt`, which this check leaves to refuseReplacingAnotherStart, and the world's size and
/// rule, or the parameters and the boid count; `differs` says what those hold, "another world size
/// or rule"). Called before the start is made (a random start of 10^9 boids is not made to be
/// refused). Refused: a checkpoint of this kind past its start (position > 0) that this run does not
/// resume (`resume` names another file or none) and that is at another position (a fresh run that
/// forgot --resume replaced a run at generation 20,479 with one at 3: a new user's trial), or at
/// this run's end position with another head (a 2000x1000 world's checkpoint at generation 1000 was
/// replaced by a 64x64 run's: a tester). Passes: the --resume file, a file that is no checkpoint of
/// this kind, one shorter than `header` whose checksum does not match (a whole one is another run's:
/// a Life head's length depends on its rule), the same command again, and another run whose head differs
/// only in its start (another --seed or --pattern of the same size and rule; refuseReplacingAnotherStart
/// refuses it).
/// @throws InputError "--checkpoint <path>: holds a <kind> run at <unit> P, which this run (to <unit>
/// T, not resumed from it) would replace; continue it with --resume <path>, or give another name
/// (or remove it) to start anew" (where its checksum does not match, "... at <unit> P that --resume
/// cannot continue (its checksum does not match: the file is truncated or corrupt), which this run
/// would replace; remove it (or give another name) to start anew"), or "--checkpoint <path>: holds
/// another <kind> run at <unit> T (<differs> than this run's), which this run would replace; give
/// another name (or remove it) to start anew".
void refuseReplacingAnotherRun(const std::string& path, const std::string& kind, std::size_t positionAt,
                               std::size_t startAt, const char* unit, const std::string& header,
                               const std::string& differs, const std::string& resume);

/// After refuseReplacingAnotherRun, once this run's start is made: refuses a --checkpoint path
/// that holds a checkpoint whose head equals `header` (this run's own, as refuseReplacingAnotherRun
/// takes it, with the start digest at byte `startAt`) but for the start digest: a run of the same
/// size, rule and end position from another start (another --seed, pattern or input file), which
/// passed that check (the same parameters with another --seed replaced a run without a word: a
/// tester). The --resume file, a checkpoint at position 0 (a run's start: nothing run to keep), and
/// a file whose head differs anywhere else, pass (the first check decided those). `starts` names
/// what gives another start: "another --seed or --in", or for a resumed run the run it continues.
/// @throws InputError "--checkpoint <path>: holds another <kind> run at <unit> T,
/// from another start (<starts>), which this run would replace; give another name (or remove it)
/// to start anew".
void refuseReplacingAnotherStart(const std::string& path, const std::string& kind, std::size_t startAt,
                                 const char* unit, std::size_t positionAt, const std::string& header,
                                 const std::string& starts, const std::string& resume);

/// The first `n` bytes of the regular, non-empty file at `path` (fewer where it is shorter);
/// nullopt where there is none (no name, no file, a device, an empty file); "" where it cannot
/// be read (a non-empty file gives at least one byte), errno then saying why.
std::optional<std::string> fileHead(const std::string& path, std::size_t n);

/// Refuses an output path (`flag`: --out, a bench's --csv, --screenshot, --record) where a
/// flocklife checkpoint of either kind is: the output replaces its file, and a checkpoint's run
/// would be lost (a new user's trial for --out, a tester's for --csv).
/// @throws InputError "<flag> <path>: the file there is a flocklife <kind> checkpoint; <flag>
/// replaces its file, so expected another name (remove the checkpoint first to replace it)".
void refuseReplacingCheckpoint(const std::string& path, const char* flag);

/// `path` made absolute with its symbolic links resolved, a dangling link's target included
/// (weakly_canonical leaves a link to a file not yet made as it is), at most 40 links deep, as the
/// kernel follows them. Sets `ec` where the path cannot be examined.
std::filesystem::path resolvedPath(const std::string& path, std::error_code& ec);

/// While alive, no other flocklife run on this machine takes the same --checkpoint file (two runs
/// given one name each replaced the other's saves without a word, and the first reported success:
/// a tester's trial). The file is named by its absolute path with symbolic links resolved, a link
/// to a file not yet made included (resolvedPath; another hard link to the file is another name);
/// a device such as /dev/null is not locked. The lock is an abstract Unix socket named after a
/// hash of that path, which the kernel releases when the process ends however it ends, and which
/// leaves no file behind. Runs on other machines sharing a folder are not seen. Where sockets cannot
/// be made, nothing is locked. An empty path locks nothing.
/// @throws InputError "--checkpoint <path>: another flocklife run on this machine is saving its
///         checkpoint to this file; expected another name, or to wait until that run ends".
class CheckpointLock {
 public:
  explicit CheckpointLock(const std::string& path);
  ~CheckpointLock();
  CheckpointLock(const CheckpointLock&) = delete;
  CheckpointLock& operator=(const CheckpointLock&) = delete;

 private:
  int fd_ = -1;
};

/// The FNV-1a offset basis, 64 bit: the hash of no bytes.
inline constexpr std::uint64_t kFnv1a64Basis = 0xcbf29ce484222325ull;

/// FNV-1a, 64 bit (Fowler, Noll, Vo), over `n` bytes, continuing from `hash` (the hash of the bytes
/// before them; kFnv1a64Basis for none), so that a file can be hashed a chunk at a time.
std::uint64_t fnv1a64(const void* data, std::size_t n, std::uint64_t hash = kFnv1a64Basis);

/// The magic bytes that start each kind of flocklife checkpoint (life/checkpoint.hpp,
/// boids/checkpoint.hpp), kept here so that each module's text readers can recognise either kind
/// given in place of a pattern or a CSV and say where it goes: six letters for the kind, then two
/// digits for the format's version (02: the head holds the run's start digest; 01 did not).
inline constexpr char kLifeCheckpointMagic[8] = {'F', 'L', 'L', 'I', 'F', 'E', '0', '2'};
inline constexpr char kBoidsCheckpointMagic[8] = {'F', 'L', 'B', 'O', 'I', 'D', '0', '2'};
/// The bytes of a magic that name the checkpoint's kind, whatever its version.
inline constexpr std::size_t kCheckpointKindBytes = 6;

/// Whether `text` starts with the kind of `magic` (its first six bytes: a checkpoint of that kind in
/// any format version).
inline bool startsWithMagic(const std::string& text, const char (&magic)[8]) {
  return text.compare(0, kCheckpointKindBytes, magic, kCheckpointKindBytes) == 0;
}

/// Whether `text` starts with a checkpoint of `magic`'s kind in another format version than this
/// build's (its six kind bytes equal, its two version digits not).
inline bool otherVersionOf(const std::string& text, const char* magic) {
  return text.size() >= 8 && text.compare(0, kCheckpointKindBytes, magic, kCheckpointKindBytes) == 0 &&
         text.compare(0, 8, magic, 8) != 0;
}

/// "a flocklife life checkpoint of another format version ('FLLIFE01'), which this build does not
/// read" (boids likewise) where `text` starts with a checkpoint's kind but not this build's version,
/// else "": for the readers of patterns and CSVs, which name a checkpoint given to them and where it
/// goes, and would otherwise send a first-format one to --resume, which refuses it (a review).
inline std::string otherFormatVersion(const std::string& text) {
  for (const auto* magic : {&kLifeCheckpointMagic, &kBoidsCheckpointMagic})
    if (otherVersionOf(text, *magic))
      return std::string("a flocklife ") + (magic == &kLifeCheckpointMagic ? "life" : "boids") +
             " checkpoint of another format version ('" + printable(text.substr(0, 8)) +
             "'), which this build does not read";
  return std::string();
}

/// Builds a binary record: fixed-width little-endian integers, IEEE floats by their bits,
/// length-prefixed strings. finish() appends the FNV-1a checksum of everything before it.
class RecordWriter {
 public:
  explicit RecordWriter(const char magic[8]);
  void u8(std::uint8_t v);
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void f32(float v);
  void str(const std::string& s);
  void bytes(const std::string& s);  ///< raw, no length
  /// The bytes written so far (the magic first), without the checksum finish() appends.
  const std::string& contents() const { return buf_; }
  std::string finish();

 private:
  std::string buf_;
};

/// Reads a record built by RecordWriter. The constructor checks the magic, the length and the
/// checksum; every read checks that the bytes are there. All failures throw
/// InputError "checkpoint '<path>': <what>" (an empty file, truncated, corrupt, not a checkpoint of this kind:
/// "not a flocklife boids checkpoint (wrong magic bytes: 'FLLIFE02', expected 'FLBOID02')", the
/// bytes named where they are letters and digits; one of this kind in another format version: "a
/// flocklife boids checkpoint of another format version ('FLBOID01', this build reads 'FLBOID02');
/// resume it with the flocklife build that wrote it, or start anew").
class RecordReader {
 public:
  RecordReader(std::string data, const char magic[8], const std::string& path, const std::string& kind);
  std::uint8_t u8();
  std::uint32_t u32();
  std::uint64_t u64();
  float f32();
  std::string str(std::size_t maxLength);
  std::string bytes(std::uint64_t n);
  /// Bytes left before the checksum (to check a count against the file before allocating).
  std::uint64_t remaining() const { return end_ - pos_; }
  /// Throws unless every byte before the checksum was read.
  void expectEnd();
  [[noreturn]] void fail(const std::string& what) const;

 private:
  const unsigned char* need(std::uint64_t n);
  std::string data_, path_;
  std::size_t pos_ = 8, end_ = 0;
};

/// Sets what a second signal or a SIGPIPE that ends the process at once (InterruptFlag) says on stderr, as
/// "flocklife: <note>", about a file it leaves on purpose (a bench CSV's rows measured so far); ""
/// forgets it. One note at a time, set and cleared by one thread; a longer note than 4 KiB is not
/// kept. A process that exit() ends while a note is set (Xlib's exit when the display is lost)
/// says it too, from an atexit hook, as it removes the paths of removeOnAbruptEnd and the
/// temporary file of an OutputFile being written.
void noteOnAbruptEnd(const std::string& note);

/// Sets the paths a second signal or a SIGPIPE that ends the process at once (InterruptFlag)
/// removes first, in order: a file, else an empty folder (unlink, else rmdir); {} forgets them. At
/// most 4 paths of under 4 KiB each (others are not kept). Set and cleared by one thread; a path
/// that is not there then is passed over.
void removeOnAbruptEnd(const std::vector<std::string>& paths);

/// While alive, SIGINT, SIGTERM and SIGHUP (a closed terminal) set a flag instead of ending the
/// process (the handler stores the signal and its time, and writes one line to standard error
/// saying the run will stop); the previous handlers come back on destruction. A signal ignored when
/// the flag is made stays ignored (SIGHUP under nohup, SIGINT in a background job of a shell
/// script), as the POSIX shells and programs such as make do: the run was started not to stop on
/// it. A second signal within kInsistAfterSeconds of the first is the same request (`timeout -s
/// INT` sends it to the process and to its group) and is ignored; one later ends the process as
/// before (the user insists), after removing the temporary file of an OutputFile being written,
/// the paths of removeOnAbruptEnd, and saying the noteOnAbruptEnd. A SIGPIPE at its default action
/// (a write to a pipe whose reader left) ends the process as it would, after the same. Flags nest:
/// one made while another lives shares its handlers and its signal (a signal that arrived before it
/// is raised() at once), so that a flag held across the runs of --repeat loses no signal between the
/// runs' own flags; only the outermost starts clear and restores the previous handlers. One thread
/// makes and ends them.
class InterruptFlag {
 public:
  static constexpr double kInsistAfterSeconds = 1.0;
  InterruptFlag();
  ~InterruptFlag();
  InterruptFlag(const InterruptFlag&) = delete;
  InterruptFlag& operator=(const InterruptFlag&) = delete;
  /// True once a signal arrived; `signal()` says which.
  bool raised() const;
  int signal() const;
};

}  // namespace flocklife
