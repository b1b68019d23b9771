// NVRTC compilation (runtime_kernel.hpp) and loading of its output (runtime_module.cuh).
#include "common/runtime_kernel.hpp"

#include <nvrtc.h>

#include <algorithm>
#include <atomic>
#include <map>
#include <memory>
#include <mutex>

#include "common/device.hpp"
#include "common/runtime_module.cuh"

namespace flocklife {
namespace {

std::atomic<std::uint64_t> gCompileCount{0};

void checkNvrtc(nvrtcResult r, const char* call) {
  if (r != NVRTC_SUCCESS)
    throw RuntimeCompileError(std::string("NVRTC: ") + call + ": " + nvrtcGetErrorString(r));
}

/// Owns an nvrtcProgram.
struct Program {
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p) nvrtcDestroyProgram(&p);
  }
};

std::string describe(const RuntimeSource& s, const std::string& target) {
  std::string d = "program '" + s.name + "' for " + target + " with options [";
  for (std::size_t i = 0; i < s.options.size(); ++i) d += (i ? " " : "") + s.options[i];
  return d + "]";
}

DeviceCode compile(const RuntimeSource& source, int arch, bool ptx) {
  const std::string target = (ptx ? "compute_" : "sm_") + std::to_string(arch);
  std::vector<const char*> headerTexts, headerNames;
  for (const auto& [name, text] : source.headers) {
    headerNames.push_back(name.c_str());
    headerTexts.push_back(text.c_str());
  }
  Program prog;
  checkNvrtc(nvrtcCreateProgram(&prog.p, source.code.c_str(), source.name.c_str(),
                                int(headerTexts.size()), headerTexts.data(), headerNames.data()),
             "nvrtcCreateProgram");
  const std::string archOption = "--gpu-architecture=" + target;
  std::vector<const char*> options;
  for (const auto& o : source.options) options.push_back(o.c_str());
  options.push_back(archOption.c_str());
  ++gCompileCount;
  const nvrtcResult result = nvrtcCompileProgram(prog.p, int(options.size()), options.data());
  DeviceCode code;
  std::size_t logSize = 0;
  checkNvrtc(nvrtcGetProgramLogSize(prog.p, &logSize), "nvrtcGetProgramLogSize");
  if (logSize > 1) {
    code.log.resize(logSize);
    checkNvrtc(nvrtcGetProgramLog(prog.p, code.log.data()), "nvrtcGetProgramLog");
    code.log.resize(logSize - 1);  // drop the terminating NUL
  }
  if (result != NVRTC_SUCCESS)
    throw RuntimeCompileError("NVRTC could not compile " + describe(source, target) + ": " +
                              nvrtcGetErrorString(result) + "\n" + code.log);
  std::size_t size = 0;
  if (ptx) {
    checkNvrtc(nvrtcGetPTXSize(prog.p, &size), "nvrtcGetPTXSize");
    code.image.resize(size);
    checkNvrtc(nvrtcGetPTX(prog.p, code.image.data()), "nvrtcGetPTX");
  } else {
    checkNvrtc(nvrtcGetCUBINSize(prog.p, &size), "nvrtcGetCUBINSize");
    code.image.resize(size);
    checkNvrtc(nvrtcGetCUBIN(prog.p, code.image.data()), "nvrtcGetCUBIN");
  }
  code.isPtx = ptx;
  code.arch = arch;
  return code;
}

std::string archList(const std::vector<int>& archs) {
  std::string s;
  for (int a : archs) s += (s.empty() ? "" : ", ") + std::to_string(a);
  return s;
}

}  // namespace

std::vector<int> nvrtcSupportedArchs() {
  static const std::vector<int> archs = [] {
    int n = 0;
    checkNvrtc(nvrtcGetNumSupportedArchs(&n), "nvrtcGetNumSupportedArchs");
    std::vector<int> a(std::size_t(std::max(n, 0)));
    if (n > 0) checkNvrtc(nvrtcGetSupportedArchs(a.data()), "nvrtcGetSupportedArchs");
    return a;
  }();
  return archs;
}

