/* SPDX-License-Identifier: MIT */
/* COLLADA curve evaluation against hand-solved values: the Bezier time
 * solve, HERMITE and 1-D (COLLADA 1.4.0 style) tangents turned into Bezier
 * control points, and per-component (time, value) tangents. Samplers are
 * read with the importer's own parser from inline documents. */
#include "load/collada/collada_anim.h"
#include "test_collada_anim_fixture.h"

static void bezier_solve_inverts_time(void)
{
    /* x(s) = s^3 on [0, 1] (both control times at 0): s = cbrt(x). */
    CHECK_NEAR(anim_bezier_solve(0, 0, 0, 1, 0.125), 0.5, 1e-9);
    CHECK_NEAR(anim_bezier_solve(0, 0, 0, 1, 0.001), 0.1, 1e-9);
    /* Evenly spaced controls: x(s) = x0 + s (x3 - x0). */
    CHECK_NEAR(anim_bezier_solve(2, 3, 4, 5, 2.6), 0.2, 1e-9);
    /* Ends. */
    CHECK_NEAR(anim_bezier_solve(0, 0.9, 0.1, 1, 0), 0, 1e-9);
    CHECK_NEAR(anim_bezier_solve(0, 0.9, 0.1, 1, 1), 1, 1e-9);
}

/* A document with one sampler "s": keys `times`, values `values` (stride
 * `m`), interpolation `interp` for both keys, tangents `in`/`out` with
 * `tstride` values per key. */
static void read_curve(const char *times, const char *values, int m,
                       const char *interp, const char *in, const char *out,
                       int tstride, anim_curve *curve, anim_ctx *ctx,
                       xmlDoc **doc)
{
    static char text[4096];
    char params[256] = "";
    for (int i = 0; i < tstride; ++i)
        strcat(params, "<param name=\"P\" type=\"float\"/>");
    char vparams[256] = "";
    for (int i = 0; i < m; ++i)
        strcat(vparams, "<param name=\"V\" type=\"float\"/>");
    snprintf(
        text, sizeof text,
        "<COLLADA><library_animations><animation>"
        "<source id=\"i\"><float_array id=\"ia\" count=\"2\">%s</float_array>"
        "<technique_common><accessor source=\"#ia\" count=\"2\">"
        "<param name=\"TIME\" type=\"float\"/></accessor></technique_common>"
        "</source>"
        "<source id=\"o\"><float_array id=\"oa\" count=\"%d\">%s"
        "</float_array><technique_common><accessor source=\"#oa\" count=\"2\" "
        "stride=\"%d\">%s</accessor></technique_common></source>"
        "<source id=\"n\"><Name_array id=\"na\" count=\"2\">%s %s</Name_array>"
        "<technique_common><accessor source=\"#na\" count=\"2\">"
        "<param name=\"INTERPOLATION\" type=\"Name\"/></accessor>"
        "</technique_common></source>"
        "<source id=\"ti\"><float_array id=\"tia\" count=\"%d\">%s"
        "</float_array><technique_common><accessor source=\"#tia\" "
        "count=\"2\" stride=\"%d\">%s</accessor></technique_common></source>"
        "<source id=\"to\"><float_array id=\"toa\" count=\"%d\">%s"
        "</float_array><technique_common><accessor source=\"#toa\" "
        "count=\"2\" stride=\"%d\">%s</accessor></technique_common></source>"
        "<sampler id=\"s\"><input semantic=\"INPUT\" source=\"#i\"/>"
        "<input semantic=\"OUTPUT\" source=\"#o\"/>"
        "<input semantic=\"INTERPOLATION\" source=\"#n\"/>"
        "<input semantic=\"IN_TANGENT\" source=\"#ti\"/>"
        "<input semantic=\"OUT_TANGENT\" source=\"#to\"/></sampler>"
        "<channel source=\"#s\" target=\"x/y\"/>"
        "</animation></library_animations></COLLADA>",
        times, 2 * m, values, m, vparams, interp, interp, 2 * tstride, in,
        tstride, params, 2 * tstride, out, tstride, params);
    *doc = xmlReadMemory(text, (int)strlen(text), "curve.dae", NULL, 0);
    if (!*doc) abort();
    ctx->c->root = xmlDocGetRootElement(*doc);
    const xmlNode *sampler;
    if (collada_index_ids(ctx->c) != VS_OK ||
        collada_resolve(ctx->c, ctx->c->root, NULL, "#s", "sampler",
                        &sampler) != VS_OK)
        abort();
    const xmlNode *channel = sampler->next;
    vs_result r = anim_sampler_curve(ctx, channel, sampler, curve);
    CHECK_MSG(r == VS_OK, "%s", ctx->c->error->message);
    if (r != VS_OK) abort();
}

