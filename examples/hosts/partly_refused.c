/* partly_refused: one program of three kernels (kernels/partly_refused.cl), of which
 * srcsim's annotator refuses two (a barrier inside a branch whose condition reads memory;
 * a return inside a macro expansion) and times one. Under the shim the program must compute exactly the same, the
 * launches of `scale` simulated and those of `block_sums` and `shift` reported as not
 * simulated, each with its line and the construct. */
#include "common.h"

#include <math.h>

int main(void)
{
    const int n = 4096;       /* work-items of every launch */
    const int n_shift = 4000; /* elements `shift` moves; the rest return early */
    const size_t local = 64;
    const size_t global = (size_t)n;
    const int groups = n / (int)local;
    const float d = 0.25f;

    float *in = malloc(n * sizeof(float));
    float *out = malloc(n * sizeof(float));
    float *sums = malloc(groups * sizeof(float));
    unsigned seed = 4242;
    for (int i = 0; i < n; i++)
        in[i] = rand_unit(&seed) * 4.0f - 2.0f;

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);

    char *source = read_kernel_file("hosts/kernels/partly_refused.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel scale = create_kernel(program, "scale");
    cl_kernel block_sums = create_kernel(program, "block_sums");
    cl_kernel shift = create_kernel(program, "shift");

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(float), in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(float), NULL, &err);
    CHECK(err);
    cl_mem dsums = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, groups * sizeof(float), NULL, &err);
    CHECK(err);

    /* out = 2 in; sums per work-group of (2 in)^2; out += d below n_shift; out = 2 in
     * again for the first half (a second launch of `scale`, of another size). */
    CHECK(clSetKernelArg(scale, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(scale, 1, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(scale, 2, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &global, &local, 0, NULL, NULL));

    CHECK(clSetKernelArg(block_sums, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(block_sums, 1, sizeof(cl_mem), &dsums));
    CHECK(clSetKernelArg(block_sums, 2, local * sizeof(float), NULL));
    CHECK(clEnqueueNDRangeKernel(queue, block_sums, 1, NULL, &global, &local, 0, NULL, NULL));

    CHECK(clSetKernelArg(shift, 0, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(shift, 1, sizeof(float), &d));
    CHECK(clSetKernelArg(shift, 2, sizeof(int), &n_shift));
    CHECK(clEnqueueNDRangeKernel(queue, shift, 1, NULL, &global, &local, 0, NULL, NULL));

    const int half = n / 2;
    const size_t half_global = (size_t)half;
    CHECK(clSetKernelArg(scale, 2, sizeof(int), &half));
    CHECK(clEnqueueNDRangeKernel(queue, scale, 1, NULL, &half_global, &local, 0, NULL,
                                 NULL));

    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dsums, CL_TRUE, 0, groups * sizeof(float), sums, 0, NULL,
                              NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; i++) {
        float want = in[i] + in[i];
        if (i >= half && i < n_shift)
            want += d;
        if (out[i] != want) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %g, expected %g\n", i, out[i], want);
            bad++;
        }
        checksum += out[i];
    }
    for (int g = 0; g < groups; g++) {
        float want = 0.0f;
        for (int j = 0; j < (int)local; j++) {
            float x = in[g * (int)local + j] + in[g * (int)local + j];
            want += x * x;
        }
        if (fabsf(sums[g] - want) > 1e-4f * fabsf(want)) {
            if (bad < 5)
                fprintf(stderr, "sums[%d] = %g, expected %g\n", g, sums[g], want);
            bad++;
        }
        checksum += sums[g];
    }

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dsums);
    clReleaseKernel(scale);
    clReleaseKernel(block_sums);
    clReleaseKernel(shift);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(in);
    free(out);
    free(sums);

    if (bad) {
        printf("partly_refused: FAILED (%d values differ)\n", bad);
        return 1;
    }
    printf("partly_refused: OK (n=%d, checksum=%.3f)\n", n, checksum);
    return 0;
}
