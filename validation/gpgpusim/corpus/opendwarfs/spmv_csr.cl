// srcsim corpus: copied from https://github.com/vtsynergy/OpenDwarfs
//   commit fdec39374f7e08d45aa8b4cc18e212f6f1c1c710, path sparse-linear-algebra/SPMV/src/spmv_kernel.cl
//   licence: LGPL-2.1 (OpenDwarfs' LICENSE, Copyright 2011-2015 Virginia Polytechnic Institute and State University)
// Unchanged except the lines marked `srcsim corpus edit`.
/*
 */

void __kernel csr(const unsigned int num_rows,
		__global unsigned int * Ap, 
		__global unsigned int * Aj, 
		__global float * Ax, 
		__global float * x, 
		__global float * y)
{
	unsigned int row = get_global_id(0);

	if(row < num_rows)
	{     
		float sum = y[row];

		const unsigned int row_start = Ap[row];      	
		const unsigned int row_end = Ap[row+1];

		unsigned int jj = 0;
		for (jj = row_start; jj < row_end; jj++)
			sum += Ax[jj] * x[Aj[jj]];      

		y[row] = sum;
	}
}
