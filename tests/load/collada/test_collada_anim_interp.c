/* SPDX-License-Identifier: MIT */
/* COLLADA CARDINAL and BSPLINE samplers posed through the whole loader
 * against values worked out by hand from the spec's basis matrices, and a
 * BEZIER sampler without tangent inputs, which loads as LINEAR with a
 * warning and is refused by a strict load. */
#include "test_collada_fixture.h"

/* One node "n" with <translate sid="t">; channel X is `x_interp` over the
 * keys `x_values` at times 0 1 2 3, channel Y `y_interp` likewise; `extra`
 * goes inside the X sampler (tangent inputs). */
static const char *make_doc(const char *x_interp, const char *x_values,
                            const char *y_interp, const char *y_values,
                            const char *extra)
{
    static char doc[16384];
    static const char source[] =
        "<source id=\"%s\"><float_array id=\"%s-a\" count=\"4\">%s"
        "</float_array><technique_common><accessor source=\"#%s-a\" "
        "count=\"4\"><param name=\"%s\" type=\"float\"/></accessor>"
        "</technique_common></source>\n";
    static const char names[] =
        "<source id=\"%s\"><Name_array id=\"%s-a\" count=\"4\">%s %s %s %s"
        "</Name_array><technique_common><accessor source=\"#%s-a\" "
        "count=\"4\"><param name=\"INTERPOLATION\" type=\"Name\"/>"
        "</accessor></technique_common></source>\n";
    static const char sampler[] =
        "<sampler id=\"%s\"><input semantic=\"INPUT\" source=\"#in\"/>"
        "<input semantic=\"OUTPUT\" source=\"#%s\"/>"
        "<input semantic=\"INTERPOLATION\" source=\"#%s\"/>%s</sampler>\n"
        "<channel source=\"#%s\" target=\"n/t.%s\"/>\n";
    char part[6][1024];
    snprintf(part[0], sizeof part[0], source, "in", "in", "0 1 2 3", "in",
             "TIME");
    snprintf(part[1], sizeof part[1], source, "xo", "xo", x_values, "xo", "X");
    snprintf(part[2], sizeof part[2], source, "yo", "yo", y_values, "yo", "Y");
    snprintf(part[3], sizeof part[3], names, "xi", "xi", x_interp, x_interp,
             x_interp, x_interp, "xi");
    snprintf(part[4], sizeof part[4], names, "yi", "yi", y_interp, y_interp,
             y_interp, y_interp, "yi");
    char samplers[1024];
    snprintf(part[5], sizeof part[5], sampler, "sx", "xo", "xi", extra, "sx",
             "X");
    snprintf(samplers, sizeof samplers, "%s", part[5]);
    snprintf(part[5], sizeof part[5], sampler, "sy", "yo", "yi", "", "sy", "Y");
    snprintf(doc, sizeof doc,
             "<?xml version=\"1.0\"?>\n"
             "<COLLADA version=\"1.4.1\">\n"
             "<library_animations><animation id=\"a\">\n"
             "%s%s%s%s%s%s%s"
             "</animation></library_animations>\n"
             "<library_visual_scenes><visual_scene id=\"vs\">"
             "<node id=\"n\"><translate sid=\"t\">0 0 0</translate></node>"
             "</visual_scene></library_visual_scenes>\n"
             "<scene><instance_visual_scene url=\"#vs\"/></scene>\n"
             "</COLLADA>\n",
             part[0], part[1], part[2], part[3], part[4], samplers, part[5]);
    return doc;
}

static vs_result load(const char *doc, bool strict, vs_asset **out,
                      vs_error *err)
{
    vs_load_options opt = {.strict = strict};
    *out = NULL;
    return vs_asset_load_memory(doc, strlen(doc), "interp.dae", &opt, out, err);
}

/* Translation of node "n" at time t of the only clip. */
static void translation_at(const vs_asset *a, float t, float out[3])
{
    vs_pose *p = NULL;
    vs_error err;
    float m[16] = {0};
    if (vs_pose_create(a, &p, &err) == VS_OK &&
        vs_pose_sample(p, 0, t, VS_TIME_CLAMP, &err) == VS_OK)
        vs_pose_get_local(p, (uint32_t)collada_node(a, "n"), m);
    else
        CHECK_MSG(false, "pose: %s", err.message);
    vs_pose_free(p);
    memcpy(out, m + 12, sizeof(float) * 3);
}

/* Keys P0..P3 = 0 1 4 2 at times 0 1 2 3, both channels. The ends are
 * extended by reflection: P(-1) = 2 P0 - P1 = -1, P(4) = 2 P3 - P2 = 0.
 * Checked at key times and segment midpoints, which are among the 30 Hz
 * samples the import takes, so the values are exact up to float rounding.
 *
 * CARDINAL (Catmull-Rom, tension parameter 1/2): passes through the keys;
 * at a midpoint the weights of P(k-1) P(k) P(k+1) P(k+2) are
 * (-1, 9, 9, -1) / 16.
 * BSPLINE (uniform cubic): at a key, (P(k-1) + 4 P(k) + P(k+1)) / 6; at a
 * midpoint (1, 23, 23, 1) / 48. */
