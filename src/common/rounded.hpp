#pragma once
/// @file rounded.hpp
/// Explicitly rounded float operations for maths that must give the same bits on the CPU and the
/// GPU (FL_HD): on the device the _rn intrinsics, which nvcc never contracts into a fused
/// multiply-add; on the host the plain operators (the host build does not contract them either:
/// C++17 without -ffast-math, and -ffp-contract=off for the code compiled with FMA instructions,
/// CMakeLists.txt). Round to nearest even throughout. Used by the
/// boids model (membership distances) and by point splatting (projection to pixels).
#include <cmath>
#include <cstdint>
#include <cstring>

#include "common/hd.hpp"

namespace flocklife {

FL_HD FL_FORCEINLINE float mulRn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
FL_HD FL_FORCEINLINE float addRn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
FL_HD FL_FORCEINLINE float divRn(float a, float b) {
#if defined(__CUDA_ARCH__)
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}
/// a * b + c rounded once.
FL_HD FL_FORCEINLINE float fmaRn(float a, float b, float c) {
#if defined(__CUDA_ARCH__)
  return __fmaf_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}

/// The IEEE-754 bits of x.
FL_HD FL_FORCEINLINE std::uint32_t floatBits(float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}

/// The float whose IEEE-754 bits are u (floatBits' inverse; a way to carry a uint32 in a float
/// slot, e.g. the w of a float4, bit for bit).
FL_HD FL_FORCEINLINE float floatFromBits(std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

}  // namespace flocklife
