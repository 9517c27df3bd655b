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
