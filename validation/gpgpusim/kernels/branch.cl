// Even and odd work-items take different branches, each a long compute loop: every warp
// runs both paths one after the other.
__kernel void parity_branch(__global const float *in, __global float *out, const int iters) {
  size_t i = get_global_id(0);
  float x = in[i];
  if ((i & 1) == 0) {
#pragma unroll 1
    for (int k = 0; k < iters; k++)
      x = x * 0.999f + 0.25f;
  } else {
#pragma unroll 1
    for (int k = 0; k < iters; k++)
      x = x * x * 0.5f - 0.125f;
  }
  out[i] = x;
}
