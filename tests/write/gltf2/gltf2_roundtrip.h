/* SPDX-License-Identifier: MIT */
/* Posing two assets side by side: the round-trip check of the glTF 2.0
 * writer (source vs converted file) and helpers to find the assets. */
#ifndef VS_TESTS_IO_GLTF2_ROUNDTRIP_H
#define VS_TESTS_IO_GLTF2_ROUNDTRIP_H

#include <dirent.h>
#include <stdint.h>
#include <strings.h>

#include "base/xform.h"
#include "test.h"
#include "vskin/vskin.h"

/* Every posed position of every mesh instance (instances in order, then
 * primitives), after sampling `clip` (-1: rest) at t; NULL on error. */
static inline float *rt_pose_all(vs_pose *pose, int32_t clip, float t,
                                 size_t *count)
{
    const vs_asset *a = vs_pose_asset(pose);
    vs_error err;
    vs_pose_reset(pose);
    if (clip >= 0 &&
        vs_pose_sample(pose, (uint32_t)clip, t, VS_TIME_CLAMP, &err) != VS_OK) {
        fprintf(stderr, "%s: %s\n", a->source_name, err.message);
        return NULL;
    }
    vs_pose_update_world(pose);
    size_t n = 0, cap = 0;
    float *all = NULL;
    for (uint32_t i = 0; i < a->instance_count; ++i) {
        uint32_t node = a->instances[i];
        const vs_mesh *mesh = &a->meshes[a->nodes[node].mesh];
        for (uint32_t p = 0; p < mesh->primitive_count; ++p) {
            vs_posed_primitive out;
            vs_pose_mesh_options opt = {0};
            if (vs_pose_mesh_primitive(pose, node, p, &opt, &out, &err) !=
                VS_OK) {
                fprintf(stderr, "%s: %s\n", a->source_name, err.message);
                free(all);
                return NULL;
            }
            size_t add = (size_t)out.vertex_count * 3;
            if (n + add > cap) {
                cap = (n + add) * 2;
                float *grown = realloc(all, cap * sizeof *all);
                if (!grown) abort();
                all = grown;
            }
            memcpy(all + n, out.positions, add * sizeof *all);
            n += add;
            vs_posed_primitive_free(&out);
        }
    }
    *count = n;
    return all ? all : malloc(1);
}

/* Applies m to every point of p (count floats, 3 per point). */
static inline void rt_transform(const float m[16], float *p, size_t count)
{
    for (size_t i = 0; i + 2 < count; i += 3) {
        float out[3];
        xform_transform_point(m, p + i, out);
        memcpy(p + i, out, sizeof out);
    }
}

/* Diagonal of the points' bounding box. */
static inline double rt_extent(const float *p, size_t count)
{
    double lo[3] = {INFINITY, INFINITY, INFINITY};
    double hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (size_t i = 0; i + 2 < count; i += 3)
        for (int k = 0; k < 3; ++k) {
            if (p[i + k] < lo[k]) lo[k] = p[i + k];
            if (p[i + k] > hi[k]) hi[k] = p[i + k];
        }
    double d = 0;
    for (int k = 0; k < 3; ++k)
        if (hi[k] >= lo[k]) d += (hi[k] - lo[k]) * (hi[k] - lo[k]);
    return sqrt(d);
}

/* Result of comparing two assets pose by pose. */
typedef struct rt_result {
    bool ok;        /* both posed everywhere with equal vertex counts */
    double worst;   /* largest |correction * source - converted| coordinate */
    double extent;  /* size of the source's corrected rest pose */
    double moved;   /* largest displacement from the first sampled pose */
    uint32_t poses; /* poses compared */
} rt_result;

/* Poses src (its clips in order, clips without channels skipped) and out
 * (its clips in order) at 9 times across each clip plus one past its end,
 * and compares correction * src with out. */
