// y = A * x for a sparse matrix A in CSR form, one work-item per row. Rows have very
// different lengths (some empty, a few long), so work-items of one group leave the inner
// loop at different iterations.
__kernel void spmv_csr(const int rows, __global const int *row_ptr,
                       __global const int *col_idx, __global const float *values,
                       __global const float *x, __global float *y)
{
    int row = get_global_id(0);
    if (row >= rows)
        return;
    int begin = row_ptr[row];
    int end = row_ptr[row + 1];
    float acc = 0.0f;
    for (int j = begin; j < end; j++)
        acc += values[j] * x[col_idx[j]];
    y[row] = acc;
}
