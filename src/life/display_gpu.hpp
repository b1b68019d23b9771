#pragma once
/// @file display_gpu.hpp
/// Device half of LifeDisplay (internal; display_gpu.cu, built only with CUDA). Plain pointers
/// and std types only, so display.cpp builds with any C++ compiler.
#include <cstdint>

#include "life/display.hpp"

namespace flocklife::life::detail {

/// n zeroed trail bytes in device memory. @throws OutOfMemoryError, CudaError
std::uint8_t* allocDeviceTrail(std::uint64_t n);
/// Frees (never throws; a failure is printed).
void freeDeviceTrail(std::uint8_t* d_trail) noexcept;
void zeroDeviceTrail(std::uint8_t* d_trail, std::uint64_t n);
void copyDeviceTrailToHost(const std::uint8_t* d_trail, std::uint8_t* h_out, std::uint64_t n);
/// One thread per cell: d_trail[y * width + x] = updateTrail(cellAlive(cells, x, y), ...), reading
/// the engine's buffer (cells.data, device memory) in its own layout. Asynchronous (default
/// stream, so ordered after the engine's kernels).
void updateDeviceTrail(const CellView& cells, std::uint8_t* d_trail);
/// One thread per pixel: d_rgba[py * pixelsWide + px] = pixelRgba(...). Synchronizes before
/// returning, so the caller may unmap the buffer at once.
void renderDeviceTrail(const std::uint8_t* d_trail, std::int64_t width, std::int64_t height, std::uint32_t* d_rgba,
                       int pixelsWide, int pixelsHigh, const ViewTransform& view);

}  // namespace flocklife::life::detail
