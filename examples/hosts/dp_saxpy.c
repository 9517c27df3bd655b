/* dp_saxpy: a double-precision a*x+y with a twist for negative x.
 * Covers: double (cl_khr_fp64, checked in CL_DEVICE_EXTENSIONS; exit 3 without it), a
 * double scalar kernel argument, an early return for the work-items past the end, a
 * divergent if/else on the sign of the data, a helper function with its own early return
 * (zero denominator), sqrt in double, the kernel embedded in the host program as a string,
 * double check with a tight tolerance. */
#include "common.h"

#include <math.h>

static const char *kernel_source =
    "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
    "\n"
    "// num / den, or 0 when den is exactly 0.\n"
    "double safe_ratio(double num, double den)\n"
    "{\n"
    "    if (den == 0.0)\n"
    "        return 0.0;\n"
    "    return num / den;\n"
    "}\n"
    "\n"
    "__kernel void dp_saxpy(__global const double *x, __global double *y,\n"
    "                       const double a, const int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i >= n)\n"
    "        return;\n"
    "    double xi = x[i];\n"
    "    double yi = y[i];\n"
    "    double r;\n"
    "    if (xi >= 0.0) {\n"
    "        r = a * xi + yi;\n"
    "    } else {\n"
    "        r = safe_ratio(yi, xi + 1.0) - a * sqrt(-xi);\n"
    "    }\n"
    "    y[i] = r;\n"
    "}\n";

static double safe_ratio(double num, double den)
{
    if (den == 0.0)
        return 0.0;
    return num / den;
}

int main(void)
{
    const int n = 100003;
    const double a = 2.718281828459045;
    const size_t local = 256;
    const size_t global = ((size_t)n + local - 1) / local * local;

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    size_t ext_size = 0;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, NULL, &ext_size));
    char *extensions = malloc(ext_size + 1);
    CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, ext_size, extensions, NULL));
    extensions[ext_size] = '\0';
    if (!strstr(extensions, "cl_khr_fp64")) {
        printf("dp_saxpy: skipped (the device does not support cl_khr_fp64)\n");
        free(extensions);
        return 3;
    }
    free(extensions);

    double *x = malloc(n * sizeof(double));
    double *y = malloc(n * sizeof(double));
    double *result = malloc(n * sizeof(double));
    unsigned seed = 6502;
    for (int i = 0; i < n; i++) {
        x[i] = (i % 50 == 7) ? -1.0 : (double)rand_unit(&seed) * 8.0 - 4.0 + 1e-9 * i;
        y[i] = (double)rand_unit(&seed) * 100.0;
    }

    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_program program = build_program(ctx, device, kernel_source, "");
    cl_kernel kernel = clCreateKernel(program, "dp_saxpy", &err);
    CHECK(err);

    cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(double),
                               x, &err);
    CHECK(err);
    cl_mem dy = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(double),
                               y, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dx));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dy));
    CHECK(clSetKernelArg(kernel, 2, sizeof(double), &a));
    CHECK(clSetKernelArg(kernel, 3, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, n * sizeof(double), result, 0, NULL,
                              NULL));

    int bad = 0, negative = 0, zero_den = 0;
    double sum = 0.0;
    for (int i = 0; i < n; i++) {
        double want;
        if (x[i] >= 0.0) {
            want = a * x[i] + y[i];
        } else {
            negative++;
            zero_den += x[i] + 1.0 == 0.0;
            want = safe_ratio(y[i], x[i] + 1.0) - a * sqrt(-x[i]);
        }
        if (fabs(result[i] - want) > 1e-12 * (1.0 + fabs(want))) {
            if (bad < 5)
                fprintf(stderr, "y[%d] = %.17g, expected %.17g\n", i, result[i], want);
            bad++;
        }
        sum += result[i];
    }

    clReleaseMemObject(dx);
    clReleaseMemObject(dy);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(x);
    free(y);
    free(result);

    if (bad) {
        printf("dp_saxpy: FAILED (%d of %d elements differ)\n", bad, n);
        return 1;
    }
    printf("dp_saxpy: OK (n=%d, negative=%d, zero denominators=%d, sum=%.6f)\n", n, negative,
           zero_den, sum);
    return 0;
}
