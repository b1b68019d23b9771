#pragma once
/// @file hd.hpp
/// FL_HD marks maths shared by host and device code: `__host__ __device__` under nvcc, nothing
/// under a plain C++ compiler, so the same inline functions build in .cpp files and CPU tests.
#if defined(__CUDACC__)
#define FL_HD __host__ __device__
#define FL_FORCEINLINE __forceinline__
#else
#define FL_HD
#define FL_FORCEINLINE inline
#endif
/// FL_UNROLL before a loop of constant trip count asks nvcc to unroll it fully in device code (so
/// that small arrays indexed by the loop stay in registers); nothing in host code.
#if defined(__CUDA_ARCH__)
#define FL_UNROLL _Pragma("unroll")
#else
#define FL_UNROLL
#endif
