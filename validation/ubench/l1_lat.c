/* Port of GPU_Microbenchmark/l1_lat: L1 hit latency by pointer chasing. The original's
 * constants: one block of 1024 threads (THREADS_NUM), an 8192-element ring of 64-bit
 * links built by thread 0, 256 steps per thread. Run as `l1_lat --blocks 1 --fast`
 * (neither option changes the original's launch). Checks each thread's end point. */
#include "ubench.h"

#define THREADS_NUM 1024
#define REPEAT_TIMES 256
#define ARRAY_SIZE 8192

int main(int argc, char **argv)
{
    (void)ub_parse(argc, argv);
    ub_cl cl = ub_open("l1_lat", "l1_lat.cl", "");
    cl_ulong *sink = ub_alloc(THREADS_NUM * sizeof *sink);
    cl_mem d_ring = ub_buffer(&cl, ARRAY_SIZE * sizeof(cl_ulong), NULL);
    cl_mem d_sink = ub_buffer(&cl, THREADS_NUM * sizeof *sink, NULL);
    cl_kernel k = ub_kernel(&cl, "l1_lat");
    UB_ARG(k, 0, d_ring);
    UB_ARG(k, 1, d_sink);
    UB_ARG(k, 2, (cl_uint)ARRAY_SIZE);
    UB_ARG(k, 3, (cl_uint)REPEAT_TIMES);
    ub_launch_1d(&cl, k, 1, THREADS_NUM);
    ub_read(&cl, d_sink, THREADS_NUM * sizeof *sink, sink);
    for (unsigned t = 0; t < THREADS_NUM; t++) {
        cl_ulong want = (t + 1 + REPEAT_TIMES) % ARRAY_SIZE;
        if (sink[t] != want) {
            fprintf(stderr, "l1_lat: thread %u ended at %llu, expected %llu\n", t,
                    (unsigned long long)sink[t], (unsigned long long)want);
            return 1;
        }
    }
    printf("l1_lat: checksum %016llx (1 block x %d threads, %d steps each)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, sink, THREADS_NUM * sizeof *sink),
           THREADS_NUM, REPEAT_TIMES);
    return 0;
}
