/* corpus_stencil: stencils and time-stepping (kernels/corpus/stencil.cl, 6 kernels): 8
 * steps of 1D Jacobi (256 cells), 4 steps of a tiled 2D Jacobi (64 x 32, tiles 16 x 8 with
 * a halo), 3 steps of 3D heat (16 x 12 x 8, global offset 1), 16 steps of a 1D wave and 6
 * FDTD steps (32 x 32); ping-pong buffers; 1D and 2D Jacobi checked against the host
 * exactly (dyadic weights and integer inputs). */
#include "corpus.h"

static void swap(cl_mem *a, cl_mem *b)
{
    cl_mem t = *a;
    *a = *b;
    *b = t;
}

int main(void)
{
    corpus_t c = corpus_open("corpus_stencil", "hosts/kernels/corpus/stencil.cl", "");
    unsigned seed = 21;

    /* jacobi1d: 8 steps on 256 cells, checked. */
    enum { N1 = 256 };
    float a[N1], b[N1], got[N1];
    for (int i = 0; i < N1; i++)
        a[i] = (float)(next_rand(&seed) % 16);
    cl_mem p = corpus_buffer(&c, a, sizeof a), q = corpus_buffer(&c, NULL, sizeof a);
    cl_kernel k = corpus_kernel(&c, "jacobi1d");
    ARG_INT(k, 2, N1);
    for (int s = 0; s < 8; s++) {
        ARG_MEM(k, 0, p);
        ARG_MEM(k, 1, q);
        launch1(&c, k, N1, 64);
        swap(&p, &q);
        b[0] = a[0];
        b[N1 - 1] = a[N1 - 1];
        for (int i = 1; i < N1 - 1; i++)
            b[i] = 0.25f * a[i - 1] + 0.5f * a[i] + 0.25f * a[i + 1];
        memcpy(a, b, sizeof a);
    }
    corpus_read(&c, p, got, sizeof got);
    expect_floats(&c, "jacobi1d", got, a, N1, 0.0f);
    printf("jacobi1d: sum %.6f\n", sum_floats(got, N1));

    /* jacobi2d_tiled: 4 steps on 64 x 32, checked. */
    enum { W = 64, H = 32 };
    static float g[W * H], g2[W * H], gg[W * H];
    for (int i = 0; i < W * H; i++)
        g[i] = (float)(next_rand(&seed) % 8);
    p = corpus_buffer(&c, g, sizeof g);
    q = corpus_buffer(&c, NULL, sizeof g);
    k = corpus_kernel(&c, "jacobi2d_tiled");
    ARG_INT(k, 2, W);
    ARG_INT(k, 3, H);
    for (int s = 0; s < 4; s++) {
        ARG_MEM(k, 0, p);
        ARG_MEM(k, 1, q);
        launch2(&c, k, W, H, 16, 8);
        swap(&p, &q);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++) {
                int i = y * W + x;
                g2[i] = g[i];
                if (x > 0 && y > 0 && x < W - 1 && y < H - 1)
                    g2[i] = 0.5f * g[i] + 0.125f * (g[i - W] + g[i + W] + g[i - 1] + g[i + 1]);
            }
        memcpy(g, g2, sizeof g);
    }
    corpus_read(&c, p, gg, sizeof gg);
    expect_floats(&c, "jacobi2d", gg, g, W * H, 0.0f);
    printf("jacobi2d_tiled: sum %.6f\n", sum_floats(gg, W * H));

    /* heat3d: 3 steps on 16 x 12 x 8, interior through a global offset of 1. */
    enum { X3 = 16, Y3 = 12, Z3 = 8 };
    static float v[X3 * Y3 * Z3];
    for (int i = 0; i < X3 * Y3 * Z3; i++)
        v[i] = (float)(next_rand(&seed) % 4);
    p = corpus_buffer(&c, v, sizeof v);
    q = corpus_buffer(&c, v, sizeof v);
    k = corpus_kernel(&c, "heat3d");
    ARG_INT(k, 2, X3);
    ARG_INT(k, 3, Y3);
    ARG_INT(k, 4, Z3);
    const size_t off3[3] = {1, 1, 1}, glob3[3] = {X3 - 1, Y3 - 1, Z3 - 1};
    for (int s = 0; s < 3; s++) {
        ARG_MEM(k, 0, p);
        ARG_MEM(k, 1, q);
        CHECK(clEnqueueNDRangeKernel(c.queue, k, 3, off3, glob3, NULL, 0, NULL, NULL));
        swap(&p, &q);
    }
    corpus_read(&c, p, v, sizeof v);
    printf("heat3d: sum %.6f\n", sum_floats(v, X3 * Y3 * Z3));

    /* wave1d: 16 steps, three buffers rotated. */
    float w0[N1];
    for (int i = 0; i < N1; i++)
        w0[i] = (i > 100 && i < 120) ? 1.0f : 0.0f;
    cl_mem wb[3] = {corpus_buffer(&c, w0, sizeof w0), corpus_buffer(&c, w0, sizeof w0),
                    corpus_buffer(&c, NULL, sizeof w0)};
    k = corpus_kernel(&c, "wave1d");
    ARG_INT(k, 3, N1);
    ARG_FLOAT(k, 4, 0.25f);
    for (int s = 0; s < 16; s++) {
        ARG_MEM(k, 0, wb[s % 3]);
        ARG_MEM(k, 1, wb[(s + 1) % 3]);
        ARG_MEM(k, 2, wb[(s + 2) % 3]);
        launch1(&c, k, N1, 32);
    }
    corpus_read(&c, wb[(15 + 2) % 3], got, sizeof got);
    double energy = 0.0;
    for (int i = 0; i < N1; i++)
        energy += got[i] * got[i];
    printf("wave1d: sum %.6f, energy %.6f\n", sum_floats(got, N1), energy);

    /* fdtd: 6 steps of fdtd_h then fdtd_e on 32 x 32. */
    enum { F = 32 };
    cl_mem ez = corpus_buffer(&c, NULL, F * F * sizeof(float)),
           hx = corpus_buffer(&c, NULL, F * F * sizeof(float)),
           hy = corpus_buffer(&c, NULL, F * F * sizeof(float));
    cl_kernel kh = corpus_kernel(&c, "fdtd_h"), ke = corpus_kernel(&c, "fdtd_e");
    ARG_MEM(kh, 0, ez);
    ARG_MEM(kh, 1, hx);
    ARG_MEM(kh, 2, hy);
    ARG_INT(kh, 3, F);
    ARG_INT(kh, 4, F);
    ARG_FLOAT(kh, 5, 0.5f);
    ARG_MEM(ke, 0, ez);
    ARG_MEM(ke, 1, hx);
    ARG_MEM(ke, 2, hy);
    ARG_INT(ke, 3, F);
    ARG_INT(ke, 4, F);
    ARG_FLOAT(ke, 5, 0.5f);
    for (int s = 0; s < 6; s++) {
        launch2(&c, kh, F, F, 8, 8);
        ARG_INT(ke, 6, s);
        launch2(&c, ke, F, F, 8, 8);
    }
    static float field[F * F];
    corpus_read(&c, ez, field, sizeof field);
    printf("fdtd_h, fdtd_e: ez sum %.6f\n", sum_floats(field, F * F));
    return corpus_close(&c);
}
