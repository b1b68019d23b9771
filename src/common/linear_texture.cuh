#pragma once
/// @file linear_texture.cuh
/// A read-only view of a device buffer through the texture pipe: LinearTexture<T>, an owning,
/// move-only CUDA texture object over linear memory (CUDA C++ Programming Guide, "Texture Object
/// API"; the resource is cudaResourceTypeLinear). Kernels read element i with
/// tex1Dfetch<T>(handle(), i), i an int in [0, count): the element as stored, no filtering, no
/// normalization. Nothing checks i: a fetch out of range, or through a handle whose buffer was
/// freed, returns wrong values without any error, so the owner must keep the buffer, the count
/// and the handle together.
/// Why: an SM's L1 serves global loads through its load/store (LSU) pipe and texture fetches
/// through its texture pipe, two front ends to the same cache. A kernel whose scattered global
/// loads keep the LSU pipe busy can move some of them to the texture pipe (bench/notes/boids.md,
/// issue 8, twelfth round).
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/cuda_check.cuh"

namespace flocklife {

/// A texture object over `count` elements of T at `data` (device memory that outlives it). T is a
/// type cudaCreateChannelDesc<T>() describes (float, float4, unsigned, uint2, ...; 1 to 16
/// bytes). Move-only; moving assigns by swapping (the source then holds, and destroys, the
/// target's old object). The destructor destroys the object (never throws); destroy it only after
/// the kernels that read handle() have finished (a CUDA graph that captured the handle must be
/// dropped first). Default-constructed: empty, handle() 0.
template <class T>
class LinearTexture {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "a texture element is 1, 2, 4, 8 or 16 bytes (cudaCreateChannelDesc<T>)");

 public:
  LinearTexture() = default;

  /// @throws std::invalid_argument when !fits(data, count); CudaError when the runtime cannot
  ///         create the object.
  LinearTexture(const T* data, std::size_t count) {
    if (!fits(data, count))
      throw std::invalid_argument(
          "LinearTexture: " + std::to_string(count) + " elements at " + hex(reinterpret_cast<std::uintptr_t>(data)) +
          "; expected 1 to " + std::to_string(maxElements()) +
          " elements (the device's largest linear texture) at an address aligned to " + std::to_string(alignment()) +
          " bytes");
    create(data, count);
  }
  ~LinearTexture() {
    if (tex_) FL_CUDA_WARN(cudaDestroyTextureObject(tex_));
  }
  LinearTexture(const LinearTexture&) = delete;
  LinearTexture& operator=(const LinearTexture&) = delete;
  LinearTexture(LinearTexture&& o) noexcept : tex_(std::exchange(o.tex_, 0)) {}
  LinearTexture& operator=(LinearTexture&& o) noexcept {
    std::swap(tex_, o.tex_);
    return *this;
  }

  /// The texture object, 0 when empty.
  cudaTextureObject_t handle() const noexcept { return tex_; }
  explicit operator bool() const noexcept { return tex_ != 0; }

  /// Largest element count of a linear texture on the current device
  /// (cudaDevAttrMaxTexture1DLinearWidth; 2^28 on the H200). @throws CudaError.
  static std::size_t maxElements() { return std::size_t(attribute(cudaDevAttrMaxTexture1DLinearWidth)); }

  /// Alignment in bytes the current device requires of a texture's address
  /// (cudaDevAttrTextureAlignment; cudaMalloc's buffers have it). @throws CudaError.
  static std::size_t alignment() { return std::size_t(attribute(cudaDevAttrTextureAlignment)); }

  /// Texture objects of this T this thread has made so far (tests count them).
  static std::uint64_t madeOnThisThread() noexcept { return made_; }

  /// True when a texture over `count` elements at `data` can be made on the current device:
  /// 1 <= count <= maxElements() and data aligned to alignment(). @throws CudaError.
  static bool fits(const T* data, std::size_t count) {
    const std::size_t a = alignment();
    return count >= 1 && count <= maxElements() && (a == 0 || reinterpret_cast<std::uintptr_t>(data) % a == 0);
  }

  /// A texture over `count` elements at `data` when fits(data, count), else an empty one (for
  /// callers that fall back to global loads): the limits are queried once.
  /// @throws CudaError when the runtime cannot create the object.
  static LinearTexture ifFits(const T* data, std::size_t count) {
    LinearTexture t;
    if (fits(data, count)) t.create(data, count);
    return t;
  }

 private:
  /// Makes the object over count elements at data (this empty, fits(data, count) checked by the
  /// caller). @throws CudaError.
  void create(const T* data, std::size_t count) {
    cudaResourceDesc resource{};
    resource.resType = cudaResourceTypeLinear;
    resource.res.linear.devPtr = const_cast<T*>(data);
    resource.res.linear.desc = cudaCreateChannelDesc<T>();
    resource.res.linear.sizeInBytes = count * sizeof(T);
    cudaTextureDesc texture{};
    texture.readMode = cudaReadModeElementType;
    cudaTextureObject_t made = 0;  // tex_ stays empty if the runtime fails
    FL_CUDA_CHECK(cudaCreateTextureObject(&made, &resource, &texture, nullptr));
    tex_ = made;
    ++made_;
  }
  static std::string hex(std::uintptr_t v) {
    std::ostringstream out;
    out << "0x" << std::hex << v;
    return out.str();
  }
  static int attribute(cudaDeviceAttr what) {
    int device = 0, value = 0;
    FL_CUDA_CHECK(cudaGetDevice(&device));
    FL_CUDA_CHECK(cudaDeviceGetAttribute(&value, what, device));
    return value;
  }

  cudaTextureObject_t tex_ = 0;
  static inline thread_local std::uint64_t made_ = 0;
};

}  // namespace flocklife
