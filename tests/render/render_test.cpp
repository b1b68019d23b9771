// The renderer end to end: a GL context (GLFW window under Xvfb, or EGL headless), shader
// errors, the Life view's pixels read back from the PNG it saves, the boids view's pixels inside
// the projected cube, capture, the windows' drag and key state, and on a GPU interop frames equal to
// host-upload frames.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <sys/wait.h>

#include <GLFW/glfw3.h>

#include <glm/glm.hpp>
#include <glm/gtc/type_ptr.hpp>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <chrono>
#include <thread>
#include <iterator>
#include <random>

#include "app/frame_loop.hpp"
#include "app/window_boids.hpp"
#include "app/window_boids_sim.hpp"
#include "app/window_life.hpp"
#include "common/errors.hpp"
#include "common/render/capture.hpp"
#include "common/render/gl_context.hpp"
#include "common/render/input.hpp"
#include "common/render/shader.hpp"
#include "common/render/views.hpp"
#include "cli_run.hpp"
#include "gpu_test.hpp"
#include "host_memory_limit.hpp"
#include "life/display.hpp"
#include "life/pattern.hpp"

namespace flocklife {

namespace fs = std::filesystem;

namespace {

/// A 16 x 16 window where a display exists (xvfb-run), else EGL headless.
render::ContextOptions smallContext() {
  render::ContextOptions c;
  c.width = c.height = 16;
  c.headless = !render::haveDisplay();
  return c;
}

/// Whether smallContext() opens; the reason when it does not.
bool glUsable(std::string* why) {
  static int state = -1;
  static std::string reason;
  if (state < 0) {
    try {
      render::GlContext ctx(smallContext());
      state = 1;
    } catch (const std::exception& e) {
      state = 0;
      reason = std::string("no OpenGL context (run under xvfb-run -a): ") + e.what();
    }
  }
  *why = reason;
  return state == 1;
}

#define REQUIRE_GL()                           \
  do {                                         \
    std::string why_;                          \
    if (!glUsable(&why_)) GTEST_SKIP() << why_; \
  } while (0)

fs::path tempDir() {
  const fs::path d = fs::temp_directory_path() / ("flocklife-render-test-" + std::to_string(::getpid()));
  fs::create_directories(d);
  return d;
}

/// Removes the temporary folder when the test program ends.
struct TempDirCleanup : ::testing::Environment {
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(tempDir(), ec);
  }
};
[[maybe_unused]] auto* const kCleanup = ::testing::AddGlobalTestEnvironment(new TempDirCleanup);

app::WindowOptions captureOptions(int frames, const std::string& png, const char* size) {
  app::WindowOptions o;
  o.window = true;
  o.frames = frames;
  o.screenshot = png;
  o.size = size;
  o.headless = !render::haveDisplay();
  return o;
}

std::uint32_t pixelAt(const std::vector<std::uint8_t>& rgba, int w, int x, int y) {
  const std::size_t i = (std::size_t(y) * std::size_t(w) + std::size_t(x)) * 4;
  return life::packRgba(rgba[i], rgba[i + 1], rgba[i + 2]);
}

class Interop : public test::GpuTest {};

}  // namespace

TEST(Render, ContextOpensWithOpenGL45Core) {
  REQUIRE_GL();
  render::ContextOptions c;
  c.width = 80;
  c.height = 60;
  c.headless = !render::haveDisplay();
  render::GlContext ctx(c);
  EXPECT_EQ(ctx.width(), 80);
  EXPECT_EQ(ctx.height(), 60);
  EXPECT_NE(ctx.describe().find("OpenGL 4."), std::string::npos) << ctx.describe();
  EXPECT_EQ(ctx.headless(), !render::haveDisplay());
  EXPECT_FALSE(ctx.shouldClose());
}

// --shader-dir names the files its folder lacks, whichever window runs (it said "no life.frag
// there" for a boids window too; found by a new user's trial). No GL context is needed.
TEST(Render, ShaderDirNamesTheFilesItLacks) {
  const fs::path dir = tempDir() / "half-shaders";
  fs::create_directories(dir);
  for (const char* f : {"life.vert", "life.frag"})
    fs::copy_file(fs::path(render::findShaderDir()) / f, dir / f, fs::copy_options::overwrite_existing);
  try {
    render::findShaderDir(dir.string());
    FAIL() << "a folder without points.vert and points.frag was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--shader-dir " + dir.string() + ": it lacks points.vert, points.frag; expected "
                                         "the project's shaders/ folder"),
              std::string::npos) << e.what();
  }
  EXPECT_EQ(render::findShaderDir(render::findShaderDir()), render::findShaderDir());
  // A folder that is not there, or a file, is said to be so (every file was listed as lacking).
  const std::string gone = (tempDir() / "no-such-folder").string(), file = (dir / "life.vert").string();
  for (const auto& [given, said] :
       {std::pair{gone, ": does not exist; expected"}, {file, ": is not a folder; expected"}})
    try {
      render::findShaderDir(given);
      ADD_FAILURE() << given << " was taken";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("--shader-dir " + given + said), std::string::npos) << e.what();
    }
}

