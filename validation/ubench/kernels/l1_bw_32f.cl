/* L1 read bandwidth, 32-bit loads (port of GPU_Microbenchmark/l1_bw_32f). One work-group
 * warms the L1 with the array, then every work-item reads four floats 128 bytes apart per
 * iteration, REPEAT times, sliding 128 floats an iteration. The original wraps the whole
 * index, (tid + 128 j) mod ARRAY_SIZE; here only the warp-uniform part wraps
 * ((128 j) & mask, mask = array size - 1) and the work-item's offset is added after, so
 * that the 32 lanes of a warp read 32 consecutive floats as on the GPU (and as srcsim's
 * stride analysis can see: a masked lane index is a gather to it). The buffer has 1024 +
 * 96 floats past the array for the reads that the original wraps to its start. */
__kernel void l1_bw_32f(__global const float *pos, __global float *sink_out, uint mask,
                        uint repeat)
{
    uint tid = get_local_id(0);
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
    for (uint i = tid; i <= mask; i += get_local_size(0))
        s0 += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < repeat; j++) {
        __global const float *p = pos + ((j * 128u) & mask) + tid;
        s0 += p[0];
        s1 += p[32];
        s2 += p[64];
        s3 += p[96];
    }
    sink_out[get_global_id(0)] = s0 + s1 + s2 + s3;
}
