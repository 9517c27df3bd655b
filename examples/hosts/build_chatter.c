/* build_chatter: kernels/chatter_sign.cl, which clang warns about (the program prints "1
 * warning generated." itself when the runtime compiles it, and the runtime would again
 * for the annotated twin), and kernels/chatter_twice.cl, whose helper is also declared in
 * an included header (refused by the annotator: its twin would not build). Under the shim
 * the program's stderr must be its own, and it must compute the same. */
#include "common.h"

int main(void)
{
    const int n = 1024;
    const size_t global = (size_t)n;
    float *data = malloc(n * sizeof(float));
    unsigned seed = 99;
    for (int i = 0; i < n; i++)
        data[i] = rand_unit(&seed) * 8.0f - 4.0f;

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);

    char *sign_source = read_kernel_file("hosts/kernels/chatter_sign.cl");
    cl_program sign = build_program(ctx, device, sign_source, "");
    char *twice_source = read_kernel_file("hosts/kernels/chatter_twice.cl");
    cl_program twice = build_program(ctx, device, twice_source,
                                     "-I " EXAMPLES_DIR "/hosts/kernels");
    cl_kernel flip = create_kernel(sign, "flip_sign");
    cl_kernel doubled = create_kernel(twice, "doubled");

    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(float), data, &err);
    CHECK(err);
    CHECK(clSetKernelArg(flip, 0, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(doubled, 0, sizeof(cl_mem), &buf));
    CHECK(clEnqueueNDRangeKernel(queue, flip, 1, NULL, &global, NULL, 0, NULL, NULL));
    CHECK(clEnqueueNDRangeKernel(queue, doubled, 1, NULL, &global, NULL, 0, NULL, NULL));
    float *out = malloc(n * sizeof(float));
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, n * sizeof(float), out, 0, NULL, NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < n; i++) {
        float want = -(data[i] + data[i]);
        if (out[i] != want) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %g, expected %g\n", i, out[i], want);
            bad++;
        }
        checksum += out[i];
    }

    clReleaseMemObject(buf);
    clReleaseKernel(flip);
    clReleaseKernel(doubled);
    clReleaseProgram(sign);
    clReleaseProgram(twice);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(sign_source);
    free(twice_source);
    free(data);
    free(out);

    if (bad) {
        printf("build_chatter: FAILED (%d of %d elements differ)\n", bad, n);
        return 1;
    }
    printf("build_chatter: OK (n=%d, checksum=%.3f)\n", n, checksum);
    return 0;
}
