# One place for warnings: -Wall -Wextra for C++, forwarded to nvcc's host compiler.
function(flocklife_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra --expt-relaxed-constexpr -Werror=cross-execution-space-call>)
endfunction()
