/* SPDX-License-Identifier: MIT */
/* The batched LINEAR rotation path of vs_pose_sample against the scalar
 * sampler: Eberly's polynomial against sin(t theta) / sin(theta), the
 * batched slerp (blocks of eight lanes, SSE2 and AVX2 forms) against anim_slerp
 * on random, non-unit, opposite, wide-angle and zero-length keys, and whole
 * clips sampled through a pose against anim_sample channel by channel, samplers
 * that share key times (searched once per group) included, and bit for bit
 * on the keys' own times. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "asset/clip_plans.h"
#include "pose/rotation_batch.h"
#include "pose/sample.h"
#include "asset_fixture.h"
#include "base/cpu_avx2.h"
#include "asset/skin_facts.h"
#include "asset/time_groups.h"
#include "test.h"

/* Worst |weight - sin(t theta) / sin(theta)| over cosines [lo, 1] and
 * t in [0, 1] with the first `terms` terms. */
static double poly_error(double lo, int terms)
{
    double worst = 0.0;
    for (int i = 0; i <= 300; ++i) {
        double x = lo + (1.0 - lo) * i / 300;
        double theta = acos(x);
        for (int j = 0; j <= 64; ++j) {
            double t = j / 64.0;
            double want = theta > 0.0 ? sin(t * theta) / sin(theta) : t;
            double got = rotation_poly_weight((float)t, (float)x, terms);
            if (fabs(got - want) > worst) worst = fabs(got - want);
        }
    }
    return worst;
}

/* Eberly's 8 terms wherever the batch uses them, the short form where its
 * cosines allow it; the short form on the wide range shows what the
 * threshold guards against. */
static void poly_weight_matches_sine_ratio(void)
{
    const double full = poly_error(ROTATION_POLY_MIN_COS, 8);
    const double shrt =
        poly_error(ROTATION_SHORT_MIN_COS, ROTATION_SHORT_TERMS);
    CHECK_MSG(full <= 1e-6, "polynomial weight off by %.3g", full);
    CHECK_MSG(shrt <= 2e-7, "short polynomial weight off by %.3g", shrt);
    const double wide = poly_error(ROTATION_POLY_MIN_COS, ROTATION_SHORT_TERMS);
    CHECK_MSG(wide > 1e-5, "short polynomial off by only %.3g", wide);
}

static uint32_t rng = 12345u;
static float rnd(void) /* uniform in [-1, 1) */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 8388608.0f - 1.0f;
}

static void random_quat(float *q, float scale)
{
    float n = 0.0f;
    do {
        n = 0.0f;
        for (int c = 0; c < 4; ++c) {
            q[c] = rnd();
            n += q[c] * q[c];
        }
    } while (n < 0.01f);
    for (int c = 0; c < 4; ++c)
        q[c] *= scale / sqrtf(n);
}

/* b = a turned by a small random rotation (angle up to max_angle), maybe
 * negated (the other hemisphere) and rescaled. */
