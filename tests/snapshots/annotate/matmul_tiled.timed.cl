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
#define __SRCSIM_WIDTH_CLASS (get_local_size(0) >= 32 || get_local_size(1) * get_local_size(2) == 1 ? 0u : get_local_size(0) >= 16 ? 1u : get_local_size(0) >= 8 ? 2u : get_local_size(0) >= 4 ? 3u : get_local_size(0) >= 2 ? 4u : 5u)
#define __SRCSIM_BY_WIDTH(a, b, c, d, e, f) (__SRCSIM_WIDTH_CLASS == 0u ? (a) : __SRCSIM_WIDTH_CLASS == 1u ? (b) : __SRCSIM_WIDTH_CLASS == 2u ? (c) : __SRCSIM_WIDTH_CLASS == 3u ? (d) : __SRCSIM_WIDTH_CLASS == 4u ? (e) : (f))
static inline __attribute__((always_inline)) void __srcsim_matmul_tiled_0(__private __srcsim_state *s)
{
    switch (s->last) {
    case 0u: __SRCSIM_V(s)->t += 41ul; __SRCSIM_V(s)->u[0] += 896ul; __SRCSIM_V(s)->u[1] += 416ul; __SRCSIM_V(s)->u[3] += 128ul; __SRCSIM_V(s)->u[4] += 448ul; s->last = 1u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_matmul_tiled_3(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 31ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(64ul, 128ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[7] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[8] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); s->last = 5u; return;
    case 3u: __SRCSIM_V(s)->t += 33ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(64ul, 128ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[7] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[8] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); s->last = 5u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_matmul_tiled_4(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 1168ul; __SRCSIM_V(s)->u[0] += 5248ul; __SRCSIM_V(s)->u[1] += 1536ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(4608ul, 4608ul, 6912ul, 11520ul, 20736ul, 39168ul); __SRCSIM_V(s)->u[4] += 2688ul; __SRCSIM_V(s)->u[6] += 16384ul; __SRCSIM_V(s)->u[7] += 512ul; __SRCSIM_V(s)->u[9] += 8704ul; s->last = 3u; return;
    case 3u: __SRCSIM_V(s)->t += 1116ul; __SRCSIM_V(s)->u[0] += 4096ul; __SRCSIM_V(s)->u[1] += 960ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(4480ul, 4480ul, 6784ul, 11392ul, 20608ul, 39040ul); __SRCSIM_V(s)->u[4] += 2112ul; __SRCSIM_V(s)->u[6] += 16384ul; __SRCSIM_V(s)->u[7] += 512ul; __SRCSIM_V(s)->u[9] += 8704ul; s->last = 3u; return;
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
static inline __attribute__((always_inline)) void __srcsim_exit_matmul_tiled(__private __srcsim_state *s, __global ulong *records, __local ulong *lanes, uint warp)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 31ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(64ul, 128ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[7] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[8] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); break;
    case 3u: __SRCSIM_V(s)->t += 33ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += __SRCSIM_BY_WIDTH(64ul, 128ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[7] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); __SRCSIM_V(s)->u[8] += __SRCSIM_BY_WIDTH(256ul, 256ul, 256ul, 512ul, 1024ul, 2048ul); break;
    case 5u: __SRCSIM_V(s)->t += 0ul; break;
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
// C = A * B for square n x n matrices (n a multiple of TILE), tiled through local memory.
#ifndef TILE
#define TILE 16
#endif


#ifndef __SRCSIM_WARPS
#line 6
__kernel void matmul_tiled(__global const float *A,
                           __global const float *B,
                           __global float *C,
                           const int n, __global ulong *__srcsim_records)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_enter_record(__srcsim, __srcsim_records); __srcsim_matmul_tiled_0(__srcsim);
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];

    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;

    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) { __srcsim_matmul_tiled_4(__srcsim);
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
     __srcsim_matmul_tiled_3(__srcsim);C[row * n + col] = acc;
 __srcsim_exit_matmul_tiled(__srcsim, __srcsim_records, (__local ulong *)0, 0u); }
#endif
#line 30


#ifdef __SRCSIM_WARPS
#line 6
__kernel void __srcsim_warps_matmul_tiled(__global const float *A,
                           __global const float *B,
                           __global float *C,
                           const int n, __global ulong *__srcsim_records, __local ulong *__srcsim_lanes, uint __srcsim_warp)
{ __srcsim_state __srcsim_st = {0}; __private __srcsim_state *__srcsim = &__srcsim_st; __srcsim->last = 0u; __srcsim_matmul_tiled_0(__srcsim);
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];

    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;

    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) { __srcsim_matmul_tiled_4(__srcsim);
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
     __srcsim_matmul_tiled_3(__srcsim);C[row * n + col] = acc;
 __srcsim_exit_matmul_tiled(__srcsim, __srcsim_records, __srcsim_lanes, __srcsim_warp); barrier(CLK_LOCAL_MEM_FENCE); __srcsim_reduce_warp(__srcsim_records, __srcsim_lanes, __srcsim_warp); }
#endif
