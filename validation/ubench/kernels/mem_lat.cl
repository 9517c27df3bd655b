/* DRAM latency by pointer chasing (port of GPU_Microbenchmark/mem_lat). The whole grid links
 * an array twice the L2's size into four interleaved chains (element i -> i + 4, the last
 * four back to the first four); then work-items 0-3 (32 bytes, one DRAM sector, per step)
 * each follow theirs. The original's .cv loads (no caching) are volatile here. The original
 * chases while other blocks may still be writing; here work-group 0 also writes the part
 * of the array the chase reaches (the same values) and waits for it, so every run
 * follows the same chain. */
#define THREADS 4u
__kernel void mem_lat(__global volatile ulong *pos, __global ulong *sink_out, uint n,
                      uint iters)
{
    uint tid = get_local_id(0);
    uint uid = get_global_id(0);
    for (uint i = uid; i < n - THREADS; i += get_global_size(0))
        pos[i] = i + THREADS;
    if (get_group_id(0) == 0) {
        for (uint i = tid; i < iters + THREADS && i < n - THREADS; i += get_local_size(0))
            pos[i] = i + THREADS;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (uid < THREADS) {
        pos[n - (THREADS - tid)] = tid;
        ulong p = pos[tid];
        for (uint i = tid; i < iters - THREADS; i += THREADS)
            p = pos[p];
        sink_out[tid] = p;
    }
}
