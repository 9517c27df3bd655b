// clone_kernel's kernel: x[i] = x[i] * a + i, over the work-items of its launch.
__kernel void scale_shift(__global float *x, const float a)
{
    int i = get_global_id(0);
    x[i] = x[i] * a + (float)i;
}
