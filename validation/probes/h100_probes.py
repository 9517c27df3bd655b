#!/usr/bin/env python3
"""Two facts of the H100 that srcsim does not model yet, measured with clock64() inside
one warp (CuPy + NVRTC; run on the GPU machine, prints CSV to stdout):

- const: a dependent chain of lookups in a __constant__ table of 2048 words (8 KB), the
  32 lanes of the warp at `distinct` different words each step (1 = uniform, 32 = every
  lane its own): cycles per step. A divergent __constant load serialises by address.
- walk: one work-item reads `n` floats of an L2-resident array (read once before) at a
  stride of 1, 8 or 32 floats (4, 32 or 128 bytes apart), each load's address depending
  on the last value read: cycles per load. A stride of 1 shows what a line or a sector
  of the L1 keeps for the next loads.
"""
import sys

import cupy as cp
import numpy as np

SRC = r"""
__constant__ unsigned tab[2048];
extern "C" __global__ void const_chain(unsigned *out, long long *cycles, int steps, unsigned spread) {
    unsigned lane = threadIdx.x & 31;
    unsigned idx = (lane % spread) * 64;
    unsigned acc = 0;
    __syncwarp();
    long long t0 = clock64();
    for (int s = 0; s < steps; s++) {
        unsigned v = tab[idx];
        acc += v;
        idx = ((v & 1) + (lane % spread) * 64 + s * 7) & 2047;   // depends on the load
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
}
extern "C" __global__ void const_span(unsigned *out, long long *cycles, int steps, unsigned words) {
    unsigned lane = threadIdx.x & 31;
    unsigned idx = lane * words;
    unsigned acc = 0;
    __syncwarp();
    long long t0 = clock64();
    for (int s = 0; s < steps; s++) {
        unsigned v = tab[idx & 2047];
        acc += v;
        idx = (v & 1) + lane * words;
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
}
extern "C" __global__ void walk_warps(const float *a, float *out, long long *cycles, int n, int stride) {
    float acc = 0.0f;
    int i = 0;
    __syncthreads();
    long long t0 = clock64();
    for (int k = 0; k < n; k++) {
        float v = a[i];
        acc += v;
        i += stride + (int)(v * 0.0f);
    }
    long long t1 = clock64();
    out[threadIdx.x] = acc;
    if (threadIdx.x == 0) cycles[0] = t1 - t0;
}
extern "C" __global__ void walk(const float *a, float *out, long long *cycles, int n, int stride) {
    float acc = 0.0f;
    int i = 0;
    long long t0 = clock64();
    for (int k = 0; k < n; k++) {
        float v = a[i];
        acc += v;
        i += stride + (int)(v * 0.0f);   // the next address waits for this load
    }
    long long t1 = clock64();
    out[0] = acc;
    cycles[0] = t1 - t0;
}
"""


def main():
    mod = cp.RawModule(code=SRC)
    const_chain = mod.get_function("const_chain")
    walk = mod.get_function("walk")
    tab = mod.get_global("tab")
    cp.ndarray((2048,), cp.uint32, tab)[...] = cp.arange(2048, dtype=cp.uint32) * 2
    out = cp.zeros(32, cp.uint32)
    cyc = cp.zeros(1, cp.int64)
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    name = name.decode() if isinstance(name, bytes) else name
    print(f"# {name}")
    print("probe,parameter,steps,cycles,cycles_per_step")
    steps = 4096
    for spread in (1, 2, 4, 8, 16, 32):
        for _ in range(2):  # the second run, the table in the constant caches
            const_chain((1,), (32,), (out, cyc, np.int32(steps), np.uint32(spread)))
        cp.cuda.Device().synchronize()
        c = int(cyc.get()[0])
        print(f"const,distinct={spread},{steps},{c},{c / steps:.2f}")
    const_span = mod.get_function("const_span")
    for words in (1, 2, 4, 8, 16, 32, 64):
        for _ in range(2):
            const_span((1,), (32,), (out, cyc, np.int32(steps), np.uint32(words)))
        cp.cuda.Device().synchronize()
        c = int(cyc.get()[0])
        print(f"const_span,lanes_32_apart_bytes={words * 4}_span_bytes={words * 128},{steps},{c},{c / steps:.2f}")
    n = 4096
    a = cp.zeros(n * 32 + 64, cp.float32)
    walk_warps = mod.get_function("walk_warps")
    outw = cp.zeros(1024, cp.float32)
    for warps in (1, 4, 16, 32):
        for _ in range(3):
            walk_warps((1,), (32 * warps,), (a, outw, cyc, np.int32(n), np.int32(8)))
        cp.cuda.Device().synchronize()
        c = int(cyc.get()[0])
        print(f"walk_warps,warps={warps}_stride_bytes=32,{n},{c},{c / n:.2f}")
    res = cp.zeros(1, cp.float32)
    for stride in (1, 8, 32):
        for _ in range(3):  # the array in the L2 (about 0.5 MB), the L1 as a launch leaves it
            walk((1,), (1,), (a, res, cyc, np.int32(n), np.int32(stride)))
        cp.cuda.Device().synchronize()
        c = int(cyc.get()[0])
        print(f"walk,stride_bytes={stride * 4},{n},{c},{c / n:.2f}")


if __name__ == "__main__":
    sys.exit(main())
