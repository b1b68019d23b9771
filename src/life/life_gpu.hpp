#pragma once
/// @file life_gpu.hpp
/// GPU kernels (internal; built only with CUDA). Each .cu file defines one entry function;
/// gpu_registry.cpp lists them in the order `--kernel` shows them.
#include <vector>

#include "common/runtime_kernel.hpp"
#include "life/life_cpu.hpp"

namespace flocklife::life::detail {

KernelEntry simpleEntry();  ///< life_simple.cu
KernelEntry simpleLutEntry();     ///< life_simple_lut.cu
KernelEntry bitcountEntry();      ///< life_bitcount.cu
KernelEntry bitcount32Entry();    ///< life_bitcount32.cu
KernelEntry lut6x3Entry();        ///< life_lut6x3.cu
KernelEntry packet64Entry();      ///< life_packet64.cu
KernelEntry tiledEntry();         ///< life_tiled.cu
KernelEntry tiledInplaceEntry();  ///< life_tiled_inplace.cu
KernelEntry fastEntry();    ///< life_fast.cu

/// The NVRTC program that runs `rule` on the fast kernel with `rows` words per thread column and
/// `haloWords` (1 for at most 16 generations per launch, else 2): fast_kernel.cuh plus one
/// `extern "C"` kernel `fast_life(const unsigned* in, unsigned* out, fast::Geometry, int
/// generations)` (life_fast.cu; exposed so that a CPU test can compile it without a device).
RuntimeSource fastRuntimeSource(const Rule& rule, int rows, int haloWords);

/// All GPU kernels of this build.
std::vector<KernelEntry> gpuEntries();

}  // namespace flocklife::life::detail