static void near_quat(const float *a, float max_angle, bool negate, float scale,
                      float *b)
{
    float axis[3] = {rnd(), rnd(), rnd()};
    float n = sqrtf(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
    float half = 0.5f * max_angle * (0.5f + 0.5f * rnd());
    float d[4] = {axis[0] / n * sinf(half), axis[1] / n * sinf(half),
                  axis[2] / n * sinf(half), cosf(half)};
    /* b = d * a (Hamilton product, x y z w). */
    b[0] = d[3] * a[0] + d[0] * a[3] + d[1] * a[2] - d[2] * a[1];
    b[1] = d[3] * a[1] - d[0] * a[2] + d[1] * a[3] + d[2] * a[0];
    b[2] = d[3] * a[2] + d[0] * a[1] - d[1] * a[0] + d[2] * a[3];
    b[3] = d[3] * a[3] - d[0] * a[0] - d[1] * a[1] - d[2] * a[2];
    for (int c = 0; c < 4; ++c)
        b[c] *= (negate ? -scale : scale);
}

#define ITEMS 11

/* rotation_batch_group against anim_slerp: groups of 1 to 11 channels (so
 * full and partial blocks, full and partial SSE2 halves) at one u per
 * group, writing to the nodes given and nowhere else; the SSE2 and AVX2
 * forms bit for bit the same. */
static void batch_matches_scalar_slerp(void)
{
    static float keys[ITEMS][2][4], want[ITEMS][4];
    rotation_pair pairs[ITEMS];
    vs_trs local[ITEMS + 3];
    uint32_t nodes[ITEMS];
    double worst = 0.0, worst_len = 0.0;
    int groups_with_special = 0, forms_differing = 0, written_outside = 0;
    for (int round = 0; round < 4000; ++round) {
        uint32_t count = 1 + (uint32_t)round % ITEMS;
        const float u = 0.5f + 0.5f * rnd();
        for (uint32_t i = 0; i < count; ++i) {
            float *a = keys[i][0], *b = keys[i][1];
            random_quat(a, 1.0f + 0.05f * rnd());
            int kind = (int)((rnd() + 1.0f) * 50.0f); /* 0..99 */
            if (kind < 3) { /* wide: more than 91 degrees apart */
                near_quat(a, 3.0f, kind == 1, 1.0f, b);
            } else if (kind == 3) { /* a zero-length key */
                for (int c = 0; c < 4; ++c)
                    b[c] = 0.0f;
            } else if ((kind >= 40 && round % 3 != 1) || round % 3 == 0) {
                /* close, and every pair of every third round: blocks
                 * that take the short polynomial */
                near_quat(a, 0.25f, kind % 2 == 0, 1.0f + 0.05f * rnd(), b);
            } else if (round % 3 == 1) {
                /* 43 to 86 degrees apart (cosines 0.73 to 0.93): groups
                 * that need all 8 terms */
                near_quat(a, 1.5f, kind % 2 == 0, 1.0f + 0.05f * rnd(), b);
            } else {
                near_quat(a, 1.2f, kind % 2 == 0, 1.0f + 0.05f * rnd(), b);
            }
            groups_with_special += kind <= 3;
            rotation_pair_prepare(a, b, &pairs[i]);
            nodes[i] = (i * 5 + (uint32_t)round) % (ITEMS + 3); /* distinct */
            anim_slerp(a, b, u, want[i]);
        }
        rotation_block blocks[(ITEMS + ROTATION_LANES - 1) / ROTATION_LANES];
        for (uint32_t i = 0; i < rotation_blocks(count) * ROTATION_LANES; ++i)
            rotation_block_set(&blocks[i / ROTATION_LANES], i % ROTATION_LANES,
                               i < count ? &pairs[i] : NULL);
        rotation_batch_group(blocks, count, u, local, nodes);
        /* The SSE2 and AVX2 forms: the same floats, and nothing written
         * but the channels' rotations. */
        vs_trs by_sse2[ITEMS + 3], by_avx2[ITEMS + 3];
        memset(by_sse2, 0x7f, sizeof by_sse2);
        memset(by_avx2, 0x7f, sizeof by_avx2);
        rotation_batch_group_sse2(blocks, count, u, by_sse2, nodes);
        if (cpu_avx2())
            rotation_batch_group_avx2(blocks, count, u, by_avx2, nodes);
        else
            memcpy(by_avx2, by_sse2, sizeof by_avx2);
        forms_differing += memcmp(by_sse2, by_avx2, sizeof by_sse2) != 0;
        for (uint32_t i = 0; i < count; ++i)
            memset(by_sse2[nodes[i]].rotation, 0x7f, sizeof(float[4]));
        const vs_trs *untouched = by_sse2;
        for (uint32_t j = 0; j < ITEMS + 3; ++j)
            for (size_t b = 0; b < sizeof *untouched; ++b)
                written_outside +=
                    ((const unsigned char *)&untouched[j])[b] != 0x7f;
        for (uint32_t i = 0; i < count; ++i) {
            const float *got = local[nodes[i]].rotation;
            double len2 = 0.0;
            for (int c = 0; c < 4; ++c) {
                double e = fabs((double)got[c] - want[i][c]);
                if (!(e <= worst)) worst = e;
                len2 += (double)got[c] * got[c];
            }
            /* Normalized as anim_slerp normalizes (to float precision). */
            if (!(fabs(sqrt(len2) - 1.0) <= worst_len))
                worst_len = fabs(sqrt(len2) - 1.0);
        }
    }
    CHECK(groups_with_special > 100); /* the fallback was exercised */
    CHECK_MSG(forms_differing == 0,
              "%d groups differ between the SSE2 and "
              "AVX2 forms",
              forms_differing);
    CHECK_MSG(written_outside == 0, "%d bytes written outside the channels",
              written_outside);
    CHECK_MSG(worst <= 1e-6, "batched slerp off by %.3g", worst);
    CHECK_MSG(worst_len <= 3e-7, "batched slerp length off by %.3g", worst_len);
}

/* Samples clip c at t with pose, applies the clip channel by channel with
 * anim_sample onto the rest TRS, as vs_pose_sample's plain path does, and
 * compares the local matrices. */
static double sampled_vs_scalar(vs_pose *pose, const vs_asset *asset,
                                uint32_t c, float t)
{
    CHECK(vs_pose_sample(pose, c, t, VS_TIME_CLAMP, NULL) == VS_OK);
    const vs_clip *clip = &asset->clips[c];
    double worst = 0.0;
    for (uint32_t node = 0; node < asset->node_count; ++node) {
        vs_trs trs = asset->nodes[node].rest_trs;
        bool animated = false;
        for (uint32_t k = 0; k < clip->channel_count; ++k) {
            const vs_anim_channel *ch = &clip->channels[k];
            const vs_anim_sampler *s = &clip->samplers[ch->sampler];
            if (ch->node != node || !s->key_count ||
                ch->path == VS_PATH_WEIGHTS)
                continue;
            float *out = ch->path == VS_PATH_TRANSLATION ? trs.translation
                         : ch->path == VS_PATH_ROTATION  ? trs.rotation
                                                         : trs.scale;
            anim_sample(s, t, ch->path == VS_PATH_ROTATION, out);
            animated = true;
        }
        if (!animated) continue;
        float want[16], got[16];
        xform_from_trs(&trs, want);
        vs_pose_get_local(pose, node, got);
        for (int i = 0; i < 16; ++i) {
            double e =
                fabs((double)got[i] - want[i]) / (1.0 + fabs((double)want[i]));
            if (!(e <= worst)) worst = e;
        }
    }
    return worst;
}

/* The same on a fresh pose. */
static double pose_vs_scalar(const vs_asset *asset, uint32_t c, float t)
{
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(asset, &pose, NULL) == VS_OK);
    if (!pose) return INFINITY;
    const double worst = sampled_vs_scalar(pose, asset, c, t);
    vs_pose_free(pose);
    return worst;
}

