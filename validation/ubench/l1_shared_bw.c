/* Port of GPU_Microbenchmark/l1_shared_bw: L1 and shared memory at once. Blocks of --tpb
 * threads (--blocks of them); a 64 KiB global array of indices (ARRAY_SIZE 16384, link
 * (i + 1025) mod size) chased ARRAY_SIZE steps to warm the L1, then ITERS = 4096 steps of
 * a 48 KiB shared chase and the global one together. The original copies only the first
 * 1024 links to the device (the rest is whatever the allocation held); here all are
 * written. Run as `l1_shared_bw --tpb 1024 --blocks 1`. */
#include "ubench.h"

#define ARRAY_SIZE 16384
#define SIZE (48 * 1024 / 4)
#define ITERS 4096
#define STRIDE 1024

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    char options[64];
    snprintf(options, sizeof options, "-D SIZE=%d", SIZE);
    ub_cl cl = ub_open("l1_shared_bw", "l1_shared_bw.cl", options);
    size_t threads = c.total_threads;
    cl_uint *links = ub_alloc(ARRAY_SIZE * sizeof *links);
    cl_uint *sink = ub_alloc(threads * sizeof *sink);
    for (unsigned i = 0; i < ARRAY_SIZE; i++)
        links[i] = (i + STRIDE + 1) % ARRAY_SIZE;
    cl_mem d_links = ub_buffer(&cl, ARRAY_SIZE * sizeof *links, links);
    cl_mem d_sink = ub_buffer(&cl, threads * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l1_shared_bw");
    UB_ARG(k, 0, d_sink);
    UB_ARG(k, 1, d_links);
    UB_ARG(k, 2, (cl_uint)STRIDE);
    UB_ARG(k, 3, (cl_uint)ARRAY_SIZE);
    UB_ARG(k, 4, (cl_uint)ITERS);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, d_sink, threads * sizeof *sink, sink);
    printf("l1_shared_bw: checksum %016llx (%u blocks x %u threads, %d + %d x 2 loads)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, threads * sizeof *sink),
           c.blocks_num, c.threads_per_block, ARRAY_SIZE, ITERS);
    return 0;
}
