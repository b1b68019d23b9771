# Decides whether the CUDA parts are built, and for which architectures.
# Default architectures: H200 machine code plus PTX for any later GPU (the
# driver compiles it at start). Override with -DCMAKE_CUDA_ARCHITECTURES=... or
# the CUDAARCHS environment variable.
set(FLOCKLIFE_HAVE_CUDA OFF)
if(FLOCKLIFE_ENABLE_CUDA)
  if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX}
     AND EXISTS /usr/local/cuda/bin/nvcc)
    set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES AND NOT DEFINED ENV{CUDAARCHS})
      set(CMAKE_CUDA_ARCHITECTURES "90-real;75-virtual")
    endif()
    enable_language(CUDA)
    set(CMAKE_CUDA_STANDARD 17)
    set(CMAKE_CUDA_STANDARD_REQUIRED ON)
    find_package(CUDAToolkit REQUIRED)
    set(FLOCKLIFE_HAVE_CUDA ON)
    message(STATUS "flocklife: CUDA ${CMAKE_CUDA_COMPILER_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
  endif()
endif()
if(NOT FLOCKLIFE_HAVE_CUDA)
  message(STATUS "flocklife: no CUDA toolkit found (or FLOCKLIFE_ENABLE_CUDA=OFF): "
                 "building the CPU backends only; GPU kernels, GPU tests and GPU benchmarks are switched off")
endif()
