/* SPDX-License-Identifier: MIT */
/* The SIMD half of a DQS block, written once over a small vector vocabulary
 * and included by dqs_kernel.c once per instruction set. The includer
 * defines:
 *   V, W             vector type and its lanes (W divides DQS_BLOCK)
 *   V_LOAD(p), V_STORE(p, v), V_SET1(x)
 *   V_ADD, V_SUB, V_MUL, V_DIV, V_SQRT
 *   V_SEL_GT(a, b, x, y)   lane-wise a > b ? x : y (false for NaN)
 *   V_SEL_EQ(a, b, x, y)   lane-wise a == b ? x : y
 *   FINISH_NAME, FINISH_ATTR
 * and this file #undefs them all at its end. Every formula mirrors
 * dqs_reference.c and vertex_transform.h. */

/* normalize_to_float: zero for a zero, NaN or infinite length. */
#define NORMALIZE3(x, y, z)                                                    \
    do {                                                                       \
        V len_ = V_SQRT(V_ADD(V_ADD(V_MUL(x, x), V_MUL(y, y)), V_MUL(z, z)));  \
        V inv_ = V_DIV(one, len_);                                             \
        inv_ = V_SEL_GT(len_, zero, inv_, zero);                               \
        inv_ = V_SEL_GT(inf, len_, inv_, zero);                                \
        x = V_MUL(x, inv_);                                                    \
        y = V_MUL(y, inv_);                                                    \
        z = V_MUL(z, inv_);                                                    \
    } while (0)

