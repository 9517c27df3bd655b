// Work-group collectives in __local memory (passed as __local pointer arguments).

// Tree reduction: partial[g] is the sum of work-group g's elements (local size a power of
// two).
__kernel void wg_reduce(__global const float *in, __global float *partial,
                        __local float *tmp) {
  int l = get_local_id(0);
  tmp[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s)
      tmp[l] += tmp[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0)
    partial[get_group_id(0)] = tmp[0];
}

// Inclusive Hillis-Steele scan within each work-group, double-buffered in __local memory
// (buf holds 2 x local size elements).
__kernel void scan_hillis_steele(__global const int *in, __global int *out,
                                 __local int *buf) {
  int l = get_local_id(0), n = get_local_size(0);
  int src = 0, dst = n;
  buf[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int off = 1; off < n; off <<= 1) {
    int v = buf[src + l];
    if (l >= off)
      v += buf[src + l - off];
    buf[dst + l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int t = src;
    src = dst;
    dst = t;
  }
  out[get_global_id(0)] = buf[src + l];
}
