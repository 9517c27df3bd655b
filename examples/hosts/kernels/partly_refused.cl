// Three kernels and two helpers, for a program in which srcsim's annotator refuses some
// kernels and times the others. `scale` is annotated and simulated. `block_sums` holds a
// barrier inside a branch whose condition reads memory (every work-item reads the same
// in[0], so the program is correct OpenCL, but the annotator cannot tell that the
// work-items agree) and `shift` returns inside a macro expansion, which the annotator
// refuses: under the shim these two run as the program has them, unsimulated, and the
// report names each with its line and the construct. `twice` is called by an annotated
// and a refused kernel; `square` only by a refused one.
#define RETURN_PAST_END(i, n) \
    if ((i) >= (n))           \
        return

float twice(float x)
{
    return x + x;
}

float square(float x)
{
    return x * x;
}

__kernel void scale(__global const float *in, __global float *out, const int n)
{
    int i = get_global_id(0);
    if (i < n)
        out[i] = twice(in[i]);
}

__kernel void block_sums(__global const float *in, __global float *sums, __local float *tmp)
{
    int l = get_local_id(0);
    tmp[l] = square(twice(in[get_global_id(0)]));
    if (in[0] < 1e30f) {
        barrier(CLK_LOCAL_MEM_FENCE);
        if (l == 0) {
            float s = 0.0f;
            for (int j = 0; j < (int)get_local_size(0); j++)
                s += tmp[j];
            sums[get_group_id(0)] = s;
        }
    }
}

__kernel void shift(__global float *out, const float d, const int n)
{
    int i = get_global_id(0);
    RETURN_PAST_END(i, n);
    out[i] += d;
}
