/* Shared-memory latency by pointer chasing (port of GPU_Microbenchmark/shared_lat): the
 * work-group (one work-item in the TUNER version) links a __local ring of SIZE 64-bit
 * indices (s[i] = i + 1), then its first work-item follows it ITERS steps. The original
 * leaves the last element unwritten (its chase of 2048 steps never reaches it); here it
 * closes the ring. */
__kernel void shared_lat(__global ulong *sink_out)
{
    __local ulong s[SIZE];
    uint uid = get_global_id(0);
    for (uint i = uid; i < SIZE; i += get_global_size(0))
        s[i] = (i + 1) % SIZE;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (uid == 0) {
        ulong p = 0;
        for (uint i = 0; i < ITERS; i++)
            p = s[p];
        sink_out[0] = p;
    }
}
