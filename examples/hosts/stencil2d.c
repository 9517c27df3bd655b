/* stencil2d: a few Jacobi steps of the 2D heat equation on a width x height float grid.
 * Covers: a 2D NDRange with an explicit 16x16 local size and a global work offset of
 * {1,1} (only the interior is launched), a 5-point stencil, the same kernel launched
 * several times with its buffer arguments swapped (ping-pong), clEnqueueCopyBuffer,
 * kernel file read at run time, float check with a tolerance. */
#include "common.h"

#include <math.h>

int main(void)
{
    const int width = 258, height = 130; /* interior 256 x 128 */
    const int steps = 6;
    const float alpha = 0.2f;
    const size_t count = (size_t)width * height;
    const size_t offset[2] = {1, 1};
    const size_t global[2] = {(size_t)width - 2, (size_t)height - 2};
    const size_t local[2] = {16, 16};

    float *grid = malloc(count * sizeof(float));
    float *ref = malloc(count * sizeof(float));
    float *tmp = malloc(count * sizeof(float));
    float *result = malloc(count * sizeof(float));
    unsigned seed = 2024;
    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) {
            float hot = (x > width / 3 && x < width / 2 && y > height / 4 && y < height / 2)
                            ? 100.0f
                            : 0.0f;
            grid[y * width + x] = hot + rand_unit(&seed);
        }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/stencil2d.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "heat_step", &err);
    CHECK(err);

    cl_mem bufs[2];
    bufs[0] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                             count * sizeof(float), grid, &err);
    CHECK(err);
    bufs[1] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, count * sizeof(float), NULL, &err);
    CHECK(err);
    /* Both buffers need the fixed border. */
    CHECK(clEnqueueCopyBuffer(queue, bufs[0], bufs[1], 0, 0, count * sizeof(float), 0, NULL,
                              NULL));

    CHECK(clSetKernelArg(kernel, 2, sizeof(int), &width));
    CHECK(clSetKernelArg(kernel, 3, sizeof(float), &alpha));
    for (int s = 0; s < steps; s++) {
        CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &bufs[s % 2]));
        CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &bufs[(s + 1) % 2]));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 2, offset, global, local, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, bufs[steps % 2], CL_TRUE, 0, count * sizeof(float),
                              result, 0, NULL, NULL));

    memcpy(ref, grid, count * sizeof(float));
    memcpy(tmp, grid, count * sizeof(float));
    for (int s = 0; s < steps; s++) {
        for (int y = 1; y < height - 1; y++)
            for (int x = 1; x < width - 1; x++) {
                int i = y * width + x;
                float c = ref[i];
                float lap = ref[i - 1] + ref[i + 1] + ref[i - width] + ref[i + width] - 4.0f * c;
                tmp[i] = c + alpha * lap;
            }
        float *t = ref;
        ref = tmp;
        tmp = t;
    }

    int bad = 0;
    double total = 0.0;
    for (size_t i = 0; i < count; i++) {
        if (fabsf(result[i] - ref[i]) > 1e-4f * (1.0f + fabsf(ref[i]))) {
            if (bad < 5)
                fprintf(stderr, "cell (%zu,%zu) = %g, expected %g\n", i % width, i / width,
                        result[i], ref[i]);
            bad++;
        }
        total += result[i];
    }

    clReleaseMemObject(bufs[0]);
    clReleaseMemObject(bufs[1]);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(grid);
    free(ref);
    free(tmp);
    free(result);

    if (bad) {
        printf("stencil2d: FAILED (%d of %zu cells differ)\n", bad, count);
        return 1;
    }
    printf("stencil2d: OK (%dx%d, offset {1,1}, %d steps, heat=%.3f)\n", width, height, steps,
           total);
    return 0;
}
