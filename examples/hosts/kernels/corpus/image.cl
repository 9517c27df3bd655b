/* Image filters (corpus_image): a 2D convolution with a __constant mask, Sobel edges, a
 * 3x3 median by a sorting network, a separable box blur (rows, columns) and a greyscale
 * conversion of RGBA pixels. Images are w x h, row-major. */
#define PX(img, x, y) img[(y) * w + (x)]
#define CLAMPX(x) ((x) < 0 ? 0 : ((x) >= w ? w - 1 : (x)))
#define CLAMPY(y) ((y) < 0 ? 0 : ((y) >= h ? h - 1 : (y)))
#define R 2

void sort2(float *a, float *b);
static float median9(float *v);

__kernel void convolve(__global const float *in, __global float *out,
                       __constant float *mask, int w, int h, int radius)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float s = 0.0f;
    for (int dy = -radius; dy <= radius; dy++)
        for (int dx = -radius; dx <= radius; dx++)
            s += mask[(dy + radius) * (2 * radius + 1) + dx + radius] *
                 PX(in, CLAMPX(x + dx), CLAMPY(y + dy));
    PX(out, x, y) = s;
}

/* Sobel gradient magnitude (L1), zero on the border. */
__kernel void sobel(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    if (x == 0 || y == 0 || x == w - 1 || y == h - 1) {
        PX(out, x, y) = 0.0f;
        return;
    }
    float gx = PX(in, x + 1, y - 1) + 2.0f * PX(in, x + 1, y) + PX(in, x + 1, y + 1) -
               PX(in, x - 1, y - 1) - 2.0f * PX(in, x - 1, y) - PX(in, x - 1, y + 1);
    float gy = PX(in, x - 1, y + 1) + 2.0f * PX(in, x, y + 1) + PX(in, x + 1, y + 1) -
               PX(in, x - 1, y - 1) - 2.0f * PX(in, x, y - 1) - PX(in, x + 1, y - 1);
    PX(out, x, y) = fabs(gx) + fabs(gy);
}

void sort2(float *a, float *b)
{
    if (*a > *b) {
        float t = *a;
        *a = *b;
        *b = t;
    }
}

/* The median of 9 by a partial sorting network (19 compare-exchanges). */
static float median9(float *v)
{
    sort2(&v[1], &v[2]); sort2(&v[4], &v[5]); sort2(&v[7], &v[8]);
    sort2(&v[0], &v[1]); sort2(&v[3], &v[4]); sort2(&v[6], &v[7]);
    sort2(&v[1], &v[2]); sort2(&v[4], &v[5]); sort2(&v[7], &v[8]);
    sort2(&v[0], &v[3]); sort2(&v[5], &v[8]); sort2(&v[4], &v[7]);
    sort2(&v[3], &v[6]); sort2(&v[1], &v[4]); sort2(&v[2], &v[5]);
    sort2(&v[4], &v[7]); sort2(&v[4], &v[2]); sort2(&v[6], &v[4]);
    sort2(&v[4], &v[2]);
    return v[4];
}

__kernel void median3x3(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    if (x >= w || y >= h)
        return;
    float v[9];
    int k = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            v[k++] = PX(in, CLAMPX(x + dx), CLAMPY(y + dy));
    PX(out, x, y) = median9(v);
}

/* Box blur of radius R along rows, then along columns (two launches). */
__kernel void blur_rows(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0.0f;
    for (int d = -R; d <= R; d++)
        s += PX(in, CLAMPX(x + d), y);
    PX(out, x, y) = s / (2 * R + 1);
}

__kernel void blur_cols(__global const float *in, __global float *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    float s = 0.0f;
    for (int d = -R; d <= R; d++)
        s += PX(in, x, CLAMPY(y + d));
    PX(out, x, y) = s / (2 * R + 1);
}

/* RGBA bytes to grey (integer weights 77, 150, 29 / 256), and a 16-bin histogram of the
 * result in local memory, merged with global atomics. */
__kernel void grey_histogram(__global const uchar4 *rgba, __global uchar *grey,
                             volatile __global int *hist, int n)
{
    __local int bins[16];
    int lid = get_local_id(0);
    if (lid < 16)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    int i = get_global_id(0);
    if (i < n) {
        uchar4 p = rgba[i];
        int g = (77 * p.x + 150 * p.y + 29 * p.z) >> 8;
        grey[i] = (uchar)g;
        atomic_inc(&bins[g >> 4]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16 && bins[lid])
        atomic_add(&hist[lid], bins[lid]);
}
