/* gated_launches: 64 launches of 65536 work-items on an in-order queue, the first of them
 * waiting on a user event that the program completes only after it has enqueued all 64;
 * then one blocking read, checked against the host's own loop. Covers: launches the
 * device cannot start until the program goes on (srcsim must not hold a launch up waiting
 * for the records of earlier ones, which cannot run yet), and a kernel whose branch reads
 * memory, so that every launch is measured. */
#include "common.h"

#define N 65536
#define LAUNCHES 64
#define CAP 1000

int main(void)
{
    int *in = malloc(N * sizeof(int));
    int *total = calloc(N, sizeof(int));
    int *result = malloc(N * sizeof(int));
    unsigned seed = 11;
    for (int i = 0; i < N; i++)
        in[i] = (int)(next_rand(&seed) % 64);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/gated_launches.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel accumulate = clCreateKernel(program, "accumulate", &err);
    CHECK(err);
    cl_mem dtotal = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   N * sizeof(int), total, &err);
    CHECK(err);
    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, N * sizeof(int),
                                in, &err);
    CHECK(err);
    const int cap = CAP;
    CHECK(clSetKernelArg(accumulate, 0, sizeof dtotal, &dtotal));
    CHECK(clSetKernelArg(accumulate, 1, sizeof din, &din));
    CHECK(clSetKernelArg(accumulate, 2, sizeof cap, &cap));

    cl_event gate = clCreateUserEvent(ctx, &err);
    CHECK(err);
    const size_t global = N, local = 256;
    for (int l = 0; l < LAUNCHES; l++)
        CHECK(clEnqueueNDRangeKernel(queue, accumulate, 1, NULL, &global, &local, l == 0,
                                     l == 0 ? &gate : NULL, NULL));
    CHECK(clFlush(queue));
    CHECK(clSetUserEventStatus(gate, CL_COMPLETE));
    CHECK(clEnqueueReadBuffer(queue, dtotal, CL_TRUE, 0, N * sizeof(int), result, 0, NULL,
                              NULL));

    int bad = 0;
    long sum = 0;
    for (int i = 0; i < N; i++) {
        int t = 0;
        for (int l = 0; l < LAUNCHES; l++)
            if (t < CAP)
                t += in[i];
        if (result[i] != t) {
            if (bad < 5)
                fprintf(stderr, "total %d = %d, expected %d\n", i, result[i], t);
            bad++;
        }
        sum += result[i];
    }

    clReleaseEvent(gate);
    clReleaseMemObject(din);
    clReleaseMemObject(dtotal);
    clReleaseKernel(accumulate);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(in);
    free(total);
    free(result);

    if (bad) {
        printf("gated_launches: FAILED (%d of %d totals differ)\n", bad, N);
        return 1;
    }
    printf("gated_launches: OK (%d launches of %d work-items, sum %ld)\n", LAUNCHES, N, sum);
    return 0;
}