static inline rt_result rt_compare(const vs_asset *src, const vs_asset *out,
                                   const float correction[16])
{
    rt_result res = {true, 0, 0, 0, 0};
    vs_pose *ps = NULL, *po = NULL;
    vs_error err;
    if (vs_pose_create(src, &ps, &err) != VS_OK ||
        vs_pose_create(out, &po, &err) != VS_OK) {
        fprintf(stderr, "vs_pose_create: %s\n", err.message);
        res.ok = false;
        goto done;
    }
    size_t n0 = 0;
    float *rest = rt_pose_all(ps, -1, 0, &n0);
    if (!rest) {
        res.ok = false;
        goto done;
    }
    rt_transform(correction, rest, n0);
    res.extent = rt_extent(rest, n0);
    uint32_t out_clip = 0;
    for (int32_t clip = src->clip_count ? 0 : -1;
         clip < (int32_t)src->clip_count && res.ok; ++clip) {
        if (clip >= 0 && src->clips[clip].channel_count == 0) continue;
        int32_t oc = clip < 0 ? -1 : (int32_t)out_clip++;
        if (oc >= (int32_t)out->clip_count) {
            fprintf(stderr, "%s: clip %d missing in the output\n",
                    src->source_name, clip);
            res.ok = false;
            break;
        }
        float start = clip < 0 ? 0 : src->clips[clip].start;
        float end = clip < 0 ? 0 : src->clips[clip].end;
        for (int step = 0; step <= 9 && res.ok; ++step) {
            float t = start + (end - start) * (float)step / 8.0f;
            size_t na = 0, nb = 0;
            float *a = rt_pose_all(ps, clip, t, &na);
            float *b = rt_pose_all(po, oc, t, &nb);
            if (!a || !b || na != nb || na != n0) {
                fprintf(stderr, "%s: clip %d t=%g: %zu vs %zu positions\n",
                        src->source_name, clip, (double)t, na, nb);
                res.ok = false;
            } else {
                rt_transform(correction, a, na);
                for (size_t k = 0; k < na; ++k) {
                    double d = fabs((double)a[k] - b[k]);
                    if (!(d <= res.worst)) res.worst = d;
                    double m = fabs((double)a[k] - rest[k]);
                    if (m > res.moved) res.moved = m;
                }
                res.poses++;
            }
            free(a);
            free(b);
        }
    }
    free(rest);
done:
    vs_pose_free(ps);
    vs_pose_free(po);
    return res;
}

/* Appends to list every file under dir (recursively) whose name ends in one
 * of the extensions; returns the new count. Paths are malloc'd. */
static inline size_t rt_find(const char *dir, const char *const *exts,
                             char **list, size_t count, size_t max)
{
    DIR *d = opendir(dir);
    if (!d) return count;
    struct dirent *e;
    while ((e = readdir(d)) && count < max) {
        if (e->d_name[0] == '.') continue;
        char path[1024];
        int len_path = snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (len_path < 0 || (size_t)len_path >= sizeof path) continue;
        struct stat st;
        if (stat(path, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            count = rt_find(path, exts, list, count, max);
            continue;
        }
        size_t len = strlen(e->d_name);
        for (const char *const *x = exts; *x; ++x) {
            size_t xl = strlen(*x);
            if (len > xl && strcasecmp(e->d_name + len - xl, *x) == 0) {
                list[count++] = strdup(path);
                break;
            }
        }
    }
    closedir(d);
    return count;
}

static inline int rt_compare_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The assets every writer test converts, sorted: the project's glTF 1.0
 * SimpleSkin and hand-made render files (8 and 12 influences, morph targets
 * on a skinned mesh), then, when ../shared/assets is there, every glTF 2.0,
 * glTF 1.0 and COLLADA file in it. Returns the count (paths malloc'd). */
static inline size_t rt_sources(char **files, size_t max)
{
    static const char *gltf[] = {".gltf", ".glb", NULL};
    static const char *dae[] = {".dae", NULL};
    size_t n = 0;
    files[n++] = strdup(VS_TEST_DATA "/gltf1/SimpleSkin.gltf");
    n = rt_find(VS_TEST_DATA "/render", gltf, files, n, max);
    qsort(files, n, sizeof *files, rt_compare_paths);
    if (!test_path_exists(VS_SHARED_ASSETS)) {
        printf("%s not found: only the project's own data\n", VS_SHARED_ASSETS);
        return n;
    }
    size_t first = n;
    n = rt_find(VS_SHARED_ASSETS "/gltf2", gltf, files, n, max);
    n = rt_find(VS_SHARED_ASSETS "/gltf1", gltf, files, n, max);
    n = rt_find(VS_SHARED_ASSETS "/collada", dae, files, n, max);
    qsort(files + first, n - first, sizeof *files, rt_compare_paths);
    return n;
}

#endif
