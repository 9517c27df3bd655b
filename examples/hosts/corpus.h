/* Shared by the corpus hosts (corpus_*.c): one context, queue and program per host, and
 * short helpers for buffers, arguments, launches and checksums. Every corpus host prints
 * one line per kernel with a checksum of what it computed, checks what it can against a
 * host reference (exit 1 on a difference) and exits 0. The inputs are small integers or
 * dyadic fractions wherever the arithmetic allows, so that the sums printed are exact. */
#ifndef SRCSIM_EXAMPLES_CORPUS_H
#define SRCSIM_EXAMPLES_CORPUS_H

#include "common.h"

#include <math.h>

typedef struct {
    cl_device_id device;
    cl_context ctx;
    cl_command_queue queue;
    cl_program program;
    const char *name;
    int failed;
} corpus_t;

static inline corpus_t corpus_open(const char *name, const char *file, const char *options)
{
    corpus_t c;
    cl_int err;
    c.name = name;
    c.failed = 0;
    c.device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    c.ctx = clCreateContext(NULL, 1, &c.device, NULL, NULL, &err);
    CHECK(err);
    c.queue = clCreateCommandQueue(c.ctx, c.device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file(file);
    c.program = build_program(c.ctx, c.device, source, options);
    free(source);
    return c;
}

static inline cl_kernel corpus_kernel(corpus_t *c, const char *name)
{
    return create_kernel(c->program, name);
}

/* A buffer holding a copy of `bytes` bytes at `host`; zero-filled when `host` is NULL. */
static inline cl_mem corpus_buffer(corpus_t *c, const void *host, size_t bytes)
{
    cl_int err;
    void *zeros = NULL;
    if (!host)
        host = zeros = calloc(1, bytes);
    cl_mem m = clCreateBuffer(c->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                              (void *)host, &err);
    CHECK(err);
    free(zeros);
    return m;
}

static inline void corpus_write(corpus_t *c, cl_mem m, const void *host, size_t bytes)
{
    CHECK(clEnqueueWriteBuffer(c->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

static inline void corpus_read(corpus_t *c, cl_mem m, void *host, size_t bytes)
{
    CHECK(clEnqueueReadBuffer(c->queue, m, CL_TRUE, 0, bytes, host, 0, NULL, NULL));
}

#define ARG_MEM(k, i, m)                                                                \
    do {                                                                                \
        cl_mem arg_ = (m);                                                              \
        CHECK(clSetKernelArg((k), (i), sizeof(cl_mem), &arg_));                         \
    } while (0)
#define ARG_LOCAL(k, i, bytes) CHECK(clSetKernelArg((k), (i), (bytes), NULL))
#define ARG_INT(k, i, v)                                                                \
    do {                                                                                \
        cl_int arg_ = (v);                                                              \
        CHECK(clSetKernelArg((k), (i), sizeof(cl_int), &arg_));                         \
    } while (0)
#define ARG_FLOAT(k, i, v)                                                              \
    do {                                                                                \
        cl_float arg_ = (v);                                                            \
        CHECK(clSetKernelArg((k), (i), sizeof(cl_float), &arg_));                       \
    } while (0)

/* 1D, 2D launches; `local` 0 means a NULL local size. */
static inline void launch1(corpus_t *c, cl_kernel k, size_t global, size_t local)
{
    CHECK(clEnqueueNDRangeKernel(c->queue, k, 1, NULL, &global, local ? &local : NULL, 0, NULL,
                                 NULL));
}

static inline void launch2(corpus_t *c, cl_kernel k, size_t gx, size_t gy, size_t lx, size_t ly)
{
    const size_t global[2] = {gx, gy}, local[2] = {lx, ly};
    CHECK(clEnqueueNDRangeKernel(c->queue, k, 2, NULL, global, lx ? local : NULL, 0, NULL,
                                 NULL));
}

/* FNV-1a over n ints. */
static inline unsigned checksum_ints(const int *v, size_t n)
{
    unsigned h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned)v[i];
        h *= 16777619u;
    }
    return h;
}

static inline double sum_floats(const float *v, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

/* Compares n ints with a reference; prints the first differences, marks the host failed. */
static inline void expect_ints(corpus_t *c, const char *what, const int *got, const int *want,
                               size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (got[i] != want[i]) {
            if (bad < 3)
                fprintf(stderr, "%s %s[%zu] = %d, expected %d\n", c->name, what, i, got[i],
                        want[i]);
            bad++;
        }
    if (bad)
        c->failed = 1;
}

/* Compares n floats with a reference, within a relative tolerance. */
static inline void expect_floats(corpus_t *c, const char *what, const float *got,
                                 const float *want, size_t n, float tol)
{
    int bad = 0;
    for (size_t i = 0; i < n; i++)
        if (!(fabsf(got[i] - want[i]) <= tol * (1.0f + fabsf(want[i])))) {
            if (bad < 3)
                fprintf(stderr, "%s %s[%zu] = %g, expected %g\n", c->name, what, i, got[i],
                        want[i]);
            bad++;
        }
    if (bad)
        c->failed = 1;
}

/* Ends the host: 0 when every check passed, 1 otherwise. */
static inline int corpus_close(corpus_t *c)
{
    clReleaseProgram(c->program);
    clReleaseCommandQueue(c->queue);
    clReleaseContext(c->ctx);
    printf("%s: %s\n", c->name, c->failed ? "FAILED" : "OK");
    return c->failed;
}

#endif
