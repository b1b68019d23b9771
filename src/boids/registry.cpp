// The methods of this build, selectable by name.
#include "boids/boids_internal.hpp"
#include "common/errors.hpp"

namespace flocklife::boids {

namespace {
const std::vector<detail::MethodEntry>& entries() {
  static const std::vector<detail::MethodEntry> all = [] {
    std::vector<detail::MethodEntry> e = detail::cpuEntries();
#ifdef FLOCKLIFE_HAVE_CUDA
    for (auto& g : detail::gpuEntries()) e.push_back(g);
#endif
    return e;
  }();
  return all;
}
}  // namespace

const std::vector<MethodInfo>& availableMethods() {
  static const std::vector<MethodInfo> infos = [] {
    std::vector<MethodInfo> v;
    for (const auto& e : entries()) v.push_back(e.info);
    return v;
  }();
  return infos;
}

std::unique_ptr<Simulation> makeSimulation(const std::string& name, const Params& params, const Tuning& tuning) {
  validate(params);
  validate(tuning);
  for (const auto& e : entries())
    if (e.info.name == name) return e.make(params, tuning);
  std::string known;
  for (const auto& e : entries()) known += (known.empty() ? "" : ", ") + e.info.name;
  throw InputError("--method: unknown method '" + name + "'; available in this build: " + known);
}

}  // namespace flocklife::boids
