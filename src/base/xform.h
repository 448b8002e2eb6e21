/* SPDX-License-Identifier: MIT */
/* 4x4 transform helpers on plain float[16] (column-major), built on cglm.
 * Outside hot loops only: each call copies into cglm's aligned types. */
#ifndef VS_BASE_XFORM_H
#define VS_BASE_XFORM_H

#include <stdbool.h>

#include "vskin/vskin.h"

void xform_identity(float out[16]);
bool xform_is_identity(const float m[16], float tolerance);
/* out = T * R * S (glTF 2.0 §3.5.3). */
void xform_from_trs(const vs_trs *trs, float out[16]);
/* Splits an affine matrix into T, R, S (positive scale unless the determinant
 * is negative, then x is negated). Shear is lost. */
void xform_decompose(const float m[16], vs_trs *out);
void xform_trs_identity(vs_trs *out);
/* out = a * b; out may alias a or b. */
void xform_mul(const float a[16], const float b[16], float out[16]);
/* Returns false (and writes identity) when m is singular. */
bool xform_invert(const float m[16], float out[16]);
void xform_transform_point(const float m[16], const float p[3], float out[3]);
void xform_transform_vector(const float m[16], const float v[3], float out[3]);
void xform_copy(const float src[16], float dst[16]);

#endif
