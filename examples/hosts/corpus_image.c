/* corpus_image: image filters (kernels/corpus/image.cl, 6 kernels) on a 64 x 48 image of
 * small integers: a 5x5 convolution (a __constant mask of dyadic weights, checked
 * exactly), Sobel, a 3x3 median (checked against a host sort), a separable box blur and
 * an RGBA-to-grey conversion with a histogram (checked exactly). */
#include "corpus.h"

#define W 64
#define H 48

static int cmpf(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static int cl(int v, int n) { return v < 0 ? 0 : (v >= n ? n - 1 : v); }

int main(void)
{
    corpus_t c = corpus_open("corpus_image", "hosts/kernels/corpus/image.cl", "");
    static float img[W * H], out[W * H], want[W * H];
    unsigned seed = 64;
    for (int i = 0; i < W * H; i++)
        img[i] = (float)(next_rand(&seed) % 32);
    cl_mem din = corpus_buffer(&c, img, sizeof img), dout = corpus_buffer(&c, NULL, sizeof out),
           dtmp = corpus_buffer(&c, NULL, sizeof out);

    float mask[25];
    for (int i = 0; i < 25; i++)
        mask[i] = (float)(1 + (i % 5 == 2) + (i / 5 == 2)) / 64.0f;
    cl_mem dmask = corpus_buffer(&c, mask, sizeof mask);
    cl_kernel k = corpus_kernel(&c, "convolve");
    ARG_MEM(k, 0, din);
    ARG_MEM(k, 1, dout);
    ARG_MEM(k, 2, dmask);
    ARG_INT(k, 3, W);
    ARG_INT(k, 4, H);
    ARG_INT(k, 5, 2);
    launch2(&c, k, W, H, 16, 4);
    corpus_read(&c, dout, out, sizeof out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int dy = -2; dy <= 2; dy++)
                for (int dx = -2; dx <= 2; dx++)
                    s += mask[(dy + 2) * 5 + dx + 2] * img[cl(y + dy, H) * W + cl(x + dx, W)];
            want[y * W + x] = s;
        }
    expect_floats(&c, "convolve", out, want, W * H, 0.0f);
    printf("convolve: sum %.4f\n", sum_floats(out, W * H));

    k = corpus_kernel(&c, "sobel");
    ARG_MEM(k, 0, din);
    ARG_MEM(k, 1, dout);
    ARG_INT(k, 2, W);
    ARG_INT(k, 3, H);
    launch2(&c, k, W, H, 8, 8);
    corpus_read(&c, dout, out, sizeof out);
    printf("sobel: sum %.1f\n", sum_floats(out, W * H));

    k = corpus_kernel(&c, "median3x3");
    ARG_MEM(k, 0, din);
    ARG_MEM(k, 1, dout);
    ARG_INT(k, 2, W);
    ARG_INT(k, 3, H);
    launch2(&c, k, W, H, 16, 4);
    corpus_read(&c, dout, out, sizeof out);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float v[9];
            int n = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    v[n++] = img[cl(y + dy, H) * W + cl(x + dx, W)];
            qsort(v, 9, sizeof(float), cmpf);
            want[y * W + x] = v[4];
        }
    expect_floats(&c, "median", out, want, W * H, 0.0f);
    printf("median3x3: sum %.1f\n", sum_floats(out, W * H));

    cl_kernel rows = corpus_kernel(&c, "blur_rows"), colk = corpus_kernel(&c, "blur_cols");
    ARG_MEM(rows, 0, din);
    ARG_MEM(rows, 1, dtmp);
    ARG_INT(rows, 2, W);
    ARG_INT(rows, 3, H);
    ARG_MEM(colk, 0, dtmp);
    ARG_MEM(colk, 1, dout);
    ARG_INT(colk, 2, W);
    ARG_INT(colk, 3, H);
    launch2(&c, rows, W, H, 0, 0);
    launch2(&c, colk, W, H, 0, 0);
    corpus_read(&c, dout, out, sizeof out);
    printf("blur_rows, blur_cols: sum %.2f\n", sum_floats(out, W * H));

    enum { PIX = W * H };
    static cl_uchar4 rgba[PIX];
    static unsigned char grey[PIX];
    int hist[16], want_hist[16] = {0};
    for (int i = 0; i < PIX; i++)
        for (int ch = 0; ch < 4; ch++)
            rgba[i].s[ch] = (cl_uchar)(next_rand(&seed) & 255);
    cl_mem drgba = corpus_buffer(&c, rgba, sizeof rgba), dgrey = corpus_buffer(&c, NULL, sizeof grey),
           dhist = corpus_buffer(&c, NULL, sizeof hist);
    k = corpus_kernel(&c, "grey_histogram");
    ARG_MEM(k, 0, drgba);
    ARG_MEM(k, 1, dgrey);
    ARG_MEM(k, 2, dhist);
    ARG_INT(k, 3, PIX - 5);
    launch1(&c, k, PIX, 64);
    corpus_read(&c, dgrey, grey, sizeof grey);
    corpus_read(&c, dhist, hist, sizeof hist);
    unsigned gsum = 0;
    for (int i = 0; i < PIX - 5; i++) {
        int g = (77 * rgba[i].s[0] + 150 * rgba[i].s[1] + 29 * rgba[i].s[2]) >> 8;
        want_hist[g >> 4]++;
        gsum += grey[i];
    }
    expect_ints(&c, "grey histogram", hist, want_hist, 16);
    printf("grey_histogram: grey sum %u, histogram %u\n", gsum, checksum_ints(hist, 16));
    return corpus_close(&c);
}
