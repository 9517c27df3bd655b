/* L1 read bandwidth, one 32-bit load an iteration (port of GPU_Microbenchmark/
 * l1_bw_32f_unroll and l1_bw_32f_unroll_large). The warp reads 32 consecutive floats,
 * sliding 32 an iteration; `mask` (array size - 1, a power of two) wraps the uniform part
 * of the index (as in l1_bw_32f.cl; 1024 floats of slack past the array)
 * (l1_bw_32f_unroll), or, with mask = all ones, the reads run on past the warmed array
 * (l1_bw_32f_unroll_large: 516 KiB read, more than the L1). */
__kernel void l1_bw_32f_unroll(__global const float *pos, __global float *sink_out,
                               uint warm, uint mask, uint repeat)
{
    uint tid = get_local_id(0);
    float sink = 0.0f;
    for (uint i = tid; i < warm; i += get_local_size(0))
        sink += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < repeat; j++)
        sink += pos[((j * 32u) & mask) + tid];
    sink_out[get_global_id(0)] = sink;
}
