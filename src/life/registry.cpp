#include <algorithm>

#include "common/errors.hpp"
#include "common/registry.hpp"
#include "common/timer.hpp"
#include "life/bit_layout.hpp"
#include "life/engine.hpp"
#include "life/life_cpu.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "life/life_gpu.hpp"
#endif

namespace flocklife::life {

namespace {
const Registry<detail::KernelEntry>& registry() {
  static const Registry<detail::KernelEntry> all(
      [] {
        std::vector<detail::KernelEntry> e{detail::cpuSerialEntry(), detail::cpuParallelEntry()};
        for (auto make : {detail::cpuBitcountEntry, detail::cpuLut6x3Entry, detail::cpuBitslicedEntry}) e.push_back(make());
#ifdef FLOCKLIFE_HAVE_CUDA
        for (auto& g : detail::gpuEntries()) e.push_back(g);
#endif
        return e;
      }(),
      "--kernel", "kernel");
  return all;
}
}  // namespace

const std::vector<KernelInfo>& availableKernels() { return registry().infos(); }

const KernelInfo& findKernel(const std::string& name) { return registry().find(name).info; }

std::uint64_t stepInPieces(Engine& engine, std::uint64_t generations, std::uint64_t& piece,
                           const std::function<bool()>& stop, bool waitShort) {
  if (!waitShort && generations < piece) {
    engine.step(generations);
    return generations;
  }
  std::uint64_t done = 0;
  while (done < generations) {
    const std::uint64_t g = std::min(piece, generations - done);
    HostTimer t;
    engine.step(g);
    engine.synchronize();
    done += g;
    // Only a whole piece tells its time: a stretch's short last piece doubled it every call, until
    // a call was one step() again (a review).
    if (g == piece && t.elapsedSeconds() < 0.1 && piece < (std::uint64_t(1) << 40)) piece *= 2;
    if (done < generations && stop()) break;
  }
  return done;
}

bool spinsCpuThreads(const std::string& name) {
  return findKernel(name).backend == Backend::Cpu && name != "cpu-serial";
}

const KernelInfo& findKernelOn(const std::string& name, const std::string& backend) {
  const KernelInfo& k = findKernel(name);
  if (!backend.empty() && backend != backendName(k.backend))
    throw InputError("--backend " + backend + " cannot run --kernel " + k.name + ", which is a " +
                     backendName(k.backend) + " kernel");
  return k;
}

std::uint64_t KernelInfo::hostStateBytes(std::int64_t width, std::int64_t height) const {
  switch (hostState) {
    case HostState::BytePerCell: return 2 * std::uint64_t(width) * std::uint64_t(height);
    case HostState::BitPerCell: return 2 * BitLayout::of(width, height).totalBytes();
    case HostState::None: break;
  }
  return 0;
}

std::unique_ptr<Engine> makeEngine(const std::string& name, const Rule& rule, const KernelParams& params) {
  return registry().find(name).make(rule, params);
}

}  // namespace flocklife::life
