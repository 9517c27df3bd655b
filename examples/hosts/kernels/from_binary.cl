// from_binary's kernel: each work-item applies x = x * SCALE + 1 to its element, as many
// times as the element's index modulo 4 says (a data-independent but lane-varying loop).
// SCALE comes from the build options (-D SCALE=3), which a program built from the binary
// does not repeat: the binary holds them.
__kernel void scale_steps(__global float *x)
{
    int i = get_global_id(0);
    float v = x[i];
    for (int k = 0; k < (i & 3); k++)
        v = v * SCALE + 1.0f;
    x[i] = v;
}
