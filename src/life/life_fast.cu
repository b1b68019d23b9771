// `fast`: the engine around fast_kernel.cuh (bit-sliced Life-like rules on column words,
// temporally blocked in registers). B3/S23 runs the kernel compiled here; every other rule runs
// the same source compiled at run time by NVRTC with the rule's masks as constants, so that the
// rule logic folds to a few LOP3 for any of the 2^18 Life-like rules.
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/runtime_module.cuh"
#include "embedded/bitslice_logic.hpp"
#include "embedded/fast_kernel.hpp"
#include "life/bitslice.hpp"
#include "life/fast_kernel.cuh"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

using fast::Geometry;

/// B3/S23, compiled here (the default rule runs without a run-time compilation).
template <int kRows, int kHaloWords>
__global__ void conwayKernel(const bits::Word* __restrict__ in, bits::Word* __restrict__ out, Geometry g,
                             int generations) {
  fast::advanceBlock<kRows, kHaloWords, bits::StaticRule<8, 12>>(in, out, g, generations);
}

}  // namespace

/// fast_kernel.cuh with bitslice_logic.hpp as its in-memory header, plus one `extern "C"`
/// kernel, `fast_life`, that instantiates advanceTile with the rule's masks as compile-time
/// constants.
RuntimeSource detail::fastRuntimeSource(const Rule& rule, int rows, int haloWords) {
  const std::string ruleType = "flocklife::life::bits::StaticRule<" + std::to_string(rule.birthMask) + "u, " +
                               std::to_string(rule.surviveMask) + "u>";
  std::string code(kFastKernelSource);
  code += "\nextern \"C\" __global__ void fast_life(const unsigned* __restrict__ in, unsigned* __restrict__ out, "
          "flocklife::life::fast::Geometry g, int generations) {\n  flocklife::life::fast::advanceBlock<" +
          std::to_string(rows) + ", " + std::to_string(haloWords) + ", " + ruleType + ">(in, out, g, generations);\n}\n";
  return RuntimeSource{"life_fast_B" + std::to_string(rule.birthMask) + "_S" + std::to_string(rule.surviveMask) + "_r" +
                           std::to_string(rows) + "_h" + std::to_string(haloWords) + ".cu",
                       std::move(code),
                       {"-std=c++17", "-default-device"},  // unannotated constexpr helpers and lambdas are device code
                       {{"life/bitslice_logic.hpp", std::string(kBitsliceLogicSource)}}};
}

namespace {

class FastEngine final : public Engine {
 public:
  FastEngine(const Rule& rule, const KernelParams& p)
      : rule_(rule),
        threads_(p.threadsPerBlock ? p.threadsPerBlock : 128),
        rows_(p.cellsPerThread ? p.cellsPerThread : 24),
        halo_(p.generationsPerLaunch ? p.generationsPerLaunch : 16) {
    validateBlockSize(threads_, "--threads-per-block");
    if (rows_ != 8 && rows_ != 12 && rows_ != 16 && rows_ != 24)
      throw std::invalid_argument(
          "--cells-per-thread: the fast kernel takes 8, 12, 16 or 24 (32-bit column words per thread column), got " +
          std::to_string(rows_));
    if (halo_ < 1 || halo_ > 32)
      throw std::invalid_argument(
          "--generations-per-launch: the fast kernel takes 1..32 (its vertical halo is at most one 32-cell word "
          "above and one below), got " +
          std::to_string(halo_));
  }

  const KernelInfo& info() const override { return kInfo; }

  void load(const World& world) override {
    Geometry g;
    g.width = world.width();
    g.height = world.height();
    g.wordRows = bits::wordRows(g.height);
    g.fullRows = g.height / 32;
    g.halo = halo_;
    g.haloWords = halo_ <= 16 ? 1 : 2;
    g.warps = threads_ / 32;
    g.coreCols = fast::blockColumns(g.warps) - 2 * halo_;
    g.coreRows = rows_ - g.haloWords;
    g.tilesX = (g.width + g.coreCols - 1) / g.coreCols;
    const std::int64_t tilesY = (g.wordRows + g.coreRows - 1) / g.coreRows;
    g.numTiles = std::uint64_t(g.tilesX) * std::uint64_t(tilesY);
    // The last tile row runs the shorter ring when the word rows left for it fit.
    const int shortRows = fast::shortRows(rows_);
    const bool shortFits = shortRows > g.haloWords && g.wordRows - (tilesY - 1) * g.coreRows <= shortRows - g.haloWords;
    g.shortFrom = shortFits ? std::uint64_t(tilesY - 1) * std::uint64_t(g.tilesX) : g.numTiles;
    if (g.numTiles > 0x7FFFFFFFull)
      throw std::invalid_argument("fast kernel: world too large for one grid (" + std::to_string(g.numTiles) +
                                  " tiles)");
    geometry_ = g;
    words_ = PingPong<std::uint32_t>(std::size_t(g.wordRows * g.width), "fast kernel: two bit-per-cell buffers");
    words_.currentBuffer().copyFromHost(bits::pack(world.cells(), g.width, g.height));
    (words_.odd ? words_.a : words_.b).fillBytes(0xFF);  // poison: every word must be written
  }