TEST(Render, BrokenShaderNamesTheFileAndTheDriverLog) {
  REQUIRE_GL();
  render::GlContext ctx(smallContext());
  const fs::path dir = tempDir() / "broken-shaders";
  fs::create_directories(dir);
  fs::copy_file(fs::path(render::findShaderDir()) / "life.vert", dir / "life.vert",
                fs::copy_options::overwrite_existing);
  std::ofstream(dir / "life.frag") << "#version 450 core\nout vec4 color;\nvoid main() { color = undefinedThing; }\n";
  try {
    render::PixelView view(dir.string());
    FAIL() << "a broken shader compiled";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find((dir / "life.frag").string()), std::string::npos) << m;
    EXPECT_NE(m.find("compile failed"), std::string::npos) << m;
    EXPECT_NE(m.find("undefinedThing"), std::string::npos) << "driver log missing: " << m;
  }
  EXPECT_THROW(render::PixelView((dir / "nowhere").string()), InputError);
  // A folder in a shader file's place read as empty text: the driver's "unexpected end of file"
  // (a new user's trial).
  fs::remove(dir / "life.frag");
  fs::create_directories(dir / "life.frag");
  try {
    render::PixelView view(dir.string());
    FAIL() << "a folder was taken for a shader";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), ("shader " + (dir / "life.frag").string() + ": it is a folder; expected a GLSL shader file").c_str());
  }
}

TEST(Render, UnlinkableProgramNamesBothFiles) {
  REQUIRE_GL();
  render::GlContext ctx(smallContext());
  const fs::path dir = tempDir() / "unlinkable-shaders";
  fs::create_directories(dir);
  // Each stage compiles; the fragment stage reads an input no vertex output matches.
  std::ofstream(dir / "a.vert") << "#version 450 core\nvoid main() { gl_Position = vec4(0.0); }\n";
  std::ofstream(dir / "a.frag") << "#version 450 core\nin vec3 missingVarying;\nout vec4 color;\n"
                                   "void main() { color = vec4(missingVarying, 1.0); }\n";
  try {
    render::loadProgram(dir.string(), "a.vert", "a.frag");
    FAIL() << "a program whose stages do not match linked";
  } catch (const InputError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("shader program " + (dir / "a.vert").string() + " + " + (dir / "a.frag").string() +
                     ": link failed:\n"),
              std::string::npos)
        << m;
  }
}

TEST(LifeView, GliderAtZoomZeroGivesExactPixels) {
  REQUIRE_GL();
  life::World world(32, 32);
  for (auto [x, y] : {std::pair{6, 5}, {7, 6}, {5, 7}, {6, 7}, {7, 7}}) world.set(x, y, true);  // glider
  const std::string png = (tempDir() / "glider.png").string();
  auto o = captureOptions(1, png, "64x48");
  o.zoom = 0;
  app::runLifeWindow(o, {life::kConway, world, "cpu-serial", {}, 1, 0.5, 1, -1});
  int w = 0, h = 0;
  const auto rgba = render::loadPng(png, &w, &h);
  ASSERT_EQ(w, 64);
  ASSERT_EQ(h, 48);
  // The 32x32 world centred in 64x48 pixels: view pan (-16, -8), the torus repeats around it.
  int live = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int cx = int(life::floorMod(x - 16, 32)), cy = int(life::floorMod(y - 8, 32));
      const std::uint32_t expect =
          world.at(cx, cy) ? life::kBornRgba : (cx == 0 || cy == 0 ? life::kBorderRgba : life::kDeadRgba);
      live += world.at(cx, cy);
      ASSERT_EQ(pixelAt(rgba, w, x, y), expect) << "pixel (" << x << ", " << y << ")";
    }
  EXPECT_GT(live, 5);
}

TEST(LifeView, LaterFramesShowGenerationsAndTrails) {
  REQUIRE_GL();
  life::World world(16, 16);
  for (int x = 6; x <= 8; ++x) world.set(x, 7, true);  // horizontal blinker
  const std::string png = (tempDir() / "blinker.png").string();
  auto o = captureOptions(2, png, "16x16");
  o.zoom = 0;
  EXPECT_EQ(app::runLifeWindow(o, {life::kConway, world, "cpu-serial", {}, 1, 0.5, 1, -1}).generation, 1u);
  // A resumed world counts on from its own generation (the status line said gen 0; review).
  EXPECT_EQ(app::runLifeWindow(o, {life::kConway, world, "cpu-serial", {}, 1, 0.5, 1, -1, 1000}).generation, 1001u);
  int w = 0, h = 0;
  const auto rgba = render::loadPng(png, &w, &h);
  ASSERT_EQ(w, 16);
  // Frame 2 shows generation 1: vertical blinker; centre aged one frame, ends born, sides died.
  EXPECT_EQ(pixelAt(rgba, w, 7, 7), life::cellRgba(129, false));
  EXPECT_EQ(pixelAt(rgba, w, 7, 6), life::kBornRgba);
  EXPECT_EQ(pixelAt(rgba, w, 7, 8), life::kBornRgba);
  EXPECT_EQ(pixelAt(rgba, w, 6, 7), life::cellRgba(life::kTrailLen, false));
  EXPECT_EQ(pixelAt(rgba, w, 8, 7), life::cellRgba(life::kTrailLen, false));
}

namespace {
/// Boids stand-in: fixed random points inside the cube, coloured by position.
class FakeBoids final : public app::BoidsSource {
 public:
  explicit FakeBoids(std::int64_t n) { setNumBoids(n); }
  std::int64_t numBoids() const override { return std::int64_t(v_.size() / 6); }
  float scale() const override { return 2.f; }
  bool step(const std::function<bool()>&) override {
    ++steps;
    return true;
  }
  void reset() override { setNumBoids(numBoids()); }
  bool setMethod(int) override { return false; }
  int methodCount() const override { return 0; }
  std::string methodName() const override { return "fake"; }
  void setNumBoids(std::int64_t n) override {
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-0.95f, 0.95f);
    v_.clear();
    for (std::int64_t i = 0; i < n; ++i) {
      const float x = u(rng), y = u(rng), z = u(rng);
      v_.insert(v_.end(), {2 * x, 2 * y, 2 * z, 0.5f + x / 2, 0.5f + y / 2, 1.f});
    }
  }
  bool writesDevice() const override { return false; }
  void writeVertices(float* out, bool outIsDevice) override {
    ASSERT_FALSE(outIsDevice);
    std::copy(v_.begin(), v_.end(), out);
  }
  int steps = 0;

