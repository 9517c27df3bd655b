/* images: kernels that read and write images, as image-processing programs and the
 * OpenCL CTS's image tests do.
 * Covers: a 2D float RGBA image filtered by a 3x1 box through a constant sampler (clamped
 * at the edges) into a second image, and a 3D image written voxel by voxel
 * (cl_khr_3d_image_writes, which the GPU-target compile must be told of). Both read back
 * and checked against the host's own arithmetic; prints their checksums. srcsim times the
 * image built-ins as calls (they have no code for the GPU target) and its report says so.
 * Exit code 3 where the device has no image support. */
#include "common.h"

#include <float.h>
#include <math.h>

#define W 64
#define H 32
#define D 4

int main(void)
{
    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_bool images = CL_FALSE;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, NULL));
    if (!images) {
        fprintf(stderr, "images: the device has no image support\n");
        return 3;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/images.cl");
    cl_program program = build_program(ctx, device, source, "");
    free(source);

    float *in = malloc(W * H * 4 * sizeof(float));
    float *out = malloc(W * H * 4 * sizeof(float));
    for (int i = 0; i < W * H * 4; i++)
        in[i] = (float)((i * 7) % 13);
    const cl_image_format rgba = {CL_RGBA, CL_FLOAT};
    cl_image_desc flat = {0};
    flat.image_type = CL_MEM_OBJECT_IMAGE2D;
    flat.image_width = W;
    flat.image_height = H;
    cl_mem src = clCreateImage(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &rgba, &flat, in,
                               &err);
    CHECK(err);
    cl_mem dst = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &rgba, &flat, NULL, &err);
    CHECK(err);
    cl_kernel box = create_kernel(program, "box3");
    CHECK(clSetKernelArg(box, 0, sizeof(cl_mem), &src));
    CHECK(clSetKernelArg(box, 1, sizeof(cl_mem), &dst));
    const size_t global2[2] = {W, H}, local2[2] = {16, 8};
    CHECK(clEnqueueNDRangeKernel(queue, box, 2, NULL, global2, local2, 0, NULL, NULL));
    const size_t origin[3] = {0, 0, 0}, region2[3] = {W, H, 1};
    CHECK(clEnqueueReadImage(queue, dst, CL_TRUE, origin, region2, 0, 0, out, 0, NULL, NULL));
    int bad = 0;
    double sum2 = 0.0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            for (int c = 0; c < 4; c++) {
                float s = 0.0f;
                for (int dx = -1; dx <= 1; dx++) {
                    int xx = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
                    s += in[(y * W + xx) * 4 + c];
                }
                float want = s / 3.0f, got = out[(y * W + x) * 4 + c];
                // OpenCL C lets single-precision division be off by 2.5 ulp (NVIDIA's
                // is): a few ulp apart is the same result.
                if (fabsf(got - want) > 4 * FLT_EPSILON * fabsf(want) && bad++ < 5)
                    fprintf(stderr, "box3 (%d, %d).%d = %g, expected %g\n", x, y, c, got, want);
                sum2 += got;
            }

    float *vox = malloc(W * H * D * 4 * sizeof(float));
    cl_image_desc deep = flat;
    deep.image_type = CL_MEM_OBJECT_IMAGE3D;
    deep.image_depth = D;
    cl_mem vol = clCreateImage(ctx, CL_MEM_WRITE_ONLY, &rgba, &deep, NULL, &err);
    CHECK(err);
    cl_kernel fill = create_kernel(program, "fill3d");
    CHECK(clSetKernelArg(fill, 0, sizeof(cl_mem), &vol));
    const size_t global3[3] = {W, H, D}, local3[3] = {16, 4, 1};
    CHECK(clEnqueueNDRangeKernel(queue, fill, 3, NULL, global3, local3, 0, NULL, NULL));
    const size_t region3[3] = {W, H, D};
    CHECK(clEnqueueReadImage(queue, vol, CL_TRUE, origin, region3, 0, 0, vox, 0, NULL, NULL));
    double sum3 = 0.0;
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                const float *v = &vox[((z * H + y) * W + x) * 4];
                float want[4] = {(float)x, (float)y, (float)z, (float)(x + y + z)};
                for (int c = 0; c < 4; c++) {
                    if (v[c] != want[c] && bad++ < 5)
                        fprintf(stderr, "fill3d (%d, %d, %d).%d = %g, expected %g\n", x, y,
                                z, c, v[c], want[c]);
                    sum3 += v[c];
                }
            }
    printf("images: box3 checksum %.3f, fill3d checksum %.1f\n", sum2, sum3);

    clReleaseKernel(fill);
    clReleaseKernel(box);
    clReleaseMemObject(vol);
    clReleaseMemObject(dst);
    clReleaseMemObject(src);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(vox);
    free(out);
    free(in);
    return bad ? 1 : 0;
}
