/* Matrix transpose through a __local tile (port of GPU_Microbenchmark/shared_bank_conflicts,
 * NVIDIA's Nsight Compute sample): work-groups of 32 x 8 work-items move a 32 x 32 tile,
 * four rows each. transpose_conflicts reads the tile by columns (a 32-way bank conflict per
 * warp read); transpose_no_conflicts pads each row by one element. */
#define TILE 32
#define ROWS 8
__kernel void transpose_conflicts(__global float *out, __global const float *in, int width,
                                  int height)
{
    __local float tile[TILE][TILE];
    int lx = get_local_id(0), ly = get_local_id(1);
    int bx = get_group_id(0), by = get_group_id(1);
    int in_index = (bx * TILE + lx) + (by * TILE + ly) * width;
    int out_index = (by * TILE + lx) + (bx * TILE + ly) * height;
    for (int i = 0; i < TILE; i += ROWS)
        tile[ly + i][lx] = in[in_index + i * width];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; i += ROWS)
        out[out_index + i * height] = tile[lx][ly + i];
}

__kernel void transpose_no_conflicts(__global float *out, __global const float *in,
                                     int width, int height)
{
    __local float tile[TILE][TILE + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int bx = get_group_id(0), by = get_group_id(1);
    int in_index = (bx * TILE + lx) + (by * TILE + ly) * width;
    int out_index = (by * TILE + lx) + (bx * TILE + ly) * height;
    for (int i = 0; i < TILE; i += ROWS)
        tile[ly + i][lx] = in[in_index + i * width];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < TILE; i += ROWS)
        out[out_index + i * height] = tile[lx][ly + i];
}
