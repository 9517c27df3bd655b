// srcsim corpus: copied from https://github.com/abduld/Parboil
//   commit a4c63da28f45699e9a274cbc49af3e067162aa2b, path benchmarks/sgemm/src/opencl_base/kernel.cl
//   licence: University of Illinois/NCSA Open Source License (Parboil's benchmarks/LICENSE)
// Unchanged except the lines marked `srcsim corpus edit`.
/***************************************************************************
 *cr
 *cr            (C) Copyright 2010 The Board of Trustees of the
 *cr                        University of Illinois
 *cr                         All Rights Reserved
 *cr
 ***************************************************************************/

/*
 * Kernel of dense matrix-matrix multiplication kernel.
 */

__kernel void mysgemmNT( __global const float *A, int lda, __global const float *B, int ldb, __global float* C, int ldc, int k, float alpha, float beta )
{
    float c = 0.0f;
    int m = get_global_id(0);
    int n = get_global_id(1);

    for (int i = 0; i < k; ++i) {
        float a = A[m + i * lda];
        // float b = B[n * 2];
        float b = B[n + i * ldb];
        c += a * b;
    }
    C[m+n*ldc] = beta *  C[m+n*ldc] + alpha * c;
}
