/* tiny_launches: 20000 launches of a kernel with almost no work (64 work-items, each
 * adding a small value to its counter), the step passed as an argument that changes at
 * every launch; one blocking read at the end. Covers: a program whose time is all launch
 * overhead (one in-order queue, no synchronisation until the end). An optional argument
 * sets the launches (a multiple of 100, at most 1000000). */
#include "common.h"

#define N 64

int main(int argc, char **argv)
{
    const int launches = size_arg(argc, argv, 20000, 100, 1000000);
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/tiny_launches.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel bump = clCreateKernel(program, "bump", &err);
    CHECK(err);
    int counters[N] = {0};
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof counters,
                                counters, &err);
    CHECK(err);
    CHECK(clSetKernelArg(bump, 0, sizeof buf, &buf));
    const size_t global = N, local = 32;
    for (int s = 0; s < launches; s++) {
        CHECK(clSetKernelArg(bump, 1, sizeof s, &s));
        CHECK(clEnqueueNDRangeKernel(queue, bump, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, sizeof counters, counters, 0, NULL,
                              NULL));

    int bad = 0;
    long total = 0;
    for (int i = 0; i < N; i++) {
        long expected = 0;
        for (int s = 0; s < launches; s++)
            expected += (s + i) & 3;
        if (counters[i] != expected) {
            if (bad < 5)
                fprintf(stderr, "counter %d = %d, expected %ld\n", i, counters[i], expected);
            bad++;
        }
        total += counters[i];
    }

    clReleaseMemObject(buf);
    clReleaseKernel(bump);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);

    if (bad) {
        printf("tiny_launches: FAILED (%d of %d counters differ)\n", bad, N);
        return 1;
    }
    printf("tiny_launches: OK (%d launches of %d work-items, total %ld)\n", launches, N, total);
    return 0;
}
