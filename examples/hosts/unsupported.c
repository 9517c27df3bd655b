/* unsupported: out = in * k over n floats, with a kernel srcsim cannot annotate.
 * Covers: a kernel whose early return stands inside a macro expansion
 * (kernels/guarded_scale.cl), which the annotator refuses: under the shim the program
 * must compute exactly the same, its launch reported as not simulated, with the reason. */
#include "common.h"

int main(void)
{
    const int n = 5000;
    const float k = 1.5f;
    const size_t local = 64;
    const size_t global = ((size_t)n + local - 1) / local * local;

    float *in = malloc(n * sizeof(float));
    float *out = malloc(n * sizeof(float));
    unsigned seed = 777;
    for (int i = 0; i < n; i++)
        in[i] = rand_unit(&seed) * 10.0f - 5.0f;

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);

    char *source = read_kernel_file("hosts/kernels/guarded_scale.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "guarded_scale", &err);
    CHECK(err);

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(float), in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(float), NULL, &err);
    CHECK(err);

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(kernel, 2, sizeof(float), &k));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; i++) {
        float want = in[i] * k;
        if (out[i] != want) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %g, expected %g\n", i, out[i], want);
            bad++;
        }
        checksum += out[i];
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
        printf("unsupported: FAILED (%d of %d elements differ)\n", bad, n);
        return 1;
    }
    printf("unsupported: OK (n=%d, checksum=%.3f)\n", n, checksum);
    return 0;
}
