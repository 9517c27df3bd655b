/* spmv: y = A * x for a sparse matrix in CSR (compressed sparse row) form.
 * Covers: indirect (gathered) loads through a column-index array, a loop whose trip count
 * is read from memory and differs from row to row (divergent loop exits: empty, short and
 * long rows), an early return for the work-items past the last row, int and float buffers,
 * kernel file read at run time, float check with a tolerance. */
#include "common.h"

#include <math.h>

int main(void)
{
    const int rows = 5000, cols = 3000;
    const size_t local = 64;
    const size_t global = ((size_t)rows + local - 1) / local * local;

    int *row_ptr = malloc((rows + 1) * sizeof(int));
    unsigned seed = 5150;
    row_ptr[0] = 0;
    for (int r = 0; r < rows; r++) {
        int len;
        if (r % 97 == 0)
            len = 0; /* empty row */
        else if (r % 41 == 0)
            len = 120 + (int)(next_rand(&seed) % 200); /* long row */
        else
            len = 1 + (int)(next_rand(&seed) % 12);
        row_ptr[r + 1] = row_ptr[r] + len;
    }
    const int nnz = row_ptr[rows];
    int *col_idx = malloc(nnz * sizeof(int));
    float *values = malloc(nnz * sizeof(float));
    float *x = malloc(cols * sizeof(float));
    float *y = malloc(rows * sizeof(float));
    for (int j = 0; j < nnz; j++) {
        col_idx[j] = (int)(next_rand(&seed) % cols);
        values[j] = rand_unit(&seed) * 2.0f - 1.0f;
    }
    for (int i = 0; i < cols; i++)
        x[i] = rand_unit(&seed) * 10.0f;

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/spmv.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel kernel = clCreateKernel(program, "spmv_csr", &err);
    CHECK(err);

    cl_mem drow = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 (rows + 1) * sizeof(int), row_ptr, &err);
    CHECK(err);
    cl_mem dcol = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 nnz * sizeof(int), col_idx, &err);
    CHECK(err);
    cl_mem dval = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                 nnz * sizeof(float), values, &err);
    CHECK(err);
    cl_mem dx = clCreateBuffer(ctx, CL_MEM_READ_ONLY, cols * sizeof(float), NULL, &err);
    CHECK(err);
    cl_mem dy = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, rows * sizeof(float), NULL, &err);
    CHECK(err);
    CHECK(clEnqueueWriteBuffer(queue, dx, CL_FALSE, 0, cols * sizeof(float), x, 0, NULL, NULL));

    CHECK(clSetKernelArg(kernel, 0, sizeof(int), &rows));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &drow));
    CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dcol));
    CHECK(clSetKernelArg(kernel, 3, sizeof(cl_mem), &dval));
    CHECK(clSetKernelArg(kernel, 4, sizeof(cl_mem), &dx));
    CHECK(clSetKernelArg(kernel, 5, sizeof(cl_mem), &dy));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dy, CL_TRUE, 0, rows * sizeof(float), y, 0, NULL, NULL));

    int bad = 0;
    double norm = 0.0;
    for (int r = 0; r < rows; r++) {
        double want = 0.0, mag = 0.0;
        for (int j = row_ptr[r]; j < row_ptr[r + 1]; j++) {
            double p = (double)values[j] * x[col_idx[j]];
            want += p;
            mag += fabs(p);
        }
        if (fabs(y[r] - want) > 1e-5 * mag + 1e-6) {
            if (bad < 5)
                fprintf(stderr, "y[%d] = %g, expected %g\n", r, y[r], want);
            bad++;
        }
        norm += (double)y[r] * y[r];
    }

    clReleaseMemObject(drow);
    clReleaseMemObject(dcol);
    clReleaseMemObject(dval);
    clReleaseMemObject(dx);
    clReleaseMemObject(dy);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(row_ptr);
    free(col_idx);
    free(values);
    free(x);
    free(y);

    if (bad) {
        printf("spmv: FAILED (%d of %d rows differ)\n", bad, rows);
        return 1;
    }
    printf("spmv: OK (rows=%d, cols=%d, nnz=%d, |y|=%.4f)\n", rows, cols, nnz, sqrt(norm));
    return 0;
}
