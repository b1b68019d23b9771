// `cpu-bitsliced`: bit per cell in 64-bit words; the 8 neighbour planes of a word are summed
// with full and half adders into 4 count planes and the rule is applied as a boolean function
// of those planes, 64 cells per word at once (bit slicing; Oxman, Weiss and Be'ery, "Computational
// methods for Conway's game of life cellular automaton", J. Comput. Sci. 5, 2013). The interior
// words of a row form a branch-free loop the compiler vectorizes (SSE2, AVX2 or AVX-512, chosen
// at load time); rows over OpenMP threads.
#include "life/bit_word.hpp"
#include "life/cpu_bit_engine.hpp"
#include "life/life_cpu.hpp"

namespace flocklife::life {

namespace {

/// Words 1 .. n-2 of a row (neighbour bits from the adjacent words, no seam). Compiled for AVX2,
/// AVX-512 and baseline x86-64, picked at load time (GCC function multi-versioning).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
__attribute__((target_clones("avx512f", "avx2", "default")))
#endif
void interiorWords(const std::uint64_t* __restrict__ up, const std::uint64_t* __restrict__ mid,
                   const std::uint64_t* __restrict__ down, std::uint64_t* __restrict__ out, std::uint64_t n,
                   std::uint16_t birth, std::uint16_t survive) {
  for (std::uint64_t i = 1; i < n - 1; ++i) {
    const bits::RowPlanes<std::uint64_t> u{(up[i] << 1) | (up[i - 1] >> 63), up[i], (up[i] >> 1) | (up[i + 1] << 63)};
    const bits::RowPlanes<std::uint64_t> m{(mid[i] << 1) | (mid[i - 1] >> 63), mid[i], (mid[i] >> 1) | (mid[i + 1] << 63)};
    const bits::RowPlanes<std::uint64_t> d{(down[i] << 1) | (down[i - 1] >> 63), down[i],
                                           (down[i] >> 1) | (down[i + 1] << 63)};
    out[i] = bits::nextWord(u, m, d, birth, survive);
  }
}

class CpuBitsliced final : public detail::CpuBitEngine {
 public:
  using CpuBitEngine::CpuBitEngine;
  const KernelInfo& info() const override { return kInfo; }
  static inline const KernelInfo kInfo{
      "cpu-bitsliced", Backend::Cpu, "bit per cell, 64-bit words, full/half-adder count planes, OpenMP + SIMD",
      "Oxman, Weiss, Be'ery, J. Comput. Sci. 5 (2013), bit-sliced Life", KernelInfo::HostState::BitPerCell};

 protected:
  void row(const std::uint8_t* upBytes, const std::uint8_t* midBytes, const std::uint8_t* downBytes,
           std::uint8_t* outBytes) const override {
    // Rows are 8-byte aligned (pitch multiple of 8, vector<uint64_t> storage).
    const auto* up = reinterpret_cast<const std::uint64_t*>(upBytes);
    const auto* mid = reinterpret_cast<const std::uint64_t*>(midBytes);
    const auto* down = reinterpret_cast<const std::uint64_t*>(downBytes);
    auto* out = reinterpret_cast<std::uint64_t*>(outBytes);
    const std::uint64_t n = layout_.wordsPerRow(64);
    const int last = layout_.lastValid(64);
    const bits::CountEval<std::uint64_t> eval{rule_.birthMask, rule_.surviveMask};
    // Seam words (first and last) with the exact wrap; the interior without any branch.
    bits::rowRun<std::uint64_t, std::uint64_t, 1>(up, mid, down, out, n, last, 0, 1, eval);
    if (n == 1) return;
    interiorWords(up, mid, down, out, n, rule_.birthMask, rule_.surviveMask);
    bits::rowRun<std::uint64_t, std::uint64_t, 1>(up, mid, down, out, n, last, n - 1, n, eval);
  }
};

}  // namespace

detail::KernelEntry detail::cpuBitslicedEntry() { return detail::entryOf<CpuBitsliced>(); }

}  // namespace flocklife::life
