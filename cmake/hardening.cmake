# Compiler and linker hardening for every target this project builds (the core library, the per-capability
# kernels, nanobind's library and the _C module, the C++ tests), and the optional sanitizer build.
# Included before any target is made, so the directory-wide options reach all of them.
# tests/python/test_hardening.py reads the built _C and checks each property; docs/reliability.md says why
# each flag is there and what it costs.
#
# Hardened (every build):
#   -fstack-protector-strong   a canary in each function with a local array or address-taken local
#   -D_FORTIFY_SOURCE=2        glibc's checked memcpy/snprintf/... (__*_chk) where the object size is known;
#                              it needs optimization, so a Debug (-O0) build goes without (glibc warns and
#                              ignores it there); Release is -O3 and the kernels are -O3 in every build type
#   -Wl,-z,relro,-z,now        full RELRO: every symbol bound at load, then the GOT made read-only
#   -Wl,-z,noexecstack         a non-executable stack even if some linked object lacks the GNU-stack note
#
# DENSECORE_SANITIZE=ON adds ASan + UBSan (scripts/sanitize.sh builds it in its own folder). UBSan stops at the
# first report (-fno-sanitize-recover=all), so a report cannot scroll by unnoticed. That build leaves out
# _FORTIFY_SOURCE: the sanitizer runtimes do not intercept glibc's __*_chk functions, so fortified calls would
# escape ASan's checks (the ASan FAQ and google/sanitizers issue 247 say to build without it).
option(DENSECORE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

add_compile_options(-fstack-protector-strong)
add_link_options(LINKER:-z,relro LINKER:-z,now LINKER:-z,noexecstack)

if(DENSECORE_SANITIZE)
  set(_dc_sanitize_flags -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  # -g1: file and line in the sanitizer's stack traces, without the full debug info's compile time.
  add_compile_options(${_dc_sanitize_flags} -g1 -U_FORTIFY_SOURCE)
  add_link_options(${_dc_sanitize_flags})
else()
  add_compile_options($<$<NOT:$<CONFIG:Debug>>:-U_FORTIFY_SOURCE> $<$<NOT:$<CONFIG:Debug>>:-D_FORTIFY_SOURCE=2>)
endif()
