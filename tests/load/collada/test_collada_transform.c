/* SPDX-License-Identifier: MIT */
/* COLLADA transform elements against hand-computed matrices, and the stack
 * product order (spec: post-multiplied in document order). */
#include "load/collada/collada_internal.h"
#include "test.h"

static void check_point(const collada_xform *x, uint32_t n, float px, float py,
                        float pz, float ex, float ey, float ez)
{
    float m[16];
    collada_stack_matrix(x, n, m);
    float r[3];
    for (int i = 0; i < 3; ++i)
        r[i] = m[i] * px + m[4 + i] * py + m[8 + i] * pz + m[12 + i];
    CHECK_NEAR(r[0], ex, 1e-5);
    CHECK_NEAR(r[1], ey, 1e-5);
    CHECK_NEAR(r[2], ez, 1e-5);
}

static void matrix_is_read_row_major(void)
{
    collada_xform x = {.kind = COLLADA_XF_MATRIX};
    for (int i = 0; i < 16; ++i)
        x.values[i] = (float)(i + 1);
    float m[16];
    collada_xform_matrix(&x, m);
    /* Row 0 as written is 1 2 3 4: column-major m[col*4 + 0]. */
    CHECK_NEAR(m[0], 1, 0);
    CHECK_NEAR(m[4], 2, 0);
    CHECK_NEAR(m[8], 3, 0);
    CHECK_NEAR(m[12], 4, 0);
    CHECK_NEAR(m[1], 5, 0);
    CHECK_NEAR(m[13], 8, 0);
    CHECK_NEAR(m[3], 13, 0);
    CHECK_NEAR(m[15], 16, 0);
}

static void translate_rotate_scale(void)
{
    collada_xform t = {.kind = COLLADA_XF_TRANSLATE, .values = {1, 2, 3}};
    check_point(&t, 1, 1, 1, 1, 2, 3, 4);
    /* 90 degrees about +Z takes +X to +Y (right-handed). */
    collada_xform r = {.kind = COLLADA_XF_ROTATE, .values = {0, 0, 1, 90}};
    check_point(&r, 1, 1, 0, 0, 0, 1, 0);
    /* The axis need not be unit length. */
    collada_xform r2 = {.kind = COLLADA_XF_ROTATE, .values = {0, 0, 5, 90}};
    check_point(&r2, 1, 1, 0, 0, 0, 1, 0);
    collada_xform z = {.kind = COLLADA_XF_ROTATE, .values = {0, 0, 0, 90}};
    check_point(&z, 1, 1, 2, 3, 1, 2, 3);
    collada_xform s = {.kind = COLLADA_XF_SCALE, .values = {2, 3, 4}};
    check_point(&s, 1, 1, 1, 1, 2, 3, 4);
}

static void lookat_aims_minus_z(void)
{
    /* From +X at the origin, Y up: a +90 degree turn about Y, at (1,0,0). */
    collada_xform l = {.kind = COLLADA_XF_LOOKAT,
                       .values = {1, 0, 0, 0, 0, 0, 0, 1, 0}};
    float m[16];
    collada_xform_matrix(&l, m);
    const float want[16] = {0, 0, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1};
    for (int i = 0; i < 16; ++i)
        CHECK_NEAR(m[i], want[i], 1e-6);
    /* Local -Z (the view direction) points from eye to interest. */
    check_point(&l, 1, 0, 0, -1, 0, 0, 0);
    /* A non-orthogonal up still gives an orthonormal frame. */
    collada_xform l2 = {.kind = COLLADA_XF_LOOKAT,
                        .values = {0, 0, 5, 0, 0, 0, 0, 1, 1}};
    check_point(&l2, 1, 0, 1, 0, 0, 1, 5);
    check_point(&l2, 1, 0, 0, -5, 0, 0, 0);
}

