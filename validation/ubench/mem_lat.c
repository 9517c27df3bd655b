/* Port of GPU_Microbenchmark/mem_lat: DRAM latency by pointer chasing. The device query's
 * grid (two blocks of 1024 per SM: 264 x 1024 on an H100) links an array of 64-bit
 * elements twice the L2's size (100 MiB on an H100) into four chains; four threads then
 * follow them, ITERS = 32768 loads in all (8191 each). Run as `mem_lat --fast` (the
 * option leaves the original's constants as they are). Checks the end points. */
#include "ubench.h"

#define THREADS_NUM 4
#define ITERS 32768

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    ub_cl cl = ub_open("mem_lat", "mem_lat.cl", "");
    size_t n = c.l2_size / sizeof(cl_ulong) * 2;
    cl_ulong sink[THREADS_NUM];
    cl_mem d_pos = ub_buffer(&cl, n * sizeof(cl_ulong), NULL);
    cl_mem d_sink = ub_buffer(&cl, sizeof sink, NULL);
    cl_kernel k = ub_kernel(&cl, "mem_lat");
    UB_ARG(k, 0, d_pos);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)n);
    UB_ARG(k, 3, (cl_uint)ITERS);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, d_sink, sizeof sink, sink);
    for (unsigned t = 0; t < THREADS_NUM; t++) {
        unsigned steps = 0;
        for (unsigned i = t; i < ITERS - THREADS_NUM; i += THREADS_NUM)
            steps++;
        cl_ulong want = t + (cl_ulong)THREADS_NUM * (steps + 1);
        if (sink[t] != want) {
            fprintf(stderr, "mem_lat: thread %u ended at %llu, expected %llu\n", t,
                    (unsigned long long)sink[t], (unsigned long long)want);
            return 1;
        }
    }
    printf("mem_lat: checksum %016llx (%u blocks x %u threads link %zu bytes; %d threads "
           "chase %d loads)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, sizeof sink), c.blocks_num,
           c.threads_per_block, n * sizeof(cl_ulong), THREADS_NUM, ITERS);
    return 0;
}
