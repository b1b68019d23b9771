// `flocklife bench life`: cell updates per second of every Life kernel on random soups (density
// 0.5, rule B3/S23, torus), with parameter sweeps, ratios to `simple` and to the device-to-device
// copy bandwidth measured in the same run (GPU), or ratios to Golly's bgolly QuickLife on the same
// soup (--cpu). Timing: warm-up generations, then the median over repetitions of a host timer
// around step(gens) + synchronize().
#include "bench_life.hpp"

#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli_checks.hpp"
#include "bench_common.hpp"
#include "common/busy_cores.hpp"
#include "common/checkpoint_io.hpp"
#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/registry.hpp"
#include "common/memory.hpp"
#include "common/timer.hpp"
#include "life/engine.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "bench_gpu.cuh"
#endif

namespace flocklife::bench {

namespace {

using life::Backend;
using life::Engine;
using life::KernelParams;
using life::World;

struct LifeBenchOptions {
  bool quick = false, cpu = false, noSweep = false;
  std::vector<std::string> kernels;
  std::vector<std::int64_t> sizes;  ///< edge lengths; empty: the defaults below
  std::string csv;
  std::uint64_t gens = 0;
  int reps = 0, warmup = 0;
  std::uint64_t seed = 1;
  std::int64_t sweepSize = 0;  ///< 0: 32768, and no sweep with --quick
};

/// Random soup, density 0.5: one splitmix64 value per 64 cells (fast enough for 2^32 cells).
World soup(std::int64_t edge, std::uint64_t seed) {
  World w(edge, edge);
  std::uint8_t* c = w.cells().data();
  const std::uint64_t n = w.cellCount(), chunks = (n + 63) / 64;
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < std::int64_t(chunks); ++i) {
    std::uint64_t z = seed + std::uint64_t(i) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const std::uint64_t base = std::uint64_t(i) * 64, end = std::min<std::uint64_t>(base + 64, n);
    for (std::uint64_t k = base; k < end; ++k) c[k] = std::uint8_t((z >> (k - base)) & 1u);
  }
  return w;
}

/// soup(edge, seed) when the host has memory for it and a copy; otherwise prints "(all) <edge>
/// skipped: <why>" in a table whose kernel column is kernelColumn wide and returns nothing, so
/// that the other sizes still run (through `progress`, which clears its bar first).
std::optional<World> soupOrSkip(std::int64_t edge, std::uint64_t seed, int kernelColumn, Progress& progress) {
  try {
    requireHostMemory(2 * std::uint64_t(edge) * std::uint64_t(edge), "bench life soup");
    return soup(edge, seed);
  } catch (const OutOfMemoryError& e) {
    progress.print("%-*s %7lld skipped: %s\n", kernelColumn, "(all)", static_cast<long long>(edge), e.what());
    return std::nullopt;
  }
}

#ifdef FLOCKLIFE_HAVE_CUDA
/// (threads per block, cells per thread) settings swept per GPU kernel; {0, 0} = defaults.
std::vector<std::pair<int, int>> gpuSweep(const std::string& kernel, bool sweep) {
  std::vector<std::pair<int, int>> s{{0, 0}};
  if (!sweep) return s;
  auto grid = [&s](std::initializer_list<int> tpbs, std::initializer_list<int> cpts) {
    for (int t : tpbs)
      for (int c : cpts) s.push_back({t, c});
  };
  if (kernel == "simple" || kernel == "simple-lut") grid({128, 256, 512}, {4, 16, 64});
  else if (kernel == "bitcount") grid({64, 128, 256, 512}, {1, 2, 4, 8, 16, 32});
  else if (kernel == "bitcount32") grid({64, 128, 256, 512}, {1, 2, 4, 8});
  else if (kernel == "lut6x3") grid({512, 1024}, {4, 16, 64});
  else if (kernel == "packet64") grid({128, 256, 512}, {4, 16, 64});
  else if (kernel == "tiled" || kernel == "tiled-inplace") grid({128, 256, 512, 1024}, {1, 2, 4, 8});
  return s;
}
#endif

/// Bytes of state a generation reads plus writes: the two buffers of a ping-pong engine; cells and
/// staging, each read and written, for the single-buffer tiled-inplace.
double bytesMovedPerGeneration(const Engine& e) {
  return e.info().name == "tiled-inplace" ? 2.0 * double(e.stateBytes()) : double(e.stateBytes());
}

struct Timing {
  Stats msPerGen;
  double cellsPerSecond = 0;
};

/// Loads `world`, runs `warmup` generations, then `reps` timed runs of `gens` generations, each
/// after progress->check() (a signal stops the sweep there) where `progress` is given (not for a
/// reference run before the configuration's tick(), which check() would name wrongly).
Timing timeEngine(Engine& e, const World& world, std::uint64_t gens, int reps, int warmup,
                  const Progress* progress = nullptr) {
  e.load(world);
  e.step(std::uint64_t(warmup));
  e.synchronize();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    if (progress) progress->check();
    HostTimer t;
    e.step(gens);
    e.synchronize();
    ms.push_back(t.elapsedMs() / double(gens));
  }
  Timing out;
  out.msPerGen = summarize(ms);
  out.cellsPerSecond = double(world.cellCount()) / (out.msPerGen.median * 1e-3);
  return out;
}

