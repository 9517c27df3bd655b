/* Timing annotation by srcsim 0.1.0: every work-item adds up its best-case cycles and
   resource usage and writes them to __srcsim_records. */
#if __OPENCL_C_VERSION__ < 120
#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */
#endif
typedef struct { ulong t; ulong u[8]; ulong x[3]; } __srcsim_values;
#ifdef __SRCSIM_WARPS
#define __SRCSIM_V(s) (s)
#else
#define __SRCSIM_V(s) ((s)->v)
#endif
typedef struct { ulong t; ulong u[8]; uint last; ulong x[3]; __global __srcsim_values *v; } __srcsim_state;
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
    case 1u: __SRCSIM_V(s)->t += 31ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += 64ul; __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[6] += 256ul; __SRCSIM_V(s)->u[7] += 256ul; s->last = 5u; return;
    case 3u: __SRCSIM_V(s)->t += 33ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += 64ul; __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[6] += 256ul; __SRCSIM_V(s)->u[7] += 256ul; s->last = 5u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) void __srcsim_matmul_tiled_4(__private __srcsim_state *s)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 1360ul; __SRCSIM_V(s)->u[0] += 5248ul; __SRCSIM_V(s)->u[1] += 1536ul; __SRCSIM_V(s)->u[3] += 4608ul; __SRCSIM_V(s)->u[4] += 2688ul; __SRCSIM_V(s)->u[6] += 512ul; __SRCSIM_V(s)->u[7] += 512ul; s->last = 3u; return;
    case 3u: __SRCSIM_V(s)->t += 1308ul; __SRCSIM_V(s)->u[0] += 4096ul; __SRCSIM_V(s)->u[1] += 960ul; __SRCSIM_V(s)->u[3] += 4480ul; __SRCSIM_V(s)->u[4] += 2112ul; __SRCSIM_V(s)->u[6] += 512ul; __SRCSIM_V(s)->u[7] += 512ul; s->last = 3u; return;
    default: return;
    }
}
static inline __attribute__((always_inline)) long __srcsim_sample(__private __srcsim_state *s, uint k, long i)
{
    __private ulong *x = s->x + 3 * k;
    x[1] = x[0] == 0 ? (ulong)i : x[1];
    x[0] += 1;
    x[2] = (ulong)i;
    return i;
}
#ifdef __SRCSIM_WARPS
#define __srcsim_sample_v __srcsim_sample
#else
static inline __attribute__((always_inline)) long __srcsim_sample_v(__private __srcsim_state *s, uint k, long i)
{
    __global ulong *x = s->v->x + 3 * k;
    x[1] = x[0] == 0 ? (ulong)i : x[1];
    x[0] += 1;
    x[2] = (ulong)i;
    return i;
}
#endif
#ifndef __SRCSIM_WARPS
static inline __attribute__((always_inline)) void __srcsim_enter_record(__private __srcsim_state *s, __global ulong *records)
{
    size_t id = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)
              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)
              + (get_global_id(0) - get_global_offset(0));
    __global ulong *rec = records + id * 12;
    for (uint i = 0; i < 12u; ++i)
        rec[i] = 0;
    s->v = (__global __srcsim_values *)rec;
}
#endif
static inline __attribute__((always_inline)) void __srcsim_exit_matmul_tiled(__private __srcsim_state *s, __global ulong *records)
{
    switch (s->last) {
    case 1u: __SRCSIM_V(s)->t += 31ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += 64ul; __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[6] += 256ul; __SRCSIM_V(s)->u[7] += 256ul; break;
    case 3u: __SRCSIM_V(s)->t += 33ul; __SRCSIM_V(s)->u[0] += 320ul; __SRCSIM_V(s)->u[1] += 160ul; __SRCSIM_V(s)->u[3] += 64ul; __SRCSIM_V(s)->u[4] += 192ul; __SRCSIM_V(s)->u[6] += 256ul; __SRCSIM_V(s)->u[7] += 256ul; break;
    case 5u: __SRCSIM_V(s)->t += 0ul; break;
    default: break;
    }
}
#line 1
// C = A * B for square n x n matrices (n a multiple of TILE), tiled through local memory.
#ifndef TILE
#define TILE 16
#endif

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
     __srcsim_matmul_tiled_3(__srcsim);C[__srcsim_sample_v(__srcsim, 0u, row * n + col)] = acc;
 __srcsim_exit_matmul_tiled(__srcsim, __srcsim_records); }
