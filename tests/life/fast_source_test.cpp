// The fast kernel's run-time source (NVRTC, life_fast.cu) compiles for sm_90 without a device, for
// rules with and without the compile-time shortcuts and for both halo layouts (CUDA builds only).
#include <gtest/gtest.h>

#include <string>

#include "common/runtime_kernel.hpp"
#include "life/life_gpu.hpp"

namespace flocklife::life {

TEST(FastRuntimeSource, CompilesToCubinForSm90) {
  for (const auto& [text, rows, haloWords] :
       {std::tuple<const char*, int, int>{"B36/S23", 16, 1}, {"B0/S8", 8, 2}, {"B3678/S34678", 24, 1}}) {
    const RuntimeSource source = detail::fastRuntimeSource(Rule::parse(text), rows, haloWords);
    EXPECT_NE(source.code.find("fast_life"), std::string::npos);
    const DeviceCode code = compileToCubin(source, 90);
    ASSERT_GT(code.image.size(), 4u) << source.name;
    EXPECT_EQ(std::string(code.image.data() + 1, 3), "ELF") << source.name;
    EXPECT_FALSE(code.isPtx);
  }
}

TEST(FastRuntimeSource, NamesTheRuleAndVariantInTheProgramName) {
  const RuntimeSource source = detail::fastRuntimeSource(Rule::parse("B36/S23"), 12, 2);
  EXPECT_EQ(source.name, "life_fast_B72_S12_r12_h2.cu");
  EXPECT_NE(source.code.find("StaticRule<72u, 12u>"), std::string::npos);
}

}  // namespace flocklife::life
