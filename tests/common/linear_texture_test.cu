// LinearTexture (common/linear_texture.cuh): fetches through the texture return the buffer's
// elements bit for bit, what fits() accepts, the errors, and moves. CUDA builds only; skips without
// a device.
#include <gtest/gtest.h>

#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/linear_texture.cuh"
#include "gpu_test.hpp"

namespace flocklife {
namespace {

using LinearTextureDevice = test::GpuTest;

__global__ void fetchKernel(cudaTextureObject_t tex, unsigned n, float4* out) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(tex, int(i));
}

TEST_F(LinearTextureDevice, FetchesReturnTheBufferBitForBit) {
  const unsigned n = 100003;  // not a multiple of the block
  std::vector<float4> host(n);
  for (unsigned i = 0; i < n; ++i)  // signed zeros, subnormals, large and small values
    host[i] = make_float4(float(i) * 1e-3f - 50.f, -0.f, 1e-40f * float(i % 7), float(i) * 1e30f);
  DeviceBuffer<float4> in(n), out(n);
  in.copyFromHost(host);
  out.fillBytes(0xFF);  // NaN: an element the kernel misses shows up
  const LinearTexture<float4> tex(in.data(), n);
  ASSERT_TRUE(tex);
  fetchKernel<<<(n + 255) / 256, 256>>>(tex.handle(), n, out.data());
  FL_CUDA_CHECK_LAUNCH();
  const std::vector<float4> got = out.copyToHost();
  ASSERT_EQ(std::memcmp(got.data(), host.data(), n * sizeof(float4)), 0);
}

TEST_F(LinearTextureDevice, FitsAlignedCountsUpToTheDeviceLimit) {
  const std::size_t max = LinearTexture<float4>::maxElements(), alignment = LinearTexture<float4>::alignment();
  std::cout << "largest linear texture: " << max << " elements; texture alignment: " << alignment << " bytes\n";
  RecordProperty("max_elements", std::to_string(max));
  DeviceBuffer<float4> buf(64);
  EXPECT_TRUE(LinearTexture<float4>::fits(buf.data(), 1));
  EXPECT_TRUE(LinearTexture<float4>::fits(buf.data(), max));  // the address only: no memory behind it is read
  EXPECT_FALSE(LinearTexture<float4>::fits(buf.data(), 0));
  EXPECT_FALSE(LinearTexture<float4>::fits(buf.data(), max + 1));
  ASSERT_GT(alignment, sizeof(float4));
  EXPECT_FALSE(LinearTexture<float4>::fits(buf.data() + 1, 8));
}

TEST_F(LinearTextureDevice, IfFitsMakesOneOnlyWhereItFits) {
  DeviceBuffer<float4> buf(64);
  const std::uint64_t before = LinearTexture<float4>::madeOnThisThread();
  EXPECT_TRUE(LinearTexture<float4>::ifFits(buf.data(), 64));
  EXPECT_FALSE(LinearTexture<float4>::ifFits(buf.data(), 0));
  EXPECT_FALSE(LinearTexture<float4>::ifFits(buf.data(), LinearTexture<float4>::maxElements() + 1));
  EXPECT_FALSE(LinearTexture<float4>::ifFits(buf.data() + 1, 8));
  EXPECT_EQ(LinearTexture<float4>::madeOnThisThread(), before + 1);
}

TEST_F(LinearTextureDevice, BadCountOrAddressThrowsNamingTheLimits) {
  DeviceBuffer<float4> buf(64);
  for (auto make : {+[](const float4* p) { (void)LinearTexture<float4>(p, 0); },
                    +[](const float4* p) { (void)LinearTexture<float4>(p, LinearTexture<float4>::maxElements() + 1); },
                    +[](const float4* p) { (void)LinearTexture<float4>(p + 1, 8); }}) {
    try {
      make(buf.data());
      ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("largest linear texture"), std::string::npos) << what;
      EXPECT_NE(what.find("aligned to " + std::to_string(LinearTexture<float4>::alignment()) + " bytes"),
                std::string::npos)
          << what;
    }
  }
}

TEST_F(LinearTextureDevice, MovesHandTheObjectOver) {
  DeviceBuffer<float4> buf(64);
  LinearTexture<float4> a(buf.data(), 64);
  const cudaTextureObject_t h = a.handle();
  ASSERT_NE(h, 0u);
  LinearTexture<float4> b(std::move(a));
  EXPECT_EQ(b.handle(), h);
  EXPECT_EQ(a.handle(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty by contract
  LinearTexture<float4> c;
  c = std::move(b);
  EXPECT_EQ(c.handle(), h);
  EXPECT_FALSE(LinearTexture<float4>());
  // Assignment swaps: into a non-empty target, the source takes the target's old object.
  LinearTexture<float4> d(buf.data(), 32);
  const cudaTextureObject_t old = d.handle();
  ASSERT_NE(old, h);
  d = std::move(c);
  EXPECT_EQ(d.handle(), h);
  EXPECT_EQ(c.handle(), old);  // NOLINT(bugprone-use-after-move)
}

TEST_F(LinearTextureDevice, CountsTheObjectsMade) {
  DeviceBuffer<float4> buf(64);
  const std::uint64_t before = LinearTexture<float4>::madeOnThisThread();
  { const LinearTexture<float4> a(buf.data(), 64), b(buf.data(), 1); }
  EXPECT_EQ(LinearTexture<float4>::madeOnThisThread(), before + 2);
  EXPECT_THROW(LinearTexture<float4>(buf.data(), 0), std::invalid_argument);
  EXPECT_EQ(LinearTexture<float4>::madeOnThisThread(), before + 2);
}

}  // namespace
}  // namespace flocklife
