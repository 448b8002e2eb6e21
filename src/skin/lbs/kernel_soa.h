/* SPDX-License-Identifier: MIT */
/* The structure-of-arrays transform shared by every kernel, included once
 * per ISA inside that ISA's target region. The includer defines:
 *   W, V, NAME(x)          lanes, vector type, per-ISA name
 *   VADD VSUB VMUL VFMA(a, b, c) = a * b + c
 *   VFMS(a, b, c) = a * b - c (optional: fused where the ISA has FMA)
 *   VINV_SQRT(x)           1 / sqrt(x) as two IEEE operations, each
 *                          correctly rounded (square root, then divide)
 *   VKEEP_IF_UNIT(x, len2) x where FLT_MIN <= len2 <= FLT_MAX, else 0
 *   VNEG_IF_NEG(x, det)    -x where det < 0, else x
 *   load_mat(mats, how, m) m[c * 3 + r] = row r of column c of the
 *                          4x4 at kernel_mat_at(mats, how, lane), lanes
 *                          = vertices
 *   load3(attr, vi, n, x, y, z) / store3(attr, vi, n, x, y, z)
 *   VSET1(x)               x in every lane
 *   VLOAD1(p)              *p in every lane, broadcast from memory
 *   NAME(load_weights)(w, at, unorm16, q)  W weights of a stream chunk
 *                          from element at (unorm16: q / 65535, as the
 *                          stream's other paths decode them, or with q the
 *                          integers as they are, for a palette scaled by
 *                          1 / 65535: kernel_chunk_src.palette_q); these two
 *                          are not needed with KERNEL_NO_CHUNKS (no
 *                          transform_chunks)
 *   fused_reads_joints(k)  with KERNEL_FUSED_BLEND (kernel_ops.skin_job):
 *                          whether load_mat's MATS_FUSED + k reads the
 *                          joints (job_prepare then writes no offsets)
 * The arithmetic is the reference's (vertex_transform.h) in float: the
 * position takes the blended 3x4, the normal sign(det) * cofactor(A) (or
 * A itself with KERNEL_NORMALS_BY_MATRIX), the tangent A itself, and both
 * are normalised. A vector whose squared length
 * is not a normal float (zero, shorter than about 1e-19, longer than about
 * 1e19, or not finite) becomes zero, as the reference's zero / non-finite
 * length does. */

/* VKEEP_IF_UNIT(VMUL(x, inv), len2), unless the includer has a fused form
 * (the AVX-512VL build: a masked multiply). */
#ifndef VMUL_KEEP_IF_UNIT
#define VMUL_KEEP_IF_UNIT(x, inv, len2) VKEEP_IF_UNIT(VMUL(x, inv), len2)
#endif

/* |(x, y, z)|^2, the first half of a normalisation. */
static inline __attribute__((always_inline)) V NAME(length2)(V x, V y, V z)
{
    return VFMA(x, x, VFMA(y, y, VMUL(z, z)));
}

/* (x, y, z) / its length, given len2 = NAME(length2)(x, y, z), negated
 * where det < 0 (the sign on the one reciprocal, not on each component: the
 * same bits, two operations fewer); det = NULL: no sign. The reciprocal is
 * a square root and a division, never the ISA's reciprocal square root
 * estimate and a Newton step: the estimate's table (rsqrtps, vrsqrt14ps) is
 * left to each CPU, so the same binary would give other floats on Intel and
 * AMD CPUs. With IEEE operations only, each ISA's kernel gives the same
 * floats on every CPU (docs/skinning.md, "Same results on every CPU"). */
static inline __attribute__((always_inline)) void
NAME(normalize_len2)(V *x, V *y, V *z, V len2, const V *det)
{
    V inv = VINV_SQRT(len2);
    if (det) inv = VNEG_IF_NEG(inv, *det);
    *x = VMUL_KEEP_IF_UNIT(*x, inv, len2);
    *y = VMUL_KEEP_IF_UNIT(*y, inv, len2);
    *z = VMUL_KEEP_IF_UNIT(*z, inv, len2);
}

/* Whether store3 writes a packed4 attribute's 4th float (the x86 kernels'
 * x86_scatter4), which spares the per-vertex copy of the tangents' w. */
#ifndef KERNEL_PACKED4_STORES
#define KERNEL_PACKED4_STORES 0
#endif

/* a * b - c, fused where the ISA has it (VFMS). */
#ifndef VFMS
#define VFMS(a, b, c) VSUB(VMUL(a, b), c)
#endif

/* out = a x b, every operand split into its components: with FMA two
 * operations per component instead of three (the normal path is bound by
 * its count of vector operations). */
#define NAME_CROSS(ax, ay, az, bx, by, bz, ox, oy, oz)                         \
    do {                                                                       \
        ox = VFMS(ay, bz, VMUL(az, by));                                       \
        oy = VFMS(az, bx, VMUL(ax, bz));                                       \
        oz = VFMS(ax, by, VMUL(ay, bx));                                       \
    } while (0)

/* A step's normals and tangents transformed but not yet normalised: what
 * xform_front leaves for xform_back. */
typedef struct NAME(pending) {
    V nx, ny, nz, nlen2, det, tx, ty, tz, tlen2;
} NAME(pending);

/* The normals of attrs carry the determinant's sign (the default rule). */
#define NAME_SIGNED_NORMALS(attrs)                                             \
    (((attrs) & (KERNEL_NORMALS | KERNEL_NORMALS_BY_MATRIX)) == KERNEL_NORMALS)

/* The fields of the attributes in attrs set to zero / moved from src, one
 * by one: copying or clearing the whole struct made the compiler keep it in
 * memory (a copy per step, or a memset first). */
static inline __attribute__((always_inline)) void
NAME(pending_clear)(NAME(pending) * p, const unsigned attrs)
{
    const V z = VSET1(0.0f);
    if (attrs & KERNEL_NORMALS) p->nx = p->ny = p->nz = p->nlen2 = z;
    if (NAME_SIGNED_NORMALS(attrs)) p->det = z;
    if (attrs & KERNEL_TANGENTS) p->tx = p->ty = p->tz = p->tlen2 = z;
}

static inline __attribute__((always_inline)) void
NAME(pending_move)(NAME(pending) * p, const NAME(pending) * src,
                   const unsigned attrs)
{
    if (attrs & KERNEL_NORMALS) {
        p->nx = src->nx, p->ny = src->ny, p->nz = src->nz;
        p->nlen2 = src->nlen2;
    }
    if (NAME_SIGNED_NORMALS(attrs)) p->det = src->det;
    if (attrs & KERNEL_TANGENTS) {
        p->tx = src->tx, p->ty = src->ty, p->tz = src->tz;
        p->tlen2 = src->tlen2;
    }
}

/* A direction (x, y, z) times the upper 3x3 of m, structure-of-arrays as
 * below: tangents always, normals by the matrix (no translation). */
static inline __attribute__((always_inline)) void
NAME(times3x3)(const V m[12], V x, V y, V z, V *ox, V *oy, V *oz)
{
    *ox = VFMA(m[0], x, VFMA(m[3], y, VMUL(m[6], z)));
    *oy = VFMA(m[1], x, VFMA(m[4], y, VMUL(m[7], z)));
    *oz = VFMA(m[2], x, VFMA(m[5], y, VMUL(m[8], z)));
}