static const char *const files[] = {
    VS_TEST_DATA "/gltf2/CesiumMan.gltf",
    VS_TEST_DATA "/gltf2/RiggedSimple.gltf",
    VS_TEST_DATA "/gltf2/SimpleSkin.gltf",
    VS_TEST_DATA "/gltf2/interpolation_test.gltf",
    VS_TEST_DATA "/gltf1/SimpleSkin_tutorial-e73f143.gltf",
};

/* Samplers with the same key times (one array, or equal copies) share one
 * key search and fraction (asset/time_groups.h), whatever their
 * interpolation; other times stay apart. Every channel still matches the
 * scalar sampler, through one pose played forward, backward and seeking. */
static void shared_key_times_are_searched_once(void)
{
    vs_asset *a = fx_asset(4);
    const float *ta = fx_floats(a, 4, 0.0, 1.0, 2.0, 3.0);
    const float *ta_copy = fx_floats(a, 4, 0.0, 1.0, 2.0, 3.0);
    const float *tb = fx_floats(a, 4, 0.0, 0.5, 2.5, 3.0);
    const float *moves = fx_floats(a, 12, 0.0, 0.0, 0.0, 1.0, 2.0, 0.0, -1.0,
                                   0.5, 3.0, 0.0, 0.0, 1.0);
    const float *turns =
        fx_floats(a, 16, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.3826834, 0.9238795,
                  0.0, 0.7071068, 0.0, 0.7071068, 1.0, 0.0, 0.0, 0.0);
    const float *sizes = fx_floats(a, 12, 1.0, 1.0, 1.0, 2.0, 1.0, 1.0, 1.0,
                                   3.0, 1.0, 0.5, 0.5, 0.5);
    vs_anim_sampler s[5] = {{VS_INTERP_LINEAR, 4, ta, 3, moves},
                            {VS_INTERP_LINEAR, 4, ta_copy, 4, turns},
                            {VS_INTERP_LINEAR, 4, tb, 3, sizes},
                            {VS_INTERP_STEP, 4, ta, 3, moves},
                            {VS_INTERP_LINEAR, 4, tb, 4, turns}};
    uint32_t nodes[5] = {0, 1, 2, 3, 0};
    vs_anim_path paths[5] = {VS_PATH_TRANSLATION, VS_PATH_ROTATION,
                             VS_PATH_SCALE, VS_PATH_TRANSLATION,
                             VS_PATH_ROTATION};
    fx_clip(a, 5, nodes, paths, s);
    fx_finalize(a);
    const time_groups *g = time_groups_for(a, 0);
    CHECK(g != NULL);
    if (g) {
        CHECK(g->group_count == 2);
        CHECK(g->group_of[0] == g->group_of[1]);
        CHECK(g->group_of[0] == g->group_of[3]);
        CHECK(g->group_of[2] == g->group_of[4]);
        CHECK(g->group_of[0] != g->group_of[2]);
    }
    /* The translation on the shared times and the scale on the others:
     * two groups of lerps (the STEP translation is not one). */
    const clip_plan *plan = clip_plan_for(a, 0);
    CHECK(plan != NULL && plan->lerp_group_count == 2);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
    double worst = 0.0;
    for (int i = -20; i <= 340; ++i) /* forward, past both ends */
        worst = fmax(worst, sampled_vs_scalar(pose, a, 0, i * 0.01f));
    for (int i = 340; i >= -20; i -= 7) /* backward */
        worst = fmax(worst, sampled_vs_scalar(pose, a, 0, i * 0.01f));
    for (int i = 0; i < 200; ++i) /* seeks */
        worst = fmax(worst, sampled_vs_scalar(pose, a, 0,
                                              (float)((i * 37) % 330) * 0.01f));
    CHECK_MSG(worst <= 2e-6, "grouped sampling off by %.3g", worst);
    vs_pose_free(pose);
    vs_asset_free(a);
}