static void skew_follows_renderman(void)
{
    /* Perpendicular axes: p' = p + tan(45) * (a . p) * b. */
    collada_xform k = {.kind = COLLADA_XF_SKEW,
                       .values = {45, 0, 1, 0, 1, 0, 0}};
    check_point(&k, 1, 0, 1, 0, 1, 1, 0);
    check_point(&k, 1, 0, 2, 3, 2, 2, 3);
    check_point(&k, 1, 1, 0, 0, 1, 0, 0);
    /* a at 45 degrees to b, skewed by 15: a point on a ends at 60 degrees
     * from the perpendicular axis, i.e. (tan 60, 1, 0). */
    collada_xform k2 = {.kind = COLLADA_XF_SKEW,
                        .values = {15, 1, 1, 0, 1, 0, 0}};
    check_point(&k2, 1, 1, 1, 0, 1.7320508f, 1, 0);
    /* Parallel axes: no defined skew, identity. */
    collada_xform k3 = {.kind = COLLADA_XF_SKEW,
                        .values = {30, 1, 0, 0, 2, 0, 0}};
    check_point(&k3, 1, 1, 2, 3, 1, 2, 3);
}

/* The shear factor must stay below 1/sqrt(FLT_EPSILON) (about 2896, tan of
 * 89.98 degrees): at 90 degrees tan has no finite value, and double's
 * tan(pi/2) is 1.6e16. */
static void skew_near_90_degrees_is_degenerate(void)
{
    double k;
    static const float ok[] = {0, 45, 89.97f, -89.97f, 90.03f, 180, 269.97f};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; ++i)
        CHECK_MSG(!collada_skew_degenerate(
                      (const float[7]){ok[i], 0, 1, 0, 1, 0, 0}, &k),
                  "%g: shear %g", (double)ok[i], k);
    static const float bad[] = {90,     -90, 270, 89.99f,
                                90.01f, 450, NAN, INFINITY};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; ++i)
        CHECK_MSG(collada_skew_degenerate(
                      (const float[7]){bad[i], 0, 1, 0, 1, 0, 0}, &k),
                  "%g: shear %g", (double)bad[i], k);
    /* a at 45 degrees to b: 45 more turns a onto the perpendicular of b. */
    CHECK(collada_skew_degenerate((const float[7]){45, 1, 1, 0, 1, 0, 0}, &k));
    CHECK(!collada_skew_degenerate((const float[7]){44, 1, 1, 0, 1, 0, 0}, &k));
    /* No shear at all (parallel axes) is never degenerate. */
    CHECK(!collada_skew_degenerate((const float[7]){90, 1, 0, 0, 2, 0, 0}, &k));
    CHECK(k == 0.0);
    /* Were it built anyway, the matrix is identity, not 1.6e16. */
    collada_xform x = {.kind = COLLADA_XF_SKEW,
                       .values = {90, 0, 1, 0, 1, 0, 0}};
    check_point(&x, 1, 0, 50, 0, 0, 50, 0);
}

static void stack_multiplies_in_document_order(void)
{
    collada_xform x[3] = {
        {.kind = COLLADA_XF_TRANSLATE, .values = {1, 0, 0}},
        {.kind = COLLADA_XF_ROTATE, .values = {0, 0, 1, 90}},
        {.kind = COLLADA_XF_SCALE, .values = {2, 2, 2}},
    };
    /* T * R * S: scale first, then rotate, then translate. */
    check_point(x, 3, 1, 0, 0, 1, 2, 0);
    float m[16];
    collada_stack_matrix(x, 0, m);
    for (int i = 0; i < 16; ++i)
        CHECK_NEAR(m[i], i % 5 == 0 ? 1 : 0, 0);
}

int main(void)
{
    RUN(matrix_is_read_row_major);
    RUN(translate_rotate_scale);
    RUN(lookat_aims_minus_z);
    RUN(skew_follows_renderman);
    RUN(skew_near_90_degrees_is_degenerate);
    RUN(stack_multiplies_in_document_order);
    return test_summary();
}
