// A helper declared in an included header: the annotated twin gives the definition its
// counter parameter but cannot rewrite the header's prototype, so the twin does not build
// (conflicting types) while the program does; the program must then run as it is, and
// the runtime's errors about the twin must not reach its stderr.
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
