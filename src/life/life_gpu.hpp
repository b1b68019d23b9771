#pragma once
/// @file life_gpu.hpp
/// GPU kernels (internal; built only with CUDA). Each .cu file defines one entry function;
/// gpu_registry.cpp lists them in the order `--kernel` shows them.
#include <vector>

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

/// All GPU kernels of this build.
std::vector<KernelEntry> gpuEntries();

}  // namespace flocklife::life::detail
