#pragma once
/// @file bit_layout.cuh
/// Device side of the bit-per-cell layout (bit_layout.hpp): byte <-> bit conversion kernels and
/// the shared body of the GPU bit-per-cell engines, plus the launch arithmetic their row-run
/// kernels share. Internal to the life module (nvcc only).
#include <cstdint>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "life/bit_layout.hpp"
#include "life/engine.hpp"
#include "life/gpu_engine.cuh"

namespace flocklife::life::detail {

/// Packs d_cells (width * height bytes, row-major, 0/1) into d_bits (layout.totalBytes() bytes,
/// padding zero). Asynchronous on the default stream. @throws CudaError on launch failure.
void packBitsDevice(const std::uint8_t* d_cells, std::uint8_t* d_bits, const BitLayout& layout);
/// Writes the valid cells of d_bits to d_cells (width * height bytes). Asynchronous.
void unpackBitsDevice(const std::uint8_t* d_bits, std::uint8_t* d_cells, const BitLayout& layout);

/// a / b and a % b, in 32-bit arithmetic when both fit (64-bit division is slow on the GPU).
__device__ __forceinline__ void divMod(std::uint64_t a, std::uint64_t b, std::uint64_t& q, std::uint64_t& r) {
  if (((a | b) >> 32) == 0) {
    const auto q32 = std::uint32_t(a) / std::uint32_t(b);
    q = q32;
    r = std::uint32_t(a) - q32 * std::uint32_t(b);
  } else {
    q = a / b;
    r = a - q * b;
  }
}

/// State and conversions shared by the GPU bit-per-cell kernels: two buffers in the BitLayout,
/// swapped each generation. Derived classes implement step() and info().
class GpuBitEngine : public GpuEngine {
 public:
  using GpuEngine::GpuEngine;
  /// Copies the world to the device, packs it, and poisons the second buffer (0xFF).
  void load(const World& world) override;
  World world() const override;
  /// The current packed buffer as it is (CellLayout::BitRows, layout_.pitchBytes per row).
  std::optional<CellView> deviceCells() const override {
    if (bits_.a.empty()) return std::nullopt;
    return CellView{bits_.current(), CellLayout::BitRows, layout_.width, layout_.height, layout_.pitchBytes};
  }
  std::uint64_t stateBytes() const override { return 2 * layout_.totalBytes(); }

 protected:
  BitLayout layout_;
  PingPong<std::uint8_t> bits_;
};

}  // namespace flocklife::life::detail
