/* What the OpenCL ports of the GPU microbenchmarks (validation/ubench, one C file each) share: the
 * command line of the CUDA originals (accel-sim/gpu-app-collection,
 * src/cuda/GPU_Microbenchmark, hw_def/common/gpuConfig.h), with the values an H100 SXM
 * reports as defaults, and the OpenCL plumbing (device, program, buffers, one launch timed
 * with profiling events, a checksum).
 *
 * Kernel files are read from UBENCH_DIR (absolute, set by the Makefile); the environment
 * variable SRCSIM_UBENCH_DIR overrides it. */
#ifndef SRCSIM_UBENCH_H
#define SRCSIM_UBENCH_H

#include "common.h" /* examples/hosts/common.h: CHECK, require_device, build_program */

#include <stdint.h>

#ifndef UBENCH_DIR
#define UBENCH_DIR "."
#endif

/* The originals' GpuConfig. The defaults are what an H100 SXM (80 GB HBM3) reports through
 * cudaGetDeviceProperties: 132 SMs, 2048 threads and 228 KiB of shared memory per SM,
 * 1024 threads per block, a 50 MiB L2; L1 256 KiB per SM (NVIDIA H100 whitepaper). Like
 * the originals, the launch defaults to blocks of the largest size, as many per SM as fit
 * (2), on every SM. `--sm`, `--l1`, `--l2` and `--msmem` stand in for the device query
 * (the A100's values: --sm 108 --l1 196608 --l2 41943040 --msmem 167936). */
typedef struct {
    unsigned sm_number, warp_size, max_threads_per_sm, max_shared_mem_per_sm;
    size_t l1_size, l2_size;
    unsigned threads_per_block, blocks_per_sm, threads_per_sm, blocks_num, total_threads;
    int fast;            /* --fast: the originals' shorter run */
    int positional[4];   /* plain numbers, in order (shared_bank_conflicts' kernel option) */
    int n_positional;
} ub_config;

static inline unsigned long long ub_number(const char *prog, const char *flag, const char *s)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *end) {
        fprintf(stderr, "%s: %s needs a number, not '%s'\n", prog, flag, s);
        exit(64);
    }
    return v;
}

/* Parses the command line as gpuConfig.h's parseGpuConfigArgs does (after the device
 * query): blocks per SM = max threads per SM / threads per block, threads per SM = blocks
 * per SM x threads per block (so `--tpsm` is overridden, as in the original), total
 * threads = threads per block x blocks. Unknown options end the program (exit 64). */
static inline ub_config ub_parse(int argc, char **argv)
{
    ub_config c = {
        .sm_number = 132, .warp_size = 32, .max_threads_per_sm = 2048,
        .max_shared_mem_per_sm = 233472, .l1_size = 256 * 1024,
        .l2_size = 50 * 1024 * 1024, .threads_per_block = 1024,
    };
    int blocks_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--fast")) {
            c.fast = 1;
            continue;
        }
        if (a[0] != '-') {
            if (c.n_positional == 4) {
                fprintf(stderr, "%s: too many arguments\n", argv[0]);
                exit(64);
            }
            c.positional[c.n_positional++] = (int)ub_number(argv[0], "an argument", a);
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs a value\n", argv[0], a);
            exit(64);
        }
        unsigned long long v = ub_number(argv[0], a, argv[i + 1]);
        if (!strcmp(a, "--sm")) c.sm_number = (unsigned)v;
        else if (!strcmp(a, "--mtsm")) c.max_threads_per_sm = (unsigned)v;
        else if (!strcmp(a, "--msmem")) c.max_shared_mem_per_sm = (unsigned)v;
        else if (!strcmp(a, "--l1")) c.l1_size = (size_t)v;
        else if (!strcmp(a, "--l2")) c.l2_size = (size_t)v;
        else if (!strcmp(a, "--tpb")) c.threads_per_block = (unsigned)v;
        else if (!strcmp(a, "--tpsm")) c.threads_per_sm = (unsigned)v;
        else if (!strcmp(a, "--bpsm")) c.blocks_per_sm = (unsigned)v;
        else if (!strcmp(a, "--blocks")) { c.blocks_num = (unsigned)v; blocks_given = 1; }
        else {
            fprintf(stderr, "%s: unknown option %s (--sm --mtsm --msmem --l1 --l2 --tpb "
                            "--tpsm --bpsm --blocks --fast)\n", argv[0], a);
            exit(64);
        }
        i++;
    }
    if (c.threads_per_block == 0 || c.threads_per_block > c.max_threads_per_sm ||
        c.sm_number == 0) {
        fprintf(stderr, "%s: bad configuration\n", argv[0]);
        exit(64);
    }
    c.blocks_per_sm = c.max_threads_per_sm / c.threads_per_block;
    c.threads_per_sm = c.blocks_per_sm * c.threads_per_block;
    /* Without --blocks: the device query's default, every SM full. */
    if (!blocks_given)
        c.blocks_num = c.blocks_per_sm * c.sm_number;
    c.total_threads = c.threads_per_block * c.blocks_num;
    return c;
}

