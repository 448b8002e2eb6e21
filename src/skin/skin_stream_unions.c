/* SPDX-License-Identifier: MIT */
/* The search for the prepared stream's union chunks
 * (skin_stream_unions.h), in two passes per group of k influences: the
 * cover search, then a window over sorted neighbours for what it left. */
#include "skin/skin_stream_unions.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/bit_count.h"

/* The most slots a union chunk of vertices with k influences may have.
 * A chunk blends from broadcast matrix entries, a multiply-add per entry,
 * slot and KERNEL_CHUNK lanes, and needs no transpose; a vertex outside
 * the chunks gathers its k matrices, blends them and transposes the
 * result. Measured, a chunk of twice the slots is still the faster
 * (docs/design/skinning.md, "Union chunks"). One influence is left alone:
 * its vertex takes its joint's matrix as it is, with nothing to blend. */
static uint32_t union_slots(uint32_t k)
{
    if (k < 2) return 0;
    return 2 * k < KERNEL_MAX_STAGED ? 2 * k : KERNEL_MAX_STAGED;
}

/* Candidates a union chunk's first vertex looks at: the next this many
 * vertices of its group outside the chunks, in sorted order (neighbours
 * share the first joints of their lists). It bounds the preparation's
 * time: a vertex that finds no chunk costs this many tests per pass. */
#define UNION_WINDOW 128u

/* How many of r's joints the sorted list (joint, n) lacks. Both are
 * multisets: a vertex may name a joint twice, and takes a slot for each. */
static uint32_t union_growth(const uint16_t *joint, uint32_t n,
                             const vertex_record *r)
{
    uint32_t grow = 0, a = 0;
    for (uint32_t b = 0; b < r->k; ++b) {
        while (a < n && joint[a] < r->joint[b])
            ++a;
        if (a < n && joint[a] == r->joint[b])
            ++a;
        else
            ++grow;
    }
    return grow;
}

/* The sorted list (joint, *n) with r's joints added (their multiset
 * union: union_growth more). */
static void union_add(uint16_t *joint, uint32_t *n, const vertex_record *r)
{
    uint16_t merged[2 * KERNEL_MAX_STAGED];
    uint32_t a = 0, b = 0, m = 0;
    while (a < *n || b < r->k) {
        if (b == r->k || (a < *n && joint[a] < r->joint[b]))
            merged[m++] = joint[a++];
        else if (a == *n || r->joint[b] < joint[a])
            merged[m++] = r->joint[b++];
        else
            merged[m++] = joint[a++], ++b;
    }
    memcpy(joint, merged, m * sizeof *joint);
    *n = m;
}

/* A record's joints as bits (joint mod 64): a joint whose bit a set's
 * mask lacks is not in the set, so bit_count(mask & ~set) never exceeds
 * union_growth, and is it for skins of at most 64 joints. */
static uint64_t joint_bits(const vertex_record *r)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < r->k; ++i)
        m |= 1ull << (r->joint[i] & 63u);
    return m;
}

/* Grows a union chunk from the seed left[at], a record of a group's
 * leftovers (left, nleft), greedily: of the window's candidates, one that
 * adds the fewest joints, until the chunk is full or any more would exceed
 * `slots`. Returns whether it filled. */
