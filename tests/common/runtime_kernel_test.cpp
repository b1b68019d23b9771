// NVRTC run-time compilation (common/runtime_kernel.hpp, common/runtime_module.cuh) with the
// embedded probe program tests/common/runtime_kernel_probe.cu. CUDA builds only; the compiler
// tests need no device, the module tests skip without one.
#include <gtest/gtest.h>

#include <string>

#include "common/device_buffer.cuh"
#include "common/runtime_kernel.hpp"
#include "common/runtime_module.cuh"
#include "embedded/runtime_kernel_probe.hpp"
#include "gpu_test.hpp"

namespace flocklife {
namespace {

RuntimeSource probe(std::vector<std::string> options) {
  return {"runtime_kernel_probe.cu", std::string(test::kRuntimeKernelProbe), std::move(options), {}};
}

std::string compileError(const RuntimeSource& s, int cc = 90) {
  try {
    compileToCubin(s, cc);
  } catch (const RuntimeCompileError& e) {
    return e.what();
  }
  return "";
}

TEST(RuntimeKernel, EmbeddedProbeIsTheFileOnDisk) {
  EXPECT_NE(test::kRuntimeKernelProbe.find("extern \"C\" __global__ void scaleIndexKernel"),
            std::string_view::npos);
  EXPECT_EQ(test::kRuntimeKernelProbe.data()[test::kRuntimeKernelProbe.size()], '\0');
}

TEST(RuntimeKernel, ProbeCompilesToAnSm90Cubin) {
  const DeviceCode code = compileToCubin(probe({"-DVALUE=7"}), 90);
  EXPECT_FALSE(code.isPtx);
  EXPECT_EQ(code.arch, 90);
  ASSERT_GT(code.image.size(), 4u);
  EXPECT_EQ(std::string(code.image.data(), 4), "\x7f" "ELF");
}

TEST(RuntimeKernel, DefineOptionReachesTheSource) {
  EXPECT_EQ(compileError(probe({"-DVALUE=7", "-DEXPECT_VALUE=7"})), "");
  const std::string msg = compileError(probe({"-DVALUE=8", "-DEXPECT_VALUE=7"}));
  EXPECT_NE(msg.find("VALUE differs from EXPECT_VALUE"), std::string::npos) << msg;
  EXPECT_NE(msg.find("-DVALUE=8 -DEXPECT_VALUE=7"), std::string::npos) << msg;
}

TEST(RuntimeKernel, SyntaxErrorNamesProgramOptionsAndLine) {
  const RuntimeSource bad{"broken_probe.cu", "extern \"C\" __global__ void k() {\n  int x = ;\n}\n",
                          {"-DVALUE=1"}, {}};
  const std::string msg = compileError(bad);
  EXPECT_NE(msg.find("broken_probe.cu"), std::string::npos) << msg;
  EXPECT_NE(msg.find("sm_90"), std::string::npos) << msg;
  EXPECT_NE(msg.find("[-DVALUE=1]"), std::string::npos) << msg;
  EXPECT_NE(msg.find("broken_probe.cu(2): error"), std::string::npos) << msg;
}

TEST(RuntimeKernel, StandardHeadersAreNotAvailableButInMemoryHeadersAre) {
  const std::string msg = compileError({"std.cu", "#include <cstdint>\n", {}, {}});
  EXPECT_NE(msg.find("cstdint"), std::string::npos) << msg;
  const RuntimeSource withHeader{"main.cu", "#include \"value.h\"\nstatic_assert(VALUE == 3, \"\");\n",
                                 {}, {{"value.h", "#define VALUE 3\n"}}};
  EXPECT_EQ(compileError(withHeader), "");
}

TEST(RuntimeKernel, GpuNewerThanNvrtcGetsPtxOfTheNewestSupportedArch) {
  const auto archs = nvrtcSupportedArchs();
  ASSERT_FALSE(archs.empty());
  const DeviceCode code = compileForDevice(probe({"-DVALUE=7"}), archs.back() + 1);
  EXPECT_TRUE(code.isPtx);
  EXPECT_EQ(code.arch, archs.back());
  ASSERT_FALSE(code.image.empty());
  EXPECT_EQ(code.image.back(), '\0');
  const std::string ptx(code.image.data());
  EXPECT_NE(ptx.find(".entry scaleIndexKernel"), std::string::npos);
  EXPECT_NE(compileError(probe({"-DVALUE=7"}), archs.back() + 1).find("it supports"),
            std::string::npos);
}

TEST(RuntimeKernel, ArchOlderThanEveryTargetIsRefused) {
  EXPECT_THROW(compileForDevice(probe({"-DVALUE=7"}), 10), RuntimeCompileError);
}

using RuntimeKernelGpu = test::GpuTest;

TEST_F(RuntimeKernelGpu, ProbeKernelWritesEveryElement) {
  const RuntimeModule module(probe({"-DVALUE=7"}));
  EXPECT_EQ(module.code().arch, currentComputeCapability());
  const auto kernel = module.kernel<void(unsigned long long, long long*)>("scaleIndexKernel");
  const std::size_t n = 1'000'003;
  DeviceBuffer<long long> out(n);
  out.fillBytes(0xFF);
  const unsigned blocks = unsigned((n + 255) / 256);
  kernel.launch(dim3(blocks), dim3(256), 0, nullptr, n, out.data());
  const auto h = out.copyToHost();
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h[i], (long long)i * 7) << "element " << i;
}

TEST_F(RuntimeKernelGpu, CacheCompilesOncePerSourceAndOptions) {
  const RuntimeSource s = probe({"-DVALUE=3", "-DCACHE_TEST"});
  const auto before = runtimeCompileCount();
  const RuntimeModule& a = RuntimeModule::cached(s);
  EXPECT_EQ(runtimeCompileCount(), before + 1);
  const RuntimeModule& b = RuntimeModule::cached(s);
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(runtimeCompileCount(), before + 1);
  const RuntimeModule& c = RuntimeModule::cached(probe({"-DVALUE=4", "-DCACHE_TEST"}));
  EXPECT_NE(&a, &c);
  EXPECT_EQ(runtimeCompileCount(), before + 2);

  DeviceBuffer<long long> out(5);
  out.fillBytes(0xFF);
  c.kernel<void(unsigned long long, long long*)>("scaleIndexKernel")
      .launch(dim3(1), dim3(32), 0, nullptr, 5, out.data());
  EXPECT_EQ(out.copyToHost(), (std::vector<long long>{0, 4, 8, 12, 16}));
}

TEST_F(RuntimeKernelGpu, FailedCompilationIsNotCached) {
  const RuntimeSource bad = probe({"-DVALUE=8", "-DEXPECT_VALUE=7", "-DNOT_CACHED"});
  EXPECT_THROW(RuntimeModule::cached(bad), RuntimeCompileError);
  const auto before = runtimeCompileCount();
  EXPECT_THROW(RuntimeModule::cached(bad), RuntimeCompileError);
  EXPECT_EQ(runtimeCompileCount(), before + 1);
}

TEST_F(RuntimeKernelGpu, UnknownKernelNameIsAnErrorNamingIt) {
  const RuntimeModule& m = RuntimeModule::cached(probe({"-DVALUE=7"}));
  try {
    m.kernelHandle("noSuchKernel");
    FAIL() << "expected CudaError";
  } catch (const CudaError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("noSuchKernel"), std::string::npos) << msg;
    EXPECT_NE(msg.find("runtime_kernel_probe.cu"), std::string::npos) << msg;
  }
  // Reported once: the next launch check must not see the lookup's error again (it made the scan
  // tests after this one fail on the H200 before throwCudaError cleared it).
  EXPECT_EQ(cudaPeekAtLastError(), cudaSuccess);
}

}  // namespace
}  // namespace flocklife
