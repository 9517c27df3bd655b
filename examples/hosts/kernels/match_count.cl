// For each query key (one work-item each): how many records carry it, the sum of their
// values, and the first `max_hits` positions where it occurs. A run-time loop whose body
// stores only when the key matches: the compiler unrolls it into copies whose branches
// the annotator cannot count, so srcsim times the kernel as compiled without unrolling
// and says so in its report.
__kernel void match_count(__global const int *keys, __global const int *values, const int n,
                          __global const int *queries, const int max_hits,
                          __global int *counts, __global int *sums, __global int *hits)
{
    int q = get_global_id(0);
    int key = queries[q];
    int count = 0, sum = 0;
    for (int i = 0; i < n; i++) {
        if (keys[i] == key) {
            if (count < max_hits)
                hits[q * max_hits + count] = i;
            count++;
            sum += values[i];
        }
    }
    counts[q] = count;
    sums[q] = sum;
}