static bool grow_union(const vertex_record *rec, const uint64_t *bits,
                       const uint8_t *place, const uint32_t *left, size_t nleft,
                       size_t at, uint32_t slots, union_chunk *c)
{
    size_t cand[UNION_WINDOW];
    uint32_t nc = 0;
    for (size_t i = at + 1; i < nleft && nc < UNION_WINDOW; ++i)
        if (place[left[i]] == PLACE_TAIL) cand[nc++] = left[i];
    const size_t s = left[at];
    uint32_t members = 1;
    uint64_t set = bits[s];
    c->member[0] = (uint32_t)s;
    c->u = rec[s].k;
    memcpy(c->joint, rec[s].joint, rec[s].k * sizeof *c->joint);
    while (members < KERNEL_CHUNK) {
        uint32_t best = UINT32_MAX, best_grow = slots - c->u + 1;
        for (uint32_t i = 0; i < nc && best_grow; ++i) {
            if (bit_count(bits[cand[i]] & ~set) >= best_grow) continue;
            const uint32_t g = union_growth(c->joint, c->u, &rec[cand[i]]);
            if (g < best_grow) best = i, best_grow = g;
        }
        if (best == UINT32_MAX) return false;
        union_add(c->joint, &c->u, &rec[cand[best]]);
        set |= bits[cand[best]];
        c->member[members++] = (uint32_t)cand[best];
        cand[best] = cand[--nc];
    }
    return true;
}

/* The cover search: a seed's union grows one joint at a time, each time by
 * the joint that the most vertices lack alone, until eight vertices lie
 * inside it. The window search (grow_union) compares a seed with its sorted
 * neighbours, which share the first joints of their lists; where lists are
 * scattered (a few joints of many per vertex, drawn at random), those
 * neighbours differ in all their other joints, and unions grown from them
 * take more slots than a union grown around the joints that many vertices
 * share (docs/design/skinning.md, "Union chunks"). The vertices that lack at
 * most one joint of a union are found through an index of every record's list
 * with one joint left out: the union's (k-1)-joint subsets are the keys to look
 * up, and an entry's left-out joint says at once whether its record lies inside
 * the union or which joint it lacks, without reading the record. */

/* Index entries one seed may visit (placed records included): it bounds
 * the time per seed, as the window does for the window search. */
#define COVER_BUDGET 2048u

/* Neighbours a seed needs to grow its union (cover_grow). */
#define COVER_MIN_NEIGHBOURS 2u

/* A record with one joint of its list left out (`out`); check: 16 bits of
 * the rest's hash, above the bits that chose its bucket. Lists that share
 * a bucket and the check may bring a record into view that does not fit;
 * a record is read and tested before it joins a chunk, so no result
 * depends on them beyond which candidates are seen. */
typedef struct cover_entry {
    uint32_t rec;
    uint16_t out, check;
} cover_entry;

/* A candidate lacking one joint of the union: which. */
typedef struct cover_pending {
    uint32_t rec;
    uint16_t missing;
} cover_pending;

/* A bucket's entries: entry[start .. start + live) are unplaced records
 * (a scan moves the placed ones past live), up to the next bucket's
 * start. */
typedef struct cover_bucket {
    uint32_t start, live;
} cover_bucket;

typedef struct cover_search {
    cover_entry *entry;     /* by bucket */
    cover_bucket *bucket;   /* mask + 2: the last start ends the entries */
    size_t mask;            /* buckets - 1 */
    uint8_t *seen;          /* per record: seen by the current seed */
    uint32_t *tally;        /* per joint: pending records that lack it */
    cover_pending *pending; /* COVER_BUDGET */
    uint32_t *touched;      /* COVER_BUDGET records whose seen is set */
    uint32_t npending, visits, ntouched;
    uint16_t joint[KERNEL_MAX_STAGED]; /* the union, sorted */
    uint32_t u;
    uint32_t covered[KERNEL_CHUNK - 1]; /* records inside it, seed aside */
    uint32_t ncovered;
} cover_search;

/* The hash of the sorted joint list (joint, n) keeping the joints whose
 * bits mask holds: the one key for a record's lists with one joint left
 * out (cover_lists) and for a union's subsets (cover_scan). */
static uint64_t cover_key(const uint16_t *joint, uint32_t n, uint32_t mask)
{
    uint64_t h = bit_count(mask);
    for (uint32_t i = 0; i < n; ++i) {
        if (!(mask >> i & 1u)) continue;
        h = (h ^ joint[i]) * 0x9E3779B97F4A7C15ull;
        h ^= h >> 29;
    }
    return h;
}

