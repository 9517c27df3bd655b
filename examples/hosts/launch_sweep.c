/* launch_sweep: the launch cost apart from the work. An empty kernel at 32 to 1048576
 * work-items and a streaming kernel (a float4 read and written per work-item) at 16384
 * to 2097152 work-items (256 KiB to 32 MiB a buffer), each size launched a number of
 * times in a row, one in-order queue, one blocking read at the end. Timed on a GPU
 * (validation/examples/measure.sh), the empty launches give the fixed cost per launch and
 * per size, the streaming ones the slope per byte beside it; srcsim's estimates of the
 * same launches are joined with them by validation/examples/compare.py. An optional
 * argument sets the launches of each size (default 20). */
#include "common.h"

static const size_t EMPTY_SIZES[] = {32, 1024, 32768, 1048576};
static const size_t STREAM_SIZES[] = {16384, 131072, 1048576, 2097152};
#define MAX_STREAM 2097152

int main(int argc, char **argv)
{
    const int launches = size_arg(argc, argv, 20, 1, 1000);
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/launch_sweep.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel empty = clCreateKernel(program, "empty", &err);
    CHECK(err);
    cl_kernel stream = clCreateKernel(program, "stream", &err);
    CHECK(err);

    const size_t bytes = (size_t)MAX_STREAM * 4 * sizeof(float);
    float *host = malloc(bytes);
    if (!host)
        return 2;
    for (size_t i = 0; i < (size_t)MAX_STREAM * 4; i++)
        host[i] = (float)(i % 1000);
    cl_mem in = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host, &err);
    CHECK(err);
    cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(empty, 0, sizeof out, &out));
    CHECK(clSetKernelArg(stream, 0, sizeof in, &in));
    CHECK(clSetKernelArg(stream, 1, sizeof out, &out));

    int total = 0;
    for (size_t s = 0; s < sizeof EMPTY_SIZES / sizeof *EMPTY_SIZES; s++) {
        const size_t global = EMPTY_SIZES[s], local = global < 256 ? global : 256;
        for (int l = 0; l < launches; l++, total++)
            CHECK(clEnqueueNDRangeKernel(queue, empty, 1, NULL, &global, &local, 0, NULL,
                                         NULL));
    }
    for (size_t s = 0; s < sizeof STREAM_SIZES / sizeof *STREAM_SIZES; s++) {
        const size_t global = STREAM_SIZES[s], local = 256;
        for (int l = 0; l < launches; l++, total++)
            CHECK(clEnqueueNDRangeKernel(queue, stream, 1, NULL, &global, &local, 0, NULL,
                                         NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, bytes, host, 0, NULL, NULL));

    int bad = 0;
    for (size_t i = 0; i < (size_t)MAX_STREAM * 4; i++) {
        if (host[i] != 2.0f * (float)(i % 1000)) {
            if (bad < 5)
                fprintf(stderr, "out[%zu] = %g, expected %g\n", i, host[i],
                        2.0 * (double)(i % 1000));
            bad++;
        }
    }

    clReleaseMemObject(in);
    clReleaseMemObject(out);
    clReleaseKernel(empty);
    clReleaseKernel(stream);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(host);

    if (bad) {
        printf("launch_sweep: FAILED (%d values differ)\n", bad);
        return 1;
    }
    printf("launch_sweep: OK (%d launches, %d a size)\n", total, launches);
    return 0;
}
