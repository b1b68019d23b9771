#pragma once
/// @file runtime_module.cuh
/// Loads device code compiled at run time by NVRTC (common/runtime_kernel.hpp) and launches its
/// kernels, through the CUDA runtime's library API (cudaLibraryLoadData, cudaLibraryGetKernel,
/// cudaLaunchKernel on the kernel handle cast to const void*, as the CUDA 13 runtime API
/// reference allows for cudaKernel_t). CUDA builds only; includes cuda_runtime.h.
///
///   const RuntimeModule& m = RuntimeModule::cached({"probe.cu", source, {"-DVALUE=7"}, {}});
///   auto k = m.kernel<void(unsigned long long, long long*)>("scaleIndexKernel");
///   k.launch(dim3(blocks), dim3(256), 0, stream, n, d_out);
#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "common/cuda_check.cuh"
#include "common/runtime_kernel.hpp"

namespace flocklife {

/// Compute capability of the current device as major * 10 + minor (90 for an H200).
/// @throws CudaError when there is no usable device
int currentComputeCapability();

/// A kernel of a RuntimeModule with its parameter list, e.g.
/// RuntimeKernel<void(unsigned long long, long long*)>. The parameter types must be exactly those
/// of the `extern "C"` kernel in the source (NVRTC cannot check them: the arguments are copied
/// byte for byte); arguments given to launch() are converted to them at the call site.
template <class Signature>
class RuntimeKernel;

template <class... Params>
class RuntimeKernel<void(Params...)> {
 public:
  explicit RuntimeKernel(cudaKernel_t handle) noexcept : handle_(handle) {}

  /// The handle, and the same as the `const void* func` that cudaFuncSetAttribute,
  /// cudaFuncGetAttributes and cudaOccupancyMaxActiveBlocksPerMultiprocessor accept.
  cudaKernel_t handle() const noexcept { return handle_; }
  const void* func() const noexcept { return reinterpret_cast<const void*>(handle_); }

  /// Launches the kernel on `stream` with `sharedBytes` of dynamic shared memory; returns at
  /// once (in debug builds it synchronizes, see FL_CUDA_CHECK_LAUNCH).
  /// @throws CudaError when the launch is refused (bad configuration, no image for the device)
  void launch(dim3 grid, dim3 block, std::size_t sharedBytes, cudaStream_t stream,
              Params... args) const {
    void* argv[] = {const_cast<void*>(static_cast<const void*>(&args))..., nullptr};
    FL_CUDA_CHECK(cudaLaunchKernel(func(), grid, block, argv, sharedBytes, stream));
    FL_CUDA_CHECK_LAUNCH();
  }

 private:
  cudaKernel_t handle_;
};

/// Device code compiled by NVRTC and loaded as a CUDA library (context-independent: usable on
/// every device of the compute capability it was compiled for). Move-only; the destructor
/// unloads the library and never throws; destroy it only when none of its kernels still runs.
class RuntimeModule {
 public:
  /// Compiles `source` for the current device (compileForDevice: CUBIN, or PTX for a GPU newer
  /// than this NVRTC) and loads it.
  /// @throws RuntimeCompileError on a compile error; CudaError when loading fails
  explicit RuntimeModule(const RuntimeSource& source);
  /// Loads code compiled before; `programName` only names the module in error messages.
  explicit RuntimeModule(DeviceCode code, std::string programName);
  ~RuntimeModule();
  RuntimeModule(const RuntimeModule&) = delete;
  RuntimeModule& operator=(const RuntimeModule&) = delete;
  RuntimeModule(RuntimeModule&& o) noexcept;
  RuntimeModule& operator=(RuntimeModule&& o) noexcept;

  /// The process-wide module for (source, options, headers, the current device's compute
  /// capability): compiled and loaded on the first call, the same object afterwards (it lives
  /// until the process exits). Thread-safe; concurrent first calls compile one after another.
  /// @throws as the constructor; a failed compilation is not cached
  static const RuntimeModule& cached(const RuntimeSource& source);

  /// The `extern "C"` kernel `name` with the parameter list of `Signature` (see RuntimeKernel).
  /// @throws CudaError naming the kernel and the program when the module has no such kernel
  template <class Signature>
  RuntimeKernel<Signature> kernel(const std::string& name) const {
    return RuntimeKernel<Signature>(kernelHandle(name));
  }
  cudaKernel_t kernelHandle(const std::string& name) const;

  const DeviceCode& code() const noexcept { return code_; }
  const std::string& programName() const noexcept { return programName_; }

 private:
  cudaLibrary_t library_ = nullptr;
  DeviceCode code_;
  std::string programName_;
};

}  // namespace flocklife
