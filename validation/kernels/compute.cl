// Compute-bound microbenchmarks for scripts/gpu-validate. Each work-item runs a loop of
// `iters` iterations whose body is one kind of arithmetic, and stores the result so that
// the compiler keeps the loop. No __local arguments, no get_work_dim / get_global_offset:
// the kernels mean the same launched through OpenCL on PoCL and through CUDA on the GPU.

// One chain of dependent single-precision multiply-adds: latency-bound per warp.
__kernel void fp32_chain(__global float *out, float a, float b, int iters) {
  float x = (float)get_global_id(0) * 1e-7f;
  for (int i = 0; i < iters; i++) {
    x = x * a + b;
  }
  out[get_global_id(0)] = x;
}

// Four independent chains: four times the work of fp32_chain per iteration, with
// instruction-level parallelism to hide the latency.
__kernel void fp32_ilp4(__global float *out, float a, float b, int iters) {
  float x0 = (float)get_global_id(0) * 1e-7f;
  float x1 = x0 + 1.0f, x2 = x0 + 2.0f, x3 = x0 + 3.0f;
  for (int i = 0; i < iters; i++) {
    x0 = x0 * a + b;
    x1 = x1 * a + b;
    x2 = x2 * a + b;
    x3 = x3 * a + b;
  }
  out[get_global_id(0)] = x0 + x1 + x2 + x3;
}

// Special-function-unit heavy: approximate square root, reciprocal square root and sine
// (the native_ functions are single MUFU instructions on NVIDIA GPUs).
__kernel void sfu_mix(__global float *out, int iters) {
  float x = 1.0f + (float)get_global_id(0) * 1e-7f;
  for (int i = 0; i < iters; i++) {
    x = native_sqrt(x) + native_rsqrt(x) + native_sin(x) + 1.0f;
  }
  out[get_global_id(0)] = x;
}

// A chain of dependent double-precision multiply-adds.
__kernel void fp64_chain(__global double *out, double a, double b, int iters) {
  double x = (double)get_global_id(0) * 1e-7;
  for (int i = 0; i < iters; i++) {
    x = x * a + b;
  }
  out[get_global_id(0)] = x;
}

// A chain of dependent 32-bit integer operations (multiply-add, xor).
__kernel void int_chain(__global uint *out, uint a, uint b, int iters) {
  uint x = (uint)get_global_id(0);
  for (int i = 0; i < iters; i++) {
    x = (x * a + b) ^ (x >> 7);
  }
  out[get_global_id(0)] = x;
}
