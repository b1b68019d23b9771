// The methods of this build, selectable by name.
#include "boids/boids_internal.hpp"
#include "common/registry.hpp"

namespace flocklife::boids {

namespace {
const Registry<detail::MethodEntry>& registry() {
  static const Registry<detail::MethodEntry> all(
      [] {
        std::vector<detail::MethodEntry> e = detail::cpuEntries();
#ifdef FLOCKLIFE_HAVE_CUDA
        for (auto& g : detail::gpuEntries()) e.push_back(g);
#endif
        return e;
      }(),
      "--method", "method");
  return all;
}
}  // namespace

const std::vector<MethodInfo>& availableMethods() { return registry().infos(); }

const MethodInfo& findMethod(const std::string& name) { return registry().find(name).info; }

std::unique_ptr<Simulation> makeSimulation(const std::string& name, const Params& params, const Tuning& tuning) {
  validate(params);
  validate(tuning);
  return registry().find(name).make(params, tuning);
}

}  // namespace flocklife::boids
