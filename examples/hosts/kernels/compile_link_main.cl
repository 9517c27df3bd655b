// compile_link's first unit: the kernel, which calls the helper another unit defines. Each
// work-item takes as many steps as its index modulo 4 says.
#include "compile_link_coeffs.h"

__kernel void steps(__global float *x, const float a)
{
    int i = get_global_id(0);
    float v = x[i];
    for (int k = 0; k < (i & 3); k++)
        v = advance(v, a);
    x[i] = v;
}
