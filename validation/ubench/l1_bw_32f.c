/* Port of GPU_Microbenchmark/l1_bw_32f: L1 read bandwidth with 32-bit loads. The original
 * (non-TUNER constants): one block of 1024 threads, REPEAT_TIMES 4096, a 16384-float
 * array (64 KiB, within the L1). Run as `l1_bw_32f --tpb 1024 --tpsm 1024 --blocks 1`. */
#include "ubench.h"

#define REPEAT_TIMES 4096
#define ARRAY_SIZE 16384
#define SLACK (1024 + 96) /* see kernels/l1_bw_32f.cl */

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    if (c.threads_per_block > 1024) {
        fprintf(stderr, "l1_bw_32f: at most 1024 threads per block (the slack past the array)\n");
        return 64;
    }
    ub_cl cl = ub_open("l1_bw_32f", "l1_bw_32f.cl", "");
    size_t n = ARRAY_SIZE + SLACK, threads = c.total_threads;
    float *pos = ub_alloc(n * sizeof *pos), *sink = ub_alloc(threads * sizeof *sink);
    for (size_t i = 0; i < n; i++)
        pos[i] = (float)i;
    cl_mem d_pos = ub_buffer(&cl, n * sizeof *pos, pos);
    cl_mem d_sink = ub_buffer(&cl, threads * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l1_bw_32f");
    UB_ARG(k, 0, d_pos);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)(ARRAY_SIZE - 1));
    UB_ARG(k, 3, (cl_uint)REPEAT_TIMES);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, d_sink, threads * sizeof *sink, sink);
    printf("l1_bw_32f: checksum %016llx (%u blocks x %u threads, %d iterations x 4 loads)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, threads * sizeof *sink),
           c.blocks_num, c.threads_per_block, REPEAT_TIMES);
    return 0;
}
