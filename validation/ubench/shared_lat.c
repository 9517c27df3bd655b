/* Port of GPU_Microbenchmark/shared_lat: shared-memory latency by pointer chasing. The
 * original's TUNER version, the one the measured runs match (validation/ubench/README.md):
 * one block of one thread (THREADS_NUM 1) links a 32 KiB ring of 64-bit indices, then
 * follows it ITERS = 2048 steps. Run as `shared_lat --blocks 1` (the original's launch is
 * fixed). Checks the end point. */
#include "ubench.h"

#define SIZE (32 * 1024 / 8)
#define ITERS 2048
#define THREADS_NUM 1

int main(int argc, char **argv)
{
    (void)ub_parse(argc, argv);
    char options[64];
    snprintf(options, sizeof options, "-D SIZE=%d -D ITERS=%d", SIZE, ITERS);
    ub_cl cl = ub_open("shared_lat", "shared_lat.cl", options);
    cl_ulong sink = 0;
    cl_mem d_sink = ub_buffer(&cl, sizeof sink, NULL);
    cl_kernel k = ub_kernel(&cl, "shared_lat");
    UB_ARG(k, 0, d_sink);
    ub_launch_1d(&cl, k, 1, THREADS_NUM);
    ub_read(&cl, d_sink, sizeof sink, &sink);
    if (sink != (cl_ulong)(ITERS % SIZE)) {
        fprintf(stderr, "shared_lat: chase ended at %llu\n", (unsigned long long)sink);
        return 1;
    }
    printf("shared_lat: checksum %016llx (1 block x %d threads, %d steps)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, &sink, sizeof sink), THREADS_NUM, ITERS);
    return 0;
}
