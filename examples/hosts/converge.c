/* converge: Jacobi iteration on a 2048-unknown tridiagonal system until the largest
 * change of an iteration falls below a tolerance: per iteration two launches (the update,
 * then a work-group max reduction of the change into __local scratch) and a blocking read
 * of the per-group maxima, which the host reduces and tests. Covers: an iterative
 * reduction until convergence (many launches, each iteration synchronised by a blocking
 * read), a __local argument, ping-pong buffers. The host repeats the same float
 * arithmetic and must stop at the same iteration with the same solution. */
#include "common.h"

#include <math.h>

#define N 2048
#define WG 128
#define GROUPS (N / WG)
#define MAX_ITERS 5000

static float max_of(const float *v, int n)
{
    float m = 0.0f;
    for (int i = 0; i < n; i++)
        m = fmaxf(m, v[i]);
    return m;
}

int main(void)
{
    const int n = N;
    const float d = 2.02f, inv_d = 1.0f / d, tolerance = 1e-4f;
    float *b = malloc(N * sizeof(float));
    float *x = calloc(N, sizeof(float));
    float *next = malloc(N * sizeof(float));
    float *result = malloc(N * sizeof(float));
    float partial[GROUPS];
    unsigned seed = 11;
    for (int i = 0; i < N; i++)
        b[i] = rand_unit(&seed);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/converge.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel jacobi = clCreateKernel(program, "jacobi", &err);
    CHECK(err);
    cl_kernel change = clCreateKernel(program, "max_change", &err);
    CHECK(err);
    cl_mem xs[2], bbuf, pbuf;
    for (int k = 0; k < 2; k++) {
        xs[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, N * sizeof(float),
                               x, &err);
        CHECK(err);
    }
    bbuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(float), b,
                          &err);
    CHECK(err);
    pbuf = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, sizeof partial, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(jacobi, 2, sizeof bbuf, &bbuf));
    CHECK(clSetKernelArg(jacobi, 3, sizeof n, &n));
    CHECK(clSetKernelArg(jacobi, 4, sizeof inv_d, &inv_d));
    CHECK(clSetKernelArg(change, 2, sizeof pbuf, &pbuf));
    CHECK(clSetKernelArg(change, 3, WG * sizeof(float), NULL));
    CHECK(clSetKernelArg(change, 4, sizeof n, &n));

    const size_t global = N, local = WG;
    int iters = 0;
    float last = INFINITY;
    while (iters < MAX_ITERS && !(last < tolerance)) {
        cl_mem in = xs[iters % 2], out = xs[(iters + 1) % 2];
        CHECK(clSetKernelArg(jacobi, 0, sizeof in, &in));
        CHECK(clSetKernelArg(jacobi, 1, sizeof out, &out));
        CHECK(clEnqueueNDRangeKernel(queue, jacobi, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clSetKernelArg(change, 0, sizeof in, &in));
        CHECK(clSetKernelArg(change, 1, sizeof out, &out));
        CHECK(clEnqueueNDRangeKernel(queue, change, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, pbuf, CL_TRUE, 0, sizeof partial, partial, 0, NULL,
                                  NULL));
        last = max_of(partial, GROUPS);
        iters++;
    }
    CHECK(clEnqueueReadBuffer(queue, xs[iters % 2], CL_TRUE, 0, N * sizeof(float), result, 0,
                              NULL, NULL));

    /* The same iteration on the host. */
    int host_iters = 0;
    float host_last = INFINITY;
    while (host_iters < MAX_ITERS && !(host_last < tolerance)) {
        host_last = 0.0f;
        for (int i = 0; i < N; i++) {
            float left = i > 0 ? x[i - 1] : 0.0f;
            float right = i < N - 1 ? x[i + 1] : 0.0f;
            next[i] = (b[i] + left + right) * inv_d;
            host_last = fmaxf(host_last, fabsf(next[i] - x[i]));
        }
        float *t = x;
        x = next;
        next = t;
        host_iters++;
    }
    int bad = 0;
    double total = 0.0;
    for (int i = 0; i < N; i++) {
        if (fabsf(result[i] - x[i]) > 1e-5f * (1.0f + fabsf(x[i]))) {
            if (bad < 5)
                fprintf(stderr, "x[%d] = %g, expected %g\n", i, result[i], x[i]);
            bad++;
        }
        total += result[i];
    }

    for (int k = 0; k < 2; k++)
        clReleaseMemObject(xs[k]);
    clReleaseMemObject(bbuf);
    clReleaseMemObject(pbuf);
    clReleaseKernel(jacobi);
    clReleaseKernel(change);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(b);
    free(x);
    free(next);
    free(result);

    if (iters != host_iters || bad || iters == MAX_ITERS) {
        printf("converge: FAILED (%d iterations, the host took %d; %d of %d values differ)\n",
               iters, host_iters, bad, N);
        return 1;
    }
    printf("converge: OK (%d unknowns, %d iterations, %d launches, last change %.2e, sum %.3f)\n",
           N, iters, 2 * iters, last, total);
    return 0;
}
