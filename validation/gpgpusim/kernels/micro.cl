// The microbenchmark of the method paper (Gerum et al. 2015, and
// shared/reference/gpgpusim/k.cl): 30 dependent float divisions per work-item.
__kernel void divloop(__global const float *a, __global float *out) {
  size_t i = get_global_id(0);
  float x = a[i];
  float d = x + 1.0f;
#pragma unroll 1
  for (int k = 0; k < 30; k++)
    x = x / d + 0.5f;
  out[i] = x;
}

// A dependent chain of multiply-adds: the ALU latency, no memory in the loop.
__kernel void fma_chain(__global float *out, const float a, const float b, const int iters) {
  size_t i = get_global_id(0);
  float x = (float)(uint)i * 1e-6f; // u32: GPGPU-Sim converts a u64 (cvt.rn.f32.u64) to 0
#pragma unroll 1
  for (int k = 0; k < iters; k++)
    x = x * a + b;
  out[i] = x;
}
