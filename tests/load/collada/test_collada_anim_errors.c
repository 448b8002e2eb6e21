/* SPDX-License-Identifier: MIT */
/* Malformed COLLADA animations are rejected with "FILE: line N: <element
 * attr=...>: what is wrong"; a channel whose target node does not exist is
 * skipped (docs/collada-animation.md; test_collada_repairs checks the
 * warnings of skipped channels). Each case edits one spot of a valid
 * document. */
#include "test_collada_anim_fixture.h"

static const char base[] =
    "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\">\n"
    "<library_animations><animation id=\"anim\">\n"
    "<source id=\"in\"><float_array id=\"in-a\" count=\"2\">0 2</float_array>"
    "<technique_common><accessor source=\"#in-a\" count=\"2\">"
    "<param name=\"TIME\" type=\"float\"/></accessor></technique_common>"
    "</source>\n"
    "<source id=\"out\"><float_array id=\"out-a\" count=\"2\">0 10"
    "</float_array><technique_common><accessor source=\"#out-a\" count=\"2\">"
    "<param name=\"X\" type=\"float\"/></accessor></technique_common>"
    "</source>\n"
    "<source id=\"ip\"><Name_array id=\"ip-a\" count=\"2\">LINEAR LINEAR"
    "</Name_array><technique_common><accessor source=\"#ip-a\" count=\"2\">"
    "<param name=\"INTERPOLATION\" type=\"Name\"/></accessor>"
    "</technique_common></source>\n"
    "<sampler id=\"s\"><input semantic=\"INPUT\" source=\"#in\"/>"
    "<input semantic=\"OUTPUT\" source=\"#out\"/>"
    "<input semantic=\"INTERPOLATION\" source=\"#ip\"/></sampler>\n"
    "<channel source=\"#s\" target=\"n/translate.X\"/>\n"
    "</animation></library_animations>\n"
    "<library_animation_clips><animation_clip id=\"c\">"
    "<instance_animation url=\"#anim\"/></animation_clip>"
    "</library_animation_clips>\n"
    "</COLLADA>\n";

/* Loads `text` with `from` replaced by `to`; returns the result. */
static vs_result load_doc(const char *text, const char *from, const char *to,
                          vs_error *err, uint32_t *clips)
{
    static char doc[8192];
    const char *at = strstr(text, from);
    if (!at) {
        fprintf(stderr, "edit \"%s\" not found\n", from);
        abort();
    }
    snprintf(doc, sizeof doc, "%.*s%s%s", (int)(at - text), text, to,
             at + strlen(from));
    static const char *const ids[] = {"n"};
    fx_anim f;
    fx_init(&f, "fixture.dae", 1, ids);
    fx_xform(&f, 0, COLLADA_XF_TRANSLATE, "translate", (float[]){0, 0, 0}, 3);
    fx_xform(&f, 0, COLLADA_XF_ROTATE, "rz", (float[]){0, 0, 1, 0}, 4);
    fx_xform(&f, 0, COLLADA_XF_SKEW, "k", (float[]){0, 0, 1, 0, 1, 0, 0}, 7);
    vs_result r = fx_load_doc(
        &f, xmlReadMemory(doc, (int)strlen(doc), "fixture.dae", NULL, 0), err);
    *clips = f.asset->clip_count;
    vs_asset_free(f.asset);
    return r;
}

static vs_result load_edit(const char *from, const char *to, vs_error *err,
                           uint32_t *clips)
{
    return load_doc(base, from, to, err, clips);
}

static void expect(const char *from, const char *to, vs_result code,
                   const char *message_part)
{
    vs_error err = {0};
    uint32_t clips;
    vs_result r = load_edit(from, to, &err, &clips);
    CHECK_MSG(r == code, "%s -> %s: got %d (%s), want %d", from, to, (int)r,
              err.message, (int)code);
    CHECK_MSG(strstr(err.message, message_part) != NULL,
              "%s -> %s: message \"%s\" lacks \"%s\"", from, to, err.message,
              message_part);
}

static void valid_base_loads(void)
{
    vs_error err = {0};
    uint32_t clips = 0;
    CHECK(load_edit("0 10", "0 10", &err, &clips) == VS_OK);
    CHECK(clips == 1);
}

static void message_names_file_line_and_channel(void)
{
    expect("n/translate.X", "n", VS_ERROR_INVALID,
           "fixture.dae: line 7: <channel target=\"n\">: expected");
}

static void bad_targets(void)
{
    expect("n/translate.X", "n/translate.ANGLE", VS_ERROR_INVALID,
           "member \"ANGLE\" does not exist");
    expect("n/translate.X", "n/translate(7)", VS_ERROR_INVALID,
           "is not an index below 3");
    expect("n/translate.X", "n/translate(0)(1)", VS_ERROR_INVALID,
           "two indices select (column)(row) of a matrix");
    expect("n/translate.X", "n/translate", VS_ERROR_INVALID,
           "OUTPUT has 1 values per key but the target takes 3");
}

