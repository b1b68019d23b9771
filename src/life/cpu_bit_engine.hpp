#pragma once
/// @file cpu_bit_engine.hpp
/// Shared body of the bit-per-cell CPU kernels (internal): state in the BitLayout of
/// bit_layout.hpp, two buffers swapped each generation, rows split over OpenMP threads.
#include <omp.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "life/bit_layout.hpp"
#include "life/bit_word.hpp"
#include "life/engine.hpp"

namespace flocklife::life::detail {

class CpuBitEngine : public Engine {
 public:
  CpuBitEngine(const Rule& rule, const KernelParams& params) : rule_(rule), threads_(params.threads) {
    if (threads_ < 0) throw std::invalid_argument("--threads: expected >= 0 (0 = all cores), got " + std::to_string(threads_));
  }
  void load(const World& world) override {
    layout_ = BitLayout::of(world.width(), world.height());
    const std::uint64_t words = layout_.totalBytes() / 8;
    cur_.assign(words, 0);
    next_.assign(words, ~std::uint64_t(0));  // poison: every word a kernel reads must be written first
    packWorld(world, layout_, bytes(cur_));
  }
  void step(std::uint64_t generations) override {
    for (std::uint64_t g = 0; g < generations; ++g) {
      const std::uint8_t* in = bytes(cur_);
      std::uint8_t* out = bytes(next_);
      const std::int64_t h = layout_.height;
      const std::uint64_t pitch = layout_.pitchBytes;
      const int n = threads_ > 0 ? threads_ : omp_get_max_threads();
      const bool parallel = layout_.totalBytes() >= kParallelBytes;  // tiny worlds: no thread start-up
#pragma omp parallel for num_threads(n) schedule(static) if (parallel)
      for (std::int64_t y = 0; y < h; ++y) {
        const std::int64_t ym = y == 0 ? h - 1 : y - 1, yp = y + 1 == h ? 0 : y + 1;
        row(in + std::uint64_t(ym) * pitch, in + std::uint64_t(y) * pitch, in + std::uint64_t(yp) * pitch,
            out + std::uint64_t(y) * pitch);
      }
      std::swap(cur_, next_);
    }
  }
  World world() const override { return unpackWorld(bytes(cur_), layout_); }
  std::uint64_t stateBytes() const override { return 2 * layout_.totalBytes(); }

 protected:
  /// Writes the next generation of one row (all its words) from the rows above, at and below.
  /// Each argument points to pitchBytes bytes, 8-byte aligned.
  virtual void row(const std::uint8_t* up, const std::uint8_t* mid, const std::uint8_t* down,
                   std::uint8_t* out) const = 0;
  /// row() for the kernels that walk a row byte by byte (8 cells each) with a 3-byte window:
  /// bits::rowRun over the whole row with `eval` (bits::CountEval, bits::Lut6x3Eval, ...).
  template <class Eval>
  void byteRow(const std::uint8_t* up, const std::uint8_t* mid, const std::uint8_t* down, std::uint8_t* out,
               const Eval& eval) const {
    const std::uint64_t bytes = layout_.wordsPerRow(8);
    bits::rowRun<std::uint8_t, std::uint32_t, 1>(up, mid, down, out, bytes, layout_.lastValid(8), 0, bytes, eval);
  }

  Rule rule_;
  BitLayout layout_;

 private:
  static constexpr std::uint64_t kParallelBytes = 1 << 15;
  static std::uint8_t* bytes(std::vector<std::uint64_t>& v) { return reinterpret_cast<std::uint8_t*>(v.data()); }
  static const std::uint8_t* bytes(const std::vector<std::uint64_t>& v) {
    return reinterpret_cast<const std::uint8_t*>(v.data());
  }
  int threads_;
  std::vector<std::uint64_t> cur_, next_;
};

}  // namespace flocklife::life::detail
