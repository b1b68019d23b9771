// `bitcount32`: bit per cell; each thread walks a run of consecutive 32-bit words of a row with
// a sliding 3-word window per row and counts the neighbours of the word's 32 cells (NightElfik,
// "Conway's Game of Life on GPU using CUDA", bit counting on "big chunks"). Where the article
// counts cell by cell, the 32 counts are summed at once with bit-parallel full adders
// (bit_word.hpp); the rule is applied as masks, so any Life-like rule runs. Words per thread =
// KernelParams::cellsPerThread.
#include "life/life_gpu.hpp"
#include "life/row_run_kernel.cuh"

namespace flocklife::life {

namespace {

class Bitcount32Engine final : public detail::GpuBitEngine {
 public:
  Bitcount32Engine(const Rule& rule, const KernelParams& p)
      : GpuBitEngine(rule, p, 128, 2) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    detail::runRowRunKernel<std::uint32_t, std::uint32_t, 1>(
        bits_, layout_.wordsPerRow(32), layout_.pitchBytes / 4, std::uint64_t(layout_.height), layout_.lastValid(32),
        cellsPerThread_, threads_, bits::CountEval<std::uint32_t>{rule_.birthMask, rule_.surviveMask}, generations);
  }
  static inline const KernelInfo kInfo{
      "bitcount32", Backend::Cuda, "bit per cell, runs of 32-bit words per thread, bit-parallel neighbour counts",
      "NightElfik, Conway's Game of Life on GPU using CUDA (bit counting, big chunks)"};
};

}  // namespace

detail::KernelEntry detail::bitcount32Entry() { return detail::entryOf<Bitcount32Engine>(); }

}  // namespace flocklife::life