 private:
  std::vector<float> v_;
};
}  // namespace

TEST(BoidsView, LitPixelsLieInsideTheProjectedCube) {
  REQUIRE_GL();
  FakeBoids boids(2000);
  const std::string png = (tempDir() / "boids.png").string();
  app::runBoidsWindow(captureOptions(3, png, "160x120"), boids, -1);
  EXPECT_EQ(boids.steps, 2);  // one between frames: the first shows the start, no step after the last
  int w = 0, h = 0;
  const auto rgba = render::loadPng(png, &w, &h);
  ASSERT_EQ(w, 160);
  // Screen bounding box of the cube's 8 corners under the same camera.
  const auto m = app::orbitMvp(app::OrbitCamera{}, boids.scale(), 160.f / 120.f);
  const glm::mat4 mvp = glm::make_mat4(m.data());
  float x0 = 1e9f, x1 = -1e9f, y0 = 1e9f, y1 = -1e9f;
  for (int c = 0; c < 8; ++c) {
    const glm::vec4 p = mvp * glm::vec4(c & 1 ? 2.f : -2.f, c & 2 ? 2.f : -2.f, c & 4 ? 2.f : -2.f, 1.f);
    const float sx = (p.x / p.w * 0.5f + 0.5f) * w, sy = (0.5f - p.y / p.w * 0.5f) * h;  // top row first
    x0 = std::min(x0, sx), x1 = std::max(x1, sx), y0 = std::min(y0, sy), y1 = std::max(y1, sy);
  }
  ASSERT_GT(x1 - x0, 20.f);
  ASSERT_LT(x1 - x0, float(w));  // the whole cube is in view
  int lit = 0, blue = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint32_t p = pixelAt(rgba, w, x, y);
      if ((p & 0xFFFFFFu) == 0) continue;
      ++lit;
      blue += ((p >> 16) & 0xFF) == 255;  // boid points (the cube's edges are grey)
      EXPECT_TRUE(x >= x0 - 2 && x <= x1 + 2 && y >= y0 - 2 && y <= y1 + 2) << "lit pixel (" << x << ", " << y << ")";
    }
  EXPECT_GT(lit, 200);
  EXPECT_GT(blue, 100);
}

TEST(BoidsView, CpuSimulationStaysInsideTheCubeAndRuns) {
  REQUIRE_GL();
  boids::Params p;
  app::SimulationBoidsSource source("cpu-grid", p, {}, boids::randomState(3000, p, 3), 3);
  const std::string png = (tempDir() / "boids-sim.png").string();
  app::runBoidsWindow(captureOptions(4, png, "160x120"), source, -1);
  EXPECT_EQ(source.methodName(), "cpu-grid");
  EXPECT_FALSE(source.setMethod(99));
  int w = 0, h = 0;
  const auto rgba = render::loadPng(png, &w, &h);
  int lit = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) lit += (pixelAt(rgba, w, x, y) & 0xFFFFFFu) != 0;
  EXPECT_GT(lit, 300);
}

TEST_F(Interop, BoidsFramesThroughInteropEqualHostUploadFrames) {
  REQUIRE_GL();
  const auto dev = usableDevice();
  boids::Params p;
  const fs::path dir = tempDir();
  const std::string a = (dir / "boids-interop.png").string(), b = (dir / "boids-upload.png").string();
  auto o = captureOptions(1, a, "200x150");  // frame 1: the loaded state (a step's float sums may vary)
  {
    app::SimulationBoidsSource s("counting", p, {}, boids::randomState(20000, p, 4), 4);
    ASSERT_TRUE(s.writesDevice());
    app::runBoidsWindow(o, s, dev->index);
  }
  o.screenshot = b;
  o.noInterop = true;
  {
    app::SimulationBoidsSource s("counting", p, {}, boids::randomState(20000, p, 4), 4);
    app::runBoidsWindow(o, s, dev->index);
  }
  int wa = 0, ha = 0, wb = 0, hb = 0;
  const auto pa = render::loadPng(a, &wa, &ha), pb = render::loadPng(b, &wb, &hb);
  ASSERT_EQ(wa, wb);
  EXPECT_TRUE(pa == pb) << "boids frames through interop and through host upload differ";
}

/// A frame of another size than the recording's (the window resized or minimised during --record)
/// is cropped or padded with black, its top-left corner kept (it ended the run and lost the
/// recording: found by a review).
TEST(Capture, FramesOfAnotherSizeFitTheRecording) {
  std::vector<std::uint8_t> frame(3 * 2 * 4);
  for (std::size_t i = 0; i < frame.size(); ++i) frame[i] = std::uint8_t(i + 1);
  const auto bigger = render::fitFrame(frame, 3, 2, 4, 3);
  ASSERT_EQ(bigger.size(), 4u * 3u * 4u);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c) {
        const std::uint8_t want = x < 3 && y < 2 ? frame[std::size_t((y * 3 + x) * 4 + c)] : 0;
        EXPECT_EQ(bigger[std::size_t((y * 4 + x) * 4 + c)], want) << x << "," << y << "," << c;
      }
  const auto smaller = render::fitFrame(frame, 3, 2, 2, 1);
  EXPECT_EQ(smaller, (std::vector<std::uint8_t>(frame.begin(), frame.begin() + 8)));
  EXPECT_EQ(render::fitFrame({}, 0, 0, 2, 2), std::vector<std::uint8_t>(16, 0));  // minimised
  EXPECT_THROW(render::fitFrame(frame, 2, 2, 2, 2), std::invalid_argument);
}

