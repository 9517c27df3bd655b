/* reduction: sum of n ints.
 * Covers: __local memory passed as a kernel argument (clSetKernelArg with a size and a
 * NULL value), barriers in a loop, the same kernel launched twice (the second launch
 * reduces the first launch's per-group partial sums with a single work-group), kernel file
 * read at run time, exact integer check. */
#include "common.h"

int main(void)
{
    const int n = 65536;
    const size_t local = 128;
    const int groups1 = (int)(((size_t)n + 2 * local - 1) / (2 * local)); /* 256 */
    const size_t global1 = (size_t)groups1 * local;
    const size_t global2 = local; /* one group, 2 * local >= groups1 */

    int *data = malloc(n * sizeof(int));
    unsigned seed = 777;
    long long want = 0;
    for (int i = 0; i < n; i++) {
        data[i] = (int)(next_rand(&seed) % 2001) - 1000;
        want += data[i];
    }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/reduction.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "reduce_sum", &err);
    CHECK(err);

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(int), data, &err);
    CHECK(err);
    cl_mem dpartial = clCreateBuffer(ctx, CL_MEM_READ_WRITE, groups1 * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dtotal = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof(int), NULL, &err);
    CHECK(err);

    /* Pass 1: n elements -> groups1 partial sums. */
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dpartial));
    CHECK(clSetKernelArg(kernel, 2, local * sizeof(int), NULL));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global1, &local, 0, NULL, NULL));

    /* Pass 2: groups1 partial sums -> 1. */
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dpartial));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dtotal));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &groups1));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global2, &local, 0, NULL, NULL));

    int *partial = malloc(groups1 * sizeof(int));
    int total = 0;
    CHECK(clEnqueueReadBuffer(queue, dpartial, CL_FALSE, 0, groups1 * sizeof(int), partial,
                              0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dtotal, CL_FALSE, 0, sizeof(int), &total, 0, NULL, NULL));
    CHECK(clFinish(queue));

    int bad = 0;
    for (int g = 0; g < groups1; g++) {
        int w = 0;
        for (int i = g * 2 * (int)local; i < (g + 1) * 2 * (int)local && i < n; i++)
            w += data[i];
        if (partial[g] != w) {
            if (bad < 5)
                fprintf(stderr, "partial[%d] = %d, expected %d\n", g, partial[g], w);
            bad++;
        }
    }

    clReleaseMemObject(din);
    clReleaseMemObject(dpartial);
    clReleaseMemObject(dtotal);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(partial);
    free(data);

    if (bad || total != want) {
        printf("reduction: FAILED (sum=%d, expected %lld; %d partial sums differ)\n", total,
               want, bad);
        return 1;
    }
    printf("reduction: OK (n=%d, groups=%d, sum=%d)\n", n, groups1, total);
    return 0;
}
