// LU factorisation without pivoting, one column per step: the column below the pivot is
// scaled, then the trailing submatrix updated. The step `k` decides which work-items work,
// so every launch's counters are new; most work-items of late steps do nothing.
#define A_(i, j) a[(i) * n + (j)]

__kernel void lu_scale(__global float *a, const int n, const int k)
{
    int i = get_global_id(0);
    if (i > k && i < n)
        A_(i, k) = A_(i, k) / A_(k, k);
}

__kernel void lu_update(__global float *a, const int n, const int k)
{
    int j = get_global_id(0), i = get_global_id(1);
    if (i > k && j > k && i < n && j < n)
        A_(i, j) -= A_(i, k) * A_(k, j);
}
