#pragma once
/// @file boids_gpu.cuh
/// Internal to the boids module (nvcc only): the Thrust-based steps, kept in their own
/// translation unit (boids_thrust.cu) because Thrust compiles slowly.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace flocklife::boids::detail {

/// Sorts d_keys[0..n) ascending and carries d_pos and d_vel (n float4 each; the boid ids ride in
/// the positions' w) along as values through a thrust::zip_iterator (thrust::sort_by_key, in
/// place). Default stream. @throws CudaError.
void thrustSortZip(std::uint32_t* d_keys, float4* d_pos, float4* d_vel, std::size_t n);

/// out[k] = in[index[k]] for k < n, for positions and velocities (thrust::gather). Default stream.
/// @throws CudaError.
void thrustGather(const std::uint32_t* d_index, const float4* d_pos, const float4* d_vel, float4* d_posOut,
                  float4* d_velOut, std::size_t n);

}  // namespace flocklife::boids::detail
