/* Building the prepared skin stream: the influences of a mesh in the fewest
 * bytes the kernels can read without a per-vertex test. Joint indices become
 * u8 when the skin has at most 256 joints, weights unorm16 unless asked
 * otherwise; weights are normalised here once (unless raw), zero ones are
 * dropped, the rest sorted largest first, and vertices are grouped by how
 * many influences they keep, so each group runs one specialised kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "skin/skin_stream_internal.h"

#define MAX_SOURCE_INFLUENCES 1024u

typedef struct influence {
    uint16_t joint;
    float weight;
} influence;

/* Vertex v's kept influences, largest weight first; returns their count,
 * or -1 after setting error. */
static int read_vertex(const vs_skin_stream_desc *d, size_t v, bool unorm16,
                       influence *tmp, vs_error *error)
{
    const uint32_t k = d->influence_count;
    const unsigned char *jp =
        (const unsigned char *)d->joints +
        v * (d->joints_stride ? d->joints_stride : k * 2u);
    const unsigned char *wp =
        (const unsigned char *)d->weights +
        v * (d->weights_stride ? d->weights_stride : k * 4u);
    double sum = 0.0;
    for (uint32_t i = 0; i < k; ++i) {
        memcpy(&tmp[i].joint, jp + i * 2u, 2);
        memcpy(&tmp[i].weight, wp + i * 4u, 4);
        if (tmp[i].joint >= d->joint_count) {
            set_error(error, VS_ERROR_INVALID,
                      "skin stream: joints: vertex %zu influence %u uses "
                      "joint %u but there are %u joints",
                      v, i, tmp[i].joint, d->joint_count);
            return -1;
        }
        sum += tmp[i].weight;
    }
    double scale = 1.0;
    if (!(d->flags & VS_SKIN_RAW_WEIGHTS)) {
        /* The reference's rule: a sum that is not positive and finite means
         * unskinned (identity), i.e. no influence at all. */
        if (!(sum > 0.0) || !isfinite(sum)) return 0;
        scale = 1.0 / sum;
    }
    int kept = 0;
    for (uint32_t i = 0; i < k; ++i) {
        float w = (float)(tmp[i].weight * scale);
        if (unorm16) {
            if (!(w >= 0.0f && w <= 1.0f)) {
                set_error(error, VS_ERROR_INVALID,
                          "skin stream: weights: vertex %zu influence %u: "
                          "weight %g is outside [0, 1], which unorm16 cannot "
                          "hold (use VS_SKIN_WEIGHTS_FLOAT)",
                          v, i, (double)w);
                return -1;
            }
            w = (float)lrintf(w * 65535.0f) / 65535.0f;
        }
        if (w == 0.0f) continue;
        /* Insertion sort, largest first, equal weights in source order. */
        int at = kept++;
        influence cur = {tmp[i].joint, w};
        while (at > 0 && tmp[at - 1].weight < cur.weight) {
            tmp[at] = tmp[at - 1];
            --at;
        }
        tmp[at] = cur;
    }
    return kept;
}

static vs_result check_desc(const vs_skin_stream_desc *d, vs_error *error)
{
    if (!d)
        return set_error(error, VS_ERROR_ARGUMENT, "skin stream: desc is NULL");
    if (!d->joints || !d->weights)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: joints / weights: required buffer is "
                         "NULL");
    if (d->influence_count < 1 || d->influence_count > MAX_SOURCE_INFLUENCES)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: influence_count: %u is not in 1..%u",
                         d->influence_count, MAX_SOURCE_INFLUENCES);
    if (d->joint_count < 1 || d->joint_count > 65536)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: joint_count: %u is not in 1..65536",
                         d->joint_count);
    if (d->weight_format != VS_SKIN_WEIGHTS_UNORM16 &&
        d->weight_format != VS_SKIN_WEIGHTS_FLOAT)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: weight_format: %d is unknown",
                         (int)d->weight_format);
    if ((d->joints_stride && d->joints_stride < d->influence_count * 2u) ||
        (d->weights_stride && d->weights_stride < d->influence_count * 4u))
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: joints_stride / weights_stride: "
                         "smaller than influence_count elements");
    const size_t jstep =
        d->joints_stride ? d->joints_stride : d->influence_count * 2u;
    const size_t wstep =
        d->weights_stride ? d->weights_stride : d->influence_count * 4u;
    if (d->vertex_count > SIZE_MAX / jstep ||
        d->vertex_count > SIZE_MAX / wstep)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: joints / weights: %zu vertices at "
                         "these strides exceed the address space",
                         d->vertex_count);
    if (d->vertex_count > UINT32_MAX)
        return set_error(error, VS_ERROR_LIMIT,
                         "skin stream: vertex_count: %zu exceeds 2^32 - 1",
                         d->vertex_count);
    return VS_OK;
}

