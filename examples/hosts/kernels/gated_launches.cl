// Clamped accumulation: each work-item adds its input to its total until the total
// reaches the cap. Whether it adds depends on data (the total so far), so every launch's
// counters are measured anew.
__kernel void accumulate(__global int *total, __global const int *in, const int cap)
{
    int i = get_global_id(0);
    if (total[i] < cap)
        total[i] += in[i];
}
