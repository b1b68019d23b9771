#pragma once
/// @file life_gpu.hpp
/// GPU kernels (internal; built only with CUDA). Each .cu file contributes registry entries.
#include <vector>

#include "life/life_cpu.hpp"

namespace flocklife::life::detail {

/// All GPU kernels of this build, in the order `--kernel` lists them.
std::vector<KernelEntry> gpuEntries();

}  // namespace flocklife::life::detail
