// `cpu-lut6x3`: bit per cell; each byte's 8 cells come from two look-ups in a 2^18-entry table
// indexed by 6x3 cells (NightElfik, "Conway's Game of Life on GPU using CUDA", lookup table: the
// article's best CPU method). One byte per table entry (256 KiB); rows over OpenMP threads.
#include "life/bit_word.hpp"
#include "life/cpu_bit_engine.hpp"
#include "life/life_cpu.hpp"

namespace flocklife::life {

namespace {

class CpuLut6x3 final : public detail::CpuBitEngine {
 public:
  CpuLut6x3(const Rule& rule, const KernelParams& params) : CpuBitEngine(rule, params), table_(bits::kLut6x3Entries) {
#pragma omp parallel for schedule(static)
    for (int i = 0; i < bits::kLut6x3Entries; ++i)
      table_[std::size_t(i)] = bits::lut6x3Entry(std::uint32_t(i), rule.birthMask, rule.surviveMask);
  }
  const KernelInfo& info() const override { return kInfo; }
  std::uint64_t stateBytes() const override { return CpuBitEngine::stateBytes() + table_.size(); }
  static inline const KernelInfo kInfo{
      "cpu-lut6x3", Backend::Cpu, "bit per cell, two 6x3-cell table look-ups per byte, OpenMP",
      "NightElfik, Conway's Game of Life on GPU using CUDA (lookup table)", KernelInfo::HostState::BitPerCell};

 protected:
  void row(const std::uint8_t* up, const std::uint8_t* mid, const std::uint8_t* down, std::uint8_t* out) const override {
    const std::uint8_t* t = table_.data();
    auto lookup = [t](std::uint32_t index) { return t[index]; };
    byteRow(up, mid, down, out, bits::Lut6x3Eval<decltype(lookup)>{lookup});
  }

 private:
  std::vector<std::uint8_t> table_;
};

}  // namespace

detail::KernelEntry detail::cpuLut6x3Entry() { return detail::entryOf<CpuLut6x3>(); }

}  // namespace flocklife::life
