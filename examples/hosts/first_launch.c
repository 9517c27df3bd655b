/* first_launch: what a first launch costs, and which first. On a GPU's OpenCL a program's
 * first launch takes 17 to 27 µs more than later ones as an event's START to END
 * (validation/examples/h100-*.csv), and the microbenchmark ports, which fill a buffer and
 * wait before their one launch, showed less (validation/ubench/README.md): is the cost the
 * process's, a context's, a queue's, a kernel's, or the first command's of any kind? Timed
 * on a GPU (validation/examples/measure.sh, cltime.so: one line per launch, in this
 * order), these 41 launches of 1024 work-items answer it:
 *
 *   1-11   queue 1: `steady` 11 times (the process's first launch, then the steady cost)
 *   12-16  queue 1: `other_kernel` 5 times (a second kernel's first launch, queue warm)
 *   17-21  queue 2, new: `steady` 5 times (a new queue's first launch, kernel warm)
 *   22-26  queue 3, new: a blocking write first, then `steady` 5 times
 *   27-31  queue 4, new: a fill the host waits for (clFinish), then `steady` 5 times
 *   32-36  queue 5, new: a fill it does not wait for, then `steady` 5 times
 *   37-41  a second context (the program built again) and its queue: `steady` 5 times
 *
 * Each queue's results are read back and checked; the output is their checksum. */
#include "common.h"

#define N 1024
#define WG 256

static int run(cl_command_queue q, cl_kernel k, cl_mem buf, int add, int times)
{
    const size_t global = N, local = WG;
    CHECK(clSetKernelArg(k, 0, sizeof buf, &buf));
    CHECK(clSetKernelArg(k, 1, sizeof add, &add));
    for (int t = 0; t < times; t++)
        CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
    return times;
}

/* The buffer's contents against `factor * i + add`; returns the sum of the values. */
static long check(cl_command_queue q, cl_mem buf, int factor, int add, const char *what)
{
    int out[N];
    CHECK(clEnqueueReadBuffer(q, buf, CL_TRUE, 0, sizeof out, out, 0, NULL, NULL));
    long sum = 0;
    for (int i = 0; i < N; i++) {
        if (out[i] != factor * i + add) {
            fprintf(stderr, "first_launch: %s: element %d is %d, not %d\n", what, i, out[i],
                    factor * i + add);
            exit(1);
        }
        sum += out[i];
    }
    return sum;
}

static cl_command_queue new_queue(cl_context ctx, cl_device_id device)
{
    cl_int err;
    cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    return q;
}

int main(void)
{
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    char *source = read_kernel_file("hosts/kernels/first_launch.cl");
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel steady = create_kernel(program, "steady");
    cl_kernel other = create_kernel(program, "other_kernel");
    cl_mem buf[6];
    for (int b = 0; b < 6; b++) {
        buf[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
        CHECK(err);
    }
    long sum = 0;
    int launches = 0;

    cl_command_queue q1 = new_queue(ctx, device);
    launches += run(q1, steady, buf[0], 1, 11);
    sum += check(q1, buf[0], 1, 1, "queue 1");
    launches += run(q1, other, buf[1], 2, 5);
    sum += check(q1, buf[1], 2, 2, "a second kernel");

    cl_command_queue q2 = new_queue(ctx, device);
    launches += run(q2, steady, buf[2], 3, 5);
    sum += check(q2, buf[2], 1, 3, "a new queue");

    int zeros[N] = {0};
    cl_command_queue q3 = new_queue(ctx, device);
    CHECK(clEnqueueWriteBuffer(q3, buf[3], CL_TRUE, 0, sizeof zeros, zeros, 0, NULL, NULL));
    launches += run(q3, steady, buf[3], 4, 5);
    sum += check(q3, buf[3], 1, 4, "after a blocking write");

    const int pattern = 7;
    cl_command_queue q4 = new_queue(ctx, device);
    CHECK(clEnqueueFillBuffer(q4, buf[4], &pattern, sizeof pattern, 0, N * sizeof(int), 0, NULL,
                              NULL));
    CHECK(clFinish(q4));
    launches += run(q4, steady, buf[4], 5, 5);
    sum += check(q4, buf[4], 1, 5, "after a fill waited for");

    cl_command_queue q5 = new_queue(ctx, device);
    CHECK(clEnqueueFillBuffer(q5, buf[5], &pattern, sizeof pattern, 0, N * sizeof(int), 0, NULL,
                              NULL));
    launches += run(q5, steady, buf[5], 6, 5);
    sum += check(q5, buf[5], 1, 6, "after a fill not waited for");

    cl_context ctx2 = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_program program2 = build_program(ctx2, device, source, "");
    cl_kernel steady2 = create_kernel(program2, "steady");
    cl_mem buf2 = clCreateBuffer(ctx2, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CHECK(err);
    cl_command_queue q6 = new_queue(ctx2, device);
    launches += run(q6, steady2, buf2, 8, 5);
    sum += check(q6, buf2, 1, 8, "a second context");

    printf("first_launch: %d launches, checksum %ld\n", launches, sum);

    cl_command_queue queues[] = {q1, q2, q3, q4, q5};
    for (int i = 0; i < 5; i++)
        CHECK(clReleaseCommandQueue(queues[i]));
    for (int b = 0; b < 6; b++)
        CHECK(clReleaseMemObject(buf[b]));
    CHECK(clReleaseKernel(steady));
    CHECK(clReleaseKernel(other));
    CHECK(clReleaseProgram(program));
    CHECK(clReleaseContext(ctx));
    CHECK(clReleaseCommandQueue(q6));
    CHECK(clReleaseMemObject(buf2));
    CHECK(clReleaseKernel(steady2));
    CHECK(clReleaseProgram(program2));
    CHECK(clReleaseContext(ctx2));
    free(source);
    return 0;
}
