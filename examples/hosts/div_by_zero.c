/* div_by_zero: integer division and remainder (`/`, `%`, `/=`, `%=`) of int, uint, char,
 * long and int4 over 256 elements, every fifth divisor zero, as the OpenCL conformance
 * suite's integer tests divide (kernels/div_by_zero.cl). OpenCL leaves the results of
 * a division by zero undefined: the quotients and remainders of the others are checked
 * against the host's own; a checksum of each is printed, the undefined ones included
 * (PoCL's SIGFPE handler steps over the trapping instruction, deterministically).
 * Covers a program whose kernels trap and are recovered by the runtime: it must run to
 * the end, with the same output, under the shim too. */
#include "common.h"

#include <stdint.h>

#define N 256
#define LOCAL 64

/* One kernel of kernels/div_by_zero.cl: its element type's size in bytes, whether it is
 * signed, and its lanes (int4: 4). */
struct case_ {
    const char *kernel;
    size_t size;
    int is_signed;
    int lanes;
};

static const struct case_ CASES[] = {
    {"div_int", 4, 1, 1},  {"div_uint", 4, 0, 1},  {"div_char", 1, 1, 1},
    {"div_long", 8, 1, 1}, {"div_int4", 4, 1, 4}, {"div_assign_int", 4, 1, 1},
};

/* Element i of `buf` (elements of `size` bytes), sign- or zero-extended. */
static int64_t load(const unsigned char *buf, size_t size, int is_signed, int i)
{
    switch (size) {
    case 1:
        return is_signed ? (int64_t)((const int8_t *)buf)[i] : ((const uint8_t *)buf)[i];
    case 4:
        return is_signed ? (int64_t)((const int32_t *)buf)[i] : ((const uint32_t *)buf)[i];
    default:
        return ((const int64_t *)buf)[i];
    }
}

static void store(unsigned char *buf, size_t size, int i, int64_t v)
{
    switch (size) {
    case 1:
        ((int8_t *)buf)[i] = (int8_t)v;
        break;
    case 4:
        ((int32_t *)buf)[i] = (int32_t)v;
        break;
    default:
        ((int64_t *)buf)[i] = v;
    }
}

/* FNV-1a over `n` bytes, continuing from `h`. */
static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        h = (h ^ p[k]) * 1099511628211ull;
    return h;
}

int main(void)
{
    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/div_by_zero.cl");
    cl_program program = build_program(ctx, device, source, "");

    int bad = 0;
    unsigned seed = 3535;
    for (size_t c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        const struct case_ *k = &CASES[c];
        const int n = N * k->lanes;
        const size_t bytes = (size_t)n * k->size;
        unsigned char *a = malloc(bytes), *b = malloc(bytes);
        unsigned char *q = malloc(bytes), *r = malloc(bytes);
        int zeros = 0;
        for (int i = 0; i < n; i++) {
            /* Dividends of the type's whole range but its minimum (whose division by -1
             * overflows, also undefined); divisors small, every fifth zero. */
            int64_t x = (int64_t)next_rand(&seed) << 32 | next_rand(&seed);
            if (k->size < 8)
                x = k->is_signed ? (int64_t)(x % ((int64_t)1 << (8 * k->size - 1)))
                                 : (int64_t)((uint64_t)x % ((uint64_t)1 << (8 * k->size)));
            else if (x == INT64_MIN)
                x = 0;
            int64_t y = (int64_t)(next_rand(&seed) % 15) - (k->is_signed ? 7 : 0);
            if (i % 5 == 0)
                y = 0;
            zeros += y == 0;
            store(a, k->size, i, x);
            store(b, k->size, i, y);
        }
        cl_kernel kernel = create_kernel(program, k->kernel);
        cl_mem da = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, a, &err);
        CHECK(err);
        cl_mem db = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, b, &err);
        CHECK(err);
        cl_mem dq = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
        CHECK(err);
        cl_mem dr = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
        CHECK(err);
        CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &da));
        CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &db));
        CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dq));
        CHECK(clSetKernelArg(kernel, 3, sizeof(cl_mem), &dr));
        const size_t global = N, local = LOCAL;
        CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, dq, CL_TRUE, 0, bytes, q, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, dr, CL_TRUE, 0, bytes, r, 0, NULL, NULL));

        int wrong = 0;
        uint64_t defined = 14695981039346656037ull, undefined = defined;
        for (int i = 0; i < n; i++) {
            const unsigned char *qi = q + (size_t)i * k->size, *ri = r + (size_t)i * k->size;
            int64_t x = load(a, k->size, k->is_signed, i), y = load(b, k->size, k->is_signed, i);
            if (y == 0) {
                undefined = fnv(fnv(undefined, qi, k->size), ri, k->size);
                continue;
            }
            defined = fnv(fnv(defined, qi, k->size), ri, k->size);
            /* C's (and OpenCL's) truncating division; for uint the operands are
             * zero-extended, so the 64-bit signed division is the unsigned one. */
            unsigned char want_q[8], want_r[8];
            store(want_q, k->size, 0, x / y);
            store(want_r, k->size, 0, x % y);
            if (memcmp(qi, want_q, k->size) || memcmp(ri, want_r, k->size)) {
                if (wrong < 3)
                    fprintf(stderr, "%s[%d]: %lld / %lld gave %lld rem %lld\n", k->kernel, i,
                            (long long)x, (long long)y,
                            (long long)load(q, k->size, k->is_signed, i),
                            (long long)load(r, k->size, k->is_signed, i));
                wrong++;
            }
        }
        printf("%s: %d elements, %d divisors zero, defined results %016llx, undefined %016llx\n",
               k->kernel, n, zeros, (unsigned long long)defined, (unsigned long long)undefined);
        bad += wrong;

        clReleaseMemObject(da);
        clReleaseMemObject(db);
        clReleaseMemObject(dq);
        clReleaseMemObject(dr);
        clReleaseKernel(kernel);
        free(a);
        free(b);
        free(q);
        free(r);
    }
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    if (bad) {
        printf("div_by_zero: FAILED (%d results of non-zero divisors wrong)\n", bad);
        return 1;
    }
    printf("div_by_zero: OK\n");
    return 0;
}
