/* Dense linear algebra, LU and Gaussian elimination (corpus_linalg). Row-major n x n
 * matrices; TS is the tile edge (-D TS=8). */
#ifndef TS
#define TS 8
#endif
#define A_(i, j) a[(i) * n + (j)]
#define B_(i, j) b[(i) * n + (j)]
#define C_(i, j) c[(i) * n + (j)]

float dot_row(__global const float *row, __global const float *x, int n);

/* C = alpha * A * B + beta * C, in TS x TS tiles staged in local memory. */
__kernel void gemm_tiled(__global const float *a, __global const float *b, __global float *c,
                         int n, float alpha, float beta)
{
    __local float ta[TS][TS];
    __local float tb[TS][TS];
    int tx = get_local_id(0), ty = get_local_id(1);
    int col = get_global_id(0), row = get_global_id(1);
    float acc = 0.0f;
    for (int t = 0; t < n / TS; t++) {
        ta[ty][tx] = A_(row, t * TS + tx);
        tb[ty][tx] = B_(t * TS + ty, col);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TS; k++)
            acc += ta[ty][k] * tb[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C_(row, col) = alpha * acc + beta * C_(row, col);
}

float dot_row(__global const float *row, __global const float *x, int n)
{
    float s = 0.0f;
    for (int j = 0; j < n; j++)
        s += row[j] * x[j];
    return s;
}

/* y = A x (one row per work-item) or y = A^T x. */
__kernel void gemv(__global const float *a, __global const float *x, __global float *y, int n,
                   int transposed)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (!transposed)
        y[i] = dot_row(a + i * n, x, n);
    else {
        float s = 0.0f;
        for (int j = 0; j < n; j++)
            s += A_(j, i) * x[j];
        y[i] = s;
    }
}

/* b = a^T through a local tile padded against bank conflicts. */
__kernel void transpose_tiled(__global const float *a, __global float *b, int n)
{
    __local float tile[TS][TS + 1];
    int x = get_global_id(0), y = get_global_id(1);
    int lx = get_local_id(0), ly = get_local_id(1);
    tile[ly][lx] = A_(y, x);
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * TS + lx, oy = get_group_id(0) * TS + ly;
    B_(oy, ox) = tile[lx][ly];
}

/* Per-group partial sums of x . y, tree reduction in local scratch. */
__kernel void dot_partial(__global const float *x, __global const float *y,
                          __global float *partial, __local float *scratch, int n)
{
    int gid = get_global_id(0), lid = get_local_id(0);
    float s = 0.0f;
    for (int i = gid; i < n; i += get_global_size(0))
        s += x[i] * y[i];
    scratch[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int step = get_local_size(0) / 2; step > 0; step >>= 1) {
        if (lid < step)
            scratch[lid] += scratch[lid + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

/* LU without pivoting, step k: the multipliers below the pivot. */
__kernel void lu_column(__global float *a, int n, int k)
{
    int i = k + 1 + get_global_id(0);
    if (i < n)
        A_(i, k) = A_(i, k) / A_(k, k);
}

/* LU step k: the trailing submatrix update. */
__kernel void lu_trailing(__global float *a, int n, int k)
{
    int j = k + 1 + get_global_id(0), i = k + 1 + get_global_id(1);
    if (i < n && j < n)
        A_(i, j) -= A_(i, k) * A_(k, j);
}

/* Gaussian elimination on the augmented system [a | rhs], step k: rows below k. */
__kernel void gauss_eliminate(__global float *a, __global float *rhs, int n, int k)
{
    int i = get_global_id(0);
    if (i <= k || i >= n)
        return;
    float f = A_(i, k) / A_(k, k);
    for (int j = k; j < n; j++)
        A_(i, j) -= f * A_(k, j);
    rhs[i] -= f * rhs[k];
}

/* Back substitution of the upper triangular system, one work-item (a serial tail). */
__kernel void back_substitute(__global const float *a, __global const float *rhs,
                              __global float *x, int n)
{
    if (get_global_id(0) != 0)
        return;
    for (int i = n - 1; i >= 0; i--) {
        float s = rhs[i];
        for (int j = i + 1; j < n; j++)
            s -= A_(i, j) * x[j];
        x[i] = s / A_(i, i);
    }
}