/// A --screenshot of frame N is an error when the window is closed before frame N, not a run that
/// ends with status 0 and no file (found by a review).
TEST(Capture, AScreenshotNotReachedIsAnError) {
  REQUIRE_GL();
  const std::string png = (tempDir() / "never.png").string();
  app::FrameLoop loop(captureOptions(10, png, "32x32"), "screenshot test", -1);
  while (loop.running()) {
    loop.endFrame(0, "");
    if (loop.frame() == 3) loop.context().requestClose();  // as the window's close button does
  }
  try {
    loop.finish();
    FAIL() << "finish() said nothing";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--screenshot " + png + " was not saved: the window was closed after frame 3, "
                                     "before frame 10 (--frames 10)");
  }
  EXPECT_FALSE(fs::exists(png));
}

TEST(Capture, RecordsAGifAndNamesMissingFfmpeg) {
  REQUIRE_GL();
  const fs::path gif = tempDir() / "life.gif";
  fs::remove(gif);
  {
    const char* path = std::getenv("PATH");
    const std::string saved = path ? path : "";
    setenv("PATH", "/nonexistent", 1);
    try {
      render::Recorder r(gif.string(), 8, 8);
      FAIL() << "recorder started without ffmpeg";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ffmpeg not found"), std::string::npos) << e.what();
    }
    setenv("PATH", saved.c_str(), 1);
  }
  EXPECT_THROW(render::Recorder((tempDir() / "x.avi").string(), 8, 8), InputError);
  if (std::system("command -v ffmpeg > /dev/null 2>&1") != 0) GTEST_SKIP() << "ffmpeg not installed";
  // A named pipe is refused: ffmpeg would wait for its reader out of flocklife's reach (a tester).
  const fs::path pipe = tempDir() / "pipe.gif";
  fs::remove(pipe);
  ASSERT_EQ(::mkfifo(pipe.c_str(), 0600), 0);
  try {
    render::checkRecording(pipe.string());
    ADD_FAILURE() << "a named pipe was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--record " + pipe.string() +
                                         ": is a named pipe; expected a regular file (ffmpeg writes the recording)");
  }
  fs::remove(pipe);
  auto o = captureOptions(4, "", "48x32");
  o.record = gif.string();
  app::runLifeWindow(o, {life::kConway, life::World(24, 16), "cpu-serial", {}, 1, 0.5, 1, -1});
  ASSERT_TRUE(fs::exists(gif));
  std::ifstream in(gif, std::ios::binary);
  char magic[6] = {};
  in.read(magic, 6);
  EXPECT_EQ(std::string(magic, 6), "GIF89a");
}

