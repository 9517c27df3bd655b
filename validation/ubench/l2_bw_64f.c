/* Port of GPU_Microbenchmark/l2_bw_64f: L2 read bandwidth with 64-bit loads. The
 * original (hw_def version): blocks of --tpb threads, two per SM (264 blocks of 1024 on an
 * H100), an array of total threads + repeat x 32 elements (8 bytes each: 2.3 MB at
 * 1024 threads per block), read once by the whole grid, then repeat = 2048 (512 with
 * --fast) loads per thread. Run as `l2_bw_64f --tpb 1024 --tpsm 1024 --fast`. */
#include "ubench.h"

typedef double elem;

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    ub_cl cl = ub_open("l2_bw_64f", "l2_bw.cl", "-D T=double -D USE_FP64");
    unsigned repeat = c.fast ? 512 : 2048;
    unsigned blocks = c.sm_number * 2, threads = blocks * c.threads_per_block;
    size_t n = (size_t)c.total_threads + (size_t)repeat * c.warp_size;
    if (n * sizeof(elem) >= c.l2_size || (size_t)threads + (size_t)repeat * 32 > n) {
        fprintf(stderr, "l2_bw_64f: the array (%zu bytes) does not fit the L2\n",
                n * sizeof(elem));
        return 64;
    }
    elem *pos = ub_alloc(n * sizeof *pos), *sink = ub_alloc(threads * sizeof *sink);
    for (size_t i = 0; i < n; i++)
        pos[i] = (elem)(i & 0xffff);
    cl_mem d_pos = ub_buffer(&cl, n * sizeof *pos, pos);
    cl_mem d_sink = ub_buffer(&cl, threads * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l2_bw");
    UB_ARG(k, 0, d_pos);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)n);
    UB_ARG(k, 3, (cl_uint)repeat);
    ub_launch_1d(&cl, k, blocks, c.threads_per_block);
    ub_read(&cl, d_sink, threads * sizeof *sink, sink);
    printf("l2_bw_64f: checksum %016llx (%u blocks x %u threads, %u loads each, %zu-byte array)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, threads * sizeof *sink), blocks,
           c.threads_per_block, repeat, n * sizeof *pos);
    return 0;
}
