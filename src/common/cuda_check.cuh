#pragma once
/// @file cuda_check.cuh
/// Turns CUDA runtime errors into flocklife::CudaError exceptions (nvcc / CUDA runtime only).
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "common/errors.hpp"

namespace flocklife::detail {
[[noreturn]] inline void throwCudaError(cudaError_t e, const char* call, const char* file, int line) {
  // The runtime also records a failed call as its "last error", which the next launch check
  // (cudaPeekAtLastError) would report again; reported here, it is cleared. Sticky errors (a
  // kernel fault) stay: every later call reports them.
  cudaGetLastError();
  throw CudaError(std::string(call) + " at " + file + ":" + std::to_string(line) + ": " +
                  cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}
}  // namespace flocklife::detail

/// Evaluates a CUDA runtime call; throws flocklife::CudaError naming the call, file:line and error.
#define FL_CUDA_CHECK(call)                                                   \
  do {                                                                        \
    cudaError_t fl_e_ = (call);                                               \
    if (fl_e_ != cudaSuccess)                                                 \
      ::flocklife::detail::throwCudaError(fl_e_, #call, __FILE__, __LINE__);  \
  } while (0)

/// Print-only twin of FL_CUDA_CHECK for destructors and other places that must not throw.
#define FL_CUDA_WARN(call)                                                                  \
  do {                                                                                      \
    cudaError_t fl_e_ = (call);                                                             \
    if (fl_e_ != cudaSuccess)                                                               \
      std::fprintf(stderr, "flocklife: warning: %s at %s:%d: %s\n", #call, __FILE__, __LINE__, \
                   cudaGetErrorString(fl_e_));                                              \
  } while (0)

namespace flocklife::detail {
/// Stream captures in progress on this thread (CudaGraph::capture, cuda_graph.cuh): while one is,
/// a launch is only recorded, and synchronizing would end the capture with an error.
inline thread_local int streamCaptureDepth = 0;
}  // namespace flocklife::detail

/// Checks the last kernel launch. In debug builds also synchronizes, so that faults inside the
/// kernel surface at the launch that caused them (not while a stream capture records the launch).
#ifdef NDEBUG
#define FL_CUDA_CHECK_LAUNCH() FL_CUDA_CHECK(cudaPeekAtLastError())
#else
#define FL_CUDA_CHECK_LAUNCH()                                                              \
  do {                                                                                      \
    FL_CUDA_CHECK(cudaPeekAtLastError());                                                   \
    if (::flocklife::detail::streamCaptureDepth == 0) FL_CUDA_CHECK(cudaDeviceSynchronize()); \
  } while (0)
#endif
