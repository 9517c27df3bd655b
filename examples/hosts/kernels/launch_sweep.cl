/* launch_sweep: what a launch costs, apart from the work (examples/hosts/launch_sweep.c). */

/* Nothing to do: the launch alone. */
__kernel void empty(__global int *unused)
{
}

/* Streaming: one float4 read and one written per work-item. */
__kernel void stream(__global const float4 *in, __global float4 *out)
{
    size_t i = get_global_id(0);
    out[i] = in[i] * 2.0f;
}
