// Exclusive prefix sum in two kernels.
// scan_blocks: each work-group of WG work-items scans a block of 2*WG ints in a static
// __local array (work-efficient up-sweep / down-sweep) and writes the block's total.
// add_offsets: adds each block's scanned offset to every element of the block.
#ifndef WG
#define WG 128
#endif
#define BLOCK (2 * WG)

__kernel void scan_blocks(__global const int *in, __global int *out,
                          __global int *block_sums, const int n)
{
    __local int temp[BLOCK];
    int lid = get_local_id(0);
    int base = get_group_id(0) * BLOCK;
    int i0 = base + 2 * lid;
    int i1 = i0 + 1;

    temp[2 * lid] = i0 < n ? in[i0] : 0;
    temp[2 * lid + 1] = i1 < n ? in[i1] : 0;

    int offset = 1;
    for (int d = WG; d > 0; d >>= 1) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset <<= 1;
    }

    if (lid == 0) {
        block_sums[get_group_id(0)] = temp[BLOCK - 1];
        temp[BLOCK - 1] = 0;
    }

    for (int d = 1; d < BLOCK; d <<= 1) {
        offset >>= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < d) {
            int ai = offset * (2 * lid + 1) - 1;
            int bi = offset * (2 * lid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    if (i0 < n)
        out[i0] = temp[2 * lid];
    if (i1 < n)
        out[i1] = temp[2 * lid + 1];
}

__kernel void add_offsets(__global int *data, __global const int *block_offsets,
                          const int n)
{
    int i = get_global_id(0);
    if (i < n)
        data[i] += block_offsets[i / BLOCK];
}
