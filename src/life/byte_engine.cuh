#pragma once
/// @file byte_engine.cuh
/// The host-side body shared by the GPU byte-per-cell kernels (`simple`, `simple-lut`,
/// `packet64`, `tiled`, `tiled-inplace`): device buffers, load with poisoning, world(), the
/// display hook and stateBytes(); the rule and tuning parameters come from GpuEngine
/// (gpu_engine.cuh). Each kernel derives from GpuByteEngine and adds only info() and step() (its
/// kernel launches). Internal to the life module (nvcc only); the bit-per-cell twin is
/// GpuBitEngine (bit_layout.cuh).
#include <cstdint>
#include <optional>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "life/gpu_engine.cuh"

namespace flocklife::life::detail {

/// How a GpuByteEngine keeps the cells on the device.
struct ByteCells {
  int rowAlignment = 1;  ///< rows padded with zero bytes to a multiple of this many bytes (8: 64-bit packets)
  bool pingPong = true;  ///< two buffers swapped each generation; false: one buffer updated in place
};

/// Cells one byte each (0 = dead, 1 = live), row-major, rows `pitch_` bytes apart, in
/// `cells_.a` (and `cells_.b` for ping-pong kernels). Derived classes launch their kernels on
/// `cells_.current()` / `cells_.next()` in step() and flip() after each generation; single-buffer
/// kernels read and write `cells_.current()` (cells_.b stays empty).
class GpuByteEngine : public GpuEngine {
 public:
  /// Parameters as GpuEngine's; `layout` says how the cells are kept.
  GpuByteEngine(const Rule& rule, const KernelParams& params, int defaultThreadsPerBlock, int defaultCellsPerThread,
                ByteCells layout = {})
      : GpuEngine(rule, params, defaultThreadsPerBlock, defaultCellsPerThread), layout_(layout) {}
  /// Allocates the buffers (freeing the previous state first), copies the world to the device
  /// (padding zero) and poisons the second buffer (0xFF): every cell a kernel reads must be
  /// written first. Synchronous. @throws OutOfMemoryError, CudaError
  void load(const World& world) override;
  World world() const override;
  /// The current buffer as it is (CellLayout::BytePerCell, pitch_ bytes per row; padding is not
  /// read); empty before load(). Single-buffer kernels: after step() returns, every cell of the
  /// buffer holds the new generation (tiled-inplace's pass 2 has restored the tile borders).
  std::optional<CellView> deviceCells() const override {
    if (cells_.a.empty()) return std::nullopt;
    return CellView{cells_.current(), CellLayout::BytePerCell, width_, height_, pitch_};
  }
  /// Both cell buffers (one for single-buffer kernels).
  std::uint64_t stateBytes() const override { return cells_.a.bytes() + cells_.b.bytes(); }

 protected:
  ByteCells layout_;
  std::int64_t width_ = 0, height_ = 0;
  std::uint64_t pitch_ = 0;  ///< bytes from one row to the next (>= width_)
  PingPong<std::uint8_t> cells_;
};

}  // namespace flocklife::life::detail