/* The first half of transforming n vertices (vi) by their matrices m,
 * structure-of-arrays (m[c * 3 + r] = row r of column c, lanes = vertices):
 * positions in full; normals and tangents up to their squared lengths,
 * left in p. */
static inline __attribute__((always_inline)) void
NAME(xform_front)(const kernel_io *io, const size_t *vi, size_t n,
                  const V m[12], const unsigned attrs, NAME(pending) * p)
{
    V x, y, z;
    load3(&io->pos, vi, n, &x, &y, &z);
    V px = VFMA(m[0], x, VFMA(m[3], y, VFMA(m[6], z, m[9])));
    V py = VFMA(m[1], x, VFMA(m[4], y, VFMA(m[7], z, m[10])));
    V pz = VFMA(m[2], x, VFMA(m[5], y, VFMA(m[8], z, m[11])));
    store3(&io->pos, vi, n, px, py, pz);

    if (attrs & KERNEL_NORMALS_BY_MATRIX) {
        /* A n, as the tangent: no cofactor, no determinant, no sign. */
        load3(&io->nrm, vi, n, &x, &y, &z);
        NAME(times3x3)(m, x, y, z, &p->nx, &p->ny, &p->nz);
        p->nlen2 = NAME(length2)(p->nx, p->ny, p->nz);
        /* Unread (no sign), but set: the rule is chosen at run time
         * (NAME_BY_ATTRS) and the pipelined loops move it between steps. */
        p->det = VSET1(0.0f);
    } else if (attrs & KERNEL_NORMALS) {
        /* cofactor(A) n, the columns of cofactor(A) = det(A) * A^-T being
         * a1 x a2, a2 x a0 and a0 x a1 (a_c = column c): as n.x (a1 x a2) +
         * (n.y a2 - n.z a1) x a0, which is n.y (a2 x a0) + n.z (a0 x a1)
         * regrouped: 21 operations instead of 27, a1 x a2 shared with the
         * determinant (the normal path is bound by its count of vector
         * operations; docs/design/skinning.md). Rounded differently from the
         * three columns summed; still within the tests' tolerance of the
         * reference. */
        V n0x, n0y, n0z, qx, qy, qz;
        NAME_CROSS(m[3], m[4], m[5], m[6], m[7], m[8], n0x, n0y, n0z);
        p->det = VFMA(m[0], n0x, VFMA(m[1], n0y, VMUL(m[2], n0z)));
        load3(&io->nrm, vi, n, &x, &y, &z);
        const V ex = VFMS(y, m[6], VMUL(z, m[3]));
        const V ey = VFMS(y, m[7], VMUL(z, m[4]));
        const V ez = VFMS(y, m[8], VMUL(z, m[5]));
        NAME_CROSS(ex, ey, ez, m[0], m[1], m[2], qx, qy, qz);
        p->nx = VFMA(n0x, x, qx);
        p->ny = VFMA(n0y, x, qy);
        p->nz = VFMA(n0z, x, qz);
        p->nlen2 = NAME(length2)(p->nx, p->ny, p->nz);
    }
    if (attrs & KERNEL_TANGENTS) {
        load3(&io->tan, vi, n, &x, &y, &z);
        NAME(times3x3)(m, x, y, z, &p->tx, &p->ty, &p->tz);
        p->tlen2 = NAME(length2)(p->tx, p->ty, p->tz);
    }
}

/* The second half: normals and tangents of p normalised and stored. */
static inline __attribute__((always_inline)) void
NAME(xform_back)(const kernel_io *io, const size_t *vi, size_t n,
                 NAME(pending) * p, const unsigned attrs)
{
    if (attrs & KERNEL_NORMALS) {
        NAME(normalize_len2)(&p->nx, &p->ny, &p->nz, p->nlen2,
                             NAME_SIGNED_NORMALS(attrs) ? &p->det : NULL);
        store3(&io->nrm, vi, n, p->nx, p->ny, p->nz);
    }
    if (attrs & KERNEL_TANGENTS) {
        NAME(normalize_len2)(&p->tx, &p->ty, &p->tz, p->tlen2, NULL);
        store3(&io->tan, vi, n, p->tx, p->ty, p->tz);
        /* The handedness w is copied (one branch per step, not vertex),
         * unless the stores of a whole packed4 step carried it. */
        if (io->tangent_w &&
            !(KERNEL_PACKED4_STORES && io->tan.packed4 && n == W))
            for (size_t i = 0; i < n; ++i)
                memcpy(io->tan.out + vi[i] * io->tan.out_step + 12,
                       io->tan.in + vi[i] * io->tan.in_step + 12, 4);
    }
}

/* Both halves at once. The position and the normal's cofactor are the
 * reference's arithmetic (vertex_transform.h) in float: the position takes
 * the blended 3x4, the normal sign(det) * cofactor(A) (or A itself), the
 * tangent A itself, and both are normalised. */
static inline __attribute__((always_inline)) void
NAME(xform_m)(const kernel_io *io, const size_t *vi, size_t n, const V m[12],
              const unsigned attrs)
{
    NAME(pending) p;
    NAME(xform_front)(io, vi, n, m, attrs, &p);
    NAME(xform_back)(io, vi, n, &p, attrs);
}

#undef NAME_CROSS

/* CALL(a) with io->attrs as the constant a, so each specialisation of a
 * loop has no attribute tests inside, except for the normal rule
 * (KERNEL_NORMALS_BY_MATRIX): that is a branch per step, taken the same way
 * for the whole call, rather than copies of every loop of its own, which
 * would add a third to the library's code for an option. */
#define NAME_BY_ATTRS(CALL)                                                    \
    switch (io->attrs & ~(unsigned)KERNEL_NORMALS_BY_MATRIX) {                 \
    case 0:                                                                    \
        CALL(0);                                                               \
        break;                                                                 \
    case KERNEL_NORMALS:                                                       \
        CALL(KERNEL_NORMALS | (io->attrs & KERNEL_NORMALS_BY_MATRIX));         \
        break;                                                                 \
    case KERNEL_TANGENTS:                                                      \
        CALL(KERNEL_TANGENTS);                                                 \
        break;                                                                 \
    default:                                                                   \
        CALL(KERNEL_NORMALS | KERNEL_TANGENTS |                                \
             (io->attrs & KERNEL_NORMALS_BY_MATRIX));                          \
        break;                                                                 \
    }

/* Steps of W vertices, vertex i's matrix where kernel_mat_at(mats, how,
 * i) finds it, software-pipelined as the stream's packed chunks are
 * (chunks_packed): step b's normals and tangents are finished while step
 * b + W is transformed. */
