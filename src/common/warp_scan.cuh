#pragma once
/// @file warp_scan.cuh
/// Device building block of the scans, for any module's kernels: the inclusive scan of values held
/// one per lane of a full warp (Hillis and Steele 1986, "Data parallel algorithms": log2(32) = 5
/// steps, each lane adding the value 2^k lanes below it, by register shuffles). Empty outside
/// CUDA compilation, so that host-compiled files may include headers that include it.
#include <cuda_runtime.h>

#ifdef __CUDACC__
namespace flocklife::scan {

/// Inclusive warp scans of K independent unsigned values at once (K shuffles per step, good ILP):
/// on return v[k] of lane l is the sum (modulo 2^32) of v[k] over lanes 0..l. Every lane of the
/// full warp must call it, `lane` its index 0-31.
template <int K>
__device__ __forceinline__ void warpInclusiveScan(unsigned (&v)[K], int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const unsigned t = __shfl_up_sync(0xffffffffu, v[k], o);
      if (lane >= o) v[k] += t;
    }
  }
}

}  // namespace flocklife::scan
#endif  // __CUDACC__