static void pose_sampling_matches_scalar_sampler(void)
{
    for (size_t f = 0; f < sizeof files / sizeof *files; ++f) {
        vs_asset *asset = NULL;
        vs_error err;
        CHECK_MSG(vs_asset_load_file(files[f], NULL, &asset, &err) == VS_OK,
                  "%s", err.message);
        if (!asset) continue;
        double worst = 0.0;
        uint32_t samples = 0;
        for (uint32_t c = 0; c < asset->clip_count; ++c) {
            const vs_clip *clip = &asset->clips[c];
            for (int i = -2; i <= 402; ++i) {
                float t = clip->start + (clip->end - clip->start) * i / 400.0f;
                double e = pose_vs_scalar(asset, c, t);
                if (!(e <= worst)) worst = e;
                ++samples;
            }
        }
        CHECK(samples > 0);
        CHECK_MSG(worst <= 2e-6, "%s: pose sampling off by %.3g", files[f],
                  worst);
        vs_asset_free(asset);
    }
}

/* Every clip of a well-formed asset gets a plan (asset/clip_plans.h) that
 * sorts its channels by kind; a clip that drives one node and path twice
 * does not, and neither does a clip edited after loading. */
static void clips_are_planned_unless_a_target_repeats(void)
{
    vs_asset *a = fx_asset(3);
    const float *times = fx_floats(a, 2, 0.0, 1.0);
    const float *moves = fx_floats(a, 6, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0);
    const float *turns =
        fx_floats(a, 8, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.3826834, 0.9238795);
    /* The last channel drives node 0's scale again, but has no keys:
     * sampling leaves it alone, so it neither counts nor blocks the plan. */
    vs_anim_sampler s[5] = {{VS_INTERP_LINEAR, 2, times, 3, moves},
                            {VS_INTERP_LINEAR, 2, times, 4, turns},
                            {VS_INTERP_STEP, 2, times, 3, moves},
                            {VS_INTERP_LINEAR, 2, times, 3, moves},
                            {VS_INTERP_LINEAR, 0, times, 3, moves}};
    uint32_t nodes[5] = {0, 1, 2, 1, 0};
    vs_anim_path paths[5] = {VS_PATH_SCALE, VS_PATH_ROTATION,
                             VS_PATH_TRANSLATION, VS_PATH_TRANSLATION,
                             VS_PATH_SCALE};
    fx_clip(a, 5, nodes, paths, s);
    fx_finalize(a);
    const clip_plan *plan = clip_plan_for(a, 0);
    CHECK(plan != NULL);
    if (plan) {
        CHECK(plan->lerp_count == 2 && plan->slerp_count == 1 &&
              plan->generic_count == 1);
        CHECK(plan->ops[0].node == 0 && plan->ops[0].path == VS_PATH_SCALE);
        CHECK(plan->ops[1].node == 1 &&
              plan->ops[1].path == VS_PATH_TRANSLATION);
        CHECK(plan->ops[2].node == 1 && plan->ops[2].path == VS_PATH_ROTATION);
        CHECK(plan->ops[3].node == 2 &&
              plan->ops[3].sampler->interpolation == VS_INTERP_STEP);
        /* Both lerps share one time group: their keys side by side. */
        CHECK(plan->lerp_group_count == 1 && plan->slerp_group_count == 1);
        const plan_group *lg = plan->lerps;
        CHECK(lg->first == 0 && lg->count == 2);
        for (uint32_t k = 0; k < 2; ++k)
            for (uint32_t i = 0; i < 2; ++i)
                for (uint32_t e = 0; e < 3; ++e)
                    CHECK(lg->keys[3 * (k * 2 + i) + e] ==
                          plan->ops[i].sampler->values[3 * k + e]);
        /* The slerp's one pair, prepared, and its node. */
        const plan_group *sg = plan->slerps;
        CHECK(sg->first == 2 && sg->count == 1 && sg->nodes[0] == 1);
        rotation_pair want;
        rotation_pair_prepare(turns, turns + 4, &want);
        rotation_block block;
        rotation_block_set(&block, 0, &want);
        for (uint32_t l = 1; l < ROTATION_LANES; ++l)
            rotation_block_set(&block, l, NULL);
        CHECK(memcmp(&block, sg->blocks, sizeof block) == 0);
        CHECK(sg->blocks[0].x[0] == want.x &&
              sg->blocks[0].a[3][0] == want.a[3]);
    }
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
    double worst = 0.0;
    for (int i = -2; i <= 12; ++i)
        worst = fmax(worst, sampled_vs_scalar(pose, a, 0, i * 0.1f));
    CHECK_MSG(worst <= 2e-6, "planned sampling off by %.3g", worst);
    vs_pose_free(pose);
    /* A clip pointed at other samplers is not the one its plan was made
     * for. */
    vs_clip *clip = (vs_clip *)&a->clips[0];
    const vs_anim_sampler *kept = clip->samplers;
    vs_anim_sampler copy[5];
    memcpy(copy, kept, sizeof copy);
    clip->samplers = copy;
    CHECK(clip_plan_for(a, 0) == NULL);
    clip->samplers = kept;
    vs_asset_free(a);

    /* Node 0's scale twice, both with keys: no plan. */
    vs_asset *b = fx_asset(1);
    times = fx_floats(b, 2, 0.0, 1.0);
    moves = fx_floats(b, 6, 0.0, 0.0, 0.0, 1.0, 2.0, 3.0);
    vs_anim_sampler twice[2] = {{VS_INTERP_LINEAR, 2, times, 3, moves},
                                {VS_INTERP_STEP, 2, times, 3, moves}};
    uint32_t zero[2] = {0, 0};
    vs_anim_path scales[2] = {VS_PATH_SCALE, VS_PATH_SCALE};
    fx_clip(b, 2, zero, scales, twice);
    fx_finalize(b);
    CHECK(clip_plan_for(b, 0) == NULL);
    vs_asset_free(b);
}

