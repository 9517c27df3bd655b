// A 7-point stencil whose work-items past the interior do nothing (Parboil's naive
// stencil shape): `j` and `k` are used only inside the `if`, so the compiler computes
// them there, and the arm's PTX block holds code of the statements before the `if` too.
#define AT(x, y, z) ((x) + nx * ((y) + ny * (z)))

__kernel void sunk_into_arm(__global const float *a, __global float *b, const int nx,
                            const int ny)
{
    int i = get_global_id(0) + 1;
    int j = get_global_id(1) + 1;
    int k = get_global_id(2) + 1;
    if (i < nx - 1) {
        b[AT(i, j, k)] = a[AT(i, j, k + 1)] + a[AT(i, j, k - 1)] + a[AT(i, j + 1, k)]
                         + a[AT(i, j - 1, k)] + a[AT(i + 1, j, k)] + a[AT(i - 1, j, k)];
    }
}
