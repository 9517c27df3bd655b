/* gauss_steps: Gaussian elimination of a 256-unknown diagonally dominant system, kept as
 * one augmented matrix [A | b] (kernels/gauss_steps.cl): 255 steps of two kernels (510
 * launches), the step index an argument new at every launch, every argument set again
 * before each launch and the work-group size left to the runtime (a NULL local size); the
 * ratios over n work-items, the elimination over the whole augmented matrix (most of whose
 * work-items do nothing in late steps). The host solves the triangular system left and
 * checks it against its own elimination. Covers a program of small launches whose
 * deciding argument changes at every launch, without a work-group size. An optional
 * argument sets the unknowns (a multiple of 4, at most 1024). */
#include "common.h"

#include <math.h>

static void solve(const float *ab, int n, double *x)
{
    for (int i = n - 1; i >= 0; i--) {
        double s = ab[i * (n + 1) + n];
        for (int j = i + 1; j < n; j++)
            s -= ab[i * (n + 1) + j] * x[j];
        x[i] = s / ab[i * (n + 1) + i];
    }
}

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 256, 4, 1024);
    const int cols = n + 1;
    const size_t bytes = (size_t)n * cols * sizeof(float);
    float *ab = malloc(bytes), *host = malloc(bytes), *result = malloc(bytes);
    float *ratio = calloc((size_t)n, sizeof(float));
    unsigned seed = 31;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < cols; j++)
            ab[i * cols + j] = rand_unit(&seed) + (i == j ? (float)n : 0.0f);
    memcpy(host, ab, bytes);

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/gauss_steps.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel ratios = create_kernel(program, "pivot_ratios");
    cl_kernel eliminate = create_kernel(program, "eliminate");
    cl_mem dab = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, ab, &err);
    CHECK(err);
    cl_mem dratio = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                   (size_t)n * sizeof(float), ratio, &err);
    CHECK(err);
    const size_t global1 = (size_t)n, global2[2] = {(size_t)(cols + 3) / 4 * 4, (size_t)n};
    for (int t = 0; t < n - 1; t++) {
        /* Every argument set before each launch, as many hosts do. */
        CHECK(clSetKernelArg(ratios, 0, sizeof dab, &dab));
        CHECK(clSetKernelArg(ratios, 1, sizeof dratio, &dratio));
        CHECK(clSetKernelArg(ratios, 2, sizeof n, &n));
        CHECK(clSetKernelArg(ratios, 3, sizeof t, &t));
        CHECK(clEnqueueNDRangeKernel(queue, ratios, 1, NULL, &global1, NULL, 0, NULL, NULL));
        CHECK(clSetKernelArg(eliminate, 0, sizeof dab, &dab));
        CHECK(clSetKernelArg(eliminate, 1, sizeof dratio, &dratio));
        CHECK(clSetKernelArg(eliminate, 2, sizeof n, &n));
        CHECK(clSetKernelArg(eliminate, 3, sizeof t, &t));
        CHECK(clEnqueueNDRangeKernel(queue, eliminate, 2, NULL, global2, NULL, 0, NULL, NULL));
    }
    CHECK(clEnqueueReadBuffer(queue, dab, CL_TRUE, 0, bytes, result, 0, NULL, NULL));

    /* The host's elimination, the same arithmetic. */
    for (int t = 0; t < n - 1; t++)
        for (int row = t + 1; row < n; row++) {
            float r = host[row * cols + t] / host[t * cols + t];
            host[row * cols + t] = 0.0f;
            for (int c = t + 1; c < cols; c++)
                host[row * cols + c] -= r * host[t * cols + c];
        }
    double *x = malloc((size_t)n * sizeof(double)), *y = malloc((size_t)n * sizeof(double));
    solve(result, n, x);
    solve(host, n, y);
    int bad = 0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        if (fabs(x[i] - y[i]) > 1e-4 * (1.0 + fabs(y[i]))) {
            if (bad < 5)
                fprintf(stderr, "x[%d] = %g, expected %g\n", i, x[i], y[i]);
            bad++;
        }
        sum += x[i];
    }

    clReleaseMemObject(dab);
    clReleaseMemObject(dratio);
    clReleaseKernel(ratios);
    clReleaseKernel(eliminate);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(ab);
    free(host);
    free(result);
    free(ratio);
    free(x);
    free(y);

    if (bad) {
        printf("gauss_steps: FAILED (%d of %d unknowns differ)\n", bad, n);
        return 1;
    }
    printf("gauss_steps: OK (%d unknowns, %d launches, sum of x %.4f)\n", n, 2 * (n - 1), sum);
    return 0;
}