void vs_skin_stream_free(vs_skin_stream *s)
{
    if (!s) return;
    free(s->group_start);
    free(s->group_data);
    free(s->joints);
    free(s->weights);
    free(s->order);
    free(s);
}

/* Pass 2: every vertex into its group slot. */
static vs_result fill(vs_skin_stream *s, const vs_skin_stream_desc *d,
                      influence *tmp, vs_error *error)
{
    size_t *next = calloc(s->max_k + 1, sizeof *next);
    if (!next)
        return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                         "skin stream: out of memory");
    for (uint32_t k = 0; k <= s->max_k; ++k)
        next[k] = s->group_start[k];
    for (size_t v = 0; v < d->vertex_count; ++v) {
        int k = read_vertex(d, v, s->unorm16, tmp, NULL);
        size_t pos = next[k]++;
        s->order[pos] = (uint32_t)v;
        size_t at = s->group_data[k] + (pos - s->group_start[k]) * (size_t)k;
        for (int i = 0; i < k; ++i) {
            if (s->u8_joints)
                ((uint8_t *)s->joints)[at + i] = (uint8_t)tmp[i].joint;
            else
                ((uint16_t *)s->joints)[at + i] = tmp[i].joint;
            if (s->unorm16)
                ((uint16_t *)s->weights)[at + i] =
                    (uint16_t)lrintf(tmp[i].weight * 65535.0f);
            else
                ((float *)s->weights)[at + i] = tmp[i].weight;
        }
    }
    free(next);
    return VS_OK;
}

vs_result vs_skin_stream_create(const vs_skin_stream_desc *d,
                                vs_skin_stream **out, vs_error *error)
{
    if (!out)
        return set_error(error, VS_ERROR_ARGUMENT, "skin stream: out is NULL");
    *out = NULL;
    vs_result r = check_desc(d, error);
    if (r != VS_OK) return r;
    const bool unorm16 = d->weight_format == VS_SKIN_WEIGHTS_UNORM16;
    influence *tmp = malloc(d->influence_count * sizeof *tmp);
    size_t *hist = calloc(d->influence_count + 2, sizeof *hist);
    vs_skin_stream *s = calloc(1, sizeof *s);
    if (!tmp || !hist || !s) {
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                      "skin stream: out of memory");
        goto done;
    }
    /* Pass 1: check every vertex and count the groups. */
    for (size_t v = 0; v < d->vertex_count; ++v) {
        int k = read_vertex(d, v, unorm16, tmp, error);
        if (k < 0) {
            r = error ? error->code : VS_ERROR_INVALID;
            goto done;
        }
        ++hist[k];
        if ((uint32_t)k > s->max_k) s->max_k = (uint32_t)k;
    }
    s->vertex_count = d->vertex_count;
    s->joint_count = d->joint_count;
    s->u8_joints = d->joint_count <= 256;
    s->unorm16 = unorm16;
    s->raw = (d->flags & VS_SKIN_RAW_WEIGHTS) != 0;
    s->group_start = calloc(s->max_k + 2, sizeof *s->group_start);
    s->group_data = calloc(s->max_k + 1, sizeof *s->group_data);
    for (uint32_t k = 0; k <= s->max_k; ++k) {
        s->group_start[k + 1] = s->group_start[k] + hist[k];
        if (k < s->max_k) s->group_data[k + 1] = s->group_data[k] + hist[k] * k;
        s->influence_total += hist[k] * k;
    }
    s->joints = malloc(s->influence_total * (s->u8_joints ? 1 : 2) + 1);
    s->weights = malloc(s->influence_total * (unorm16 ? 2 : 4) + 1);
    s->order = malloc(d->vertex_count * sizeof *s->order + 1);
    if (!s->group_start || !s->group_data || !s->joints || !s->weights ||
        !s->order) {
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                      "skin stream: out of memory");
        goto done;
    }
    r = fill(s, d, tmp, error);
done:
    free(tmp);
    free(hist);
    if (r == VS_OK) {
        *out = s;
        if (error) clear_error(error);
    } else {
        vs_skin_stream_free(s);
    }
    return r;
}

size_t vs_skin_stream_vertex_count(const vs_skin_stream *s)
{
    return s ? s->vertex_count : 0;
}

double vs_skin_stream_bytes_per_vertex(const vs_skin_stream *s)
{
    if (!s || !s->vertex_count) return 0.0;
    double bytes = (double)s->influence_total *
                   ((s->u8_joints ? 1 : 2) + (s->unorm16 ? 2 : 4));
    return bytes / (double)s->vertex_count;
}

const uint32_t *vs_skin_stream_vertex_order(const vs_skin_stream *s)
{
    return s ? s->order : NULL;
}

uint32_t vs_skin_stream_max_influences(const vs_skin_stream *s)
{
    return s ? s->max_k : 0;
}
