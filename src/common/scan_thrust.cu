// thrust::exclusive_scan on device pointers: the library reference of the course report.
#include <thrust/execution_policy.h>
#include <thrust/scan.h>

#include "common/cuda_check.cuh"
#include "common/scan_detail.cuh"

namespace flocklife::scan::detail {

void scanThrust(const int* d_in, int* d_out, std::size_t n, cudaStream_t s) {
  if (n == 0) return;
  // Thrust allocates its own scratch; unsigned so that overflow wraps like the other methods.
  const auto* in = reinterpret_cast<const unsigned*>(d_in);
  thrust::exclusive_scan(thrust::cuda::par.on(s), in, in + n, reinterpret_cast<unsigned*>(d_out));
  FL_CUDA_CHECK(cudaPeekAtLastError());
}

}  // namespace flocklife::scan::detail