static inline __attribute__((always_inline)) void
NAME(transform_steps)(const kernel_io *io, const size_t *vi, size_t n,
                      const kernel_mats mats, const int how,
                      const unsigned attrs)
{
    NAME(pending) p, next;
    NAME(pending_clear)(&p, attrs);
    size_t pb = 0, pn = 0;
    for (size_t b = 0; b < n; b += W) {
        const size_t bn = n - b < W ? n - b : W;
        const bool fused = how >= MATS_FUSED;
        const size_t k = fused ? (size_t)(how - MATS_FUSED) : 0;
        const kernel_mats step = {how == MATS_BLOCK ? mats.mat + b * 16 : NULL,
                                  how == MATS_POINTED ? mats.mp + b : NULL,
                                  mats.palette,
                                  how == MATS_JOINTS ? mats.joints + b
                                  : fused            ? mats.joints + b * k
                                                     : NULL,
                                  fused ? mats.off + b * k : NULL,
                                  fused ? mats.w + b * k : NULL,
                                  fused ? mats.scale + b : NULL};
        V m[12];
        load_mat(step, how, m);
        NAME(xform_front)(io, vi + b, bn, m, attrs, &next);
        if (b) NAME(xform_back)(io, vi + pb, pn, &p, attrs);
        NAME(pending_move)(&p, &next, attrs);
        pb = b;
        pn = bn;
    }
    if (n) NAME(xform_back)(io, vi + pb, pn, &p, attrs);
}

static void NAME(transform)(const kernel_io *io, const size_t *vi, size_t n,
                            const float *mat)
{
    const kernel_mats mats = {mat, NULL, NULL, NULL, NULL, NULL, NULL};
#define NAME_CALL(a) NAME(transform_steps)(io, vi, n, mats, MATS_BLOCK, a)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
}

/* Each vertex's own matrix pointer (kernel_ops.transform_pointed). */
static void NAME(transform_pointed)(const kernel_io *io, const size_t *vi,
                                    size_t n, const float *const *mp)
{
    const kernel_mats mats = {NULL, mp, NULL, NULL, NULL, NULL, NULL};
#define NAME_CALL(a) NAME(transform_steps)(io, vi, n, mats, MATS_POINTED, a)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
}

/* Each vertex's joint's matrix in the palette (kernel_ops.transform_joints):
 * a whole block, so no lane reads past the caller's joints. */
static void NAME(transform_joints)(const kernel_io *io, const size_t *vi,
                                   size_t n, const float *palette,
                                   const uint16_t *joints)
{
    const kernel_mats mats = {NULL, NULL, palette, joints, NULL, NULL, NULL};
#define NAME_CALL(a) NAME(transform_steps)(io, vi, n, mats, MATS_JOINTS, a)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
}

/* mat[i] = idw[i] * I (or mat[i] when accumulating) + sum_j w * J, with the
 * influence count K a constant in every case. NAME(blend_vertex) is the
 * ISA's. */
static void NAME(blend)(size_t n, unsigned k, const float *const *jm,
                        const float *w, const float *idw, float *mat,
                        int accumulate)
{
#define NAME_CASE(K)                                                           \
    case K:                                                                    \
        for (size_t i = 0; i < n; ++i)                                         \
            NAME(blend_vertex)                                                 \
        (jm + i * K, w + i * K, 1.0f, idw[i], mat + i * 16,                    \
         accumulate ? BLEND_ACCUMULATE : BLEND_SET, K);                        \
        break;
    switch (k) {
        NAME_CASE(0)
        NAME_CASE(1)
        NAME_CASE(2)
        NAME_CASE(3)
        NAME_CASE(4)
        NAME_CASE(5)
        NAME_CASE(6)
        NAME_CASE(7)
        NAME_CASE(8)
    default:
        break;
    }
#undef NAME_CASE
}

/* The stream's blend, as the plain job's in two passes: the block's
 * weights converted to float and its joints to palette byte offsets in
 * loops over the flat arrays (of constant length for a full block, which
 * the compiler vectorises), then each vertex blends them (weights broadcast
 * from memory) with the count and both formats constants in each case. A
 * group of k >= 1 influences has no identity term. */
