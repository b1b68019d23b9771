#pragma once
/// @file interop.hpp
/// CUDA-OpenGL interop for one GL buffer object (built only with CUDA): registered once with
/// cudaGraphicsGLRegisterBuffer, then mapped each frame to get a device pointer that kernels
/// write, and unmapped before GL draws from it. No CUDA types here (FLAMEGPU2-visualiser style).
#include <cstddef>

struct cudaGraphicsResource;

namespace flocklife::render {

class InteropBuffer {
 public:
  /// Registers GL buffer `glBuffer` (needs the current GL context on the CUDA device) with
  /// cudaGraphicsRegisterFlagsWriteDiscard: CUDA overwrites the whole buffer each time.
  /// @throws CudaError, e.g. when the GL context is not on the CUDA device.
  explicit InteropBuffer(unsigned glBuffer);
  ~InteropBuffer();  ///< unregisters (never throws)
  InteropBuffer(const InteropBuffer&) = delete;
  InteropBuffer& operator=(const InteropBuffer&) = delete;

  /// Maps the buffer; returns its device pointer and size in bytes. @throws CudaError
  void* map(std::size_t* bytes = nullptr);
  /// Unmaps after the kernels are queued (the unmap orders them before later GL work).
  void unmap();

 private:
  cudaGraphicsResource* resource_ = nullptr;
  bool mapped_ = false;
};

}  // namespace flocklife::render
