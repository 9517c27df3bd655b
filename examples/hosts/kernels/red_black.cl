// Red-black Gauss-Seidel for the Poisson equation -lap(u) = f on a grid with a fixed
// (Dirichlet) border: each sweep updates the cells of one colour ((x + y) % 2) from their
// four neighbours, which all have the other colour, so a sweep needs no second buffer.
// The host alternates the colours, a launch each, hundreds of times.
__kernel void rb_sweep(__global float *u, __global const float *f, const int width,
                       const int height, const int colour, const float h2)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1)
        return;
    if (((x + y) & 1) != colour)
        return;
    int i = y * width + x;
    u[i] = 0.25f * (u[i - 1] + u[i + 1] + u[i - width] + u[i + width] + h2 * f[i]);
}
