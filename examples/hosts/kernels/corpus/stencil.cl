/* Stencils and time-stepping (corpus_stencil): 1D Jacobi, a 2D Jacobi step on a local tile
 * with a halo, a 3D 7-point heat step, a second-order wave step and the two half-steps of
 * a 2D FDTD (TM mode) update. */
#define IDX2(x, y) ((y) * w + (x))
#define IDX3(x, y, z) (((z) * h + (y)) * w + (x))
#define TX 16
#define TY 8

static float avg3(float l, float c, float r);

__kernel void jacobi1d(__global const float *in, __global float *out, int n)
{
    int i = get_global_id(0);
    if (i == 0 || i >= n - 1)
        out[i < n ? i : n - 1] = in[i < n ? i : n - 1];
    else
        out[i] = avg3(in[i - 1], in[i], in[i + 1]);
}

static float avg3(float l, float c, float r) { return 0.25f * l + 0.5f * c + 0.25f * r; }

/* One step of the 5-point stencil; the tile and its halo loaded cooperatively. Border
 * cells are copied. */
__kernel void jacobi2d_tiled(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[TY + 2][TX + 2];
    int lx = get_local_id(0), ly = get_local_id(1);
    int gx = get_global_id(0), gy = get_global_id(1);
    int bx = get_group_id(0) * TX - 1, by = get_group_id(1) * TY - 1;
    for (int t = ly * TX + lx; t < (TX + 2) * (TY + 2); t += TX * TY) {
        int tx = t % (TX + 2), ty = t / (TX + 2);
        int sx = clamp(bx + tx, 0, w - 1), sy = clamp(by + ty, 0, h - 1);
        tile[ty][tx] = in[IDX2(sx, sy)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float c = tile[ly + 1][lx + 1];
    if (gx > 0 && gy > 0 && gx < w - 1 && gy < h - 1)
        c = 0.5f * c + 0.125f * (tile[ly][lx + 1] + tile[ly + 2][lx + 1] + tile[ly + 1][lx] +
                                 tile[ly + 1][lx + 2]);
    out[IDX2(gx, gy)] = c;
}

/* 3D heat, 7 points, interior only (the global offset is 1 in each dimension). */
__kernel void heat3d(__global const float *in, __global float *out, int w, int h, int d)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    if (x >= w - 1 || y >= h - 1 || z >= d - 1)
        return;
    float lap = in[IDX3(x - 1, y, z)] + in[IDX3(x + 1, y, z)] + in[IDX3(x, y - 1, z)] +
                in[IDX3(x, y + 1, z)] + in[IDX3(x, y, z - 1)] + in[IDX3(x, y, z + 1)] -
                6.0f * in[IDX3(x, y, z)];
    out[IDX3(x, y, z)] = in[IDX3(x, y, z)] + 0.125f * lap;
}

/* Wave equation: next = 2 cur - prev + c2 lap(cur); fixed (zero) ends. */
__kernel void wave1d(__global const float *prev, __global const float *cur,
                     __global float *next, int n, float c2)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    float v = 0.0f;
    if (i > 0 && i < n - 1)
        v = 2.0f * cur[i] - prev[i] + c2 * (cur[i - 1] - 2.0f * cur[i] + cur[i + 1]);
    next[i] = v;
}

/* FDTD, TM mode: the magnetic fields from the electric one ... */
__kernel void fdtd_h(__global const float *ez, __global float *hx, __global float *hy, int w,
                     int h, float k)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x < w && y < h - 1)
        hx[IDX2(x, y)] -= k * (ez[IDX2(x, y + 1)] - ez[IDX2(x, y)]);
    if (x < w - 1 && y < h)
        hy[IDX2(x, y)] += k * (ez[IDX2(x + 1, y)] - ez[IDX2(x, y)]);
}

/* ... and the electric field from them, with a source cell driven by the step. */
__kernel void fdtd_e(__global float *ez, __global const float *hx, __global const float *hy,
                     int w, int h, float k, int step)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x == 0 || y == 0 || x >= w || y >= h)
        return;
    if (x == w / 2 && y == h / 2)
        ez[IDX2(x, y)] = (step & 3) == 0 ? 1.0f : 0.0f;
    else
        ez[IDX2(x, y)] += k * ((hy[IDX2(x, y)] - hy[IDX2(x - 1, y)]) -
                               (hx[IDX2(x, y)] - hx[IDX2(x, y - 1)]));
}
