/* svm: an OpenCL 2.0 host with shared virtual memory.
 * out[i] = table[index[i] % size] * scale for index[i] >= 0, else a weighted entry of the
 * first four (kernels/svm_lookup.cl, built with -cl-std=CL2.0), where `table`, `scale`
 * and `size` come from a struct in SVM memory and `table` is a second SVM allocation the
 * kernel reaches only through the struct.
 * Covers: CL_DEVICE_SVM_CAPABILITIES (a device without coarse-grained buffer SVM: a
 * "skipped" line and exit 0), clSVMAlloc/clSVMFree, clSetKernelArgSVMPointer,
 * clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS) for the pointer stored in SVM,
 * clEnqueueSVMMap/clEnqueueSVMUnmap to fill and read the allocations, two launches (the
 * second after the host rewrote the table and the scale through a map).
 * `svm --mixed`: the first launch writes its output to a cl_mem buffer set with
 * clSetKernelArg, the second to an SVM allocation set with clSetKernelArgSVMPointer on
 * the same argument; both outputs are checked. */
#define CL_TARGET_OPENCL_VERSION 200
#include "common.h"

typedef struct {
    cl_float *table; /* the kernel's `__global const float *` */
    cl_float scale;
    cl_int size;
} lookup_t;

enum { N = 20000, SIZE = 1000 };

/* What the kernel computes for one element. */
static float expected(const float *table, float scale, int size, int k)
{
    if (k >= 0)
        return table[k % size] * scale;
    return -(table[-k & 3] * (float)(-k + 1));
}

/* The elements of `out` that differ from `expected`; prints the first few. */
static int check(const char *what, const float *out, const int *index, const float *table,
                 float scale)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        float want = expected(table, scale, SIZE, index[i]);
        if (out[i] != want) {
            if (bad < 5)
                fprintf(stderr, "%s: out[%d] = %g, expected %g\n", what, i, out[i], want);
            bad++;
        }
    }
    return bad;
}

static void map(cl_command_queue queue, cl_map_flags flags, void *ptr, size_t bytes)
{
    CHECK(clEnqueueSVMMap(queue, CL_TRUE, flags, ptr, bytes, 0, NULL, NULL));
}

static void unmap(cl_command_queue queue, void *ptr)
{
    CHECK(clEnqueueSVMUnmap(queue, ptr, 0, NULL, NULL));
}

