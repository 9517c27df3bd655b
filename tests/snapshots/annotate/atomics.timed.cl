/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; ulong u[10]; } __srcsim_values;
#ifdef __SRCSIM_WARPS
#define __SRCSIM_V(s) (s)
#else
#define __SRCSIM_V(s) ((s)->v)
#endif
typedef struct { ulong t; union { ulong u[10]; ulong16 uv; }; uint last; __global __srcsim_values *v; } __srcsim_state;
static inline __attribute__((always_inline)) void __srcsim_histogram_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: __SRCSIM_V(s)->t += 21ul; __SRCSIM_V(s)->u[0] += 640ul; __SRCSIM_V(s)->u[1] += 288ul; __SRCSIM_V(s)->u[3] += 64ul; __SRCSIM_V(s)->u[4] += 320ul; s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_3(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 43ul; __SRCSIM_V(s)->u[0] += 512ul; __SRCSIM_V(s)->u[1] += 288ul; __SRCSIM_V(s)->u[4] += 256ul; s->last = 4u; return;
    case 3u: __SRCSIM_V(s)->t += 28ul; __SRCSIM_V(s)->u[0] += 512ul; __SRCSIM_V(s)->u[1] += 288ul; __SRCSIM_V(s)->u[4] += 256ul; s->last = 4u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_4(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 49ul; __SRCSIM_V(s)->u[0] += 576ul; __SRCSIM_V(s)->u[1] += 256ul; __SRCSIM_V(s)->u[3] += 128ul; __SRCSIM_V(s)->u[4] += 320ul; s->last = 3u; return;
    case 3u: __SRCSIM_V(s)->t += 22ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 128ul; __SRCSIM_V(s)->u[3] += 128ul; __SRCSIM_V(s)->u[4] += 192ul; s->last = 3u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_7(__private __srcsim_state *s)
{
    switch (s->last) {
    case 4u: __SRCSIM_V(s)->t += 10ul; __SRCSIM_V(s)->u[0] += 128ul; __SRCSIM_V(s)->u[1] += 64ul; __SRCSIM_V(s)->u[4] += 64ul; s->last = 7u; return;
    case 6u: __SRCSIM_V(s)->t += 1ul; __SRCSIM_V(s)->u[0] += 128ul; __SRCSIM_V(s)->u[1] += 64ul; __SRCSIM_V(s)->u[4] += 64ul; s->last = 7u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_8(__private __srcsim_state *s)
{
    switch (s->last) {
    case 4u: __SRCSIM_V(s)->t += 334ul; __SRCSIM_V(s)->u[0] += 1024ul; __SRCSIM_V(s)->u[1] += 480ul; __SRCSIM_V(s)->u[3] += 256ul; __SRCSIM_V(s)->u[4] += 512ul; __SRCSIM_V(s)->u[6] += 8192ul; __SRCSIM_V(s)->u[7] += 256ul; __SRCSIM_V(s)->u[9] += 4352ul; s->last = 6u; return;
    case 6u: __SRCSIM_V(s)->t += 315ul; __SRCSIM_V(s)->u[0] += 768ul; __SRCSIM_V(s)->u[1] += 352ul; __SRCSIM_V(s)->u[3] += 192ul; __SRCSIM_V(s)->u[4] += 384ul; __SRCSIM_V(s)->u[6] += 8192ul; __SRCSIM_V(s)->u[7] += 256ul; __SRCSIM_V(s)->u[9] += 4352ul; s->last = 6u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_12(__private __srcsim_state *s)
{
    switch (s->last) {
    case 7u: __SRCSIM_V(s)->t += 304ul; __SRCSIM_V(s)->u[0] += 640ul; __SRCSIM_V(s)->u[1] += 224ul; __SRCSIM_V(s)->u[3] += 256ul; __SRCSIM_V(s)->u[4] += 320ul; __SRCSIM_V(s)->u[6] += 8192ul; __SRCSIM_V(s)->u[7] += 256ul; __SRCSIM_V(s)->u[9] += 4352ul; s->last = 9u; return;
    case 9u: __SRCSIM_V(s)->t += 62ul; __SRCSIM_V(s)->u[0] += 512ul; __SRCSIM_V(s)->u[1] += 192ul; __SRCSIM_V(s)->u[3] += 192ul; __SRCSIM_V(s)->u[4] += 256ul; __SRCSIM_V(s)->u[6] += 8192ul; __SRCSIM_V(s)->u[7] += 256ul; __SRCSIM_V(s)->u[9] += 4352ul; s->last = 9u; return;
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
#ifndef __SRCSIM_WARPS
static inline __attribute__((always_inline)) void __srcsim_enter_record(__private __srcsim_state *s, __global ulong *records)
{
    size_t id = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
              + (get_global_id(0) - get_global_offset(0));
    __global ulong *rec = records + id * 11;
    for (uint i = 0; i < 11u; ++i)
        rec[i] = 0;
    s->v = (__global __srcsim_values *)rec;
}
#endif
static inline __attribute__((always_inline)) void __srcsim_exit_histogram(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)
{
    switch (s->last) {
    case 7u: __SRCSIM_V(s)->t += 9ul; __SRCSIM_V(s)->u[0] += 64ul; __SRCSIM_V(s)->u[1] += 32ul; __SRCSIM_V(s)->u[4] += 64ul; break;
    case 9u: __SRCSIM_V(s)->t += 0ul; __SRCSIM_V(s)->u[0] += 64ul; __SRCSIM_V(s)->u[1] += 32ul; __SRCSIM_V(s)->u[4] += 64ul; break;
    default: break;
    }
    if (warp != 0u) {
        __local ulong *lane = lanes + __srcsim_local_id() * 11;
        lane[0] = __SRCSIM_V(s)->t;
        lane[1] = __SRCSIM_V(s)->u[0];
        lane[2] = __SRCSIM_V(s)->u[1];
        lane[3] = __SRCSIM_V(s)->u[2];
        lane[4] = __SRCSIM_V(s)->u[3];
        lane[5] = __SRCSIM_V(s)->u[4];
        lane[6] = __SRCSIM_V(s)->u[5];
        lane[7] = __SRCSIM_V(s)->u[6];
        lane[8] = __SRCSIM_V(s)->u[7];
        lane[9] = __SRCSIM_V(s)->u[8];
        lane[10] = __SRCSIM_V(s)->u[9];
        return;
    }
}
#line 1
// A 64-bin histogram: per-work-group counts in local memory, merged with global atomics.
#define BINS 64


#ifndef __SRCSIM_WARPS
#line 4
__kernel void histogram(__global const uint *data, const int n,
                        __global volatile uint *bins, __global ulong *__srcsim_records)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_enter_record(__srcsim, __srcsim_records); __srcsim_histogram_0(__srcsim);
    __local volatile uint local_bins[BINS];
    int lid = get_local_id(0);
    int lsize = get_local_size(0);

    for (int b = lid; b < BINS; b += lsize)
        { __srcsim_histogram_4(__srcsim); local_bins[b] = 0; }
     __srcsim_histogram_3(__srcsim);barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        { __srcsim_histogram_8(__srcsim); atomic_inc(&local_bins[data[i] % BINS]); }
     __srcsim_histogram_7(__srcsim);barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < BINS; b += lsize)
        { __srcsim_histogram_12(__srcsim); atomic_add(&bins[b], local_bins[b]); }
 __srcsim_exit_histogram(__srcsim, __srcsim_records, (__local ulong *)0, 0u); }
#endif
#line 21


#ifdef __SRCSIM_WARPS
#line 4
__kernel void __srcsim_warps_histogram(__global const uint *data, const int n,
                        __global volatile uint *bins, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_histogram_0(__srcsim);
    __local volatile uint local_bins[BINS];
    int lid = get_local_id(0);
    int lsize = get_local_size(0);

    for (int b = lid; b < BINS; b += lsize)
        { __srcsim_histogram_4(__srcsim); local_bins[b] = 0; }
     __srcsim_histogram_3(__srcsim);barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        { __srcsim_histogram_8(__srcsim); atomic_inc(&local_bins[data[i] % BINS]); }
     __srcsim_histogram_7(__srcsim);barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < BINS; b += lsize)
        { __srcsim_histogram_12(__srcsim); atomic_add(&bins[b], local_bins[b]); }
 __srcsim_exit_histogram(__srcsim, __srcsim_records, __srcsim_lanes, __srcsim_warp); barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_warp(__srcsim_records, __srcsim_lanes, __srcsim_warp); }
#endif
