#include <gtest/gtest.h>

#include "common/device.hpp"
#include "common/errors.hpp"
#include "common/memory.hpp"
#include "gpu_test.hpp"

namespace flocklife {

TEST(Device, UsableDeviceGivesAReasonWhenAbsent) {
  std::string why;
  const auto d = usableDevice(&why);
  if (d) {
    EXPECT_FALSE(d->name.empty());
    EXPECT_GT(d->totalBytes, 0u);
  } else {
    EXPECT_FALSE(why.empty());
  }
}

TEST(Memory, HostRequestLargerThanTheMachineIsRefusedWithBothSizes) {
  try {
    requireHostMemory(std::uint64_t(1) << 60, "test allocation");
    FAIL() << "expected OutOfMemoryError";
  } catch (const OutOfMemoryError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("test allocation"), std::string::npos) << msg;
    EXPECT_NE(msg.find("available"), std::string::npos) << msg;
  }
}

TEST(Memory, FormatBytes) {
  EXPECT_EQ(formatBytes(512), "512 B");
  EXPECT_EQ(formatBytes(3u << 20), "3.00 MiB");
}

using DeviceMemory = test::GpuTest;
TEST_F(DeviceMemory, RequestLargerThanTheDeviceIsRefused) {
  EXPECT_THROW(requireDeviceMemory(std::uint64_t(1) << 50, "huge"), OutOfMemoryError);
}

}  // namespace flocklife