static uint16_t cover_check(uint64_t key)
{
    return (uint16_t)(key >> 48);
}

static void cover_free(const vs_allocator *alloc, cover_search *s)
{
    mem_free(alloc, s->entry);
    mem_free(alloc, s->bucket);
    s->entry = NULL;
    s->bucket = NULL;
}

/* Each list of r (k joints) with one joint left out: its key and the
 * joint, into key[] and out[]; returns how many (equal joints give one
 * list). */
static uint32_t cover_lists(const vertex_record *r, uint32_t k, uint64_t *key,
                            uint16_t *out)
{
    uint32_t n = 0;
    for (uint32_t d = 0; d < k; ++d) {
        if (d && r->joint[d] == r->joint[d - 1]) continue;
        key[n] = cover_key(r->joint, k, ((1u << k) - 1) & ~(1u << d));
        out[n++] = r->joint[d];
    }
    return n;
}

/* The index of a group's leftovers (left, nleft; k influences each),
 * bucketed by key in two passes (count, then place), each bucket's
 * entries in record order. Returns false where memory does not suffice;
 * builds none (s->entry stays NULL) where 32-bit entry numbers would not,
 * and the window search alone runs. */
static bool cover_index(const vs_allocator *alloc, cover_search *s,
                        const vertex_record *rec, const uint32_t *left,
                        size_t nleft, uint32_t k)
{
    if (nleft > (UINT32_MAX / 2) / k) return true;
    size_t buckets = 2;
    while (buckets < nleft * k)
        buckets *= 2;
    s->mask = buckets - 1;
    s->entry = mem_calloc(alloc, nleft * k, sizeof *s->entry);
    s->bucket = mem_calloc(alloc, buckets + 1, sizeof *s->bucket);
    if (!s->entry || !s->bucket) {
        cover_free(alloc, s);
        return false;
    }
    uint64_t key[KERNEL_MAX_STAGED];
    uint16_t out[KERNEL_MAX_STAGED];
    for (size_t i = 0; i < nleft; ++i) {
        const uint32_t n = cover_lists(&rec[left[i]], k, key, out);
        for (uint32_t j = 0; j < n; ++j)
            ++s->bucket[key[j] & s->mask].live;
    }
    for (size_t b = 0; b < buckets; ++b) {
        s->bucket[b + 1].start = s->bucket[b].start + s->bucket[b].live;
        s->bucket[b].live = 0;
    }
    for (size_t i = 0; i < nleft; ++i) {
        const uint32_t n = cover_lists(&rec[left[i]], k, key, out);
        for (uint32_t j = 0; j < n; ++j) {
            const size_t b = key[j] & s->mask;
            cover_entry *e =
                &s->entry[s->bucket[b].start + s->bucket[b].live++];
            e->rec = left[i];
            e->out = out[j];
            e->check = cover_check(key[j]);
        }
    }
    return true;
}

/* Whether joint j is in the union at an index outside mask. */
static bool cover_outside(const cover_search *s, uint32_t mask, uint16_t j)
{
    for (uint32_t i = 0; i < s->u; ++i)
        if (!(mask >> i & 1u) && s->joint[i] == j) return true;
    return false;
}

/* The unplaced records, not yet seen by this seed, of the key of the
 * union's subset `mask`: inside the union (covered) or lacking one joint
 * of it (pending). */
