// Integer division and remainder whose divisors are sometimes zero, as in the OpenCL
// conformance suite's test_integer_ops (integer_divideAssign, integer_moduloAssign,
// quick_*_math). OpenCL leaves x / 0 and x % 0 undefined; on a CPU device the division
// instruction traps (SIGFPE) and PoCL's own signal handler steps over it, so the program
// runs on. One kernel per element type, scalar and vector.

__kernel void div_int(__global const int *a, __global const int *b, __global int *q,
                      __global int *r)
{
    int i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
}

__kernel void div_uint(__global const uint *a, __global const uint *b, __global uint *q,
                       __global uint *r)
{
    int i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
}

__kernel void div_char(__global const char *a, __global const char *b, __global char *q,
                       __global char *r)
{
    int i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
}

__kernel void div_long(__global const long *a, __global const long *b, __global long *q,
                       __global long *r)
{
    int i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
}

__kernel void div_int4(__global const int4 *a, __global const int4 *b, __global int4 *q,
                       __global int4 *r)
{
    int i = get_global_id(0);
    q[i] = a[i] / b[i];
    r[i] = a[i] % b[i];
}

// The shape of the conformance suite's divideAssign and moduloAssign kernels: the
// result buffer first takes the dividend, then is divided in place.
__kernel void div_assign_int(__global const int *a, __global const int *b, __global int *q,
                             __global int *r)
{
    int i = get_global_id(0);
    q[i] = a[i];
    q[i] /= b[i];
    r[i] = a[i];
    r[i] %= b[i];
}
