/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; union { ulong u[10]; ulong16 uv; }; uint last; } __srcsim_state;
static inline __attribute__((always_inline)) void __srcsim_div_chain_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: s->t += 293ul; s->uv += (ulong16)(896ul, 384ul, 0ul, 256ul, 448ul, 1ul, 8192ul, 256ul, 0ul, 4352ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_div_chain_3(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: s->t += 5ul; s->uv += (ulong16)(128ul, 32ul, 0ul, 64ul, 64ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->last = 4u; return;
    case 2u: s->t += 10ul; s->uv += (ulong16)(128ul, 32ul, 0ul, 64ul, 64ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->last = 4u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_div_chain_4(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: s->t += 1295ul; s->uv += (ulong16)(2112ul, 96ul, 7680ul, 0ul, 1088ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->last = 2u; return;
    case 2u: s->t += 1309ul; s->uv += (ulong16)(2176ul, 128ul, 7680ul, 0ul, 1152ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); s->last = 2u; return;
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
        size_t first = k * warp, end = min(first + warp, n);
        __global ulong *r = records + (group * warps + k) * 13;
        ulong whole = 0, bytes = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0, m8 = 0, m9 = 0, m10 = 0;
#pragma clang loop vectorize(disable) interleave(disable)
        for (size_t i = first; i < end; ++i) {
            ulong t = lanes[i * 11 + 0];
            whole = max(whole, t);
            bytes += lanes[i * 11 + 8];
            m1 = max(m1, lanes[i * 11 + 1]);
            m2 = max(m2, lanes[i * 11 + 2]);
            m3 = max(m3, lanes[i * 11 + 3]);
            m4 = max(m4, lanes[i * 11 + 4]);
            m5 = max(m5, lanes[i * 11 + 5]);
            m6 = max(m6, lanes[i * 11 + 6]);
            m7 = max(m7, lanes[i * 11 + 7]);
            m8 = max(m8, lanes[i * 11 + 8]);
            m9 = max(m9, lanes[i * 11 + 9]);
            m10 = max(m10, lanes[i * 11 + 10]);
        }
        r[0] = whole;
        r[1] = whole;
        r[2] = m1;
        r[3] = m2;
        r[4] = m3;
        r[5] = m4;
        r[6] = m5;
        r[7] = m6;
        r[8] = m7;
        r[9] = m8;
        r[10] = m9;
        r[11] = m10;
        r[12] = bytes;
    }
}
static inline __attribute__((always_inline)) void __srcsim_exit_div_chain(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)
{
    switch (s->last) {
    case 1u: s->t += 5ul; s->uv += (ulong16)(128ul, 32ul, 0ul, 64ul, 64ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); break;
    case 2u: s->t += 10ul; s->uv += (ulong16)(128ul, 32ul, 0ul, 64ul, 64ul, 0ul, 0ul, 256ul, 256ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul, 0ul); break;
    case 4u: s->t += 0ul; break;
    default: break;
    }
    if (warp != 0u) {
        __local ulong *lane = lanes + __srcsim_local_id() * 11;
        lane[0] = s->t;
        lane[1] = s->u[0];
        lane[2] = s->u[1];
        lane[3] = s->u[2];
        lane[4] = s->u[3];
        lane[5] = s->u[4];
        lane[6] = s->u[5];
        lane[7] = s->u[6];
        lane[8] = s->u[7];
        lane[9] = s->u[8];
        lane[10] = s->u[9];
        return;
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
#line 1
// The microbenchmark of Gerum et al. 2015 (Figure 2): a loop of 30 data-dependent
// single-precision divisions. One warp is latency-bound; the SFU saturates at about
// 8 warps on a GTX 480.
#define DIV(x) x = x / d
#define DIV10(x) DIV(x); DIV(x); DIV(x); DIV(x); DIV(x); \
                 DIV(x); DIV(x); DIV(x); DIV(x); DIV(x)


#ifndef __SRCSIM_WARPS
#line 8
__kernel void div_chain(__global float *out, const float d, const int iterations, __global ulong *__srcsim_records)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_div_chain_0(__srcsim);
    size_t gid = get_global_id(0);
    float x = out[gid];
    for (int i = 0; i < iterations; i++) { __srcsim_div_chain_4(__srcsim);
        DIV10(x);
        DIV10(x);
        DIV10(x);
    }
     __srcsim_div_chain_3(__srcsim);out[gid] = x;
 __srcsim_exit_div_chain(__srcsim, __srcsim_records, (__local ulong *)0, 0u); }
#endif
#line 18


#ifdef __SRCSIM_WARPS
#line 8
__kernel void __srcsim_warps_div_chain(__global float *out, const float d, const int iterations, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_div_chain_0(__srcsim);
    size_t gid = get_global_id(0);
    float x = out[gid];
    for (int i = 0; i < iterations; i++) { __srcsim_div_chain_4(__srcsim);
        DIV10(x);
        DIV10(x);
        DIV10(x);
    }
     __srcsim_div_chain_3(__srcsim);out[gid] = x;
 __srcsim_exit_div_chain(__srcsim, __srcsim_records, __srcsim_lanes, __srcsim_warp); barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_warp(__srcsim_records, __srcsim_lanes, __srcsim_warp); }
#endif
