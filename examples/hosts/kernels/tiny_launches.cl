// A kernel with almost no work: each of a few work-items adds the step's value to its
// counter. Launched tens of thousands of times, it measures what a launch costs.
__kernel void bump(__global int *counters, const int step)
{
    int i = get_global_id(0);
    counters[i] += (step + i) & 3;
}
