/* volume3d: 3x3x3 box filter of a float volume with clamp-to-edge borders.
 * Covers: a 3D NDRange with a NULL local size (the implementation picks the work-group
 * shape), get_global_id/get_global_size in three dimensions, clamp() on ints, triple
 * nested loops, kernel file read at run time, float check with a tolerance. */
#include "common.h"

#include <math.h>

static int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

int main(int argc, char **argv)
{
    const int nx = 48, ny = 40, nz = size_arg(argc, argv, 24, 1, 4096); /* depth */
    const size_t count = (size_t)nx * ny * nz;
    const size_t global[3] = {(size_t)nx, (size_t)ny, (size_t)nz};

    float *in = malloc(count * sizeof(float));
    float *out = malloc(count * sizeof(float));
    unsigned seed = 303;
    for (size_t i = 0; i < count; i++)
        in[i] = rand_unit(&seed) * 10.0f;

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/volume3d.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "box_filter3d", &err);
    CHECK(err);

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                count * sizeof(float), in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, count * sizeof(float), NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dout));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 3, NULL, global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, count * sizeof(float), out, 0, NULL,
                              NULL));

    int bad = 0;
    double total = 0.0;
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                double sum = 0.0;
                for (int dz = -1; dz <= 1; dz++)
                    for (int dy = -1; dy <= 1; dy++)
                        for (int dx = -1; dx <= 1; dx++)
                            sum += in[(clampi(z + dz, 0, nz - 1) * ny + clampi(y + dy, 0, ny - 1)) *
                                          nx +
                                      clampi(x + dx, 0, nx - 1)];
                double want = sum / 27.0;
                float got = out[(z * ny + y) * nx + x];
                if (fabs(got - want) > 1e-4 * (1.0 + fabs(want))) {
                    if (bad < 5)
                        fprintf(stderr, "voxel (%d,%d,%d) = %g, expected %g\n", x, y, z, got,
                                want);
                    bad++;
                }
                total += got;
            }

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(in);
    free(out);

    if (bad) {
        printf("volume3d: FAILED (%d of %zu voxels differ)\n", bad, count);
        return 1;
    }
    printf("volume3d: OK (%dx%dx%d, local size NULL, mean=%.5f)\n", nx, ny, nz,
           total / (double)count);
    return 0;
}
