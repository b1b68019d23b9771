// `packet64`: packet coding (Cagigas-Muñiz, Diaz-del-Rio, Sevillano-Ramos, Guisado-Lizar,
// "Efficient simulation execution of cellular automata on GPU", Simulation Modelling Practice and
// Theory 118, 2022, sec. 5.2): 8 cells of one byte each in a 64-bit "supercell", read and written
// as whole words. The 8 neighbour bytes are summed lane by lane and the rule is applied as masks
// on the sum's bit planes (bit_word.hpp). Rows are padded to whole words; the seam is rebuilt
// explicitly. Each thread owns one word column and walks down KernelParams::cellsPerThread rows
// keeping three rows' words in registers (column_walk_kernel.cuh): one coalesced 64-bit load of
// the new row per step plus its two neighbours from L1.
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/life_gpu.hpp"
#include "life/column_walk_kernel.cuh"

namespace flocklife::life {

namespace {

class Packet64Engine final : public Engine {
 public:
  Packet64Engine(const Rule& rule, const KernelParams& p)
      : rule_(rule), threads_(p.threadsPerBlock ? p.threadsPerBlock : 128), rows_(p.cellsPerThread ? p.cellsPerThread : 64) {
    validateBlockSize(threads_, "--threads-per-block");
    detail::validateCellsPerThread(rows_);
  }
  const KernelInfo& info() const override { return kInfo; }
  void load(const World& world) override {
    width_ = world.width();
    height_ = world.height();
    wordsPerRow_ = (std::uint64_t(width_) + 7) / 8;
    cells_ = PingPong<std::uint8_t>();
    cells_ = PingPong<std::uint8_t>(8 * wordsPerRow_ * std::uint64_t(height_), "packet64 kernel: two padded buffers");
    cells_.currentBuffer().fillBytes(0);
    FL_CUDA_CHECK(cudaMemcpy2D(cells_.current(), 8 * wordsPerRow_, world.cells().data(), std::size_t(width_),
                               std::size_t(width_), std::size_t(height_), cudaMemcpyHostToDevice));
    (cells_.odd ? cells_.a : cells_.b).fillBytes(0xFF);  // poison: every word read must be written first
    FL_CUDA_CHECK(cudaDeviceSynchronize());
  }
  void step(std::uint64_t generations) override {
    const auto shape = detail::columnWalkShape(wordsPerRow_, wordsPerRow_, std::uint64_t(height_),
                                               int(width_ - std::int64_t(wordsPerRow_ - 1) * 8), rows_, threads_);
    detail::runColumnWalk<std::uint64_t, std::uint64_t, 8>(cells_, shape, threads_,
                                                           bits::PacketEval{rule_.birthMask, rule_.surviveMask}, generations);
  }
  void synchronize() override { FL_CUDA_CHECK(cudaDeviceSynchronize()); }
  World world() const override {
    World w(width_, height_);
    FL_CUDA_CHECK(cudaMemcpy2D(w.cells().data(), std::size_t(width_), cells_.current(), 8 * wordsPerRow_,
                               std::size_t(width_), std::size_t(height_), cudaMemcpyDeviceToHost));
    return w;
  }
  /// Byte per cell in rows padded to whole packets (8 * wordsPerRow bytes); padding is not read.
  std::optional<CellView> deviceCells() const override {
    if (cells_.size() == 0) return std::nullopt;
    return CellView{cells_.current(), CellLayout::BytePerCell, width_, height_, 8 * wordsPerRow_};
  }
  std::uint64_t stateBytes() const override { return 2 * cells_.size(); }

  static inline const KernelInfo kInfo{
      "packet64", Backend::Cuda, "byte per cell, 8 cells per 64-bit word (packet coding), lane-wise sums, column strips per thread",
      "Cagigas-Muniz et al., Simulation Modelling Practice and Theory 118 (2022), sec. 5.2"};

 private:
  Rule rule_;
  int threads_, rows_;
  std::int64_t width_ = 0, height_ = 0;
  std::uint64_t wordsPerRow_ = 0;
  PingPong<std::uint8_t> cells_;
};

}  // namespace

namespace detail {
KernelEntry packet64Entry() {
  return {Packet64Engine::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> {
            return std::make_unique<Packet64Engine>(r, p);
          }};
}
}  // namespace detail

}  // namespace flocklife::life
