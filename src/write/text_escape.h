/* SPDX-License-Identifier: MIT */
/* Names from files written into text outputs through vs_escape_text's rule
 * (vskin_tools.h), straight to a stream, whatever their length. */
#ifndef VS_WRITE_TEXT_ESCAPE_H
#define VS_WRITE_TEXT_ESCAPE_H

#include <stdio.h>

/* Writes text (NULL: nothing) to f, escaped as vs_escape_text does. */
void text_put_escaped(FILE *f, const char *text);

#endif
