// 3x3x3 box filter over a volume, one work-item per voxel of a 3D NDRange. The volume's
// extent is the global size; neighbours outside the volume are clamped to its edge.
__kernel void box_filter3d(__global const float *in, __global float *out)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int nx = get_global_size(0), ny = get_global_size(1), nz = get_global_size(2);

    float sum = 0.0f;
    for (int dz = -1; dz <= 1; dz++) {
        int zz = clamp(z + dz, 0, nz - 1);
        for (int dy = -1; dy <= 1; dy++) {
            int yy = clamp(y + dy, 0, ny - 1);
            for (int dx = -1; dx <= 1; dx++) {
                int xx = clamp(x + dx, 0, nx - 1);
                sum += in[(zz * ny + yy) * nx + xx];
            }
        }
    }
    out[(z * ny + y) * nx + x] = sum * (1.0f / 27.0f);
}
