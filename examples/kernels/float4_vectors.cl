// Scales and offsets four floats at a time with vector loads and stores.
__kernel void scale_offset4(__global const float4 *in, __global float4 *out,
                            const float4 scale, const float4 offset)
{
    int i = get_global_id(0);
    float4 v = in[i];
    float4 r = v * scale + offset;
    out[i] = r;
}
