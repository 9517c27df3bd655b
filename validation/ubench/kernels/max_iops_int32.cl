/* 32-bit integer multiply-add throughput (port of GPU_Microbenchmark/MaxIops_int32): four
 * dependent multiply-adds an iteration, `repeat` iterations. The original's inline PTX
 * (r = s1 * s2 + r, four times) would be folded by the compiler from OpenCL C (s1 * s2 is
 * loop-invariant), so here the accumulator is the multiplicand: r = r * s1 + s2, the same
 * mad.lo.s32 count and the same dependence chain. */
__kernel void max_iops_int32(__global const int *data1, __global const int *data2,
                             __global int *res, uint repeat)
{
    uint gid = get_global_id(0);
    int s1 = data1[gid], s2 = data2[gid], r = 0;
    for (uint j = 0; j < repeat; j++) {
        r = r * s1 + s2;
        r = r * s1 + s2;
        r = r * s1 + s2;
        r = r * s1 + s2;
    }
    res[gid] = r;
}
