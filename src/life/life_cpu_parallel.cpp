// `cpu-parallel`: the byte-per-cell Moore-neighbourhood count of cpu-serial, rows split over
// OpenMP threads, with the torus wrap handled only at the first and last column of a row.
#include <omp.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "life/cpu_byte_engine.hpp"
#include "life/life_cpu.hpp"

namespace flocklife::life {

namespace {

/// One generation on the torus; rows in parallel. Same neighbour counting as cpu-serial
/// (on tori narrower or shorter than 3, a cell appearing several times is counted each time).
/// Per row: the interior counts in a branch-free loop the compiler vectorises (bytes, <= 8),
/// the two edge columns with the wrap, then the rule from an 18-entry table.
void generationParallel(const World& in, World& out, const Rule& rule, int threads) {
  const std::int64_t w = in.width(), h = in.height();
  const std::uint8_t* src = in.cells().data();
  std::uint8_t* dst = out.cells().data();
  std::uint8_t table[18];  // table[9 * alive + neighbours]
  for (int alive = 0; alive < 2; ++alive)
    for (int n = 0; n <= 8; ++n) table[9 * alive + n] = std::uint8_t(rule.next(alive, n));
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::uint8_t> count(std::size_t(w), 0);
#pragma omp for schedule(static)
    for (std::int64_t y = 0; y < h; ++y) {
      const std::uint8_t* up = src + ((y + h - 1) % h) * w;
      const std::uint8_t* mid = src + y * w;
      const std::uint8_t* down = src + ((y + 1) % h) * w;
      std::uint8_t* n = count.data();
      for (std::int64_t x = 1; x < w - 1; ++x)
        n[x] = std::uint8_t(up[x - 1] + up[x] + up[x + 1] + mid[x - 1] + mid[x + 1] + down[x - 1] + down[x] + down[x + 1]);
      for (std::int64_t x : {std::int64_t(0), w - 1}) {
        const std::int64_t xm = x == 0 ? w - 1 : x - 1, xp = x == w - 1 ? 0 : x + 1;
        n[x] = std::uint8_t(up[xm] + up[x] + up[xp] + mid[xm] + mid[xp] + down[xm] + down[x] + down[xp]);
      }
      std::uint8_t* o = dst + y * w;
      for (std::int64_t x = 0; x < w; ++x) o[x] = table[9 * mid[x] + n[x]];
    }
  }
}

class CpuParallel final : public detail::CpuByteEngine {
 public:
  CpuParallel(const Rule& rule, const KernelParams& p) : CpuByteEngine(rule), threads_(p.threads ? p.threads : omp_get_max_threads()) {
    if (threads_ < 1) throw std::invalid_argument("--threads: expected at least 1, got " + std::to_string(threads_));
  }
  const KernelInfo& info() const override { return kInfo; }

  static inline const KernelInfo kInfo{"cpu-parallel", Backend::Cpu,
                                       "byte per cell, rows split over OpenMP threads",
                                       "Gardner 1970; the serial loop of cpu-serial parallelised with OpenMP", KernelInfo::HostState::BytePerCell};

 private:
  void generation(const World& in, World& out) const override { generationParallel(in, out, rule_, threads_); }

  int threads_;
};

}  // namespace

detail::KernelEntry detail::cpuParallelEntry() { return detail::entryOf<CpuParallel>(); }

}  // namespace flocklife::life
