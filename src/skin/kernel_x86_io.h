/* 128-bit helpers shared by the x86 kernels (included inside each kernel's
 * target region): loading and storing 3 floats at any byte address without
 * touching the bytes after them (memcpy: no alignment assumed, no overrun
 * at the end of a caller's buffer), and gathering 4 vertices' xyz into SoA. */

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

/* Four vertices' xyz (indices vi[0..3]) as x, y, z vectors. */
KERNEL_INLINE void x86_gather4(const kernel_attr *a, const size_t *vi,
                               __m128 *x, __m128 *y, __m128 *z)
{
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
