#include "life/bit_layout.cuh"

namespace flocklife::life::detail {

namespace {

__global__ void packBitsKernel(const std::uint8_t* __restrict__ cells, std::uint8_t* __restrict__ bits,
                               BitLayout layout) {
  const std::uint64_t n = layout.totalBytes();
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    std::uint64_t y, b;
    divMod(i, layout.pitchBytes, y, b);
    bits[i] = packByte(cells + y * std::uint64_t(layout.width), layout.width, b);
  }
}

__global__ void unpackBitsKernel(const std::uint8_t* __restrict__ bits, std::uint8_t* __restrict__ cells,
                                 BitLayout layout) {
  const std::uint64_t rowBytes = (std::uint64_t(layout.width) + 7) / 8;
  const std::uint64_t n = rowBytes * std::uint64_t(layout.height);
  for (std::uint64_t i = globalThreadId(); i < n; i += gridStride()) {
    std::uint64_t y, b;
    divMod(i, rowBytes, y, b);
    unpackByte(bits[y * layout.pitchBytes + b], cells + y * std::uint64_t(layout.width), layout.width, b);
  }
}

}  // namespace

void packBitsDevice(const std::uint8_t* d_cells, std::uint8_t* d_bits, const BitLayout& layout) {
  const std::uint64_t n = layout.totalBytes();
  if (n == 0) return;
  packBitsKernel<<<blocksFor(n, 256), 256>>>(d_cells, d_bits, layout);
  FL_CUDA_CHECK_LAUNCH();
}

void unpackBitsDevice(const std::uint8_t* d_bits, std::uint8_t* d_cells, const BitLayout& layout) {
  const std::uint64_t n = (std::uint64_t(layout.width) + 7) / 8 * std::uint64_t(layout.height);
  if (n == 0) return;
  unpackBitsKernel<<<blocksFor(n, 256), 256>>>(d_bits, d_cells, layout);
  FL_CUDA_CHECK_LAUNCH();
}

void GpuBitEngine::load(const World& world) {
  layout_ = BitLayout::of(world.width(), world.height());
  bits_ = PingPong<std::uint8_t>();  // free the previous state before allocating the new one
  bits_ = PingPong<std::uint8_t>(layout_.totalBytes(), "bit-per-cell kernel: two packed buffers");
  {
    DeviceBuffer<std::uint8_t> cells(world.cellCount(), "bit-per-cell kernel: byte-per-cell staging for load");
    cells.copyFromHost(world.cells());
    packBitsDevice(cells.data(), bits_.current(), layout_);
    (bits_.odd ? bits_.a : bits_.b).fillBytes(0xFF);  // poison: every word a kernel reads must be written
    FL_CUDA_CHECK(cudaDeviceSynchronize());           // before `cells` is freed
  }
}

World GpuBitEngine::world() const {
  World w(layout_.width, layout_.height);
  DeviceBuffer<std::uint8_t> cells(w.cellCount(), "bit-per-cell kernel: byte-per-cell staging for world()");
  cells.fillBytes(0xFF);  // poison: unpacking must write every cell
  unpackBitsDevice(bits_.current(), cells.data(), layout_);
  FL_CUDA_CHECK(cudaMemcpy(w.cells().data(), cells.data(), w.cellCount(), cudaMemcpyDeviceToHost));
  return w;
}

}  // namespace flocklife::life::detail
