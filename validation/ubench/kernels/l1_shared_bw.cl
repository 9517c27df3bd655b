/* L1 and shared memory read at once (port of GPU_Microbenchmark/l1_shared_bw): every
 * work-item chases a 64 KiB global array of indices (warming the L1, ARRAY steps), then
 * ITERS steps of a chase through a 48 KiB __local array and one through the global array,
 * interleaved. */
__kernel void l1_shared_bw(__global uint *sink_out, __global const uint *l1, uint stride,
                           uint array, uint iters)
{
    __local uint s[SIZE];
    uint uid = get_global_id(0);
    uint n_threads = get_global_size(0);
    uint tmp_s = uid, tmp_l1 = uid;
    for (uint i = uid; i < SIZE; i += n_threads)
        s[i] = (i + stride + 7) % SIZE;
    for (uint i = 0; i < array; i++)
        tmp_l1 = l1[tmp_l1];
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    for (uint i = 0; i < iters; i++) {
        tmp_s = s[tmp_s];
        tmp_l1 = l1[tmp_l1];
    }
    sink_out[uid] = tmp_s + tmp_l1;
}
