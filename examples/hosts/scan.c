/* scan: exclusive prefix sum of n ints.
 * Covers: two kernels in one program, both created with clCreateKernelsInProgram and told
 * apart with CL_KERNEL_FUNCTION_NAME; a work-efficient scan in a static __local array with
 * barriers; a build option (-D WG=128); three launches (scan of the blocks, scan of the
 * block totals, add the offsets), kernel file read at run time, exact integer check. */
#include "common.h"

#define WG 128
#define BLOCK (2 * WG)

int main(void)
{
    const int n = 60000; /* not a multiple of BLOCK */
    const int blocks = (n + BLOCK - 1) / BLOCK; /* 235, fits in one block of BLOCK */
    const size_t local = WG;

    int *data = malloc(n * sizeof(int));
    int *result = malloc(n * sizeof(int));
    unsigned seed = 4242;
    for (int i = 0; i < n; i++)
        data[i] = (int)(next_rand(&seed) % 100);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/scan.cl");
    char options[64];
    snprintf(options, sizeof options, "-D WG=%d", WG);
    cl_program program = build_program(ctx, device, source, options);

    cl_uint num_kernels = 0;
    CHECK(clCreateKernelsInProgram(program, 0, NULL, &num_kernels));
    if (num_kernels != 2) {
        fprintf(stderr, "expected 2 kernels, program has %u\n", num_kernels);
        return 2;
    }
    cl_kernel kernels[2];
    CHECK(clCreateKernelsInProgram(program, 2, kernels, NULL));
    cl_kernel scan_blocks = NULL, add_offsets = NULL;
    for (int k = 0; k < 2; k++) {
        char name[64];
        CHECK(clGetKernelInfo(kernels[k], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL));
        if (strcmp(name, "scan_blocks") == 0)
            scan_blocks = kernels[k];
        else if (strcmp(name, "add_offsets") == 0)
            add_offsets = kernels[k];
    }
    if (!scan_blocks || !add_offsets) {
        fprintf(stderr, "kernels scan_blocks and add_offsets not found\n");
        return 2;
    }

    cl_mem din = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                n * sizeof(int), data, &err);
    CHECK(err);
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_READ_WRITE, n * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dsums = clCreateBuffer(ctx, CL_MEM_READ_WRITE, blocks * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem doffsets = clCreateBuffer(ctx, CL_MEM_READ_WRITE, blocks * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dtotal = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    CHECK(err);

    /* 1. Scan every block, keep the block totals. */
    size_t global = (size_t)blocks * local;
    CHECK(clSetKernelArg(scan_blocks, 0, sizeof(cl_mem), &din));
    CHECK(clSetKernelArg(scan_blocks, 1, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(scan_blocks, 2, sizeof(cl_mem), &dsums));
    CHECK(clSetKernelArg(scan_blocks, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, scan_blocks, 1, NULL, &global, &local, 0, NULL, NULL));

    /* 2. Scan the block totals (one block) into the block offsets. */
    global = local;
    CHECK(clSetKernelArg(scan_blocks, 0, sizeof(cl_mem), &dsums));
    CHECK(clSetKernelArg(scan_blocks, 1, sizeof(cl_mem), &doffsets));
    CHECK(clSetKernelArg(scan_blocks, 2, sizeof(cl_mem), &dtotal));
    CHECK(clSetKernelArg(scan_blocks, 3, sizeof(int), &blocks));
    CHECK(clEnqueueNDRangeKernel(queue, scan_blocks, 1, NULL, &global, &local, 0, NULL, NULL));

    /* 3. Add the offsets. */
    const size_t local3 = 256;
    global = ((size_t)n + local3 - 1) / local3 * local3;
    CHECK(clSetKernelArg(add_offsets, 0, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(add_offsets, 1, sizeof(cl_mem), &doffsets));
    CHECK(clSetKernelArg(add_offsets, 2, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, add_offsets, 1, NULL, &global, &local3, 0, NULL, NULL));

    int total = 0;
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, n * sizeof(int), result, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dtotal, CL_TRUE, 0, sizeof(int), &total, 0, NULL, NULL));

    int bad = 0;
    int running = 0;
    for (int i = 0; i < n; i++) {
        if (result[i] != running) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %d, expected %d\n", i, result[i], running);
            bad++;
        }
        running += data[i];
    }
    if (total != running) {
        fprintf(stderr, "total = %d, expected %d\n", total, running);
        bad++;
    }

    clReleaseMemObject(din);
    clReleaseMemObject(dout);
    clReleaseMemObject(dsums);
    clReleaseMemObject(doffsets);
    clReleaseMemObject(dtotal);
    clReleaseKernel(kernels[0]);
    clReleaseKernel(kernels[1]);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(data);
    free(result);

    if (bad) {
        printf("scan: FAILED (%d mismatches)\n", bad);
        return 1;
    }
    printf("scan: OK (n=%d, blocks=%d, total=%d)\n", n, blocks, total);
    return 0;
}
