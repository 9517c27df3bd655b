// The first and the last work-item of each group each copy a halo column into local
// memory (the shape of SHOC's stencil2d); the others take neither arm of the `if` /
// `else if`. Every work-item runs both conditions' source blocks, but the compiler
// leaves the first condition's last instruction in a block on the first arm's way only.
inline int global_col(int group, int size, int lid)
{
    return group * size + lid;
}

inline int haloed(int row, int col, int pitch)
{
    return (row + 1) * (pitch + 2) + (col + 1);
}

__kernel void else_if_arms(__global const float *in, __global float *out,
                           __local float *sh, const int pitch)
{
    int lid = get_local_id(1);
    int width = get_local_size(1);
    int col = global_col(get_group_id(1), width, lid);
    for (int i = 0; i < 4; i++)
        sh[haloed(i - 1, lid, width)] = in[haloed(i - 1, col, pitch)];
    if (lid == 0) {
        for (int i = 0; i < 4; i++)
            sh[haloed(i - 1, lid - 1, width)] = in[haloed(i - 1, col - 1, pitch)];
    } else if (lid == width - 1) {
        for (int i = 0; i < 4; i++)
            sh[haloed(i - 1, lid + 1, width)] = in[haloed(i - 1, col + 1, pitch)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[haloed(0, col, pitch)] = sh[haloed(0, lid - 1, width)] + sh[haloed(0, lid + 1, width)];
}
