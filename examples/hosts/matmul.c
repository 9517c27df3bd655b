/* matmul: C = A * B for n x n float matrices.
 * Covers: examples/kernels/matmul_tiled.cl read at run time, built with "-D TILE=16"; a 2D
 * NDRange with a TILE x TILE local size; static __local tiles with two barriers per tile;
 * float check against a double-precision host product with a tolerance. */
#include "common.h"

#include <math.h>

#define TILE 16

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 160, TILE, 4096); /* n x n matrices */
    const size_t global[2] = {(size_t)n, (size_t)n};
    const size_t local[2] = {TILE, TILE};
    const size_t bytes = (size_t)n * n * sizeof(float);

    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    unsigned seed = 31337;
    for (int i = 0; i < n * n; i++) {
        a[i] = rand_unit(&seed) * 2.0f - 1.0f;
        b[i] = rand_unit(&seed) * 2.0f - 1.0f;
    }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("kernels/matmul_tiled.cl");
    char options[32];
    snprintf(options, sizeof options, "-D TILE=%d", TILE);
    cl_program program = build_program(ctx, device, source, options);
    cl_kernel kernel = clCreateKernel(program, "matmul_tiled", &err);
    CHECK(err);

    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
    CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dc));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, bytes, c, 0, NULL, NULL));

    int bad = 0;
    double trace = 0.0;
    for (int row = 0; row < n; row++)
        for (int col = 0; col < n; col++) {
            double want = 0.0, mag = 0.0;
            for (int k = 0; k < n; k++) {
                double p = (double)a[row * n + k] * b[k * n + col];
                want += p;
                mag += fabs(p);
            }
            float got = c[row * n + col];
            if (fabs(got - want) > 1e-5 * mag + 1e-6) {
                if (bad < 5)
                    fprintf(stderr, "C[%d][%d] = %g, expected %g\n", row, col, got, want);
                bad++;
            }
            if (row == col)
                trace += got;
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
        printf("matmul: FAILED (%d of %d entries differ)\n", bad, n * n);
        return 1;
    }
    printf("matmul: OK (n=%d, TILE=%d, trace=%.4f)\n", n, TILE, trace);
    return 0;
}
