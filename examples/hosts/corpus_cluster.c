/* corpus_cluster: clustering and wavelets (kernels/corpus/cluster.cl, 6 kernels): 4
 * k-means iterations (K = 6, 3 features, 1024 points; assignment on the device, the new
 * centres from fixed-point sums accumulated with atomics, rounded to 1/256 so that every
 * distance is exact), a 5-level Haar transform of
 * 512 values and its inverse (checked to give the input back exactly), one level of a 2D
 * Haar transform of 32 x 16, and DBSCAN's neighbour counts on 256 points (checked). */
#include "corpus.h"

#define DIM 3
#define K 6
#define NP 1024

int main(void)
{
    corpus_t c = corpus_open("corpus_cluster", "hosts/kernels/corpus/cluster.cl", "-D DIM=3");
    static float points[NP * DIM];
    unsigned seed = 42;
    for (int p = 0; p < NP; p++)
        for (int d = 0; d < DIM; d++)
            points[p * DIM + d] = (float)((p % K) * 4 + (int)(next_rand(&seed) % 8)) / 4.0f;
    float centres[K * DIM];
    for (int i = 0; i < K * DIM; i++)
        centres[i] = points[i * 5];
    cl_mem dp = corpus_buffer(&c, points, sizeof points), dc = corpus_buffer(&c, centres, sizeof centres),
           dmem = corpus_buffer(&c, NULL, NP * sizeof(int)),
           dsums = corpus_buffer(&c, NULL, K * DIM * sizeof(int)),
           dcounts = corpus_buffer(&c, NULL, K * sizeof(int));
    cl_kernel assign = corpus_kernel(&c, "kmeans_assign"), accum = corpus_kernel(&c, "kmeans_accumulate");
    ARG_MEM(assign, 0, dp);
    ARG_MEM(assign, 1, dc);
    ARG_MEM(assign, 2, dmem);
    ARG_INT(assign, 3, NP);
    ARG_INT(assign, 4, K);
    ARG_MEM(accum, 0, dp);
    ARG_MEM(accum, 1, dmem);
    ARG_MEM(accum, 2, dsums);
    ARG_MEM(accum, 3, dcounts);
    ARG_INT(accum, 4, NP);
    int sums[K * DIM], counts[K];
    for (int it = 0; it < 4; it++) {
        int zeros[K * DIM] = {0};
        corpus_write(&c, dsums, zeros, sizeof zeros);
        corpus_write(&c, dcounts, zeros, sizeof counts);
        launch1(&c, assign, NP, 64);
        launch1(&c, accum, NP, 64);
        corpus_read(&c, dsums, sums, sizeof sums);
        corpus_read(&c, dcounts, counts, sizeof counts);
        for (int k = 0; k < K; k++)
            if (counts[k])
                for (int d = 0; d < DIM; d++)
                    centres[k * DIM + d] = (float)(sums[k * DIM + d] / counts[k]) / 256.0f;
        corpus_write(&c, dc, centres, sizeof centres);
        printf("kmeans iteration %d: counts %d %d %d %d %d %d\n", it, counts[0], counts[1],
               counts[2], counts[3], counts[4], counts[5]);
    }
    printf("kmeans_assign, kmeans_accumulate: centre sum %.3f\n", sum_floats(centres, K * DIM));

    enum { HN = 512, LEVELS = 5 };
    static float sig[HN], coef[HN], back[HN];
    for (int i = 0; i < HN; i++)
        sig[i] = (float)((i * 7) % 32);
    cl_mem ds = corpus_buffer(&c, sig, sizeof sig), dcoef = corpus_buffer(&c, NULL, sizeof coef),
           dback = corpus_buffer(&c, NULL, sizeof back);
    cl_kernel fwd = corpus_kernel(&c, "haar_forward"), inv = corpus_kernel(&c, "haar_inverse");
    ARG_MEM(fwd, 0, ds);
    ARG_MEM(fwd, 1, dcoef);
    ARG_INT(fwd, 2, LEVELS);
    ARG_MEM(inv, 0, dcoef);
    ARG_MEM(inv, 1, dback);
    ARG_INT(inv, 2, LEVELS);
    launch1(&c, fwd, HN / 2, 64);
    launch1(&c, inv, HN / 2, 64);
    corpus_read(&c, dcoef, coef, sizeof coef);
    corpus_read(&c, dback, back, sizeof back);
    expect_floats(&c, "haar round trip", back, sig, HN, 0.0f);
    printf("haar_forward, haar_inverse: coefficient sum %.5f, |coef| %u\n", sum_floats(coef, HN),
           checksum_ints((const int *)coef, HN));

    enum { W2 = 32, H2 = 16 };
    static float im[W2 * H2], out[W2 * H2];
    for (int i = 0; i < W2 * H2; i++)
        im[i] = (float)(i % 13);
    cl_mem dim = corpus_buffer(&c, im, sizeof im), dout = corpus_buffer(&c, NULL, sizeof out);
    cl_kernel k = corpus_kernel(&c, "haar2d_level");
    ARG_MEM(k, 0, dim);
    ARG_MEM(k, 1, dout);
    ARG_INT(k, 2, W2);
    ARG_INT(k, 3, H2);
    launch2(&c, k, W2 / 2, H2 / 2, 8, 4);
    corpus_read(&c, dout, out, sizeof out);
    printf("haar2d_level: LL sum %.3f, checksum %u\n", sum_floats(out, W2 / 2),
           checksum_ints((const int *)out, W2 * H2));

    enum { ND = 256 };
    static int nb[ND], core[ND], want[ND];
    const float eps2 = 1.0f;
    for (int p = 0; p < ND; p++) {
        want[p] = 0;
        for (int q = 0; q < ND; q++) {
            float s = 0.0f;
            for (int d = 0; d < DIM; d++)
                s += (points[p * DIM + d] - points[q * DIM + d]) * (points[p * DIM + d] - points[q * DIM + d]);
            want[p] += s <= eps2;
        }
    }
    cl_mem dnb = corpus_buffer(&c, NULL, sizeof nb), dcore = corpus_buffer(&c, NULL, sizeof core);
    k = corpus_kernel(&c, "density_count");
    ARG_MEM(k, 0, dp);
    ARG_MEM(k, 1, dnb);
    ARG_MEM(k, 2, dcore);
    ARG_INT(k, 3, ND);
    ARG_FLOAT(k, 4, eps2);
    ARG_INT(k, 5, 8);
    launch1(&c, k, ND, 32);
    corpus_read(&c, dnb, nb, sizeof nb);
    corpus_read(&c, dcore, core, sizeof core);
    expect_ints(&c, "density", nb, want, ND);
    int cores = 0;
    for (int p = 0; p < ND; p++)
        cores += core[p];
    printf("density_count: %d core points, checksum %u\n", cores, checksum_ints(nb, ND));
    return corpus_close(&c);
}