std::string defaultCsv(const char* mode) {
  return "out/bench/life_" + std::string(mode) + ".csv";
}

const std::vector<std::string> kCsvColumns{"kernel", "backend", "width", "height", "threads_per_block", "cells_per_thread",
                                           "generations", "repetitions", "median_ms_per_gen", "min_ms_per_gen",
                                           "max_ms_per_gen", "cell_updates_per_s", "ratio_to_simple", "state_bytes",
                                           "bytes_moved_per_gen", "copy_bandwidth_gbs", "fraction_of_copy_bandwidth",
                                           "ratio_to_bgolly"};

void runGpu(const LifeBenchOptions& o) {
#ifndef FLOCKLIFE_HAVE_CUDA
  (void)o;
  throw InputError("bench life: this build has no CUDA; use --cpu for the CPU kernels");
#else
  std::vector<std::string> kernels = o.kernels;
  if (kernels.empty())
    for (const auto& k : life::availableKernels())
      if (k.backend == Backend::Cuda) kernels.push_back(k.name);
  for (const auto& k : kernels)  // the GPU table's rows say cuda and compare with the GPU's copy bandwidth
    if (life::findKernel(k).backend != Backend::Cuda)
      throw InputError("--kernels " + k + ": a CPU kernel; add --cpu to time the CPU kernels (beside bgolly)");
  const std::vector<std::int64_t> sizes = !o.sizes.empty() ? o.sizes
                                          : o.quick        ? std::vector<std::int64_t>{4096, 32768}
                                                           : std::vector<std::int64_t>{1024, 2048, 4096, 8192, 16384, 32768, 65536};
  if (o.sweepSize > 0 && std::find(sizes.begin(), sizes.end(), o.sweepSize) == sizes.end())
    throw InputError("--sweep-size " + std::to_string(o.sweepSize) +
                     ": not one of the sizes timed; expected one of --sizes (the sweep runs at one of them)");
  std::string why;
  if (!usableDevice(&why)) throw InputError("bench life: " + why + "; use --cpu for the CPU kernels");
  const std::uint64_t gens = o.gens ? o.gens : (o.quick ? 20 : 50);
  const int reps = o.reps ? o.reps : (o.quick ? 3 : 5), warmup = o.warmup >= 0 ? o.warmup : 5;
  const bool sweep = !o.noSweep && (!o.quick || o.sweepSize > 0);  // --quick sweeps only at a given --sweep-size
  const std::int64_t sweepSize = o.sweepSize > 0 ? o.sweepSize : 32768;
  CsvWriter csv(o.csv.empty() ? defaultCsv("gpu") : o.csv, kCsvColumns);  // a bad --csv fails before the table
  const double copyGBs = copyBandwidthGBs(std::uint64_t(1) << 30);
  std::printf("bench life (GPU): %s, commit %s; copy bandwidth %.0f GB/s (read + write, 1 GiB D2D)\n",
              machineInfo().gpu.c_str(), machineInfo().commit.c_str(), copyGBs);
  std::printf("%-14s %7s %5s %5s %10s %12s %9s %9s %10s\n", "kernel", "size", "tpb", "cpt", "ms/gen", "Gcells/s",
              "x simple", "copy-bw", "state MiB");
  std::size_t total = 0;
  for (std::int64_t edge : sizes)
    for (const auto& k : kernels) total += gpuSweep(k, sweep && edge == sweepSize).size();
  Progress progress(total);
  bool memorySkipped = false;  // a configuration skipped for memory (printCsvOrRefuseEmpty)
  for (std::int64_t edge : sizes) {
    std::optional<World> made = soupOrSkip(edge, o.seed, 14, progress);
    if (!made) {
      memorySkipped = true;
      continue;
    }
    World& world = *made;
    double simpleRate = 0;
    {
      auto ref = life::makeEngine("simple", life::kConway);
      try {
        simpleRate = timeEngine(*ref, world, gens, reps, warmup).cellsPerSecond;
      } catch (const OutOfMemoryError&) {
        simpleRate = 0;  // the reference does not fit; ratios are left empty
      }
    }
    for (const auto& k : kernels)
      for (const auto& [tpb, cpt] : gpuSweep(k, sweep && edge == sweepSize)) {
        KernelParams p;
        p.threadsPerBlock = tpb;
        p.cellsPerThread = cpt;
        const std::string label = k + " " + std::to_string(edge) + "^2 tpb " + std::to_string(tpb) + " cpt " + std::to_string(cpt);
        progress.tick(label);
        try {
          auto e = life::makeEngine(k, life::kConway, p);
          const Timing t = timeEngine(*e, world, gens, reps, warmup, &progress);
          const double moved = bytesMovedPerGeneration(*e);
          const double fraction = moved / (t.msPerGen.median * 1e-3) / 1e9 / copyGBs;
          const double vsSimple = simpleRate > 0 ? t.cellsPerSecond / simpleRate : 0;
          progress.print("%-14s %7lld %5d %5d %10.4f %12.1f %9.2f %9.3f %10.1f\n", k.c_str(), static_cast<long long>(edge), tpb,
                      cpt, t.msPerGen.median, t.cellsPerSecond / 1e9, vsSimple, fraction,
                      double(e->stateBytes()) / (1 << 20));
          csv.row({k, "cuda", std::to_string(edge), std::to_string(edge), std::to_string(tpb), std::to_string(cpt),
                   std::to_string(gens), std::to_string(reps), fmt(t.msPerGen.median, kCsvDigits), fmt(t.msPerGen.min, kCsvDigits),
                   fmt(t.msPerGen.max, kCsvDigits), fmt(t.cellsPerSecond, kCsvDigits), simpleRate > 0 ? fmt(vsSimple) : "",
                   std::to_string(e->stateBytes()), fmt(moved, 8), fmt(copyGBs), fmt(fraction), ""});
        } catch (const OutOfMemoryError& err) {
          progress.print("%-14s %7lld %5d %5d skipped: %s\n", k.c_str(), static_cast<long long>(edge), tpb, cpt, err.what());
          memorySkipped = true;
        } catch (const std::invalid_argument& err) {
          progress.print("%-14s %7lld %5d %5d skipped: %s\n", k.c_str(), static_cast<long long>(edge), tpb, cpt, err.what());
        }
      }
  }
  progress.done();
  printCsvOrRefuseEmpty(csv, csv.rows() > 0, memorySkipped);
#endif
}

