/* threads: four host threads share one context; each builds its own program (with its
 * own -D SCALE=k), creates its own kernel and queue, and launches it eight times, checking
 * every result. Covers: a thread-safe host (programs built and kernels launched from
 * several threads at once), build options with -D. */
#include "common.h"
#include <pthread.h>

#define THREADS 4
#define LAUNCHES 8
#define N 4096

static const char *source =
    "__kernel void scale(__global int *x, const int add)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    x[i] = x[i] * SCALE + add;\n"
    "}\n";

static cl_context ctx;
static cl_device_id device;

static void *worker(void *arg)
{
    int k = (int)(size_t)arg + 2;
    cl_int err;
    char options[32];
    snprintf(options, sizeof options, "-D SCALE=%d", k);
    cl_program program = build_program(ctx, device, source, options);
    cl_kernel kernel = clCreateKernel(program, "scale", &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * sizeof(int), NULL, &err);
    CHECK(err);
    int *host = malloc(N * sizeof(int));
    size_t global = N, local = 64;
    long failures = 0;
    for (int l = 0; l < LAUNCHES; l++) {
        for (int i = 0; i < N; i++)
            host[i] = i % 97;
        CHECK(clEnqueueWriteBuffer(queue, buf, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
        CHECK(clSetKernelArg(kernel, 0, sizeof buf, &buf));
        CHECK(clSetKernelArg(kernel, 1, sizeof l, &l));
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof(int), host, 0, NULL, NULL));
        for (int i = 0; i < N; i++)
            failures += host[i] != (i % 97) * k + l;
    }
    free(host);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    return (void *)failures;
}

int main(void)
{
    cl_platform_id platform;
    device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    pthread_t threads[THREADS];
    for (size_t t = 0; t < THREADS; t++)
        pthread_create(&threads[t], NULL, worker, (void *)t);
    long failures = 0;
    for (int t = 0; t < THREADS; t++) {
        void *r;
        pthread_join(threads[t], &r);
        failures += (long)r;
    }
    clReleaseContext(ctx);
    if (failures) {
        printf("threads: %ld wrong values\n", failures);
        return 1;
    }
    printf("threads: OK (%d threads x %d launches)\n", THREADS, LAUNCHES);
    return 0;
}
