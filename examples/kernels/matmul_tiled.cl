// C = A * B for square n x n matrices (n a multiple of TILE), tiled through local memory.
#ifndef TILE
#define TILE 16
#endif

__kernel void matmul_tiled(__global const float *A,
                           __global const float *B,
                           __global float *C,
                           const int n)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];

    int tx = get_local_id(0);
    int ty = get_local_id(1);
    int col = get_group_id(0) * TILE + tx;
    int row = get_group_id(1) * TILE + ty;

    float acc = 0.0f;
    for (int t = 0; t < n / TILE; t++) {
        As[ty][tx] = A[row * n + t * TILE + tx];
        Bs[ty][tx] = B[(t * TILE + ty) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);

        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
