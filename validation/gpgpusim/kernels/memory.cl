// Streaming and irregular memory access.

__kernel void stream_copy(__global const float *in, __global float *out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

__kernel void vec_add(__global const float *a, __global const float *b, __global float *c,
                      const int n) {
  int i = get_global_id(0);
  if (i < n)
    c[i] = a[i] + b[i];
}

__kernel void saxpy(const float alpha, __global const float *x, __global float *y) {
  size_t i = get_global_id(0);
  y[i] = alpha * x[i] + y[i];
}

// Work-item i reads element i * stride (mod n, n a power of two): one cache line per
// work-item when stride is 32 floats.
__kernel void strided_read(__global const float *in, __global float *out, const int stride,
                           const int n) {
  int i = get_global_id(0);
  out[i] = in[(i * stride) & (n - 1)] * 2.0f;
}

// out[i] = data[idx[i]] for a random index array.
__kernel void random_gather(__global const float *data, __global const int *idx,
                            __global float *out) {
  size_t i = get_global_id(0);
  out[i] = data[idx[i]];
}

// One step of a sorting network: work-item i orders the pair (lo, lo + d) of `keys`,
// d = 1 << log_d, its pair's place the i-th in blocks 2d wide, ascending or descending
// by the block of 1 << log_run work-items it is in. Both sides store both elements, so
// clang keeps one pair of stores after selects (no source line of their own): their
// addresses are the loads', which only the run can tell apart from a gather.
__kernel void pair_exchange(__global int *keys, const uint log_d, const uint log_run) {
  uint i = get_global_id(0);
  uint d = 1u << log_d;
  uint lo = (i & (d - 1)) + ((i >> log_d) << (log_d + 1));
  int a = keys[lo];
  int b = keys[lo + d];
  int lower = min(a, b);
  int upper = max(a, b);
  if (((i >> log_run) & 1) == 0) {
    keys[lo] = lower;
    keys[lo + d] = upper;
  } else {
    keys[lo] = upper;
    keys[lo + d] = lower;
  }
}
