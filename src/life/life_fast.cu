// `fast`: bit-sliced Life-like rules on column words (see bitslice.hpp), temporally blocked.
//
// Each warp owns one tile of the torus. A thread holds kColumns = 4 adjacent columns of kRows
// 32-bit column words in registers (fully unrolled, compile-time indexed); the warp covers
// 32 * 4 = 128 columns and kRows words (32 * kRows cells) vertically. Per launch the tile is loaded
// with a halo of `halo` columns on each side and one word row above and below (wrapping on the
// torus, any width and height), then advanced g <= halo generations in registers:
//   - vertical neighbours: funnel shifts between a thread's own words;
//   - horizontal neighbours: the thread's own adjacent columns, and at its two edge columns the
//     2-bit column sums of the neighbouring lanes (4 warp shuffles per word row per generation);
//   - garbage enters only at the tile's border and moves one cell per generation, so after g
//     generations the core (columns [halo, 128 - halo), word rows 1 .. kRows - 2) is exact.
// The core is written to the other buffer. No shared memory, no block barriers.
//
// The world is a true torus: the tile is a window onto the periodic extension of the world, so
// columns are taken modulo the width and rows modulo the height (a word that straddles the
// bottom seam, or any word of a world less than 32 rows high, is gathered bit by bit). Tori
// smaller than the tile (even 1 x 1) therefore need no separate path.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/bitslice.hpp"
#include "life/life_gpu.hpp"

