// CUDA-OpenGL interop: register once, map, get the pointer, unmap (CUDA Programming Guide,
// "OpenGL Interoperability").
#include "common/render/interop.hpp"

#include <cuda_gl_interop.h>

#include "common/cuda_check.cuh"

namespace flocklife::render {

InteropBuffer::InteropBuffer(unsigned glBuffer) {
  FL_CUDA_CHECK(cudaGraphicsGLRegisterBuffer(&resource_, glBuffer, cudaGraphicsRegisterFlagsWriteDiscard));
}

InteropBuffer::~InteropBuffer() {
  if (mapped_) FL_CUDA_WARN(cudaGraphicsUnmapResources(1, &resource_, nullptr));
  if (resource_) FL_CUDA_WARN(cudaGraphicsUnregisterResource(resource_));
}

void* InteropBuffer::map(std::size_t* bytes) {
  FL_CUDA_CHECK(cudaGraphicsMapResources(1, &resource_, nullptr));
  mapped_ = true;
  void* p = nullptr;
  std::size_t n = 0;
  FL_CUDA_CHECK(cudaGraphicsResourceGetMappedPointer(&p, &n, resource_));
  if (bytes) *bytes = n;
  return p;
}

void InteropBuffer::unmap() {
  if (!mapped_) return;
  mapped_ = false;
  FL_CUDA_CHECK(cudaGraphicsUnmapResources(1, &resource_, nullptr));
}

}  // namespace flocklife::render
