/* Port of GPU_Microbenchmark/shared_bw: shared-memory bandwidth. The original's TUNER
 * version (the one the measured runs match: validation/ubench/README.md): one block of
 * --tpb threads, a 32 KiB array of 32-bit indices, ITERS = 4096 dependent loads per
 * thread, stride = threads per block. Run as `shared_bw --tpb 1024 --tpsm 1024 --blocks
 * 1`. Checks each thread's end point. */
#include "ubench.h"

#define SIZE (32 * 1024 / 4)
#define ITERS 4096

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    char options[64];
    snprintf(options, sizeof options, "-D SIZE=%d -D ITERS=%d", SIZE, ITERS);
    ub_cl cl = ub_open("shared_bw", "shared_bw.cl", options);
    size_t threads = c.total_threads;
    cl_uint *sink = ub_alloc(threads * sizeof *sink);
    cl_mem d_sink = ub_buffer(&cl, threads * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "shared_bw");
    UB_ARG(k, 0, d_sink);
    UB_ARG(k, 1, (cl_uint)c.threads_per_block);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, d_sink, threads * sizeof *sink, sink);
    if (c.blocks_num == 1) {
        for (unsigned t = 0; t < threads; t++) {
            unsigned long long want =
                (t + (unsigned long long)ITERS * c.threads_per_block) % SIZE;
            if (sink[t] != want) {
                fprintf(stderr, "shared_bw: thread %u ended at %u, expected %llu\n", t,
                        sink[t], want);
                return 1;
            }
        }
    }
    printf("shared_bw: checksum %016llx (%u blocks x %u threads, %d loads each)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, threads * sizeof *sink),
           c.blocks_num, c.threads_per_block, ITERS);
    return 0;
}
