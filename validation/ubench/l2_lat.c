/* Port of GPU_Microbenchmark/l2_lat: L2 hit latency by pointer chasing. One thread links a
 * 4096-element ring (32 KiB) and follows it 32768 steps (ITERS). Run as `l2_lat --fast`
 * (the option leaves the original's constants as they are). Checks the end point. */
#include "ubench.h"

#define ITERS 32768
#define ARRAY_SIZE 4096

int main(int argc, char **argv)
{
    (void)ub_parse(argc, argv);
    ub_cl cl = ub_open("l2_lat", "l2_lat.cl", "");
    cl_ulong sink = 0;
    cl_mem d_ring = ub_buffer(&cl, ARRAY_SIZE * sizeof(cl_ulong), NULL);
    cl_mem d_sink = ub_buffer(&cl, sizeof sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l2_lat");
    UB_ARG(k, 0, d_ring);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)ARRAY_SIZE);
    UB_ARG(k, 3, (cl_uint)ITERS);
    ub_launch_1d(&cl, k, 1, 1);
    ub_read(&cl, d_sink, sizeof sink, &sink);
    if (sink != (cl_ulong)(1 + ITERS) % ARRAY_SIZE) {
        fprintf(stderr, "l2_lat: chase ended at %llu\n", (unsigned long long)sink);
        return 1;
    }
    printf("l2_lat: checksum %016llx (1 thread, %d steps through %d links)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, &sink, sizeof sink), ITERS, ARRAY_SIZE);
    return 0;
}
