// OpenCL 2.0 shared virtual memory: a lookup table reached through a pointer stored in
// SVM memory (the host names the table in clSetKernelExecInfo(CL_KERNEL_EXEC_INFO_SVM_PTRS),
// as no kernel argument points at it). Pointers are qualified: PoCL 3.1 compiles
// -cl-std=CL2.0 without the generic address space (an unqualified pointer parameter is
// __private there).
typedef struct {
    __global const float *table; // an SVM allocation of `size` floats
    float scale;
    int size;
} lookup_t;

static float weighted(__global const float *w, int k)
{
    return w[k & 3] * (float)(k + 1);
}

__kernel void svm_lookup(__global const lookup_t *lut, __global const int *index,
                         __global float *out, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    int k = index[i];
    float v = 0.0f;
    if (k >= 0)
        v = lut->table[k % lut->size] * lut->scale;
    else
        v = -weighted(lut->table, -k);
    out[i] = v;
}
