#pragma once
/// @file boids_internal.hpp
/// Internal to the boids module: the registry entries and the grid traversal every grid method
/// shares (CPU and GPU).
#include <functional>
#include <memory>
#include <vector>

#include "boids/boids.hpp"

namespace flocklife::boids {

/// Calls f(cellIndex) for every cell of the uniform grid that can hold a neighbour of the boid at
/// (px, py, pz): the bounding box of cells within the largest rule distance, minus the cells whose
/// nearest point is farther than that (z outermost, x innermost, so that consecutive cells are
/// adjacent in memory). With d.periodic the box wraps around the cube's faces.
template <class F>
FL_HD FL_FORCEINLINE void forEachNeighbourCell(float px, float py, float pz, const Derived& d, F&& f) {
  const AxisRange rx = axisRange(px, d), ry = axisRange(py, d), rz = axisRange(pz, d);
  for (int z = rz.lo; z <= rz.hi; ++z) {
    const float gz = axisGapSq(pz, z, rz.all, d);
    if (!cellReachable(gz, d)) continue;
    const int wz = d.periodic ? wrapCell(z, d.resolution) : z;
    for (int y = ry.lo; y <= ry.hi; ++y) {
      const float gzy = gz + axisGapSq(py, y, ry.all, d);
      if (!cellReachable(gzy, d)) continue;
      const int wy = d.periodic ? wrapCell(y, d.resolution) : y;
      for (int x = rx.lo; x <= rx.hi; ++x) {
        if (!cellReachable(gzy + axisGapSq(px, x, rx.all, d), d)) continue;
        const int wx = d.periodic ? wrapCell(x, d.resolution) : x;
        f(cellIndex(wx, wy, wz, d));
      }
    }
  }
}

/// Like forEachNeighbourCell, but merges each row of reachable cells along x, which are adjacent in
/// the linear cell order, into one call f(firstCell, lastCell) (inclusive). With a cell-sorted
/// boid array and an exclusive-scan cell start array, a row's boids are the single slot range
/// [start[firstCell], start[lastCell + 1]). A periodic row that wraps around the cube's face
/// yields two calls. Visits exactly the cells forEachNeighbourCell visits.
template <class F>
FL_HD FL_FORCEINLINE void forEachNeighbourRow(float px, float py, float pz, const Derived& d, F&& f) {
  const AxisRange rx = axisRange(px, d), ry = axisRange(py, d), rz = axisRange(pz, d);
  const int r = d.resolution;
  for (int z = rz.lo; z <= rz.hi; ++z) {
    const float gz = axisGapSq(pz, z, rz.all, d);
    if (!cellReachable(gz, d)) continue;
    const int wz = d.periodic ? wrapCell(z, r) : z;
    for (int y = ry.lo; y <= ry.hi; ++y) {
      const float gzy = gz + axisGapSq(py, y, ry.all, d);
      if (!cellReachable(gzy, d)) continue;
      const int wy = d.periodic ? wrapCell(y, r) : y;
      // The gap along x grows away from the boid's cell, so the reachable cells are contiguous.
      int lo = rx.lo, hi = rx.hi;
      while (lo <= hi && !cellReachable(gzy + axisGapSq(px, lo, rx.all, d), d)) ++lo;
      while (hi >= lo && !cellReachable(gzy + axisGapSq(px, hi, rx.all, d), d)) --hi;
      if (lo > hi) continue;
      const std::uint32_t row = cellIndex(0, wy, wz, d);
      if (!d.periodic) {
        f(row + std::uint32_t(lo), row + std::uint32_t(hi));
        continue;
      }
      const int wlo = wrapCell(lo, r), whi = wrapCell(hi, r);
      if (wlo <= whi) {
        f(row + std::uint32_t(wlo), row + std::uint32_t(whi));
      } else {
        f(row + std::uint32_t(wlo), row + std::uint32_t(r - 1));
        f(row, row + std::uint32_t(whi));
      }
    }
  }
}

namespace detail {

struct MethodEntry {
  MethodInfo info;
  std::function<std::unique_ptr<Simulation>(const Params&, const Tuning&)> make;
};

std::vector<MethodEntry> cpuEntries();  ///< boids_cpu.cpp
#ifdef FLOCKLIFE_HAVE_CUDA
std::vector<MethodEntry> gpuEntries();  ///< boids_gpu.cu
#endif

}  // namespace detail
}  // namespace flocklife::boids
