/* diffusion: edge-preserving smoothing of a 500x460 image by nonlinear diffusion
 * (kernels/diffusion.cl), 100 iterations of two kernels (200 launches): a conductance per
 * pixel from its differences, clamped on the image's values, then the update into the
 * other of two images, clamped to [0, 255]; the NDRange is the image rounded up to 16x16
 * work-groups, and the diffusion constant shrinks each iteration (a value argument new at
 * every launch). Only the last image is read back, checked against the host's own
 * iterations. Covers kernels whose branches read the image (srcsim measures every launch)
 * over a few hundred thousand work-items, enqueued far ahead of the device. An optional
 * argument sets the iterations. */
#include "common.h"

#include <math.h>

#define W 500
#define H 460
#define TILE 16

static float clamp01(float c) { return c < 0.0f ? 0.0f : c > 1.0f ? 1.0f : c; }

static void host_iteration(const float *img, float *cond, float *next, float kappa2,
                           float lambda)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            float v = img[i];
            float n = img[y > 0 ? i - W : i] - v, s = img[y < H - 1 ? i + W : i] - v;
            float w = img[x > 0 ? i - 1 : i] - v, e = img[x < W - 1 ? i + 1 : i] - v;
            float grad2 = n * n + s * s + w * w + e * e;
            cond[i] = clamp01(1.0f - grad2 / (kappa2 * (v * v + 1.0f)));
        }
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int i = y * W + x;
            float v = img[i], c = cond[i];
            int n = y > 0 ? i - W : i, s = y < H - 1 ? i + W : i;
            int w = x > 0 ? i - 1 : i, e = x < W - 1 ? i + 1 : i;
            float flux = c * (img[n] - v) + cond[s] * (img[s] - v) + c * (img[w] - v) +
                         cond[e] * (img[e] - v);
            float out = v + lambda * flux;
            next[i] = out < 0.0f ? 0.0f : out > 255.0f ? 255.0f : out;
        }
}

int main(int argc, char **argv)
{
    const int iters = size_arg(argc, argv, 100, 1, 10000);
    const int width = W, height = H;
    const size_t bytes = (size_t)W * H * sizeof(float);
    float *img = malloc(bytes), *next = malloc(bytes), *cond = malloc(bytes);
    float *result = malloc(bytes);
    /* Bright and dark blocks with soft gradients, and noise. */
    unsigned seed = 23;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float base = ((x / 50 + y / 46) % 3) * 90.0f + 0.1f * x;
            img[y * W + x] = base + 20.0f * rand_unit(&seed);
        }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/diffusion.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel conductance = create_kernel(program, "conductance");
    cl_kernel diffuse = create_kernel(program, "diffuse");
    cl_mem imgs[2], dcond;
    for (int k = 0; k < 2; k++) {
        imgs[k] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, img, &err);
        CHECK(err);
    }
    dcond = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    const float lambda = 0.2f;
    CHECK(clSetKernelArg(conductance, 1, sizeof dcond, &dcond));
    CHECK(clSetKernelArg(conductance, 2, sizeof width, &width));
    CHECK(clSetKernelArg(conductance, 3, sizeof height, &height));
    CHECK(clSetKernelArg(diffuse, 1, sizeof dcond, &dcond));
    CHECK(clSetKernelArg(diffuse, 3, sizeof width, &width));
    CHECK(clSetKernelArg(diffuse, 4, sizeof height, &height));
    CHECK(clSetKernelArg(diffuse, 5, sizeof lambda, &lambda));
    const size_t global[2] = {(W + TILE - 1) / TILE * TILE, (H + TILE - 1) / TILE * TILE};
    const size_t local[2] = {TILE, TILE};
    for (int it = 0; it < iters; it++) {
        float kappa2 = 0.05f / (1.0f + 0.02f * it);
        cl_mem in = imgs[it % 2], out = imgs[(it + 1) % 2];
        CHECK(clSetKernelArg(conductance, 0, sizeof in, &in));
        CHECK(clSetKernelArg(conductance, 4, sizeof kappa2, &kappa2));
        CHECK(clEnqueueNDRangeKernel(queue, conductance, 2, NULL, global, local, 0, NULL, NULL));
        CHECK(clSetKernelArg(diffuse, 0, sizeof in, &in));
        CHECK(clSetKernelArg(diffuse, 2, sizeof out, &out));
        CHECK(clEnqueueNDRangeKernel(queue, diffuse, 2, NULL, global, local, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, imgs[iters % 2], CL_TRUE, 0, bytes, result, 0, NULL,
                              NULL));

    for (int it = 0; it < iters; it++) {
        host_iteration(img, cond, next, 0.05f / (1.0f + 0.02f * it), lambda);
        float *t = img;
        img = next;
        next = t;
    }
    int bad = 0, clamped = 0;
    double sum = 0.0;
    for (int i = 0; i < W * H; i++) {
        /* The device may contract a multiply and an add the host rounds apart. */
        if (fabsf(result[i] - img[i]) > 1e-2f) {
            if (bad < 5)
                fprintf(stderr, "pixel %d = %g, expected %g\n", i, result[i], img[i]);
            bad++;
        }
        clamped += result[i] == 0.0f || result[i] == 255.0f;
        sum += result[i];
    }

    for (int k = 0; k < 2; k++)
        clReleaseMemObject(imgs[k]);
    clReleaseMemObject(dcond);
    clReleaseKernel(conductance);
    clReleaseKernel(diffuse);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(img);
    free(next);
    free(cond);
    free(result);

    if (bad) {
        printf("diffusion: FAILED (%d of %d pixels differ)\n", bad, W * H);
        return 1;
    }
    printf("diffusion: OK (%dx%d, %d iterations, %d launches, mean %.2f, %d clamped)\n", W, H,
           iters, 2 * iters, sum / (W * H), clamped);
    return 0;
}
