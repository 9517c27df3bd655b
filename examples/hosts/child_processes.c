/* child_processes: a host that starts processes of its own and waits for any child
 * (`wait()`), as job runners and test harnesses do, after an OpenCL context is released.
 * Covers: srcsim's own processes (the keeper it starts to keep a first run's binaries,
 * once the application releases its context) are no children of the application's:
 * wait() returns exactly the two children it forked, then fails with ECHILD. Prints the
 * kernel's checksum and what wait() returned; exit code 1 where wait() returned a child
 * it did not start. */
#define _POSIX_C_SOURCE 200809L
#include "common.h"

#include <errno.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 4096

int main(void)
{
    const size_t global = N, local = 64;
    float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
    float *c = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++) {
        a[i] = (float)(i % 11);
        b[i] = (float)(i % 13);
    }

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("kernels/vector_add.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = create_kernel(program, "vector_add");
    cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               N * sizeof(float), a, &err);
    CHECK(err);
    cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                               N * sizeof(float), b, &err);
    CHECK(err);
    cl_mem dc = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, N * sizeof(float), NULL, &err);
    CHECK(err);
    cl_int n = N;
    CHECK(clSetKernelArg(kernel, 0, sizeof da, &da));
    CHECK(clSetKernelArg(kernel, 1, sizeof db, &db));
    CHECK(clSetKernelArg(kernel, 2, sizeof dc, &dc));
    CHECK(clSetKernelArg(kernel, 3, sizeof n, &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, N * sizeof(float), c, 0, NULL, NULL));
    double checksum = 0.0;
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += c[i] != a[i] + b[i];
        checksum += c[i];
    }
    printf("child_processes: checksum %.1f%s\n", checksum, bad ? " (WRONG)" : "");
    clReleaseMemObject(da);
    clReleaseMemObject(db);
    clReleaseMemObject(dc);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    fflush(stdout);

    /* Two children of its own, each exiting with a code of its own. */
    pid_t own[2];
    for (int k = 0; k < 2; k++) {
        own[k] = fork();
        if (own[k] < 0) {
            perror("fork");
            return 2;
        }
        if (own[k] == 0)
            _exit(20 + k);
    }
    /* The children exit in either order, so their codes are printed sorted: the output
     * of a run is the same whatever order wait() returned them in. */
    int foreign = 0, waited = 0, codes[2], n_own = 0;
    const char *failed = NULL;
    for (;;) {
        int status = 0;
        pid_t pid = wait(&status);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            failed = errno == ECHILD ? "ECHILD (no child left)" : strerror(errno);
            break;
        }
        int ours = pid == own[0] || pid == own[1];
        if (ours && n_own < 2)
            codes[n_own++] = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        foreign += !ours;
        waited++;
    }
    if (n_own == 2 && codes[0] > codes[1]) {
        int t = codes[0];
        codes[0] = codes[1];
        codes[1] = t;
    }
    for (int k = 0; k < n_own; k++)
        printf("child_processes: wait() returned a child of its own, exit code %d\n", codes[k]);
    for (int k = 0; k < foreign; k++)
        printf("child_processes: wait() returned a child it did not start\n");
    printf("child_processes: then wait() failed with %s\n", failed);
    free(a);
    free(b);
    free(c);
    return foreign || bad || waited != 2 ? 1 : 0;
}
