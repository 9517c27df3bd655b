// Breadth-first search, level by level, over a graph in compressed rows: `expand` takes
// every node of the frontier out of it and marks its unvisited neighbours for the next
// level with their depth; `advance` makes the marked nodes the frontier, visits them and
// raises the host's flag. The host repeats both until the flag stays down.
__kernel void expand(__global const int *row, __global const int *col,
                     __global uchar *frontier, __global uchar *marked,
                     __global const uchar *visited, __global int *depth, const int n)
{
    int v = get_global_id(0);
    if (v >= n || !frontier[v])
        return;
    frontier[v] = 0;
    int next = depth[v] + 1;
    for (int e = row[v]; e < row[v + 1]; e++) {
        int u = col[e];
        if (!visited[u]) {
            depth[u] = next;
            marked[u] = 1;
        }
    }
}

__kernel void advance(__global uchar *frontier, __global uchar *marked,
                      __global uchar *visited, __global int *more, const int n)
{
    int v = get_global_id(0);
    if (v >= n || !marked[v])
        return;
    frontier[v] = 1;
    visited[v] = 1;
    marked[v] = 0;
    *more = 1;
}
