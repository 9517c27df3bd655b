// A helper declared in an included header: the annotated twin would give the definition
// its counter parameter but cannot rewrite the header's prototype (the twin would not
// build), so the annotator refuses the kernels that run it, naming the header; the
// program runs as it is, and nothing of srcsim's reaches its stderr.
#include "chatter_twice.h"

float twice(float x)
{
    return x + x;
}

__kernel void doubled(__global float *a)
{
    int i = get_global_id(0);
    a[i] = twice(a[i]);
}
