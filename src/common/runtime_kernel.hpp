#pragma once
/// @file runtime_kernel.hpp
/// Run-time compilation of CUDA C++ with NVRTC (CUDA builds only; no CUDA types here, so plain
/// C++ can include it). Used where constants known only at run time should be folded into the
/// machine code, e.g. a Life-like rule's birth/survival masks (2^18 rules, one kernel each).
/// Loading and launching the result on a device: common/runtime_module.cuh.
///
/// Technique and API: NVIDIA, "NVRTC - CUDA Runtime Compilation", user guide (CUDA 13), sections
/// "Basic usage" (create, compile, get CUBIN/PTX, log) and "Supported compile options".
///
/// Sources must be self-contained: NVRTC has no standard library headers on its search path
/// (`#include <cstdint>` fails with "no directories in search list"). Use the built-in types
/// (unsigned int, unsigned long long), pass constants with -D options, and give the few headers
/// a source needs as in-memory headers (RuntimeSource::headers). Kernels meant to be looked up
/// by name must be `extern "C"` (no C++ name mangling).
/// A small kernel compiles in about 0.01-0.1 s (NVRTC 13, one CPU core); RuntimeModule::cached
/// compiles each (source, options, compute capability) once per process.
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace flocklife {

/// NVRTC rejected a program. what() names the program, the target, the options, NVRTC's error
/// and holds NVRTC's full log (lines such as "probe.cu(12): error: ...").
struct RuntimeCompileError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One CUDA C++ program for NVRTC.
struct RuntimeSource {
  std::string name;                  ///< program name in NVRTC's messages, e.g. "life_fast.cu"
  std::string code;                  ///< the CUDA C++ text, self-contained (see file docs)
  std::vector<std::string> options;  ///< e.g. "-DBIRTH_MASK=8u", "--use_fast_math"; no -arch
                                     ///< (the target is chosen from the compute capability)
  /// In-memory headers as (include name, text): `#include "<include name>"` finds the text.
  std::vector<std::pair<std::string, std::string>> headers;
};

/// Device code produced by NVRTC.
struct DeviceCode {
  std::vector<char> image;  ///< CUBIN (an ELF file), or PTX text including its terminating NUL
  bool isPtx = false;       ///< true for the PTX fallback (see compileForDevice)
  int arch = 0;             ///< the sm_<arch> (CUBIN) or compute_<arch> (PTX) built for, e.g. 90
  std::string log;          ///< NVRTC's log of a successful compilation (warnings); often empty
};

/// The architectures this NVRTC can target (e.g. 75, 80, ..., 90, 100, 120), ascending.
/// @throws RuntimeCompileError if NVRTC cannot be queried
std::vector<int> nvrtcSupportedArchs();

/// Compiles `source` to a CUBIN for `-arch=sm_<computeCapability>` (90 for the H200). Pure
/// compiler: needs no device.
/// @param computeCapability major * 10 + minor, e.g. 90
/// @throws RuntimeCompileError on a compile error or an architecture this NVRTC does not know
DeviceCode compileToCubin(const RuntimeSource& source, int computeCapability);

/// Device code for a GPU of `computeCapability`: a CUBIN when this NVRTC supports sm_<cc>; for a
/// GPU newer than the NVRTC, PTX for compute_<a> with a the newest supported arch below cc,
/// which the driver compiles for the GPU when it is loaded (its driver must be at least as new
/// as this NVRTC). Needs no device.
/// @throws RuntimeCompileError on a compile error, or when cc is older than every supported arch
DeviceCode compileForDevice(const RuntimeSource& source, int computeCapability);

/// How many NVRTC compilations this process has run (successful or not), for tests of caching.
std::uint64_t runtimeCompileCount();

}  // namespace flocklife
