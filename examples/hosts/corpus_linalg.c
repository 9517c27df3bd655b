/* corpus_linalg: dense linear algebra, LU and Gaussian elimination
 * (kernels/corpus/linalg.cl, 8 kernels) on 32 x 32 matrices: a tiled GEMM checked exactly
 * against the host (small integer entries), GEMV both ways, a tiled transpose, a dot
 * product reduced in local memory, LU without pivoting (2 kernels a step) and Gaussian
 * elimination with back substitution on a diagonally dominant system; prints a checksum
 * per kernel. */
#include "corpus.h"

#define N 32
#define TS 8

int main(void)
{
    corpus_t c = corpus_open("corpus_linalg", "hosts/kernels/corpus/linalg.cl", "-D TS=8");
    static float a[N * N], b[N * N], cm[N * N], want[N * N], out[N * N], x[N], y[N];
    unsigned seed = 11;
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((int)(next_rand(&seed) % 5) - 2);
        b[i] = (float)((int)(next_rand(&seed) % 5) - 2);
        cm[i] = (float)(int)(next_rand(&seed) % 7);
    }
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 4) - 1.5f;
    const size_t bytes = sizeof a;

    /* gemm_tiled: C = A B + 0.5 C, exact. */
    cl_mem da = corpus_buffer(&c, a, bytes), db = corpus_buffer(&c, b, bytes),
           dc = corpus_buffer(&c, cm, bytes);
    cl_kernel k = corpus_kernel(&c, "gemm_tiled");
    ARG_MEM(k, 0, da);
    ARG_MEM(k, 1, db);
    ARG_MEM(k, 2, dc);
    ARG_INT(k, 3, N);
    ARG_FLOAT(k, 4, 1.0f);
    ARG_FLOAT(k, 5, 0.5f);
    launch2(&c, k, N, N, TS, TS);
    corpus_read(&c, dc, out, bytes);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            float s = 0.0f;
            for (int t = 0; t < N; t++)
                s += a[i * N + t] * b[t * N + j];
            want[i * N + j] = s + 0.5f * cm[i * N + j];
        }
    expect_floats(&c, "gemm", out, want, N * N, 0.0f);
    printf("gemm_tiled: sum %.1f\n", sum_floats(out, N * N));

    /* gemv, both ways. */
    cl_mem dx = corpus_buffer(&c, x, sizeof x), dy = corpus_buffer(&c, NULL, sizeof y);
    k = corpus_kernel(&c, "gemv");
    ARG_MEM(k, 0, da);
    ARG_MEM(k, 1, dx);
    ARG_MEM(k, 2, dy);
    ARG_INT(k, 3, N);
    for (int t = 0; t < 2; t++) {
        ARG_INT(k, 4, t);
        launch1(&c, k, 64, 16);
        corpus_read(&c, dy, y, sizeof y);
        printf("gemv%s: sum %.2f, y[3] %.2f\n", t ? " (transposed)" : "", sum_floats(y, N),
               y[3]);
    }

    /* transpose_tiled. */
    cl_mem dt = corpus_buffer(&c, NULL, bytes);
    k = corpus_kernel(&c, "transpose_tiled");
    ARG_MEM(k, 0, da);
    ARG_MEM(k, 1, dt);
    ARG_INT(k, 2, N);
    launch2(&c, k, N, N, TS, TS);
    corpus_read(&c, dt, out, bytes);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            want[j * N + i] = a[i * N + j];
    expect_floats(&c, "transpose", out, want, N * N, 0.0f);
    printf("transpose_tiled: checksum %u\n", checksum_ints((const int *)out, N * N));

    /* dot_partial over the matrices as vectors: 4 groups of 32. */
    float partial[4];
    cl_mem dp = corpus_buffer(&c, NULL, sizeof partial);
    k = corpus_kernel(&c, "dot_partial");
    ARG_MEM(k, 0, da);
    ARG_MEM(k, 1, db);
    ARG_MEM(k, 2, dp);
    ARG_LOCAL(k, 3, 32 * sizeof(float));
    ARG_INT(k, 4, N * N);
    launch1(&c, k, 128, 32);
    corpus_read(&c, dp, partial, sizeof partial);
    float dot = 0.0f;
    for (int i = 0; i < N * N; i++)
        dot += a[i] * b[i];
    printf("dot_partial: %.1f (host %.1f)\n", sum_floats(partial, 4), dot);
    if (sum_floats(partial, 4) != dot)
        c.failed = 1;

    /* LU of a diagonally dominant matrix: lu_column then lu_trailing, per step. */
    static float m[N * N];
    for (int i = 0; i < N * N; i++)
        m[i] = a[i] + (i % (N + 1) == 0 ? 4.0f * N : 0.0f);
    cl_mem dm = corpus_buffer(&c, m, bytes);
    cl_kernel col = corpus_kernel(&c, "lu_column"), trail = corpus_kernel(&c, "lu_trailing");
    ARG_MEM(col, 0, dm);
    ARG_INT(col, 1, N);
    ARG_MEM(trail, 0, dm);
    ARG_INT(trail, 1, N);
    for (int s = 0; s < N - 1; s++) {
        ARG_INT(col, 2, s);
        launch1(&c, col, 32, 0);
        ARG_INT(trail, 2, s);
        launch2(&c, trail, 32, 32, 8, 8);
    }
    corpus_read(&c, dm, out, bytes);
    double logdet = 0.0;
    for (int i = 0; i < N; i++)
        logdet += log(fabs(out[i * N + i]));
    printf("lu_column, lu_trailing: log|det| %.3f\n", logdet);

    /* Gaussian elimination, then back substitution; rhs = M * (1, 2, ..., 1, 2). */
    float rhs[N], sol[N];
    for (int i = 0; i < N; i++) {
        rhs[i] = 0.0f;
        for (int j = 0; j < N; j++)
            rhs[i] += m[i * N + j] * (float)(1 + j % 2);
    }
    corpus_write(&c, dm, m, bytes);
    cl_mem dr = corpus_buffer(&c, rhs, sizeof rhs), ds = corpus_buffer(&c, NULL, sizeof sol);
    k = corpus_kernel(&c, "gauss_eliminate");
    ARG_MEM(k, 0, dm);
    ARG_MEM(k, 1, dr);
    ARG_INT(k, 2, N);
    for (int s = 0; s < N - 1; s++) {
        ARG_INT(k, 3, s);
        launch1(&c, k, N, 0);
    }
    k = corpus_kernel(&c, "back_substitute");
    ARG_MEM(k, 0, dm);
    ARG_MEM(k, 1, dr);
    ARG_MEM(k, 2, ds);
    ARG_INT(k, 3, N);
    launch1(&c, k, 1, 1);
    corpus_read(&c, ds, sol, sizeof sol);
    float expected[N];
    for (int i = 0; i < N; i++)
        expected[i] = (float)(1 + i % 2);
    expect_floats(&c, "gauss solution", sol, expected, N, 1e-3f);
    printf("gauss_eliminate, back_substitute: solution sum %.2f\n", sum_floats(sol, N));
    return corpus_close(&c);
}
