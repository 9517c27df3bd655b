// Probes of GPGPU-Sim's GTX 480 (no half, never tuned on): what a warp's global load
// holds the SM's memory pipeline for, by the lines it touches, where the L1 serves it
// (`ld_lines`). `probes/README.md`.

// `reps` times eight loads a work-item, each of `s` lines a warp (the lanes `s` floats
// apart; all lanes one word at s = 0), the eight 2 KB apart (64 lines at s = 8: the L1
// serves all but the first touches). `mask` is 0 at run time: the compiler cannot hoist
// the loads out of the loop.
__kernel void ld_lines(__global const float *in, __global float *out, int s, int reps,
                       int mask) {
  size_t g = get_global_id(0);
  float acc = 0;
  for (int k = 0; k < reps; k++) {
    int b = (g & 31) * s + (k & mask) * 32;
    acc += ((in[b] + in[b + 512]) + (in[b + 1024] + in[b + 1536])) +
           ((in[b + 2048] + in[b + 2560]) + (in[b + 3072] + in[b + 3584]));
  }
  out[g] = acc;
}

// `ld_lines` through a pointer variable (`p = in + ...; p[512]`): the same loads, sampled
// at the addresses they select (annotation revision 87; before, not sampled and charged
// a 32-line gather each).
__kernel void ld_lines_ptr(__global const float *in, __global float *out, int s, int reps,
                           int mask) {
  size_t g = get_global_id(0);
  float acc = 0;
  for (int k = 0; k < reps; k++) {
    __global const float *p = in + (g & 31) * s + (k & mask) * 32;
    acc += ((p[0] + p[512]) + (p[1024] + p[1536])) + ((p[2048] + p[2560]) + (p[3072] + p[3584]));
  }
  out[g] = acc;
}
