/* red_black: red-black Gauss-Seidel for a 2D Poisson problem on a 64x48 grid, 400
 * iterations of two sweeps (800 launches of one kernel), the colour passed as an argument
 * that alternates every launch and decides which work-items return at once. Only the
 * final grid is read back and checked against the host's own sweeps. Covers: a kernel
 * whose paths depend on an argument that changes between launches (srcsim measures each
 * colour once and gives the later sweeps of that colour its estimate). An optional
 * argument sets the iterations (a multiple of 10, at most 100000). */
#include "common.h"

#include <math.h>

#define W 64
#define H 48

static void sweep(float *u, const float *f, int colour, float h2)
{
    for (int y = 1; y < H - 1; y++)
        for (int x = 1; x < W - 1; x++)
            if (((x + y) & 1) == colour) {
                int i = y * W + x;
                u[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - W] + u[i + W] + h2 * f[i]);
            }
}

int main(int argc, char **argv)
{
    const int iterations = size_arg(argc, argv, 400, 10, 100000);
    const int width = W, height = H;
    const float h2 = 1.0f / (W * W);
    const size_t count = (size_t)W * H;
    float *u = calloc(count, sizeof(float));
    float *f = malloc(count * sizeof(float));
    float *result = malloc(count * sizeof(float));
    unsigned seed = 5;
    for (size_t i = 0; i < count; i++)
        f[i] = rand_unit(&seed);
    for (int x = 0; x < W; x++)
        u[x] = u[(H - 1) * W + x] = 1.0f;

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/red_black.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "rb_sweep", &err);
    CHECK(err);
    cl_mem ubuf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 count * sizeof(float), u, &err);
    CHECK(err);
    cl_mem fbuf = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 count * sizeof(float), f, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &ubuf));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &fbuf));
    CHECK(clSetKernelArg(kernel, 2, sizeof(int), &width));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &height));
    CHECK(clSetKernelArg(kernel, 5, sizeof(float), &h2));

    const size_t global[2] = {W, H}, local[2] = {32, 4};
    for (int it = 0; it < iterations; it++)
        for (int colour = 0; colour < 2; colour++) {
            CHECK(clSetKernelArg(kernel, 4, sizeof(int), &colour));
            CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, NULL, global, local, 0, NULL, NULL));
        }
    CHECK(clEnqueueReadBuffer(queue, ubuf, CL_TRUE, 0, count * sizeof(float), result, 0, NULL,
                              NULL));

    for (int it = 0; it < iterations; it++)
        for (int colour = 0; colour < 2; colour++)
            sweep(u, f, colour, h2);
    int bad = 0;
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (fabsf(result[i] - u[i]) > 1e-4f * (1.0f + fabsf(u[i]))) {
            if (bad < 5)
                fprintf(stderr, "cell (%zu,%zu) = %g, expected %g\n", i % W, i / W, result[i],
                        u[i]);
            bad++;
        }
        total += result[i];
    }

    clReleaseMemObject(ubuf);
    clReleaseMemObject(fbuf);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(u);
    free(f);
    free(result);

    if (bad) {
        printf("red_black: FAILED (%d of %zu cells differ)\n", bad, count);
        return 1;
    }
    printf("red_black: OK (%dx%d, %d iterations, %d launches, sum=%.3f)\n", W, H, iterations,
           2 * iterations, total);
    return 0;
}
