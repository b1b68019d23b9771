// The GPU kernels of this build (compiled only with CUDA).
#include "life/life_gpu.hpp"

namespace flocklife::life::detail {

std::vector<KernelEntry> gpuEntries() {
  return {
      simpleEntry(),
      simpleLutEntry(),
      bitcountEntry(),
      bitcount32Entry(),
      lut6x3Entry(),
      packet64Entry(),
      tiledEntry(),
      tiledInplaceEntry(),
      fastEntry(),
  };
}

}  // namespace flocklife::life::detail
