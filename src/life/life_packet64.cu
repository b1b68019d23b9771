// `packet64`: packet coding (Cagigas-Muñiz, Diaz-del-Rio, Sevillano-Ramos, Guisado-Lizar,
// "Efficient simulation execution of cellular automata on GPU", Simulation Modelling Practice and
// Theory 118, 2022, sec. 5.2): 8 cells of one byte each in a 64-bit "supercell", read and written
// as whole words. The 8 neighbour bytes are summed lane by lane and the rule is applied as masks
// on the sum's bit planes (bit_word.hpp). Rows are padded to whole words; the seam is rebuilt
// explicitly. Each thread owns one word column and walks down KernelParams::cellsPerThread rows
// keeping three rows' words in registers (column_walk_kernel.cuh): one coalesced 64-bit load of
// the new row per step plus its two neighbours from L1.
#include <cstdint>

#include "life/byte_engine.cuh"
#include "life/column_walk_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

class Packet64Engine final : public detail::GpuByteEngine {
 public:
  Packet64Engine(const Rule& rule, const KernelParams& p)
      : GpuByteEngine(rule, p, 128, 64, detail::ByteCells{8, true}) {}
  const KernelInfo& info() const override { return kInfo; }
  void step(std::uint64_t generations) override {
    const std::uint64_t wordsPerRow = pitch_ / 8;
    const auto shape = detail::columnWalkShape(wordsPerRow, wordsPerRow, std::uint64_t(height_),
                                               int(width_ - std::int64_t(wordsPerRow - 1) * 8), cellsPerThread_, threads_);
    detail::runColumnWalk<std::uint64_t, std::uint64_t, 8>(cells_, shape, threads_,
                                                           bits::PacketEval{rule_.birthMask, rule_.surviveMask}, generations);
  }

  static inline const KernelInfo kInfo{
      "packet64", Backend::Cuda, "byte per cell, 8 cells per 64-bit word (packet coding), lane-wise sums, column strips per thread",
      "Cagigas-Muniz et al., Simulation Modelling Practice and Theory 118 (2022), sec. 5.2"};
};

}  // namespace

detail::KernelEntry detail::packet64Entry() { return detail::entryOf<Packet64Engine>(); }

}  // namespace flocklife::life
