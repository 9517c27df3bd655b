// One Jacobi step of the 2D heat equation with a 5-point stencil. The host launches it on
// the interior only (global offset {1,1}), so every neighbour read is in bounds and the
// border cells keep their initial values.
__kernel void heat_step(__global const float *in, __global float *out,
                        const int width, const float alpha)
{
    int x = get_global_id(0);
    int y = get_global_id(1);
    int i = y * width + x;
    float c = in[i];
    float lap = in[i - 1] + in[i + 1] + in[i - width] + in[i + width] - 4.0f * c;
    out[i] = c + alpha * lap;
}
