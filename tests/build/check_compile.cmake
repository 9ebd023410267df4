# Compiles one file (syntax only) and checks the outcome: a build check run by CTest (tests/build/CMakeLists.txt).
#   cmake -DCXX=<compiler> -DSOURCE=<file> -DINCLUDES=<dir>|<dir>... -DEXPECT=PASS|FAIL [-DREGEX=<text>]
#         [-DADD_OP_ROW=<name> -DAUTOGRAD=<csrc/densecore/autograd> -DWORK=<folder> [-DWITH_SAVED_STATE=ON]]
#         -P check_compile.cmake
# EXPECT=FAIL also needs the compiler's message to match REGEX, so that the file fails for the reason the
# check is about and not for another one. ADD_OP_ROW writes a copy of op_list.h with one more row into
# WORK and puts it first on the include path: a row that has no derivative formula; WITH_SAVED_STATE
# also gives it a saved-state struct (a copy of saved_state.h), so that only its formula is missing.
string(REPLACE "|" ";" _includes "${INCLUDES}")
set(_flags -std=c++20 -fsyntax-only)
if(ADD_OP_ROW)
  file(REMOVE_RECURSE "${WORK}")
  file(READ "${AUTOGRAD}/op_list.h" _list)
  string(REPLACE "X(NotImplemented)" "X(NotImplemented) X(${ADD_OP_ROW})" _changed "${_list}")
  if(_changed STREQUAL _list)
    message(FATAL_ERROR "op_list.h no longer ends with X(NotImplemented): update this check")
  endif()
  file(WRITE "${WORK}/densecore/autograd/op_list.h" "${_changed}")
  if(WITH_SAVED_STATE)
    file(READ "${AUTOGRAD}/saved_state.h" _saved)
    string(FIND "${_saved}" "}  // namespace dc" _end REVERSE)
    if(_end EQUAL -1)
      message(FATAL_ERROR "saved_state.h no longer ends with '}  // namespace dc': update this check")
    endif()
    string(SUBSTRING "${_saved}" 0 ${_end} _head)
    file(WRITE "${WORK}/densecore/autograd/saved_state.h"
         "${_head}template <> struct Saved<Op::${ADD_OP_ROW}> : SavedNothing {};\n}  // namespace dc\n")
  endif()
  list(PREPEND _includes "${WORK}")
endif()
foreach(_dir IN LISTS _includes)
  list(APPEND _flags "-I${_dir}")
endforeach()
execute_process(COMMAND "${CXX}" ${_flags} "${SOURCE}" RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(EXPECT STREQUAL "PASS")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "expected ${SOURCE} to compile, it did not:\n${_out}")
  endif()
elseif(EXPECT STREQUAL "FAIL")
  if(_rc EQUAL 0)
    message(FATAL_ERROR "expected ${SOURCE} to fail to compile, it compiled")
  endif()
  if(NOT _out MATCHES "${REGEX}")
    message(FATAL_ERROR "${SOURCE} failed to compile, but not with /${REGEX}/:\n${_out}")
  endif()
  message(STATUS "refused as expected: ${CMAKE_MATCH_0}")
else()
  message(FATAL_ERROR "EXPECT must be PASS or FAIL")
endif()
