/* histogram: 64-bin histogram of n signed ints.
 * Covers: 32-bit integer atomics on __local (atomic_inc, atomic_min, atomic_max) and on
 * __global memory (atomic_add, atomic_inc, atomic_min, atomic_max), a grid-stride loop
 * (fewer work-items than elements), clEnqueueFillBuffer to clear the bins, a build option
 * (-D NBINS=64), kernel file read at run time, exact integer check. */
#include "common.h"

#include <limits.h>

#define NBINS 64

int main(void)
{
    const int n = 100000;
    const int lo = -2000, hi = 2000;
    const size_t local = 64;
    const size_t global = 32 * local;

    int *data = malloc(n * sizeof(int));
    unsigned seed = 99;
    for (int i = 0; i < n; i++) {
        /* Roughly bell-shaped, with a few values outside [lo, hi). */
        int v = 0;
        for (int k = 0; k < 4; k++)
            v += (int)(next_rand(&seed) % 1201) - 600;
        data[i] = v;
    }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/histogram.cl");
    char options[64];
    snprintf(options, sizeof options, "-D NBINS=%d", NBINS);
    cl_program program = build_program(ctx, device, source, options);
    cl_kernel kernel = clCreateKernel(program, "histogram", &err);
    CHECK(err);

    cl_mem ddata = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  n * sizeof(int), data, &err);
    CHECK(err);
    cl_mem dbins = clCreateBuffer(ctx, CL_MEM_READ_WRITE, NBINS * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem doutside = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dminmax = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 2 * sizeof(int), NULL, &err);
    CHECK(err);

    const int zero = 0;
    const int minmax_init[2] = {INT_MAX, INT_MIN};
    CHECK(clEnqueueFillBuffer(queue, dbins, &zero, sizeof zero, 0, NBINS * sizeof(int), 0,
                              NULL, NULL));
    CHECK(clEnqueueFillBuffer(queue, doutside, &zero, sizeof zero, 0, sizeof(int), 0, NULL,
                              NULL));
    CHECK(clEnqueueWriteBuffer(queue, dminmax, CL_FALSE, 0, sizeof minmax_init, minmax_init,
                               0, NULL, NULL));

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &ddata));
    CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
    CHECK(clSetKernelArg(kernel, 2, sizeof(int), &lo));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &hi));
    CHECK(clSetKernelArg(kernel, 4, sizeof(cl_mem), &dbins));
    CHECK(clSetKernelArg(kernel, 5, sizeof(cl_mem), &doutside));
    CHECK(clSetKernelArg(kernel, 6, sizeof(cl_mem), &dminmax));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));

    int bins[NBINS], outside = 0, minmax[2];
    CHECK(clEnqueueReadBuffer(queue, dbins, CL_FALSE, 0, sizeof bins, bins, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, doutside, CL_FALSE, 0, sizeof outside, &outside, 0, NULL,
                              NULL));
    CHECK(clEnqueueReadBuffer(queue, dminmax, CL_FALSE, 0, sizeof minmax, minmax, 0, NULL,
                              NULL));
    CHECK(clFinish(queue));

    int want_bins[NBINS] = {0}, want_outside = 0, want_min = INT_MAX, want_max = INT_MIN;
    for (int i = 0; i < n; i++) {
        int v = data[i];
        if (v < want_min)
            want_min = v;
        if (v > want_max)
            want_max = v;
        if (v < lo || v >= hi)
            want_outside++;
        else
            want_bins[(int)(((long long)(v - lo) * NBINS) / (hi - lo))]++;
    }
    int bad = 0;
    for (int b = 0; b < NBINS; b++) {
        if (bins[b] != want_bins[b]) {
            if (bad < 5)
                fprintf(stderr, "bin %d = %d, expected %d\n", b, bins[b], want_bins[b]);
            bad++;
        }
    }
    if (outside != want_outside || minmax[0] != want_min || minmax[1] != want_max) {
        fprintf(stderr, "outside/min/max = %d/%d/%d, expected %d/%d/%d\n", outside, minmax[0],
                minmax[1], want_outside, want_min, want_max);
        bad++;
    }

    clReleaseMemObject(ddata);
    clReleaseMemObject(dbins);
    clReleaseMemObject(doutside);
    clReleaseMemObject(dminmax);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(data);

    if (bad) {
        printf("histogram: FAILED (%d mismatches)\n", bad);
        return 1;
    }
    printf("histogram: OK (n=%d, bins=%d, outside=%d, min=%d, max=%d)\n", n, NBINS, outside,
           minmax[0], minmax[1]);
    return 0;
}
