/* heat_steps: a time-stepped 2D heat simulation, 1000 steps of three small kernels (3000
 * launches) on a 64x48 float grid: the interior update (ping-pong buffers, arguments
 * swapped every step), a fixed border and a heat source. Only the final grid is read
 * back. Covers: a program whose time is mostly launch overhead (many launches of small
 * kernels on one in-order queue, no host synchronisation between them), 2D NDRanges
 * with and without an explicit local size, arguments set once and swapped per launch. An
 * optional argument sets the steps (a multiple of 10, at most 100000). */
#include "common.h"

#include <math.h>

#ifndef W
#define W 64
#endif
#ifndef H
#define H 48
#endif
#define SRC_X 20
#define SRC_Y 14
#define SRC 4

static void reference(float *grid, float *next, int steps, float alpha, float edge, float amount)
{
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < H - 1; y++)
            for (int x = 1; x < W - 1; x++) {
                int i = y * W + x;
                float c = grid[i];
                float lap = grid[i - 1] + grid[i + 1] + grid[i - W] + grid[i + W] - 4.0f * c;
                next[i] = c + alpha * lap;
            }
        for (int x = 0; x < W; x++)
            next[x] = next[(H - 1) * W + x] = edge;
        for (int y = 1; y < H - 1; y++)
            next[y * W] = next[y * W + W - 1] = edge;
        for (int dy = 0; dy < SRC; dy++)
            for (int dx = 0; dx < SRC; dx++)
                next[(SRC_Y + dy) * W + SRC_X + dx] += amount;
        memcpy(grid, next, sizeof(float) * W * H);
    }
}

int main(int argc, char **argv)
{
    const int steps = size_arg(argc, argv, 1000, 10, 100000);
    const int width = W, height = H, cx = SRC_X, cy = SRC_Y;
    const float alpha = 0.2f, edge = 1.0f, amount = 0.05f;
    const size_t count = (size_t)W * H;
    float *grid = malloc(count * sizeof(float));
    float *next = malloc(count * sizeof(float));
    float *result = malloc(count * sizeof(float));
    unsigned seed = 77;
    for (size_t i = 0; i < count; i++)
        grid[i] = rand_unit(&seed);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/heat_steps.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel diffuse = clCreateKernel(program, "diffuse", &err);
    CHECK(err);
    cl_kernel border = clCreateKernel(program, "border", &err);
    CHECK(err);
    cl_kernel inject = clCreateKernel(program, "inject", &err);
    CHECK(err);

    cl_mem bufs[2];
    for (int b = 0; b < 2; b++) {
        bufs[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                 count * sizeof(float), grid, &err);
        CHECK(err);
    }
    CHECK(clSetKernelArg(diffuse, 2, sizeof(int), &width));
    CHECK(clSetKernelArg(diffuse, 3, sizeof(int), &height));
    CHECK(clSetKernelArg(diffuse, 4, sizeof(float), &alpha));
    CHECK(clSetKernelArg(border, 1, sizeof(int), &width));
    CHECK(clSetKernelArg(border, 2, sizeof(int), &height));
    CHECK(clSetKernelArg(border, 3, sizeof(float), &edge));
    CHECK(clSetKernelArg(inject, 1, sizeof(int), &width));
    CHECK(clSetKernelArg(inject, 2, sizeof(int), &cx));
    CHECK(clSetKernelArg(inject, 3, sizeof(int), &cy));
    CHECK(clSetKernelArg(inject, 4, sizeof(float), &amount));

    const size_t global[2] = {W, H}, local[2] = {16, 16};
    const size_t border_items = 2 * W + 2 * (H - 2);
    const size_t border_global = (border_items + 63) / 64 * 64, border_local = 64;
    const size_t source_global[2] = {SRC, SRC};
    for (int s = 0; s < steps; s++) {
        cl_mem out = bufs[(s + 1) % 2];
        CHECK(clSetKernelArg(diffuse, 0, sizeof(cl_mem), &bufs[s % 2]));
        CHECK(clSetKernelArg(diffuse, 1, sizeof(cl_mem), &out));
        CHECK(clEnqueueNDRangeKernel(queue, diffuse, 2, NULL, global, local, 0, NULL, NULL));
        CHECK(clSetKernelArg(border, 0, sizeof(cl_mem), &out));
        CHECK(clEnqueueNDRangeKernel(queue, border, 1, NULL, &border_global, &border_local, 0,
                                     NULL, NULL));
        CHECK(clSetKernelArg(inject, 0, sizeof(cl_mem), &out));
        CHECK(clEnqueueNDRangeKernel(queue, inject, 2, NULL, source_global, NULL, 0, NULL,
                                     NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, bufs[steps % 2], CL_TRUE, 0, count * sizeof(float),
                              result, 0, NULL, NULL));

    reference(grid, next, steps, alpha, edge, amount);
    int bad = 0;
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (fabsf(result[i] - grid[i]) > 1e-3f * (1.0f + fabsf(grid[i]))) {
            if (bad < 5)
                fprintf(stderr, "cell (%zu,%zu) = %g, expected %g\n", i % W, i / W, result[i],
                        grid[i]);
            bad++;
        }
        total += result[i];
    }

    for (int b = 0; b < 2; b++)
        clReleaseMemObject(bufs[b]);
    clReleaseKernel(diffuse);
    clReleaseKernel(border);
    clReleaseKernel(inject);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(grid);
    free(next);
    free(result);

    if (bad) {
        printf("heat_steps: FAILED (%d of %zu cells differ)\n", bad, count);
        return 1;
    }
    printf("heat_steps: OK (%dx%d, %d steps, 3 kernels, %d launches, heat=%.2f)\n", W, H,
           steps, 3 * steps, total);
    return 0;
}
