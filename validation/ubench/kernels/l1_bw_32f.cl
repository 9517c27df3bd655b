/* L1 read bandwidth, 32-bit loads (port of GPU_Microbenchmark/l1_bw_32f). One work-group
 * warms the L1 with the array, then every work-item reads four floats 128 bytes apart per
 * iteration, REPEAT times, sliding 128 floats an iteration (wrapping at the array's end,
 * `mask` = array size - 1, a power of two: the original's `% ARRAY_SIZE` of a constant).
 * The buffer has 96 floats past the array: the original reads them too (its last offsets
 * pass the array's end). */
__kernel void l1_bw_32f(__global const float *pos, __global float *sink_out, uint mask,
                        uint repeat)
{
    uint tid = get_local_id(0);
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (uint i = tid; i <= mask; i += get_local_size(0))
        s0 += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < repeat; j++) {
        __global const float *p = pos + ((tid + j * 128u) & mask);
        s0 += p[0];
        s1 += p[32];
        s2 += p[64];
        s3 += p[96];
    }
    sink_out[get_global_id(0)] = s0 + s1 + s2 + s3;
}
