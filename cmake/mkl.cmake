# Finds Intel MKL 2024.2 static libraries and headers and defines the target densecore::mkl.
# Where they are comes from the pip distributions mkl-static / mkl-include themselves: the files each one
# recorded when it was installed (importlib.metadata), which is right in any environment, a pip build with
# isolation included (its build requirements live in a temporary prefix, not in sys.prefix). MKLROOT, when
# set, comes first. We link MKL statically with the GNU OpenMP threading layer, as torch's wheel does, and
# hide its symbols (-Wl,--exclude-libs,ALL) so that a process holding both torch and densecore never mixes them.
execute_process(
  COMMAND ${Python_EXECUTABLE} -c [=[
import importlib.metadata as md, pathlib
for dist, name in (("mkl-include", "mkl.h"), ("mkl-static", "libmkl_core.a")):
    try:
        files = md.distribution(dist).files or []
    except md.PackageNotFoundError:
        continue
    for f in files:
        if f.name == name:
            print(pathlib.Path(f.locate()).resolve().parent.parent)
]=]
  OUTPUT_VARIABLE _dc_mkl_dist_roots OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
string(REPLACE "\n" ";" _dc_mkl_dist_roots "${_dc_mkl_dist_roots}")
set(_dc_mkl_hints ${MKLROOT} $ENV{MKLROOT} ${_dc_mkl_dist_roots})
if(NOT _dc_mkl_hints)
  message(FATAL_ERROR "MKL not found: install the build requirements (pip install mkl-static==2024.2.0 "
                      "mkl-include==2024.2.0) or set MKLROOT")
endif()

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
