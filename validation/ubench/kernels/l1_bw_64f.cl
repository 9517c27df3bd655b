/* L1 read bandwidth, 64-bit loads (port of GPU_Microbenchmark/l1_bw_64f): two doubles
 * 256 bytes apart per iteration, sliding 64 doubles an iteration. As in l1_bw_32f.cl only
 * the uniform part of the index wraps; 1024 + 32 doubles of slack past the array. */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void l1_bw_64f(__global const double *pos, __global double *sink_out, uint mask,
                        uint repeat)
{
    uint tid = get_local_id(0);
    double s0 = 0.0, s1 = 0.0;
    for (uint i = tid; i <= mask; i += get_local_size(0))
        s0 += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint j = 0; j < repeat; j++) {
        __global const double *p = pos + ((j * 64u) & mask) + tid;
        s0 += p[0];
        s1 += p[32];
    }
    sink_out[get_global_id(0)] = s0 + s1;
}