static vs_asset *load_with_memory(uint64_t bytes)
{
    vs_load_options options = {0};
    options.limits.max_total_memory = bytes;
    vs_asset *asset = NULL;
    vs_error err;
    vs_asset_load_file(VS_TEST_DATA "/gltf2/CesiumMan.gltf", &options, &asset,
                       &err);
    return asset;
}

/* Plans and kept skin facts are optional and built last: under the
 * smallest memory limit that loads CesiumMan at all, there is no room left
 * for the plans (the skin facts, far smaller, may fit in what the load's
 * temporaries gave back to the one budget), and the asset samples (in
 * order) and poses exactly as the fully planned one does. */
static void assets_without_room_for_plans_still_pose_right(void)
{
    vs_asset *full = load_with_memory(0); /* the default limit */
    CHECK(full != NULL);
    if (!full) return;
    CHECK(clip_plan_for(full, 0) != NULL && skin_facts_for(full, 0) != NULL);
    uint64_t lo = 1, hi = 1u << 30; /* lo fails to load, hi loads */
    while (hi - lo > 1) {
        const uint64_t mid = lo + (hi - lo) / 2;
        vs_asset *a = load_with_memory(mid);
        if (a)
            hi = mid;
        else
            lo = mid;
        vs_asset_free(a);
    }
    vs_asset *tight = load_with_memory(hi);
    CHECK(tight != NULL);
    if (!tight) {
        vs_asset_free(full);
        return;
    }
    CHECK(clip_plan_for(tight, 0) == NULL);
    vs_pose *pa = NULL, *pb = NULL;
    CHECK(vs_pose_create(full, &pa, NULL) == VS_OK);
    CHECK(vs_pose_create(tight, &pb, NULL) == VS_OK);
    const uint32_t joints = full->skins[0].joint_count;
    float ja[16 * 64], jb[16 * 64];
    CHECK(joints <= 64);
    double worst = 0.0;
    for (int i = 0; pa && pb && joints <= 64 && i < 100; ++i) {
        const float t = 0.037f * (float)i;
        CHECK(vs_pose_sample(pa, 0, t, VS_TIME_LOOP, NULL) == VS_OK);
        CHECK(vs_pose_sample(pb, 0, t, VS_TIME_LOOP, NULL) == VS_OK);
        vs_pose_update_world(pa);
        vs_pose_update_world(pb);
        CHECK(vs_pose_joint_matrices(pa, 0, -1, ja, NULL) == VS_OK);
        CHECK(vs_pose_joint_matrices(pb, 0, -1, jb, NULL) == VS_OK);
        for (uint32_t k = 0; k < 16 * joints; ++k)
            worst = fmax(worst, fabs((double)ja[k] - jb[k]) /
                                    (1.0 + fabs((double)jb[k])));
    }
    CHECK_MSG(worst <= 2e-6, "unplanned pose off by %.3g", worst);
    vs_pose_free(pa);
    vs_pose_free(pb);
    vs_asset_free(tight);
    vs_asset_free(full);
}

