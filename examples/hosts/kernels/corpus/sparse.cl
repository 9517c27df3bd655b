/* Sparse matrix kernels (corpus_sparse): CSR (scalar and one work-group per row), ELL
 * (column-major slabs, -1 padding), DIA (offsets) and a CSR row census. */
#define ROW_BEGIN(r) rowptr[(r)]
#define ROW_END(r) rowptr[(r) + 1]
#define ELL(k, r) ell_val[(k) * rows + (r)]

/* One row per work-item; the trip count is the row's length. */
__kernel void spmv_csr_scalar(__global const int *rowptr, __global const int *cols,
                              __global const float *vals, __global const float *x,
                              __global float *y, int rows)
{
    int r = get_global_id(0);
    if (r < rows) {
        float s = 0.0f;
        for (int p = ROW_BEGIN(r); p < ROW_END(r); p++)
            s += vals[p] * x[cols[p]];
        y[r] = s;
    }
}

/* One work-group per row: strided partial sums, then a local tree reduction. */
__kernel void spmv_csr_vector(__global const int *rowptr, __global const int *cols,
                              __global const float *vals, __global const float *x,
                              __global float *y, __local float *part)
{
    int r = get_group_id(0), lid = get_local_id(0), lsize = get_local_size(0);
    float s = 0.0f;
    for (int p = ROW_BEGIN(r) + lid; p < ROW_END(r); p += lsize)
        s += vals[p] * x[cols[p]];
    part[lid] = s;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int w = lsize / 2; w > 0; w /= 2) {
        if (lid < w)
            part[lid] += part[lid + w];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        y[r] = part[0];
}

/* ELL: width slots per row, a negative column ends the row. */
__kernel void spmv_ell(__global const int *ell_col, __global const float *ell_val,
                       __global const float *x, __global float *y, int rows, int width)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float s = 0.0f;
    int k = 0;
    while (k < width && ell_col[k * rows + r] >= 0) {
        s += ELL(k, r) * x[ell_col[k * rows + r]];
        k++;
    }
    y[r] = s;
}

/* DIA: ndiag diagonals at the given offsets, zero outside the matrix. */
__kernel void spmv_dia(__global const int *offsets, __global const float *diag,
                       __global const float *x, __global float *y, int rows, int ndiag)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    float s = 0.0f;
    for (int d = 0; d < ndiag; d++) {
        int c = r + offsets[d];
        if (c >= 0 && c < rows)
            s += diag[d * rows + r] * x[c];
    }
    y[r] = s;
}

/* Per row: how many entries exceed the threshold in magnitude, and the row's largest
 * column (-1 for an empty row); a histogram of row lengths by atomics. */
__kernel void csr_census(__global const int *rowptr, __global const int *cols,
                         __global const float *vals, float threshold, __global int *big,
                         __global int *last, volatile __global int *lengths, int rows)
{
    int r = get_global_id(0);
    if (r >= rows)
        return;
    int count = 0, maxc = -1;
    for (int p = ROW_BEGIN(r); p < ROW_END(r); p++) {
        if (fabs(vals[p]) > threshold)
            count++;
        maxc = cols[p] > maxc ? cols[p] : maxc;
    }
    big[r] = count;
    last[r] = maxc;
    atomic_inc(&lengths[min(ROW_END(r) - ROW_BEGIN(r), 15)]);
}
