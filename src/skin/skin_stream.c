/* SPDX-License-Identifier: MIT */
/* Building the prepared skin stream: the influences of a mesh in the fewest
 * bytes the kernels can read without a per-vertex test. Joint indices become
 * u8 when the skin has at most 256 joints, weights unorm16 unless asked
 * otherwise; weights are normalised here once (unless raw), zero ones are
 * dropped, and vertices are grouped by how many influences they keep, so
 * each group runs one specialised kernel. Within a group of up to
 * KERNEL_MAX_STAGED influences, vertices are sorted by their joints and
 * every whole KERNEL_CHUNK of equal joints becomes a chunk (kernel.h); of
 * the vertices left, eight whose lists together name few joints become a
 * union chunk (skin_stream_unions.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "asset/weights_rule.h"
#include "base/alloc.h"
#include "base/error.h"
#include "skin/lbs/kernel.h"
#include "skin/skin_stream_internal.h"
#include "skin/skin_stream_unions.h"

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
        /* Unskinned (asset/weights_rule.h): no influence at all. */
        if (!weights_sum_skins(sum)) return 0;
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
    vs_result r =
        mem_check_allocator(&d->allocator, "skin stream", "allocator", error);
    if (r != VS_OK) return r;
    /* A normals flag here would be silently lost: the stream holds weights
     * only, its jobs skin the normals. */
    if (d->flags & VS_SKIN_NORMALS_BY_MATRIX)
        return set_error(error, VS_ERROR_ARGUMENT,
                         "skin stream: flags: VS_SKIN_NORMALS_BY_MATRIX "
                         "belongs to the stream job (vs_skin_stream_job), "
                         "not the stream's desc");
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
    const vs_allocator alloc = s->alloc;
    mem_free(&alloc, s->group_start);
    mem_free(&alloc, s->group_data);
    mem_free(&alloc, s->joints);
    mem_free(&alloc, s->weights);
    mem_free(&alloc, s->order);
    mem_free(&alloc, s->chunk_count);
    mem_free(&alloc, s->exact_chunks);
    mem_free(&alloc, s->chunk_at);
    mem_free(&alloc, s->chunk_joints);
    mem_free(&alloc, s->chunk_weights);
    mem_free(&alloc, s);
}

static int record_cmp(const void *pa, const void *pb)
{
    const vertex_record *a = pa, *b = pb;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    for (unsigned i = 0; i < a->k; ++i)
        if (a->joint[i] != b->joint[i])
            return a->joint[i] < b->joint[i] ? -1 : 1;
    return a->v < b->v ? -1 : a->v > b->v;
}

static bool same_joints(const vertex_record *a, const vertex_record *b)
{
    return a->k == b->k && !memcmp(a->joint, b->joint, a->k * sizeof *a->joint);
}

static void record_of(size_t v, const influence *tmp, int k, vertex_record *r)
{
    memset(r, 0, sizeof *r);
    r->v = (uint32_t)v;
    r->k = (uint16_t)k;
    for (int i = 0; i < k; ++i) {
        /* Insertion by joint, then weight: a canonical order. */
        int at = i;
        while (at > 0 && (r->joint[at - 1] > tmp[i].joint ||
                          (r->joint[at - 1] == tmp[i].joint &&
                           r->weight[at - 1] > tmp[i].weight))) {
            r->joint[at] = r->joint[at - 1];
            r->weight[at] = r->weight[at - 1];
            --at;
        }
        r->joint[at] = tmp[i].joint;
        r->weight[at] = tmp[i].weight;
    }
}

static void put_joint(const vs_skin_stream *s, void *joints, size_t at,
                      uint16_t joint)
{
    if (s->u8_joints)
        ((uint8_t *)joints)[at] = (uint8_t)joint;
    else
        ((uint16_t *)joints)[at] = joint;
}

static void put_weight(const vs_skin_stream *s, void *weights, size_t at,
                       float weight)
{
    if (s->unorm16)
        ((uint16_t *)weights)[at] = (uint16_t)lrintf(weight * 65535.0f);
    else
        ((float *)weights)[at] = weight;
}

/* The end of the run of sorted records with rec[a]'s joints. */
static size_t run_end(const vertex_record *rec, size_t count, size_t a)
{
    size_t b = a + 1;
    while (b < count && same_joints(&rec[a], &rec[b]))
        ++b;
    return b;
}