static FINISH_ATTR void FINISH_NAME(dqs_block *b, int has_normals,
                                    int has_tangents)
{
    const V zero = V_SET1(0.0f), one = V_SET1(1.0f), two = V_SET1(2.0f);
    const V inf = V_SET1(INFINITY);
    for (int l = 0; l < DQS_BLOCK; l += W) {
        V qx = V_LOAD(&b->real[0][l]), qy = V_LOAD(&b->real[1][l]);
        V qz = V_LOAD(&b->real[2][l]), qw = V_LOAD(&b->real[3][l]);
        V dx = V_LOAD(&b->dual[0][l]), dy = V_LOAD(&b->dual[1][l]);
        V dz = V_LOAD(&b->dual[2][l]), dw = V_LOAD(&b->dual[3][l]);
        V len = V_SQRT(V_ADD(V_ADD(V_MUL(qx, qx), V_MUL(qy, qy)),
                             V_ADD(V_MUL(qz, qz), V_MUL(qw, qw))));
        /* Length 0 (raw weights summing to 0): q = 0 gives the identity
         * rotation below and t = 0, as the reference's special case. */
        V inv = V_SEL_EQ(len, zero, zero, V_DIV(one, len));
        qx = V_MUL(qx, inv);
        qy = V_MUL(qy, inv);
        qz = V_MUL(qz, inv);
        qw = V_MUL(qw, inv);
        dx = V_MUL(dx, inv);
        dy = V_MUL(dy, inv);
        dz = V_MUL(dz, inv);
        dw = V_MUL(dw, inv);

        /* Rotation r[c][r] (column c, row r) of the unit quaternion. */
        V xx = V_MUL(qx, qx), yy = V_MUL(qy, qy), zz = V_MUL(qz, qz);
        V xy = V_MUL(qx, qy), xz = V_MUL(qx, qz), yz = V_MUL(qy, qz);
        V wx = V_MUL(qw, qx), wy = V_MUL(qw, qy), wz = V_MUL(qw, qz);
        V r[3][3];
        r[0][0] = V_SUB(one, V_MUL(two, V_ADD(yy, zz)));
        r[0][1] = V_MUL(two, V_ADD(xy, wz));
        r[0][2] = V_MUL(two, V_SUB(xz, wy));
        r[1][0] = V_MUL(two, V_SUB(xy, wz));
        r[1][1] = V_SUB(one, V_MUL(two, V_ADD(xx, zz)));
        r[1][2] = V_MUL(two, V_ADD(yz, wx));
        r[2][0] = V_MUL(two, V_ADD(xz, wy));
        r[2][1] = V_MUL(two, V_SUB(yz, wx));
        r[2][2] = V_SUB(one, V_MUL(two, V_ADD(xx, yy)));

        /* t = 2 (qw d - dw q + q x d). */
        V t[3];
        t[0] = V_MUL(two, V_ADD(V_SUB(V_MUL(qw, dx), V_MUL(dw, qx)),
                                V_SUB(V_MUL(qy, dz), V_MUL(qz, dy))));
        t[1] = V_MUL(two, V_ADD(V_SUB(V_MUL(qw, dy), V_MUL(dw, qy)),
                                V_SUB(V_MUL(qz, dx), V_MUL(qx, dz))));
        t[2] = V_MUL(two, V_ADD(V_SUB(V_MUL(qw, dz), V_MUL(dw, qz)),
                                V_SUB(V_MUL(qx, dy), V_MUL(qy, dx))));

        /* A = R * S, a[c][r] = sum_k r[k][r] * s[c][k]. */
        V a[3][3];
        for (int c = 0; c < 3; ++c) {
            V s0 = V_LOAD(&b->s[c * 3 + 0][l]),
              s1 = V_LOAD(&b->s[c * 3 + 1][l]);
            V s2 = V_LOAD(&b->s[c * 3 + 2][l]);
            for (int row = 0; row < 3; ++row)
                a[c][row] =
                    V_ADD(V_ADD(V_MUL(r[0][row], s0), V_MUL(r[1][row], s1)),
                          V_MUL(r[2][row], s2));
        }

        V px = V_LOAD(&b->p[0][l]), py = V_LOAD(&b->p[1][l]);
        V pz = V_LOAD(&b->p[2][l]);
        for (int row = 0; row < 3; ++row)
            V_STORE(&b->p[row][l],
                    V_ADD(V_ADD(V_MUL(a[0][row], px), V_MUL(a[1][row], py)),
                          V_ADD(V_MUL(a[2][row], pz), t[row])));

        if (has_normals) {
            /* sign(det A) * cofactor(A): columns a1 x a2, a2 x a0, a0 x a1. */
            V cof[3][3];
            for (int c = 0; c < 3; ++c) {
                const V *u = a[(c + 1) % 3], *w = a[(c + 2) % 3];
                cof[c][0] = V_SUB(V_MUL(u[1], w[2]), V_MUL(u[2], w[1]));
                cof[c][1] = V_SUB(V_MUL(u[2], w[0]), V_MUL(u[0], w[2]));
                cof[c][2] = V_SUB(V_MUL(u[0], w[1]), V_MUL(u[1], w[0]));
            }
            V det = V_ADD(
                V_ADD(V_MUL(a[0][0], cof[0][0]), V_MUL(a[0][1], cof[0][1])),
                V_MUL(a[0][2], cof[0][2]));
            V sign = V_SEL_GT(zero, det, V_SET1(-1.0f), one);
            V nx = V_LOAD(&b->n[0][l]), ny = V_LOAD(&b->n[1][l]);
            V nz = V_LOAD(&b->n[2][l]);
            V o[3];
            for (int row = 0; row < 3; ++row)
                o[row] = V_MUL(sign, V_ADD(V_ADD(V_MUL(cof[0][row], nx),
                                                 V_MUL(cof[1][row], ny)),
                                           V_MUL(cof[2][row], nz)));
            NORMALIZE3(o[0], o[1], o[2]);
            for (int row = 0; row < 3; ++row)
                V_STORE(&b->n[row][l], o[row]);
        }
        if (has_tangents) {
            V tx = V_LOAD(&b->t[0][l]), ty = V_LOAD(&b->t[1][l]);
            V tz = V_LOAD(&b->t[2][l]);
            V o[3];
            for (int row = 0; row < 3; ++row)
                o[row] =
                    V_ADD(V_ADD(V_MUL(a[0][row], tx), V_MUL(a[1][row], ty)),
                          V_MUL(a[2][row], tz));
            NORMALIZE3(o[0], o[1], o[2]);
            for (int row = 0; row < 3; ++row)
                V_STORE(&b->t[row][l], o[row]);
        }
    }
}

/* Ready for the next instantiation. */
#undef NORMALIZE3
#undef V
#undef W
#undef V_LOAD
#undef V_STORE
#undef V_SET1
#undef V_ADD
#undef V_SUB
#undef V_MUL
#undef V_DIV
#undef V_SQRT
#undef V_SEL_GT
#undef V_SEL_EQ
#undef FINISH_NAME
#undef FINISH_ATTR
