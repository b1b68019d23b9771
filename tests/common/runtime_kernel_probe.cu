// Probe program for runtime_kernel_test.cpp, embedded at build time and compiled at run time by
// NVRTC (never by nvcc). Self-contained: NVRTC has no standard headers. Options:
//   -DVALUE=<n>         required; the kernel writes out[i] = i * VALUE
//   -DEXPECT_VALUE=<m>  optional; compilation fails unless VALUE == m
#ifndef VALUE
#error "compile with -DVALUE=<n>"
#endif
#ifdef EXPECT_VALUE
static_assert(VALUE == EXPECT_VALUE, "VALUE differs from EXPECT_VALUE");
#endif

extern "C" __global__ void scaleIndexKernel(unsigned long long n, long long* out) {
  const unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (long long)i * VALUE;
}
