/* SPDX-License-Identifier: MIT */
/* Evaluating one parsed COLLADA sampler (COLLADA 1.4.1, "Curve
 * Interpolation"). Cubic segments are 2-D Bezier curves in (time, value):
 *     B(s) = P0 (1-s)^3 + 3 C0 s (1-s)^2 + 3 C1 s^2 (1-s) + P1 s^3
 * with C0 the OUT_TANGENT of the segment's first key and C1 the IN_TANGENT
 * of its last key; the value at time t is B_value(s) where B_time(s) = t,
 * so s is solved for rather than taken as the linear time fraction. */
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
    }
    memcpy(out, v0, sizeof(float) * m);
}
