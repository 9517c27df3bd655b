// The assignment step of k-means: every point (DIM features, stored feature-major so that
// neighbouring work-items read neighbouring addresses) goes to its nearest centroid. The
// K x DIM centroids sit in __constant memory; the host updates them between launches.
#ifndef DIM
#define DIM 4
#endif
#ifndef K
#define K 8
#endif

__kernel void kmeans_assign(__global const float *features, const int n,
                            __constant float *centroids, __global int *membership)
{
    int i = get_global_id(0);
    if (i >= n)
        return;

    float p[DIM];
    for (int d = 0; d < DIM; d++)
        p[d] = features[d * n + i];

    int best = 0;
    float best_dist = INFINITY;
    for (int c = 0; c < K; c++) {
        float dist = 0.0f;
        for (int d = 0; d < DIM; d++) {
            float diff = p[d] - centroids[c * DIM + d];
            dist += diff * diff;
        }
        if (dist < best_dist) {
            best_dist = dist;
            best = c;
        }
    }
    membership[i] = best;
}
