#pragma once
/// @file cuda_graph.cuh
/// A CUDA graph recorded by stream capture and replayed with one launch: a fixed sequence of
/// kernels and memsets costs one host call instead of one per operation, and the device starts
/// each node with a smaller gap than a separate launch (CUDA C++ Programming Guide, "CUDA Graphs",
/// section "Creating a Graph Using Stream Capture").
#include <cuda_runtime.h>

#include <cstdint>
#include <utility>

#include "common/cuda_check.cuh"

namespace flocklife {

/// An instantiated CUDA graph (cudaGraphExec_t), move-only; empty when default-constructed.
/// The graph holds the kernel arguments and device pointers of the capture: replaying it after
/// those buffers were freed or reallocated is an error the caller must avoid (drop the graph).
class CudaGraph {
 public:
  CudaGraph() = default;

  /// Runs queue() once on the host while `stream` is captured (cudaStreamCaptureModeThreadLocal),
  /// so that the work it queues on `stream` is recorded, not run; returns the graph instantiated.
  /// `stream` must be a stream the caller created (the legacy default stream cannot be captured),
  /// and queue() must queue its work only there and must not synchronize or allocate. While a
  /// blocking stream (cudaStreamDefault) is captured, no thread may use the legacy default stream,
  /// which would have to wait for it. While queue() runs, debug builds' FL_CUDA_CHECK_LAUNCH does
  /// not synchronize on this thread (detail::streamCaptureDepth; other threads are not covered).
  /// @throws CudaError if capture or instantiation fails; whatever queue() throws, after the
  ///         capture has been ended and its partial graph dropped (the stream is usable again).
  template <class Queue>
  static CudaGraph capture(cudaStream_t stream, Queue&& queue) {
    FL_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    cudaGraph_t graph = nullptr;
    ++detail::streamCaptureDepth;
    try {
      queue();
    } catch (...) {
      --detail::streamCaptureDepth;
      cudaStreamEndCapture(stream, &graph);  // may report the capture invalidated; ends it either way
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();  // the failed capture must not show up at the next launch check
      throw;
    }
    --detail::streamCaptureDepth;
    FL_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
    CudaGraph g;
    const cudaError_t e = cudaGraphInstantiate(&g.exec_, graph, 0);
    FL_CUDA_WARN(cudaGraphDestroy(graph));  // the executable graph keeps what it needs
    FL_CUDA_CHECK(e);
    ++recorded_;
    return g;
  }

  /// Graphs this thread has recorded and instantiated so far (tests count them).
  static std::uint64_t recordedOnThisThread() noexcept { return recorded_; }

  ~CudaGraph() {
    if (exec_) FL_CUDA_WARN(cudaGraphExecDestroy(exec_));
  }
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  CudaGraph(CudaGraph&& o) noexcept : exec_(std::exchange(o.exec_, nullptr)) {}
  CudaGraph& operator=(CudaGraph&& o) noexcept {
    std::swap(exec_, o.exec_);
    return *this;
  }

  explicit operator bool() const noexcept { return exec_ != nullptr; }

  /// Queues one replay of the whole graph on `stream`; in debug builds also synchronizes, as
  /// FL_CUDA_CHECK_LAUNCH does after a launch. @throws CudaError.
  void launch(cudaStream_t stream) const {
    FL_CUDA_CHECK(cudaGraphLaunch(exec_, stream));
    FL_CUDA_CHECK_LAUNCH();
  }

 private:
  static inline thread_local std::uint64_t recorded_ = 0;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace flocklife
