# SPDX-License-Identifier: MIT
# Fails when a library defines a global symbol without the vs_ prefix: a
# program linking it could then have one of its own functions replaced by
# vskin's, or vskin's calls bound to the program's (read_file, set_error,
# json_object, ...). The static library's internal names are made local at
# build time (CMakeLists.txt, VSKIN_LOCALIZE_STATIC); the shared library
# exports only what the public headers declare. One kind of name is
# allowed besides: a weak instantiation of a C++ standard library template
# (namespace std), which the Draco shim's inline code emits whatever the
# visibility preset, as libstdc++ declares std with default visibility. By
# the one-definition rule every copy of it is the same code, so a program's
# copy and vskin's may stand in for each other.
# Run by CTest as: cmake -DNM=nm -DLIBRARY=libvskin.a -P this file.
if(NOT NM OR NOT EXISTS "${LIBRARY}")
  message(FATAL_ERROR "usage: -DNM=nm -DLIBRARY=libvskin.a|libvskin.so")
endif()
if(LIBRARY MATCHES "\\.so")
  set(dynamic -D)
endif()
execute_process(COMMAND ${NM} -g ${dynamic} --defined-only "${LIBRARY}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} ${LIBRARY} failed (${rc})")
endif()
string(REGEX MATCHALL "[0-9a-fA-F]+ [A-Za-z] [^\n]+" symbols "${listing}")
set(public 0)
set(foreign "")
foreach(line ${symbols})
  string(REGEX REPLACE "^[0-9a-fA-F]+ [A-Za-z] " "" name "${line}")
  string(REGEX REPLACE "^[0-9a-fA-F]+ ([A-Za-z]) .*" "\\1" type "${line}")
  if(name MATCHES "^vs_")
    math(EXPR public "${public} + 1")
  elseif(type MATCHES "^[WVu]$" AND name MATCHES "^_Z(N|NK)?St")
    # A standard library template's instance (see above).
  else()
    list(APPEND foreign "${name}")
  endif()
endforeach()
if(public LESS 5)
  message(FATAL_ERROR "${LIBRARY}: only ${public} vs_ symbols found")
endif()
if(foreign)
  list(LENGTH foreign n)
  list(JOIN foreign " " text)
  message(FATAL_ERROR "${LIBRARY}: ${n} global symbols without vs_: ${text}")
endif()
message(STATUS "${LIBRARY}: ${public} global symbols, all vs_")
