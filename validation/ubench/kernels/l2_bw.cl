/* L2 read bandwidth (port of GPU_Microbenchmark/l2_bw_32f and l2_bw_64f; T is float or
 * double, -D T=...). Every work-item of the grid first reads the array once (grid-stride),
 * then `repeat` times the element 32 further on than its last. The original's loads carry
 * the .cg operator (cache in L2, not in L1); OpenCL C has none, so they are volatile. */
#ifdef USE_FP64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
__kernel void l2_bw(__global volatile const T *pos, __global T *sink_out, uint n, uint repeat)
{
    uint uid = get_global_id(0);
    T sink = 0;
    for (uint i = uid; i < n; i += get_global_size(0))
        sink += pos[i];
    barrier(CLK_GLOBAL_MEM_FENCE);
    for (uint i = 0; i < repeat; i++)
        sink += pos[i * 32u + uid];
    sink_out[uid] = sink;
}
