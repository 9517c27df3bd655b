// The microbenchmark of Gerum et al. 2015 (Figure 2): a loop of 30 data-dependent
// single-precision divisions. One warp is latency-bound; the SFU saturates at about
// 8 warps on a GTX 480.
#define DIV(x) x = x / d
#define DIV10(x) DIV(x); DIV(x); DIV(x); DIV(x); DIV(x); \
                 DIV(x); DIV(x); DIV(x); DIV(x); DIV(x)

__kernel void div_chain(__global float *out, const float d, const int iterations)
{
    size_t gid = get_global_id(0);
    float x = out[gid];
    for (int i = 0; i < iterations; i++) {
        DIV10(x);
        DIV10(x);
        DIV10(x);
    }
    out[gid] = x;
}
