#include "life/life_cpu.hpp"

#include <utility>

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

class CpuSerial final : public Engine {
 public:
  explicit CpuSerial(const Rule& rule) : rule_(rule) {}
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    cur_ = world;
    next_ = World(world.width(), world.height());
  }
  void step(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      generationSerial(cur_, next_, rule_);
      std::swap(cur_, next_);
    }
  }
  World world() const override { return cur_; }
  std::uint64_t stateBytes() const override { return 2 * cur_.cellCount(); }

  static inline const KernelInfo kInfo{"cpu-serial", Backend::Cpu,
                                       "byte per cell, serial loop over the Moore neighbourhood (the oracle)",
                                       "Gardner 1970; NightElfik, Conway's Game of Life on GPU using CUDA (serial CPU)"};

 private:
  Rule rule_;
  World cur_, next_;
};

}  // namespace

World stepSerial(const World& world, const Rule& rule, std::uint64_t generations) {
  CpuSerial e(rule);
  e.load(world);
  e.step(generations);
  return e.world();
}

namespace detail {
KernelEntry cpuSerialEntry() {
  return {CpuSerial::kInfo, [](const Rule& rule, const KernelParams&) -> std::unique_ptr<Engine> {
            return std::make_unique<CpuSerial>(rule);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