/* The OpenCL objects of one port: a GPU if there is one (srcsim answers as the simulated
 * GPU on a machine without one), else the first device; a profiling queue. */
typedef struct {
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    const char *name;
} ub_cl;

static inline char *ub_read_kernel(const char *file)
{
    const char *dir = getenv("SRCSIM_UBENCH_DIR");
    if (!dir || !*dir)
        dir = UBENCH_DIR;
    char path[4096];
    snprintf(path, sizeof path, "%s/kernels/%s", dir, file);
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

static inline ub_cl ub_open(const char *name, const char *kernel_file, const char *options)
{
    ub_cl cl = {.name = name};
    cl_platform_id platform;
    cl.device = pick_device(CL_DEVICE_TYPE_GPU, &platform);
    if (!cl.device)
        cl.device = require_device(CL_DEVICE_TYPE_ALL, &platform);
    /* Which device the times are of (scripts/calibrate --measure records it). */
    char device_name[256] = "?";
    clGetDeviceInfo(cl.device, CL_DEVICE_NAME, sizeof device_name, device_name, NULL);
    fprintf(stderr, "%s: device %s\n", name, device_name);
    cl_int err;
    cl.ctx = clCreateContext(NULL, 1, &cl.device, NULL, NULL, &err);
    CHECK(err);
    cl.queue = clCreateCommandQueue(cl.ctx, cl.device, CL_QUEUE_PROFILING_ENABLE, &err);
    CHECK(err);
    char *source = ub_read_kernel(kernel_file);
    cl.program = build_program(cl.ctx, cl.device, source, options);
    free(source);
    return cl;
}

static inline cl_kernel ub_kernel(ub_cl *cl, const char *name)
{
    return create_kernel(cl->program, name);
}

/* A device buffer of `bytes`, copied from `init` (or zero-filled when it is NULL). */
static inline cl_mem ub_buffer(ub_cl *cl, size_t bytes, const void *init)
{
    cl_int err;
    cl_mem m = clCreateBuffer(cl->ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    if (init) {
        CHECK(clEnqueueWriteBuffer(cl->queue, m, CL_TRUE, 0, bytes, init, 0, NULL, NULL));
    } else {
        unsigned char zero = 0;
        CHECK(clEnqueueFillBuffer(cl->queue, m, &zero, 1, 0, bytes, 0, NULL, NULL));
        CHECK(clFinish(cl->queue));
    }
    return m;
}

static inline void ub_read(ub_cl *cl, cl_mem m, size_t bytes, void *out)
{
    CHECK(clEnqueueReadBuffer(cl->queue, m, CL_TRUE, 0, bytes, out, 0, NULL, NULL));
}

#define UB_ARG(kernel, index, value)                                                    \
    do {                                                                                \
        __typeof__(value) ub_arg_ = (value);                                            \
        CHECK(clSetKernelArg((kernel), (index), sizeof ub_arg_, &ub_arg_));             \
    } while (0)

/* One launch, waited for; its device time (OpenCL profiling, START to END) goes to stderr
 * (on a GPU the kernel's time; under srcsim the CPU's, not the estimate). */
static inline void ub_launch(ub_cl *cl, cl_kernel k, cl_uint dims, const size_t *global,
                             const size_t *local)
{
    cl_event ev;
    CHECK(clEnqueueNDRangeKernel(cl->queue, k, dims, NULL, global, local, 0, NULL, &ev));
    CHECK(clWaitForEvents(1, &ev));
    cl_ulong start = 0, end = 0;
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, NULL));
    CHECK(clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, NULL));
    char kname[128] = "";
    CHECK(clGetKernelInfo(k, CL_KERNEL_FUNCTION_NAME, sizeof kname, kname, NULL));
    fprintf(stderr, "%s: kernel %s: %.3f us (OpenCL profiling)\n", cl->name, kname,
            (double)(end - start) / 1000.0);
    CHECK(clReleaseEvent(ev));
}

/* 1-D launch of `blocks` work-groups of `threads`. */
static inline void ub_launch_1d(ub_cl *cl, cl_kernel k, size_t blocks, size_t threads)
{
    size_t global = blocks * threads, local = threads;
    ub_launch(cl, k, 1, &global, &local);
}

/* FNV-1a over the bytes: the checksum line of every port. */
static inline uint64_t ub_fnv(uint64_t h, const void *data, size_t bytes)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < bytes; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}
#define UB_FNV_INIT 14695981039346656037ULL

static inline void ub_close(ub_cl *cl)
{
    CHECK(clReleaseProgram(cl->program));
    CHECK(clReleaseCommandQueue(cl->queue));
    CHECK(clReleaseContext(cl->ctx));
}

static inline void *ub_alloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "out of memory (%zu bytes)\n", bytes);
        exit(2);
    }
    return p;
}

#endif
