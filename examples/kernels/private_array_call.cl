// A private array indexed at run time (it lives in the local-memory depot) and a helper
// the compiler must not inline, so the kernel calls it. Each work-item reads and writes
// only its own 16 elements: no work-item reads what another writes.
__attribute__((noinline)) float horner(float x, int degree)
{
    float acc = 0.0f;
    for (int i = 0; i < degree; i++)
        acc = acc * x + 1.0f;
    return acc;
}

__kernel void private_array_call(__global float *data, const int degree, const int pick)
{
    float window[16];
    int gid = get_global_id(0);
    for (int i = 0; i < 16; i++)
        window[i] = data[gid * 16 + i];
    data[gid * 16] = horner(window[pick & 15], degree);
}
