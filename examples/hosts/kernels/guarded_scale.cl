// out = in * k over n floats, the global size rounded up: the guard that sends the extra
// work-items home is a macro holding a `return`. srcsim's annotator writes a kernel's
// counters at each of its returns, and cannot write inside a macro expansion, so it
// refuses this kernel (naming the line); under the shim the kernel runs unannotated and
// the report gives that reason.
#define RETURN_PAST_END(i, n) \
    if ((i) >= (n))           \
        return

__kernel void guarded_scale(__global const float *in, __global float *out, const float k,
                            const int n)
{
    int i = get_global_id(0);
    RETURN_PAST_END(i, n);
    out[i] = in[i] * k;
}
