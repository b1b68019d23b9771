// Issue 8, seventeenth round: a scratch probe (not part of the build; compiled here with
//   nvcc -O3 -std=c++17 --generate-code=arch=compute_90,code=sm_90 boids_round17_atomics_probe.cu -o atom
// and run on the H200 in call 1, bench/results/tuning/boids_round17_2026-12-02.txt) of how fast scattered float
// atomics are, for a pairs-once (Newton's third law) neighbour walk that adds each accepted pair to the other boid's
// sums in global memory (boids_round17_pairs_once_model.py): 1M threads, 32 pairs each (about half of ~65
// neighbours), the other boid within WINDOW slots of the thread's own, as in a cell-sorted array. Best of 5 launches.
// Output (H200, driver 580.159.04, 2026-12-02):
//   window     4096 slots, 10 x atomicAdd(float) : 3.232 ms for 34 M pairs (10.4 G pairs/s, 103.8 G float adds/s); per 1M boids x 32.5 pairs: 3.283 ms
//   window     4096 slots, 3 x atomicAdd(float4): 0.961 ms for 34 M pairs (34.9 G pairs/s, 349.1 G float adds/s); per 1M boids x 32.5 pairs: 0.976 ms
//   window    65536 slots, 10 x atomicAdd(float) : 3.197 ms for 34 M pairs (10.5 G pairs/s, 104.9 G float adds/s); per 1M boids x 32.5 pairs: 3.247 ms
//   window    65536 slots, 3 x atomicAdd(float4): 0.957 ms for 34 M pairs (35.1 G pairs/s, 350.7 G float adds/s); per 1M boids x 32.5 pairs: 0.972 ms
//   window  1048576 slots, 10 x atomicAdd(float) : 3.281 ms for 34 M pairs (10.2 G pairs/s, 102.3 G float adds/s); per 1M boids x 32.5 pairs: 3.332 ms
//   window  1048576 slots, 3 x atomicAdd(float4): 1.033 ms for 34 M pairs (32.5 G pairs/s, 324.7 G float adds/s); per 1M boids x 32.5 pairs: 1.050 ms
//   no error
#include <cstdio>
#include <cuda_runtime.h>
__device__ unsigned hashu(unsigned x) { x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; x ^= x >> 16; return x; }
// kVec 1: ten scalar atomicAdd per pair (RED.E.ADD.F32); kVec 4: three float4 atomicAdd per pair (sm_90).
template <int kVec>
__global__ void pairs(float* sums, unsigned nBoids, unsigned pairsPerThread, unsigned window) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned self = t % nBoids;
  for (unsigned k = 0; k < pairsPerThread; ++k) {
    // the other boid: near self in sorted order (within `window` slots), as neighbours in a cell-sorted array are
    const unsigned j = (self + hashu(t * 131 + k) % window) % nBoids;
    const float v = 1e-3f * float(k & 7);
    if constexpr (kVec == 1) {
      float* s = sums + 12ull * j;
#pragma unroll
      for (int c = 0; c < 10; ++c) atomicAdd(s + c, v);
    } else {
      float4* s = reinterpret_cast<float4*>(sums + 12ull * j);
      atomicAdd(s + 0, make_float4(v, v, v, 1.f));
      atomicAdd(s + 1, make_float4(v, v, v, 0.f));
      atomicAdd(s + 2, make_float4(v, v, v, 0.f));
    }
  }
}
int main() {
  const unsigned n = 1u << 20, threads = n, per = 32;  // 1M boids, 32 accepted pairs each (half of ~65)
  float* sums;
  cudaMalloc(&sums, 12ull * n * sizeof(float));
  cudaMemset(sums, 0, 12ull * n * sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a); cudaEventCreate(&b);
  for (unsigned window : {1u << 12, 1u << 16, 1u << 20}) {
    for (int vec : {1, 4}) {
      float best = 1e30f;
      for (int rep = 0; rep < 5; ++rep) {
        cudaEventRecord(a);
        if (vec == 1) pairs<1><<<threads / 256, 256>>>(sums, n, per, window);
        else pairs<4><<<threads / 256, 256>>>(sums, n, per, window);
        cudaEventRecord(b);
        cudaEventSynchronize(b);
        float ms; cudaEventElapsedTime(&ms, a, b);
        if (ms < best) best = ms;
      }
      const double pairsTotal = double(threads) * per;
      std::printf("window %8u slots, %s: %.3f ms for %.0f M pairs (%.1f G pairs/s, %.1f G float adds/s); per 1M boids x 32.5 pairs: %.3f ms\n",
                  window, vec == 1 ? "10 x atomicAdd(float) " : "3 x atomicAdd(float4)", best, pairsTotal / 1e6,
                  pairsTotal / best / 1e6, pairsTotal * 10 / best / 1e6, best * 32.5 / per);
    }
  }
  cudaError_t e = cudaGetLastError();
  std::printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
