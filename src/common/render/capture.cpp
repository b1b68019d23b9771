// PNG through stb_image_write / stb_image (Debian libstb-dev), video through an ffmpeg pipe.
#include "common/render/capture.hpp"

#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STB_IMAGE_WRITE_STATIC
#include <stb_image_write.h>
#define STB_IMAGE_IMPLEMENTATION
#define STB_IMAGE_STATIC
#define STBI_ONLY_PNG
#include <stb_image.h>

namespace flocklife::render {

void savePng(const std::string& path, const std::vector<std::uint8_t>& rgba, int width, int height) {
  if (rgba.size() != std::size_t(width) * std::size_t(height) * 4)
    throw std::invalid_argument("savePng: pixel count does not match the size");
  // stbi_write_png ignores failed writes; encode through a callback and check the stream instead.
  OutputFile file(path, "--screenshot");
  const auto write = [](void* context, void* data, int size) {
    static_cast<std::ostream*>(context)->write(static_cast<const char*>(data), size);
  };
  if (!stbi_write_png_to_func(write, &file.stream(), width, height, 4, rgba.data(), width * 4))
    throw InputError("--screenshot " + path + ": cannot encode the PNG");
  file.commit();
}

std::vector<std::uint8_t> loadPng(const std::string& path, int* width, int* height) {
  int channels = 0;
  unsigned char* p = stbi_load(path.c_str(), width, height, &channels, 4);
  if (!p) throw InputError(path + ": cannot read as PNG (" + stbi_failure_reason() + ")");
  std::vector<std::uint8_t> out(p, p + std::size_t(*width) * std::size_t(*height) * 4);
  stbi_image_free(p);
  return out;
}

namespace {
bool onPath(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    std::error_code ec;
    if (!dir.empty() && std::filesystem::exists(std::filesystem::path(dir) / program, ec)) return true;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return false;
}

/// Runs f with SIGPIPE blocked in this thread and then discards a SIGPIPE that f raised (a write to
/// the pipe after ffmpeg exited), so that the failed write's result reports it instead of the
/// signal ending the process. SIGPIPE from a write is sent to the writing thread.
template <class F>
auto withoutSigpipe(F&& f) {
  sigset_t pipe, old, pending;
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &old);
  sigpending(&pending);
  const bool wasPending = sigismember(&pending, SIGPIPE);
  const auto result = f();
  sigpending(&pending);
  if (!wasPending && sigismember(&pending, SIGPIPE)) {
    const timespec zero{0, 0};
    sigtimedwait(&pipe, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return result;
}

/// Whether `setsid -w` runs here (util-linux's setsid; busybox's has no -w), asked once.
bool setsidWaits() {
  static const bool works = std::system("setsid -w true > /dev/null 2>&1") == 0;
  return works;
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}
}  // namespace

void checkRecording(const std::string& path) {
  const std::string ext = lowerExtension(path);
  if (ext != ".gif" && ext != ".mp4")
    throw InputError("--record " + path + ": expected a file name ending in .gif or .mp4");
  if (!onPath("ffmpeg"))
    throw InputError("--record " + path + ": ffmpeg not found on PATH (install Debian's ffmpeg package)");
  // ffmpeg would wait in open() for a reader of a named pipe, out of flocklife's reach (its own
  // session), and outlive a flocklife that a signal ended (found by a tester).
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode))
    throw InputError("--record " + path + ": is a named pipe; expected a regular file (ffmpeg writes the recording)");
}

namespace {
Recorder* gOpenRecording = nullptr;  // the recording an exit() would leave (one at a time)
}  // namespace

/// The atexit hook (Recorder's docstring).
void finishOpenRecording() {
  Recorder* r = gOpenRecording;
  if (!r || !r->pipe_) return;
  gOpenRecording = nullptr;
  const long long frames = r->frames_;
  try {
    r->close(true);
    std::fprintf(stderr,
                 "flocklife: --record %s: the process is ending with the recording open (the display lost?); it "
                 "holds the %lld frames drawn\n",
                 r->path_.c_str(), frames);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "flocklife: the process is ending with the recording open (the display lost?): %s\n",
                 e.what());
  }
}