static void cardinal_and_bspline_follow_the_spec(void)
{
    vs_asset *a;
    vs_error err;
    vs_result r =
        load(make_doc("CARDINAL", "0 1 4 2", "BSPLINE", "0 1 4 2", ""), false,
             &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(a->warning_count == 0);
    static const struct {
        float t;
        double x, y;
    } want[] = {
        {0.0f, 0.0, 0.0},
        {0.5f, (1.0 + 0 + 9 * 1 - 4) / 16, (-1 + 23 * 0 + 23 * 1 + 4) / 48.0},
        {1.0f, 1.0, (0 + 4 * 1 + 4) / 6.0},
        {1.5f, (-0.0 + 9 * 1 + 9 * 4 - 2) / 16,
         (0 + 23 * 1 + 23 * 4 + 2) / 48.0},
        {2.0f, 4.0, (1 + 4 * 4 + 2) / 6.0},
        {2.5f, (-1 + 9 * 4 + 9 * 2 - 0) / 16.0,
         (1 + 23 * 4 + 23 * 2 + 0) / 48.0},
        {3.0f, 2.0, 2.0},
        {4.0f, 2.0, 2.0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; ++i) {
        float v[3];
        translation_at(a, want[i].t, v);
        CHECK_MSG(fabs(v[0] - want[i].x) <= 1e-5, "CARDINAL t=%g: %g, want %g",
                  (double)want[i].t, (double)v[0], want[i].x);
        CHECK_MSG(fabs(v[1] - want[i].y) <= 1e-5, "BSPLINE t=%g: %g, want %g",
                  (double)want[i].t, (double)v[1], want[i].y);
    }
    vs_asset_free(a);
}

/* A B-spline passes near its keys, not through them: where a BSPLINE
 * segment meets a LINEAR one the curve jumps, and the jump stays a jump
 * (a sample just before the key) instead of a 1/30 s ramp. Keys 0 1 4 2,
 * Y: segment 0 BSPLINE ends at (0 + 4 + 4) / 6 = 4/3, segment 1 LINEAR
 * starts at P1 = 1. */
static void bspline_next_to_linear_keeps_its_jump(void)
{
    vs_asset *a;
    vs_error err;
    char doc[8192];
    snprintf(doc, sizeof doc, "%s",
             make_doc("LINEAR", "0 0 0 0", "BSPLINE", "0 1 4 2", ""));
    char *at = strstr(doc, "BSPLINE BSPLINE BSPLINE BSPLINE");
    if (!at) abort();
    memcpy(at, "BSPLINE LINEAR  LINEAR  LINEAR ",
           strlen("BSPLINE LINEAR  LINEAR  LINEAR "));
    vs_result r = load(doc, false, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    float before[3], at_key[3];
    translation_at(a, nextafterf(1.0f, 0.0f), before);
    translation_at(a, 1.0f, at_key);
    CHECK_NEAR(before[1], 4.0 / 3.0, 1e-4);
    CHECK_NEAR(at_key[1], 1.0, 1e-6);
    vs_asset_free(a);
}

static void bezier_without_tangents_is_linear_with_a_warning(void)
{
    const char *doc =
        make_doc("BEZIER", "0 10 20 0", "LINEAR", "0 0 0 0",
                 "<input semantic=\"OUT_TANGENT\" source=\"#xo\"/>");
    vs_asset *a;
    vs_error err;
    vs_result r = load(doc, false, &a, &err);
    CHECK_MSG(r == VS_OK, "%s", err.message);
    if (r != VS_OK) return;
    CHECK(a->warning_count == 1);
    if (a->warning_count == 1) {
        CHECK_MSG(strstr(a->warnings[0].object, "<sampler id=\"sx\">"),
                  "object %s", a->warnings[0].object);
        CHECK_MSG(strstr(a->warnings[0].object, "line "), "object %s",
                  a->warnings[0].object);
        CHECK_MSG(strstr(a->warnings[0].message,
                         "BEZIER / HERMITE keys without an IN_TANGENT "
                         "input: treated as LINEAR"),
                  "message %s", a->warnings[0].message);
    }
    float v[3];
    translation_at(a, 0.25f, v);
    CHECK_NEAR(v[0], 2.5, 1e-5);
    translation_at(a, 2.5f, v);
    CHECK_NEAR(v[0], 10.0, 1e-5);
    vs_asset_free(a);

    r = load(doc, true, &a, &err);
    CHECK(r == VS_ERROR_INVALID && a == NULL);
    CHECK_MSG(strstr(err.message, "interp.dae: line ") &&
                  strstr(err.message, "refused by a strict load; otherwise: "
                                      "treated as LINEAR"),
              "%s", err.message);
    vs_asset_free(a);
}

int main(void)
{
    RUN(cardinal_and_bspline_follow_the_spec);
    RUN(bspline_next_to_linear_keeps_its_jump);
    RUN(bezier_without_tangents_is_linear_with_a_warning);
    return test_summary();
}