/// Writes `w` as an RLE file for Golly with a bounded torus of the world's size.
void writeRle(const World& w, const std::string& path, const std::string& rule) {
  OutputFile file(path, "bench life --cpu: the soup for bgolly");
  std::ostream& out = file.stream();
  out << "x = " << w.width() << ", y = " << w.height() << ", rule = " << rule << ":T" << w.width() << "," << w.height()
      << "\n";
  std::string line;
  auto emit = [&](std::int64_t n, char tag) {
    if (n == 0) return;
    std::string tok = (n > 1 ? std::to_string(n) : std::string()) + tag;
    if (line.size() + tok.size() > 70) {
      out << line << "\n";
      line.clear();
    }
    line += tok;
  };
  for (std::int64_t y = 0; y < w.height(); ++y) {
    std::int64_t x = 0;
    while (x < w.width()) {
      const std::uint8_t v = w.at(x, y);
      std::int64_t run = 1;
      while (x + run < w.width() && w.at(x + run, y) == v) ++run;
      // Trailing dead cells of a row are implied by '$'.
      if (v || x + run < w.width()) emit(run, v ? 'o' : 'b');
      x += run;
    }
    emit(1, y + 1 == w.height() ? '!' : '$');
  }
  out << line << "\n";
  file.commit();
}

