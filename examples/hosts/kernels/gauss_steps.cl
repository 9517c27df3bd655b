// Gaussian elimination of an n x (n + 1) augmented system [A | b], one pivot per step `t`:
// `pivot_ratios` stores, for every row below the pivot, its multiple of the pivot row;
// `eliminate` subtracts that multiple of the pivot row from every row below it, one
// work-item per entry right of the pivot column, the right-hand side included. Rows and
// columns are offsets from the pivot, so a step's work-items are the first of the NDRange.
__kernel void pivot_ratios(__global const float *ab, __global float *ratio, const int n,
                           const int t)
{
    int r = get_global_id(0);
    if (r < n - 1 - t) {
        int row = t + 1 + r;
        ratio[row] = ab[row * (n + 1) + t] / ab[t * (n + 1) + t];
    }
}

__kernel void eliminate(__global float *ab, __global const float *ratio, const int n,
                        const int t)
{
    int c = get_global_id(0), r = get_global_id(1);
    if (r >= n - 1 - t || c > n - t)
        return;
    int row = t + 1 + r, column = t + c;
    if (c == 0) {
        ab[row * (n + 1) + t] = 0.0f;
        return;
    }
    ab[row * (n + 1) + column] -= ratio[row] * ab[t * (n + 1) + column];
}
