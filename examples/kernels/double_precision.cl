// y = a * x + y in double precision, with a division per element.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

__kernel void daxpy_div(__global const double *x, __global double *y,
                        const double a, const int n)
{
    int i = get_global_id(0);
    if (i < n) {
        double xi = x[i];
        y[i] = a * xi + y[i] / (xi + 2.0);
    }
}
