/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; ulong u[8]; uint last; } __srcsim_state;
static inline __attribute__((always_inline)) void __srcsim_scale_offset4_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: s->t += 330ul; s->u[0] += 1472ul; s->u[1] += 576ul; s->u[3] += 768ul; s->u[4] += 768ul; s->u[5] += 4ul; s->u[6] += 2048ul; s->u[7] += 2048ul; s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) size_t __srcsim_local_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
static inline __attribute__((always_inline)) void __srcsim_reduce_warp(__global ulong *records, __local const ulong *lanes, uint warp)
{
    if ((get_local_id(1) | get_local_id(2)) != 0) return;
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t warps = (n + warp - 1) / warp;
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    for (size_t k = get_local_id(0); k < warps; k += get_local_size(0)) {
        size_t end = min((k + 1) * warp, n);
        __global ulong *w = records + (group * warps + k) * 11;
        ulong whole = 0, bytes = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0, m8 = 0;
        for (size_t i = k * warp; i < end; ++i) {
            ulong t = lanes[i];
            whole = max(whole, t);
            bytes += lanes[7 * n + i];
            m1 = max(m1, lanes[1 * n + i]);
            m2 = max(m2, lanes[2 * n + i]);
            m3 = max(m3, lanes[3 * n + i]);
            m4 = max(m4, lanes[4 * n + i]);
            m5 = max(m5, lanes[5 * n + i]);
            m6 = max(m6, lanes[6 * n + i]);
            m7 = max(m7, lanes[7 * n + i]);
            m8 = max(m8, lanes[8 * n + i]);
        }
        w[0] = whole;
        w[1] = whole;
        w[2] = m1;
        w[3] = m2;
        w[4] = m3;
        w[5] = m4;
        w[6] = m5;
        w[7] = m6;
        w[8] = m7;
        w[9] = m8;
        w[10] = bytes;
    }
}
static inline __attribute__((always_inline)) void __srcsim_exit_scale_offset4(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)
{
    switch (s->last) {
    case 0u: s->t += 330ul; s->u[0] += 1472ul; s->u[1] += 576ul; s->u[3] += 768ul; s->u[4] += 768ul; s->u[5] += 4ul; s->u[6] += 2048ul; s->u[7] += 2048ul; break;
    case 1u: s->t += 0ul; break;
    default: break;
    }
    if (warp != 0u) {
        size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
        __local ulong *lane = lanes + __srcsim_local_id();
        lane[0] = s->t;
        lane[1 * n] = s->u[0];
        lane[2 * n] = s->u[1];
        lane[3 * n] = s->u[2];
        lane[4 * n] = s->u[3];
        lane[5 * n] = s->u[4];
        lane[6 * n] = s->u[5];
        lane[7 * n] = s->u[6];
        lane[8 * n] = s->u[7];
        return;
    }
    size_t id = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
              + (get_global_id(0) - get_global_offset(0));
    __global ulong *rec = records + id * 9;
    rec[0] = s->t;
    rec[1] = s->u[0];
    rec[2] = s->u[1];
    rec[3] = s->u[2];
    rec[4] = s->u[3];
    rec[5] = s->u[4];
    rec[6] = s->u[5];
    rec[7] = s->u[6];
    rec[8] = s->u[7];
}
#line 1
// Scales and offsets four floats at a time with vector loads and stores.

#ifndef __SRCSIM_WARPS
#line 2
__kernel void scale_offset4(__global const float4 *in, __global float4 *out,
                            const float4 scale, const float4 offset, __global ulong *__srcsim_records)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_scale_offset4_0(__srcsim);
    int i = get_global_id(0);
    float4 v = in[i];
    float4 r = v * scale + offset;
    out[i] = r;
 __srcsim_exit_scale_offset4(__srcsim, __srcsim_records, (__local ulong *)0, 0u); }
#endif
#line 9


#ifdef __SRCSIM_WARPS
#line 2
__kernel void __srcsim_warps_scale_offset4(__global const float4 *in, __global float4 *out,
                            const float4 scale, const float4 offset, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_scale_offset4_0(__srcsim);
    int i = get_global_id(0);
    float4 v = in[i];
    float4 r = v * scale + offset;
    out[i] = r;
 __srcsim_exit_scale_offset4(__srcsim, __srcsim_records, __srcsim_lanes, __srcsim_warp); barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_warp(__srcsim_records, __srcsim_lanes, __srcsim_warp); }
#endif
