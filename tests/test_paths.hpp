#pragma once
/// @file test_paths.hpp
/// Where tests find the source tree (data/patterns) and the built `flocklife` executable, also
/// when the build folder was copied to another machine (the GPU batch): the compile-time paths
/// are tried first, then the current directory (ctest and scripts/device-batch.sh run tests from
/// the repository root) and the folder above the test binary.
#include <filesystem>
#include <string>

namespace flocklife::test {

inline std::string sourceDir() {
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(FLOCKLIFE_SOURCE_DIR) / "data/patterns")) return FLOCKLIFE_SOURCE_DIR;
  return fs::current_path().string();
}

#ifdef FLOCKLIFE_EXE
/// The `flocklife` executable of this build.
inline std::string flocklifeExe() {
  namespace fs = std::filesystem;
  if (fs::exists(FLOCKLIFE_EXE)) return FLOCKLIFE_EXE;
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  const fs::path sibling = self.parent_path().parent_path() / "flocklife";
  if (!ec && fs::exists(sibling)) return sibling.string();
  return "build/flocklife";
}
#endif

}  // namespace flocklife::test
