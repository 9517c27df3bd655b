// Dense linear algebra on row-major n x n matrices.

// y = A x, one row per work-item, A row-major: neighbouring work-items read addresses n
// floats apart (uncoalesced).
__kernel void matvec_rows(__global const float *A, __global const float *x,
                          __global float *y, const int n) {
  int row = get_global_id(0);
  float acc = 0.0f;
  for (int j = 0; j < n; j++)
    acc += A[row * n + j] * x[j];
  y[row] = acc;
}

// The same product with A stored column-major (At[j * n + row]): neighbouring work-items
// read neighbouring addresses (coalesced).
__kernel void matvec_cols(__global const float *At, __global const float *x,
                          __global float *y, const int n) {
  int row = get_global_id(0);
  float acc = 0.0f;
  for (int j = 0; j < n; j++)
    acc += At[j * n + row] * x[j];
  y[row] = acc;
}

// C = A B, one element per work-item of a 2D range, straight from global memory.
__kernel void matmul_naive(__global const float *A, __global const float *B,
                           __global float *C, const int n) {
  int col = get_global_id(0);
  int row = get_global_id(1);
  float acc = 0.0f;
  for (int k = 0; k < n; k++)
    acc += A[row * n + k] * B[k * n + col];
  C[row * n + col] = acc;
}

// C = A B through 16 x 16 tiles in __local memory (n a multiple of 16, 16 x 16 groups).
#define TS 16
__kernel void matmul_local_tiles(__global const float *A, __global const float *B,
                                 __global float *C, const int n) {
  __local float ta[TS][TS];
  __local float tb[TS][TS];
  int lx = get_local_id(0), ly = get_local_id(1);
  int col = get_global_id(0), row = get_global_id(1);
  float acc = 0.0f;
  for (int t = 0; t < n; t += TS) {
    ta[ly][lx] = A[row * n + t + lx];
    tb[ly][lx] = B[(t + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TS; k++)
      acc += ta[ly][k] * tb[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = acc;
}