/// Runs `bgolly args...` (found on PATH) with its output discarded and waits for it. Returns ""
/// when it exited with status 0, else why not: "bgolly was not found on PATH; ...", "bgolly could not be
/// started: <error>" (a script without a #! line), "bgolly exited with status N" or "bgolly was
/// ended by signal N" (the row said only "missing or failed").
/// @throws Interrupted "interrupted by signal S while bgolly ran" when SIGINT, SIGTERM or SIGHUP
/// reached flocklife meanwhile (bgolly is then sent SIGTERM, and SIGKILL 2 s later if it lives on;
/// std::system ignored SIGINT in flocklife while its child ran, so a `kill -INT` of flocklife alone
/// was lost, and SIGTERM waited for bgolly's end: a new user's trial), or when SIGINT, SIGQUIT,
/// SIGTERM or SIGHUP ended bgolly itself (a terminal's Ctrl-C or Ctrl-\ reaches both: bgolly stays
/// in flocklife's process group); "... before bgolly ran" when the signal came before it started.
std::string runBgolly(const std::vector<std::string>& args) {
  const InterruptFlag interrupt;  // the sweep's own (Progress), shared
  if (interrupt.raised())
    throw Interrupted("interrupted by signal " + std::to_string(interrupt.signal()) + " before bgolly ran",
                      interrupt.signal());
  // An inherited SIGCHLD of SIG_IGN would have bgolly reaped unseen: waited for as a child here.
  struct sigaction childDefault {}, childBefore {};
  childDefault.sa_handler = SIG_DFL;
  sigemptyset(&childDefault.sa_mask);
  ::sigaction(SIGCHLD, &childDefault, &childBefore);
  struct RestoreChild {
    const struct sigaction& before;
    ~RestoreChild() { ::sigaction(SIGCHLD, &before, nullptr); }
  } restoreChild{childBefore};
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&files, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> argv;
  const std::string name = "bgolly";
  argv.push_back(const_cast<char*>(name.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, name.c_str(), &files, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&files);
  if (spawned == ENOENT) return "bgolly was not found on PATH; Debian package golly";
  if (spawned != 0) return "bgolly could not be started: " + std::string(std::strerror(spawned));
  // Its end wakes poll() at once (a pidfd; without one, a 1 ms sleep in turn with waitid); the
  // timeout bounds the wait for a signal that came between the check and poll(). waitid's WNOWAIT
  // leaves it unreaped, so that its id stays its own while it may be signalled.
  const int exited = int(::syscall(SYS_pidfd_open, pid, 0));
  double termSentAt = -1;  // seconds after the spawn, or -1
  HostTimer sinceSpawn;
  for (;;) {
    if (interrupt.raised() && termSentAt < 0) {
      ::kill(pid, SIGTERM);
      termSentAt = sinceSpawn.elapsedSeconds();
    }
    if (termSentAt >= 0 && sinceSpawn.elapsedSeconds() - termSentAt > 2.0) ::kill(pid, SIGKILL);
    siginfo_t info{};
    const int r = ::waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT);
    if ((r == 0 && info.si_pid == pid) || (r < 0 && errno != EINTR)) break;
    pollfd end{exited, POLLIN, 0};  // fd -1: poll() only sleeps
    ::poll(&end, 1, exited >= 0 ? 100 : 1);
  }
  if (exited >= 0) ::close(exited);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return "bgolly's end could not be waited for: " + std::string(std::strerror(errno));
  int sig = interrupt.raised() ? interrupt.signal() : 0;
  if (!sig && WIFSIGNALED(status) &&
      (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT || WTERMSIG(status) == SIGTERM ||
       WTERMSIG(status) == SIGHUP))
    sig = WTERMSIG(status);
  if (sig) throw Interrupted("interrupted by signal " + std::to_string(sig) + " while bgolly ran", sig);
  if (WIFSIGNALED(status)) return "bgolly was ended by signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0) return "bgolly exited with status " + std::to_string(WEXITSTATUS(status));
  return "";
}

