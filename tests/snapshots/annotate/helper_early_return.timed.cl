/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; union { ulong u[10]; ulong16 uv; }; uint last; ulong m; } __srcsim_state;
static inline __attribute__((always_inline)) void __srcsim_smoothstep01_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 2u: s->t += 92ul; s->uv += (ulong16)(768ul, 288ul, 256ul, 128ul, 384ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->m |= 0x1ul; s->last = 3u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_helper_early_return_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: s->t += 38ul; s->uv += (ulong16)(640ul, 320ul, 0ul, 64ul, 320ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->m |= 0x2ul; s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_helper_early_return_1(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: s->t += 285ul; s->uv += (ulong16)(576ul, 192ul, 0ul, 192ul, 320ul, 1ul, 8192ul, 256ul, 0ul, 4352ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->m |= 0x4ul; s->last = 2u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) size_t __srcsim_local_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
static inline __attribute__((always_inline)) void __srcsim_exit_helper_early_return(__private __srcsim_state *s, __global ulong *records)
{
    switch (s->last) {
    case 1u: s->t += 9ul; s->uv += (ulong16)(64ul, 32ul, 0ul, 0ul, 64ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); break;
    case 2u: s->t += 18ul; s->uv += (ulong16)(192ul, 64ul, 0ul, 64ul, 128ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); break;
    case 3u: s->t += 6ul; s->uv += (ulong16)(192ul, 64ul, 0ul, 64ul, 128ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); break;
    default: break;
    }
    size_t id = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
              + (get_global_id(0) - get_global_offset(0));
    __global ulong *rec = records + id * 11;
    rec[0] = s->t;
    rec[1] = s->u[0];
    rec[2] = s->u[1];
    rec[3] = s->u[2];
    rec[4] = s->u[3];
    rec[5] = s->u[4];
    rec[6] = s->u[5];
    rec[7] = s->u[6];
    rec[8] = s->u[7];
    rec[9] = s->u[8];
    rec[10] = s->u[9];
}
static inline __attribute__((always_inline)) void __srcsim_lanes_helper_early_return(__private __srcsim_state *s, __local ulong *lanes)
{
    switch (s->last) {
    case 1u: s->m |= 0x8ul; break;
    case 2u: s->m |= 0x10ul; break;
    case 3u: s->m |= 0x20ul; break;
    default: break;
    }
    lanes[__srcsim_local_id()] = s->m;
}
static inline __attribute__((always_inline)) void __srcsim_fold_helper_early_return(ulong p, ulong c, __private ulong *w)
{
    ulong t = 0, u0 = 0, u1 = 0, u2 = 0, u3 = 0, u4 = 0, u5 = 0, u6 = 0, u7 = 0, u8 = 0, u9 = 0;
    if ((p & 0x1ul) != 0) { t += 92ul; u0 += 768ul; u1 += 288ul; u2 += 256ul; u3 += 128ul; u4 += 384ul; }
    if ((p & 0x2ul) != 0) { t += 38ul; u0 += 640ul; u1 += 320ul; u3 += 64ul; u4 += 320ul; }
    if ((p & 0x4ul) != 0) { t += 285ul; u0 += 576ul; u1 += 192ul; u3 += 192ul; u4 += 320ul; u5 += 1ul; u6 += 8192ul; u7 += 256ul; u9 += 4352ul; }
    if ((p & 0x8ul) != 0) { t += 9ul; u0 += 64ul; u1 += 32ul; u4 += 64ul; }
    if ((p & 0x10ul) != 0) { t += 18ul; u0 += 192ul; u1 += 64ul; u3 += 64ul; u4 += 128ul; u7 += 256ul; u8 += 256ul; }
    if ((p & 0x20ul) != 0) { t += 6ul; u0 += 192ul; u1 += 64ul; u3 += 64ul; u4 += 128ul; u7 += 256ul; u8 += 256ul; }
    w[0] = max(w[0], t);
    w[1] = max(w[1], t);
    w[2] = max(w[2], u0);
    w[3] = max(w[3], u1);
    w[4] = max(w[4], u2);
    w[5] = max(w[5], u3);
    w[6] = max(w[6], u4);
    w[7] = max(w[7], u5);
    w[8] = max(w[8], u6);
    w[9] = max(w[9], u7);
    w[10] = max(w[10], u8);
    w[11] = max(w[11], u9);
    w[12] += c * u7;
}
static inline __attribute__((always_inline)) void __srcsim_reduce_helper_early_return(__global ulong *records, __local const ulong *lanes, uint warp)
{
    if ((get_local_id(1) | get_local_id(2)) != 0) return;
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t warps = (n + warp - 1) / warp;
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    for (size_t k = get_local_id(0); k < warps; k += get_local_size(0)) {
        size_t first = k * warp, end = min(first + warp, n);
        __global ulong *r = records + (group * warps + k) * 13;
        ulong w[13] = {0};
        ulong a = lanes[first], b = 0, na = end - first, nb = 0, other = 0;
        ulong16 differ = 0;
        size_t i = first;
        for (; i + 16 <= end; i += 16) differ |= (ulong16)(lanes[i], lanes[i + 1], lanes[i + 2], lanes[i + 3], lanes[i + 4], lanes[i + 5], lanes[i + 6], lanes[i + 7], lanes[i + 8], lanes[i + 9], lanes[i + 10], lanes[i + 11], lanes[i + 12], lanes[i + 13], lanes[i + 14], lanes[i + 15]) ^ a;
        for (; i < end; ++i) other |= lanes[i] ^ a;
        ulong8 d8 = differ.lo | differ.hi;
        ulong4 d4 = d8.lo | d8.hi;
        ulong2 d2 = d4.lo | d4.hi;
        other |= d2.x | d2.y;
        if (other != 0) {
            na = 0;
            for (size_t i = first; i < end; ++i) {
                ulong p = lanes[i];
                if (p == a) {
                    na += 1;
                } else if (nb != 0 && p == b) {
                    nb += 1;
                } else {
                    if (nb != 0) __srcsim_fold_helper_early_return(b, nb, w);
                    b = p;
                    nb = 1;
                }
            }
        }
        __srcsim_fold_helper_early_return(a, na, w);
        if (nb != 0) __srcsim_fold_helper_early_return(b, nb, w);
        r[0] = w[0];
        r[1] = w[1];
        r[2] = w[2];
        r[3] = w[3];
        r[4] = w[4];
        r[5] = w[5];
        r[6] = w[6];
        r[7] = w[7];
        r[8] = w[8];
        r[9] = w[9];
        r[10] = w[10];
        r[11] = w[11];
        r[12] = w[12];
    }
}
#line 1
// A helper function (inlined at -O3) and an early return for work-items past the end.
float smoothstep01(float lo, float hi, float x, __private __srcsim_state *__srcsim)
{ __srcsim_smoothstep01_0(__srcsim);
    float t = clamp((x - lo) / (hi - lo), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}


#ifndef __SRCSIM_WARPS
#line 8
__kernel void helper_early_return(__global const float *in, __global float *out,
                                  const int n, const float lo, const float hi, __global ulong *__srcsim_records)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_helper_early_return_0(__srcsim);
    int i = get_global_id(0);
    if (i >= n)
        { __srcsim_exit_helper_early_return(__srcsim, __srcsim_records); return; }
     __srcsim_helper_early_return_1(__srcsim);float x = in[i];
    if (x < 0.0f) {
        out[i] = 0.0f;
        { __srcsim_exit_helper_early_return(__srcsim, __srcsim_records); return; }
    }
    out[i] = smoothstep01(lo, hi, x, __srcsim);
 __srcsim_exit_helper_early_return(__srcsim, __srcsim_records); }
#endif
#line 20


#ifdef __SRCSIM_WARPS
#line 8
__kernel void __srcsim_warps_helper_early_return(__global const float *in, __global float *out,
                                  const int n, const float lo, const float hi, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_helper_early_return_0(__srcsim);
    int i = get_global_id(0);
    if (i >= n)
        { __srcsim_lanes_helper_early_return(__srcsim, __srcsim_lanes); goto __srcsim_end_helper_early_return; return; }
     __srcsim_helper_early_return_1(__srcsim);float x = in[i];
    if (x < 0.0f) {
        out[i] = 0.0f;
        { __srcsim_lanes_helper_early_return(__srcsim, __srcsim_lanes); goto __srcsim_end_helper_early_return; return; }
    }
    out[i] = smoothstep01(lo, hi, x, __srcsim);
 __srcsim_lanes_helper_early_return(__srcsim, __srcsim_lanes); __srcsim_end_helper_early_return: barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_helper_early_return(__srcsim_records, __srcsim_lanes, __srcsim_warp); }
#endif
