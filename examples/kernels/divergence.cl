// Even and odd work-items take different paths: within a warp both run, one after the other.
__kernel void divergence(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float v = in[i];
    float r;
    if (i % 2 == 0) {
        r = sqrt(v) * 3.0f;
    } else {
        float w = v * v;
        r = w / (v + 1.0f);
    }
    out[i] = r;
}