namespace flocklife::life {

namespace {

constexpr int kColumns = 4;  // columns per thread; a warp spans 128 columns

/// Tiling of one world for one configuration (all host-computed, passed by value).
struct Geometry {
  std::int64_t width = 0, height = 0;
  std::int64_t wordRows = 0;  // ceil(height / 32)
  std::int64_t fullRows = 0;  // height / 32: word rows whose 32 bits are all inside the world
  std::int64_t coreCols = 0;  // 32 * kColumns - 2 * halo
  std::int64_t coreRows = 0;  // kRows - 2 (word rows)
  std::int64_t tilesX = 0;
  std::uint64_t numTiles = 0;
  int halo = 0;  // columns of halo on each side = the most generations one launch may do
};

/// Column word (x, rows 32 v .. 32 v + 31 of the periodic extension) gathered bit by bit, rows
/// taken modulo the height. Used only for words that straddle the seam or when height < 32.
__device__ __noinline__ std::uint32_t gatherWord(const std::uint32_t* __restrict__ in, std::int64_t width,
                                                 std::int64_t height, std::int64_t x, std::int64_t v) {
  std::int64_t y = (32 * v) % height;
  if (y < 0) y += height;
  std::uint32_t word = 0;
  for (int b = 0; b < 32; ++b) {
    word |= ((in[std::uint64_t(y >> 5) * std::uint64_t(width) + std::uint64_t(x)] >> (y & 31)) & 1u) << b;
    if (++y == height) y = 0;
  }
  return word;
}

template <int kRows, class RuleT>
__global__ void fastKernel(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, Geometry g,
                           int generations, RuleT rule) {
  static_assert(kRows >= 3, "a thread needs a core word between its two halo words");
  const std::uint64_t tile = std::uint64_t(blockIdx.x) * (blockDim.x >> 5) + (threadIdx.x >> 5);
  if (tile >= g.numTiles) return;  // whole warps only: the shuffles below need all 32 lanes
  const int lane = int(threadIdx.x & 31);
  const std::int64_t tileY = std::int64_t(tile / std::uint64_t(g.tilesX));
  const std::int64_t tileX = std::int64_t(tile) - tileY * g.tilesX;
  const std::int64_t xs = tileX * g.coreCols - g.halo;  // world column of the tile's column 0
  const std::int64_t vs = tileY * g.coreRows - 1;       // world word row of the tile's word row 0

  std::int64_t x[kColumns];
#pragma unroll
  for (int c = 0; c < kColumns; ++c) {
    std::int64_t xx = xs + lane * kColumns + c;
    if (xx < 0 || xx >= g.width) {
      xx %= g.width;
      if (xx < 0) xx += g.width;
    }
    x[c] = xx;
  }

  std::uint32_t w[kRows][kColumns];
#pragma unroll
  for (int i = 0; i < kRows; ++i) {
    const std::int64_t v = vs + i;
    if (v >= 0 && v < g.fullRows) {
      const std::uint32_t* row = in + std::uint64_t(v) * std::uint64_t(g.width);
#pragma unroll
      for (int c = 0; c < kColumns; ++c) w[i][c] = row[x[c]];
    } else {
#pragma unroll
      for (int c = 0; c < kColumns; ++c) w[i][c] = gatherWord(in, g.width, g.height, x[c], v);
    }
  }

  for (int gen = 0; gen < generations; ++gen) {
    std::uint32_t above[kColumns];  // the previous generation's word row i - 1
#pragma unroll
    for (int c = 0; c < kColumns; ++c) above[c] = 0u;
#pragma unroll
    for (int i = 0; i < kRows; ++i) {
      bits::Pair sum[kColumns];
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        const std::uint32_t below = i + 1 < kRows ? w[i + 1][c] : 0u;
        sum[c] = bits::columnSum(bits::fromAbove(above[c], w[i][c]), w[i][c], bits::fromBelow(w[i][c], below));
      }
      const bits::Pair left{__shfl_up_sync(0xFFFFFFFFu, sum[kColumns - 1].lo, 1),
                            __shfl_up_sync(0xFFFFFFFFu, sum[kColumns - 1].hi, 1)};
      const bits::Pair right{__shfl_down_sync(0xFFFFFFFFu, sum[0].lo, 1),
                             __shfl_down_sync(0xFFFFFFFFu, sum[0].hi, 1)};
      std::uint32_t next[kColumns];
#pragma unroll
      for (int c = 0; c < kColumns; ++c)
        next[c] = bits::nextState(rule, c > 0 ? sum[c - 1] : left, sum[c], c + 1 < kColumns ? sum[c + 1] : right,
                                  w[i][c]);
#pragma unroll
      for (int c = 0; c < kColumns; ++c) {
        above[c] = w[i][c];
        w[i][c] = next[c];
      }
    }
  }

#pragma unroll
  for (int i = 1; i + 1 < kRows; ++i) {
    const std::int64_t v = vs + i;
    if (v >= g.wordRows) break;
    std::uint32_t* row = out + std::uint64_t(v) * std::uint64_t(g.width);
#pragma unroll
    for (int c = 0; c < kColumns; ++c) {
      const int j = lane * kColumns + c;
      const std::int64_t xx = xs + j;
      if (j >= g.halo && j < g.halo + g.coreCols && xx < g.width) row[xx] = w[i][c];
    }
  }
}

class FastEngine final : public Engine {
 public:
  FastEngine(const Rule& rule, const KernelParams& p)
      : rule_(rule),
        runtimeRule_(rule),
        threads_(p.threadsPerBlock ? p.threadsPerBlock : 128),
        rows_(p.cellsPerThread ? p.cellsPerThread : 16),
        halo_(p.generationsPerLaunch ? p.generationsPerLaunch : 16) {
    validateBlockSize(threads_, "--threads-per-block");
    if (rows_ != 8 && rows_ != 16)
      throw std::invalid_argument(
          "--cells-per-thread: the fast kernel takes 8 or 16 (32-bit column words per thread column), got " +
          std::to_string(rows_));
    if (halo_ < 1 || halo_ > 32)
      throw std::invalid_argument(
          "--generations-per-launch: the fast kernel takes 1..32 (its vertical halo is one 32-cell word), got " +
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
    g.coreCols = 32 * kColumns - 2 * halo_;
    g.coreRows = rows_ - 2;
    g.tilesX = (g.width + g.coreCols - 1) / g.coreCols;
    const std::int64_t tilesY = (g.wordRows + g.coreRows - 1) / g.coreRows;
    g.numTiles = std::uint64_t(g.tilesX) * std::uint64_t(tilesY);
    const std::uint64_t warpsPerBlock = std::uint64_t(threads_ / 32);
    if ((g.numTiles + warpsPerBlock - 1) / warpsPerBlock > 0x7FFFFFFFull)
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
      if (rows_ == 8)
        launch<8>(g);
      else
        launch<16>(g);
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
      "bit per cell in 32-cell column words, bit-sliced adders (LOP3), 4 columns x 16 (or 8) words per thread in "
      "registers, "
      "warp shuffles, k generations per launch on a torus of any size",
      "bit-sliced neighbour counting; temporal blocking with halos; Gardner (1970) for Life"};

 private:
  template <int kRows>
  void launch(int generations) {
    const std::uint64_t warpsPerBlock = std::uint64_t(threads_ / 32);
    const unsigned blocks = unsigned((geometry_.numTiles + warpsPerBlock - 1) / warpsPerBlock);
    const std::uint32_t* in = words_.current();
    std::uint32_t* out = words_.next();
    // Compile-time rules for the best-known rules (the multiplexer tree folds to a few LOP3);
    // every other rule runs with run-time masks.
    if (rule_ == kConway)
      fastKernel<kRows><<<blocks, threads_>>>(in, out, geometry_, generations, bits::StaticRule<8, 12>{});
    else if (rule_ == Rule{72, 12})  // B36/S23, HighLife
      fastKernel<kRows><<<blocks, threads_>>>(in, out, geometry_, generations, bits::StaticRule<72, 12>{});
    else if (rule_ == Rule{456, 472})  // B3678/S34678, Day & Night
      fastKernel<kRows><<<blocks, threads_>>>(in, out, geometry_, generations, bits::StaticRule<456, 472>{});
    else
      fastKernel<kRows><<<blocks, threads_>>>(in, out, geometry_, generations, runtimeRule_);
    FL_CUDA_CHECK_LAUNCH();
  }

  Rule rule_;
  bits::RuntimeRule runtimeRule_;
  int threads_, rows_, halo_;
  Geometry geometry_;
  PingPong<std::uint32_t> words_;
};

}  // namespace

detail::KernelEntry detail::fastEntry() { return detail::entryOf<FastEngine>(); }

}  // namespace flocklife::life
