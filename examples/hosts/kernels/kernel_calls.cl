// kernel_calls' kernels: `scale` is launched on its own and called, as a function, by
// `twice` (OpenCL C allows a kernel to call another); `shift` is neither.
__kernel void scale(__global float *x, const float a)
{
    int i = get_global_id(0);
    x[i] = x[i] * a + (float)(i & 3);
}

__kernel void twice(__global float *x, const float a)
{
    scale(x, a);
    scale(x, a);
}

__kernel void shift(__global float *x)
{
    x[get_global_id(0)] -= 1.0f;
}
