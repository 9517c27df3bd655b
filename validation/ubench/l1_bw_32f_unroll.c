/* Port of GPU_Microbenchmark/l1_bw_32f_unroll: L1 read bandwidth, one 32-bit load an iteration;
 * one block of 1024 threads, 4096 iterations of one load at (tid + 32 j) mod 16384 (64 KiB,
 * within the L1). Run as `l1_bw_32f_unroll --tpb 1024 --blocks 1`. */
#include "ubench.h"

#define REPEAT_TIMES 4096
#define WARM 16384

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    ub_cl cl = ub_open("l1_bw_32f_unroll", "l1_bw_32f_unroll.cl", "");
    size_t n = WARM + 1024 /* slack: kernels/l1_bw_32f_unroll.cl */, threads = c.total_threads;
    if (c.threads_per_block > 1024) {
        fprintf(stderr, "l1_bw_32f_unroll: at most 1024 threads per block\n");
        return 64;
    }
    float *pos = ub_alloc(n * sizeof *pos), *sink = ub_alloc(threads * sizeof *sink);
    for (size_t i = 0; i < n; i++)
        pos[i] = (float)(i & 0xffff);
    cl_mem d_pos = ub_buffer(&cl, n * sizeof *pos, pos);
    cl_mem d_sink = ub_buffer(&cl, threads * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l1_bw_32f_unroll");
    UB_ARG(k, 0, d_pos);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)WARM);
    UB_ARG(k, 3, (cl_uint)(WARM - 1));
    UB_ARG(k, 4, (cl_uint)REPEAT_TIMES);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, d_sink, threads * sizeof *sink, sink);
    printf("l1_bw_32f_unroll: checksum %016llx (%u blocks x %u threads, %d loads each, %zu-byte array)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, threads * sizeof *sink),
           c.blocks_num, c.threads_per_block, REPEAT_TIMES, n * sizeof *pos);
    return 0;
}
