// `lut6x3`: bit per cell; each byte's next 8 cells come from two look-ups in a table of 2^18
// entries indexed by a 6x3-cell neighbourhood, each entry the next state of its 4 centre cells
// (NightElfik, "Conway's Game of Life on GPU using CUDA", lookup table). The table is built once
// on the GPU from the rule, packed 8 entries per 32-bit word (128 KiB), and every block copies it
// into shared memory, so look-ups are shared-memory reads; blocks are persistent (as many as fit).
// Each thread owns a column of 32-bit words (4 bytes, 8 look-ups per row) and walks down
// KernelParams::cellsPerThread rows keeping three rows in registers (column_walk_kernel.cuh).
// Measured on the H200 (bench/notes/life_kernels.md), this beat the table in global memory read
// through the read-only cache (4-bit or byte entries) and byte columns.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/column_walk_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

constexpr std::size_t kTableBytes = std::size_t(bits::kLut6x3PackedWords) * sizeof(std::uint32_t);

__global__ void buildLut6x3Kernel(std::uint32_t* __restrict__ table, std::uint16_t birthMask, std::uint16_t surviveMask) {
  const std::uint64_t k = globalThreadId();
  if (k < std::uint64_t(bits::kLut6x3PackedWords)) table[k] = bits::lut6x3PackedWord(std::uint32_t(k), birthMask, surviveMask);
}

/// One generation: the packed table is copied to shared memory (kTableBytes dynamic), then the
/// block walks its column tasks.
__global__ void __launch_bounds__(1024) lut6x3Kernel(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out,
                                                     const std::uint32_t* __restrict__ table, detail::ColumnWalkShape sh) {
  extern __shared__ uint4 s_table4[];  // kTableBytes
  const auto* g4 = reinterpret_cast<const uint4*>(table);
  for (unsigned k = threadIdx.x; k < unsigned(kTableBytes / sizeof(uint4)); k += blockDim.x) s_table4[k] = g4[k];
  __syncthreads();
  const bits::Lut6x3WordEval<4, bits::PackedLut6x3> eval{{reinterpret_cast<const std::uint32_t*>(s_table4)}};
  detail::columnWalkBlock<std::uint32_t, std::uint64_t, 1>(in, out, sh, eval);
}

class Lut6x3Engine final : public detail::GpuBitEngine {
 public:
  Lut6x3Engine(const Rule& rule, const KernelParams& p)
      : GpuBitEngine(rule, p, 1024, 64),
        table_(bits::kLut6x3PackedWords, "lut6x3 kernel: 6x3 look-up table") {
    int device = 0, optin = 0;
    FL_CUDA_CHECK(cudaGetDevice(&device));
    FL_CUDA_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    if (std::size_t(optin) < kTableBytes)
      throw CudaError("lut6x3 kernel: needs " + std::to_string(kTableBytes) +
                      " bytes of shared memory per block for its table; this device allows " + std::to_string(optin));
    FL_CUDA_CHECK(cudaFuncSetAttribute(lut6x3Kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kTableBytes)));
    int perSm = 0, sms = 0;
    FL_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, lut6x3Kernel, threads_, kTableBytes));
    FL_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (perSm < 1)
      throw CudaError("lut6x3 kernel: a block of " + std::to_string(threads_) + " threads with " +
                      std::to_string(kTableBytes) + " bytes of shared memory does not fit on a multiprocessor");
    maxBlocks_ = std::uint64_t(perSm) * std::uint64_t(sms);
    table_.fillBytes(0xFF);  // poison: the build kernel must write every word
    buildLut6x3Kernel<<<blocksFor(bits::kLut6x3PackedWords, 256), 256>>>(table_.data(), rule.birthMask, rule.surviveMask);
    FL_CUDA_CHECK_LAUNCH();
  }
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(layout_.wordsPerRow(32), layout_.pitchBytes / 4, std::uint64_t(layout_.height),
                                               layout_.lastValid(32), cellsPerThread_, threads_);
    if (shape.tasks == 0) return;
    for (std::uint64_t g = 0; g < generations; ++g) {
      lut6x3Kernel<<<detail::columnWalkBlocks(shape, maxBlocks_), threads_, kTableBytes>>>(
          reinterpret_cast<const std::uint32_t*>(bits_.current()), reinterpret_cast<std::uint32_t*>(bits_.next()),
          table_.data(), shape);
      FL_CUDA_CHECK_LAUNCH();
      bits_.flip();
    }
  }
  std::uint64_t stateBytes() const override { return GpuBitEngine::stateBytes() + kTableBytes; }
  static inline const KernelInfo kInfo{
      "lut6x3", Backend::Cuda,
      "bit per cell, two 6x3-cell table look-ups per byte, table in shared memory, 32-bit word columns per thread",
      "NightElfik, Conway's Game of Life on GPU using CUDA (lookup table)"};

 private:
  DeviceBuffer<std::uint32_t> table_;
  std::uint64_t maxBlocks_ = 1;
};

}  // namespace

detail::KernelEntry detail::lut6x3Entry() { return detail::entryOf<Lut6x3Engine>(); }

}  // namespace flocklife::life
