/* microbenchmark: the paper's microbenchmark (Gerum et al. 2015, Figure 2): one work-group
 * of 1, 32, 64, ..., 1024 work-items, each running a loop of 30 dependent float divisions
 * (examples/kernels/div_chain.cl). Under srcsim, the estimates per size show the latency-
 * bound plateau and the linear growth once the SFU saturates (scripts/plot-microbenchmark).
 * Covers: one kernel launched with many local sizes, a scalar float and int argument. */
#include "common.h"
#include <math.h>

int main(void)
{
    const int iterations = 4;
    const float d = 1.0001f;
    float host[1024];

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("kernels/div_chain.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "div_chain", &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof host, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof buf, &buf));
    CHECK(clSetKernelArg(kernel, 1, sizeof d, &d));
    CHECK(clSetKernelArg(kernel, 2, sizeof iterations, &iterations));

    for (size_t n = 0; n <= 1024; n += (n == 0 ? 1 : (n == 1 ? 31 : 32))) {
        if (n == 0)
            continue;
        for (size_t i = 0; i < n; i++)
            host[i] = (float)(i + 1);
        CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, n * sizeof(float), host, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &n, &n, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(float), host, 0, NULL, NULL));
        for (size_t i = 0; i < n; i++) {
            float x = (float)(i + 1);
            for (int k = 0; k < 30 * iterations; k++)
                x = x / d;
            if (fabsf(host[i] - x) > 1e-4f * x) {
                printf("microbenchmark: work-item %zu of %zu: %g, expected %g\n", i, n, host[i], x);
                return 1;
            }
        }
    }
    printf("microbenchmark: OK (work-groups of 1, 32, ..., 1024)\n");
    clReleaseMemObject(buf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    return 0;
}