/* Sampled on a key's own time, before the first key or after the last, a
 * planned clip gives exactly what the scalar sampler does: the key itself,
 * rotations normalised as anim_sample normalises them (a key of length 2,
 * a zero-length one that becomes the identity, signed zeros kept). */
static void samples_on_keys_are_the_keys_bit_for_bit(void)
{
    vs_asset *a = fx_asset(2);
    const float *times = fx_floats(a, 3, 0.0, 1.0, 2.0);
    const float *turns =
        fx_floats(a, 12, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.3, -0.0,
                  0.4, 0.8660254);
    const float *moves = fx_floats(a, 9, -0.0, 1.0, 2.0, 0.1, -0.0, 0.3,
                                   1e-30, -3.0, 0.7);
    const float *spins = fx_floats(a, 12, 0.1, 0.2, 0.3, 0.9, 0.0, 1.0, 0.0,
                                   0.0, -0.5, 0.5, -0.5, 0.5);
    vs_anim_sampler s[3] = {{VS_INTERP_LINEAR, 3, times, 4, turns},
                            {VS_INTERP_LINEAR, 3, times, 3, moves},
                            {VS_INTERP_LINEAR, 3, times, 4, spins}};
    uint32_t nodes[3] = {0, 0, 1};
    vs_anim_path paths[3] = {VS_PATH_ROTATION, VS_PATH_TRANSLATION,
                             VS_PATH_ROTATION};
    fx_clip(a, 3, nodes, paths, s);
    fx_finalize(a);
    CHECK(clip_plan_for(a, 0) != NULL);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
    const float on_keys[] = {-1.0f, 0.0f, 1.0f, 2.0f, 3.0f, 1.0f, 0.0f};
    for (size_t i = 0; i < sizeof on_keys / sizeof *on_keys; ++i)
        CHECK_MSG(sampled_vs_scalar(pose, a, 0, on_keys[i]) == 0.0,
                  "on key time %g", (double)on_keys[i]);
    vs_pose_free(pose);
    vs_asset_free(a);

    /* CesiumMan's samplers share one time array: every key time. */
    vs_asset *cm = NULL;
    vs_error err;
    CHECK_MSG(vs_asset_load_file(VS_TEST_DATA "/gltf2/CesiumMan.gltf", NULL,
                                 &cm, &err) == VS_OK,
              "%s", err.message);
    if (!cm) return;
    CHECK(clip_plan_for(cm, 0) != NULL);
    CHECK(vs_pose_create(cm, &pose, NULL) == VS_OK);
    const vs_anim_sampler *first = &cm->clips[0].samplers[0];
    uint32_t exact = 0;
    for (uint32_t k = 0; k < first->key_count; ++k)
        exact += sampled_vs_scalar(pose, cm, 0, first->times[k]) == 0.0;
    CHECK_MSG(exact == first->key_count, "%u of %u key times exact", exact,
              first->key_count);
    CHECK(sampled_vs_scalar(pose, cm, 0, first->times[0] - 1.0f) == 0.0);
    CHECK(sampled_vs_scalar(
              pose, cm, 0, first->times[first->key_count - 1] + 1.0f) == 0.0);
    vs_pose_free(pose);
    vs_asset_free(cm);
}