namespace {

/// Runs `flocklife <command> --backend cpu <args> --record <gif>` in a process group of its own (setsid),
/// which `kill -INT 0` signals whole as a terminal's Ctrl-C does (the shell ignores it and reports
/// the status; flocklife starts with SIGINT at its default action, as from a terminal, since it
/// keeps one inherited as ignored), a second after the recording's temporary file appears (made as the window opens,
/// just before the handler is installed), however long the window takes to open (a review); timeout
/// bounds the whole command. Expects status 130, the run saying so and a GIF with the frames drawn.
/// Skips the calling test without GL, ffmpeg or setsid.
void expectCtrlCKeepsTheRecording(const fs::path& gif, const std::string& args, const std::string& command = "life") {
  REQUIRE_GL();  // each skip marks the calling test skipped
  if (std::system("command -v ffmpeg > /dev/null 2>&1 && command -v setsid > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "ffmpeg or setsid not installed";
  fs::remove(gif);
  const test::CliResult r = test::runCommand(
      "timeout -s KILL 60 setsid sh -c 'trap \"\" INT; env --default-signal=INT \"" + test::flocklifeExe() + "\" " +
      command + " --backend cpu " + args +
      " --record \"" + gif.string() + "\" 2>&1 & pid=$!; for i in $(seq 300); do ls \"" + gif.string() +
      "\".tmp-* >/dev/null 2>&1 && break; sleep 0.1; done; sleep 1; kill -INT 0; wait $pid; echo status $?'");
  EXPECT_NE(r.output.find("status 130"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("flocklife: interrupted by signal 2 after frame "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("; --record " + gif.string() + " holds the frames drawn"), std::string::npos) << r.output;
  // The summary's figures end at the last whole frame, and say so (they read "over the whole run").
  EXPECT_NE(r.output.find(" steps/s up to the end of the last whole frame (warm-up included; the part of a frame "
                          "the signal cut short is left out)"),
            std::string::npos)
      << r.output;
  std::ifstream in(gif, std::ios::binary);
  char magic[6] = {};
  in.read(magic, 6);
  EXPECT_EQ(std::string(magic, 6), "GIF89a");
  for (const auto& e : fs::directory_iterator(gif.parent_path()))
    EXPECT_EQ(e.path().filename().string().find(gif.filename().string() + ".tmp"), std::string::npos) << e.path();
}

}  // namespace

/// Ctrl-C during a recording ends the window like closing it: the recording is finished with the
/// frames drawn, and the run says so and exits with status 130. Before, ffmpeg stopped mid-frame,
/// flocklife died without a word and left "<path>.tmp-XXXXXX" (found by a new user's trial).
/// --frames bounds the run if the signal is lost (ffmpeg's GIF palette keeps every frame in memory).
TEST(Capture, CtrlCKeepsTheFramesRecordedSoFar) {
  expectCtrlCKeepsTheRecording(tempDir() / "interrupted.gif",
                               "--random 0.3 --size 32x18 --window-size 64x36 --frames 20000");
}

/// Ctrl-C in the middle of a frame of many generations ends it within a piece of the frame, and the
/// recording keeps the frames drawn: a frame of 3e7 generations ran on after Ctrl-C, and a second
/// one lost the recording (a tester). Here a frame of 1e9 generations would take minutes.
TEST(Capture, CtrlCEndsALongFrame) {
  expectCtrlCKeepsTheRecording(tempDir() / "long-frame.gif",
                               "--kernel cpu-serial --random 0.3 --size 32x18 --window-size 64x36 --frames 3 "
                               "--gens 1000000000");
}

/// The same for a boids window whose one step takes minutes (cpu-naive at 300,000 boids): Ctrl-C
/// abandons the step under way (the first waited for its end: a tester's trial of the CLI).
TEST(Capture, CtrlCEndsALongBoidsStep) {
  expectCtrlCKeepsTheRecording(tempDir() / "long-step.gif",
                               "--method cpu-naive --n 300000 --window-size 64x36 --frames 3", "boids");
}

/// A second signal while ffmpeg finishes a recording ends the run at once, and the run names the
/// temporary file that ffmpeg, in a session of its own, goes on writing (it ended without a word;
/// a tester's trial with a long GIF). A stand-in ffmpeg copies the frames, then takes 4 s to end.
/// SIGTERM, since a shell's background job inherits SIGINT ignored.
TEST(Capture, ASecondSignalWhileFfmpegFinishesNamesItsFile) {
  REQUIRE_GL();
  const fs::path d = tempDir() / "slow-ffmpeg";
  fs::remove_all(d);
  fs::create_directories(d);
  std::ofstream(d / "ffmpeg") << "#!/bin/sh\nfor a; do out=${a#file:}; done\ncat > \"$out\"\nsleep 4\n";
  fs::permissions(d / "ffmpeg", fs::perms::owner_all);
  const fs::path gif = d / "run.gif";
  const test::CliResult r = test::runCommand(
      "PATH='" + d.string() + "':\"$PATH\" timeout -s KILL 60 sh -c '\"" + test::flocklifeExe() +
      "\" life --backend cpu --random 0.3 --size 32x18 --window-size 64x36 --frames 20000 --record \"" +
      gif.string() + "\" 2>&1 & pid=$!; for i in $(seq 300); do ls \"" + gif.string() +
      "\".tmp-* >/dev/null 2>&1 && break; sleep 0.1; done; sleep 1; kill -TERM $pid; sleep 1.5; kill -TERM $pid; "
      "wait $pid; echo status $?'");
  EXPECT_NE(r.output.find("status 143"), std::string::npos) << r.output;
  const std::string note = "flocklife: --record " + gif.string() +
                           ": the run ended at once while ffmpeg finished the recording; it goes on writing the "
                           "frames drawn to " + gif.string() + ".tmp-";
  EXPECT_NE(r.output.find(note), std::string::npos) << r.output;
  std::this_thread::sleep_for(std::chrono::seconds(4));  // the stand-in ends
  fs::remove_all(d);
}

/// A recording that fails leaves the file that was there (ffmpeg wrote over it at once; found by a
/// review), with a stand-in ffmpeg that reads the frames and fails; one that succeeds replaces it,
/// in any letter case of the ending. No temporary file is left either way.
TEST(Capture, AFailedRecordingKeepsThePreviousFile) {
  const fs::path d = tempDir() / "fake-ffmpeg";
  fs::create_directories(d);
  const fs::path old = d / "old.GIF";
  const auto files = [&] {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  };
  const std::vector<std::uint8_t> frame(8 * 8 * 4, 255);
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  setenv("PATH", (d.string() + ":" + saved).c_str(), 1);
  // Like ffmpeg -y: opens its output (the last argument, "file:" and an absolute name) at once, then
  // reads the frames; it fails, succeeds, or exits 0 having written nothing (that empty file
  // replaced the old one: a tester's stand-in).
  for (const std::string ends : {"exit 1\n", "printf new > \"$out\"\n", "exit 0\n"}) {
    const bool works = ends.rfind("printf", 0) == 0;
    { std::ofstream(old) << "previous"; }
    std::ofstream(d / "ffmpeg") << "#!/bin/sh\nfor a; do out=${a#file:}; done\n: > \"$out\"\ncat > /dev/null\n"
                                << ends;
    fs::permissions(d / "ffmpeg", fs::perms::owner_all);
    render::Recorder r(old.string(), 8, 8);
    r.addFrame(frame);
    if (!works) {
      try {
        r.finish();
        ADD_FAILURE() << "finished: " << ends;
      } catch (const InputError& e) {
        if (ends == "exit 0\n") {
          EXPECT_NE(std::string(e.what()).find("ffmpeg exited with status 0 but wrote nothing; the file that was "
                                               "there, if any, is kept"),
                    std::string::npos)
              << e.what();
        }
      }
    } else {
      EXPECT_NO_THROW(r.finish());
    }
    std::ifstream in(old);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, works ? "new" : "previous");
    EXPECT_EQ(files(), (std::vector<std::string>{"ffmpeg", "old.GIF"}));
  }
  // An ffmpeg that exits 0 without reading the frames (found by a new user's trial: its empty
  // file replaced the old one).
  { std::ofstream(old) << "previous"; }
  { std::ofstream(d / "ffmpeg") << "#!/bin/sh\nfor a; do out=${a#file:}; done\n: > \"$out\"\nexit 0\n"; }
  fs::permissions(d / "ffmpeg", fs::perms::owner_all);
  {
    render::Recorder r(old.string(), 64, 64);
    const std::vector<std::uint8_t> big(64 * 64 * 4, 255);
    EXPECT_THROW(
        for (int i = 0; i < 1000; ++i) r.addFrame(big), InputError);  // the pipe's buffer fills, then breaks
  }
  std::ifstream kept(old);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()), "previous");
  EXPECT_EQ(files(), (std::vector<std::string>{"ffmpeg", "old.GIF"}));
  setenv("PATH", saved.c_str(), 1);
  fs::remove_all(d);
}

/// A process that exits with a recording open, as Xlib's exit(1) when the display is lost, finishes
/// it with the frames sent and says so (the recording was left under its temporary name without a
/// word: a tester's trial). Here a stand-in ffmpeg copies the frames to its output.
TEST(Capture, AnExitWithARecordingOpenFinishesIt) {
  const fs::path d = tempDir() / "exit-recording";
  fs::remove_all(d);
  fs::create_directories(d);
  std::ofstream(d / "ffmpeg") << "#!/bin/sh\nfor a; do out=${a#file:}; done\ncat > \"$out\"\n";
  fs::permissions(d / "ffmpeg", fs::perms::owner_all);
  const fs::path gif = d / "run.gif", said = d / "said.txt";
  { std::ofstream(gif) << "previous"; }
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // never returns into the test suite
    setenv("PATH", (d.string() + ":" + std::getenv("PATH")).c_str(), 1);
    std::freopen(said.c_str(), "w", stderr);
    try {
      // Never destroyed, as the frame loop's local is not when exit() ends the process.
      auto* r = new render::Recorder(gif.string(), 8, 8);
      const std::vector<std::uint8_t> frame(8 * 8 * 4, 7);
      r->addFrame(frame);
      r->addFrame(frame);
    } catch (...) {
      _exit(3);
    }
    std::exit(1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 1) << status;
  std::ifstream in(said);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("flocklife: --record " + gif.string() +
                      ": the process is ending with the recording open (the display lost?); it holds the 2 frames "
                      "drawn\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(fs::file_size(gif), 2u * 8 * 8 * 4);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"ffmpeg", "run.gif", "said.txt"}));
  fs::remove_all(d);
}

/// A relative name that reads as one of ffmpeg's protocols ("file:z.gif", "pipe:1.gif") is the file
/// of that name: ffmpeg wrote the GIF to standard output, or replaced the named file with an empty
/// one, leaving the recording under its temporary name (a tester's trial).
TEST(Capture, ARecordingNamedLikeAnFfmpegProtocolIsThatFile) {
  if (std::system("command -v ffmpeg > /dev/null 2>&1") != 0) GTEST_SKIP() << "ffmpeg not installed";
  const fs::path d = tempDir() / "protocol-names";
  fs::remove_all(d);
  fs::create_directories(d);
  const fs::path cwd = fs::current_path();
  fs::current_path(d);
  { std::ofstream("file:z.gif") << "previous"; }
  const std::vector<std::uint8_t> frame(8 * 8 * 4, 255);
  for (const char* name : {"file:z.gif", "pipe:1.gif"}) {
    render::Recorder r(name, 8, 8);
    r.addFrame(frame);
    EXPECT_NO_THROW(r.finish()) << name;
    std::ifstream in(name, std::ios::binary);
    char magic[6] = {};
    in.read(magic, 6);
    EXPECT_EQ(std::string(magic, 6), "GIF89a") << name;
  }
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(d)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"file:z.gif", "pipe:1.gif"}));
  fs::current_path(cwd);
  fs::remove_all(d);
}

