// `bitcount`: bit per cell; each thread walks a run of consecutive bytes of a row with a sliding
// 3-byte window per row and counts the neighbours of the byte's 8 cells (NightElfik, "Conway's
// Game of Life on GPU using CUDA", bit counting). Where the article counts cell by cell, the 8
// counts are summed at once with bit-parallel full adders (bit_word.hpp); the rule is applied
// as masks, so any Life-like rule runs. Bytes per thread = KernelParams::cellsPerThread.
#include "life/life_gpu.hpp"
#include "life/row_run_kernel.cuh"

namespace flocklife::life {

namespace {

class BitcountEngine final : public detail::GpuBitEngine {
 public:
  BitcountEngine(const Rule& rule, const KernelParams& p)
      : GpuBitEngine(rule, p, 128, 8) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    detail::runRowRunKernel<std::uint8_t, std::uint32_t, 1>(
        bits_, layout_.wordsPerRow(8), layout_.pitchBytes, std::uint64_t(layout_.height), layout_.lastValid(8),
        cellsPerThread_, threads_, bits::CountEval<std::uint32_t>{rule_.birthMask, rule_.surviveMask}, generations);
  }
  static inline const KernelInfo kInfo{
      "bitcount", Backend::Cuda, "bit per cell, runs of bytes per thread, bit-parallel neighbour counts",
      "NightElfik, Conway's Game of Life on GPU using CUDA (bit counting)"};
};

}  // namespace

detail::KernelEntry detail::bitcountEntry() { return detail::entryOf<BitcountEngine>(); }

}  // namespace flocklife::life
