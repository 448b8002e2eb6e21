# SPDX-License-Identifier: MIT
# Fails when a source file of the project lacks its license line (an SPDX
# identifier in its first three lines), so that every file says under what
# terms it may be used. Test data keeps its own licenses (THIRD_PARTY.md).
# Run by CTest as: cmake -DROOT=<source dir> -P this file.
if(NOT IS_DIRECTORY "${ROOT}/src")
  message(FATAL_ERROR "usage: -DROOT=<the vskin source directory>")
endif()
file(GLOB_RECURSE sources RELATIVE "${ROOT}"
     "${ROOT}/src/*.c" "${ROOT}/src/*.cpp" "${ROOT}/src/*.h" "${ROOT}/include/*.h"
     "${ROOT}/tools/*.c" "${ROOT}/tools/*.h" "${ROOT}/bench/*.c"
     "${ROOT}/bench/*.h" "${ROOT}/fuzz/*.c" "${ROOT}/fuzz/*.h"
     "${ROOT}/tests/*.c" "${ROOT}/tests/*.cpp" "${ROOT}/tests/*.h" "${ROOT}/tests/*.cmake"
     "${ROOT}/tests/*.py" "${ROOT}/tests/*.mjs" "${ROOT}/scripts/*"
     "${ROOT}/python/*.py" "${ROOT}/python/*.toml"
     "${ROOT}/cmake/*" "${ROOT}/*CMakeLists.txt")
list(FILTER sources EXCLUDE REGEX "^(build|node_modules)")
set(missing "")
foreach(f ${sources})
  file(STRINGS "${ROOT}/${f}" head LIMIT_COUNT 3)
  if(NOT head MATCHES "SPDX-License-Identifier: ")
    list(APPEND missing "${f}")
  endif()
endforeach()
list(LENGTH sources count)
if(count LESS 100)
  message(FATAL_ERROR "only ${count} source files found under ${ROOT}")
endif()
if(missing)
  list(JOIN missing "\n  " text)
  message(FATAL_ERROR "no SPDX-License-Identifier in the first lines of:\n  ${text}")
endif()
message(STATUS "${count} source files, each with its license line")
