# SPDX-License-Identifier: MIT
# Turns a file into a C source defining `const unsigned char NAME[]` and
# `const size_t NAME_size`. Run in script mode: cmake -DIN=... -DOUT=... -DNAME=...
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "/* Generated from ${IN} by cmake/embed.cmake. */\n#include <stddef.h>\nconst unsigned char ${NAME}[] = {\n${bytes}0x00};\nconst size_t ${NAME}_size = ${size};\n")
