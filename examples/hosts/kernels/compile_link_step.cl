// compile_link's second unit: the helper, compiled on its own and linked in.
#include "compile_link_coeffs.h"

float advance(float v, float a)
{
    return v * a + OFFSET;
}
