/* corpus_sparse: sparse matrix-vector products (kernels/corpus/sparse.cl, 5 kernels) on a
 * 512-row matrix with rows of 0 to 12 entries (a few empty, one of 40): CSR scalar, CSR
 * vector (a work-group of 16 per row), ELL, a tridiagonal DIA product and a row census;
 * the products are checked exactly against the host (values are multiples of 1/4). */
#include "corpus.h"

#define ROWS 512
#define WIDTH 40

int main(void)
{
    corpus_t c = corpus_open("corpus_sparse", "hosts/kernels/corpus/sparse.cl", "");
    static int rowptr[ROWS + 1], cols[ROWS * WIDTH], ell_col[WIDTH * ROWS];
    static float vals[ROWS * WIDTH], ell_val[WIDTH * ROWS], x[ROWS], y[ROWS], want[ROWS];
    unsigned seed = 5;
    int nnz = 0;
    for (int r = 0; r < ROWS; r++) {
        rowptr[r] = nnz;
        int len = r == 100 ? WIDTH : (r % 37 == 0 ? 0 : (int)(next_rand(&seed) % 13));
        int col = (int)(next_rand(&seed) % 8);
        for (int k = 0; k < len && col < ROWS; k++) {
            cols[nnz] = col;
            vals[nnz] = (float)((int)(next_rand(&seed) % 9) - 4) * 0.25f;
            nnz++;
            col += 1 + (int)(next_rand(&seed) % 12);
        }
    }
    rowptr[ROWS] = nnz;
    for (int i = 0; i < ROWS; i++)
        x[i] = (float)(i % 7) - 3.0f;
    for (int r = 0; r < ROWS; r++) {
        want[r] = 0.0f;
        for (int p = rowptr[r]; p < rowptr[r + 1]; p++)
            want[r] += vals[p] * x[cols[p]];
        for (int k = 0; k < WIDTH; k++) {
            int p = rowptr[r] + k;
            ell_col[k * ROWS + r] = p < rowptr[r + 1] ? cols[p] : -1;
            ell_val[k * ROWS + r] = p < rowptr[r + 1] ? vals[p] : 0.0f;
        }
    }
    cl_mem drp = corpus_buffer(&c, rowptr, sizeof rowptr), dcol = corpus_buffer(&c, cols, sizeof cols),
           dval = corpus_buffer(&c, vals, sizeof vals), dx = corpus_buffer(&c, x, sizeof x),
           dy = corpus_buffer(&c, NULL, sizeof y);

    cl_kernel k = corpus_kernel(&c, "spmv_csr_scalar");
    ARG_MEM(k, 0, drp);
    ARG_MEM(k, 1, dcol);
    ARG_MEM(k, 2, dval);
    ARG_MEM(k, 3, dx);
    ARG_MEM(k, 4, dy);
    ARG_INT(k, 5, ROWS);
    launch1(&c, k, ROWS, 64);
    corpus_read(&c, dy, y, sizeof y);
    expect_floats(&c, "csr scalar", y, want, ROWS, 0.0f);
    printf("spmv_csr_scalar: nnz %d, sum %.2f\n", nnz, sum_floats(y, ROWS));

    k = corpus_kernel(&c, "spmv_csr_vector");
    ARG_MEM(k, 0, drp);
    ARG_MEM(k, 1, dcol);
    ARG_MEM(k, 2, dval);
    ARG_MEM(k, 3, dx);
    ARG_MEM(k, 4, dy);
    ARG_LOCAL(k, 5, 16 * sizeof(float));
    launch1(&c, k, ROWS * 16, 16);
    corpus_read(&c, dy, y, sizeof y);
    expect_floats(&c, "csr vector", y, want, ROWS, 0.0f);
    printf("spmv_csr_vector: sum %.2f\n", sum_floats(y, ROWS));

    cl_mem decol = corpus_buffer(&c, ell_col, sizeof ell_col),
           deval = corpus_buffer(&c, ell_val, sizeof ell_val);
    k = corpus_kernel(&c, "spmv_ell");
    ARG_MEM(k, 0, decol);
    ARG_MEM(k, 1, deval);
    ARG_MEM(k, 2, dx);
    ARG_MEM(k, 3, dy);
    ARG_INT(k, 4, ROWS);
    ARG_INT(k, 5, WIDTH);
    launch1(&c, k, ROWS, 128);
    corpus_read(&c, dy, y, sizeof y);
    expect_floats(&c, "ell", y, want, ROWS, 0.0f);
    printf("spmv_ell: sum %.2f\n", sum_floats(y, ROWS));

    int offsets[3] = {-1, 0, 1};
    static float diag[3 * ROWS];
    for (int d = 0; d < 3; d++)
        for (int r = 0; r < ROWS; r++)
            diag[d * ROWS + r] = d == 1 ? 2.0f : -0.5f;
    for (int r = 0; r < ROWS; r++)
        want[r] = 2.0f * x[r] - (r > 0 ? 0.5f * x[r - 1] : 0.0f) -
                  (r + 1 < ROWS ? 0.5f * x[r + 1] : 0.0f);
    cl_mem doff = corpus_buffer(&c, offsets, sizeof offsets),
           ddiag = corpus_buffer(&c, diag, sizeof diag);
    k = corpus_kernel(&c, "spmv_dia");
    ARG_MEM(k, 0, doff);
    ARG_MEM(k, 1, ddiag);
    ARG_MEM(k, 2, dx);
    ARG_MEM(k, 3, dy);
    ARG_INT(k, 4, ROWS);
    ARG_INT(k, 5, 3);
    launch1(&c, k, ROWS, 0);
    corpus_read(&c, dy, y, sizeof y);
    expect_floats(&c, "dia", y, want, ROWS, 0.0f);
    printf("spmv_dia: sum %.2f\n", sum_floats(y, ROWS));

    static int big[ROWS], last[ROWS], lengths[16];
    cl_mem dbig = corpus_buffer(&c, NULL, sizeof big), dlast = corpus_buffer(&c, NULL, sizeof last),
           dlen = corpus_buffer(&c, NULL, sizeof lengths);
    k = corpus_kernel(&c, "csr_census");
    ARG_MEM(k, 0, drp);
    ARG_MEM(k, 1, dcol);
    ARG_MEM(k, 2, dval);
    ARG_FLOAT(k, 3, 0.6f);
    ARG_MEM(k, 4, dbig);
    ARG_MEM(k, 5, dlast);
    ARG_MEM(k, 6, dlen);
    ARG_INT(k, 7, ROWS);
    launch1(&c, k, ROWS, 64);
    corpus_read(&c, dbig, big, sizeof big);
    corpus_read(&c, dlast, last, sizeof last);
    corpus_read(&c, dlen, lengths, sizeof lengths);
    printf("csr_census: big %u, last %u, lengths %u\n", checksum_ints(big, ROWS),
           checksum_ints(last, ROWS), checksum_ints(lengths, 16));
    return corpus_close(&c);
}
