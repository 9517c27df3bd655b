/* Port of GPU_Microbenchmark/mem_bw: DRAM bandwidth. One block of --tpb threads per SM
 * (132 x 1024 on an H100), six float arrays of twice the L2's size each (100 MiB each on an
 * H100: 629 MB in all), five read and one written as float4. Run as
 * `mem_bw --tpb 1024 --tpsm 1024`. Checks every element written. */
#include "ubench.h"

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    ub_cl cl = ub_open("mem_bw", "mem_bw.cl", "");
    size_t n = c.l2_size / sizeof(float) * 2, bytes = n * sizeof(float);
    unsigned blocks = c.sm_number;
    float *host = ub_alloc(bytes);
    for (size_t i = 0; i < n; i++)
        host[i] = (float)(i & 0xfff);
    cl_mem in[5];
    for (int a = 0; a < 5; a++)
        in[a] = ub_buffer(&cl, bytes, host);
    cl_mem out = ub_buffer(&cl, bytes, NULL);
    cl_kernel k = ub_kernel(&cl, "mem_bw");
    UB_ARG(k, 0, in[0]);
    UB_ARG(k, 1, in[1]);
    UB_ARG(k, 2, out);
    UB_ARG(k, 3, in[2]);
    UB_ARG(k, 4, in[3]);
    UB_ARG(k, 5, in[4]);
    UB_ARG(k, 6, (cl_uint)(n / 4));
    ub_launch_1d(&cl, k, blocks, c.threads_per_block);
    ub_read(&cl, out, bytes, host);
    for (size_t i = 0; i < n; i++) {
        if (host[i] != 5.0f * (float)(i & 0xfff)) {
            fprintf(stderr, "mem_bw: element %zu is %g\n", i, host[i]);
            return 1;
        }
    }
    printf("mem_bw: checksum %016llx (%u blocks x %u threads, 6 arrays of %zu bytes)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, host, bytes), blocks,
           c.threads_per_block, bytes);
    return 0;
}