DeviceCode compileToCubin(const RuntimeSource& source, int computeCapability) {
  const auto archs = nvrtcSupportedArchs();
  if (std::find(archs.begin(), archs.end(), computeCapability) == archs.end())
    throw RuntimeCompileError("NVRTC cannot compile program '" + source.name + "' for sm_" +
                              std::to_string(computeCapability) + ": it supports " +
                              archList(archs));
  return compile(source, computeCapability, false);
}

DeviceCode compileForDevice(const RuntimeSource& source, int computeCapability) {
  const auto archs = nvrtcSupportedArchs();
  if (std::find(archs.begin(), archs.end(), computeCapability) != archs.end())
    return compile(source, computeCapability, false);
  // A GPU newer than this NVRTC: PTX for the newest older arch, compiled by the driver on load.
  int best = 0;
  for (int a : archs)
    if (a < computeCapability) best = std::max(best, a);
  if (best == 0)
    throw RuntimeCompileError("NVRTC cannot compile program '" + source.name +
                              "' for compute capability " + std::to_string(computeCapability) +
                              ": it supports " + archList(archs));
  return compile(source, best, true);
}

std::uint64_t runtimeCompileCount() { return gCompileCount.load(); }

int currentComputeCapability() {
  std::string whyNot;
  const std::optional<DeviceInfo> device = usableDevice(&whyNot);
  if (!device) throw CudaError("run-time compilation needs a CUDA device: " + whyNot);
  return device->computeMajor * 10 + device->computeMinor;
}

RuntimeModule::RuntimeModule(const RuntimeSource& source)
    : RuntimeModule(compileForDevice(source, currentComputeCapability()), source.name) {}

RuntimeModule::RuntimeModule(DeviceCode code, std::string programName)
    : code_(std::move(code)), programName_(std::move(programName)) {
  const cudaError_t e = cudaLibraryLoadData(&library_, code_.image.data(), nullptr, nullptr, 0,
                                            nullptr, nullptr, 0);
  if (e != cudaSuccess) {
    library_ = nullptr;
    detail::throwCudaError(e, ("cudaLibraryLoadData(" + programName_ + ")").c_str(), __FILE__,
                           __LINE__);
  }
}

RuntimeModule::~RuntimeModule() {
  if (library_) FL_CUDA_WARN(cudaLibraryUnload(library_));
}

RuntimeModule::RuntimeModule(RuntimeModule&& o) noexcept
    : library_(std::exchange(o.library_, nullptr)),
      code_(std::move(o.code_)),
      programName_(std::move(o.programName_)) {}

RuntimeModule& RuntimeModule::operator=(RuntimeModule&& o) noexcept {
  std::swap(library_, o.library_);
  std::swap(code_, o.code_);
  std::swap(programName_, o.programName_);
  return *this;
}

cudaKernel_t RuntimeModule::kernelHandle(const std::string& name) const {
  cudaKernel_t k = nullptr;
  const cudaError_t e = cudaLibraryGetKernel(&k, library_, name.c_str());
  if (e != cudaSuccess)
    detail::throwCudaError(
        e, ("cudaLibraryGetKernel(\"" + name + "\") in program '" + programName_ + "'").c_str(),
        __FILE__, __LINE__);
  return k;
}

const RuntimeModule& RuntimeModule::cached(const RuntimeSource& source) {
  // Never destroyed: unloading at exit would race the CUDA runtime's own teardown.
  static auto* mutex = new std::mutex;
  static auto* modules = new std::map<std::string, std::unique_ptr<RuntimeModule>>;
  const int cc = currentComputeCapability();
  std::string key = std::to_string(cc) + '\0' + source.name + '\0' + source.code + '\0' +
                    std::to_string(source.options.size()) + '\0';
  for (const auto& o : source.options) key += o + '\0';
  for (const auto& [name, text] : source.headers) key += name + '\0' + text + '\0';
  std::lock_guard<std::mutex> lock(*mutex);
  auto& slot = (*modules)[key];
  if (!slot) {
    try {
      slot = std::make_unique<RuntimeModule>(compileForDevice(source, cc), source.name);
    } catch (...) {
      modules->erase(key);
      throw;
    }
  }
  return *slot;
}

}  // namespace flocklife
