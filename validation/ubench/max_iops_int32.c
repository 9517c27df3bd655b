/* Port of GPU_Microbenchmark/MaxIops_int32: 32-bit integer multiply-add throughput. Blocks
 * of --tpb threads (--blocks of them), REPEAT_TIMES 1024 iterations of four dependent
 * multiply-adds. Run as `max_iops_int32 --tpb 1024 --blocks 1`. Checks every result. */
#include "ubench.h"

#define REPEAT_TIMES 1024

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    ub_cl cl = ub_open("max_iops_int32", "max_iops_int32.cl", "");
    size_t threads = c.total_threads;
    cl_int *d1 = ub_alloc(threads * sizeof *d1), *res = ub_alloc(threads * sizeof *res);
    for (size_t i = 0; i < threads; i++)
        d1[i] = (cl_int)i;
    cl_mem m1 = ub_buffer(&cl, threads * sizeof *d1, d1);
    cl_mem m2 = ub_buffer(&cl, threads * sizeof *d1, d1);
    cl_mem mres = ub_buffer(&cl, threads * sizeof *res, NULL);
    cl_kernel k = ub_kernel(&cl, "max_iops_int32");
    UB_ARG(k, 0, m1);
    UB_ARG(k, 1, m2);
    UB_ARG(k, 2, mres);
    UB_ARG(k, 3, (cl_uint)REPEAT_TIMES);
    ub_launch_1d(&cl, k, c.blocks_num, c.threads_per_block);
    ub_read(&cl, mres, threads * sizeof *res, res);
    for (size_t i = 0; i < threads; i++) {
        uint32_t r = 0, s = (uint32_t)i; /* wrapping arithmetic, as the GPU's */
        for (int j = 0; j < 4 * REPEAT_TIMES; j++)
            r = r * s + s;
        if ((uint32_t)res[i] != r) {
            fprintf(stderr, "max_iops_int32: thread %zu: %d, expected %d\n", i, res[i],
                    (int)r);
            return 1;
        }
    }
    printf("max_iops_int32: checksum %016llx (%u blocks x %u threads, %d x 4 mad)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, res, threads * sizeof *res),
           c.blocks_num, c.threads_per_block, REPEAT_TIMES);
    return 0;
}
