/* N-body, neighbour lists and a particle filter (corpus_particles). Positions are float4
 * (w: mass). Cells of a uniform grid of CELLS^3 cells over the unit cube. */
#define CELLS 4
#define MAXN 32
#define SOFT 0.01f
#define CELL_COORDS(p) (int)((p).x * CELLS), (int)((p).y * CELLS), (int)((p).z * CELLS)
#define SQ(v) ((v) * (v))

int cell_index(int x, int y, int z);
float4 pair_accel(float4 me, float4 other);

int cell_index(int x, int y, int z)
{
    x = clamp(x, 0, CELLS - 1);
    y = clamp(y, 0, CELLS - 1);
    z = clamp(z, 0, CELLS - 1);
    return (z * CELLS + y) * CELLS + x;
}

float4 pair_accel(float4 me, float4 other)
{
    float4 d = other - me;
    float r2 = SQ(d.x) + SQ(d.y) + SQ(d.z) + SOFT;
    float inv = rsqrt(r2);
    float s = other.w * inv * inv * inv;
    return (float4)(d.x * s, d.y * s, d.z * s, 0.0f);
}

/* All-pairs accelerations, bodies staged through local memory a tile at a time. */
__kernel void nbody_accel(__global const float4 *pos, __global float4 *acc,
                          __local float4 *tile, int n)
{
    int i = get_global_id(0), lid = get_local_id(0), lsize = get_local_size(0);
    float4 me = pos[i];
    float4 a = (float4)(0.0f);
    for (int base = 0; base < n; base += lsize) {
        tile[lid] = pos[base + lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int j = 0; j < lsize; j++)
            a += pair_accel(me, tile[j]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    acc[i] = a;
}

/* How many particles each cell holds (atomics), and each particle's cell. */
__kernel void bin_count(__global const float4 *pos, volatile __global int *counts,
                        __global int *cell_of, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        int c = cell_index(CELL_COORDS(pos[i]));
        cell_of[i] = c;
        atomic_inc(&counts[c]);
    }
}

/* Neighbour list by brute force within a cutoff, at most MAXN per particle; the list's
 * length is stored (it may be cut short). */
__kernel void neighbour_list(__global const float4 *pos, __global int *list,
                             __global int *length, int n, float cutoff2)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float4 me = pos[i];
    int k = 0;
    for (int j = 0; j < n && k < MAXN; j++) {
        if (j == i)
            continue;
        float4 d = pos[j] - me;
        if (SQ(d.x) + SQ(d.y) + SQ(d.z) < cutoff2)
            list[i * MAXN + k++] = j;
    }
    length[i] = k;
}

/* A soft repulsive force over the neighbour list (data-dependent trip count). */
__kernel void list_force(__global const float4 *pos, __global const int *list,
                         __global const int *length, __global float4 *force, float cutoff2)
{
    int i = get_global_id(0);
    float4 me = pos[i], f = (float4)(0.0f);
    for (int k = 0; k < length[i]; k++) {
        float4 d = me - pos[list[i * MAXN + k]];
        float r2 = SQ(d.x) + SQ(d.y) + SQ(d.z);
        float s = (cutoff2 - r2) / cutoff2;
        f += (float4)(d.x * s, d.y * s, d.z * s, 0.0f);
    }
    force[i] = f;
}

/* Particle filter: each particle's weight from a Cauchy likelihood of the observation,
 * rounded down to a multiple of 1/1024 (so that the CDF the host sums is exact). */
__kernel void pf_weight(__global const float *state, __global float *weight, float observed,
                        float inv_var, int n)
{
    int i = get_global_id(0);
    if (i < n)
        weight[i] = floor(1024.0f / (1.0f + SQ(state[i] - observed) * inv_var)) / 1024.0f;
}

/* Systematic resampling: particle i takes the state at the first cdf entry >= u_i (a
 * binary search, log n steps of data-dependent direction). */
__kernel void pf_resample(__global const float *cdf, __global const float *state,
                          __global float *resampled, __global int *chosen, float u0, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float u = (u0 + (float)i) / (float)n * cdf[n - 1];
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (cdf[mid] < u)
            lo = mid + 1;
        else
            hi = mid;
    }
    chosen[i] = lo;
    resampled[i] = state[lo];
}
