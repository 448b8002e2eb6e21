/* SPDX-License-Identifier: MIT */
/* Evaluating one parsed COLLADA sampler (COLLADA 1.4.1, "Curve
 * Interpolation"). BEZIER / HERMITE segments are 2-D Bezier curves in
 * (time, value):
 *     B(s) = P0 (1-s)^3 + 3 C0 s (1-s)^2 + 3 C1 s^2 (1-s) + P1 s^3
 * with C0 the OUT_TANGENT of the segment's first key and C1 the IN_TANGENT
 * of its last key; the value at time t is B_value(s) where B_time(s) = t,
 * so s is solved for rather than taken as the linear time fraction.
 * CARDINAL and BSPLINE segments carry no tangents: the spec writes them as
 * C(s) = S M G with S = [s^3 s^2 s 1], G = [P(k-1) P(k) P(k+1) P(k+2)] the
 * key values around the segment and M their basis matrix; s is the time
 * fraction of the segment. */
#include <math.h>
#include <string.h>

#include "load/collada/collada_anim.h"

static double bezier(double p0, double p1, double p2, double p3, double s)
{
    double r = 1.0 - s;
    return p0 * r * r * r + 3.0 * p1 * s * r * r + 3.0 * p2 * s * s * r +
           p3 * s * s * s;
}

static double bezier_slope(double p0, double p1, double p2, double p3, double s)
{
    double r = 1.0 - s;
    return 3.0 *
           ((p1 - p0) * r * r + 2.0 * (p2 - p1) * s * r + (p3 - p2) * s * s);
}

double anim_bezier_solve(double x0, double x1, double x2, double x3, double x)
{
    double span = x3 - x0;
    if (!(span > 0.0)) return 0.0;
    /* Newton steps kept inside a shrinking bracket [lo, hi] with x(lo) <= x
     * <= x(hi); a step that leaves it (or a flat slope) bisects instead.
     * x(0) = x0 <= x <= x3 = x(1), so a root is always bracketed even when
     * the control times make x(s) non-monotonic. */
    double lo = 0.0, hi = 1.0, s = (x - x0) / span;
    for (int i = 0; i < 64; ++i) {
        double f = bezier(x0, x1, x2, x3, s) - x;
        if (fabs(f) <= 1e-12 * span) break;
        if (f < 0.0)
            lo = s;
        else
            hi = s;
        double d = bezier_slope(x0, x1, x2, x3, s);
        double next = d > 0.0 ? s - f / d : -1.0;
        s = (next > lo && next < hi) ? next : 0.5 * (lo + hi);
        if (hi - lo <= 1e-15) break;
    }
    return s;
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

/* Index of the segment [times[k], times[k+1]) holding t; the caller has
 * handled t outside the key range. */
static uint32_t find_segment(const anim_curve *c, double t)
{
    uint32_t lo = 0, hi = c->key_count - 1;
    while (hi - lo > 1) {
        uint32_t mid = lo + (hi - lo) / 2;
        if ((double)c->times[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Key value j of component i; the curve's two ends are extended by
 * reflection (P(-1) = 2 P0 - P1, P(n) = 2 P(n-1) - P(n-2)), so that a
 * BSPLINE curve starts and ends on its end keys and meets the values held
 * outside the key range instead of jumping to them. */
static double key_value(const anim_curve *c, int64_t j, uint32_t i)
{
    int64_t n = c->key_count, m = c->components;
    if (j < 0) return 2.0 * c->values[i] - c->values[m + i];
    if (j >= n)
        return 2.0 * c->values[(n - 1) * m + i] - c->values[(n - 2) * m + i];
    return c->values[j * m + i];
}

/* Weights of [P(k-1) P(k) P(k+1) P(k+2)] at s, the rows of S M. CARDINAL:
 * the spec's matrix with tension parameter 1/2 (a <sampler> has no input
 * that would set it), which makes the tangent at each key half the
 * difference of its neighbours: Catmull-Rom. BSPLINE: the uniform cubic
 * B-spline, M = 1/6 [-1 3 -3 1; 3 -6 3 0; -3 0 3 0; 1 4 1 0]. */
static void basis_weights(anim_interp kind, double s, double w[4])
{
    double s2 = s * s, s3 = s2 * s;
    if (kind == ANIM_CARDINAL) {
        const double a = 0.5;
        w[0] = -a * s3 + 2.0 * a * s2 - a * s;
        w[1] = (2.0 - a) * s3 + (a - 3.0) * s2 + 1.0;
        w[2] = (a - 2.0) * s3 + (3.0 - 2.0 * a) * s2 + a * s;
        w[3] = a * s3 - a * s2;
        return;
    }
    w[0] = (-s3 + 3.0 * s2 - 3.0 * s + 1.0) / 6.0;
    w[1] = (3.0 * s3 - 6.0 * s2 + 4.0) / 6.0;
    w[2] = (-3.0 * s3 + 3.0 * s2 + 3.0 * s + 1.0) / 6.0;
    w[3] = s3 / 6.0;
}

void anim_curve_eval(const anim_curve *c, double t, float *out)
{
    uint32_t n = c->key_count, m = c->components;
    /* Before the first key / after the last one the curve holds its end
     * values (Maya's CONSTANT infinity, the default of every exporter). */
    if (n == 1 || !(t > (double)c->times[0])) {
        memcpy(out, c->values, sizeof(float) * m);
        return;
    }
    if (t >= (double)c->times[n - 1]) {
        memcpy(out, c->values + (size_t)(n - 1) * m, sizeof(float) * m);
        return;
    }
    uint32_t k = find_segment(c, t);
    const float *v0 = c->values + (size_t)k * m, *v1 = v0 + m;
    double t0 = c->times[k], t1 = c->times[k + 1];
    switch ((anim_interp)c->interp[k]) {
    case ANIM_STEP:
        memcpy(out, v0, sizeof(float) * m);
        return;
    case ANIM_LINEAR: {
        double u = (t - t0) / (t1 - t0);
        for (uint32_t i = 0; i < m; ++i)
            out[i] = (float)(v0[i] + (v1[i] - (double)v0[i]) * u);
        return;
    }
    case ANIM_CUBIC:
        for (uint32_t i = 0; i < m; ++i) {
            const float *a = c->control + ((size_t)k * m + i) * 4;
            const float *b = c->control + ((size_t)(k + 1) * m + i) * 4;
            /* a[2], a[3]: out point of key k; b[0], b[1]: in point of key
             * k+1. Control times are clamped into the segment so the curve
             * stays a function of time (what Maya and FCollada do). */
            double s = anim_bezier_solve(t0, clampd(a[2], t0, t1),
                                         clampd(b[0], t0, t1), t1, t);
            out[i] = (float)bezier(v0[i], a[3], b[1], v1[i], s);
        }
        return;
    case ANIM_CARDINAL:
    case ANIM_BSPLINE: {
        double w[4];
        basis_weights((anim_interp)c->interp[k], (t - t0) / (t1 - t0), w);
        for (uint32_t i = 0; i < m; ++i) {
            double v = 0.0;
            for (int j = 0; j < 4; ++j)
                v += w[j] * key_value(c, (int64_t)k - 1 + j, i);
            out[i] = (float)v;
        }
        return;
    }
    }
    memcpy(out, v0, sizeof(float) * m);
}
