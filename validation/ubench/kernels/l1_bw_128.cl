/* L1 read bandwidth, 128-bit loads (port of GPU_Microbenchmark/l1_bw_128): one float4 per
 * work-item and iteration, the warp's 32 float4 contiguous, sliding 32 float4 an
 * iteration; `mask` = float4 count - 1 wraps the uniform part of the index (as in
 * l1_bw_32f.cl), 1024 float4 of slack past the array. */
__kernel void l1_bw_128(__global const float4 *pos, __global float *sink_out, uint mask,
                        uint repeat)
{
    uint tid = get_local_id(0);
    float4 s = (float4)(0.0f);
    for (uint i = tid; i <= mask; i += get_local_size(0))
        s += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < repeat; j++)
        s += pos[((j * 32u) & mask) + tid];
    sink_out[get_global_id(0)] = s.x + s.y + s.z + s.w;
}