/// /dev/full takes the open but fails every write (ENOSPC): a PNG or a recording that cannot be
/// written is an error, not a run that says it saved the file.
TEST(Capture, WritesThatFailAreErrors) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full on this machine";
  const std::vector<std::uint8_t> rgba(8 * 8 * 4, 255);
  try {
    render::savePng("/dev/full", rgba, 8, 8);
    FAIL() << "savePng to /dev/full succeeded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--screenshot /dev/full: write failed"), std::string::npos) << e.what();
  }
  if (std::system("command -v ffmpeg > /dev/null 2>&1") != 0) GTEST_SKIP() << "ffmpeg not installed";
  const fs::path gif = tempDir() / "full.gif";
  fs::remove(gif);
  fs::create_symlink("/dev/full", gif);
  render::Recorder r(gif.string(), 8, 8);
  r.addFrame(rgba);
  try {
    r.finish();
    FAIL() << "a recording to /dev/full finished without an error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("ffmpeg failed with exit status"), std::string::npos) << e.what();
  }
  fs::remove(gif);
  // An .mp4 fails at its header, while frames are still coming: the next frame's write meets a
  // closed pipe, which must be an error, not a SIGPIPE that ends the process.
  const fs::path mp4 = tempDir() / "full.mp4";
  fs::remove(mp4);
  fs::create_symlink("/dev/full", mp4);
  render::Recorder m(mp4.string(), 64, 64);
  const std::vector<std::uint8_t> frame(64 * 64 * 4, 128);
  std::string error;
  try {
    for (int i = 0; i < 2000; ++i) m.addFrame(frame);
    m.finish();
  } catch (const InputError& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("--record " + mp4.string() + ": ffmpeg"), std::string::npos) << error;
  fs::remove(mp4);
}

