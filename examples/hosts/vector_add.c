/* vector_add: c = a + b over n floats.
 * Covers: the kernel file examples/kernels/vector_add.cl read at run time, a 1D NDRange
 * with an explicit local size (global size rounded up to a multiple of it, the kernel's
 * guard skips the extra work-items), CL_MEM_COPY_HOST_PTR buffers, blocking read. */
#include "common.h"

int main(void)
{
    const int n = 100000;
    const size_t local = 128;
    const size_t global = ((size_t)n + local - 1) / local * local;

    float *a = malloc(n * sizeof(float));
    float *b = malloc(n * sizeof(float));
    float *c = malloc(n * sizeof(float));
    unsigned seed = 12345;
    for (int i = 0; i < n; i++) {
        a[i] = rand_unit(&seed) * 100.0f;
        b[i] = rand_unit(&seed) - 0.5f;
    }

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);

    char *source = read_kernel_file("kernels/vector_add.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "vector_add", &err);
    CHECK(err);

    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               n * sizeof(float), a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               n * sizeof(float), b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
    CHECK(err);

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
    CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, n * sizeof(float), c, 0, NULL, NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; i++) {
        float want = a[i] + b[i];
        if (c[i] != want) {
            if (bad < 5)
                fprintf(stderr, "c[%d] = %g, expected %g\n", i, c[i], want);
            bad++;
        }
        checksum += c[i];
    }

    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(a);
    free(b);
    free(c);

    if (bad) {
        printf("vector_add: FAILED (%d of %d elements differ)\n", bad, n);
        return 1;
    }
    printf("vector_add: OK (n=%d, local=%zu, checksum=%.3f)\n", n, local, checksum);
    return 0;
}
