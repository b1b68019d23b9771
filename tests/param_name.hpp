#pragma once
/// @file param_name.hpp
/// GoogleTest names for tests parameterised by kernel or method names ("cpu-serial" becomes
/// "cpu_serial": a test's name may hold letters, digits and '_' only).
#include <gtest/gtest.h>

#include <cctype>
#include <string>

namespace flocklife::test {

/// `name` with every character other than a letter or a digit replaced by '_'.
inline std::string paramName(std::string name) {
  for (auto& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
}

/// The name generator of INSTANTIATE_TEST_SUITE_P over kernel or method names.
inline std::string nameOfParam(const ::testing::TestParamInfo<std::string>& info) { return paramName(info.param); }

}  // namespace flocklife::test
