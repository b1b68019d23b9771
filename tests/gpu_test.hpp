#pragma once
/// @file gpu_test.hpp
/// Base fixture for tests that need a CUDA device: they skip cleanly (GTEST_SKIP) when this build
/// has no CUDA or the machine has no usable device, so CPU-only machines run the rest for real.
#include <gtest/gtest.h>

#include <string>

#include "common/device.hpp"

namespace flocklife::test {

inline bool haveGpu() { return usableDevice().has_value(); }

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    if (!usableDevice(&why)) GTEST_SKIP() << why;
  }
};

}  // namespace flocklife::test
