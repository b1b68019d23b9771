#include <algorithm>

#include "common/errors.hpp"
#include "life/engine.hpp"
#include "life/life_cpu.hpp"
#ifdef FLOCKLIFE_HAVE_CUDA
#include "life/life_gpu.hpp"
#endif

namespace flocklife::life {

namespace {
const std::vector<detail::KernelEntry>& entries() {
  static const std::vector<detail::KernelEntry> all = [] {
    std::vector<detail::KernelEntry> e{detail::cpuSerialEntry(), detail::cpuParallelEntry()};
    for (auto make : {detail::cpuBitcountEntry, detail::cpuLut6x3Entry, detail::cpuBitslicedEntry}) e.push_back(make());
#ifdef FLOCKLIFE_HAVE_CUDA
    for (auto& g : detail::gpuEntries()) e.push_back(g);
#endif
    return e;
  }();
  return all;
}
}  // namespace

const std::vector<KernelInfo>& availableKernels() {
  static const std::vector<KernelInfo> infos = [] {
    std::vector<KernelInfo> v;
    for (const auto& e : entries()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

const KernelInfo& findKernel(const std::string& name) {
  for (const auto& k : availableKernels())
    if (k.name == name) return k;
  std::string known;
  for (const auto& k : availableKernels()) known += (known.empty() ? "" : ", ") + k.name;
  throw InputError("--kernel: unknown kernel '" + name + "'; available in this build: " + known);
}

std::unique_ptr<Engine> makeEngine(const std::string& name, const Rule& rule, const KernelParams& params) {
  for (const auto& e : entries())
    if (e.info.name == name) return e.make(rule, params);
  findKernel(name);  // throws the InputError listing the available kernels
  return nullptr;
}

}  // namespace flocklife::life
