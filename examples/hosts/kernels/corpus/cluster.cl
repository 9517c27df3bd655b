/* Clustering and wavelets (corpus_cluster): k-means assignment and a fixed-point
 * accumulation of the new centres (integer atomics), a multi-level 1D Haar transform in
 * local memory and its inverse, one level of a 2D Haar transform, and a density count
 * (points within eps, DBSCAN's core test). Points are DIM floats each. */
#ifndef DIM
#define DIM 3
#endif
#define PT(p, d) points[(p) * DIM + (d)]
#define CT(c, d) centres[(c) * DIM + (d)]
#define FIXED 256.0f
#define WL 64

float dist2(__global const float *points, int p, __constant float *centres, int c);

float dist2(__global const float *points, int p, __constant float *centres, int c)
{
    float s = 0.0f;
    for (int d = 0; d < DIM; d++) {
        float t = PT(p, d) - CT(c, d);
        s += t * t;
    }
    return s;
}

__kernel void kmeans_assign(__global const float *points, __constant float *centres,
                            __global int *member, int n, int k)
{
    int p = get_global_id(0);
    if (p >= n)
        return;
    int best = 0;
    float bd = dist2(points, p, centres, 0);
    for (int c = 1; c < k; c++) {
        float d = dist2(points, p, centres, c);
        if (d < bd)
            bd = d, best = c;
    }
    member[p] = best;
}

/* Sums of the members' coordinates in 1/256 units and the member counts, per centre. */
__kernel void kmeans_accumulate(__global const float *points, __global const int *member,
                                volatile __global int *sums, volatile __global int *counts,
                                int n)
{
    int p = get_global_id(0);
    if (p >= n)
        return;
    int c = member[p];
    atomic_inc(&counts[c]);
    for (int d = 0; d < DIM; d++)
        atomic_add(&sums[c * DIM + d], (int)(PT(p, d) * FIXED));
}

/* Haar, `levels` levels on each run of 2*WL values: averages to the front, details to
 * the back of each level's span. */
__kernel void haar_forward(__global const float *in, __global float *out, int levels)
{
    __local float s[2 * WL];
    __local float t[2 * WL];
    int lid = get_local_id(0), base = get_group_id(0) * 2 * WL;
    s[lid] = in[base + lid];
    s[lid + WL] = in[base + lid + WL];
    barrier(CLK_LOCAL_MEM_FENCE);
    int span = 2 * WL;
    for (int l = 0; l < levels; l++) {
        int pairs = span / 2;
        if (lid < pairs) {
            float a = s[2 * lid], b = s[2 * lid + 1];
            t[lid] = 0.5f * (a + b);
            t[lid + pairs] = 0.5f * (a - b);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < span / 2) {
            s[lid] = t[lid];
            s[lid + pairs] = t[lid + pairs];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        span = pairs;
    }
    out[base + lid] = s[lid];
    out[base + lid + WL] = s[lid + WL];
}

/* The inverse, level by level from the coarsest; work-item i restores one pair. */
__kernel void haar_inverse(__global const float *in, __global float *out, int levels)
{
    __local float s[2 * WL];
    __local float t[2 * WL];
    int lid = get_local_id(0), base = get_group_id(0) * 2 * WL;
    s[lid] = in[base + lid];
    s[lid + WL] = in[base + lid + WL];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int l = levels - 1; l >= 0; l--) {
        int pairs = WL >> l;
        if (lid < pairs) {
            float avg = s[lid], det = s[lid + pairs];
            t[2 * lid] = avg + det;
            t[2 * lid + 1] = avg - det;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < pairs)
            s[2 * lid] = t[2 * lid], s[2 * lid + 1] = t[2 * lid + 1];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[base + lid] = s[lid];
    out[base + lid + WL] = s[lid + WL];
}

/* One level of the 2D Haar transform: each work-item takes a 2 x 2 block and writes the
 * four quadrants (LL, HL, LH, HH). */
__kernel void haar2d_level(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (2 * x + 1 >= w || 2 * y + 1 >= h)
        return;
    float a = in[2 * y * w + 2 * x], b = in[2 * y * w + 2 * x + 1];
    float c = in[(2 * y + 1) * w + 2 * x], d = in[(2 * y + 1) * w + 2 * x + 1];
    int hw = w / 2, hh = h / 2;
    out[y * w + x] = 0.25f * (a + b + c + d);
    out[y * w + x + hw] = 0.25f * (a - b + c - d);
    out[(y + hh) * w + x] = 0.25f * (a + b - c - d);
    out[(y + hh) * w + x + hw] = 0.25f * (a - b - c + d);
}

/* How many points lie within eps of each point (itself included); core points have at
 * least `min_pts`. */
__kernel void density_count(__global const float *points, __global int *neighbours,
                            __global int *core, int n, float eps2, int min_pts)
{
    int p = get_global_id(0);
    if (p >= n)
        return;
    int count = 0;
    for (int q = 0; q < n; q++) {
        float s = 0.0f;
        for (int d = 0; d < DIM; d++)
            s += (PT(p, d) - PT(q, d)) * (PT(p, d) - PT(q, d));
        if (s <= eps2)
            count++;
    }
    neighbours[p] = count;
    core[p] = count >= min_pts;
}
