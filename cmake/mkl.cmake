# Finds Intel MKL 2024.2 static libraries (the pip wheels mkl-static/mkl-include put them in
# <python prefix>/lib and <python prefix>/include) and defines the target densecore::mkl.
# We link MKL statically with the GNU OpenMP threading layer, as torch's wheel does, and hide its
# symbols (-Wl,--exclude-libs,ALL) so that a process holding both torch and densecore never mixes them.
execute_process(
  COMMAND ${Python_EXECUTABLE} -c "import sys; print(sys.prefix)"
  OUTPUT_VARIABLE _dc_py_prefix OUTPUT_STRIP_TRAILING_WHITESPACE)
set(_dc_mkl_hints ${MKLROOT} $ENV{MKLROOT} ${_dc_py_prefix})

find_path(MKL_INCLUDE_DIR mkl.h HINTS ${_dc_mkl_hints} PATH_SUFFIXES include REQUIRED)
foreach(_lib mkl_gf_lp64 mkl_gnu_thread mkl_core)
  find_library(MKL_${_lib}_LIBRARY NAMES lib${_lib}.a HINTS ${_dc_mkl_hints} PATH_SUFFIXES lib REQUIRED)
endforeach()

file(STRINGS ${MKL_INCLUDE_DIR}/mkl_version.h _dc_mkl_version REGEX "#define INTEL_MKL_VERSION ")
message(STATUS "MKL: ${MKL_mkl_core_LIBRARY} (${_dc_mkl_version})")

add_library(densecore_mkl INTERFACE)
add_library(densecore::mkl ALIAS densecore_mkl)
target_include_directories(densecore_mkl SYSTEM INTERFACE ${MKL_INCLUDE_DIR})
target_link_libraries(densecore_mkl INTERFACE
  -Wl,--start-group ${MKL_mkl_gf_lp64_LIBRARY} ${MKL_mkl_gnu_thread_LIBRARY} ${MKL_mkl_core_LIBRARY}
  -Wl,--end-group OpenMP::OpenMP_CXX pthread m dl)
target_link_options(densecore_mkl INTERFACE -Wl,--exclude-libs,ALL)