/// The boids window's + and - keys: a count out of range or beyond host memory is refused and the
/// running boids stay as they were (the error ended the window before; found by a review).
TEST(BoidsWindowSource, ACountThatCannotBeMadeKeepsTheBoids) {
  boids::Params p;
  const boids::State start = boids::randomState(100, p, 7);
  app::SimulationBoidsSource source("cpu-naive", p, {}, start, 7);
  EXPECT_TRUE(source.step({}));
  const boids::State stepped = boids::stepReference(start, p);
  EXPECT_THROW(source.setNumBoids(std::int64_t(1) << 31), InputError);
  EXPECT_EQ(source.numBoids(), 100);
  {
    const test::HostMemoryLimit limit("1000000");  // 1e6 boids need ~72 MB
    EXPECT_THROW(source.setNumBoids(1000000), OutOfMemoryError);
    // A start that fits (480 KB) beside the copies and the window's vertices that do not (1.92 MB in
    // all): refused (the + key counted only the start; a new user's trial).
    try {
      source.setNumBoids(20000);
      ADD_FAILURE() << "20000 boids were made under a limit of 1 MB";
    } catch (const OutOfMemoryError& e) {
      EXPECT_NE(std::string(e.what()).find("20000 boids: the random start and cpu-naive's copies of it and the window's "
                                           "vertices (96 bytes per boid)"),
                std::string::npos)
          << e.what();
    }
  }
  ASSERT_EQ(source.numBoids(), 100);
  std::vector<float> v(600);
  source.writeVertices(v.data(), false);
  std::vector<std::array<float, 3>> got, want;  // the stepped boids, in any order
  for (std::size_t i = 0; i < 100; ++i) {
    got.push_back({v[6 * i], v[6 * i + 1], v[6 * i + 2]});
    want.push_back({stepped.pos[i].x, stepped.pos[i].y, stepped.pos[i].z});
  }
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want);
  source.setNumBoids(200);
  EXPECT_EQ(source.numBoids(), 200);
  // Keys 1 to methodCount() pick the CPU methods; key 3 has none (its message names the count).
  EXPECT_EQ(source.methodCount(), 2);
  EXPECT_FALSE(source.setMethod(3));
  EXPECT_TRUE(source.setMethod(2));
  EXPECT_EQ(source.methodName(), "cpu-grid");
}

/// Several files dropped at once: only the first is opened, and a note says so (the others were
/// left without a word; a new user's trial).
TEST(DroppedFiles, SeveralAreNamedInANote) {
  EXPECT_EQ(render::droppedFilesNote(1, "a.rle"), "");
  EXPECT_EQ(render::droppedFilesNote(3, "a.rle"), "note: 3 files dropped; opening the first, a.rle, only");
}

/// A file dropped on the Life window: placed as Golly does, notes where it gives another rule or
/// torus; a bad file, one too large for the torus, or one beyond host memory (which ended the window
/// with status 3 before) is reported and leaves the world as it was.
TEST(LifeWindowDrop, OpensPatternsAndReportsWhatItCannot) {
  const fs::path dir = fs::temp_directory_path() / ("flocklife-drop-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto file = [&](const std::string& name, const std::string& text) {
    std::ofstream((dir / name).string()) << text;
    return (dir / name).string();
  };
  const std::string glider = file("glider.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
  app::DroppedPattern d = app::openDroppedPattern(glider, 16, 12, life::kConway);
  ASSERT_TRUE(d.world);
  life::World centred(16, 12);  // top-left at (16 / 2 - 3 / 2, 12 / 2 - 3 / 2) = (7, 5), as Golly centres it
  for (auto [x, y] : {std::pair{8, 5}, {9, 6}, {7, 7}, {8, 7}, {9, 7}}) centred.set(x, y, true);
  EXPECT_EQ(*d.world, centred);
  EXPECT_EQ(d.messages, std::vector<std::string>{"opened " + glider});

  const std::string highLife = file("rep.rle", "x = 3, y = 1, rule = B36/S23:T40,30\n3o!\n");
  d = app::openDroppedPattern(highLife, 16, 12, life::kConway);
  ASSERT_TRUE(d.world);
  EXPECT_EQ(d.world->population(), 3u);
  EXPECT_EQ(d.messages, (std::vector<std::string>{
                            "opened " + highLife,
                            "note: " + highLife + " gives the rule B36/S23; it runs under this window's B3/S23 "
                                                  "(--pattern takes the file's rule)",
                            "note: " + highLife + " gives a 40x30 torus; it runs on this window's 16x12"}));

  // Refused files: no world, and one line saying why.
  auto expectRefused = [](const std::string& path, std::int64_t w, std::int64_t h, const std::string& why) {
    const app::DroppedPattern r = app::openDroppedPattern(path, w, h, life::kConway);
    EXPECT_FALSE(r.world) << path;
    ASSERT_EQ(r.messages.size(), 1u) << path;
    EXPECT_NE(r.messages[0].find("cannot open the dropped file: " + why), std::string::npos) << r.messages[0];
  };
  const std::string wide = file("wide.rle", "x = 20, y = 1\n20o!\n");
  expectRefused(wide, 16, 12, wide + ": pattern 20x1 does not fit on the 16x12 torus");
  // 10^12 cells declared on a torus as large: refused by the host memory check, not thrown out.
  const std::string huge = file("huge.rle", "x = 1000000, y = 1000000\no!\n");
  expectRefused(huge, 1000000, 1000000, huge + ": pattern of 1000000x1000000 cells: needs");
  expectRefused((dir / "missing.rle").string(), 16, 12, "cannot read pattern file");
  fs::remove_all(dir);
}

TEST(WindowInput, DragFollowsTheLeftButtonOnly) {
  render::DragTracker drag;
  EXPECT_FALSE(drag.move(5, 5));  // no button pressed
  drag.button(GLFW_MOUSE_BUTTON_RIGHT, true, 1, 1);
  EXPECT_FALSE(drag.active());
  drag.button(GLFW_MOUSE_BUTTON_LEFT, true, 10.5, 20.25);
  auto d = drag.move(13, 19);
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->dx, 2.5);
  EXPECT_DOUBLE_EQ(d->dy, -1.25);
  d = drag.move(13.5, 19);  // from the position the last move consumed
  ASSERT_TRUE(d);
  EXPECT_DOUBLE_EQ(d->dx, 0.5);
  EXPECT_DOUBLE_EQ(d->dy, 0);
  drag.button(GLFW_MOUSE_BUTTON_LEFT, false, 14, 19);
  EXPECT_FALSE(drag.move(20, 20));
}

