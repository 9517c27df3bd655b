/* corpus_dp: dynamic programming (kernels/corpus/dp.cl, 5 kernels): Needleman-Wunsch of two
 * 48-letter DNA strings (one launch per anti-diagonal, 95 launches), Smith-Waterman on 8
 * tiles of 16 x 16, edit distances of 256 string pairs of 0 to 24 letters, a 0/1 knapsack
 * of 20 items (one launch per item) and Kadane's best subarray on 64 rows; all checked
 * against the host. */
#include "corpus.h"

#define LA 48
#define LB 40
#define T 16
#define MAXLEN 24

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

int main(void)
{
    corpus_t c = corpus_open("corpus_dp", "hosts/kernels/corpus/dp.cl", "");
    unsigned seed = 1234;
    static const char acgt[4] = {'A', 'C', 'G', 'T'};

    /* Needleman-Wunsch. */
    unsigned char a[LA], b[LB];
    for (int i = 0; i < LA; i++)
        a[i] = (unsigned char)acgt[next_rand(&seed) % 4];
    for (int j = 0; j < LB; j++)
        b[j] = j % 5 == 0 ? (unsigned char)acgt[next_rand(&seed) % 4] : a[j + 3];
    enum { ROWS = LA + 1, COLS = LB + 1 };
    static int m[ROWS * COLS], want[ROWS * COLS];
    for (int i = 0; i < ROWS; i++)
        m[i * COLS] = -2 * i;
    for (int j = 0; j < COLS; j++)
        m[j] = -2 * j;
    memcpy(want, m, sizeof m);
    cl_mem dm = corpus_buffer(&c, m, sizeof m), da = corpus_buffer(&c, a, sizeof a),
           db = corpus_buffer(&c, b, sizeof b);
    cl_kernel k = corpus_kernel(&c, "nw_diagonal");
    ARG_MEM(k, 0, dm);
    ARG_MEM(k, 1, da);
    ARG_MEM(k, 2, db);
    ARG_INT(k, 3, ROWS);
    ARG_INT(k, 4, COLS);
    for (int diag = 2; diag <= LA + LB; diag++) {
        ARG_INT(k, 5, diag);
        launch1(&c, k, 64, 32);
    }
    corpus_read(&c, dm, m, sizeof m);
    for (int i = 1; i < ROWS; i++)
        for (int j = 1; j < COLS; j++)
            want[i * COLS + j] = max3(want[(i - 1) * COLS + j - 1] + (a[i - 1] == b[j - 1] ? 3 : -1),
                                      want[(i - 1) * COLS + j] - 2, want[i * COLS + j - 1] - 2);
    expect_ints(&c, "nw", m, want, ROWS * COLS);
    printf("nw_diagonal: score %d, checksum %u\n", m[ROWS * COLS - 1], checksum_ints(m, ROWS * COLS));

    /* Smith-Waterman tiles. */
    enum { TILES = 8 };
    unsigned char sa[TILES * T], sb[TILES * T];
    for (int i = 0; i < TILES * T; i++) {
        sa[i] = (unsigned char)acgt[next_rand(&seed) % 4];
        sb[i] = i % 3 ? sa[i] : (unsigned char)acgt[next_rand(&seed) % 4];
    }
    int best[TILES], want_best[TILES];
    cl_mem dsa = corpus_buffer(&c, sa, sizeof sa), dsb = corpus_buffer(&c, sb, sizeof sb),
           dbest = corpus_buffer(&c, NULL, sizeof best);
    k = corpus_kernel(&c, "sw_tile");
    ARG_MEM(k, 0, dsa);
    ARG_MEM(k, 1, dsb);
    ARG_MEM(k, 2, dbest);
    launch1(&c, k, TILES * T, T);
    corpus_read(&c, dbest, best, sizeof best);
    for (int g = 0; g < TILES; g++) {
        int h[T + 1][T + 1] = {{0}}, top = 0;
        for (int i = 1; i <= T; i++)
            for (int j = 1; j <= T; j++) {
                int v = max3(h[i - 1][j - 1] + (sa[g * T + i - 1] == sb[g * T + j - 1] ? 3 : -1),
                             h[i - 1][j] - 2, h[i][j - 1] - 2);
                h[i][j] = v < 0 ? 0 : v;
                top = h[i][j] > top ? h[i][j] : top;
            }
        want_best[g] = top;
    }
    expect_ints(&c, "sw", best, want_best, TILES);
    printf("sw_tile: best scores %u\n", checksum_ints(best, TILES));

    /* Edit distances. */
    enum { PAIRS = 256 };
    static unsigned char ea[PAIRS * MAXLEN], eb[PAIRS * MAXLEN];
    static int la[PAIRS], lb[PAIRS], dist[PAIRS], want_dist[PAIRS];
    for (int p = 0; p < PAIRS; p++) {
        la[p] = (int)(next_rand(&seed) % (MAXLEN + 1));
        lb[p] = p % 7 == 0 ? 0 : (int)(next_rand(&seed) % (MAXLEN + 1));
        for (int i = 0; i < MAXLEN; i++) {
            ea[p * MAXLEN + i] = (unsigned char)acgt[next_rand(&seed) % 4];
            eb[p * MAXLEN + i] = i % 4 ? ea[p * MAXLEN + i] : (unsigned char)'G';
        }
    }
    for (int p = 0; p < PAIRS; p++) {
        int row[MAXLEN + 1];
        for (int j = 0; j <= lb[p]; j++)
            row[j] = j;
        for (int i = 1; i <= la[p]; i++) {
            int diag = row[0];
            row[0] = i;
            for (int j = 1; j <= lb[p]; j++) {
                int up = row[j], cost = ea[p * MAXLEN + i - 1] != eb[p * MAXLEN + j - 1];
                int v = up + 1 < row[j - 1] + 1 ? up + 1 : row[j - 1] + 1;
                row[j] = v < diag + cost ? v : diag + cost;
                diag = up;
            }
        }
        want_dist[p] = row[lb[p]];
    }
    cl_mem dea = corpus_buffer(&c, ea, sizeof ea), deb = corpus_buffer(&c, eb, sizeof eb),
           dla = corpus_buffer(&c, la, sizeof la), dlb = corpus_buffer(&c, lb, sizeof lb),
           ddist = corpus_buffer(&c, NULL, sizeof dist);
    k = corpus_kernel(&c, "edit_distance");
    ARG_MEM(k, 0, dea);
    ARG_MEM(k, 1, deb);
    ARG_MEM(k, 2, dla);
    ARG_MEM(k, 3, dlb);
    ARG_MEM(k, 4, ddist);
    ARG_INT(k, 5, PAIRS);
    launch1(&c, k, PAIRS, 64);
    corpus_read(&c, ddist, dist, sizeof dist);
    expect_ints(&c, "edit distance", dist, want_dist, PAIRS);
    printf("edit_distance: checksum %u\n", checksum_ints(dist, PAIRS));

    /* Knapsack. */
    enum { CAP = 100, ITEMS = 20 };
    int kp[CAP + 1] = {0}, kn[CAP + 1];
    cl_mem dk[2] = {corpus_buffer(&c, kp, sizeof kp), corpus_buffer(&c, kp, sizeof kp)};
    k = corpus_kernel(&c, "knapsack_row");
    ARG_INT(k, 2, CAP);
    for (int item = 0; item < ITEMS; item++) {
        int weight = 3 + (int)(next_rand(&seed) % 20), value = 1 + (int)(next_rand(&seed) % 30);
        ARG_MEM(k, 0, dk[item % 2]);
        ARG_MEM(k, 1, dk[(item + 1) % 2]);
        ARG_INT(k, 3, weight);
        ARG_INT(k, 4, value);
        launch1(&c, k, 128, 64);
        for (int cap = 0; cap <= CAP; cap++)
            kn[cap] = cap >= weight && kp[cap - weight] + value > kp[cap] ? kp[cap - weight] + value
                                                                          : kp[cap];
        memcpy(kp, kn, sizeof kp);
    }
    corpus_read(&c, dk[ITEMS % 2], kn, sizeof kn);
    expect_ints(&c, "knapsack", kn, kp, CAP + 1);
    printf("knapsack_row: best value %d\n", kn[CAP]);

    /* Kadane. */
    enum { KR = 64, KN = 50 };
    static int v[KR * KN], kbest[KR], kstart[KR];
    for (int i = 0; i < KR * KN; i++)
        v[i] = (int)(next_rand(&seed) % 21) - 11;
    cl_mem dv = corpus_buffer(&c, v, sizeof v), dkb = corpus_buffer(&c, NULL, sizeof kbest),
           dks = corpus_buffer(&c, NULL, sizeof kstart);
    k = corpus_kernel(&c, "max_subarray");
    ARG_MEM(k, 0, dv);
    ARG_MEM(k, 1, dkb);
    ARG_MEM(k, 2, dks);
    ARG_INT(k, 3, KN);
    launch1(&c, k, KR, 16);
    corpus_read(&c, dkb, kbest, sizeof kbest);
    corpus_read(&c, dks, kstart, sizeof kstart);
    int wantk[KR];
    for (int r = 0; r < KR; r++) {
        int top = v[r * KN];
        for (int s = 0; s < KN; s++) {
            int sum = 0;
            for (int e = s; e < KN; e++) {
                sum += v[r * KN + e];
                top = sum > top ? sum : top;
            }
        }
        wantk[r] = top;
    }
    expect_ints(&c, "kadane", kbest, wantk, KR);
    printf("max_subarray: best %u, starts %u\n", checksum_ints(kbest, KR), checksum_ints(kstart, KR));
    return corpus_close(&c);
}
