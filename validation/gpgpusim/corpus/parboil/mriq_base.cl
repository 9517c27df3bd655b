// srcsim corpus: copied from https://github.com/abduld/Parboil
//   commit a4c63da28f45699e9a274cbc49af3e067162aa2b, path benchmarks/mri-q/src/opencl_base/kernels.cl
//   licence: University of Illinois/NCSA Open Source License (Parboil's benchmarks/LICENSE)
// Unchanged except the lines marked `srcsim corpus edit`.
// srcsim corpus edit: #include "macros.h" inlined (same folder of the source)
#ifndef __MACROS__
#define __MACROS__

#define PI   3.1415926535897932384626433832795029f
#define PIx2 6.2831853071795864769252867665590058f

#define MIN(X,Y) ((X) < (Y) ? (X) : (Y))
#define K_ELEMS_PER_GRID 2048

#define KERNEL_PHI_MAG_THREADS_PER_BLOCK 256
#define KERNEL_Q_THREADS_PER_BLOCK 256
#define KERNEL_Q_K_ELEMS_PER_GRID 1024

struct kValues {
  float Kx;
  float Ky;
  float Kz;
  float PhiMag;
};

#endif

// srcsim corpus edit: end of "macros.h"
__kernel void
ComputePhiMag_GPU(__global float* phiR, __global float* phiI, __global float* phiMag, int numK) {
  int indexK = get_global_id(0);
  float real = indexK;
  float imag = indexK;
  if (indexK < numK) {
    /*float*/ real = phiR[indexK];
    /*float*/ imag = phiI[indexK];
    phiMag[indexK] = real*real + imag*imag;
  }
}

__kernel void
ComputeQ_GPU(int numK, int kGlobalIndex,
	     __global float* x, __global float* y, __global float* z,
	     __global float* Qr, __global float* Qi, __global struct kValues* ck) 
{
  float sX;
  float sY;
  float sZ;
  float sQr;
  float sQi;

  // Determine the element of the X arrays computed by this thread
  int xIndex = get_group_id(0)*KERNEL_Q_THREADS_PER_BLOCK + get_local_id(0);

  // Read block's X values from global mem to shared mem
  sX = x[xIndex];
  sY = y[xIndex];
  sZ = z[xIndex];
  sQr = Qr[xIndex];
  sQi = Qi[xIndex];

  int kIndex = 0;
  for (; (kIndex < KERNEL_Q_K_ELEMS_PER_GRID); kIndex++) {
    if (kGlobalIndex < numK) {
      float expArg;
      expArg = PIx2 * (ck[kIndex].Kx * sX +
			   ck[kIndex].Ky * sY +
			   ck[kIndex].Kz * sZ);
      sQr = sQr + ck[kIndex].PhiMag * cos(expArg); // native_cos(expArg);
      sQi = sQi + ck[kIndex].PhiMag * sin(expArg); // native_sin(expArg);
    }
    kGlobalIndex++;
  }

  Qr[xIndex] = sQr;
  Qi[xIndex] = sQi;
}
