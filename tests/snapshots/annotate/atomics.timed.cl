/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; ulong u[8]; uint last; } __srcsim_state;
static inline __attribute__((always_inline)) void __srcsim_histogram_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: s->t += 21ul; s->u[0] += 640ul; s->u[1] += 288ul; s->u[3] += 64ul; s->u[4] += 320ul; s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_3(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: s->t += 43ul; s->u[0] += 512ul; s->u[1] += 288ul; s->u[4] += 256ul; s->last = 4u; return;
    case 3u: s->t += 16ul; s->u[0] += 512ul; s->u[1] += 288ul; s->u[4] += 256ul; s->last = 4u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_4(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: s->t += 61ul; s->u[0] += 576ul; s->u[1] += 256ul; s->u[3] += 128ul; s->u[4] += 320ul; s->last = 3u; return;
    case 3u: s->t += 22ul; s->u[0] += 320ul; s->u[1] += 128ul; s->u[3] += 128ul; s->u[4] += 192ul; s->last = 3u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_7(__private __srcsim_state *s)
{
    switch (s->last) {
    case 4u: s->t += 10ul; s->u[0] += 128ul; s->u[1] += 64ul; s->u[4] += 64ul; s->last = 7u; return;
    case 6u: s->t += 0ul; s->u[0] += 128ul; s->u[1] += 64ul; s->u[4] += 64ul; s->last = 7u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_8(__private __srcsim_state *s)
{
    switch (s->last) {
    case 4u: s->t += 346ul; s->u[0] += 1024ul; s->u[1] += 480ul; s->u[3] += 256ul; s->u[4] += 512ul; s->u[6] += 256ul; s->u[7] += 256ul; s->last = 6u; return;
    case 6u: s->t += 315ul; s->u[0] += 768ul; s->u[1] += 352ul; s->u[3] += 192ul; s->u[4] += 384ul; s->u[6] += 256ul; s->u[7] += 256ul; s->last = 6u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_histogram_12(__private __srcsim_state *s)
{
    switch (s->last) {
    case 7u: s->t += 316ul; s->u[0] += 640ul; s->u[1] += 224ul; s->u[3] += 256ul; s->u[4] += 320ul; s->u[6] += 256ul; s->u[7] += 256ul; s->last = 9u; return;
    case 9u: s->t += 74ul; s->u[0] += 512ul; s->u[1] += 192ul; s->u[3] += 192ul; s->u[4] += 256ul; s->u[6] += 256ul; s->u[7] += 256ul; s->last = 9u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) size_t __srcsim_local_id(void)
{
    return (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
}
static inline __attribute__((always_inline)) void __srcsim_reduce_warp(__global ulong *records, __local const ulong *lanes, uint warp)
{
    size_t lid = __srcsim_local_id();
    if (lid % warp != 0) return;
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    size_t group = (get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) + get_group_id(0);
    size_t end = min(lid + warp, n);
    __global ulong *w = records + (group * ((n + warp - 1) / warp) + lid / warp) * 11;
    ulong outside = 0, whole = 0, bytes = 0;
    for (size_t i = lid; i < end; ++i) {
        ulong t = lanes[i];
        ulong arms = 0;
        outside = max(outside, t > arms ? t - arms : (ulong)0);
        whole = max(whole, t);
        bytes += lanes[7 * n + i];
    }
    w[0] = outside;
    w[1] = whole;
    w[10] = bytes;
    for (uint v = 1; v < 9u; ++v) {
        ulong m = 0;
        for (size_t i = lid; i < end; ++i) m = max(m, lanes[v * n + i]);
        w[v + 1] = m;
    }
}
static inline __attribute__((always_inline)) void __srcsim_exit_histogram(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)
{
    switch (s->last) {
    case 7u: s->t += 9ul; s->u[0] += 64ul; s->u[1] += 32ul; s->u[4] += 64ul; break;
    case 9u: s->t += 0ul; s->u[0] += 64ul; s->u[1] += 32ul; s->u[4] += 64ul; break;
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
// A 64-bin histogram: per-work-group counts in local memory, merged with global atomics.
#define BINS 64


#ifndef __SRCSIM_WARPS
#line 4
__kernel void histogram(__global const uint *data, const int n,
                        __global volatile uint *bins, __global ulong *__srcsim_records)
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
