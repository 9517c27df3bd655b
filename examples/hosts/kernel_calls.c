/* kernel_calls: a kernel that calls another kernel as a function, as the OpenCL CTS's
 * compiler tests do (kernels/kernel_calls.cl).
 * Covers: `scale` launched (a = 2), then `twice`, which calls `scale` twice (a = 3), then
 * `shift`; the buffer checked against the host's own arithmetic. srcsim annotates a copy
 * of `scale` as a plain function for `twice` to call, so all three launches are
 * simulated. Prints the checksum. */
#include "common.h"

#define N 4096

static void launch(cl_command_queue queue, cl_kernel kernel)
{
    const size_t global = N, local = 64;
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
}

int main(void)
{
    float *x = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 5);

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/kernel_calls.cl");
    cl_program program = build_program(ctx, device, source, "");
    free(source);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                N * sizeof(float), x, &err);
    CHECK(err);

    const float two = 2.0f, three = 3.0f;
    cl_kernel scale = create_kernel(program, "scale");
    CHECK(clSetKernelArg(scale, 0, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(scale, 1, sizeof(float), &two));
    launch(queue, scale);
    cl_kernel twice = create_kernel(program, "twice");
    CHECK(clSetKernelArg(twice, 0, sizeof(cl_mem), &buf));
    CHECK(clSetKernelArg(twice, 1, sizeof(float), &three));
    launch(queue, twice);
    cl_kernel shift = create_kernel(program, "shift");
    CHECK(clSetKernelArg(shift, 0, sizeof(cl_mem), &buf));
    launch(queue, shift);
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof(float), x, 0, NULL, NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < N; i++) {
        float want = (float)(i % 5);
        want = want * 2.0f + (float)(i & 3);
        for (int r = 0; r < 2; r++)
            want = want * 3.0f + (float)(i & 3);
        want -= 1.0f;
        if (x[i] != want && bad++ < 5)
            fprintf(stderr, "x[%d] = %g, expected %g\n", i, x[i], want);
        checksum += x[i];
    }
    printf("kernel_calls: checksum %.1f\n", checksum);

    clReleaseKernel(shift);
    clReleaseKernel(twice);
    clReleaseKernel(scale);
    clReleaseMemObject(buf);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(x);
    return bad ? 1 : 0;
}