int main(int argc, char **argv)
{
    int mixed = argc == 2 && strcmp(argv[1], "--mixed") == 0;
    if (argc > 2 || (argc == 2 && !mixed)) {
        fprintf(stderr, "usage: %s [--mixed]\n", argv[0]);
        return 64;
    }
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_device_svm_capabilities caps = 0;
    cl_int err = clGetDeviceInfo(device, CL_DEVICE_SVM_CAPABILITIES, sizeof caps, &caps, NULL);
    if (err != CL_SUCCESS || !(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER)) {
        printf("svm: skipped (the device reports no coarse-grained buffer SVM)\n");
        return 0;
    }

    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueueWithProperties(ctx, device, NULL, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/svm_lookup.cl");
    cl_program program = build_program(ctx, device, source, "-cl-std=CL2.0");
    cl_kernel kernel = clCreateKernel(program, "svm_lookup", &err);
    CHECK(err);

    lookup_t *lut = clSVMAlloc(ctx, CL_MEM_READ_ONLY, sizeof *lut, 0);
    float *table = clSVMAlloc(ctx, CL_MEM_READ_ONLY, SIZE * sizeof(float), 0);
    int *index = clSVMAlloc(ctx, CL_MEM_READ_ONLY, N * sizeof(int), 0);
    float *out = clSVMAlloc(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), 0);
    if (!lut || !table || !index || !out) {
        fprintf(stderr, "clSVMAlloc failed\n");
        return 2;
    }

    /* Fill the allocations through maps: every eighth index negative (the other branch). */
    unsigned seed = 4242;
    map(queue, CL_MAP_WRITE_INVALIDATE_REGION, table, SIZE * sizeof(float));
    for (int i = 0; i < SIZE; i++)
        table[i] = rand_unit(&seed) * 10.0f - 5.0f;
    unmap(queue, table);
    map(queue, CL_MAP_WRITE_INVALIDATE_REGION, index, N * sizeof(int));
    for (int i = 0; i < N; i++)
        index[i] = i % 8 == 5 ? -(int)(next_rand(&seed) % 50) - 1 : (int)(next_rand(&seed) % 100000);
    unmap(queue, index);
    map(queue, CL_MAP_WRITE_INVALIDATE_REGION, lut, sizeof *lut);
    lut->table = table;
    lut->scale = 0.5f;
    lut->size = SIZE;
    unmap(queue, lut);

    /* The host's copies, for the check (the allocations are not read outside a map). */
    float *table_copy = malloc(SIZE * sizeof(float));
    int *index_copy = malloc(N * sizeof(int));
    float *result = malloc(N * sizeof(float));
    map(queue, CL_MAP_READ, table, SIZE * sizeof(float));
    memcpy(table_copy, table, SIZE * sizeof(float));
    unmap(queue, table);
    map(queue, CL_MAP_READ, index, N * sizeof(int));
    memcpy(index_copy, index, N * sizeof(int));
    unmap(queue, index);

    const int n = N;
    const size_t local = 64;
    const size_t global = ((size_t)N + local - 1) / local * local;
    void *reached[] = {table};
    CHECK(clSetKernelArgSVMPointer(kernel, 0, lut));
    CHECK(clSetKernelArgSVMPointer(kernel, 1, index));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof reached, reached));

    /* Launch 1: scale 0.5, into `out` (or, --mixed, into a cl_mem buffer). */
    cl_mem out_buffer = NULL;
    if (mixed) {
        out_buffer = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
        CHECK(err);
        CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &out_buffer));
    } else {
        CHECK(clSetKernelArgSVMPointer(kernel, 2, out));
    }
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    if (mixed) {
        CHECK(clEnqueueReadBuffer(queue, out_buffer, CL_TRUE, 0, N * sizeof(float), result,
                                  0, NULL, NULL));
    } else {
        map(queue, CL_MAP_READ, out, N * sizeof(float));
        memcpy(result, out, N * sizeof(float));
        unmap(queue, out);
    }
    int bad = check("launch 1", result, index_copy, table_copy, 0.5f);
    double checksum = 0.0;
    for (int i = 0; i < N; i++)
        checksum += result[i];

    /* Launch 2: the host rewrites the table and the scale in place (through maps). */
    map(queue, CL_MAP_WRITE, table, SIZE * sizeof(float));
    for (int i = 0; i < SIZE; i++)
        table[i] = table_copy[i] = (float)(i % 17) - 8.0f;
    unmap(queue, table);
    map(queue, CL_MAP_WRITE, lut, sizeof *lut);
    lut->scale = -2.0f;
    unmap(queue, lut);
    /* The output from the first launch stays in place unless this one overwrites it. */
    map(queue, CL_MAP_WRITE_INVALIDATE_REGION, out, N * sizeof(float));
    for (int i = 0; i < N; i++)
        out[i] = 12345.0f;
    unmap(queue, out);
    if (mixed)
        CHECK(clSetKernelArgSVMPointer(kernel, 2, out));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    map(queue, CL_MAP_READ, out, N * sizeof(float));
    memcpy(result, out, N * sizeof(float));
    unmap(queue, out);
    CHECK(clFinish(queue));
    bad += check("launch 2", result, index_copy, table_copy, -2.0f);
    for (int i = 0; i < N; i++)
        checksum += result[i];

    if (out_buffer)
        clReleaseMemObject(out_buffer);
    clSVMFree(ctx, lut);
    clSVMFree(ctx, table);
    clSVMFree(ctx, index);
    clSVMFree(ctx, out);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(table_copy);
    free(index_copy);
    free(result);

    const char *how = mixed ? "buffer then SVM output" : "SVM output";
    if (bad) {
        printf("svm: FAILED (%d of %d elements differ; %s)\n", bad, 2 * N, how);
        return 1;
    }
    printf("svm: OK (n=%d, 2 launches, %s, checksum=%.3f)\n", N, how, checksum);
    return 0;
}