/// bgolly's time for a bench life --cpu row: seconds > 0 when measured, else notMeasured says why.
struct BgollyTime {
  double seconds = 0;
  std::string notMeasured;
  int runs = 0;  ///< runs made with the generations (as many without), for the CSV's repetitions
};

/// Median wall time of `bgolly -a QuickLife -m gens` on `rlePath` minus that of a 0-generation
/// run (loading the file), over max(reps, 3) runs of each. Not measured when a run fails
/// (runBgolly's reason), or when the difference is not more than twice the runs' noise: the
/// larger of the two sets' median - minimum (a slow run, the usual outlier, moves neither much).
/// On a busy machine the difference of two medians of a few milliseconds gave 2.9e-05 ms per
/// generation, 1,000 times bgolly's speed, and every kernel's "x bgolly" with it (a new user's
/// trial); with one run of each there was no noise to compare with (a review). @throws Interrupted
/// as runBgolly.
BgollyTime bgollySeconds(const std::string& rlePath, std::uint64_t gens, int reps) {
  std::string failed;
  int runs = 0;  // completed runs with the generations
  auto run = [&](std::uint64_t g) {
    std::vector<double> s;
    for (int r = 0; r < std::max(reps, 3) && failed.empty(); ++r) {
      HostTimer t;
      failed = runBgolly({"-q", "-q", "-a", "QuickLife", "-m", std::to_string(g), rlePath});
      s.push_back(t.elapsedSeconds());
      if (g == gens && failed.empty()) ++runs;
    }
    return summarize(s);
  };
  const Stats full = run(gens);
  const Stats load = failed.empty() ? run(0) : Stats{};
  if (!failed.empty()) return {0, failed, runs};
  const double difference = full.median - load.median;
  const double noise = std::max(full.median - full.min, load.median - load.min);
  char why[200];
  if (difference <= 0) {
    std::snprintf(why, sizeof why, "its %llu generations took no longer than loading the soup; give more --gens",
                  static_cast<unsigned long long>(gens));
    return {0, why, runs};
  }
  if (difference <= 2 * noise) {
    std::snprintf(why, sizeof why,
                  "its %llu generations took %.3g ms more than loading the soup, within twice the runs' noise of "
                  "%.3g ms; give more --gens",
                  static_cast<unsigned long long>(gens), difference * 1e3, noise * 1e3);
    return {0, why, runs};
  }
  return {difference, "", runs};
}

