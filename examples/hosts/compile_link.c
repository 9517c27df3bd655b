/* compile_link: a program built by separate compilation, as the OpenCL CTS and
 * applications with libraries of kernels' helpers do.
 * Covers: two units (a kernel and the helper it calls) compiled with clCompileProgram,
 * each given the header they share by include name, then linked with clLinkProgram into
 * an executable and launched (a = 2); then the helper's unit linked alone into a library
 * (-create-library), and the kernel's unit linked with that library into a second
 * executable and launched on the result (a = 3). Prints the checksum, checked against the
 * host's own arithmetic. */
#include "common.h"

#define N 4096

static cl_program from_source(cl_context ctx, const char *path)
{
    cl_int err;
    char *text = read_kernel_file(path);
    const char *source = text;
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    free(text);
    return program;
}

static void compile(cl_program program, cl_device_id device, cl_program header)
{
    const char *name = "compile_link_coeffs.h";
    cl_int err = clCompileProgram(program, 1, &device, "-cl-std=CL1.2", 1, &header, &name,
                                  NULL, NULL);
    if (err != CL_SUCCESS) {
        char log[4096] = "";
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
        fprintf(stderr, "compile failed (%d):\n%s\n", (int)err, log);
        exit(2);
    }
}

static cl_program link_programs(cl_context ctx, cl_device_id device, const char *options,
                                cl_uint n, const cl_program *programs)
{
    cl_int err;
    cl_program linked = clLinkProgram(ctx, 1, &device, options, n, programs, NULL, NULL,
                                      &err);
    CHECK(err);
    return linked;
}

static void launch(cl_command_queue queue, cl_program program, cl_mem x, float a)
{
    const size_t global = N, local = 64;
    cl_kernel kernel = create_kernel(program, "steps");
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &x));
    CHECK(clSetKernelArg(kernel, 1, sizeof(float), &a));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    clReleaseKernel(kernel);
}

int main(void)
{
    float *x = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 5);

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                N * sizeof(float), x, &err);
    CHECK(err);

    cl_program header = from_source(ctx, "hosts/kernels/compile_link_coeffs.h");
    cl_program main_unit = from_source(ctx, "hosts/kernels/compile_link_main.cl");
    cl_program step_unit = from_source(ctx, "hosts/kernels/compile_link_step.cl");
    compile(main_unit, device, header);
    compile(step_unit, device, header);

    const cl_program both[] = {main_unit, step_unit};
    cl_program exe = link_programs(ctx, device, "", 2, both);
    launch(queue, exe, buf, 2.0f);

    cl_program library = link_programs(ctx, device, "-create-library", 1, &step_unit);
    const cl_program with_library[] = {main_unit, library};
    cl_program exe2 = link_programs(ctx, device, "", 2, with_library);
    launch(queue, exe2, buf, 3.0f);

    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof(float), x, 0, NULL, NULL));
    int bad = 0;
    double checksum = 0.0;
    const float factors[] = {2.0f, 3.0f};
    for (int i = 0; i < N; i++) {
        float want = (float)(i % 5);
        for (int r = 0; r < 2; r++)
            for (int k = 0; k < (i & 3); k++)
                want = want * factors[r] + 1.0f;
        if (x[i] != want && bad++ < 5)
            fprintf(stderr, "x[%d] = %g, expected %g\n", i, x[i], want);
        checksum += x[i];
    }
    printf("compile_link: checksum %.1f\n", checksum);

    clReleaseProgram(exe2);
    clReleaseProgram(library);
    clReleaseProgram(exe);
    clReleaseProgram(step_unit);
    clReleaseProgram(main_unit);
    clReleaseProgram(header);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(x);
    return bad ? 1 : 0;
}
