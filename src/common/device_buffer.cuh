#pragma once
/// @file device_buffer.cuh
/// Owning, move-only device memory: DeviceBuffer<T>, a PingPong pair and a Stream.
/// Pattern after tiny-cuda-nn's GPUMemory and cuCollections' RAII types.
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/memory.hpp"

namespace flocklife {

/// n elements of T in device memory (cudaMalloc). Move-only; copies are explicit
/// (copyFromHost / copyToHost). The destructor frees and never throws.
/// @throws OutOfMemoryError when n * sizeof(T) exceeds the free device memory (checked up front,
///         message with required and available bytes); CudaError on any other failure.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t n, const char* what = "device buffer") : n_(n) {
    if (n_ == 0) return;
    requireDeviceMemory(n_ * sizeof(T), what);
    FL_CUDA_CHECK(cudaMalloc(&p_, n_ * sizeof(T)));
  }
  ~DeviceBuffer() {
    if (p_) FL_CUDA_WARN(cudaFree(p_));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }

  T* data() noexcept { return p_; }
  const T* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return n_ * sizeof(T); }
  bool empty() const noexcept { return n_ == 0; }

  /// Copies host.size() elements to the start of the buffer (the rest keeps its contents);
  /// synchronous. std::invalid_argument when that is more than size().
  void copyFromHost(const std::vector<T>& host) { copyFromHost(host.data(), host.size()); }
  void copyFromHost(const T* host, std::size_t count) {
    if (count > n_) throw std::invalid_argument("DeviceBuffer::copyFromHost: count exceeds size");
    if (count) FL_CUDA_CHECK(cudaMemcpy(p_, host, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  /// Returns a host copy of all size() elements; synchronous.
  std::vector<T> copyToHost() const {
    std::vector<T> h(n_);
    if (n_) FL_CUDA_CHECK(cudaMemcpy(h.data(), p_, bytes(), cudaMemcpyDeviceToHost));
    return h;
  }
  /// Fills every byte with `byte` (0xFF poisons an output before a kernel writes it).
  void fillBytes(int byte, cudaStream_t stream = nullptr) {
    if (n_) FL_CUDA_CHECK(cudaMemsetAsync(p_, byte, bytes(), stream));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

/// Two equally sized buffers: kernels read current() and write next(), then flip().
template <class T>
struct PingPong {
  PingPong() = default;
  explicit PingPong(std::size_t n, const char* what = "ping-pong buffers")
      : a(n, what), b(n, what) {}
  DeviceBuffer<T> a, b;
  bool odd = false;
  T* current() noexcept { return odd ? b.data() : a.data(); }
  T* next() noexcept { return odd ? a.data() : b.data(); }
  const T* current() const noexcept { return odd ? b.data() : a.data(); }
  DeviceBuffer<T>& currentBuffer() noexcept { return odd ? b : a; }
  const DeviceBuffer<T>& currentBuffer() const noexcept { return odd ? b : a; }
  void flip() noexcept { odd = !odd; }
  std::size_t size() const noexcept { return a.size(); }
};

/// An owning CUDA stream. By default non-blocking with respect to the legacy default stream;
/// with flags cudaStreamDefault its work and the legacy stream's wait for each other, so that
/// code on the legacy stream (copies, CUDA events) stays ordered with it.
class Stream {
 public:
  explicit Stream(unsigned flags = cudaStreamNonBlocking) { FL_CUDA_CHECK(cudaStreamCreateWithFlags(&s_, flags)); }
  ~Stream() {
    if (s_) FL_CUDA_WARN(cudaStreamDestroy(s_));
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  Stream& operator=(Stream&& o) noexcept {
    std::swap(s_, o.s_);
    return *this;
  }
  cudaStream_t get() const noexcept { return s_; }
  void synchronize() const { FL_CUDA_CHECK(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_ = nullptr;
};

}  // namespace flocklife
