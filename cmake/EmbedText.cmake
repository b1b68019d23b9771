# flocklife_embed_text(<target> <input file> <C++ symbol>)
# Embeds a text file (e.g. a CUDA source that NVRTC compiles at run time) into <target>.
# At build time, and again whenever the input changes, generates
#   <build dir>/embedded/<input name without extensions>.hpp  declaring
#       extern const std::string_view <symbol>;   (namespaces allowed: flocklife::life::kSource)
#   and a .cpp defining it over a NUL-terminated char array (hex escapes, so any byte is safe).
# The header's folder is added to <target>'s include path: #include "embedded/<name>.hpp".
set(FLOCKLIFE_EMBED_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/EmbedTextGenerate.cmake)
function(flocklife_embed_text target input symbol)
  get_filename_component(in "${input}" ABSOLUTE)
  get_filename_component(name "${in}" NAME_WE)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/flocklife_embedded_${target})
  set(hpp ${dir}/embedded/${name}.hpp)
  set(cpp ${dir}/embedded/${name}.cpp)
  add_custom_command(OUTPUT ${hpp} ${cpp}
    COMMAND ${CMAKE_COMMAND} -DIN=${in} -DHPP=${hpp} -DCPP=${cpp} -DSYMBOL=${symbol}
            -P ${FLOCKLIFE_EMBED_SCRIPT}
    DEPENDS ${in} ${FLOCKLIFE_EMBED_SCRIPT}
    COMMENT "Embedding ${name} as ${symbol}" VERBATIM)
  target_sources(${target} PRIVATE ${hpp} ${cpp})
  target_include_directories(${target} PRIVATE ${dir})
endfunction()
