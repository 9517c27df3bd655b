/* Shared-memory bandwidth (port of GPU_Microbenchmark/shared_bw): a 48 KiB __local array of
 * indices (s[i] = (i + stride) mod size), then every work-item follows it ITERS steps from
 * its own index. SIZE and ITERS are the original's constants (-D). */
__kernel void shared_bw(__global uint *sink_out, uint stride)
{
    __local uint s[SIZE];
    uint uid = get_global_id(0);
    uint n_threads = get_global_size(0);
    for (uint i = uid; i < SIZE; i += n_threads)
        s[i] = (i + stride) % SIZE;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint tmp = uid;
    for (uint i = 0; i < ITERS; i++)
        tmp = s[tmp];
    sink_out[uid] = tmp;
}
