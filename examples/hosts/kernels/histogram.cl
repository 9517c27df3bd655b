// Histogram of signed ints into NBINS bins over [lo, hi): each work-group counts into a
// __local histogram with atomic_inc, then merges it into the __global one with
// atomic_add. Values outside the range are counted with a __global atomic_inc, and the
// minimum and maximum of all values are kept with __global atomic_min / atomic_max.
#ifndef NBINS
#define NBINS 64
#endif

__kernel void histogram(__global const int *data, const int n, const int lo, const int hi,
                        __global int *bins, __global int *outside, __global int *minmax)
{
    __local int local_bins[NBINS];
    __local int local_min, local_max;
    int lid = get_local_id(0);
    int lsize = get_local_size(0);

    for (int b = lid; b < NBINS; b += lsize)
        local_bins[b] = 0;
    if (lid == 0) {
        local_min = INT_MAX;
        local_max = INT_MIN;
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    int width = hi - lo;
    for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
        int v = data[i];
        atomic_min(&local_min, v);
        atomic_max(&local_max, v);
        if (v < lo || v >= hi) {
            atomic_inc(outside);
        } else {
            int b = (int)(((long)(v - lo) * NBINS) / width);
            atomic_inc(&local_bins[b]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < NBINS; b += lsize) {
        if (local_bins[b] != 0)
            atomic_add(&bins[b], local_bins[b]);
    }
    if (lid == 0) {
        atomic_min(&minmax[0], local_min);
        atomic_max(&minmax[1], local_max);
    }
}
