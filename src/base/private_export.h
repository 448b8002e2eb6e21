/* SPDX-License-Identifier: MIT */
/* The mark of an internal function that a library built on the runtime
 * (libvskin_tools, libvskin_render) calls in libvskin: such a call crosses
 * a shared-library boundary, so the function must be exported. Its vs_priv_
 * prefix keeps every global name under vs_ and says that it is no part of
 * the API: no contract beyond the internal header, free to change in any
 * release, meant only for the libraries built from the same tree. */
#ifndef VS_BASE_PRIVATE_EXPORT_H
#define VS_BASE_PRIVATE_EXPORT_H

#if defined(__GNUC__)
#define VS_PRIV_EXPORT __attribute__((visibility("default")))
#else
#define VS_PRIV_EXPORT
#endif

#endif
