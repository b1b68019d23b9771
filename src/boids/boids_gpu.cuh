#pragma once
/// @file boids_gpu.cuh
/// Internal to the boids module (nvcc only): the Thrust-based steps, kept in their own
/// translation unit (boids_thrust.cu) because Thrust compiles slowly.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace flocklife::boids::detail {

/// Sorts d_keys[0..n) ascending and carries d_pos, d_vel and d_ids along as values through a
/// thrust::zip_iterator (thrust::sort_by_key, in place). Default stream. @throws CudaError.
void thrustSortZip(std::uint32_t* d_keys, float4* d_pos, float4* d_vel, std::uint32_t* d_ids, std::size_t n);

/// out[k] = in[index[k]] for k < n, for the three arrays (thrust::gather). Default stream.
void thrustGather(const std::uint32_t* d_index, const float4* d_pos, const float4* d_vel, const std::uint32_t* d_ids,
                  float4* d_posOut, float4* d_velOut, std::uint32_t* d_idsOut, std::size_t n);

}  // namespace flocklife::boids::detail
