/* SPDX-License-Identifier: MIT */
/* Cursor sampling gives the same key, and bit for bit the same values, as a
 * fresh binary search, whatever order the times come in: forward playback
 * (small and large steps), backwards, loops, random seeks, exact key times,
 * before the first and after the last key. Checked on a hand-made sampler and
 * on every sampler of CesiumMan and InterpolationTest (LINEAR, STEP,
 * CUBICSPLINE, rotations), then through vs_pose_sample against a fresh pose
 * per sample. */
#include "test.h"

#include "pose/sample.h"
#include "vskin/vskin.h"

static uint32_t rng = 987654321u;
static float unit(void) /* [0, 1) */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

/* A time sequence over [lo - 0.5, hi + 0.5] mixing the access patterns. */
static size_t make_times(float lo, float hi, float *t, size_t cap)
{
    size_t n = 0;
    float span = hi - lo + 1.0f;
    for (int k = 0; k < 200 && n < cap; ++k) /* forward, small steps */
        t[n++] = lo - 0.5f + span * (float)k / 200.0f;
    for (int k = 0; k < 40 && n < cap; ++k) /* forward, big steps */
        t[n++] = lo - 0.5f + span * (float)(k * 7 % 40) / 40.0f;
    for (int k = 200; k >= 0 && n < cap; --k) /* backwards */
        t[n++] = lo - 0.5f + span * (float)k / 200.0f;
    for (int loop = 0; loop < 3; ++loop) /* looping playback */
        for (int k = 0; k < 50 && n < cap; ++k)
            t[n++] = lo + (hi - lo) * (float)k / 50.0f;
    for (int k = 0; k < 300 && n < cap; ++k) /* random seeks */
        t[n++] = lo - 0.5f + span * unit();
    return n;
}

static void check_sampler(const vs_anim_sampler *s, bool rotation,
                          const char *what)
{
    static float times[2000];
    size_t n = make_times(s->times[0], s->times[s->key_count - 1], times,
                          1500);
    /* Exact key times, in order and reversed. */
    for (uint32_t k = 0; k < s->key_count && n < 2000; ++k)
        times[n++] = s->times[k];
    for (uint32_t k = s->key_count; k-- > 0 && n < 2000;)
        times[n++] = s->times[k];
    uint32_t cursor = 0;
    int bad_keys = 0, bad_values = 0;
    float a[64], b[64];
    for (size_t i = 0; i < n; ++i) {
        uint32_t want = sampler_find_key(s, times[i]);
        uint32_t c = cursor;
        if (sampler_find_key_cursor(s, times[i], &c) != want || c != want)
            ++bad_keys;
        if (s->components > 64) continue;
        anim_sample(s, times[i], rotation, a);
        anim_sample_key(s, sampler_find_key_cursor(s, times[i], &cursor),
                        times[i], rotation, b);
        if (memcmp(a, b, s->components * sizeof(float)) != 0) ++bad_values;
    }
    CHECK_MSG(bad_keys == 0 && bad_values == 0,
              "%s: %d keys and %d values differ over %zu times", what,
              bad_keys, bad_values, n);
}

static void cursor_matches_binary_search_on_hand_made_keys(void)
{
    enum { KEYS = 1000 };
    static float times[KEYS], values[KEYS * 3];
    for (int k = 0; k < KEYS; ++k) {
        times[k] = (float)k * 0.01f + (k % 3 ? 0.002f : 0.0f);
        for (int c = 0; c < 3; ++c) values[3 * k + c] = unit();
    }
    vs_anim_sampler s = {VS_INTERP_LINEAR, KEYS, times, 3, values};
    check_sampler(&s, false, "hand-made LINEAR");
    s.interpolation = VS_INTERP_STEP;
    check_sampler(&s, false, "hand-made STEP");
    /* A cursor holding garbage is only a slower start. */
    uint32_t cursor = 123456;
    CHECK(sampler_find_key_cursor(&s, 5.0f, &cursor) ==
          sampler_find_key(&s, 5.0f));
    cursor = KEYS - 1;
    CHECK(sampler_find_key_cursor(&s, -1.0f, &cursor) == 0 && cursor == 0);
    vs_anim_sampler one = {VS_INTERP_LINEAR, 1, times, 3, values};
    cursor = 0;
    CHECK(sampler_find_key_cursor(&one, 3.0f, &cursor) == 0);
}

static vs_asset *load(const char *path)
{
    vs_asset *asset = NULL;
    vs_error err = {0};
    if (vs_asset_load_file(path, NULL, &asset, &err) != VS_OK) {
        fprintf(stderr, "%s\n", err.message);
        return NULL;
    }
    return asset;
}

static const char *const assets[] = {
    VS_TEST_DATA "/gltf2/CesiumMan.gltf",
    VS_TEST_DATA "/gltf2/interpolation_test.gltf",
};

static void cursor_matches_binary_search_on_real_samplers(void)
{
    for (size_t f = 0; f < 2; ++f) {
        vs_asset *asset = load(assets[f]);
        CHECK(asset != NULL);
        if (!asset) continue;
        for (uint32_t c = 0; c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            for (uint32_t k = 0; k < clip->channel_count; ++k) {
                const vs_anim_channel *ch = &clip->channels[k];
                const vs_anim_sampler *s = &clip->samplers[ch->sampler];
                if (!s->key_count) continue;
                char what[160];
                snprintf(what, sizeof what, "%s clip %u channel %u",
                         assets[f], c, k);
                check_sampler(s, ch->path == VS_PATH_ROTATION, what);
            }
        }
        vs_asset_free(asset);
    }
}

/* Through the public API: one long-lived pose (cursors warm) against a fresh
 * pose per sample, both clamp and loop modes. */
static void pose_with_cursors_matches_fresh_pose(void)
{
    for (size_t f = 0; f < 2; ++f) {
        vs_asset *asset = load(assets[f]);
        CHECK(asset != NULL);
        if (!asset) continue;
        vs_pose *warm = NULL;
        CHECK(vs_pose_create(asset, &warm, NULL) == VS_OK);
        static float times[2000];
        int differing = 0;
        for (uint32_t c = 0; c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            size_t n = make_times(clip->start, clip->end, times, 2000);
            for (size_t i = 0; i < n; ++i) {
                vs_time_mode mode = i % 2 ? VS_TIME_LOOP : VS_TIME_CLAMP;
                /* Loop mode also sees times far past the end. */
                float t = mode == VS_TIME_LOOP ? times[i] * 3.0f : times[i];
                vs_pose *fresh = NULL;
                CHECK(vs_pose_create(asset, &fresh, NULL) == VS_OK);
                vs_pose_reset(warm);
                CHECK(vs_pose_sample(warm, c, t, mode, NULL) == VS_OK);
                CHECK(vs_pose_sample(fresh, c, t, mode, NULL) == VS_OK);
                vs_pose_update_world(warm);
                vs_pose_update_world(fresh);
                for (uint32_t node = 0; node < asset->node_count; ++node)
                    differing += memcmp(vs_pose_world(warm, node),
                                        vs_pose_world(fresh, node),
                                        16 * sizeof(float)) != 0;
                vs_pose_free(fresh);
            }
        }
        CHECK_MSG(differing == 0, "%s: %d world matrices differ", assets[f],
                  differing);
        vs_pose_free(warm);
        vs_asset_free(asset);
    }
}

int main(void)
{
    RUN(cursor_matches_binary_search_on_hand_made_keys);
    RUN(cursor_matches_binary_search_on_real_samplers);
    RUN(pose_with_cursors_matches_fresh_pose);
    return test_summary();
}
