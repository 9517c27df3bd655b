/* match_count: for 256 query keys, how many of 4096 records carry each, the sum of their
 * values and the first 4 positions, checked against the host's own scan.
 * Covers: a run-time loop with a data-dependent store in its body, which the compiler
 * unrolls into copies the annotator cannot count: under srcsim the kernel is timed as
 * compiled without unrolling, and the report and the table at exit say so. */
#include "common.h"

#define MAX_HITS 4

int main(void)
{
    const int n = 4096, queries = 256, max_hits = MAX_HITS;
    const size_t global = (size_t)queries, local = 64;

    int *keys = malloc(n * sizeof(int)), *values = malloc(n * sizeof(int));
    int *query = malloc(queries * sizeof(int));
    int *counts = malloc(queries * sizeof(int)), *sums = malloc(queries * sizeof(int));
    int *hits = malloc(queries * max_hits * sizeof(int));
    unsigned seed = 4242;
    for (int i = 0; i < n; i++) {
        keys[i] = (int)(next_rand(&seed) % 512);
        values[i] = (int)(next_rand(&seed) % 1000);
    }
    /* Half the queries are keys that occur, half are mostly absent. */
    for (int q = 0; q < queries; q++)
        query[q] = q % 2 == 0 ? keys[q * 13 % n] : 512 + q;
    for (int i = 0; i < queries * max_hits; i++)
        hits[i] = -1;

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);

    char *source = read_kernel_file("hosts/kernels/match_count.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "match_count", &err);
    CHECK(err);

    cl_mem dkeys = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                  n * sizeof(int), keys, &err);
    CHECK(err);
    cl_mem dvalues = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                    n * sizeof(int), values, &err);
    CHECK(err);
    cl_mem dquery = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                   queries * sizeof(int), query, &err);
    CHECK(err);
    cl_mem dcounts = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, queries * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dsums = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, queries * sizeof(int), NULL, &err);
    CHECK(err);
    cl_mem dhits = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  queries * max_hits * sizeof(int), hits, &err);
    CHECK(err);

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dkeys));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dvalues));
    CHECK(clSetKernelArg(kernel, 2, sizeof(int), &n));
    CHECK(clSetKernelArg(kernel, 3, sizeof(cl_mem), &dquery));
    CHECK(clSetKernelArg(kernel, 4, sizeof(int), &max_hits));
    CHECK(clSetKernelArg(kernel, 5, sizeof(cl_mem), &dcounts));
    CHECK(clSetKernelArg(kernel, 6, sizeof(cl_mem), &dsums));
    CHECK(clSetKernelArg(kernel, 7, sizeof(cl_mem), &dhits));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dcounts, CL_TRUE, 0, queries * sizeof(int), counts, 0,
                              NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dsums, CL_TRUE, 0, queries * sizeof(int), sums, 0, NULL,
                              NULL));
    CHECK(clEnqueueReadBuffer(queue, dhits, CL_TRUE, 0, queries * max_hits * sizeof(int), hits,
                              0, NULL, NULL));

    int bad = 0;
    long total = 0;
    for (int q = 0; q < queries; q++) {
        int count = 0, sum = 0, first[MAX_HITS] = {-1, -1, -1, -1};
        for (int i = 0; i < n; i++)
            if (keys[i] == query[q]) {
                if (count < max_hits)
                    first[count] = i;
                count++;
                sum += values[i];
            }
        int ok = counts[q] == count && sums[q] == sum;
        for (int h = 0; h < max_hits; h++)
            ok = ok && hits[q * max_hits + h] == first[h];
        if (!ok) {
            if (bad < 5)
                fprintf(stderr, "query %d (key %d): count %d sum %d, expected %d and %d\n", q,
                        query[q], counts[q], sums[q], count, sum);
            bad++;
        }
        total += count;
    }
    if (bad) {
        printf("match_count: FAILED (%d of %d queries wrong)\n", bad, queries);
        return 1;
    }
    printf("match_count: OK (%d queries over %d records, %ld matches)\n", queries, n, total);

    clReleaseMemObject(dkeys);
    clReleaseMemObject(dvalues);
    clReleaseMemObject(dquery);
    clReleaseMemObject(dcounts);
    clReleaseMemObject(dsums);
    clReleaseMemObject(dhits);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(keys);
    free(values);
    free(query);
    free(counts);
    free(sums);
    free(hits);
    return 0;
}
