// Flips the sign of every element through its bits. The pointer is converted without a
// cast, which clang warns about: the OpenCL runtime's compiler prints "1 warning
// generated." on stderr when it builds this program, once, as the program's own output
// (the annotated twin's build must not print it again).
__kernel void flip_sign(__global float *a)
{
    __global uint *bits = a;
    int i = get_global_id(0);
    bits[i] ^= 0x80000000u;
}
