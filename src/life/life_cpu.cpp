#include "life/life_cpu.hpp"

#include "life/cpu_byte_engine.hpp"

namespace flocklife::life {

namespace {

/// One generation, serial: every cell counts its Moore neighbourhood on the torus.
void generationSerial(const World& in, World& out, const Rule& rule) {
  const std::int64_t w = in.width(), h = in.height();
  const auto& src = in.cells();
  auto& dst = out.cells();
  for (std::int64_t y = 0; y < h; ++y) {
    const std::int64_t ym = (y + h - 1) % h, yp = (y + 1) % h;
    for (std::int64_t x = 0; x < w; ++x) {
      const std::int64_t xm = (x + w - 1) % w, xp = (x + 1) % w;
      // On tori narrower or shorter than 3 the same cell can appear several times in the
      // neighbourhood (and even be its own neighbour); it is counted once per appearance,
      // which is what Golly's bounded torus does.
      const int n = src[ym * w + xm] + src[ym * w + x] + src[ym * w + xp] + src[y * w + xm] +
                    src[y * w + xp] + src[yp * w + xm] + src[yp * w + x] + src[yp * w + xp];
      dst[y * w + x] = std::uint8_t(rule.next(src[y * w + x], n));
    }
  }
}

class CpuSerial final : public detail::CpuByteEngine {
 public:
  CpuSerial(const Rule& rule, const KernelParams&) : CpuByteEngine(rule) {}
  const KernelInfo& info() const override { return kInfo; }

  static inline const KernelInfo kInfo{"cpu-serial", Backend::Cpu,
                                       "byte per cell, serial loop over the Moore neighbourhood (the oracle)",
                                       "Gardner 1970; NightElfik, Conway's Game of Life on GPU using CUDA (serial CPU)", KernelInfo::HostState::BytePerCell};

 private:
  void generation(const World& in, World& out) const override { generationSerial(in, out, rule_); }
};

}  // namespace

World stepSerial(const World& world, const Rule& rule, std::uint64_t generations) {
  CpuSerial e(rule, {});
  e.load(world);
  e.step(generations);
  return e.world();
}

detail::KernelEntry detail::cpuSerialEntry() { return detail::entryOf<CpuSerial>(); }

}  // namespace flocklife::life
