/* lu_steps: LU factorisation without pivoting of a 512x512 diagonally dominant matrix, one
 * column per step: 511 steps of two kernels (1022 launches), each over the whole matrix
 * with the step as an argument; only the factors are read back, checked against the
 * host's own factorisation. Covers: a program of many launches whose deciding argument
 * changes at every launch (srcsim measures every one), most work-items of a launch doing
 * nothing, and a program that enqueues all its launches far ahead of the device (the
 * records budget, SRCSIM_RECORDS_MIB). An optional argument sets the size (a multiple of
 * 16, at most 2048). */
#include "common.h"

#include <math.h>

static void factor(float *a, int n)
{
    for (int k = 0; k < n - 1; k++) {
        for (int i = k + 1; i < n; i++)
            a[i * n + k] = a[i * n + k] / a[k * n + k];
        for (int i = k + 1; i < n; i++)
            for (int j = k + 1; j < n; j++)
                a[i * n + j] -= a[i * n + k] * a[k * n + j];
    }
}

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 512, 16, 2048);
    const size_t bytes = (size_t)n * n * sizeof(float);
    float *a = malloc(bytes), *host = malloc(bytes), *result = malloc(bytes);
    unsigned seed = 7;
    for (int i = 0; i < n * n; i++)
        a[i] = rand_unit(&seed) + (i % (n + 1) == 0 ? 4.0f * n : 0.0f);
    memcpy(host, a, bytes);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/lu_steps.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel scale = clCreateKernel(program, "lu_scale", &err);
    CHECK(err);
    cl_kernel update = clCreateKernel(program, "lu_update", &err);
    CHECK(err);
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    CHECK(clSetKernelArg(scale, 0, sizeof da, &da));
    CHECK(clSetKernelArg(scale, 1, sizeof n, &n));
    CHECK(clSetKernelArg(update, 0, sizeof da, &da));
    CHECK(clSetKernelArg(update, 1, sizeof n, &n));
    const size_t global1 = n, local1 = 16, global2[2] = {n, n}, local2[2] = {16, 16};
    for (int k = 0; k < n - 1; k++) {
        CHECK(clSetKernelArg(scale, 2, sizeof k, &k));
        CHECK(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global1, &local1, 0, NULL, NULL));
        CHECK(clSetKernelArg(update, 2, sizeof k, &k));
        CHECK(clEnqueueNDRangeKernel(queue, update, 2, NULL, global2, local2, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, da, CL_TRUE, 0, bytes, result, 0, NULL, NULL));

    factor(host, n);
    int bad = 0;
    double logdet = 0.0;
    for (int i = 0; i < n * n; i++) {
        /* The device may fuse a multiply and a subtraction the host rounds apart. */
        if (fabsf(result[i] - host[i]) > 1e-4f * (1.0f + fabsf(host[i]))) {
            if (bad < 5)
                fprintf(stderr, "a[%d] = %g, expected %g\n", i, result[i], host[i]);
            bad++;
        }
    }
    for (int i = 0; i < n; i++)
        logdet += log(fabs(result[i * n + i]));

    clReleaseMemObject(da);
    clReleaseKernel(update);
    clReleaseKernel(scale);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(a);
    free(host);
    free(result);

    if (bad) {
        printf("lu_steps: FAILED (%d of %d entries differ)\n", bad, n * n);
        return 1;
    }
    printf("lu_steps: OK (%dx%d, %d launches, log|det| %.2f)\n", n, n, 2 * (n - 1), logdet);
    return 0;
}
