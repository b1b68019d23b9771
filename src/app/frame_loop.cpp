// FrameLoop (see frame_loop.hpp).
#include "app/frame_loop.hpp"

#include <cstdio>

#include "app/cli_checks.hpp"
#include "common/checkpoint_io.hpp"
#include "common/errors.hpp"
#include "common/render/shader.hpp"

namespace flocklife::app {

FrameLoop::FrameLoop(const WindowOptions& options, const std::string& title, int cudaDevice)
    : opt_(options), title_(title) {
  validateWindowOptions(options);
  noteWrittenInPlace(options.screenshot, "--screenshot");  // a link to a file, as --out says it
  noteWrittenInPlace(options.record, "--record");
  const auto [w, h] = parseWindowSize(options.size);
  render::ContextOptions c;
  c.width = w;
  c.height = h;
  c.title = title;
  c.vsync = !options.noVsync && options.frames == 0 && options.stopAfterSeconds <= 0;  // captures and benchmarks never wait for vsync
  c.headless = options.headless || !render::haveDisplay();  // validateWindowOptions: then --frames N is given
  c.cudaDevice = cudaDevice;
  ctx_ = std::make_unique<render::GlContext>(c);
  std::fprintf(stderr, "flocklife: %s\n", ctx_->describe().c_str());
  shaderDir_ = render::findShaderDir(options.shaderDir);
  if (!options.record.empty()) {
    const int w = ctx_->width(), h = ctx_->height();
    recorder_ = std::make_unique<render::Recorder>(options.record, w, h);
    recordWidth_ = w;
    recordHeight_ = h;
    if (lowerExtension(options.record) == ".mp4" && (w % 2 || h % 2))  // the recorder crops to even sides
      std::fprintf(stderr,
                   "flocklife: note: --record %s: an MP4 needs even sides, so the video is %dx%d (the frame's last "
                   "%s cropped); a .gif keeps every pixel\n",
                   options.record.c_str(), w / 2 * 2, h / 2 * 2,
                   w % 2 && h % 2 ? "column and row are" : w % 2 ? "column is" : "row is");
  }
  interrupt_ = std::make_unique<InterruptFlag>();
  runTimer_.restart();
}

bool FrameLoop::running() const {
  if (interrupt_->raised()) {
    stoppedBySignal_ = true;
    return false;
  }
  return !ctx_->shouldClose() && (opt_.frames == 0 || frame_ < opt_.frames) &&
         (opt_.stopAfterSeconds <= 0 || runTimer_.elapsedSeconds() < opt_.stopAfterSeconds);
}

void FrameLoop::endFrame(std::uint64_t steps, const std::string& status) {
  ++frame_;
  const bool last = opt_.frames > 0 && frame_ == opt_.frames;
  if (recorder_ || (last && !opt_.screenshot.empty())) {
    int w = 0, h = 0;
    const auto pixels = ctx_->readPixels(&w, &h);
    if (recorder_) {
      if (w == recordWidth_ && h == recordHeight_) {
        recorder_->addFrame(pixels);
      } else {  // the window was resized: the recording keeps its size (found by a review: it ended the run)
        if (!resizeNoted_)
          std::fprintf(stderr,
                       "flocklife: note: --record %s: the window is now %dx%d; its frames are cropped or padded to the "
                       "recording's %dx%d\n",
                       opt_.record.c_str(), w, h, recordWidth_, recordHeight_);
        resizeNoted_ = true;
        recorder_->addFrame(render::fitFrame(pixels, w, h, recordWidth_, recordHeight_));
      }
    }
    if (last && !opt_.screenshot.empty()) {
      render::savePng(opt_.screenshot, pixels, w, h);
      std::fprintf(stderr, "flocklife: saved frame %lld as %s\n", (long long)frame_, opt_.screenshot.c_str());
    }
  }
  ++titleFrames_;
  titleSteps_ += steps;
  const double s = titleTimer_.elapsedSeconds();
  if (s >= 0.5 || last) {
    fps_ = titleFrames_ / s;
    stepsPerSecond_ = double(titleSteps_) / s;
    titleFrames_ = 0;
    titleSteps_ = 0;
    titleTimer_.restart();
    char buf[128];
    std::snprintf(buf, sizeof buf, " | %.1f FPS | %.3g steps/s | ", fps_, stepsPerSecond_);
    ctx_->setTitle(title_ + buf + status);
  }
  ctx_->endFrame();
  totalSteps_ += steps;
  endSeconds_ = runTimer_.elapsedSeconds();  // the run's figures end here, not after a later step
  if (opt_.frameEndSeconds) opt_.frameEndSeconds->push_back(endSeconds_);
}

void FrameLoop::finish() {
  // One line at the end of every run, headless or in a window closed by the user: the figures
  // from the start to the end of the last frame.
  // Stopped by a signal, the work after the last whole frame (a frame of many generations cut
  // short) is left out, and said to be (it read as the whole run: a tester's trial).
  if (frame_ > 0 && endSeconds_ > 0)
    std::fprintf(stderr, "flocklife: %lld frames in %.2f s: %.1f FPS and %.3g steps/s %s\n", (long long)frame_,
                 endSeconds_, double(frame_) / endSeconds_, double(totalSteps_) / endSeconds_,
                 stoppedBySignal_ ? "up to the end of the last whole frame (warm-up included; the part of a frame "
                                    "the signal cut short is left out)"
                                  : "over the whole run (warm-up included)");
  if (recorder_) {
    // ffmpeg may take seconds to write a long GIF; a second signal meanwhile ends the run at once,
    // and ffmpeg, in a session of its own, goes on: the note names where (a tester's trial).
    struct ForgetNote {
      ~ForgetNote() { noteOnAbruptEnd(""); }
    } forget;
    if (const std::string& tmp = recorder_->temporaryName(); !tmp.empty())
      noteOnAbruptEnd("--record " + opt_.record + ": the run ended at once while ffmpeg finished the recording; it "
                      "goes on writing the frames drawn to " + tmp + ", which keeps that name");
    recorder_->finish();
    std::fprintf(stderr, "flocklife: recorded %lld frames to %s\n", (long long)frame_, opt_.record.c_str());
    recorder_.reset();
  }
  if (!stoppedBySignal_ && !opt_.screenshot.empty() && frame_ < opt_.frames)  // the window closed first
    throw InputError("--screenshot " + opt_.screenshot + " was not saved: the window was closed after frame " +
                     std::to_string(frame_) + ", before frame " + std::to_string(opt_.frames) + " (--frames " +
                     std::to_string(opt_.frames) + ")");
  if (stoppedBySignal_) {  // (a signal after the last frame, while ffmpeg finishes, cut nothing short)
    std::string kept = opt_.record.empty() ? "" : "; --record " + opt_.record + " holds the frames drawn";
    if (!opt_.screenshot.empty() && frame_ < opt_.frames)
      kept += "; --screenshot " + opt_.screenshot + " was not saved (frame " + std::to_string(opt_.frames) +
              " was not reached)";
    throw Interrupted("interrupted by signal " + std::to_string(interrupt_->signal()) + " after frame " +
                      std::to_string(frame_) + kept,
                      interrupt_->signal());
  }
}

}  // namespace flocklife::app