  void step(std::uint64_t generations) override {
    if (generations > 0 && words_.size() == 0) throw std::logic_error("fast kernel: step() before load()");
    while (generations > 0) {
      const int g = int(generations < std::uint64_t(halo_) ? generations : std::uint64_t(halo_));
      const bool oneHaloWord = geometry_.haloWords == 1;
      if (rows_ == 8)
        oneHaloWord ? launch<8, 1>(g) : launch<8, 2>(g);
      else if (rows_ == 12)
        oneHaloWord ? launch<12, 1>(g) : launch<12, 2>(g);
      else if (rows_ == 24)
        oneHaloWord ? launch<24, 1>(g) : launch<24, 2>(g);
      else
        oneHaloWord ? launch<16, 1>(g) : launch<16, 2>(g);
      words_.flip();
      generations -= std::uint64_t(g);
    }
  }

  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }

  World world() const override {
    World w(geometry_.width, geometry_.height);
    bits::unpack(words_.currentBuffer().copyToHost(), geometry_.width, geometry_.height, w.cells());
    return w;
  }

  /// The current column words as they are (CellLayout::ColumnWords32), for the Life display.
  std::optional<CellView> deviceCells() const override {
    if (words_.size() == 0) return std::nullopt;
    return CellView{words_.current(), CellLayout::ColumnWords32, geometry_.width, geometry_.height, 0};
  }

  std::uint64_t stateBytes() const override { return 2 * words_.size() * sizeof(std::uint32_t); }

  static inline const KernelInfo kInfo{
      "fast", Backend::Cuda,
      "bit per cell in 32-cell column words, bit-sliced adders (10 LOP3 per word for B3/S23), 4 columns x 24 (8, 12, "
      "16) words per thread in registers, warp shuffles, warps of a block side by side sharing edge lanes through "
      "shared memory every 4 generations, k generations per launch on a torus of any size; rules "
      "other than B3/S23 compiled at run time (NVRTC)",
      "bit-sliced neighbour counting; temporal blocking with halos; Gardner (1970) for Life"};

 private:
  template <int kRows, int kHaloWords>
  void launch(int generations) {
    const unsigned blocks = unsigned(geometry_.numTiles);  // one tile per block
    const std::size_t exchange = std::size_t(fast::exchangeBytes(geometry_.warps, kRows));
    if (!blockSizeChecked_) {
      checkBlockSize(rule_ == kConway ? reinterpret_cast<const void*>(&conwayKernel<kRows, kHaloWords>)
                                      : runtimeKernel(kHaloWords).func());
      blockSizeChecked_ = true;
    }
    if (rule_ == kConway) {
      conwayKernel<kRows, kHaloWords><<<blocks, threads_, exchange>>>(words_.current(), words_.next(), geometry_,
                                                                       generations);
      FL_CUDA_CHECK_LAUNCH();
    } else {
      runtimeKernel(kHaloWords).launch(dim3(blocks), dim3(unsigned(threads_)), exchange, nullptr, words_.current(),
                                       words_.next(), geometry_, generations);
    }
  }

  /// A block of threads_ threads must fit the kernel's registers (24 words per thread column use
  /// about 255 registers, so at most 256 threads); checked before the first launch.
  /// @throws std::invalid_argument naming --threads-per-block otherwise
  void checkBlockSize(const void* kernel) const {
    cudaFuncAttributes attributes{};
    FL_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    if (threads_ > attributes.maxThreadsPerBlock)
      throw std::invalid_argument("--threads-per-block: the fast kernel with " + std::to_string(rows_) +
                                  " words per thread column uses " + std::to_string(attributes.numRegs) +
                                  " registers per thread, so a block holds at most " +
                                  std::to_string(attributes.maxThreadsPerBlock) + " threads; got " +
                                  std::to_string(threads_));
  }

  using RuntimeFastKernel = RuntimeKernel<void(const bits::Word*, bits::Word*, Geometry, int)>;

  /// The run-time compiled kernel for this engine's rule and rows: compiled once per process for
  /// each (rule, rows, halo words), looked up once per engine.
  const RuntimeFastKernel& runtimeKernel(int haloWords) {
    std::optional<RuntimeFastKernel>& k = runtimeKernels_[haloWords - 1];
    if (!k) k = RuntimeModule::cached(detail::fastRuntimeSource(rule_, rows_, haloWords)).kernel<void(const bits::Word*, bits::Word*, Geometry, int)>("fast_life");
    return *k;
  }

  Rule rule_;
  std::optional<RuntimeFastKernel> runtimeKernels_[2];  // by halo words - 1
  int threads_, rows_, halo_;
  bool blockSizeChecked_ = false;
  Geometry geometry_;
  PingPong<std::uint32_t> words_;
};

}  // namespace

detail::KernelEntry detail::fastEntry() { return detail::entryOf<FastEngine>(); }

}  // namespace flocklife::life