/* A broken clip that rotates one node twice: the later channel wins, as in
 * the plain path, even though the first one is LINEAR (batchable). */
static void later_rotation_channel_still_wins(void)
{
    vs_asset *a = fx_asset(1);
    const float *times = fx_floats(a, 2, 0.0, 1.0);
    const float *turn =
        fx_floats(a, 8, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.7071068, 0.7071068);
    const float *held = fx_floats(a, 8, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0);
    vs_anim_sampler s[2] = {{VS_INTERP_LINEAR, 2, times, 4, turn},
                            {VS_INTERP_STEP, 2, times, 4, held}};
    uint32_t nodes[2] = {0, 0};
    vs_anim_path paths[2] = {VS_PATH_ROTATION, VS_PATH_ROTATION};
    fx_clip(a, 2, nodes, paths, s);
    fx_finalize(a);
    vs_pose *pose = NULL;
    CHECK(vs_pose_create(a, &pose, NULL) == VS_OK);
    CHECK(vs_pose_sample(pose, 0, 0.5f, VS_TIME_CLAMP, NULL) == VS_OK);
    float got[16];
    vs_pose_get_local(pose, 0, got);
    /* x axis by 180 degrees: y and z flip. */
    const float want[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1};
    check_matrix_near(got, want, 1e-6, "local");
    vs_pose_free(pose);
    vs_asset_free(a);
}

int main(void)
{
    RUN(poly_weight_matches_sine_ratio);
    RUN(batch_matches_scalar_slerp);
    RUN(pose_sampling_matches_scalar_sampler);
    RUN(shared_key_times_are_searched_once);
    RUN(clips_are_planned_unless_a_target_repeats);
    RUN(assets_without_room_for_plans_still_pose_right);
    RUN(later_rotation_channel_still_wins);
    RUN(samples_on_keys_are_the_keys_bit_for_bit);
    return test_summary();
}
