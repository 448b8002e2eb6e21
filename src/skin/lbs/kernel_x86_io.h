/* SPDX-License-Identifier: MIT */
/* 128-bit helpers shared by the x86 kernels (included inside each kernel's
 * target region): loading and storing 3 floats at any byte address without
 * touching the bytes after them (memcpy: no alignment assumed, no overrun
 * at the end of a caller's buffer), and gathering 4 vertices' xyz into SoA. */

/* x86_scatter4 writes the 4th float of packed4 attributes itself. */
#define KERNEL_PACKED4_STORES 1

KERNEL_INLINE __m128 x86_load3(const unsigned char *p)
{
    double xy;
    float z;
    memcpy(&xy, p, sizeof xy);
    memcpy(&z, p + 8, sizeof z);
    return _mm_movelh_ps(_mm_castpd_ps(_mm_set_sd(xy)), _mm_set_ss(z));
}

KERNEL_INLINE void x86_store3(unsigned char *p, __m128 v)
{
    double xy = _mm_cvtsd_f64(_mm_castps_pd(v));
    float z = _mm_cvtss_f32(_mm_movehl_ps(v, v));
    memcpy(p, &xy, sizeof xy);
    memcpy(p + 8, &z, sizeof z);
}

/* 48 bytes of packed output at p (4 vertices), streamed past the caches
 * when the attribute asks for it and p is 16-byte aligned. */
KERNEL_INLINE void x86_put3x4(const kernel_attr *a, float *p, __m128 r0,
                              __m128 r1, __m128 r2)
{
    if (a->nt && !((uintptr_t)p & 15)) {
        _mm_stream_ps(p, r0);
        _mm_stream_ps(p + 4, r1);
        _mm_stream_ps(p + 8, r2);
    } else {
        _mm_storeu_ps(p, r0);
        _mm_storeu_ps(p + 4, r1);
        _mm_storeu_ps(p + 8, r2);
    }
}

/* Four vertices' xyz (indices vi[0..3], n of them real) as x, y, z
 * vectors. */
KERNEL_INLINE void x86_gather4(const kernel_attr *a, const size_t *vi, size_t n,
                               __m128 *x, __m128 *y, __m128 *z)
{
    if (a->in_packed && n >= 4) {
        /* x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 */
        const float *p = (const float *)(const void *)(a->in + vi[0] * 12);
        __m128 u = _mm_loadu_ps(p), v = _mm_loadu_ps(p + 4),
               w = _mm_loadu_ps(p + 8);
        __m128 b2c1 = _mm_shuffle_ps(v, w, _MM_SHUFFLE(1, 1, 2, 2));
        __m128 a1b0 = _mm_shuffle_ps(u, v, _MM_SHUFFLE(0, 0, 1, 1));
        __m128 b3c2 = _mm_shuffle_ps(v, w, _MM_SHUFFLE(2, 2, 3, 3));
        __m128 a2b1 = _mm_shuffle_ps(u, v, _MM_SHUFFLE(1, 1, 2, 2));
        *x = _mm_shuffle_ps(u, b2c1, _MM_SHUFFLE(2, 0, 3, 0));
        *y = _mm_shuffle_ps(a1b0, b3c2, _MM_SHUFFLE(2, 0, 2, 0));
        *z = _mm_shuffle_ps(a2b1, w, _MM_SHUFFLE(3, 0, 2, 0));
        return;
    }
    if (a->packed4 && n >= 4) {
        const float *p = (const float *)(const void *)(a->in + vi[0] * 16);
        __m128 v0 = _mm_loadu_ps(p), v1 = _mm_loadu_ps(p + 4),
               v2 = _mm_loadu_ps(p + 8), v3 = _mm_loadu_ps(p + 12);
        _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
        *x = v0;
        *y = v1;
        *z = v2;
        return;
    }
    __m128 v0 = x86_load3(a->in + vi[0] * a->in_step);
    __m128 v1 = x86_load3(a->in + vi[1] * a->in_step);
    __m128 v2 = x86_load3(a->in + vi[2] * a->in_step);
    __m128 v3 = x86_load3(a->in + vi[3] * a->in_step);
    _MM_TRANSPOSE4_PS(v0, v1, v2, v3);
    *x = v0;
    *y = v1;
    *z = v2;
}

/* The first n (<= 4) vertices of x, y, z to their outputs. */
KERNEL_INLINE void x86_scatter4(const kernel_attr *a, const size_t *vi,
                                size_t n, __m128 x, __m128 y, __m128 z)
{
    if (a->out_packed && n >= 4) {
        float *p = (float *)(void *)(a->out + vi[0] * 12);
        __m128 x0y0 = _mm_shuffle_ps(x, y, 0),
               z0x1 = _mm_shuffle_ps(z, x, 0x50);
        __m128 y1z1 = _mm_shuffle_ps(y, z, 0x55),
               x2y2 = _mm_shuffle_ps(x, y, 0xAA);
        __m128 z2x3 = _mm_shuffle_ps(z, x, 0xFA),
               y3z3 = _mm_shuffle_ps(y, z, 0xFF);
        const __m128 r0 = _mm_shuffle_ps(x0y0, z0x1, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 r1 = _mm_shuffle_ps(y1z1, x2y2, _MM_SHUFFLE(2, 0, 2, 0));
        const __m128 r2 = _mm_shuffle_ps(z2x3, y3z3, _MM_SHUFFLE(2, 0, 2, 0));
        x86_put3x4(a, p, r0, r1, r2);
        return;
    }
    if (a->packed4 && n >= 4) {
        /* The input's w (the tangents' handedness) rides along: read back
         * before the stores, so in place it is still the input's. */
        const float *q = (const float *)(const void *)(a->in + vi[0] * 16);
        float *p = (float *)(void *)(a->out + vi[0] * 16);
        const __m128 h01 =
            _mm_unpackhi_ps(_mm_loadu_ps(q), _mm_loadu_ps(q + 4));
        const __m128 h23 =
            _mm_unpackhi_ps(_mm_loadu_ps(q + 8), _mm_loadu_ps(q + 12));
        __m128 w = _mm_movehl_ps(h23, h01); /* w0 w1 w2 w3 */
        _MM_TRANSPOSE4_PS(x, y, z, w);
        _mm_storeu_ps(p, x);
        _mm_storeu_ps(p + 4, y);
        _mm_storeu_ps(p + 8, z);
        _mm_storeu_ps(p + 12, w);
        return;
    }
    __m128 w = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(x, y, z, w);
    if (n >= 4) { /* the common, full case without a loop */
        x86_store3(a->out + vi[0] * a->out_step, x);
        x86_store3(a->out + vi[1] * a->out_step, y);
        x86_store3(a->out + vi[2] * a->out_step, z);
        x86_store3(a->out + vi[3] * a->out_step, w);
        return;
    }
    const __m128 v[4] = {x, y, z, w};
    for (size_t i = 0; i < n; ++i)
        x86_store3(a->out + vi[i] * a->out_step, v[i]);
}
