#pragma once
/// @file life_gpu.hpp
/// GPU kernels (internal; built only with CUDA). Each .cu file defines one entry function;
/// gpu_registry.cpp lists them in the order `--kernel` shows them.
#include <vector>

#include "life/life_cpu.hpp"

namespace flocklife::life::detail {

KernelEntry simpleEntry();  ///< life_simple.cu
KernelEntry fastEntry();    ///< life_fast.cu

/// All GPU kernels of this build.
std::vector<KernelEntry> gpuEntries();

}  // namespace flocklife::life::detail