/* Runs of records with the same joints: each whole KERNEL_CHUNK of a run
 * is an exact chunk. Marks their records and counts them per influence
 * count. */
static void mark_exact_chunks(const vertex_record *rec, size_t count,
                              uint8_t *place, size_t *chunks)
{
    for (size_t a = 0, b; a < count; a = b) {
        b = run_end(rec, count, a);
        const size_t whole = (b - a) / KERNEL_CHUNK * KERNEL_CHUNK;
        for (size_t i = a; i < a + whole; ++i)
            place[i] = PLACE_EXACT;
        chunks[rec[a].k] += whole / KERNEL_CHUNK;
    }
}

/* Writes chunk c of group k: its joints (slots) and lane `lane`'s weights,
 * 0 where the vertex r lacks the slot's joint. */
static void put_chunk_lane(vs_skin_stream *s, uint32_t k, size_t c, size_t lane,
                           const uint16_t *joint, const vertex_record *r)
{
    s->order[s->group_start[k] + c * KERNEL_CHUNK + lane] = r->v;
    for (uint32_t j = 0, i = 0; j < k; ++j) {
        const size_t at = s->chunk_at[k] + c * k + j;
        put_joint(s, s->chunk_joints, at, joint[j]);
        const bool has = i < r->k && r->joint[i] == joint[j];
        put_weight(s, s->chunk_weights, at * KERNEL_CHUNK + lane,
                   has ? r->weight[i++] : 0.0f);
    }
}

/* The chunked groups from their sorted records: each run's exact chunks,
 * then each group's union chunks, then its other vertices one by one. */
static void emit_records(vs_skin_stream *s, const vertex_record *rec,
                         size_t count, const uint8_t *place,
                         const union_chunk *unions, size_t union_count)
{
    /* Per group, the exact chunks' records emitted so far (whole runs of
     * KERNEL_CHUNK, in order) and the tail's. */
    size_t exact = 0, tail = 0;
    for (size_t i = 0; i < count; ++i) {
        const vertex_record *r = &rec[i];
        const uint32_t k = r->k;
        if (i == 0 || rec[i - 1].k != k) exact = tail = 0;
        if (place[i] == PLACE_EXACT) {
            put_chunk_lane(s, k, exact / KERNEL_CHUNK, exact % KERNEL_CHUNK,
                           r->joint, r);
            ++exact;
        } else if (place[i] == PLACE_TAIL) {
            s->order[skin_stream_tail_start(s, k) + tail] = r->v;
            for (uint32_t j = 0; j < k; ++j) {
                const size_t at = s->group_data[k] + tail * k + j;
                put_joint(s, s->joints, at, r->joint[j]);
                put_weight(s, s->weights, at, r->weight[j]);
            }
            ++tail;
        }
    }
    size_t next[KERNEL_MAX_STAGED + 1] = {0};
    for (size_t i = 0; i < union_count; ++i) {
        const union_chunk *c = &unions[i];
        const size_t at = s->exact_chunks[c->u] + next[c->u]++;
        for (uint32_t lane = 0; lane < KERNEL_CHUNK; ++lane)
            put_chunk_lane(s, c->u, at, lane, c->joint, &rec[c->member[lane]]);
    }
}

/* Group sizes and offsets once the chunks are known: group k holds the
 * vertices of k influences outside union chunks and the union chunks of k
 * slots. Sets max_k to the largest group with a vertex. */
static void layout_groups(vs_skin_stream *s, const size_t *hist,
                          const size_t *in_unions, const size_t *tails)
{
    s->max_k = 0;
    for (uint32_t k = 0; k < s->groups; ++k) {
        const size_t size =
            hist[k] - in_unions[k] +
            (s->chunk_count[k] - s->exact_chunks[k]) * KERNEL_CHUNK;
        s->group_start[k + 1] = s->group_start[k] + size;
        if (size) s->max_k = k;
        if (k + 1 < s->groups) {
            s->chunk_at[k + 1] = s->chunk_at[k] + s->chunk_count[k] * k;
            s->group_data[k + 1] = s->group_data[k] + tails[k] * k;
        }
        s->influence_total += tails[k] * k;
        s->chunk_influences += s->chunk_count[k] * k;
    }
}

static vs_result out_of_memory(vs_error *error)
{
    return set_error(error, VS_ERROR_OUT_OF_MEMORY,
                     "skin stream: out of memory");
}

