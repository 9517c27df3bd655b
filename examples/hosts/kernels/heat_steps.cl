// Time-stepped 2D heat diffusion with a heat source, three kernels per step: the
// interior update (5-point stencil), a fixed-temperature (Dirichlet) border, and a heat
// source that adds a little energy at one spot every step. The host swaps the two grids
// between steps (ping-pong) and launches all three thousands of times.
__kernel void diffuse(__global const float *in, __global float *out,
                      const int width, const int height, const float alpha)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;
    int i = y * width + x;
    float c = in[i];
    float lap = in[i - 1] + in[i + 1] + in[i - width] + in[i + width] - 4.0f * c;
    out[i] = c + alpha * lap;
}

// One work-item per border cell: first the top and bottom rows, then the left and right
// columns (corners belong to the rows).
__kernel void border(__global float *grid, const int width, const int height,
                     const float value)
{
    int k = get_global_id(0);
    int rows = 2 * width;
    if (k < rows) {
        int y = k < width ? 0 : height - 1;
        grid[y * width + (k % width)] = value;
    } else {
        int c = k - rows;
        if (c < 2 * (height - 2)) {
            int y = 1 + c / 2;
            int x = (c % 2) ? width - 1 : 0;
            grid[y * width + x] = value;
        }
    }
}

__kernel void inject(__global float *grid, const int width, const int cx, const int cy,
                     const float amount)
{
    int dx = get_global_id(0);
    int dy = get_global_id(1);
    grid[(cy + dy) * width + cx + dx] += amount;
}
