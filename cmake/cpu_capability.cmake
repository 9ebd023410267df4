# Compiles each kernel file once per CPU capability, as ATen's cmake/Codegen.cmake does:
# DEFAULT (base x86-64), AVX2 (-mavx2 -mfma) and AVX512 (-mavx512f -mavx512bw -mavx512vl -mavx512dq -mfma).
# Each build gets DC_CPU_CAPABILITY=<name>, which selects the inline namespace and the registration slot.
function(densecore_add_capability_kernels target sources)
  set(_caps DEFAULT AVX2 AVX512)
  set(_flags_DEFAULT "")
  set(_flags_AVX2 -mavx2 -mfma -mf16c -mno-avx256-split-unaligned-load -mno-avx256-split-unaligned-store)
  set(_flags_AVX512 -mavx512f -mavx512bw -mavx512vl -mavx512dq -mfma -mf16c)
  foreach(_cap ${_caps})
    set(_lib ${target}_${_cap})
    add_library(${_lib} OBJECT ${sources})
    target_link_libraries(${_lib} PUBLIC densecore_compile_options)
    # The kernels see what the layer they belong to sees (csrc/CMakeLists.txt).
    target_include_directories(${_lib} PRIVATE $<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>)
    target_compile_definitions(${_lib} PRIVATE DC_CPU_CAPABILITY=${_cap} DC_CPU_CAPABILITY_${_cap}=1)
    target_compile_options(${_lib} PRIVATE -O3 ${_flags_${_cap}})
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${_lib}>)
  endforeach()
endfunction()