static void cover_scan(cover_search *s, const uint8_t *place, uint32_t mask)
{
    const uint64_t key = cover_key(s->joint, s->u, mask);
    const uint16_t check = cover_check(key);
    cover_bucket *b = &s->bucket[key & s->mask];
    cover_entry *e = s->entry + b->start;
    for (uint32_t i = 0; i < b->live && s->visits < COVER_BUDGET &&
                         s->ncovered < KERNEL_CHUNK - 1;) {
        ++s->visits;
        const uint32_t c = e[i].rec;
        if (place[c] != PLACE_TAIL) {
            /* Placed for good: out of every later scan. */
            const cover_entry t = e[i];
            e[i] = e[--b->live];
            e[b->live] = t;
            continue;
        }
        const cover_entry en = e[i++];
        if (en.check != check || s->seen[c]) continue;
        s->seen[c] = 1;
        s->touched[s->ntouched++] = c;
        if (cover_outside(s, mask, en.out)) {
            s->covered[s->ncovered++] = c;
        } else {
            s->pending[s->npending].rec = c;
            s->pending[s->npending++].missing = en.out;
            ++s->tally[en.out];
        }
    }
}

/* Scans the keys of the union's (k-1)-joint subsets, only those holding
 * the joint at index `with` unless it is UINT32_MAX. */
static void cover_scan_subsets(cover_search *s, const uint8_t *place,
                               uint32_t k, uint32_t with)
{
    for (uint32_t m = 0; m < 1u << s->u; ++m) {
        if (bit_count(m) != k - 1) continue;
        if (with != UINT32_MAX && !(m >> with & 1u)) continue;
        cover_scan(s, place, m);
        if (s->ncovered == KERNEL_CHUNK - 1) return;
    }
}

/* Adds the joint that the most pending records lack (the smaller joint
 * among equals) and takes those records in. Returns its index in the
 * union, or UINT32_MAX when nothing is pending. */
static uint32_t cover_add_best(cover_search *s)
{
    uint32_t best_count = 0;
    uint16_t best = 0;
    for (uint32_t i = 0; i < s->npending; ++i) {
        const uint16_t j = s->pending[i].missing;
        if (s->tally[j] > best_count || (s->tally[j] == best_count && j < best))
            best_count = s->tally[j], best = j;
    }
    /* A joint that brings one vertex, and does not complete the chunk,
     * is where a sparse search would go on looking up ever more keys for
     * a vertex or none each: it ends there. */
    if (!best_count ||
        (best_count < 2 && s->ncovered + best_count < KERNEL_CHUNK - 1))
        return UINT32_MAX;
    uint32_t at = s->u++;
    while (at > 0 && s->joint[at - 1] > best) {
        s->joint[at] = s->joint[at - 1];
        --at;
    }
    s->joint[at] = best;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < s->npending; ++i)
        if (s->pending[i].missing != best)
            s->pending[kept++] = s->pending[i];
        else if (s->ncovered < KERNEL_CHUNK - 1)
            s->covered[s->ncovered++] = s->pending[i].rec;
    s->npending = kept;
    s->tally[best] = 0;
    return at;
}

/* Clears what the seed's search marked. */
static void cover_reset(cover_search *s)
{
    for (uint32_t i = 0; i < s->ntouched; ++i)
        s->seen[s->touched[i]] = 0;
    for (uint32_t i = 0; i < s->npending; ++i)
        s->tally[s->pending[i].missing] = 0;
    s->ntouched = s->npending = s->visits = s->ncovered = 0;
}

/* Grows a union from the seed record, up to `slots` joints; on success the
 * chunk is the seed and the first seven records found inside that pass
 * the test on the records themselves. */