#define NAME_STREAM_FN(suffix, JT, WT, WSCALE)                                 \
    static inline __attribute__((always_inline)) void NAME(                    \
        stream_decode_##suffix)(const JT *joints, const WT *weights,           \
                                size_t count, float *w, uint32_t *off)         \
    {                                                                          \
        for (size_t t = 0; t < count; ++t) {                                   \
            w[t] = (float)weights[t] * (WSCALE);                               \
            off[t] = (uint32_t)joints[t] * (16 * sizeof(float));               \
        }                                                                      \
    }                                                                          \
    static inline __attribute__((always_inline)) void NAME(                    \
        blend_stream_##suffix)(size_t n, const unsigned k,                     \
                               const kernel_stream_src *src, size_t at0,       \
                               float *mat)                                     \
    {                                                                          \
        const JT *joints = (const JT *)src->joints + at0;                      \
        const WT *weights = (const WT *)src->weights + at0;                    \
        float w[KERNEL_BLOCK * KERNEL_MAX_STAGED];                             \
        uint32_t off[KERNEL_BLOCK * KERNEL_MAX_STAGED];                        \
        if (n == KERNEL_JOB_BLOCK) {                                           \
            NAME(stream_decode_##suffix)                                       \
            (joints, weights, KERNEL_JOB_BLOCK * k, w, off);                   \
        } else {                                                               \
            NAME(stream_decode_##suffix)(joints, weights, n * k, w, off);      \
        }                                                                      \
        const unsigned char *palette = (const unsigned char *)src->palette;    \
        for (size_t i = 0; i < n; ++i) {                                       \
            const float *jm[KERNEL_MAX_STAGED];                                \
            KERNEL_UNROLL                                                      \
            for (unsigned j = 0; j < k; ++j)                                   \
                jm[j] =                                                        \
                    (const float *)(const void *)(palette + off[i * k + j]);   \
            NAME(blend_vertex)                                                 \
            (jm, w + i * k, 1.0f, 0.0f, mat + i * 16, BLEND_PLAIN, k);         \
        }                                                                      \
    }
NAME_STREAM_FN(u8_unorm, uint8_t, uint16_t, 1.0f / 65535.0f)
NAME_STREAM_FN(u8_float, uint8_t, float, 1.0f)
NAME_STREAM_FN(u16_unorm, uint16_t, uint16_t, 1.0f / 65535.0f)
NAME_STREAM_FN(u16_float, uint16_t, float, 1.0f)
#undef NAME_STREAM_FN

static void NAME(blend_stream)(size_t n, unsigned k,
                               const kernel_stream_src *src, size_t at0,
                               float *mat)
{
#define NAME_FORMATS(K)                                                        \
    case K:                                                                    \
        if (src->u8_joints && src->unorm16)                                    \
            NAME(blend_stream_u8_unorm)(n, K, src, at0, mat);                  \
        else if (src->u8_joints)                                               \
            NAME(blend_stream_u8_float)(n, K, src, at0, mat);                  \
        else if (src->unorm16)                                                 \
            NAME(blend_stream_u16_unorm)(n, K, src, at0, mat);                 \
        else                                                                   \
            NAME(blend_stream_u16_float)(n, K, src, at0, mat);                 \
        break;
    switch (k) {
        NAME_FORMATS(1)
        NAME_FORMATS(2)
        NAME_FORMATS(3)
        NAME_FORMATS(4)
        NAME_FORMATS(5)
        NAME_FORMATS(6)
        NAME_FORMATS(7)
        NAME_FORMATS(8)
    default:
        break;
    }
#undef NAME_FORMATS
}

/* A vertex's k weights summed in float in the order every block of this
 * kernel sums them: pairwise (2, 4 and 8 weights) where the includer's
 * full blocks sum so (KERNEL_JOB_SUMS_TREE), else one after the other. So a
 * vertex's scale is the same in a full block, a short one (the job's first
 * and last) and the careful path, and the blocks' bounds, which move with
 * the outputs' address (kernel_job_lead), cannot change a float. */
#ifndef KERNEL_JOB_SUMS_TREE
#define KERNEL_JOB_SUMS_TREE 0
#endif
static inline __attribute__((always_inline)) float
NAME(vertex_sum)(const float *w, const unsigned k)
{
    if (KERNEL_JOB_SUMS_TREE && k == 4) return (w[0] + w[1]) + (w[2] + w[3]);
    if (KERNEL_JOB_SUMS_TREE && k == 8)
        return ((w[0] + w[1]) + (w[2] + w[3])) +
               ((w[4] + w[5]) + (w[6] + w[7]));
    float s = 0.0f; /* 2 weights: w0 + w1 either way */
    for (unsigned j = 0; j < k; ++j)
        s += w[j];
    return s;
}

/* The plain job's blend, vertex by vertex, for a block (packed, indices
 * already checked, palette byte offsets in off) with a weight the two-pass
 * blend below leaves alone (negative, NaN, or a sum outside [FLT_MIN,
 * FLT_MAX]). Weight rule as the reference: divided by their sum; a sum
 * that is not positive and finite means unskinned (identity). A vertex
 * whose own weights the two-pass blend would take is blended as it does
 * (its sum, its scale, the blended matrix scaled once), so its floats do
 * not depend on its neighbours in the block. The others take the sum in
 * double and their weights normalised one by one. With a finite palette a
 * zero weight may multiply its matrix (0 * finite = 0); otherwise it points
 * at a zero matrix, so a NaN matrix behind a zero weight adds nothing. Sets
 * idws[i] to vertex i's identity weight and returns whether any is
 * unskinned. */
static inline __attribute__((always_inline)) bool
NAME(blend_job_careful)(const unsigned char *palette, const uint32_t *off,
                        const float *weights, size_t n, const unsigned k,
                        const bool finite_palette, float *mat, float *idws)
{
    bool any_unskinned = false;
    for (size_t i = 0; i < n; ++i) {
        const float *w = weights + i * k;
        unsigned negative = 0;
        for (unsigned j = 0; j < k; ++j)
            negative |= !(w[j] >= 0.0f);
        const float fsum = NAME(vertex_sum)(w, k);
        /* Weights job_scales would take: its rule for this vertex, the raw
         * weights and the blended matrix times 1 / sum (0 and the identity
         * for a zero sum). */
        const bool ordinary =
            !negative && fsum <= FLT_MAX && !(fsum > 0.0f && fsum < FLT_MIN);
        float ws[KERNEL_MAX_STAGED]; /* the others' normalised weights */
        float idw, scale = 0.0f;
        if (ordinary) {
            scale = fsum > 0.0f ? 1.0f / fsum : 0.0f;
            idw = fsum > 0.0f ? 0.0f : 1.0f;
        } else {
            double sum = 0.0;
            for (unsigned j = 0; j < k; ++j)
                sum += w[j];
            const bool unskinned = !weights_sum_skins(sum);
            const double dscale = unskinned ? 0.0 : 1.0 / sum;
            idw = unskinned ? 1.0f : 0.0f;
            for (unsigned j = 0; j < k; ++j)
                ws[j] = unskinned ? 0.0f : (float)(w[j] * dscale);
        }
        const float *wv = ordinary ? w : ws;
        const float *jm[KERNEL_MAX_STAGED];
        for (unsigned j = 0; j < k; ++j) {
            const float *m =
                (const float *)(const void *)(palette + off[i * k + j]);
            jm[j] = finite_palette || wv[j] != 0.0f ? m : kernel_zero_matrix;
        }
        if (ordinary) {
            NAME(blend_vertex)
            (jm, w, scale, idw, mat + i * 16, BLEND_SCALED_IDENTITY, k);
        } else {
            NAME(blend_vertex)(jm, ws, 1.0f, idw, mat + i * 16, BLEND_SET, k);
        }
        idws[i] = idw;
        any_unskinned |= idw != 0.0f;
    }
    return any_unskinned;
}

/* Whether every one of count joint indices is below limit and every weight
 * is >= 0 (not NaN): plain loops the compiler vectorises where count is a
 * constant (full blocks). The indices are checked by their largest, one
 * comparison at the end: a maximum is one vector instruction per load,
 * where a comparison per index widened every index to the limit's 32 bits
 * and merged the verdicts by blends. */
static inline __attribute__((always_inline)) bool
NAME(job_indices_ok)(const uint16_t *joints, size_t count, uint32_t limit)
{
    uint16_t top = 0;
    for (size_t t = 0; t < count; ++t)
        top = joints[t] > top ? joints[t] : top;
    return count == 0 || top < limit;
}

static inline __attribute__((always_inline)) bool
NAME(job_weights_ok)(const float *w, size_t count)
{
    unsigned bad = 0;
    for (size_t t = 0; t < count; ++t)
        bad |= !(w[t] >= 0.0f);
    return !bad;
}

/* sum[i] = vertex_sum of vertex i's k weights, i < count. An ISA may sum a
 * full block itself: its KERNEL_JOB_SUMS_FULL(w, k, block, sum, bad)
 * returns whether it did (in vertex_sum's order, which
 * KERNEL_JOB_SUMS_TREE makes its own) and then sets *bad non-zero where a
 * weight is not >= 0, checked on the loads it sums rather than in a pass
 * of its own. */
#ifndef KERNEL_JOB_SUMS_FULL
#define KERNEL_JOB_SUMS_FULL(w, k, block, sum, bad) false
#endif
static inline __attribute__((always_inline)) void
NAME(job_sums)(const float *w, size_t count, const unsigned k, float *sum)
{
    for (size_t i = 0; i < count; ++i)
        sum[i] = NAME(vertex_sum)(w + i * k, k);
}

/* Byte offsets of the joints' matrices in the palette (at most 65535 * 64),
 * so the blend adds one loaded offset instead of widening and scaling an
 * index per influence. Returns the largest of the count indices: the
 * check of job_indices_ok on the same loads, for the caller to compare
 * with the joint count (offsets of a bad block are written, never read). */
static inline __attribute__((always_inline)) uint16_t
NAME(job_offsets)(const uint16_t *joints, size_t count, uint32_t *off)
{
    uint16_t top = 0;
    for (size_t t = 0; t < count; ++t) {
        top = joints[t] > top ? joints[t] : top;
        off[t] = (uint32_t)joints[t] << 6; /* 16 floats of 4 bytes */
    }
    return top;
}

/* Lanes of job_scales' vectors: 4 (16 bytes, what every kernel's ISA has),
 * or 8 where the includer has 256-bit registers (one division per 8 sums,
 * the same IEEE quotients). */
#ifndef KERNEL_SCALE_LANES
#define KERNEL_SCALE_LANES 4
#endif

/* An ISA may take a full block's scales whole, checks, sums and quotients
 * in one pass over its loads: its KERNEL_JOB_SCALES_FULL(w, k, block,
 * scale, idw, any_unskinned) is -1 where it does not take k, else what
 * job_scales returns (0 or 1), having set what job_scales sets, to the same
 * floats (vertex_sum's order, IEEE quotients). */
#ifndef KERNEL_JOB_SCALES_FULL
#define KERNEL_JOB_SCALES_FULL(w, k, block, scale, idw, any_unskinned) (-1)
#endif

/* Each vertex's scale 1 / (sum of its weights) and identity weight for a
 * block of weights. False when a weight is negative or NaN, or a sum is
 * not 0 and not a float in [FLT_MIN, FLT_MAX] (1 / sum finite, normal):
 * the careful path's business. */
static inline __attribute__((always_inline)) bool
NAME(job_scales)(const float *w, size_t n, const unsigned k, const size_t block,
                 float *scale, float *idw, bool *any_unskinned)
{
    _Alignas(64) float sum[KERNEL_FUSED_BLOCK];
    unsigned bad = 0;
    if (n == block) {
        const int whole =
            KERNEL_JOB_SCALES_FULL(w, k, block, scale, idw, any_unskinned);
        if (whole >= 0) return whole != 0;
        if (!KERNEL_JOB_SUMS_FULL(w, k, block, sum, &bad)) {
            bad = !NAME(job_weights_ok)(w, block * k);
            NAME(job_sums)(w, block, k, sum);
        }
    } else {
        bad = !NAME(job_weights_ok)(w, n * k);
        NAME(job_sums)(w, n, k, sum);
        for (size_t i = n; i < block; ++i)
            sum[i] = 1.0f; /* any normal sum */
    }
    if (bad) return false;
    /* In GCC/Clang vectors of KERNEL_SCALE_LANES, which the compiler maps
     * to the ISA of this file (a plain loop here stays scalar). */
    typedef float sv __attribute__((vector_size(KERNEL_SCALE_LANES * 4)));
    typedef int32_t si __attribute__((vector_size(KERNEL_SCALE_LANES * 4)));
    si ok = {0}, zero = {0};
    ok = ~ok;
    for (size_t c = 0; c < block; c += KERNEL_SCALE_LANES) {
        sv s, r;
        memcpy(&s, sum + c, sizeof s);
        r = 1.0f / s; /* a zero sum's infinity is discarded */
        const si is_zero = s == 0.0f, positive = s > 0.0f;
        ok &= is_zero | ((s >= FLT_MIN) & (s <= FLT_MAX));
        zero |= is_zero;
        const si sc = (si)r & positive;
        const sv one = (sv){0} + 1.0f;
        const si id = (si)one & ~positive;
        memcpy(scale + c, &sc, sizeof sc);
        memcpy(idw + c, &id, sizeof id);
    }
    int32_t all_ok = -1, any_zero = 0;
    for (int lane = 0; lane < KERNEL_SCALE_LANES; ++lane) {
        all_ok &= ok[lane];
        any_zero |= zero[lane];
    }
    *any_unskinned = any_zero != 0;
    return all_ok != 0;
}

/* 1 where a single weight w skins its vertex (positive and finite, so the
 * normalised weight w * (1 / w) is 1), 0 where it leaves it unskinned:
 * a branch-free test the compiler vectorises. */
static inline __attribute__((always_inline)) unsigned
NAME(one_weight_skins)(float w)
{
    return (unsigned)((w > 0.0f) & (w <= FLT_MAX));
}

/* One influence normalises to weight 1: vertex i takes its joint's own
 * matrix (the reference's w * (1 / w) is 1 to double precision) when its
 * weight is positive and finite, else the identity (a zero, negative, NaN
 * or infinite sum means unskinned). Every index is checked whatever the
 * weight, as the reference does. One branch-free pass over the block, which
 * the compiler vectorises, instead of the general path's checks, sums and
 * scales (about a third of the one-influence job's time). Returns as
 * kernel_ops.blend_job: an unskinned vertex points at the identity, which
 * is how idw finds it once the pass has said there is one. */
static inline __attribute__((always_inline)) int
NAME(point_job_one)(const uint16_t *joints, const float *w, size_t n,
                    uint32_t limit, const unsigned char *palette,
                    const bool callers_joints, const float **mp, float *idw)
{
    if (!(n == KERNEL_BLOCK ? NAME(job_indices_ok)(joints, KERNEL_BLOCK, limit)
                            : NAME(job_indices_ok)(joints, n, limit)))
        return KERNEL_BAD_INDEX;
    /* A whole block of the caller's packed joints, every vertex skinned:
     * the transform reads the joints itself (MATS_JOINTS), nothing is
     * written here. */
    if (callers_joints && n == KERNEL_BLOCK) {
        unsigned skins_all = 1;
        for (size_t i = 0; i < KERNEL_BLOCK; ++i)
            skins_all &= NAME(one_weight_skins)(w[i]);
        if (skins_all) return KERNEL_JOINTS;
    }
    const uintptr_t base = (uintptr_t)palette,
                    identity = (uintptr_t)kernel_identity_matrix;
    uint64_t unskinned = 0;
#define NAME_POINT(COUNT)                                                      \
    for (size_t i = 0; i < (COUNT); ++i) {                                     \
        const uint64_t keep =                                                  \
            (uint64_t)0 - (uint64_t)NAME(one_weight_skins)(w[i]);              \
        const uint64_t m = base + (uint64_t)joints[i] * (16 * sizeof(float));  \
        mp[i] = (const float *)(uintptr_t)((m & keep) | (identity & ~keep));   \
        unskinned |= ~keep;                                                    \
    }
    if (n == KERNEL_BLOCK) {
        NAME_POINT(KERNEL_BLOCK)
    } else {
        NAME_POINT(n)
        for (size_t i = n; i < KERNEL_BLOCK; ++i)
            mp[i] = mp[n - 1];
    }
#undef NAME_POINT
    if (!unskinned) return KERNEL_POINTED;
    for (size_t i = 0; i < n; ++i)
        idw[i] = mp[i] == kernel_identity_matrix ? 1.0f : 0.0f;
    return KERNEL_POINTED | KERNEL_UNSKINNED;
}

/* What NAME(job_prepare) found in a block's influences. */
enum { JOB_PREP_BAD_INDEX, JOB_PREP_CAREFUL, JOB_PREP_SCALED };

/* A block's scratch, and what NAME(job_prepare) leaves in it. */
typedef struct job_block {
    uint16_t *jbuf; /* joints and weights at other strides, packed here */
    float *wbuf;
    /* Palette byte offsets of the joints; NULL where the caller reads the
     * joints themselves, so the pass only checks them. */
    uint32_t *off;
    float *scale, *idw;
    const uint16_t *joints; /* set: the block's packed joints */
    const float *w;         /* and weights */
    bool any_unskinned;
} job_block;

/* The first pass of the plain job's blend of a block (k >= 2, or one raw
 * weight): every joint index and weight of the block checked and each
 * vertex's weight sum turned into a scale, in loops over the block's flat
 * arrays (no decision per influence). Joints and weights at other strides
 * are first packed into jbuf / wbuf. JOB_PREP_SCALED: scale (and idw,
 * any_unskinned) set, so every vertex blends its raw weights and scales
 * the blended matrix once; JOB_PREP_CAREFUL: a weight the scales cannot
 * take (blend_job_careful's business). */
static inline __attribute__((always_inline)) int
NAME(job_prepare)(const kernel_job_src *src, size_t base, size_t n,
                  const unsigned k, const size_t block, job_block *b)
{
    kernel_job_influences(src, base, n, k, b->jbuf, b->wbuf, &b->joints, &b->w);
    if (b->off) {
        const uint16_t top =
            n == block ? NAME(job_offsets)(b->joints, block * k, b->off)
                       : NAME(job_offsets)(b->joints, n * k, b->off);
        if (top >= src->joint_count) return JOB_PREP_BAD_INDEX;
    } else if (!(n == block ? NAME(job_indices_ok)(b->joints, block * k,
                                                   src->joint_count)
                            : NAME(job_indices_ok)(b->joints, n * k,
                                                   src->joint_count)))
        return JOB_PREP_BAD_INDEX;
    b->any_unskinned = false;
    if (src->raw) {
        for (size_t i = 0; i < block; ++i) {
            b->scale[i] = 1.0f;
            b->idw[i] = 0.0f;
        }
        return JOB_PREP_SCALED;
    }
    return NAME(job_scales)(b->w, n, k, block, b->scale, b->idw,
                            &b->any_unskinned)
               ? JOB_PREP_SCALED
               : JOB_PREP_CAREFUL;
}

/* The plain job's blend of a block, in two passes: job_prepare's checks
 * and scales, then each vertex blends its raw weights (broadcast straight
 * from memory) and scales the blended matrix once, with no test left. A
 * block with a weight the scales cannot take goes vertex by vertex
 * (blend_job_careful). Returns as kernel_ops.blend_job. */
static inline __attribute__((always_inline)) int
NAME(blend_job_k)(const kernel_job_src *src, size_t base, size_t n,
                  const unsigned k, const bool finite_palette, float *mat,
                  const float **mp, float *idw)
{
    if (k == 1 && !src->raw) {
        uint16_t jbuf[KERNEL_BLOCK];
        float wbuf[KERNEL_BLOCK];
        const uint16_t *joints;
        const float *w;
        kernel_job_influences(src, base, n, k, jbuf, wbuf, &joints, &w);
        return NAME(point_job_one)(joints, w, n, src->joint_count,
                                   (const unsigned char *)src->palette,
                                   joints != jbuf, mp, idw);
    }
    _Alignas(64) float scale[KERNEL_BLOCK];
    uint16_t jbuf[KERNEL_BLOCK * KERNEL_MAX_STAGED];
    float wbuf[KERNEL_BLOCK * KERNEL_MAX_STAGED];
    uint32_t off[KERNEL_BLOCK * KERNEL_MAX_STAGED];
    job_block b = {jbuf, wbuf, off, scale, idw, NULL, NULL, false};
    const unsigned char *palette = (const unsigned char *)src->palette;
    const int prep = NAME(job_prepare)(src, base, n, k, KERNEL_JOB_BLOCK, &b);
    const float *w = b.w;
    const bool any_unskinned = b.any_unskinned;
    switch (prep) {
    case JOB_PREP_BAD_INDEX:
        return KERNEL_BAD_INDEX;
    case JOB_PREP_CAREFUL:
        return NAME(blend_job_careful)(palette, off, w, n, k, finite_palette,
                                       mat, idw)
                   ? KERNEL_BLENDED | KERNEL_UNSKINNED
                   : KERNEL_BLENDED;
    default:
        break;
    }
    /* Each mode its own loop, the mode a constant in it. */
#define NAME_BLEND_PASS(MODE)                                                  \
    for (size_t i = 0; i < n; ++i) {                                           \
        const float *jm[KERNEL_MAX_STAGED];                                    \
        KERNEL_UNROLL                                                          \
        for (unsigned j = 0; j < k; ++j) {                                     \
            const float *m =                                                   \
                (const float *)(const void *)(palette + off[i * k + j]);       \
            jm[j] = finite_palette || w[i * k + j] != 0.0f                     \
                        ? m                                                    \
                        : kernel_zero_matrix;                                  \
        }                                                                      \
        NAME(blend_vertex)                                                     \
        (jm, w + i * k, scale[i], idw[i], mat + i * 16, MODE, k);              \
    }
    if (src->raw) {
        NAME_BLEND_PASS(BLEND_SET)
    } else if (any_unskinned)
        NAME_BLEND_PASS(BLEND_SCALED_IDENTITY)
    else
        NAME_BLEND_PASS(BLEND_SCALED)
#undef NAME_BLEND_PASS
    return any_unskinned ? KERNEL_BLENDED | KERNEL_UNSKINNED : KERNEL_BLENDED;
}

static int NAME(blend_job)(const kernel_job_src *src, size_t base, size_t n,
                           float *mat, const float **mp, float *idw)
{
#define NAME_CASE(K)                                                           \
    case K:                                                                    \
        return src->finite_palette                                             \
                   ? NAME(blend_job_k)(src, base, n, K, true, mat, mp, idw)    \
                   : NAME(blend_job_k)(src, base, n, K, false, mat, mp, idw);
    switch (src->k) {
        NAME_CASE(1)
        NAME_CASE(2)
        NAME_CASE(3)
        NAME_CASE(4)
        NAME_CASE(5)
        NAME_CASE(6)
        NAME_CASE(7)
        NAME_CASE(8)
    default:
        return KERNEL_BAD_INDEX;
    }
#undef NAME_CASE
}

#ifdef KERNEL_FUSED_BLEND
/* kernel_ops.skin_job with k influences: job_prepare's pass, then the
 * transform blends each vertex's matrix as it loads it (MATS_FUSED), with
 * BLEND_SCALED's operations in its order, so the floats are blend_job's
 * and transform's. Declined: raw weights, a palette that is not finite (a
 * zero weight would meet it), a weight the scales cannot take, an
 * unskinned vertex. */
static inline __attribute__((always_inline)) int
NAME(skin_job_k)(const kernel_job_src *src, const kernel_io *io,
                 const size_t *vi, size_t base, size_t n, const unsigned k)
{
    _Alignas(64) float scale[KERNEL_FUSED_BLOCK];
    float idw[KERNEL_FUSED_BLOCK];
    uint16_t jbuf[KERNEL_FUSED_BLOCK * KERNEL_MAX_STAGED];
    float wbuf[KERNEL_FUSED_BLOCK * KERNEL_MAX_STAGED];
    uint32_t off[KERNEL_FUSED_BLOCK * KERNEL_MAX_STAGED];
    const bool by_joints = fused_reads_joints(k);
    job_block b = {jbuf, wbuf, by_joints ? NULL : off, scale, idw, NULL,
                   NULL, false};
    const int prep =
        NAME(job_prepare)(src, base, n, k, kernel_fused_block(k), &b);
    if (prep == JOB_PREP_BAD_INDEX) return KERNEL_BAD_INDEX;
    if (prep != JOB_PREP_SCALED || b.any_unskinned) return KERNEL_DECLINED;
    /* The lanes of a last, partial step read influences too: zero weights
     * on joint 0 (finite), in copies, never past the caller's arrays. */
    if (n % W) {
        const size_t end = (n + W - 1) / W * W;
        if (b.w != wbuf) memcpy(wbuf, b.w, n * k * sizeof *b.w);
        if (by_joints && b.joints != jbuf)
            memcpy(jbuf, b.joints, n * k * sizeof *b.joints);
        for (size_t t = n * k; t < end * k; ++t) {
            wbuf[t] = 0.0f;
            jbuf[t] = 0;
            off[t] = 0;
        }
        for (size_t i = n; i < end; ++i)
            scale[i] = 0.0f;
        b.w = wbuf;
        if (by_joints) b.joints = jbuf;
    }
    const kernel_mats mats = {NULL, NULL, src->palette, b.joints,
                              off,  b.w,  scale};
#define NAME_CALL(a)                                                           \
    NAME(transform_steps)(io, vi, n, mats, MATS_FUSED + (int)k, a)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
    return KERNEL_BLENDED;
}

static int NAME(skin_job)(const kernel_job_src *src, const kernel_io *io,
                          const size_t *vi, size_t base, size_t n)
{
    if (src->raw || !src->finite_palette) return KERNEL_DECLINED;
#define NAME_CASE(K)                                                           \
    case K:                                                                    \
        return NAME(skin_job_k)(src, io, vi, base, n, K);
    switch (src->k) {
        NAME_CASE(2)
        NAME_CASE(3)
        NAME_CASE(4)
        NAME_CASE(8)
    default:
        return KERNEL_DECLINED;
    }
#undef NAME_CASE
}
#endif

#ifndef KERNEL_NO_CHUNKS
/* Stream chunks (kernel_ops.transform_chunks): KERNEL_CHUNK vertices that
 * share their k joints. Their matrices are built directly in
 * structure-of-arrays form, m[c * 3 + r] = sum_j w_j * J_j[4c + r] with the
 * joint entry broadcast and w_j the lanes' weights of slot j, which the
 * chunk stores side by side: no matrix per vertex, no transpose (which
 * with the per-vertex blend were most of a 4-influence job). A chunk of one
 * influence whose weights are all exactly 1 takes the joint's entries as
 * they are, as the per-vertex path's pointed matrices do. */

/* One influence slot of a chunk into m, entry by entry (m[c * 3 + r] from
 * the column-major J[4c + r]): m = J (CHUNK_SET), m = w * J (CHUNK_MUL) or
 * m += w * J (CHUNK_ADD), the mode a constant. */
enum { CHUNK_SET, CHUNK_MUL, CHUNK_ADD };
static inline __attribute__((always_inline)) void
NAME(chunk_slot)(const float *J, V w, V m[12], const int mode)
{
    KERNEL_UNROLL
    for (int c = 0; c < 4; ++c) {
        KERNEL_UNROLL
        for (int r = 0; r < 3; ++r) {
            const V e = VLOAD1(&J[4 * c + r]);
            m[c * 3 + r] = mode == CHUNK_SET   ? e
                           : mode == CHUNK_MUL ? VMUL(w, e)
                                               : VFMA(w, e, m[c * 3 + r]);
        }
    }
}

static inline __attribute__((always_inline)) void
NAME(chunk_matrix)(const float *const *jm, const void *w, size_t lane,
                   unsigned k, const bool unorm16, const bool unit,
                   const bool q, V m[12])
{
    if (unit) {
        NAME(chunk_slot)(jm[0], VSET1(1.0f), m, CHUNK_SET);
        return;
    }
    NAME(chunk_slot)
    (jm[0], NAME(load_weights)(w, lane, unorm16, q), m, CHUNK_MUL);
    /* Unrolled where k is a constant (chunks_by_count): GCC does not
     * unroll it on its own at -O2. */
    KERNEL_UNROLL
    for (unsigned j = 1; j < k; ++j) {
        const V wj = NAME(load_weights)(w, j * KERNEL_CHUNK + lane, unorm16, q);
        NAME(chunk_slot)(jm[j], wj, m, CHUNK_ADD);
    }
}

/* Any layout and any cut of the chunks; pipelined as chunks_packed is. */
static inline __attribute__((always_inline)) void
NAME(transform_chunks_a)(const kernel_io *io, const size_t *vi, size_t n,
                         unsigned k, const kernel_chunk_src *src, size_t lane0,
                         const unsigned attrs)
{
    const bool unorm16 = src->unorm16;
    const bool q = src->palette_q != NULL;
    const float *palette = q ? src->palette_q : src->palette;
    NAME(pending) p, next;
    NAME(pending_clear)(&p, attrs);
    const size_t *pend_vi = NULL; /* the pending step's vertices, if any */
    for (size_t i = 0; i < n;) {
        const size_t c = (lane0 + i) / KERNEL_CHUNK;
        const size_t lane = (lane0 + i) % KERNEL_CHUNK;
        const size_t count =
            KERNEL_CHUNK - lane < n - i ? KERNEL_CHUNK - lane : n - i;
        const float *jm[KERNEL_MAX_STAGED];
        bool unit;
        const void *w =
            kernel_chunk_fetch(src, palette, c, k, unorm16, jm, &unit);
        for (size_t b = 0; b < count; b += W) {
            const size_t m_n = count - b < W ? count - b : W;
            V m[12];
            NAME(chunk_matrix)(jm, w, lane + b, k, unorm16, unit, q, m);
            const size_t *v = vi + i + b;
            if (m_n < W) {
                /* A partial step (a range's ends) runs whole, after the
                 * pending one; its lanes past m_n read the last vertex
                 * again (what load3 / store3 expect of vi). */
                if (pend_vi) NAME(xform_back)(io, pend_vi, W, &p, attrs);
                pend_vi = NULL;
                size_t pad[W];
                for (size_t l = 0; l < W; ++l)
                    pad[l] = v[l < m_n ? l : m_n - 1];
                NAME(xform_m)(io, pad, m_n, m, attrs);
                continue;
            }
            NAME(xform_front)(io, v, W, m, attrs, &next);
            if (pend_vi) NAME(xform_back)(io, pend_vi, W, &p, attrs);
            NAME(pending_move)(&p, &next, attrs);
            pend_vi = v;
        }
        i += count;
    }
    if (pend_vi) NAME(xform_back)(io, pend_vi, W, &p, attrs);
}

/* Whole chunks of consecutive vertices whose attributes are all packed,
 * with cached stores (stream order's usual case): the attribute pointers
 * advance W vertices per step, and the layout tests of load3 / store3 for
 * positions and normals, the weights' format and the attribute set are
 * constants (tangents may be 3 or 4 floats: tested per step). all_unit: a
 * one-influence group whose chunk weights are all exactly 1
 * (kernel_chunk_src.unit), a constant too, so each chunk reads its joint
 * and nothing else (chunks_by_count below). The steps are
 * software-pipelined: step t's normals and tangents are normalised and
 * stored while step t + 1 is transformed. A step alone is one long chain
 * (weights -> matrix -> cofactor -> normal -> length -> reciprocal square
 * root -> store) with more vector operations than the core's floating-point
 * scheduler holds, so without the overlap each step waited for most of its
 * own chain (docs/design/skinning.md, "Software pipelining"). */
static inline __attribute__((always_inline)) void
NAME(chunks_packed)(const kernel_io *io, size_t chunks, unsigned k,
                    const kernel_chunk_src *src, size_t c0, const bool unorm16,
                    const unsigned attrs, const bool all_unit, const bool q)
{
    const float *palette = q ? src->palette_q : src->palette;
    /* A step's vertices relative to its attributes (the kernels with
     * chunks are at most KERNEL_CHUNK wide). */
    static const size_t vi[KERNEL_CHUNK] = {0, 1, 2, 3, 4, 5, 6, 7};
    kernel_io at = *io;
    kernel_packed_attr(&at.pos);
    kernel_packed_attr(&at.nrm);
    NAME(pending) p, next;
    NAME(pending_clear)(&p, attrs); /* read only after a step wrote it */
    kernel_io prev = at;
    for (size_t c = c0; c < c0 + chunks; ++c) {
        const float *jm[KERNEL_MAX_STAGED];
        bool unit;
        const void *w = NULL;
        if (all_unit) {
            jm[0] = kernel_chunk_joint(src, palette, c);
            unit = true;
        } else {
            w = kernel_chunk_fetch(src, palette, c, k, unorm16, jm, &unit);
        }
        KERNEL_UNROLL
        for (size_t lane = 0; lane < KERNEL_CHUNK; lane += W) {
            V m[12];
            NAME(chunk_matrix)(jm, w, lane, k, unorm16, unit, q, m);
            NAME(xform_front)(&at, vi, W, m, attrs, &next);
            if (c > c0 || lane) NAME(xform_back)(&prev, vi, W, &p, attrs);
            NAME(pending_move)(&p, &next, attrs);
            prev = at;
            kernel_attr_advance(&at.pos, W);
            if (attrs & KERNEL_NORMALS) kernel_attr_advance(&at.nrm, W);
            if (attrs & KERNEL_TANGENTS) kernel_attr_advance(&at.tan, W);
        }
    }
    if (chunks) NAME(xform_back)(&prev, vi, W, &p, attrs);
}

/* chunks_packed for every attribute set, the other arguments as given
 * (constants in the callers below). */
static inline __attribute__((always_inline)) void
NAME(chunks_packed_attrs)(const kernel_io *io, size_t chunks, unsigned k,
                          const kernel_chunk_src *src, size_t c0,
                          const bool unorm16, const bool all_unit, const bool q)
{
#define NAME_CALL(a)                                                           \
    NAME(chunks_packed)(io, chunks, k, src, c0, unorm16, a, all_unit, q)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
}

/* The packed loops of the stream's groups with unorm16 weights (the
 * default) where the includer defines KERNEL_CHUNKS_BY_COUNT: one function
 * per influence count, the count a constant in it, so the matrix is built
 * with no loop over influences, and the compiler allocates each loop's
 * registers for it alone (inlined together, or beside the general loops,
 * the loops ran slower). One influence whose weights are all 1 (the usual
 * case) has its own, which reads the chunk's joint and nothing else. The
 * SSE2 build, which gained little, and the portable one do without, to
 * save their code size (docs/design/skinning.md, "A loop per influence count"). */
#ifdef KERNEL_CHUNKS_BY_COUNT
#define NAME_CHUNKS_K(K, UNIT, Q)                                              \
    static __attribute__((noinline)) void NAME(chunks_k##K##UNIT##Q)(          \
        const kernel_io *io, size_t chunks, const kernel_chunk_src *src,       \
        size_t c0)                                                             \
    {                                                                          \
        NAME(chunks_packed_attrs)(io, chunks, K, src, c0, true, UNIT, Q);      \
    }
/* Two of each count from 2 on: with the scaled palette (up to 256 joints)
 * and without (more), each with q a constant: one set with q tested at run
 * time was slower, and the scaled set alone would leave skins of more than
 * 256 joints to the slower general loop. */
/* clang-format off */
NAME_CHUNKS_K(1, true, false)
NAME_CHUNKS_K(1, false, false)
NAME_CHUNKS_K(2, false, true)
NAME_CHUNKS_K(3, false, true)
NAME_CHUNKS_K(4, false, true)
NAME_CHUNKS_K(5, false, true)
NAME_CHUNKS_K(6, false, true)
NAME_CHUNKS_K(7, false, true)
NAME_CHUNKS_K(8, false, true)
NAME_CHUNKS_K(2, false, false)
NAME_CHUNKS_K(3, false, false)
NAME_CHUNKS_K(4, false, false)
NAME_CHUNKS_K(5, false, false)
NAME_CHUNKS_K(6, false, false)
NAME_CHUNKS_K(7, false, false)
NAME_CHUNKS_K(8, false, false)
/* clang-format on */
#undef NAME_CHUNKS_K

/* Whether a loop above took the call. */
static inline bool NAME(chunks_by_count)(const kernel_io *io, size_t n,
                                         unsigned k,
                                         const kernel_chunk_src *src,
                                         size_t lane0)
{
    if (k < 1 || k > KERNEL_MAX_STAGED || !src->unorm16 ||
        !kernel_chunks_packed_ok(io, n, lane0))
        return false;
    typedef void (*loop_fn)(const kernel_io *, size_t, const kernel_chunk_src *,
                            size_t);
    const loop_fn one =
        src->unit ? NAME(chunks_k1truefalse) : NAME(chunks_k1falsefalse);
    static const loop_fn scaled[KERNEL_MAX_STAGED + 1] = {
        NULL,
        NULL,
        NAME(chunks_k2falsetrue),
        NAME(chunks_k3falsetrue),
        NAME(chunks_k4falsetrue),
        NAME(chunks_k5falsetrue),
        NAME(chunks_k6falsetrue),
        NAME(chunks_k7falsetrue),
        NAME(chunks_k8falsetrue)};
    static const loop_fn plain[KERNEL_MAX_STAGED + 1] = {
        NULL,
        NULL,
        NAME(chunks_k2falsefalse),
        NAME(chunks_k3falsefalse),
        NAME(chunks_k4falsefalse),
        NAME(chunks_k5falsefalse),
        NAME(chunks_k6falsefalse),
        NAME(chunks_k7falsefalse),
        NAME(chunks_k8falsefalse)};
    const loop_fn loop = k == 1 ? one : src->palette_q ? scaled[k] : plain[k];
    loop(io, n / KERNEL_CHUNK, src, lane0 / KERNEL_CHUNK);
    return true;
}
#else
static inline bool NAME(chunks_by_count)(const kernel_io *io, size_t n,
                                         unsigned k,
                                         const kernel_chunk_src *src,
                                         size_t lane0)
{
    (void)io, (void)n, (void)k, (void)src, (void)lane0;
    return false;
}
#endif

static void NAME(transform_chunks)(const kernel_io *io, const size_t *vi,
                                   size_t n, unsigned k,
                                   const kernel_chunk_src *src, size_t lane0)
{
    if (NAME(chunks_by_count)(io, n, k, src, lane0)) return;
    if (kernel_chunks_packed_ok(io, n, lane0)) {
        const size_t chunks = n / KERNEL_CHUNK, c0 = lane0 / KERNEL_CHUNK;
        /* q as chunks_by_count's loops, so the floats do not depend on
         * which loop takes a chunk (palette_q is NULL for float weights). */
        const bool q = src->palette_q != NULL;
        if (src->unorm16)
            NAME(chunks_packed_attrs)(io, chunks, k, src, c0, true, false, q);
        else
            NAME(chunks_packed_attrs)(io, chunks, k, src, c0, false, false, q);
        return;
    }
#define NAME_CALL(a) NAME(transform_chunks_a)(io, vi, n, k, src, lane0, a)
    NAME_BY_ATTRS(NAME_CALL)
#undef NAME_CALL
}
#endif /* KERNEL_NO_CHUNKS */
#undef NAME_BY_ATTRS
#undef NAME_SIGNED_NORMALS
