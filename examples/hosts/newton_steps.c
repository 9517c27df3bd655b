/* newton_steps: 2000 implicit Euler steps of 4096 independent stiff decays
 * (kernels/newton_steps.cl), one launch of 4096 work-items a step, each solving its step
 * by Newton's method until its update is small: a loop whose trip count each work-item's
 * data decides. Only the final state and the iteration counts are read back, checked
 * against the host's own steps. Covers many small launches of a kernel whose loop exits on
 * its data (srcsim measures every launch), enqueued far ahead of the device. An optional
 * argument sets the steps. */
#include "common.h"

#include <math.h>

#define N 4096
#define WG 64

int main(int argc, char **argv)
{
    const int steps = size_arg(argc, argv, 2000, 1, 100000);
    const int n = N;
    float *y = malloc(N * sizeof(float)), *k = malloc(N * sizeof(float));
    float *s = malloc(N * sizeof(float)), *result = malloc(N * sizeof(float));
    int *iters = calloc(N, sizeof(int)), *host_iters = calloc(N, sizeof(int));
    unsigned seed = 3;
    for (int i = 0; i < N; i++) {
        y[i] = 4.0f * rand_unit(&seed);
        k[i] = 50.0f * rand_unit(&seed) * rand_unit(&seed);
        s[i] = 2.0f * rand_unit(&seed) - 1.0f;
    }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/newton_steps.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel step = create_kernel(program, "implicit_step");
    const cl_mem_flags copy = CL_MEM_COPY_HOST_PTR;
    cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE | copy, N * sizeof(float), y, &err);
    CHECK(err);
    cl_mem dk = clCreateBuffer(ctx, CL_MEM_READ_ONLY | copy, N * sizeof(float), k, &err);
    CHECK(err);
    cl_mem ds = clCreateBuffer(ctx, CL_MEM_READ_ONLY | copy, N * sizeof(float), s, &err);
    CHECK(err);
    cl_mem dit = clCreateBuffer(ctx, CL_MEM_READ_WRITE | copy, N * sizeof(int), iters, &err);
    CHECK(err);
    const float h = 0.01f;
    CHECK(clSetKernelArg(step, 0, sizeof dy, &dy));
    CHECK(clSetKernelArg(step, 1, sizeof dk, &dk));
    CHECK(clSetKernelArg(step, 2, sizeof ds, &ds));
    CHECK(clSetKernelArg(step, 3, sizeof dit, &dit));
    CHECK(clSetKernelArg(step, 4, sizeof h, &h));
    CHECK(clSetKernelArg(step, 5, sizeof n, &n));
    const size_t global = N, local = WG;
    for (int t = 0; t < steps; t++)
        CHECK(clEnqueueNDRangeKernel(queue, step, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, N * sizeof(float), result, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dit, CL_TRUE, 0, N * sizeof(int), iters, 0, NULL, NULL));

    /* The host's steps, the same arithmetic. */
    for (int t = 0; t < steps; t++)
        for (int i = 0; i < N; i++) {
            float y0 = y[i], y1 = y0;
            int it = 0;
            while (it < 50) {
                float g = y1 - y0 - h * (s[i] - k[i] * y1 * y1 * y1 - y1);
                float dg = 1.0f + h * (3.0f * k[i] * y1 * y1 + 1.0f);
                float d = g / dg;
                y1 -= d;
                it++;
                if (fabsf(d) < 1e-6f * (1.0f + fabsf(y1)))
                    break;
            }
            y[i] = y1;
            host_iters[i] += it;
        }
    int bad = 0;
    long long total = 0;
    double sum = 0.0;
    for (int i = 0; i < N; i++) {
        if (fabsf(result[i] - y[i]) > 1e-4f * (1.0f + fabsf(y[i]))) {
            if (bad < 5)
                fprintf(stderr, "y[%d] = %g, expected %g\n", i, result[i], y[i]);
            bad++;
        }
        total += iters[i];
        sum += result[i];
    }

    clReleaseMemObject(dy);
    clReleaseMemObject(dk);
    clReleaseMemObject(ds);
    clReleaseMemObject(dit);
    clReleaseKernel(step);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(y);
    free(k);
    free(s);
    free(result);
    free(iters);
    free(host_iters);

    if (bad) {
        printf("newton_steps: FAILED (%d of %d values differ)\n", bad, N);
        return 1;
    }
    printf("newton_steps: OK (%d elements, %d steps, %lld Newton iterations, sum %.4f)\n", N,
           steps, total, sum);
    return 0;
}
