#pragma once
/// @file scratch_dir.hpp
/// A folder of its own for one test, for the files a test writes and reads back.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace flocklife::test {

/// <temp>/flocklife-<tag>-<pid>-<test name>, created on construction and removed with everything
/// in it on destruction, so that tests running at the same time (ctest -j) never share files.
/// Construct it while a test runs (e.g. as a member of its fixture).
class ScratchDir {
 public:
  explicit ScratchDir(const std::string& tag)
      : dir_(std::filesystem::temp_directory_path() /
             ("flocklife-" + tag + "-" + std::to_string(::getpid()) + "-" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    std::filesystem::create_directories(dir_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::filesystem::path& dir() const { return dir_; }
  /// The path of file `name` in the folder.
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

}  // namespace flocklife::test
