// Jacobi iteration for the tridiagonal system d*x[i] - x[i-1] - x[i+1] = b[i] (zero
// outside 0..n-1), and the largest change of one iteration, reduced per work-group in a
// __local array the host sizes. The host iterates until the largest change is small.
__kernel void jacobi(__global const float *x, __global float *next, __global const float *b,
                     const int n, const float inv_d)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float left = i > 0 ? x[i - 1] : 0.0f;
    float right = i < n - 1 ? x[i + 1] : 0.0f;
    next[i] = (b[i] + left + right) * inv_d;
}

__kernel void max_change(__global const float *x, __global const float *next,
                         __global float *partial, __local float *scratch, const int n)
{
    int i = get_global_id(0);
    int lid = get_local_id(0);
    scratch[lid] = i < n ? fabs(next[i] - x[i]) : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            scratch[lid] = fmax(scratch[lid], scratch[lid + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
