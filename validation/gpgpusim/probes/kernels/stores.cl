// Probes of GPGPU-Sim's GTX 480, not cases of the suite or the corpus (no half, never
// tuned on): what a launch's stores and loads move through the L2 a cycle, and what a
// launch whose writes exceed the L2 waits for. `probes/README.md` has the command.

// Each work-item writes `m` floats, the warp's lanes one 128-byte line at a time.
__kernel void store_m(__global float *out, int m) {
  size_t g = get_global_id(0), n = get_global_size(0);
#pragma unroll 8
  for (int k = 0; k < m; k++)
    out[g + k * n] = 1.0f;
}

// Each work-item reads `m` floats the same way and writes their sum.
__kernel void load_m(__global const float *in, __global float *out, int m) {
  size_t g = get_global_id(0), n = get_global_size(0);
  float s = 0;
#pragma unroll 8
  for (int k = 0; k < m; k++)
    s += in[g + k * n];
  out[g] = s;
}

// One float a lane, each lane its own 128-byte line: what a store of part of a line
// moves past the L1 (its sectors, not the line a load would fetch).
__kernel void store_strided(__global float *out) {
  size_t g = get_global_id(0);
  out[g * 32] = 1.5f;
}

// The lines `store_strided` writes, written whole by a warp each.
__kernel void store_whole(__global float *out) {
  size_t g = get_global_id(0);
  out[g] = 1.5f;
}

// AMD's write_linear in a loop: 32 stores a lane at a 512-byte stride, so that later
// warps write the lines earlier ones wrote.
__kernel void store_overlap(__global float *out) {
  uint g = get_global_id(0);
#pragma unroll
  for (int k = 0; k < 32; k++)
    out[g + k * 128] = 1.5f;
}