TEST(WindowInput, WholePixelDragCarriesTheRemainder) {
  render::DragTracker drag(true);
  drag.button(GLFW_MOUSE_BUTTON_LEFT, true, 10.75, 5.5);
  auto d = drag.move(12.25, 5.75);  // 12 - 10, 5 - 5
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dx, 2);
  EXPECT_EQ(d->dy, 0);
  d = drag.move(13.5, 7.25);  // 13 - int(12.75), 7 - int(5.5)
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dx, 1);
  EXPECT_EQ(d->dy, 2);
  d = drag.move(13.9, 7.4);  // still the same whole pixels as the consumed 13.75, 7.5
  ASSERT_TRUE(d);
  EXPECT_EQ(d->dx, 0);
  EXPECT_EQ(d->dy, 0);
}

TEST(WindowInput, PlaybackKeys) {
  render::PlaybackKeys keys;
  EXPECT_FALSE(keys.handle(GLFW_KEY_A));
  EXPECT_FALSE(keys.paused || keys.stepOnce || keys.restart || keys.quit);
  EXPECT_TRUE(keys.handle(GLFW_KEY_SPACE));
  EXPECT_TRUE(keys.paused);
  EXPECT_TRUE(keys.handle(GLFW_KEY_SPACE));
  EXPECT_FALSE(keys.paused);
  EXPECT_TRUE(keys.handle(GLFW_KEY_N));
  EXPECT_TRUE(keys.paused && keys.stepOnce);
  EXPECT_FALSE(keys.restart);
  EXPECT_TRUE(keys.handle(GLFW_KEY_R));
  EXPECT_TRUE(keys.restart);
  EXPECT_FALSE(keys.quit);
  EXPECT_TRUE(keys.handle(GLFW_KEY_ESCAPE));
  EXPECT_TRUE(keys.quit);
}

TEST(WindowOptions, BadCombinationsNameTheFlag) {
  app::WindowOptions o;
  o.frames = 3;
  EXPECT_THROW(app::validateWindowOptions(o), InputError);  // --frames without --window
  o.window = true;
  o.screenshot = "a.jpg";
  EXPECT_THROW(app::validateWindowOptions(o), InputError);
  o.screenshot = "a.png";
  o.frames = 0;
  EXPECT_THROW(app::validateWindowOptions(o), InputError);
  try {  // --frames 0 was given: the message says what N must be
    app::validateWindowOptions(o);
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "--screenshot a.png: needs --frames N with N >= 1 (the frame to save)");
  }
  o.frames = 1;
  o.size = "10by10";
  EXPECT_THROW(app::validateWindowOptions(o), InputError);
  o.size = "10x10";
  EXPECT_NO_THROW(app::validateWindowOptions(o));
  o.screenshot = "A.PNG";  // the ending in any letter case, as patterns' (found by a new user's trial)
  EXPECT_NO_THROW(app::validateWindowOptions(o));
  o.screenshot = "a.png";
  o.record = (tempDir() / "x.avi").string();  // refused here, before a window or context opens
  try {
    app::validateWindowOptions(o);
    FAIL() << "--record x.avi accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("expected a file name ending in .gif or .mp4"), std::string::npos) << e.what();
  }
  o.record = (tempDir() / "x.gif").string();  // ffmpeg missing: also refused before the run
  const char* path = std::getenv("PATH");
  const std::string saved = path ? path : "";
  setenv("PATH", "/nonexistent", 1);
  try {
    app::validateWindowOptions(o);
    ADD_FAILURE() << "--record accepted without ffmpeg";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--record " + o.record + ": ffmpeg not found"), std::string::npos) << e.what();
  }
  setenv("PATH", saved.c_str(), 1);
}

// Every GPU kernel's frames go through interop, read from its own layout with no world() through
// the host, and equal the frames of cpu-serial uploaded from the host.
TEST_F(Interop, LifeFramesOfEveryGpuKernelThroughInteropEqualHostUploadFrames) {
  REQUIRE_GL();
  const auto dev = usableDevice();
  life::World world(300, 200);
  std::mt19937_64 rng(5);
  for (auto& c : world.cells()) c = std::uint8_t(rng() % 3 == 0);
  const fs::path dir = tempDir();
  const int frames = 12;
  for (int zoom : {1, 0, -2}) {
    const std::string a = (dir / "interop.png").string(), b = (dir / "upload.png").string();
    auto o = captureOptions(frames, b, "256x160");
    o.zoom = zoom;
    const auto up = app::runLifeWindow(o, {life::kConway, world, "cpu-serial", {}, 1, 0.5, 1, -1});
    EXPECT_FALSE(up.interop);
    EXPECT_EQ(up.generation, std::uint64_t(frames - 1));
    EXPECT_GE(up.hostCopies, std::uint64_t(frames)) << "the upload path takes world() every frame";
    int wb = 0, hb = 0;
    const auto pb = render::loadPng(b, &wb, &hb);
    o.screenshot = a;
    for (const life::KernelInfo& k : life::availableKernels()) {
      if (k.backend != life::Backend::Cuda) continue;
      const auto r = app::runLifeWindow(o, {life::kConway, world, k.name, {}, 1, 0.5, 1, dev->index});
      EXPECT_TRUE(r.interop) << k.name << ": the frames did not go through interop";
      EXPECT_EQ(r.hostCopies, 0u) << k.name << ": world() was copied through the host";
      EXPECT_EQ(r.generation, std::uint64_t(frames - 1)) << k.name;
      int wa = 0, ha = 0;
      const auto pa = render::loadPng(a, &wa, &ha);
      ASSERT_EQ(wa, wb);
      ASSERT_EQ(ha, hb);
      EXPECT_TRUE(pa == pb) << k.name << " zoom " << zoom << ": interop and upload frames differ";
    }
  }
}

}  // namespace flocklife