/* Pass 2: vertices of 1..KERNEL_MAX_STAGED influences sorted by their
 * joints into exact chunks, union chunks and tails, the others (none
 * kept, or more than the kernels stage at once) in source order, largest
 * weight first. */
static vs_result fill(vs_skin_stream *s, const vs_skin_stream_desc *d,
                      const size_t *hist, influence *tmp, vs_error *error)
{
    size_t chunked = 0, others = 0;
    for (uint32_t k = 0; k < s->groups; ++k)
        if (k >= 1 && k <= KERNEL_MAX_STAGED)
            chunked += hist[k];
        else
            others += hist[k];
    vertex_record *rec = mem_alloc(&s->alloc, chunked * sizeof *rec + 1);
    uint8_t *place = mem_calloc(&s->alloc, chunked + 1, 1);
    union_chunk *unions =
        mem_alloc(&s->alloc, chunked / KERNEL_CHUNK * sizeof *unions + 1);
    uint32_t *other = mem_alloc(&s->alloc, others * sizeof *other + 1);
    uint64_t *bits = mem_alloc(&s->alloc, chunked * sizeof *bits + 1);
    uint32_t *left = mem_alloc(&s->alloc, chunked * sizeof *left + 1);
    /* Per group: vertices in union chunks of other groups, and vertices
     * outside the chunks (then the places of the others taken). */
    size_t *in_unions = mem_calloc(&s->alloc, s->groups, sizeof *in_unions);
    size_t *tails = mem_calloc(&s->alloc, s->groups, sizeof *tails);
    vs_result r = VS_OK;
    if (!rec || !place || !unions || !other || !bits || !left || !in_unions ||
        !tails) {
        r = out_of_memory(error);
        goto done;
    }
    size_t count = 0, nother = 0;
    for (size_t v = 0; v < d->vertex_count; ++v) {
        int k = read_vertex(d, v, s->unorm16, tmp, NULL);
        if (k >= 1 && k <= KERNEL_MAX_STAGED)
            record_of(v, tmp, k, &rec[count++]);
        else
            other[nother++] = (uint32_t)v;
    }
    qsort(rec, count, sizeof *rec, record_cmp);
    mark_exact_chunks(rec, count, place, s->chunk_count);
    memcpy(s->exact_chunks, s->chunk_count,
           s->groups * sizeof *s->exact_chunks);
    size_t union_count = 0;
    if (!make_unions(&s->alloc, rec, count, place, bits, left, unions,
                     &union_count)) {
        r = out_of_memory(error);
        goto done;
    }
    for (size_t i = 0; i < union_count; ++i)
        ++s->chunk_count[unions[i].u];
    for (size_t i = 0; i < count; ++i) {
        if (place[i] == PLACE_UNION) ++in_unions[rec[i].k];
        if (place[i] == PLACE_TAIL) ++tails[rec[i].k];
    }
    for (uint32_t k = 0; k < s->groups; ++k)
        if (k < 1 || k > KERNEL_MAX_STAGED) tails[k] = hist[k];
    layout_groups(s, hist, in_unions, tails);
    /* The other groups keep source order. */
    memset(tails, 0, s->groups * sizeof *tails);
    for (size_t i = 0; i < nother; ++i) {
        const int k = read_vertex(d, other[i], s->unorm16, tmp, NULL);
        s->order[s->group_start[k] + tails[k]++] = other[i];
    }
    const size_t jsize = skin_stream_joint_size(s),
                 wsize = skin_stream_weight_size(s);
    s->joints = mem_alloc(&s->alloc, s->influence_total * jsize + 1);
    s->weights = mem_alloc(&s->alloc, s->influence_total * wsize + 1);
    s->chunk_joints = mem_alloc(&s->alloc, s->chunk_influences * jsize + 1);
    s->chunk_weights = mem_calloc(
        &s->alloc, s->chunk_influences * KERNEL_CHUNK + KERNEL_CHUNK_PAD,
        wsize);
    if (!s->joints || !s->weights || !s->chunk_joints || !s->chunk_weights) {
        r = out_of_memory(error);
        goto done;
    }
    emit_records(s, rec, count, place, unions, union_count);
    /* Groups of more than KERNEL_MAX_STAGED influences (rare): their
     * vertices' influences, read again now that their offsets are known. */
    for (uint32_t k = KERNEL_MAX_STAGED + 1; k < s->groups; ++k)
        for (size_t pos = s->group_start[k]; pos < s->group_start[k + 1];
             ++pos) {
            read_vertex(d, s->order[pos], s->unorm16, tmp, NULL);
            size_t at = s->group_data[k] + (pos - s->group_start[k]) * k;
            for (uint32_t i = 0; i < k; ++i) {
                put_joint(s, s->joints, at + i, tmp[i].joint);
                put_weight(s, s->weights, at + i, tmp[i].weight);
            }
        }
done:
    mem_free(&s->alloc, rec);
    mem_free(&s->alloc, place);
    mem_free(&s->alloc, unions);
    mem_free(&s->alloc, other);
    mem_free(&s->alloc, bits);
    mem_free(&s->alloc, left);
    mem_free(&s->alloc, in_unions);
    mem_free(&s->alloc, tails);
    return r;
}

