#pragma once
/// @file life_cpu.hpp
/// CPU kernels (internal to the life module; users go through makeEngine()).
#include <memory>
#include <vector>

#include "life/engine.hpp"

namespace flocklife::life::detail {

/// A registry entry: what the kernel is and how to make one.
struct KernelEntry {
  KernelInfo info;
  std::unique_ptr<Engine> (*make)(const Rule&, const KernelParams&);
};

/// The entry of engine type E: E::kInfo, made by E(rule, params).
template <class E>
KernelEntry entryOf() {
  return {E::kInfo, [](const Rule& r, const KernelParams& p) -> std::unique_ptr<Engine> { return std::make_unique<E>(r, p); }};
}

/// `cpu-serial`: one byte per cell, a plain loop over every cell and its 8 neighbours with
/// torus wrap, two buffers swapped each generation. The oracle for all other kernels.
KernelEntry cpuSerialEntry();

/// `cpu-parallel` (life_cpu_parallel.cpp): cpu-serial's loop with rows split over OpenMP threads.
KernelEntry cpuParallelEntry();
/// Bit-per-cell CPU kernels (life_cpu_bitcount.cpp, life_cpu_lut6x3.cpp, life_cpu_bitsliced.cpp).
KernelEntry cpuBitcountEntry();
KernelEntry cpuLut6x3Entry();
KernelEntry cpuBitslicedEntry();

}  // namespace flocklife::life::detail