void runCpu(const LifeBenchOptions& o) {
  std::vector<std::string> kernels = o.kernels;
  if (kernels.empty())
    for (const auto& k : life::availableKernels())
      if (k.backend == Backend::Cpu && k.name != "cpu-serial") kernels.push_back(k.name);
  std::string why;
  for (const auto& k : kernels)  // a GPU kernel in the CPU table: refused before bgolly runs
    if (life::findKernel(k).backend == Backend::Cuda && !usableDevice(&why))
      throw InputError("--kernels " + k + ": a GPU kernel, which the --cpu table times beside the CPU kernels only "
                       "with a CUDA device: " + why);
  const std::vector<std::int64_t> sizes = !o.sizes.empty() ? o.sizes
                                          : o.quick        ? std::vector<std::int64_t>{1024, 4096}
                                                           : std::vector<std::int64_t>{1024, 2048, 4096};
  const std::uint64_t gens = o.gens ? o.gens : (o.quick ? 50 : 200);
  const int reps = o.reps ? o.reps : 3, warmup = o.warmup >= 0 ? o.warmup : 2;
  const int threads = omp_get_max_threads();
  CsvWriter csv(o.csv.empty() ? defaultCsv("cpu") : o.csv, kCsvColumns);  // a bad --csv fails before the table
  // A busy machine's rows mislead: 0.93 and 11.7 ms/gen in two runs (a new user's trial). Not
  // where only cpu-serial runs: it has no OpenMP threads to spin (nor has bgolly).
  if (std::any_of(kernels.begin(), kernels.end(), life::spinsCpuThreads))
    noteIfCoresBusy();
  std::printf("bench life --cpu: %s, %d thread%s, commit %s\n", machineInfo().cpu.c_str(), threads,
              threads == 1 ? "" : "s", machineInfo().commit.c_str());
  const char* const kGolly = "bgolly-quicklife";  // one name on the console and in the CSV
  std::printf("%-16s %7s %10s %12s %9s\n", "kernel", "size", "ms/gen", "Gcells/s", "x bgolly");
  // A private folder for the soup bgolly reads (a fixed name in /tmp could be a planted link).
  std::string dir = (std::filesystem::temp_directory_path() / "flocklife_soup_XXXXXX").string();
  if (!::mkdtemp(dir.data())) throw InputError("bench life --cpu: cannot make a folder for bgolly's soup: " + std::string(std::strerror(errno)));
  const std::string rle = dir + "/soup.rle";
  struct RemoveFolder {  // also when a run throws
    std::string path;
    ~RemoveFolder() {
      removeOnAbruptEnd({});
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } removeDir{dir};
  removeOnAbruptEnd({rle, dir});  // and when a second Ctrl-C ends the run at once (it was left; a tester's trial)
  Progress progress(sizes.size() * (kernels.size() + 1));  // bgolly and each kernel, at each size
  bool memorySkipped = false;  // a configuration skipped for memory (printCsvOrRefuseEmpty)
  bool measured = false;       // a row of bgolly or a kernel holds a time
  for (std::int64_t edge : sizes) {
    std::optional<World> made = soupOrSkip(edge, o.seed, 16, progress);
    if (!made) {
      memorySkipped = true;
      continue;
    }
    World& world = *made;
    progress.tick(std::string(kGolly) + " " + std::to_string(edge) + "^2");
    writeRle(world, rle, "B3/S23");
    const BgollyTime bgolly = bgollySeconds(rle, gens, reps);
    const double golly = bgolly.seconds;
    measured = measured || golly > 0;
    std::filesystem::remove(rle);
    const double gollyRate = golly > 0 ? double(world.cellCount()) * double(gens) / golly : 0;
    if (golly > 0)
      progress.print("%-16s %7lld %10.4f %12.3f %9.2f\n", kGolly, static_cast<long long>(edge), golly * 1e3 / double(gens),
                  gollyRate / 1e9, 1.0);
    else
      progress.print("%-16s %7lld not measured (%s)\n", kGolly, static_cast<long long>(edge), bgolly.notMeasured.c_str());
    // Its repetitions: the runs completed with the generations (at least 3 where it was measured,
    // even at --reps 1; as many were made without).
    csv.row({kGolly, "cpu", std::to_string(edge), std::to_string(edge), "", "", std::to_string(gens),
             std::to_string(bgolly.runs), golly > 0 ? fmt(golly * 1e3 / double(gens), kCsvDigits) : "", "", "",
             golly > 0 ? fmt(gollyRate, kCsvDigits) : "", "", "", "", "", "", golly > 0 ? "1" : ""});
    for (const auto& k : kernels) {
      progress.tick(k + " " + std::to_string(edge) + "^2");
      auto e = life::makeEngine(k, life::kConway);
      Timing t;
      try {
        t = timeEngine(*e, world, gens, reps, warmup, &progress);
      } catch (const OutOfMemoryError& err) {
        progress.print("%-16s %7lld skipped: %s\n", k.c_str(), static_cast<long long>(edge), err.what());
        memorySkipped = true;
        continue;
      }
      const double vsGolly = gollyRate > 0 ? t.cellsPerSecond / gollyRate : 0;
      char ratio[32] = "-";  // bgolly not measured
      if (gollyRate > 0) std::snprintf(ratio, sizeof ratio, "%.2f", vsGolly);
      progress.print("%-16s %7lld %10.4f %12.3f %9s\n", k.c_str(), static_cast<long long>(edge), t.msPerGen.median,
                  t.cellsPerSecond / 1e9, ratio);
      const bool onCuda = life::findKernel(k).backend == Backend::Cuda;  // a GPU kernel beside the CPU ones
      measured = true;
      csv.row({k, onCuda ? "cuda" : "cpu", std::to_string(edge), std::to_string(edge), "", "", std::to_string(gens), std::to_string(reps),
               fmt(t.msPerGen.median, kCsvDigits), fmt(t.msPerGen.min, kCsvDigits), fmt(t.msPerGen.max, kCsvDigits), fmt(t.cellsPerSecond, kCsvDigits), "",
               std::to_string(e->stateBytes()), fmt(bytesMovedPerGeneration(*e), 8), "", "",
               gollyRate > 0 ? fmt(vsGolly) : ""});
    }
  }
  progress.done();
  printCsvOrRefuseEmpty(csv, measured, memorySkipped);
}

}  // namespace

