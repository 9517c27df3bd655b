/* L1 hit latency by pointer chasing (port of GPU_Microbenchmark/l1_lat). Work-item 0 links
 * the array into a ring (each element holds the index of the next; the original stores
 * addresses), the work-group waits, and every work-item then follows the ring `repeat`
 * steps from its own element. One work-group; the ring (64 KiB) fits the L1. */
__kernel void l1_lat(__global ulong *ring, __global ulong *sink_out, uint n, uint repeat)
{
    uint tid = get_local_id(0);
    if (tid == 0) {
        for (uint i = 0; i < n - 1; i++)
            ring[i] = i + 1;
        ring[n - 1] = 0;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    ulong p = ring[tid];
    for (uint i = 0; i < repeat; i++)
        p = ring[p];
    sink_out[get_global_id(0)] = p;
}
