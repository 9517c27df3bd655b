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

// Divergence inside loops (issue 31): every iteration each work-item takes a side of its
// own, decided by its own data, so a warp runs the sides its lanes take in that iteration,
// one after the other, iteration by iteration. `sym` holds `steps` values per work-item,
// coalesced (iteration k at k * n + i).

// A small state machine: the step taken is the state and the symbol read. The step's
// range is left open (no `& 3`): with a closed range clang gives the chain (a `switch`
// to LLVM) an unreachable default block, after which GPGPU-Sim's warps reconverge only
// at the kernel's end (591,841 cycles for 256 work-items).
__kernel void state_machine(__global const uint *sym, __global uint *out, const int steps) {
  size_t i = get_global_id(0), n = get_global_size(0);
  uint s = 0, acc = (uint)i;
  for (int k = 0; k < steps; k++) {
    uint c = sym[k * n + i];
    uint step = s + c;
    if (step == 0u) {
      acc = acc * 3u + 1u; acc ^= acc >> 5; acc = acc * 7u + c; acc ^= acc << 3;
      s = 1;
    } else if (step == 1u) {
      acc ^= acc << 5; acc += 7u; acc = acc * 13u + c; acc ^= acc >> 11;
      s = 2;
    } else if (step == 2u) {
      acc = (acc >> 3) * 5u + c; acc ^= acc << 7; acc = acc * 17u + 3u; acc ^= acc >> 2;
      s = 3;
    } else {
      acc += c * 11u; acc ^= acc >> 7; acc = acc * 19u + 5u; acc ^= acc << 9;
      s = 0;
    }
  }
  out[i] = acc;
}

// Both sides of an if / else on the work-item's own value, every iteration.
__kernel void data_branch_loop(__global const float *v, __global float *out, const int steps) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float x = 0.0f;
  for (int k = 0; k < steps; k++) {
    float y = v[k * n + i];
    if (y > 0.5f) {
      x = x * 0.999f + y; x = x * 0.998f - 0.25f; x = x * 1.001f + 0.5f; x = x * 0.997f;
    } else {
      x = x * x * 0.5f - y; x = x * 0.75f + 0.125f; x = x * x * 0.25f; x = x - 0.5f;
    }
  }
  out[i] = x;
}

// One side only: the work-items whose value passes do more work that iteration.
__kernel void guarded_loop(__global const float *v, __global float *out, const int steps) {
  size_t i = get_global_id(0), n = get_global_size(0);
  float x = 0.0f;
  for (int k = 0; k < steps; k++) {
    float y = v[k * n + i];
    x += y;
    if (y > 0.5f) {
      x = x * 0.999f + y; x = x * 0.998f - 0.25f; x = x * 1.001f + 0.5f; x = x * 0.997f;
      x = x * x * 0.5f - y; x = x * 0.75f + 0.125f; x = x * x * 0.25f; x = x - 0.5f;
    }
  }
  out[i] = x;
}
