/* Dynamic programming (corpus_dp): Needleman-Wunsch by anti-diagonals (one launch per
 * diagonal), Smith-Waterman on one tile per work-group by a wavefront in local memory,
 * edit distances of many short string pairs, a 0/1 knapsack row and the best-sum
 * subarray per row (Kadane). */
#define GAP -2
#define SCORE(a, b) ((a) == (b) ? 3 : -1)
#define M_(i, j) m[(i) * (cols) + (j)]
#define T 16
#define MAXLEN 24

int max3(int a, int b, int c);

int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

/* Needleman-Wunsch: the cells (i, j) with i + j = diag, 1 <= i, j; row 0 and column 0
 * hold the gap penalties. `cols` is len_b + 1. */
__kernel void nw_diagonal(__global int *m, __global const uchar *a, __global const uchar *b,
                          int rows, int cols, int diag)
{
    int i = get_global_id(0) + 1, j = diag - i;
    if (i >= rows || j < 1 || j >= cols)
        return;
    M_(i, j) = max3(M_(i - 1, j - 1) + SCORE(a[i - 1], b[j - 1]), M_(i - 1, j) + GAP,
                    M_(i, j - 1) + GAP);
}

/* Smith-Waterman local alignment of T x T blocks: group g aligns a[g*T..] with b[g*T..];
 * work-item t owns row t + 1 and computes its cell on wavefront step t + column. The best
 * score of each tile is written out. */
__kernel void sw_tile(__global const uchar *a, __global const uchar *b, __global int *best)
{
    __local int h[T + 1][T + 1];
    __local int top[T];
    int t = get_local_id(0), g = get_group_id(0);
    for (int j = 0; j <= T; j++)
        h[t + 1][j] = 0;
    if (t == 0)
        for (int j = 0; j <= T; j++)
            h[0][j] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar ca = a[g * T + t];
    int mine = 0;
    for (int step = 0; step < 2 * T - 1; step++) {
        int j = step - t + 1;
        if (j >= 1 && j <= T) {
            int v = max3(h[t][j - 1] + SCORE(ca, b[g * T + j - 1]), h[t][j] + GAP,
                         h[t + 1][j - 1] + GAP);
            v = v < 0 ? 0 : v;
            h[t + 1][j] = v;
            mine = max(mine, v);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    top[t] = mine;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (t == 0) {
        int m = 0;
        for (int k = 0; k < T; k++)
            m = max(m, top[k]);
        best[g] = m;
    }
}

/* Edit distance of pair p: strings of lengths len_a[p], len_b[p] (at most MAXLEN) at
 * p * MAXLEN; one private row of the table. */
__kernel void edit_distance(__global const uchar *sa, __global const uchar *sb,
                            __global const int *len_a, __global const int *len_b,
                            __global int *dist, int pairs)
{
    int p = get_global_id(0);
    if (p >= pairs)
        return;
    int row[MAXLEN + 1];
    int la = len_a[p], lb = len_b[p];
    for (int j = 0; j <= lb; j++)
        row[j] = j;
    for (int i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = i;
        for (int j = 1; j <= lb; j++) {
            int up = row[j];
            int cost = sa[p * MAXLEN + i - 1] != sb[p * MAXLEN + j - 1];
            row[j] = min(min(up + 1, row[j - 1] + 1), diag + cost);
            diag = up;
        }
    }
    dist[p] = row[lb];
}

/* 0/1 knapsack, item k: best[c] = max(prev[c], prev[c - weight] + value). */
__kernel void knapsack_row(__global const int *prev, __global int *next, int capacity,
                           int weight, int value)
{
    int c = get_global_id(0);
    if (c > capacity)
        return;
    int keep = prev[c];
    if (c >= weight && prev[c - weight] + value > keep)
        keep = prev[c - weight] + value;
    next[c] = keep;
}

/* Kadane per row: the largest sum of a non-empty run of consecutive entries, and where
 * it starts. */
__kernel void max_subarray(__global const int *v, __global int *best, __global int *start,
                           int n)
{
    int r = get_global_id(0);
    __global const int *row = v + r * n;
    int cur = row[0], cur_start = 0, top = row[0], top_start = 0;
    for (int i = 1; i < n; i++) {
        if (cur < 0) {
            cur = row[i];
            cur_start = i;
        } else
            cur += row[i];
        if (cur > top)
            top = cur, top_start = cur_start;
    }
    best[r] = top;
    start[r] = top_start;
}
