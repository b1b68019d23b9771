// Thrust steps of the `coherent-zip` method and the thrust::gather option of `coherent-gather`.
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/gather.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/sort.h>
#include <thrust/system/cuda/execution_policy.h>
#include <thrust/tuple.h>

#include "boids/boids_gpu.cuh"
#include "common/cuda_check.cuh"

namespace flocklife::boids::detail {

void thrustSortZip(std::uint32_t* d_keys, float4* d_pos, float4* d_vel, std::size_t n) {
  if (n == 0) return;
  auto values = thrust::make_zip_iterator(
      thrust::make_tuple(thrust::device_pointer_cast(d_pos), thrust::device_pointer_cast(d_vel)));
  thrust::sort_by_key(thrust::cuda::par, thrust::device_pointer_cast(d_keys), thrust::device_pointer_cast(d_keys) + n,
                      values);
  FL_CUDA_CHECK_LAUNCH();
}

void thrustGather(const std::uint32_t* d_index, const float4* d_pos, const float4* d_vel, float4* d_posOut,
                  float4* d_velOut, std::size_t n) {
  if (n == 0) return;
  const auto first = thrust::device_pointer_cast(d_index), last = first + n;
  thrust::gather(thrust::cuda::par, first, last, thrust::device_pointer_cast(d_pos), thrust::device_pointer_cast(d_posOut));
  thrust::gather(thrust::cuda::par, first, last, thrust::device_pointer_cast(d_vel), thrust::device_pointer_cast(d_velOut));
  FL_CUDA_CHECK_LAUNCH();
}

}  // namespace flocklife::boids::detail
