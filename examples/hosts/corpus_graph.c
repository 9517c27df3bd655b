/* corpus_graph: graph traversal (kernels/corpus/graph.cl, 5 kernels) on a symmetric graph
 * of 600 vertices (a ring of 5 components with random chords, degrees 2 to 9): BFS from
 * vertex 0 (expand and advance per level until no frontier, levels checked against the
 * host), Bellman-Ford and connected components by label propagation (both pull-style,
 * ping-pong buffers) until no change, 10 PageRank steps. The host loops read a flag after each round. */
#include "corpus.h"

#define NODES 600
#define MAXE 12000
#define COMPONENTS 5

static int offsets[NODES + 1], edges[MAXE], weights[MAXE];

int main(void)
{
    corpus_t c = corpus_open("corpus_graph", "hosts/kernels/corpus/graph.cl", "");
    /* Symmetric adjacency, built as a matrix of flags first. */
    static unsigned char adj[NODES][NODES];
    unsigned seed = 99;
    const int per = NODES / COMPONENTS;
    for (int v = 0; v < NODES; v++) {
        int base = v / per * per, next = base + (v - base + 1) % per;
        adj[v][next] = adj[next][v] = 1;
        int chords = (int)(next_rand(&seed) % 4);
        for (int k = 0; k < chords; k++) {
            int u = base + (int)(next_rand(&seed) % per);
            if (u != v)
                adj[v][u] = adj[u][v] = 1;
        }
    }
    int m = 0;
    for (int v = 0; v < NODES; v++) {
        offsets[v] = m;
        for (int u = 0; u < NODES; u++)
            if (adj[v][u]) {
                edges[m] = u;
                weights[m] = 1 + (u * v + u + v) % 9;
                m++;
            }
    }
    offsets[NODES] = m;
    cl_mem doff = corpus_buffer(&c, offsets, sizeof offsets),
           dedge = corpus_buffer(&c, edges, sizeof edges),
           dw = corpus_buffer(&c, weights, sizeof weights);
    const size_t global = 640;

    /* BFS. */
    static int frontier[NODES], visited[NODES], level[NODES], want[NODES];
    for (int v = 0; v < NODES; v++)
        level[v] = -1;
    frontier[0] = visited[0] = 1;
    level[0] = 0;
    cl_mem dfr = corpus_buffer(&c, frontier, sizeof frontier),
           dup = corpus_buffer(&c, NULL, sizeof frontier),
           dvis = corpus_buffer(&c, visited, sizeof visited),
           dlev = corpus_buffer(&c, level, sizeof level), dmore = corpus_buffer(&c, NULL, sizeof(int));
    cl_kernel ex = corpus_kernel(&c, "bfs_expand"), adv = corpus_kernel(&c, "bfs_advance");
    ARG_MEM(ex, 0, doff);
    ARG_MEM(ex, 1, dedge);
    ARG_MEM(ex, 2, dfr);
    ARG_MEM(ex, 3, dup);
    ARG_MEM(ex, 4, dvis);
    ARG_MEM(ex, 5, dlev);
    ARG_INT(ex, 6, NODES);
    ARG_MEM(adv, 0, dfr);
    ARG_MEM(adv, 1, dup);
    ARG_MEM(adv, 2, dvis);
    ARG_MEM(adv, 3, dmore);
    ARG_INT(adv, 4, NODES);
    int more = 1, levels = 0;
    while (more) {
        more = 0;
        corpus_write(&c, dmore, &more, sizeof more);
        launch1(&c, ex, global, 64);
        launch1(&c, adv, global, 64);
        corpus_read(&c, dmore, &more, sizeof more);
        levels++;
    }
    corpus_read(&c, dlev, level, sizeof level);
    /* Host BFS. */
    static int queue[NODES];
    for (int v = 0; v < NODES; v++)
        want[v] = -1;
    int head = 0, tail = 0;
    want[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int v = queue[head++];
        for (int e = offsets[v]; e < offsets[v + 1]; e++)
            if (want[edges[e]] < 0) {
                want[edges[e]] = want[v] + 1;
                queue[tail++] = edges[e];
            }
    }
    expect_ints(&c, "bfs level", level, want, NODES);
    printf("bfs_expand, bfs_advance: %d rounds, %d reached, checksum %u\n", levels, tail,
           checksum_ints(level, NODES));

    /* Bellman-Ford from vertex 0. */
    static int dist[NODES];
    for (int v = 0; v < NODES; v++)
        dist[v] = v == 0 ? 0 : 0x3fffffff;
    cl_mem dd[2] = {corpus_buffer(&c, dist, sizeof dist), corpus_buffer(&c, NULL, sizeof dist)};
    cl_mem dch = corpus_buffer(&c, NULL, sizeof(int));
    cl_kernel k = corpus_kernel(&c, "sssp_relax");
    ARG_MEM(k, 0, doff);
    ARG_MEM(k, 1, dedge);
    ARG_MEM(k, 2, dw);
    ARG_MEM(k, 5, dch);
    ARG_INT(k, 6, NODES);
    int changed = 1, rounds = 0;
    while (changed) {
        changed = 0;
        corpus_write(&c, dch, &changed, sizeof changed);
        ARG_MEM(k, 3, dd[rounds % 2]);
        ARG_MEM(k, 4, dd[(rounds + 1) % 2]);
        launch1(&c, k, global, 64);
        corpus_read(&c, dch, &changed, sizeof changed);
        rounds++;
    }
    corpus_read(&c, dd[rounds % 2], dist, sizeof dist);
    /* Host Bellman-Ford. */
    for (int v = 0; v < NODES; v++)
        want[v] = v == 0 ? 0 : 0x3fffffff;
    for (int again = 1; again;) {
        again = 0;
        for (int v = 0; v < NODES; v++)
            if (want[v] != 0x3fffffff)
                for (int e = offsets[v]; e < offsets[v + 1]; e++)
                    if (want[v] + weights[e] < want[edges[e]]) {
                        want[edges[e]] = want[v] + weights[e];
                        again = 1;
                    }
    }
    expect_ints(&c, "sssp dist", dist, want, NODES);
    printf("sssp_relax: %d rounds, checksum %u\n", rounds, checksum_ints(dist, NODES));

    /* Connected components. */
    static int label[NODES];
    for (int v = 0; v < NODES; v++)
        label[v] = v;
    cl_mem dl[2] = {corpus_buffer(&c, label, sizeof label), corpus_buffer(&c, NULL, sizeof label)};
    k = corpus_kernel(&c, "cc_propagate");
    ARG_MEM(k, 0, doff);
    ARG_MEM(k, 1, dedge);
    ARG_MEM(k, 4, dch);
    ARG_INT(k, 5, NODES);
    changed = 1;
    rounds = 0;
    while (changed) {
        changed = 0;
        corpus_write(&c, dch, &changed, sizeof changed);
        ARG_MEM(k, 2, dl[rounds % 2]);
        ARG_MEM(k, 3, dl[(rounds + 1) % 2]);
        launch1(&c, k, global, 64);
        corpus_read(&c, dch, &changed, sizeof changed);
        rounds++;
    }
    corpus_read(&c, dl[rounds % 2], label, sizeof label);
    for (int v = 0; v < NODES; v++)
        want[v] = v / per * per;
    expect_ints(&c, "cc label", label, want, NODES);
    printf("cc_propagate: %d rounds, checksum %u\n", rounds, checksum_ints(label, NODES));

    /* PageRank, 10 steps. */
    static float rank[NODES];
    for (int v = 0; v < NODES; v++)
        rank[v] = 1.0f / NODES;
    cl_mem r0 = corpus_buffer(&c, rank, sizeof rank), r1 = corpus_buffer(&c, NULL, sizeof rank);
    k = corpus_kernel(&c, "pagerank_pull");
    ARG_MEM(k, 0, doff);
    ARG_MEM(k, 1, dedge);
    ARG_INT(k, 4, NODES);
    ARG_FLOAT(k, 5, 0.85f);
    for (int s = 0; s < 10; s++) {
        ARG_MEM(k, 2, s % 2 ? r1 : r0);
        ARG_MEM(k, 3, s % 2 ? r0 : r1);
        launch1(&c, k, global, 64);
    }
    corpus_read(&c, r0, rank, sizeof rank);
    int top = 0;
    for (int v = 1; v < NODES; v++)
        if (rank[v] > rank[top])
            top = v;
    printf("pagerank_pull: sum %.4f, top vertex %d (degree %d)\n", sum_floats(rank, NODES), top,
           offsets[top + 1] - offsets[top]);
    return corpus_close(&c);
}
