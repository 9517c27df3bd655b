/* DRAM bandwidth (port of GPU_Microbenchmark/mem_bw): c = a + b + d + e + f over float4,
 * grid-stride, five arrays read and one written, each twice the L2's size. */
__kernel void mem_bw(__global const float4 *a, __global const float4 *b,
                     __global float4 *c, __global const float4 *d,
                     __global const float4 *e, __global const float4 *f, uint n4)
{
    for (uint i = get_global_id(0); i < n4; i += get_global_size(0))
        c[i] = a[i] + b[i] + d[i] + e[i] + f[i];
}
