// A 64-bin histogram: per-work-group counts in local memory, merged with global atomics.
#define BINS 64

__kernel void histogram(__global const uint *data, const int n,
                        __global volatile uint *bins)
{
    __local volatile uint local_bins[BINS];
    int lid = get_local_id(0);
    int lsize = get_local_size(0);

    for (int b = lid; b < BINS; b += lsize)
        local_bins[b] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&local_bins[data[i] % BINS]);
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int b = lid; b < BINS; b += lsize)
        atomic_add(&bins[b], local_bins[b]);
}
