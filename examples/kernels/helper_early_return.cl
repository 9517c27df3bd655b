// A helper function (inlined at -O3) and an early return for work-items past the end.
float smoothstep01(float lo, float hi, float x)
{
    float t = clamp((x - lo) / (hi - lo), 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

__kernel void helper_early_return(__global const float *in, __global float *out,
                                  const int n, const float lo, const float hi)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float x = in[i];
    if (x < 0.0f) {
        out[i] = 0.0f;
        return;
    }
    out[i] = smoothstep01(lo, hi, x);
}
