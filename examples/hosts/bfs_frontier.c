/* bfs_frontier: breadth-first search from node 0 of a 300000-node graph (each node joined
 * to its neighbours along a ring and to a few random nodes, 2.4 million directed edges in
 * compressed rows) with a frontier mask (kernels/bfs_frontier.cl): per level two launches
 * over every node (expand the frontier, then make the marked nodes the next frontier),
 * a flag written to zero before and read back after each level; the host loops until the
 * frontier is empty. The depths are checked against the host's own BFS. Covers a
 * frontier-driven traversal: kernels whose branches and loops read the graph (srcsim
 * measures every launch), most work-items returning at once, and a small blocking read
 * per level. An optional argument sets the nodes (a multiple of 1000). */
#include "common.h"

#define DEGREE 8 /* edges per node: 4 along the ring, 4 random */
#define WG 256

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 300000, 1000, 4000000);
    const int edges = n * DEGREE;
    int *row = malloc((size_t)(n + 1) * sizeof(int)), *col = malloc((size_t)edges * sizeof(int));
    unsigned seed = 5;
    for (int v = 0; v < n; v++) {
        row[v] = v * DEGREE;
        int *c = col + v * DEGREE;
        c[0] = (v + 1) % n;
        c[1] = (v + n - 1) % n;
        c[2] = (v + 2) % n;
        c[3] = (v + n - 2) % n;
        for (int k = 4; k < DEGREE; k++)
            c[k] = (int)(next_rand(&seed) % (unsigned)n);
    }
    row[n] = edges;
    int *depth = malloc((size_t)n * sizeof(int)), *result = malloc((size_t)n * sizeof(int));
    unsigned char *frontier = calloc((size_t)n, 1), *visited = calloc((size_t)n, 1);
    for (int v = 0; v < n; v++)
        depth[v] = -1;
    depth[0] = 0;
    frontier[0] = 1;
    visited[0] = 1;

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    char *source = read_kernel_file("hosts/kernels/bfs_frontier.cl");
    cl_program program = build_program(ctx, device, source, "");
    cl_kernel expand = create_kernel(program, "expand");
    cl_kernel advance = create_kernel(program, "advance");
    const cl_mem_flags in = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
    const cl_mem_flags inout = CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR;
    cl_mem drow = clCreateBuffer(ctx, in, (size_t)(n + 1) * sizeof(int), row, &err);
    CHECK(err);
    cl_mem dcol = clCreateBuffer(ctx, in, (size_t)edges * sizeof(int), col, &err);
    CHECK(err);
    cl_mem dfrontier = clCreateBuffer(ctx, inout, (size_t)n, frontier, &err);
    CHECK(err);
    cl_mem dmarked = clCreateBuffer(ctx, CL_MEM_READ_WRITE, (size_t)n, NULL, &err);
    CHECK(err);
    cl_mem dvisited = clCreateBuffer(ctx, inout, (size_t)n, visited, &err);
    CHECK(err);
    cl_mem ddepth = clCreateBuffer(ctx, inout, (size_t)n * sizeof(int), depth, &err);
    CHECK(err);
    cl_mem dmore = clCreateBuffer(ctx, CL_MEM_READ_WRITE, sizeof(int), NULL, &err);
    CHECK(err);
    const unsigned char zero = 0;
    CHECK(clEnqueueFillBuffer(queue, dmarked, &zero, 1, 0, (size_t)n, 0, NULL, NULL));
    cl_mem eargs[] = {drow, dcol, dfrontier, dmarked, dvisited, ddepth};
    for (cl_uint a = 0; a < 6; a++)
        CHECK(clSetKernelArg(expand, a, sizeof(cl_mem), &eargs[a]));
    CHECK(clSetKernelArg(expand, 6, sizeof n, &n));
    cl_mem aargs[] = {dfrontier, dmarked, dvisited, dmore};
    for (cl_uint a = 0; a < 4; a++)
        CHECK(clSetKernelArg(advance, a, sizeof(cl_mem), &aargs[a]));
    CHECK(clSetKernelArg(advance, 4, sizeof n, &n));

    const size_t global = (size_t)(n + WG - 1) / WG * WG, local = WG;
    int levels = 0, more = 1;
    while (more) {
        more = 0;
        CHECK(clEnqueueWriteBuffer(queue, dmore, CL_FALSE, 0, sizeof more, &more, 0, NULL,
                                   NULL));
        CHECK(clEnqueueNDRangeKernel(queue, expand, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueNDRangeKernel(queue, advance, 1, NULL, &global, &local, 0, NULL, NULL));
        CHECK(clEnqueueReadBuffer(queue, dmore, CL_TRUE, 0, sizeof more, &more, 0, NULL, NULL));
        levels++;
    }
    CHECK(clEnqueueReadBuffer(queue, ddepth, CL_TRUE, 0, (size_t)n * sizeof(int), result, 0,
                              NULL, NULL));

    /* The host's BFS, a queue. */
    int *queue_nodes = malloc((size_t)n * sizeof(int));
    int head = 0, tail = 0, bad = 0, deepest = 0;
    queue_nodes[tail++] = 0;
    while (head < tail) {
        int v = queue_nodes[head++];
        for (int e = row[v]; e < row[v + 1]; e++)
            if (depth[col[e]] < 0) {
                depth[col[e]] = depth[v] + 1;
                queue_nodes[tail++] = col[e];
            }
    }
    long long total = 0;
    for (int v = 0; v < n; v++) {
        if (result[v] != depth[v]) {
            if (bad < 5)
                fprintf(stderr, "depth[%d] = %d, expected %d\n", v, result[v], depth[v]);
            bad++;
        }
        deepest = depth[v] > deepest ? depth[v] : deepest;
        total += result[v];
    }

    cl_mem all[] = {drow, dcol, dfrontier, dmarked, dvisited, ddepth, dmore};
    for (int k = 0; k < 7; k++)
        clReleaseMemObject(all[k]);
    clReleaseKernel(expand);
    clReleaseKernel(advance);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(source);
    free(row);
    free(col);
    free(depth);
    free(result);
    free(frontier);
    free(visited);
    free(queue_nodes);

    if (bad || levels != deepest + 1) {
        printf("bfs_frontier: FAILED (%d levels for depth %d; %d of %d depths differ)\n",
               levels, deepest, bad, n);
        return 1;
    }
    printf("bfs_frontier: OK (%d nodes, %d edges, %d levels, %d launches, depth sum %lld)\n", n,
           edges, levels, 2 * levels, total);
    return 0;
}
