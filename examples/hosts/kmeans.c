/* kmeans: 5 iterations of k-means clustering (K=8, 4 features) on the device and host.
 * Covers: one kernel launched many times in a host loop, with a buffer written before and
 * the result read back after every launch (the host computes the new centroids in
 * between); __constant kernel argument; a private array; a loop over clusters with a
 * data-dependent branch; build options (-D DIM=4 -D K=8); kernel file read at run time.
 * The check recomputes every assignment on the host: a different cluster is only accepted
 * when it is a tie within float rounding. */
#include "common.h"

#include <math.h>

#define DIM 4
#define K 8
#define ITERATIONS 5

static float distance2(const float *features, int n, int i, const float *centroid)
{
    float dist = 0.0f;
    for (int d = 0; d < DIM; d++) {
        float diff = features[d * n + i] - centroid[d];
        dist += diff * diff;
    }
    return dist;
}

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 8192, 1, 1 << 24); /* points */
    const size_t local = 128;
    const size_t global = ((size_t)n + local - 1) / local * local;

    float *features = malloc((size_t)DIM * n * sizeof(float));
    int *membership = malloc(n * sizeof(int));
    float centroids[K * DIM];
    float centers[K * DIM];
    unsigned seed = 1234567;
    for (int c = 0; c < K * DIM; c++)
        centers[c] = rand_unit(&seed) * 20.0f;
    for (int i = 0; i < n; i++) {
        int c = (int)(next_rand(&seed) % K);
        for (int d = 0; d < DIM; d++)
            features[d * n + i] = centers[c * DIM + d] + (rand_unit(&seed) - 0.5f) * 6.0f;
    }
    for (int c = 0; c < K; c++) /* first K points as the initial centroids */
        for (int d = 0; d < DIM; d++)
            centroids[c * DIM + d] = features[d * n + c];

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/kmeans.cl");
    char options[64];
    snprintf(options, sizeof options, "-D DIM=%d -D K=%d", DIM, K);
    cl_program program = build_program(ctx, device, source, options);
    cl_kernel kernel = clCreateKernel(program, "kmeans_assign", &err);
    CHECK(err);

    cl_mem dfeatures = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                      (size_t)DIM * n * sizeof(float), features, &err);
    CHECK(err);
    cl_mem dcentroids = clCreateBuffer(ctx, CL_MEM_READ_ONLY, sizeof centroids, NULL, &err);
    CHECK(err);
    cl_mem dmembership = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dfeatures));
    CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
    CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dcentroids));
    CHECK(clSetKernelArg(kernel, 3, sizeof(cl_mem), &dmembership));

    int bad = 0, changed = 0;
    double inertia = 0.0;
    for (int iter = 0; iter < ITERATIONS; iter++) {
        CHECK(clEnqueueWriteBuffer(queue, dcentroids, CL_FALSE, 0, sizeof centroids, centroids,
                                   0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
        int *previous = iter > 0 ? malloc(n * sizeof(int)) : NULL;
        if (previous)
            memcpy(previous, membership, n * sizeof(int));
        CHECK(clEnqueueReadBuffer(queue, dmembership, CL_TRUE, 0, n * sizeof(int), membership,
                                  0, NULL, NULL));

        /* Check the assignment against the host's. */
        inertia = 0.0;
        changed = 0;
        for (int i = 0; i < n; i++) {
            int best = 0;
            float best_dist = INFINITY;
            for (int c = 0; c < K; c++) {
                float dist = distance2(features, n, i, &centroids[c * DIM]);
                if (dist < best_dist) {
                    best_dist = dist;
                    best = c;
                }
            }
            int got = membership[i];
            if (got < 0 || got >= K ||
                (got != best &&
                 distance2(features, n, i, &centroids[got * DIM]) >
                     best_dist + 1e-5f * (1.0f + best_dist))) {
                if (bad < 5)
                    fprintf(stderr, "iteration %d: point %d in cluster %d, expected %d\n",
                            iter, i, got, best);
                bad++;
                got = best;
                membership[i] = best;
            }
            inertia += distance2(features, n, i, &centroids[got * DIM]);
            if (previous && previous[i] != got)
                changed++;
        }
        free(previous);

        /* Update step on the host: each centroid moves to the mean of its points. */
        double sums[K * DIM] = {0};
        int counts[K] = {0};
        for (int i = 0; i < n; i++) {
            counts[membership[i]]++;
            for (int d = 0; d < DIM; d++)
                sums[membership[i] * DIM + d] += features[d * n + i];
        }
        for (int c = 0; c < K; c++)
            if (counts[c] > 0)
                for (int d = 0; d < DIM; d++)
                    centroids[c * DIM + d] = (float)(sums[c * DIM + d] / counts[c]);
    }

    clReleaseMemObject(dfeatures);
    clReleaseMemObject(dcentroids);
    clReleaseMemObject(dmembership);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(features);
    free(membership);

    if (bad) {
        printf("kmeans: FAILED (%d assignments differ)\n", bad);
        return 1;
    }
    printf("kmeans: OK (n=%d, K=%d, %d iterations, last moved %d points, inertia=%.2f)\n", n, K,
           ITERATIONS, changed, inertia);
    return 0;
}
