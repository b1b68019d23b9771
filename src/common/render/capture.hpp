#pragma once
/// @file capture.hpp
/// Saving frames: one PNG (stb_image_write), or a GIF / MP4 by piping raw RGBA frames into
/// ffmpeg (which must be on PATH).
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace flocklife::render {

/// Writes width x height RGBA8 pixels (top row first) to `path` as PNG, through an OutputFile
/// (common/checkpoint_io.hpp): an existing file is replaced only once the new one is complete.
/// @throws InputError("--screenshot <path>: ...") when the file cannot be written.
void savePng(const std::string& path, const std::vector<std::uint8_t>& rgba, int width, int height);

/// Reads a PNG back as RGBA8, top row first (for tests). @throws InputError naming the file.
std::vector<std::uint8_t> loadPng(const std::string& path, int* width, int* height);

/// Checks, before a run starts, what Recorder(path, ...) would refuse at once.
/// @throws InputError("--record <path>: ...") when the name does not end in .gif or .mp4, when
/// ffmpeg is not on PATH, or when `path` is a named pipe (ffmpeg would wait for its reader).
void checkRecording(const std::string& path);

/// `rgba` (w x h RGBA8, rows top down) cropped or padded with black to `toW` x `toH`, its top-left
/// corner kept: a window resized (or minimised, 0 x 0) during --record still gives frames of the
/// recording's size. @throws std::invalid_argument when `rgba` does not hold w x h pixels.
std::vector<std::uint8_t> fitFrame(const std::vector<std::uint8_t>& rgba, int w, int h, int toW, int toH);

/// Frames in, a .gif or .mp4 out (ffmpeg). All frames must have the size given at construction.
/// ffmpeg writes a temporary file beside `path` (makeTemporaryBeside), renamed over `path` when it
/// succeeds and removed when it fails, so that a failed recording leaves the file that was there;
/// a symbolic link or a device is written in place. ffmpeg runs in a session of its own (setsid,
/// where installed), so that a terminal's Ctrl-C reaches only flocklife, whose frame loop then
/// finishes the recording; a signal that ends the process while recording can leave the temporary
/// "<path>.tmp-XXXXXX" behind. ffmpeg is given "file:" and the file's absolute path, so that a name
/// such as "file:z.gif" or "pipe:1.gif" is that file, not one of ffmpeg's protocols. A process
/// that exits (std::exit) while a recording is open, outside the frame loop's own ends, finishes
/// it with the frames sent, through an atexit hook: Xlib ends the process with exit(1) when the
/// display is lost, which left the recording under its temporary name without a word (a tester's
/// trial). The hook says on stderr "flocklife: --record <path>: the process is ending with the
/// recording open (the display lost?); it holds the N frames drawn", or why it could not. One
/// recording at a time is so finished.
class Recorder {
 public:
  /// Starts ffmpeg. @throws InputError("--record <path>: ...") as checkRecording(path) does, or
  /// when ffmpeg cannot be started.
  Recorder(const std::string& path, int width, int height, int framesPerSecond = 30);
  /// Without finish() (an error in the frame loop): stops ffmpeg and removes the temporary file,
  /// so that the file that was there stays; a recording written in place stays as it is.
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Sends one width x height RGBA8 frame (top row first) to ffmpeg. std::invalid_argument for a
  /// frame of another size; InputError "--record <path>: ffmpeg ..." (its exit status where it
  /// failed) when ffmpeg no longer reads frames, a full disk for instance: SIGPIPE is blocked
  /// around the write, so a closed pipe is this error, not the end of the process.
  void addFrame(const std::vector<std::uint8_t>& rgba);
  /// Closes the pipe and waits for ffmpeg. @throws InputError when ffmpeg failed, or exited 0
  /// having written nothing ("ffmpeg exited with status 0 but wrote nothing").
  void finish();
  /// The temporary file ffmpeg writes until finish() renames it over the target ("" where the
  /// recording is written in place).
  const std::string& temporaryName() const { return tmp_; }

 private:
  /// Closes the pipe, waits for ffmpeg and, where it succeeded and `complete` (every frame was
  /// sent), renames the temporary file over the target; otherwise removes it and throws
  /// InputError "--record <path>: <what went wrong>; the file that was there, if any, is kept".
  void close(bool complete);
  std::string path_;
  std::string tmp_;  ///< where ffmpeg writes until finish() renames it to path_ ("" when in place)
  int width_, height_;
  std::FILE* pipe_ = nullptr;
  long long frames_ = 0;  ///< frames sent
  friend void finishOpenRecording();
};

}  // namespace flocklife::render
