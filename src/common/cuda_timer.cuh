#pragma once
/// @file cuda_timer.cuh
/// CUDA-event timer for device work ("CUDA Measured"): start() and stop() record events on a
/// stream, elapsedMs() waits for the stop event and returns the milliseconds between them.
#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

namespace flocklife {

class EventTimer {
 public:
  EventTimer() {
    FL_CUDA_CHECK(cudaEventCreate(&start_));
    FL_CUDA_CHECK(cudaEventCreate(&stop_));
  }
  ~EventTimer() {
    FL_CUDA_WARN(cudaEventDestroy(start_));
    FL_CUDA_WARN(cudaEventDestroy(stop_));
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;

  void start(cudaStream_t s = nullptr) { FL_CUDA_CHECK(cudaEventRecord(start_, s)); }
  void stop(cudaStream_t s = nullptr) { FL_CUDA_CHECK(cudaEventRecord(stop_, s)); }
  /// Blocks until the stop event completes. @throws CudaError if a kernel in between failed.
  float elapsedMs() const {
    FL_CUDA_CHECK(cudaEventSynchronize(stop_));
    float ms = 0.f;
    FL_CUDA_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
};

}  // namespace flocklife
