// `lut6x3`: bit per cell; each byte's next 8 cells come from two look-ups in a table of 2^18
// entries indexed by a 6x3-cell neighbourhood, each entry the next state of its 4 centre cells
// (NightElfik, "Conway's Game of Life on GPU using CUDA", lookup table). The table is built once
// on the GPU from the rule, packed 8 entries per 32-bit word (128 KiB), and every block copies it
// into shared memory, so look-ups are shared-memory reads. Blocks are persistent (as many as fit
// on the device) and stride over runs of KernelParams::cellsPerThread bytes of a row.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/life_gpu.hpp"
#include "life/row_run_kernel.cuh"

namespace flocklife::life {

namespace {

constexpr std::size_t kTableBytes = std::size_t(bits::kLut6x3PackedWords) * sizeof(std::uint32_t);

__global__ void buildLut6x3Kernel(std::uint32_t* __restrict__ table, std::uint16_t birthMask, std::uint16_t surviveMask) {
  const std::uint64_t k = globalThreadId();
  if (k < std::uint64_t(bits::kLut6x3PackedWords)) table[k] = bits::lut6x3PackedWord(std::uint32_t(k), birthMask, surviveMask);
}

__global__ void __launch_bounds__(1024) lut6x3Kernel(const std::uint8_t* __restrict__ in, std::uint8_t* __restrict__ out,
                             const std::uint32_t* __restrict__ table, std::uint64_t rowBytes, std::uint64_t pitch,
                             std::uint64_t height, int lastValid, std::uint64_t bytesPerThread,
                             std::uint64_t runsPerRow) {
  extern __shared__ uint4 s_table4[];  // kTableBytes
  const auto* g4 = reinterpret_cast<const uint4*>(table);
  for (unsigned k = threadIdx.x; k < unsigned(kTableBytes / sizeof(uint4)); k += blockDim.x) s_table4[k] = g4[k];
  __syncthreads();
  const bits::Lut6x3Eval<bits::PackedLut6x3> eval{{reinterpret_cast<const std::uint32_t*>(s_table4)}};
  const std::uint64_t runs = runsPerRow * height;
  for (std::uint64_t r = globalThreadId(); r < runs; r += gridStride()) {
    std::uint64_t y, run;
    detail::divMod(r, runsPerRow, y, run);
    const std::uint64_t i0 = run * bytesPerThread;
    const std::uint64_t i1 = i0 + bytesPerThread < rowBytes ? i0 + bytesPerThread : rowBytes;
    const std::uint64_t ym = y == 0 ? height - 1 : y - 1, yp = y + 1 == height ? 0 : y + 1;
    bits::rowRun<std::uint8_t, std::uint32_t, 1>(in + ym * pitch, in + y * pitch, in + yp * pitch, out + y * pitch,
                                                 rowBytes, lastValid, i0, i1, eval);
  }
}

class Lut6x3Engine final : public detail::GpuBitEngine {
 public:
  Lut6x3Engine(const Rule& rule, const KernelParams& p)
      : GpuBitEngine(rule, p.threadsPerBlock ? p.threadsPerBlock : 1024, p.cellsPerThread ? p.cellsPerThread : 4),
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
    const std::uint64_t rowBytes = layout_.wordsPerRow(8), bpt = std::uint64_t(cellsPerThread_);
    const std::uint64_t runsPerRow = (rowBytes + bpt - 1) / bpt, runs = runsPerRow * std::uint64_t(layout_.height);
    if (runs == 0) return;
    const std::uint64_t needed = (runs + std::uint64_t(threads_) - 1) / std::uint64_t(threads_);
    const unsigned blocks = unsigned(needed < maxBlocks_ ? needed : maxBlocks_);
    for (std::uint64_t g = 0; g < generations; ++g) {
      lut6x3Kernel<<<blocks, threads_, kTableBytes>>>(bits_.current(), bits_.next(), table_.data(), rowBytes,
                                                      layout_.pitchBytes, std::uint64_t(layout_.height),
                                                      layout_.lastValid(8), bpt, runsPerRow);
      FL_CUDA_CHECK_LAUNCH();
      bits_.flip();
    }
  }
  std::uint64_t stateBytes() const override { return GpuBitEngine::stateBytes() + kTableBytes; }
  static inline const KernelInfo kInfo{
      "lut6x3", Backend::Cuda, "bit per cell, two 6x3-cell table look-ups per byte, table in shared memory",
      "NightElfik, Conway's Game of Life on GPU using CUDA (lookup table)"};

 private:
  DeviceBuffer<std::uint32_t> table_;
  std::uint64_t maxBlocks_ = 1;
};

}  // namespace

namespace detail {
KernelEntry lut6x3Entry() {
  return {Lut6x3Engine::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> {
            return std::make_unique<Lut6x3Engine>(r, p);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