vs_result vs_skin_stream_create(const vs_skin_stream_desc *d,
                                vs_skin_stream **out, vs_error *error)
{
    if (!out)
        return set_error(error, VS_ERROR_ARGUMENT, "skin stream: out is NULL");
    *out = NULL;
    vs_result r = check_desc(d, error);
    if (r != VS_OK) return r;
    const vs_allocator *alloc = &d->allocator;
    const bool unorm16 = d->weight_format == VS_SKIN_WEIGHTS_UNORM16;
    influence *tmp = mem_alloc(alloc, d->influence_count * sizeof *tmp);
    /* Groups go up to KERNEL_MAX_STAGED whatever the source's count: union
     * chunks may have more slots than any vertex has influences. */
    const size_t groups =
        (d->influence_count > KERNEL_MAX_STAGED ? d->influence_count
                                                : KERNEL_MAX_STAGED) +
        1;
    size_t *hist = mem_calloc(alloc, groups, sizeof *hist);
    vs_skin_stream *s = mem_calloc(alloc, 1, sizeof *s);
    if (s) s->alloc = *alloc;
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
        if ((uint32_t)k > s->max_kept) s->max_kept = (uint32_t)k;
    }
    s->vertex_count = d->vertex_count;
    s->joint_count = d->joint_count;
    s->u8_joints = d->joint_count <= 256;
    s->unorm16 = unorm16;
    s->raw = (d->flags & VS_SKIN_RAW_WEIGHTS) != 0;
    s->groups = (uint32_t)groups;
    s->group_start = mem_calloc(&s->alloc, groups + 1, sizeof *s->group_start);
    s->group_data = mem_calloc(&s->alloc, groups, sizeof *s->group_data);
    s->chunk_count = mem_calloc(&s->alloc, groups, sizeof *s->chunk_count);
    s->exact_chunks = mem_calloc(&s->alloc, groups, sizeof *s->exact_chunks);
    s->chunk_at = mem_calloc(&s->alloc, groups, sizeof *s->chunk_at);
    s->order = mem_alloc(&s->alloc, d->vertex_count * sizeof *s->order + 1);
    if (!s->group_start || !s->group_data || !s->chunk_count ||
        !s->exact_chunks || !s->chunk_at || !s->order) {
        r = set_error(error, VS_ERROR_OUT_OF_MEMORY,
                      "skin stream: out of memory");
        goto done;
    }
    r = fill(s, d, hist, tmp, error);
    if (r == VS_OK && s->max_k >= 1)
        s->unit_chunks1 = kernel_weights_are_one(
            kernel_element(s->chunk_weights, s->chunk_at[1] * KERNEL_CHUNK,
                           skin_stream_weight_size(s)),
            s->chunk_count[1] * KERNEL_CHUNK, unorm16);
done:
    mem_free(alloc, tmp);
    mem_free(alloc, hist);
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
    const double jsize = (double)skin_stream_joint_size(s),
                 wsize = (double)skin_stream_weight_size(s);
    double bytes = (double)s->influence_total * (jsize + wsize) +
                   (double)s->chunk_influences * (jsize + KERNEL_CHUNK * wsize);
    return bytes / (double)s->vertex_count;
}

const uint32_t *vs_skin_stream_vertex_order(const vs_skin_stream *s)
{
    return s ? s->order : NULL;
}

uint32_t vs_skin_stream_max_influences(const vs_skin_stream *s)
{
    return s ? s->max_kept : 0;
}