void addLifeBenchCommand(CLI::App& bench) {
  auto o = std::make_shared<LifeBenchOptions>();
  o->warmup = -1;
  auto* cmd = bench.add_subcommand("life", "Life kernels: cell updates per second on random soups (B3/S23, torus)");
  cmd->add_flag("--quick", o->quick, "short run (GPU: 4096^2 and 32768^2, defaults only unless --sweep-size is given; CPU: "
                "1024^2 and 4096^2); --sizes, --gens and --reps, when given, override these");
  cmd->add_flag("--cpu", o->cpu, "time the CPU kernels and bgolly -a QuickLife on the same soup");
  cmd->add_flag("--no-sweep", o->noSweep, "GPU: defaults only, no threads-per-block / cells-per-thread sweep");
  cmd->add_option("--sweep-size", o->sweepSize, "GPU: the edge length at which parameters are swept (other sizes: defaults; "
                  "default 32768, none with --quick unless given)")->check(app::integerIn(1, 1 << 20));
  cmd->add_option("--kernels", o->kernels, "comma-separated kernel names (default: every GPU kernel, or every CPU kernel but cpu-serial with --cpu)")
      ->delimiter(',')
      ->check(app::nonEmpty("a kernel name"));
  cmd->add_option("--sizes", o->sizes, "comma-separated edge lengths N of N x N tori (default GPU 1024..65536, CPU 1024..4096)")
      ->delimiter(',')
      ->check(app::integerIn(1, 1 << 20));
  cmd->add_option("--gens", o->gens, "generations per timed repetition (default GPU 50, CPU 200; --quick 20 / 50)")->check(app::integerIn(1, 9223372036854775807LL));
  cmd->add_option("--reps", o->reps, "timed repetitions; the median is reported (default GPU 5, CPU 3; --quick 3)")->check(app::integerIn(1, 1000));
  cmd->add_option("--warmup", o->warmup, "untimed generations before timing (default GPU 5, CPU 2)")->check(app::integerIn(0, 100000));
  cmd->add_option("--seed", o->seed, "soup seed")->check(app::kNonNegativeInteger);
  cmd->add_option("--csv", o->csv, "CSV output path (default out/bench/life_gpu.csv or life_cpu.csv)")
      ->check(app::kFileName);
  cmd->callback([o] {
    if (o->cpu && (o->noSweep || o->sweepSize > 0))
      throw InputError(std::string(o->noSweep ? "--no-sweep" : "--sweep-size") +
                       " applies to the GPU table only; the CPU table times each kernel at its defaults (drop it or --cpu)");
    if (o->noSweep && o->sweepSize > 0) throw InputError("--sweep-size and --no-sweep exclude each other; give one");
    for (const auto& k : o->kernels)  // before any run
      requireKnownName(life::availableKernels(), k, "--kernels", "kernel");
    o->cpu ? runCpu(*o) : runGpu(*o);
  });
}

}  // namespace flocklife::bench