static bool cover_grow(cover_search *s, const vertex_record *rec,
                       const uint8_t *place, uint32_t seed, uint32_t slots,
                       union_chunk *c)
{
    const uint32_t k = rec[seed].k;
    s->seen[seed] = 1;
    s->touched[s->ntouched++] = seed;
    s->u = k;
    memcpy(s->joint, rec[seed].joint, k * sizeof *s->joint);
    cover_scan_subsets(s, place, k, UINT32_MAX);
    /* A seed with fewer neighbours than COVER_MIN_NEIGHBOURS (records
     * lacking at most one of its joints) seldom fills a chunk: growing
     * its union looks up ever more keys and finds a vertex or none per
     * joint added. Where lists are sparse, most seeds are such. */
    const bool hopeful = s->ncovered + s->npending >= COVER_MIN_NEIGHBOURS;
    while (hopeful && s->ncovered < KERNEL_CHUNK - 1 && s->u < slots) {
        const uint32_t added = cover_add_best(s);
        if (added == UINT32_MAX) break;
        if (s->ncovered < KERNEL_CHUNK - 1)
            cover_scan_subsets(s, place, k, added);
    }
    c->member[0] = seed;
    c->u = k;
    memcpy(c->joint, rec[seed].joint, k * sizeof *c->joint);
    uint32_t members = 1;
    for (uint32_t i = 0; i < s->ncovered; ++i)
        if (union_growth(s->joint, s->u, &rec[s->covered[i]]) == 0) {
            c->member[members++] = s->covered[i];
            /* The members' own union: a joint added for records that
             * were not taken takes no slot. */
            union_add(c->joint, &c->u, &rec[s->covered[i]]);
        }
    cover_reset(s);
    return members == KERNEL_CHUNK;
}

/* Marks chunk c's records and keeps it. */
static void take_union(const union_chunk *c, uint8_t *place, union_chunk *out,
                       size_t *made)
{
    for (uint32_t i = 0; i < KERNEL_CHUNK; ++i)
        place[c->member[i]] = PLACE_UNION;
    out[(*made)++] = *c;
}

bool make_unions(const vs_allocator *alloc, const vertex_record *rec,
                 size_t count, uint8_t *place, uint64_t *bits, uint32_t *left,
                 union_chunk *out, size_t *made)
{
    cover_search s = {0};
    s.seen = mem_calloc(alloc, count, sizeof *s.seen);
    s.tally = mem_calloc(alloc, 65536, sizeof *s.tally);
    s.pending = mem_calloc(alloc, COVER_BUDGET, sizeof *s.pending);
    s.touched = mem_calloc(alloc, COVER_BUDGET + 1, sizeof *s.touched);
    bool ok = s.seen && s.tally && s.pending && s.touched;
    *made = 0;
    for (size_t a = 0, b; ok && a < count; a = b) {
        b = a;
        while (b < count && rec[b].k == rec[a].k)
            ++b;
        const uint32_t slots = union_slots(rec[a].k);
        if (!slots) continue;
        /* The group's leftovers in sorted order: a window never walks over
         * the exact chunks' records, however many there are. */
        size_t nleft = 0;
        for (size_t i = a; i < b; ++i)
            if (place[i] == PLACE_TAIL) left[nleft++] = (uint32_t)i;
        union_chunk c;
        if (nleft >= KERNEL_CHUNK &&
            !(ok = cover_index(alloc, &s, rec, left, nleft, rec[a].k)))
            break;
        if (s.entry) {
            for (size_t at = 0; at < nleft; ++at)
                if (place[left[at]] == PLACE_TAIL &&
                    cover_grow(&s, rec, place, left[at], slots, &c))
                    take_union(&c, place, out, made);
            cover_free(alloc, &s);
            /* The window search takes what the cover search left: the
             * leftovers again, without the records placed. */
            size_t kept = 0;
            for (size_t i = 0; i < nleft; ++i)
                if (place[left[i]] == PLACE_TAIL) left[kept++] = left[i];
            nleft = kept;
        }
        for (size_t i = 0; i < nleft; ++i)
            bits[left[i]] = joint_bits(&rec[left[i]]);
        for (size_t at = 0; at < nleft; ++at)
            if (place[left[at]] == PLACE_TAIL &&
                grow_union(rec, bits, place, left, nleft, at, slots, &c))
                take_union(&c, place, out, made);
    }
    mem_free(alloc, s.seen);
    mem_free(alloc, s.tally);
    mem_free(alloc, s.pending);
    mem_free(alloc, s.touched);
    return ok;
}
