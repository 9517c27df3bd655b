// images' kernels: a 3x1 box filter over a 2D image read through a sampler (clamped at
// the edges), and a kernel that writes every voxel of a 3D image from its coordinates.
__constant sampler_t clamped = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE |
                               CLK_FILTER_NEAREST;

__kernel void box3(__read_only image2d_t src, __write_only image2d_t dst)
{
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    float4 sum = read_imagef(src, clamped, p - (int2)(1, 0)) + read_imagef(src, clamped, p) +
                 read_imagef(src, clamped, p + (int2)(1, 0));
    write_imagef(dst, p, sum / 3.0f);
}

__kernel void fill3d(__write_only image3d_t dst)
{
    int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
    write_imagef(dst, p, (float4)(p.x, p.y, p.z, p.x + p.y + p.z));
}
