/* Sorting (corpus_sort): bitonic sort (a local stage per work-group and global merge
 * steps), a rank sort, a radix digit histogram in local memory and an odd-even
 * transposition step. Keys are ints. */
#define LS 64
#define RADIX 16
#define DIGIT(key, shift) (((key) >> (shift)) & (RADIX - 1))
#define SWAP_IF(cond, a, b) if (cond) { int t_ = (a); (a) = (b); (b) = t_; }

/* Sorts each run of 2*LS keys in local memory; the direction alternates with the run
 * (ascending when the run's index is even), so that runs pair into bitonic sequences. */
__kernel void bitonic_local(__global int *keys)
{
    __local int s[2 * LS];
    int lid = get_local_id(0), base = get_group_id(0) * 2 * LS;
    s[lid] = keys[base + lid];
    s[lid + LS] = keys[base + lid + LS];
    barrier(CLK_LOCAL_MEM_FENCE);
    int descending = get_group_id(0) & 1;
    for (int size = 2; size <= 2 * LS; size <<= 1)
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            int pos = 2 * lid - (lid & (stride - 1));
            int up = ((pos & size) == 0) ^ descending;
            if (size == 2 * LS)
                up = !descending;
            int a = s[pos], b = s[pos + stride];
            SWAP_IF((a > b) == up, s[pos], s[pos + stride])
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    keys[base + lid] = s[lid];
    keys[base + lid + LS] = s[lid + LS];
}

/* One global compare-exchange step of the bitonic merge (sequence size `size`, distance
 * `stride`), one pair per work-item. */
__kernel void bitonic_step(__global int *keys, int size, int stride)
{
    int t = get_global_id(0);
    int pos = 2 * t - (t & (stride - 1));
    int up = (pos & size) == 0;
    int a = keys[pos], b = keys[pos + stride];
    if ((a > b) == up) {
        keys[pos] = b;
        keys[pos + stride] = a;
    }
}

/* Rank sort: each key's place is the number of smaller keys (ties by index). */
__kernel void rank_sort(__global const int *in, __global int *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int key = in[i], rank = 0;
    for (int j = 0; j < n; j++) {
        int other = in[j];
        rank += other < key || (other == key && j < i);
    }
    out[rank] = key;
}

/* Per work-group histogram of one radix digit, in local memory, written column-major
 * (digit-major) for a later scan. */
__kernel void radix_count(__global const int *keys, __global int *hist, int n, int shift)
{
    __local int bins[RADIX];
    int lid = get_local_id(0), group = get_group_id(0), groups = get_num_groups(0);
    if (lid < RADIX)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
        atomic_inc(&bins[DIGIT(keys[i], shift)]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < RADIX)
        hist[lid * groups + group] = bins[lid];
}

/* Odd-even transposition: one phase, pairs (2t + phase, 2t + phase + 1). */
__kernel void odd_even_step(__global int *keys, int n, int phase)
{
    int i = 2 * get_global_id(0) + phase;
    if (i + 1 < n) {
        int a = keys[i], b = keys[i + 1];
        SWAP_IF(a > b, keys[i], keys[i + 1])
    }
}
