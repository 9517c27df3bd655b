// Work-group sum reduction: every work-item adds two input elements while loading, then a
// tree reduction in a __local scratch array whose size the host sets (clSetKernelArg with
// a NULL value). One partial sum per work-group; launching again on the partials finishes.
__kernel void reduce_sum(__global const int *in, __global int *partial,
                         __local int *scratch, const int n)
{
    int lid = get_local_id(0);
    int lsize = get_local_size(0);
    int base = get_group_id(0) * lsize * 2 + lid;

    int v = 0;
    if (base < n)
        v = in[base];
    if (base + lsize < n)
        v += in[base + lsize];
    scratch[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);

    for (int stride = lsize / 2; stride > 0; stride >>= 1) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
