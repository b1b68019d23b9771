// The GPU kernels of this build (compiled only with CUDA).
#include "life/life_gpu.hpp"

namespace flocklife::life::detail {

std::vector<KernelEntry> gpuEntries() {
  return {
      simpleEntry(),
      fastEntry(),
  };
}

}  // namespace flocklife::life::detail
