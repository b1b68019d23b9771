// `cpu-bitcount`: bit per cell, each row walked byte by byte with a sliding 3-byte window, the
// neighbour counts of the 8 cells of a byte summed bit-parallel (NightElfik, "Conway's Game of
// Life on GPU using CUDA", bit counting, CPU version); rows split over OpenMP threads.
#include "life/bit_word.hpp"
#include "life/cpu_bit_engine.hpp"
#include "life/life_cpu.hpp"

namespace flocklife::life {

namespace {

class CpuBitcount final : public detail::CpuBitEngine {
 public:
  using CpuBitEngine::CpuBitEngine;
  const KernelInfo& info() const override { return kInfo; }
  static inline const KernelInfo kInfo{
      "cpu-bitcount", Backend::Cpu, "bit per cell, rows byte by byte, bit-parallel neighbour counts, OpenMP",
      "NightElfik, Conway's Game of Life on GPU using CUDA (bit counting)", KernelInfo::HostState::BitPerCell};

 protected:
  void row(const std::uint8_t* up, const std::uint8_t* mid, const std::uint8_t* down, std::uint8_t* out) const override {
    byteRow(up, mid, down, out, bits::CountEval<std::uint32_t>{rule_.birthMask, rule_.surviveMask});
  }
};

}  // namespace

detail::KernelEntry detail::cpuBitcountEntry() { return detail::entryOf<CpuBitcount>(); }

}  // namespace flocklife::life