Recorder::Recorder(const std::string& path, int width, int height, int framesPerSecond)
    : path_(path), width_(width), height_(height) {
  checkRecording(path);
  const bool gif = lowerExtension(path) == ".gif";
  const std::string filter = gif ? "-vf 'split[a][b];[a]palettegen[p];[b][p]paletteuse'"
                                 : "-vf 'crop=trunc(iw/2)*2:trunc(ih/2)*2:0:0' -pix_fmt yuv420p";
  tmp_ = makeTemporaryBeside(path, "--record");  // "" where the file is written in place (a link, a device)
  // -xerror: ffmpeg 5.1 otherwise exits 0 when writing the file fails (a full disk). The format
  // is named (-f), since the temporary file's name has no extension.
  // In a session of its own (setsid, util-linux), so that Ctrl-C in the terminal reaches flocklife
  // only: the frame loop then ends the recording with the frames drawn instead of ffmpeg stopping
  // mid-frame. (-w: wait for ffmpeg where setsid has to fork.)
  // The output through ffmpeg's file protocol, by its absolute name: a relative name such as
  // "file:z.gif" or "pipe:1.gif" was read as a protocol, and ffmpeg wrote elsewhere (a tester).
  const std::string output = "file:" + std::filesystem::absolute(tmp_.empty() ? path : tmp_).string();
  const std::string cmd = std::string(setsidWaits() ? "exec setsid -w " : "exec ") +
                          "ffmpeg -hide_banner -loglevel error -xerror -y -f rawvideo -pix_fmt rgba -s " +
                          std::to_string(width) + "x" + std::to_string(height) + " -r " +
                          std::to_string(framesPerSecond) + " -i - " + filter + " -f " + (gif ? "gif" : "mp4") + " " +
                          shellQuote(output);
  pipe_ = popen(cmd.c_str(), "w");
  if (!pipe_) {
    if (!tmp_.empty()) ::unlink(tmp_.c_str());
    throw InputError("--record " + path + ": cannot start ffmpeg");
  }
  static const bool hooked = std::atexit(finishOpenRecording) == 0;
  if (hooked) gOpenRecording = this;
}

Recorder::~Recorder() {  // finish() was not called: an abandoned recording (an error in the frame loop)
  if (gOpenRecording == this) gOpenRecording = nullptr;
  if (!pipe_) return;
  withoutSigpipe([&] { return pclose(pipe_); });
  if (!tmp_.empty()) {
    ::unlink(tmp_.c_str());
    std::fprintf(stderr, "flocklife: warning: --record %s: the recording stopped early; the file that was there, if any, is kept\n",
                 path_.c_str());
  }
}

std::vector<std::uint8_t> fitFrame(const std::vector<std::uint8_t>& rgba, int w, int h, int toW, int toH) {
  if (w < 0 || h < 0 || rgba.size() != std::size_t(w) * std::size_t(h) * 4)
    throw std::invalid_argument("fitFrame: the frame does not hold w x h pixels");
  std::vector<std::uint8_t> out(std::size_t(toW) * std::size_t(toH) * 4, 0);
  const std::size_t row = std::size_t(std::min(w, toW)) * 4;
  for (int y = 0; y < std::min(h, toH); ++y)
    std::copy_n(rgba.data() + std::size_t(y) * std::size_t(w) * 4, row, out.data() + std::size_t(y) * std::size_t(toW) * 4);
  return out;
}

void Recorder::addFrame(const std::vector<std::uint8_t>& rgba) {
  if (rgba.size() != std::size_t(width_) * std::size_t(height_) * 4)
    throw std::invalid_argument("Recorder::addFrame: frame size differs from the first frame");
  if (withoutSigpipe([&] { return std::fwrite(rgba.data(), 1, rgba.size(), pipe_); }) != rgba.size())
    close(false);  // throws: with ffmpeg's exit status where it failed (a full disk)
  ++frames_;
}

void Recorder::finish() { close(true); }

void Recorder::close(bool complete) {
  if (gOpenRecording == this) gOpenRecording = nullptr;
  if (!pipe_) return;
  const int status = withoutSigpipe([&] { return pclose(pipe_); });  // pclose flushes the last frame
  pipe_ = nullptr;
  std::string problem;
  if (status == -1)
    problem = std::string("cannot wait for ffmpeg: ") + std::strerror(errno);
  else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
    problem = "ffmpeg failed with exit status " + std::to_string(WEXITSTATUS(status)) + " (its message is above)";
  else if (WIFSIGNALED(status))
    problem = "ffmpeg was killed by signal " + std::to_string(WTERMSIG(status));
  else if (!complete)
    problem = "ffmpeg stopped reading frames";
  else if (struct stat st {}; ::stat((tmp_.empty() ? path_ : tmp_).c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
                               st.st_size == 0)  // it exited 0 having written nothing (a tester's stand-in)
    problem = "ffmpeg exited with status 0 but wrote nothing";
  else if (!tmp_.empty() && ::rename(tmp_.c_str(), path_.c_str()) != 0)
    problem = std::string("cannot move the recording into place: ") + std::strerror(errno);
  else {
    tmp_.clear();  // renamed, or written in place
    return;
  }
  const bool replaced = tmp_.empty();  // written in place: what is there is the incomplete recording
  if (!replaced) ::unlink(tmp_.c_str());
  tmp_.clear();
  throw InputError("--record " + path_ + ": " + problem +
                   (replaced ? "; the file is incomplete" : "; the file that was there, if any, is kept"));
}

}  // namespace flocklife::render
