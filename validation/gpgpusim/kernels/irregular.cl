// Atomics, graphs and all-pairs interactions.

// A histogram of bins bins straight in global memory with atomic increments.
__kernel void hist_global_atomic(__global const uint *data, __global uint *hist,
                                 const uint bins) {
  uint v = data[get_global_id(0)];
  atomic_inc(&hist[v % bins]);
}

// One step of a level-synchronous BFS over a CSR graph: every node of the frontier (level
// == cur) marks its unvisited neighbours (level < 0 in next_level) with cur + 1.
__kernel void bfs_frontier_step(__global const int *row_off, __global const int *cols,
                                __global const int *level, __global int *next_level,
                                __global int *changed, const int cur, const int nodes) {
  int v = get_global_id(0);
  if (v >= nodes || level[v] != cur)
    return;
  for (int e = row_off[v]; e < row_off[v + 1]; e++) {
    int u = cols[e] % nodes;
    if (level[u] > cur + 1) {
      next_level[u] = cur + 1;
      *changed = 1;
    }
  }
}

// All-pairs n-body acceleration (softened), one body per work-item; pos holds x, y, z, m
// per body.
__kernel void nbody_accel(__global const float *pos, __global float *acc, const int n,
                          const float eps2) {
  int i = get_global_id(0);
  float xi = pos[4 * i], yi = pos[4 * i + 1], zi = pos[4 * i + 2];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int j = 0; j < n; j++) {
    float dx = pos[4 * j] - xi, dy = pos[4 * j + 1] - yi, dz = pos[4 * j + 2] - zi;
    float d2 = dx * dx + dy * dy + dz * dz + eps2;
    float inv = rsqrt(d2);
    float s = pos[4 * j + 3] * inv * inv * inv;
    ax += s * dx;
    ay += s * dy;
    az += s * dz;
  }
  acc[4 * i] = ax;
  acc[4 * i + 1] = ay;
  acc[4 * i + 2] = az;
  acc[4 * i + 3] = 0.0f;
}
