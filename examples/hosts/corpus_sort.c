/* corpus_sort: sorting (kernels/corpus/sort.cl, 5 kernels): a bitonic sort of 1024 keys
 * (local runs of 128, then global merge steps), a rank sort of 512 keys, a 4-bit radix
 * digit histogram over 4 passes and 64 odd-even transposition phases on 64 keys; each
 * result checked against qsort or a host count. */
#include "corpus.h"

static int cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    corpus_t c = corpus_open("corpus_sort", "hosts/kernels/corpus/sort.cl", "");
    enum { N = 1024, R = 512, E = 64 };
    static int keys[N], want[N], got[N];
    unsigned seed = 8;
    for (int i = 0; i < N; i++)
        keys[i] = (int)(next_rand(&seed) % 100000) - 50000;
    memcpy(want, keys, sizeof keys);
    qsort(want, N, sizeof(int), cmp);

    cl_mem dk = corpus_buffer(&c, keys, sizeof keys);
    cl_kernel loc = corpus_kernel(&c, "bitonic_local"), step = corpus_kernel(&c, "bitonic_step");
    ARG_MEM(loc, 0, dk);
    launch1(&c, loc, N / 2, 64);
    ARG_MEM(step, 0, dk);
    int steps = 0;
    for (int size = 256; size <= N; size <<= 1)
        for (int stride = size / 2; stride > 0; stride >>= 1) {
            ARG_INT(step, 1, size);
            ARG_INT(step, 2, stride);
            launch1(&c, step, N / 2, 64);
            steps++;
        }
    corpus_read(&c, dk, got, sizeof got);
    expect_ints(&c, "bitonic", got, want, N);
    printf("bitonic_local, bitonic_step: %d global steps, checksum %u\n", steps,
           checksum_ints(got, N));

    cl_mem din = corpus_buffer(&c, keys, R * sizeof(int)), dout = corpus_buffer(&c, NULL, R * sizeof(int));
    cl_kernel k = corpus_kernel(&c, "rank_sort");
    ARG_MEM(k, 0, din);
    ARG_MEM(k, 1, dout);
    ARG_INT(k, 2, R);
    launch1(&c, k, R, 64);
    corpus_read(&c, dout, got, R * sizeof(int));
    memcpy(want, keys, R * sizeof(int));
    qsort(want, R, sizeof(int), cmp);
    expect_ints(&c, "rank", got, want, R);
    printf("rank_sort: checksum %u\n", checksum_ints(got, R));

    enum { GROUPS = 4 };
    int hist[16 * GROUPS], totals[16], want_totals[16];
    cl_mem dh = corpus_buffer(&c, NULL, sizeof hist);
    k = corpus_kernel(&c, "radix_count");
    ARG_MEM(k, 0, dk);
    ARG_MEM(k, 1, dh);
    ARG_INT(k, 2, N);
    corpus_write(&c, dk, keys, sizeof keys);
    unsigned all = 0;
    for (int pass = 0; pass < 4; pass++) {
        ARG_INT(k, 3, 4 * pass);
        launch1(&c, k, 64 * GROUPS, 64);
        corpus_read(&c, dh, hist, sizeof hist);
        for (int d = 0; d < 16; d++) {
            totals[d] = want_totals[d] = 0;
            for (int g = 0; g < GROUPS; g++)
                totals[d] += hist[d * GROUPS + g];
        }
        for (int i = 0; i < N; i++)
            want_totals[(keys[i] >> (4 * pass)) & 15]++;
        expect_ints(&c, "radix totals", totals, want_totals, 16);
        all = all * 31u + checksum_ints(hist, 16 * GROUPS);
    }
    printf("radix_count: 4 passes, checksum %u\n", all);

    k = corpus_kernel(&c, "odd_even_step");
    cl_mem de = corpus_buffer(&c, keys, E * sizeof(int));
    ARG_MEM(k, 0, de);
    ARG_INT(k, 1, E);
    for (int phase = 0; phase < E; phase++) {
        ARG_INT(k, 2, phase % 2);
        launch1(&c, k, E / 2, 32);
    }
    corpus_read(&c, de, got, E * sizeof(int));
    memcpy(want, keys, E * sizeof(int));
    qsort(want, E, sizeof(int), cmp);
    expect_ints(&c, "odd-even", got, want, E);
    printf("odd_even_step: checksum %u\n", checksum_ints(got, E));
    return corpus_close(&c);
}
