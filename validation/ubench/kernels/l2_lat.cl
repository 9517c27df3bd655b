/* L2 hit latency by pointer chasing (port of GPU_Microbenchmark/l2_lat): one work-item
 * links a 32 KiB ring and follows it `iters` steps. The original's .cg loads (L2, not L1)
 * are volatile here. */
__kernel void l2_lat(__global volatile ulong *ring, __global ulong *sink_out, uint n,
                     uint iters)
{
    if (get_local_id(0) != 0)
        return;
    for (uint i = 0; i < n - 1; i++)
        ring[i] = i + 1;
    ring[n - 1] = 0;
    ulong p = ring[0];
    for (uint i = 0; i < iters; i++)
        p = ring[p];
    sink_out[get_global_id(0)] = p;
}