static void dangling_target_is_skipped(void)
{
    vs_error err = {0};
    uint32_t clips = 9;
    CHECK(load_edit("n/translate.X", "camera1/YFOV", &err, &clips) == VS_OK);
    /* The clip remains, with nothing in it. */
    CHECK(clips == 1);
}

static void bad_samplers(void)
{
    expect("<input semantic=\"OUTPUT\" source=\"#out\"/>", "", VS_ERROR_INVALID,
           "<sampler id=\"s\">: a sampler needs INPUT and OUTPUT");
    expect("count=\"2\">0 10</float_array><technique_common>"
           "<accessor source=\"#out-a\" count=\"2\">",
           "count=\"3\">0 10 20</float_array><technique_common>"
           "<accessor source=\"#out-a\" count=\"3\">",
           VS_ERROR_INVALID, "OUTPUT has 3 keys but INPUT has 2");
    expect(">0 2<", ">2 2<", VS_ERROR_INVALID,
           "key times must increase: key 0 is at 2, key 1 at 2");
    expect("<accessor source=\"#in-a\" count=\"2\">",
           "<accessor source=\"#in-a\" count=\"0\">", VS_ERROR_INVALID,
           "the sampler's INPUT has no keys");
    expect("LINEAR LINEAR", "TCB LINEAR", VS_ERROR_UNSUPPORTED,
           "interpolation \"TCB\" is not supported");
    expect("#out\"/>", "#nowhere\"/>", VS_ERROR_INVALID,
           "<input source=\"#nowhere\">: \"#nowhere\" does not exist");
    expect("source=\"#s\"", "source=\"#in\"", VS_ERROR_INVALID,
           "<channel source=\"#in\">: \"#in\" is a <source>, not a <sampler>");
}

static void bad_sources(void)
{
    /* The array's count disagreeing is a warning; the accessor reading
     * past the values there are is the refusal. */
    expect(">0 10<", ">0<", VS_ERROR_INVALID,
           "<accessor source=\"#out-a\">: count 2, stride 1, offset 0 need "
           "2 values but the array holds 1");
    expect(">0 10<", ">0 abc<", VS_ERROR_INVALID,
           "value 1 (\"abc\") is not a number");
    expect("count=\"2\">0 10</float_array>", "count=\"1\">0</float_array>",
           VS_ERROR_INVALID,
           "count 2, stride 1, offset 0 need 2 values but the array holds 1");
    expect("<accessor source=\"#in-a\" count=\"2\">",
           "<accessor source=\"#in-a\" count=\"-2\">", VS_ERROR_INVALID,
           "<accessor count=\"-2\">: count is not an unsigned");
}

static void sample_limit(void)
{
    /* A rotation is sampled at 30 Hz between keys: a billion seconds would
     * be 3e10 samples, refused before anything is allocated. */
    char doc[sizeof base + 64];
    const char *at = strstr(base, "n/translate.X");
    snprintf(doc, sizeof doc, "%.*sn/rz.ANGLE%s", (int)(at - base), base,
             at + strlen("n/translate.X"));
    vs_error err = {0};
    uint32_t clips;
    vs_result r = load_doc(doc, ">0 2<", ">0 1e9<", &err, &clips);
    CHECK(r == VS_ERROR_LIMIT);
    CHECK_MSG(strstr(err.message, "<channel target=\"n/rz.ANGLE\">: sampling "
                                  "1e+09 s of keys at 30 Hz would take more "
                                  "than 1000000 samples") != NULL,
              "%s", err.message);
}

/* A skew animated onto 90 degrees is refused like a static one. */
static void degenerate_animated_skew(void)
{
    char doc[sizeof base + 64];
    const char *at = strstr(base, "n/translate.X");
    snprintf(doc, sizeof doc, "%.*sn/k.ANGLE%s", (int)(at - base), base,
             at + strlen("n/translate.X"));
    vs_error err = {0};
    uint32_t clips;
    CHECK(load_doc(doc, ">0 10<", ">0 80<", &err, &clips) == VS_OK);
    vs_result r = load_doc(doc, ">0 10<", ">0 90<", &err, &clips);
    CHECK(r == VS_ERROR_INVALID);
    CHECK_MSG(strstr(err.message, "<channel target=\"n/k.ANGLE\">: at 2 s "
                                  "the <skew> angle 90 is degenerate") != NULL,
              "%s", err.message);
}

static void bad_clips(void)
{
    expect(
        "url=\"#anim\"", "url=\"#none\"", VS_ERROR_INVALID,
        "line 9: <instance_animation url=\"#none\">: \"#none\" does not exist");
    expect("<animation_clip id=\"c\">",
           "<animation_clip id=\"c\" start=\"2\" end=\"1\">", VS_ERROR_INVALID,
           "end 1 is before start 2");
}

int main(void)
{
    RUN(valid_base_loads);
    RUN(message_names_file_line_and_channel);
    RUN(bad_targets);
    RUN(dangling_target_is_skipped);
    RUN(bad_samplers);
    RUN(bad_sources);
    RUN(bad_clips);
    RUN(sample_limit);
    RUN(degenerate_animated_skew);
    return test_summary();
}
