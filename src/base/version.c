/* SPDX-License-Identifier: MIT */
/* vs_version: the version compiled into the library, so that a program can
 * tell which shared library it runs with. */
#include "vskin/vskin.h"

const char *vs_version(void)
{
    return VS_VERSION_STRING;
}
