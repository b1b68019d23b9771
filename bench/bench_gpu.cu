#include <vector>

#include "bench_common.hpp"
#include "bench_gpu.cuh"
#include "common/cuda_timer.cuh"
#include "common/device_buffer.cuh"

namespace flocklife::bench {

double copyBandwidthGBs(std::uint64_t bytes, int repetitions) {
  DeviceBuffer<std::uint8_t> src(bytes, "copy-bandwidth reference"), dst(bytes, "copy-bandwidth reference");
  src.fillBytes(0x5A);
  FL_CUDA_CHECK(cudaMemcpy(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));  // warm-up
  EventTimer t;
  std::vector<double> ms;
  for (int r = 0; r < repetitions; ++r) {
    t.start();
    FL_CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice));
    t.stop();
    ms.push_back(t.elapsedMs());
  }
  return 2.0 * double(bytes) / (summarize(ms).median * 1e-3) / 1e9;
}

}  // namespace flocklife::bench
