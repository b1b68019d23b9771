// CudaGraph (common/cuda_graph.cuh): capture records without running, a replay reads the
// buffers' contents at replay time, and an exception inside the capture ends it cleanly.
// CUDA builds only; skips without a device.
#include <gtest/gtest.h>

#include <numeric>
#include <stdexcept>
#include <vector>

#include "common/cuda_graph.cuh"
#include "common/device_buffer.cuh"
#include "common/scan.cuh"
#include "gpu_test.hpp"

namespace flocklife {
namespace {

using CudaGraphDevice = test::GpuTest;

std::vector<int> exclusiveSums(const std::vector<int>& in) {
  std::vector<int> out(in.size());
  std::exclusive_scan(in.begin(), in.end(), out.begin(), 0);
  return out;
}

TEST_F(CudaGraphDevice, CaptureRecordsAndEachReplayRunsOnTheCurrentInput) {
  const std::size_t n = 10007;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), -5000);
  DeviceBuffer<int> d_in(n), d_out(n);
  DeviceBuffer<std::uint8_t> temp(scan::exclusiveScanTempBytes(n));
  d_in.copyFromHost(in);
  d_out.fillBytes(0xFF);
  FL_CUDA_CHECK(cudaDeviceSynchronize());
  Stream stream{cudaStreamDefault};  // blocking: it waits for the copies on the legacy stream
  const std::uint64_t recorded = CudaGraph::recordedOnThisThread();
  const CudaGraph g = CudaGraph::capture(stream.get(), [&] {
    scan::exclusiveScan(d_in.data(), d_out.data(), n, temp.data(), temp.size(), stream.get());
  });
  ASSERT_TRUE(g);
  EXPECT_EQ(CudaGraph::recordedOnThisThread(), recorded + 1);
  stream.synchronize();
  EXPECT_EQ(d_out.copyToHost(), std::vector<int>(n, -1)) << "the capture ran the scan";
  g.launch(stream.get());
  stream.synchronize();
  EXPECT_EQ(d_out.copyToHost(), exclusiveSums(in));
  for (auto& x : in) x = 3 * x + 1;
  d_in.copyFromHost(in);
  g.launch(stream.get());
  stream.synchronize();
  EXPECT_EQ(d_out.copyToHost(), exclusiveSums(in)) << "the replay did not read the new input";
}

TEST_F(CudaGraphDevice, AnExceptionInsideTheCaptureEndsItAndTheStreamWorksOn) {
  const std::size_t n = 4096;
  DeviceBuffer<int> d(n);
  Stream stream{cudaStreamDefault};
  const std::uint64_t recorded = CudaGraph::recordedOnThisThread();
  EXPECT_THROW(CudaGraph::capture(stream.get(),
                                  [&] {
                                    d.fillBytes(0, stream.get());
                                    throw std::runtime_error("inside the capture");
                                  }),
               std::runtime_error);
  EXPECT_EQ(detail::streamCaptureDepth, 0);
  EXPECT_EQ(CudaGraph::recordedOnThisThread(), recorded);
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  FL_CUDA_CHECK(cudaStreamIsCapturing(stream.get(), &status));
  EXPECT_EQ(status, cudaStreamCaptureStatusNone);
  const std::vector<int> ones(n, 1);
  d.copyFromHost(ones);
  scan::exclusiveScan(d.data(), d.data(), n, stream.get());  // allocating overload, synchronizes
  EXPECT_EQ(d.copyToHost(), exclusiveSums(ones));
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

}  // namespace
}  // namespace flocklife
