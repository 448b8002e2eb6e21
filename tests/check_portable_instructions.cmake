# SPDX-License-Identifier: MIT
# Fails when the library's machine code holds an instruction whose result
# the x86 manuals leave to each CPU: the reciprocal and reciprocal square
# root estimates (rcpps, rsqrtps and their scalar, AVX, AVX-512 14- and
# 28-bit and FP16 forms) and AVX-512ER's exp2 estimate. Intel and AMD CPUs
# answer them from different tables, so code built on them gives other
# floats on another CPU (docs/skinning.md, "Same results on every CPU").
# Run by CTest as: cmake -DOBJDUMP=... -DLIBRARY=... -P this file.
if(NOT OBJDUMP OR NOT EXISTS "${LIBRARY}")
  message(FATAL_ERROR "usage: -DOBJDUMP=objdump -DLIBRARY=libvskin.so")
endif()
execute_process(COMMAND ${OBJDUMP} -d --no-show-raw-insn "${LIBRARY}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -d ${LIBRARY} failed (${rc})")
endif()
# Something must have been disassembled, or the test proves nothing.
string(REGEX MATCHALL "\n[ ]*[0-9a-f]+:[ ]*\t" lines "${listing}")
list(LENGTH lines count)
if(count LESS 1000)
  message(FATAL_ERROR "${LIBRARY}: only ${count} instructions disassembled")
endif()
string(REGEX MATCHALL
       "[^\n]*\t(v?rsqrt(14|28)?|v?rcp(14|28)?)(ps|pd|ss|sd|ph|sh)[ \t\n][^\n]*|[^\n]*\tvexp2p[sd][ \t][^\n]*"
       found "${listing}")
if(found)
  list(LENGTH found n)
  list(JOIN found "\n" text)
  message(FATAL_ERROR "${LIBRARY}: ${n} CPU-dependent estimate instructions:\n${text}")
endif()
message(STATUS "${LIBRARY}: ${count} instructions, no CPU-dependent estimate")
