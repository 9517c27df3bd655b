/* events_profile: event profiling and a single-work-item task.
 * Covers: a command queue created with CL_QUEUE_PROFILING_ENABLE; an NDRange launch that
 * returns an event; CL_PROFILING_COMMAND_QUEUED/SUBMIT/START/END read with
 * clGetEventProfilingInfo (checked to be ordered, END >= START); clEnqueueTask for a
 * single-work-item kernel that waits on the first launch's event (event wait list);
 * clWaitForEvents and CL_EVENT_COMMAND_EXECUTION_STATUS; kernels embedded as a string;
 * exact integer check. */
#include "common.h"

static const char *kernel_source =
    "__kernel void affine(__global const int *in, __global int *out, const int mul,\n"
    "                     const int add)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    out[i] = in[i] * mul + add;\n"
    "}\n"
    "\n"
    "// A single work-item walks the whole array: its sum and how many values are odd.\n"
    "__kernel void serial_summary(__global const int *data, const int n,\n"
    "                             __global int *summary)\n"
    "{\n"
    "    int sum = 0, odd = 0;\n"
    "    for (int i = 0; i < n; i++) {\n"
    "        int v = data[i];\n"
    "        sum += v;\n"
    "        if (v & 1)\n"
    "            odd++;\n"
    "    }\n"
    "    summary[0] = sum;\n"
    "    summary[1] = odd;\n"
    "}\n";

int main(void)
{
    const int n = 4096;
    const int mul = 3, add = -7;
    const size_t global = (size_t)n, local = 64;

    int *in = malloc(n * sizeof(int));
    int *out = malloc(n * sizeof(int));
    unsigned seed = 17;
    for (int i = 0; i < n; i++)
        in[i] = (int)(next_rand(&seed) % 1000);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    cl_program program = build_program(ctx, device, kernel_source, "");
    cl_kernel affine = clCreateKernel(program, "affine", &err);
    CHECK(err);
    cl_kernel serial = clCreateKernel(program, "serial_summary", &err);
    CHECK(err);

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(int),
                                in, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dsummary = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, 2 * sizeof(int), NULL, &err);
    CHECK(err);

    CHECK(clSetKernelArg(affine, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(affine, 1, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(affine, 2, sizeof(int), &mul));
    CHECK(clSetKernelArg(affine, 3, sizeof(int), &add));
    cl_event kernel_done;
    CHECK(clEnqueueNDRangeKernel(queue, affine, 1, NULL, &global, &local, 0, NULL,
                                 &kernel_done));

    CHECK(clSetKernelArg(serial, 0, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(serial, 1, sizeof(int), &n));
    CHECK(clSetKernelArg(serial, 2, sizeof(cl_mem), &dsummary));
    cl_event task_done;
    CHECK(clEnqueueTask(queue, serial, 1, &kernel_done, &task_done));
    CHECK(clFlush(queue));
    CHECK(clWaitForEvents(1, &task_done));

    int bad = 0;
    cl_ulong t[2][4];
    cl_event events[2] = {kernel_done, task_done};
    const cl_profiling_info params[4] = {CL_PROFILING_COMMAND_QUEUED,
                                         CL_PROFILING_COMMAND_SUBMIT,
                                         CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END};
    for (int e = 0; e < 2; e++) {
        cl_int status;
        CHECK(clGetEventInfo(events[e], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status,
                             &status, NULL));
        if (status != CL_COMPLETE) {
            fprintf(stderr, "event %d: status %d, expected CL_COMPLETE\n", e, (int)status);
            bad++;
        }
        for (int p = 0; p < 4; p++)
            CHECK(clGetEventProfilingInfo(events[e], params[p], sizeof(cl_ulong), &t[e][p],
                                          NULL));
        if (!(t[e][0] <= t[e][1] && t[e][1] <= t[e][2] && t[e][2] <= t[e][3])) {
            fprintf(stderr, "event %d: timestamps out of order: queued %llu submit %llu "
                    "start %llu end %llu\n", e, (unsigned long long)t[e][0],
                    (unsigned long long)t[e][1], (unsigned long long)t[e][2],
                    (unsigned long long)t[e][3]);
            bad++;
        }
    }
    if (t[1][2] < t[0][3]) {
        fprintf(stderr, "the task started (%llu) before the kernel it waits on ended (%llu)\n",
                (unsigned long long)t[1][2], (unsigned long long)t[0][3]);
        bad++;
    }

    int summary[2];
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dsummary, CL_TRUE, 0, sizeof summary, summary, 0, NULL,
                              NULL));
    int want_sum = 0, want_odd = 0;
    for (int i = 0; i < n; i++) {
        int want = in[i] * mul + add;
        if (out[i] != want) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %d, expected %d\n", i, out[i], want);
            bad++;
        }
        want_sum += want;
        want_odd += want & 1;
    }
    if (summary[0] != want_sum || summary[1] != want_odd) {
        fprintf(stderr, "task summary = (%d, %d), expected (%d, %d)\n", summary[0], summary[1],
                want_sum, want_odd);
        bad++;
    }

    clReleaseEvent(kernel_done);
    clReleaseEvent(task_done);
    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dsummary);
    clReleaseKernel(affine);
    clReleaseKernel(serial);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(in);
    free(out);

    if (bad) {
        printf("events_profile: FAILED (%d problems)\n", bad);
        return 1;
    }
    printf("events_profile: OK (n=%d, kernel %.1f us, task %.1f us, sum=%d)\n", n,
           (t[0][3] - t[0][2]) / 1e3, (t[1][3] - t[1][2]) / 1e3, summary[0]);
    return 0;
}
