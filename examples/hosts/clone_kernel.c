/* clone_kernel: a kernel cloned with clCloneKernel (OpenCL 2.1), as the OpenCL CTS does.
 * Covers: the clone keeps the arguments its source had when it was cloned (buffer a,
 * factor 2) while the source moves on to others (buffer b, factor 3); each is launched
 * twice, the clone first. Prints both buffers' checksums, checked against the host's
 * own arithmetic. Exit code 3 where the runtime has no clCloneKernel (OpenCL < 2.1). */
#define CL_TARGET_OPENCL_VERSION 300
#include "common.h"

#define N 4096

static int check(const char *name, const float *got, float start_mod, float a)
{
    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < N; i++) {
        float want = (float)(i % (int)start_mod);
        for (int r = 0; r < 2; r++)
            want = want * a + (float)i;
        if (got[i] != want && bad++ < 5)
            fprintf(stderr, "%s[%d] = %g, expected %g\n", name, i, got[i], want);
        checksum += got[i];
    }
    printf("%s: checksum %.1f\n", name, checksum);
    return bad;
}

int main(void)
{
    const size_t global = N, local = 64;
    float *x = malloc(N * sizeof(float));
    float *y = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        x[i] = (float)(i % 7);
        y[i] = (float)(i % 5);
    }

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    char version[256] = "";
    CHECK(clGetDeviceInfo(device, CL_DEVICE_VERSION, sizeof version, version, NULL));
    int major = 0, minor = 0;
    if (sscanf(version, "OpenCL %d.%d", &major, &minor) != 2 || major * 10 + minor < 21) {
        fprintf(stderr, "clone_kernel: %s has no clCloneKernel\n", version);
        return 3;
    }
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/clone_kernel.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = create_kernel(program, "scale_shift");

    cl_mem a = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              N * sizeof(float), x, &err);
    CHECK(err);
    cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                              N * sizeof(float), y, &err);
    CHECK(err);
    const float two = 2.0f, three = 3.0f;
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &a));
    CHECK(clSetKernelArg(kernel, 1, sizeof(float), &two));
    cl_kernel clone = clCloneKernel(kernel, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &b));
    CHECK(clSetKernelArg(kernel, 1, sizeof(float), &three));
    for (int r = 0; r < 2; r++) {
        CHECK(clEnqueueNDRangeKernel(queue, clone, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, N * sizeof(float), x, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, b, CL_TRUE, 0, N * sizeof(float), y, 0, NULL, NULL));
    int bad = check("clone (a, 2)", x, 7.0f, 2.0f) + check("source (b, 3)", y, 5.0f, 3.0f);

    clReleaseKernel(clone);
    clReleaseKernel(kernel);
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(x);
    free(y);
    free(source);
    return bad ? 1 : 0;
}
