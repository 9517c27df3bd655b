/* Graph traversal (corpus_graph): level-synchronous BFS (frontier expansion and the next
 * frontier), Bellman-Ford relaxation, label propagation for connected
 * components and a pull-style PageRank step; CSR adjacency (offsets, edges). */
#define NEIGHBOURS(v) for (int e = offsets[(v)]; e < offsets[(v) + 1]; e++)
#define INF 0x3fffffff

int relax(int best, int candidate);

/* Expands every vertex of the frontier; unvisited neighbours get the next level. */
__kernel void bfs_expand(__global const int *offsets, __global const int *edges,
                         __global int *frontier, __global int *updating,
                         __global const int *visited, __global int *level, int nodes)
{
    int v = get_global_id(0);
    if (v >= nodes || !frontier[v])
        return;
    frontier[v] = 0;
    NEIGHBOURS(v)
    {
        int u = edges[e];
        if (!visited[u]) {
            level[u] = level[v] + 1;
            updating[u] = 1;
        }
    }
}

/* Moves the updated vertices into the frontier; sets *more when there is one. */
__kernel void bfs_advance(__global int *frontier, __global int *updating,
                          __global int *visited, __global int *more, int nodes)
{
    int v = get_global_id(0);
    if (v < nodes && updating[v]) {
        frontier[v] = 1;
        visited[v] = 1;
        *more = 1;
        updating[v] = 0;
    }
}

int relax(int best, int candidate)
{
    return candidate < best ? candidate : best;
}

/* Bellman-Ford, pull (the graph and its weights are symmetric): each vertex takes the
 * best of its neighbours' distances plus the edge; *changed is set when one improves.
 * Reads `dist`, writes `next`: the result does not depend on the order of work-items. */
__kernel void sssp_relax(__global const int *offsets, __global const int *edges,
                         __global const int *weights, __global const int *dist,
                         __global int *next, __global int *changed, int nodes)
{
    int v = get_global_id(0);
    if (v >= nodes)
        return;
    int best = dist[v];
    NEIGHBOURS(v)
        if (dist[edges[e]] != INF)
            best = relax(best, dist[edges[e]] + weights[e]);
    next[v] = best;
    if (best < dist[v])
        *changed = 1;
}

/* Connected components: each vertex takes the smallest label among its neighbours. */
__kernel void cc_propagate(__global const int *offsets, __global const int *edges,
                           __global const int *label, __global int *next,
                           __global int *changed, int nodes)
{
    int v = get_global_id(0);
    if (v >= nodes)
        return;
    int best = label[v];
    NEIGHBOURS(v)
        best = min(best, label[edges[e]]);
    next[v] = best;
    if (best < label[v])
        *changed = 1;
}

/* PageRank, pull: rank' = (1 - d)/n + d * sum of rank/outdegree over the in-edges (the
 * edges are symmetric, so in-edges are the out-edges). */
__kernel void pagerank_pull(__global const int *offsets, __global const int *edges,
                            __global const float *rank, __global float *next, int nodes,
                            float damping)
{
    int v = get_global_id(0);
    if (v >= nodes)
        return;
    float s = 0.0f;
    NEIGHBOURS(v) {
        int u = edges[e];
        int degree = offsets[u + 1] - offsets[u];
        s += rank[u] / (float)degree;
    }
    next[v] = (1.0f - damping) / (float)nodes + damping * s;
}
