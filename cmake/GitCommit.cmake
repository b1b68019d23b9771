# Writes ${OUT} with FLOCKLIFE_GIT_COMMIT (short hash, "+dirty" when the tree has changes), only
# when it changed, so benchmarks can record the commit they ran. Run with cmake -P at build time.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD OUTPUT_VARIABLE c
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE r1)
execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE d
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT r1 EQUAL 0 OR c STREQUAL "")
  set(c "unknown")
elseif(NOT d STREQUAL "")
  set(c "${c}+dirty")
endif()
set(text "#pragma once\n#define FLOCKLIFE_GIT_COMMIT \"${c}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT old STREQUAL text)
  file(WRITE "${OUT}" "${text}")
endif()
