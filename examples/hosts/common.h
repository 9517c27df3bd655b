/* Small helpers shared by the example OpenCL 1.2 host programs.
 *
 * Kernel files are found relative to EXAMPLES_DIR (the absolute path of examples/, set by
 * the Makefile with -DEXAMPLES_DIR=...), so the binaries run from any working directory.
 * The environment variable SRCSIM_EXAMPLES_DIR, when set, overrides it. */
#ifndef SRCSIM_EXAMPLES_COMMON_H
#define SRCSIM_EXAMPLES_COMMON_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef EXAMPLES_DIR
#define EXAMPLES_DIR "."
#endif

/* Any OpenCL call that does not return CL_SUCCESS ends the program with exit code 2. */
#define CHECK(expr)                                                                     \
    do {                                                                                \
        cl_int check_err_ = (expr);                                                     \
        if (check_err_ != CL_SUCCESS) {                                                 \
            fprintf(stderr, "%s:%d: OpenCL error %d in %s\n", __FILE__, __LINE__,       \
                    (int)check_err_, #expr);                                            \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

/* The first device of `type` on the first platform that has one; NULL when none has. */
static inline cl_device_id pick_device(cl_device_type type, cl_platform_id *platform_out)
{
    cl_platform_id platforms[16];
    cl_uint num_platforms = 0;
    CHECK(clGetPlatformIDs(16, platforms, &num_platforms));
    if (num_platforms > 16)
        num_platforms = 16;
    for (cl_uint p = 0; p < num_platforms; p++) {
        cl_device_id device;
        cl_uint num_devices = 0;
        cl_int err = clGetDeviceIDs(platforms[p], type, 1, &device, &num_devices);
        if (err == CL_SUCCESS && num_devices > 0) {
            if (platform_out)
                *platform_out = platforms[p];
            return device;
        }
        if (err != CL_DEVICE_NOT_FOUND)
            CHECK(err);
    }
    return NULL;
}

/* Like pick_device, but a missing device ends the program with exit code 2. */
static inline cl_device_id require_device(cl_device_type type, cl_platform_id *platform_out)
{
    cl_device_id device = pick_device(type, platform_out);
    if (!device) {
        fprintf(stderr, "no OpenCL device of type 0x%lx found\n", (unsigned long)type);
        exit(2);
    }
    return device;
}

/* The whole file, NUL-terminated (exit code 2 when it cannot be read). `rel` is relative
 * to the examples directory, e.g. "kernels/vector_add.cl". */
static inline char *read_kernel_file(const char *rel)
{
    const char *dir = getenv("SRCSIM_EXAMPLES_DIR");
    if (!dir || !*dir)
        dir = EXAMPLES_DIR;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *text = malloc((size_t)len + 1);
    if (!text || fread(text, 1, (size_t)len, f) != (size_t)len) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    text[len] = '\0';
    fclose(f);
    return text;
}

/* Builds `source` for `device`; on failure prints the build log and exits with code 2. */
static inline cl_program build_program(cl_context ctx, cl_device_id device,
                                       const char *source, const char *options)
{
    cl_int err;
    cl_program program = clCreateProgramWithSource(ctx, 1, &source, NULL, &err);
    CHECK(err);
    err = clBuildProgram(program, 1, &device, options, NULL, NULL);
    if (err != CL_SUCCESS) {
        size_t log_size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &log_size);
        char *log = malloc(log_size + 1);
        if (log) {
            clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, log_size, log, NULL);
            log[log_size] = '\0';
            fprintf(stderr, "build failed (%d):\n%s\n", (int)err, log);
            free(log);
        }
        exit(2);
    }
    return program;
}

/* Kernel `name` of `program`; a failure ends the program (CHECK). */
static inline cl_kernel create_kernel(cl_program program, const char *name)
{
    cl_int err;
    cl_kernel k = clCreateKernel(program, name, &err);
    CHECK(err);
    return k;
}

/* The problem size: the program's only argument when there is one, else `fallback`. It
 * must be a positive multiple of `multiple`, at most `max`; anything else ends the program
 * with a usage line and exit code 64. Smaller sizes keep runs on slow simulators (Oclgrind)
 * short. */
static inline int size_arg(int argc, char **argv, int fallback, int multiple, int max)
{
    if (argc < 2)
        return fallback;
    char *end;
    long n = strtol(argv[1], &end, 10);
    if (argc > 2 || *end || end == argv[1] || n <= 0 || n % multiple || n > max) {
        fprintf(stderr, "usage: %s [SIZE]   (SIZE: a multiple of %d, at most %d; default %d)\n",
                argv[0], multiple, max, fallback);
        exit(64);
    }
    return (int)n;
}

/* Deterministic pseudo-random numbers (xorshift32), identical on every host. */
static inline unsigned next_rand(unsigned *state)
{
    unsigned x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *state = x;
}

/* Uniform in [0, 1). */
static inline float rand_unit(unsigned *state)
{
    return (float)(next_rand(state) >> 8) / 16777216.0f;
}

#endif