static void with_curve(const char *times, const char *values, int m,
                       const char *interp, const char *in, const char *out,
                       int tstride, double t, const double *want)
{
    static const char *const ids[] = {"x"};
    fx_anim f;
    fx_init(&f, "curve.dae", 1, ids);
    vs_error err = {0};
    collada_ctx cc = {.asset = f.asset, .error = &err, .src = "curve.dae"};
    arena_init(&cc.tmp, 0, NULL);
    anim_ctx ctx = {.c = &cc, .stacks = f.stacks};
    anim_curve c;
    xmlDoc *doc;
    read_curve(times, values, m, interp, in, out, tstride, &c, &ctx, &doc);
    float v[16];
    anim_curve_eval(&c, t, v);
    for (int i = 0; i < m; ++i)
        CHECK_MSG(fabs(v[i] - want[i]) <= 1e-5, "%s t=%g [%d]: %g, want %g",
                  interp, t, i, (double)v[i], want[i]);
    xmlFreeDoc(doc);
    arena_free(&cc.tmp);
    vs_asset_free(f.asset);
}

static void hermite_one_dimensional(void)
{
    /* H(s) with zero tangents: 10 (3 s^2 - 2 s^3), s = t. */
    with_curve("0 1", "0 10", 1, "HERMITE", "0 0", "0 0", 1, 0.25,
               (double[]){1.5625});
    with_curve("0 1", "0 10", 1, "HERMITE", "0 0", "0 0", 1, 0.5,
               (double[]){5});
    /* T0 = 30 per segment: + 30 (s^3 - 2 s^2 + s) = 30 * 0.140625 at s =
     * 0.25. */
    with_curve("0 1", "0 10", 1, "HERMITE", "0 0", "30 0", 1, 0.25,
               (double[]){1.5625 + 30 * 0.140625});
}

static void hermite_two_dimensional(void)
{
    /* (dtime, dvalue) = (2, 0) over a 2 s segment: time is linear in s. */
    with_curve("0 2", "0 10", 1, "HERMITE", "0 0 2 0", "2 0 0 0", 2, 0.5,
               (double[]){1.5625});
}

static void bezier_one_dimensional(void)
{
    /* 1.4.0 tangents are value offsets a third along: C0 = (1/3, 0 + 2),
     * C1 = (2/3, 10 - 3); at t = 0.5, s = 0.5:
     * (3 * 2 + 3 * 7 + 10) / 8 = 4.625. */
    with_curve("0 1", "0 10", 1, "BEZIER", "0 3", "2 0", 1, 0.5,
               (double[]){4.625});
}

static void bezier_per_component_pairs(void)
{
    /* translate-like, 3 values per key, tangents (time, value) per value as
     * Maya writes them (stride 6). X: controls on the line, so 3 t; Y: the s^3
     * time curve of step_bezier.dae; Z: flat. */
    with_curve("0 1", "0 0 7  3 10 7", 3, "BEZIER",
               "0 0 0 0 0 7  0.666667 2 0 10 0.666667 7",
               "0.333333 1 0 0 0.333333 7  1 3 1 10 1 7", 6, 0.125,
               (double[]){0.375, 5, 7});
}

int main(void)
{
    RUN(bezier_solve_inverts_time);
    RUN(hermite_one_dimensional);
    RUN(hermite_two_dimensional);
    RUN(bezier_one_dimensional);
    RUN(bezier_per_component_pairs);
    return test_summary();
}
