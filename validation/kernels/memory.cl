// Memory-bound microbenchmarks for scripts/gpu-validate: grid-stride loops, so that the
// number of work-items (and of srcsim's per-work-item records) stays small while the
// arrays are large enough to stream from DRAM on the GPU.

// c[i] = a[i] + b[i] over n elements.
__kernel void stream_add(__global const float *a, __global const float *b, __global float *c,
                         int n) {
  int stride = get_global_size(0);
  for (int i = get_global_id(0); i < n; i += stride) {
    c[i] = a[i] + b[i];
  }
}

// out[i] = in[(i * step) mod n] for n a power of two: a gather whose neighbouring
// work-items read `step` elements apart (uncoalesced for step > 1).
__kernel void strided_gather(__global const float *in, __global float *out, int n, int step) {
  int stride = get_global_size(0);
  uint mask = (uint)n - 1;
  for (int i = get_global_id(0); i < n; i += stride) {
    out[i] = in[((uint)i * (uint)step) & mask];
  }
}

// out[i] = 1 over n elements: writes alone. At 16 MB they fit in the L2; at 256 MB the L2
// must write back what it cannot keep (srcsim counts no DRAM bytes for a launch whose
// reads fit, and it reads nothing: validation/gpgpusim/README.md, the store probes).
__kernel void stream_fill(__global float *out, int n) {
  int stride = get_global_size(0);
  for (int i = get_global_id(0); i < n; i += stride) {
    out[i] = 1.0f;
  }
}
