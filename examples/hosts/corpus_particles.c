/* corpus_particles: n-body, neighbour lists and a particle filter
 * (kernels/corpus/particles.cl, 6 kernels): all-pairs accelerations of 256 bodies
 * (local tiles of 64), a 4x4x4 cell census, neighbour lists within a cutoff and a force
 * over them; a 512-particle filter's weights and systematic resampling (the CDF summed on
 * the host in between). Cell counts and list lengths checked against the host. */
#include "corpus.h"

#define N 256
#define P 512
#define MAXN 32

int main(void)
{
    corpus_t c = corpus_open("corpus_particles", "hosts/kernels/corpus/particles.cl", "");
    static cl_float4 pos[N], acc[N];
    unsigned seed = 3;
    for (int i = 0; i < N; i++) {
        pos[i].s[0] = (float)(next_rand(&seed) % 1024) / 1024.0f;
        pos[i].s[1] = (float)(next_rand(&seed) % 1024) / 1024.0f;
        pos[i].s[2] = (float)(next_rand(&seed) % 1024) / 1024.0f;
        pos[i].s[3] = 1.0f + (float)(i % 3);
    }
    cl_mem dpos = corpus_buffer(&c, pos, sizeof pos), dacc = corpus_buffer(&c, NULL, sizeof acc);
    cl_kernel k = corpus_kernel(&c, "nbody_accel");
    ARG_MEM(k, 0, dpos);
    ARG_MEM(k, 1, dacc);
    ARG_LOCAL(k, 2, 64 * sizeof(cl_float4));
    ARG_INT(k, 3, N);
    launch1(&c, k, N, 64);
    corpus_read(&c, dacc, acc, sizeof acc);
    double momentum[3] = {0, 0, 0}, magnitude = 0.0;
    for (int i = 0; i < N; i++)
        for (int d = 0; d < 3; d++) {
            momentum[d] += pos[i].s[3] * acc[i].s[d];
            magnitude += fabs(acc[i].s[d]);
        }
    printf("nbody_accel: sum |a| %.3e, net force %.1e\n", magnitude,
           fabs(momentum[0]) + fabs(momentum[1]) + fabs(momentum[2]) < 1e-2 * magnitude ? 0.0
                                                                                       : 1.0);

    int counts[64], cell_of[N], want[64] = {0};
    cl_mem dcounts = corpus_buffer(&c, NULL, sizeof counts),
           dcell = corpus_buffer(&c, NULL, sizeof cell_of);
    k = corpus_kernel(&c, "bin_count");
    ARG_MEM(k, 0, dpos);
    ARG_MEM(k, 1, dcounts);
    ARG_MEM(k, 2, dcell);
    ARG_INT(k, 3, N);
    launch1(&c, k, N, 32);
    corpus_read(&c, dcounts, counts, sizeof counts);
    corpus_read(&c, dcell, cell_of, sizeof cell_of);
    for (int i = 0; i < N; i++) {
        int x = (int)(pos[i].s[0] * 4), y = (int)(pos[i].s[1] * 4), z = (int)(pos[i].s[2] * 4);
        want[(z * 4 + y) * 4 + x]++;
    }
    expect_ints(&c, "cell count", counts, want, 64);
    printf("bin_count: counts %u, cells %u\n", checksum_ints(counts, 64),
           checksum_ints(cell_of, N));

    static int list[N * MAXN], length[N], want_len[N];
    const float cutoff2 = 0.0625f; /* 0.25^2 */
    cl_mem dlist = corpus_buffer(&c, NULL, sizeof list), dlen = corpus_buffer(&c, NULL, sizeof length);
    k = corpus_kernel(&c, "neighbour_list");
    ARG_MEM(k, 0, dpos);
    ARG_MEM(k, 1, dlist);
    ARG_MEM(k, 2, dlen);
    ARG_INT(k, 3, N);
    ARG_FLOAT(k, 4, cutoff2);
    launch1(&c, k, N, 64);
    corpus_read(&c, dlen, length, sizeof length);
    for (int i = 0; i < N; i++) {
        want_len[i] = 0;
        for (int j = 0; j < N && want_len[i] < MAXN; j++) {
            float dx = pos[j].s[0] - pos[i].s[0], dy = pos[j].s[1] - pos[i].s[1],
                  dz = pos[j].s[2] - pos[i].s[2];
            if (j != i && dx * dx + dy * dy + dz * dz < cutoff2)
                want_len[i]++;
        }
    }
    expect_ints(&c, "list length", length, want_len, N);
    printf("neighbour_list: lengths %u\n", checksum_ints(length, N));

    static cl_float4 force[N];
    cl_mem dforce = corpus_buffer(&c, NULL, sizeof force);
    k = corpus_kernel(&c, "list_force");
    ARG_MEM(k, 0, dpos);
    ARG_MEM(k, 1, dlist);
    ARG_MEM(k, 2, dlen);
    ARG_MEM(k, 3, dforce);
    ARG_FLOAT(k, 4, cutoff2);
    launch1(&c, k, N, 64);
    corpus_read(&c, dforce, force, sizeof force);
    double fsum = 0.0;
    for (int i = 0; i < N; i++)
        fsum += fabs(force[i].s[0]) + fabs(force[i].s[1]) + fabs(force[i].s[2]);
    printf("list_force: sum |f| %.3f\n", fsum);

    static float state[P], weight[P], cdf[P], resampled[P];
    static int chosen[P];
    for (int i = 0; i < P; i++)
        state[i] = (float)(next_rand(&seed) % 4096) / 256.0f;
    cl_mem dstate = corpus_buffer(&c, state, sizeof state), dweight = corpus_buffer(&c, NULL, sizeof weight);
    k = corpus_kernel(&c, "pf_weight");
    ARG_MEM(k, 0, dstate);
    ARG_MEM(k, 1, dweight);
    ARG_FLOAT(k, 2, 7.5f);
    ARG_FLOAT(k, 3, 0.5f);
    ARG_INT(k, 4, P);
    launch1(&c, k, P, 64);
    corpus_read(&c, dweight, weight, sizeof weight);
    float run = 0.0f;
    for (int i = 0; i < P; i++)
        cdf[i] = run += weight[i];
    printf("pf_weight: total %.3f\n", run);
    cl_mem dcdf = corpus_buffer(&c, cdf, sizeof cdf), dres = corpus_buffer(&c, NULL, sizeof resampled),
           dchosen = corpus_buffer(&c, NULL, sizeof chosen);
    k = corpus_kernel(&c, "pf_resample");
    ARG_MEM(k, 0, dcdf);
    ARG_MEM(k, 1, dstate);
    ARG_MEM(k, 2, dres);
    ARG_MEM(k, 3, dchosen);
    ARG_FLOAT(k, 4, 0.5f);
    ARG_INT(k, 5, P);
    launch1(&c, k, P, 64);
    corpus_read(&c, dres, resampled, sizeof resampled);
    corpus_read(&c, dchosen, chosen, sizeof chosen);
    int distinct = 0;
    for (int i = 0; i < P; i++)
        distinct += i == 0 || chosen[i] != chosen[i - 1];
    printf("pf_resample: %d distinct, mean %.2f\n", distinct, sum_floats(resampled, P) / P);
    return corpus_close(&c);
}
