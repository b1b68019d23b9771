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
