// first_launch's kernels: two of the same small body (each work-item writes its id plus a
// value), so that a launch's event time is the launch's own cost and not its work, and the
// first launch of a second kernel can be told from the first launch on a new queue.
__kernel void steady(__global int *out, const int add)
{
    size_t i = get_global_id(0);
    out[i] = (int)i + add;
}

__kernel void other_kernel(__global int *out, const int add)
{
    size_t i = get_global_id(0);
    out[i] = (int)i * 2 + add;
}
