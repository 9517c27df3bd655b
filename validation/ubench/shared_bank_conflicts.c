/* Port of GPU_Microbenchmark/shared_bank_conflicts (NVIDIA's sharedBankConflicts sample): a
 * 512 x 512 float transpose through a 32 x 32 __local tile, 16 x 16 work-groups of 32 x 8.
 * `shared_bank_conflicts 1`: the tile read by columns (bank conflicts); `2`: the padded
 * tile (none). An optional second number is the matrix size (a multiple of 32). Checks
 * the transpose. */
#include "ubench.h"

int main(int argc, char **argv)
{
    ub_config c = ub_parse(argc, argv);
    int option = c.n_positional > 0 ? c.positional[0] : 1;
    int size = c.n_positional > 1 ? c.positional[1] : 512;
    if ((option != 1 && option != 2) || size < 32 || size % 32) {
        fprintf(stderr, "usage: %s [1|2] [SIZE, a multiple of 32]\n", argv[0]);
        return 64;
    }
    ub_cl cl = ub_open("shared_bank_conflicts", "shared_bank_conflicts.cl", "");
    size_t n = (size_t)size * size;
    float *in = ub_alloc(n * sizeof *in), *out = ub_alloc(n * sizeof *out);
    for (size_t i = 0; i < n; i++)
        in[i] = (float)i;
    cl_mem d_in = ub_buffer(&cl, n * sizeof *in, in);
    cl_mem d_out = ub_buffer(&cl, n * sizeof *out, NULL);
    cl_kernel k =
        ub_kernel(&cl, option == 1 ? "transpose_conflicts" : "transpose_no_conflicts");
    UB_ARG(k, 0, d_out);
    UB_ARG(k, 1, d_in);
    UB_ARG(k, 2, (cl_int)size);
    UB_ARG(k, 3, (cl_int)size);
    size_t global[2] = {(size_t)size, (size_t)size / 4}, local[2] = {32, 8};
    ub_launch(&cl, k, 2, global, local);
    ub_read(&cl, d_out, n * sizeof *out, out);
    for (int y = 0; y < size; y++)
        for (int x = 0; x < size; x++)
            if (out[(size_t)x * size + y] != in[(size_t)y * size + x]) {
                fprintf(stderr, "shared_bank_conflicts: element (%d, %d) wrong\n", x, y);
                return 1;
            }
    printf("shared_bank_conflicts: checksum %016llx (kernel option %d, %dx%d)\n",
           (unsigned long long)ub_fnv(UB_FNV_INIT, out, n * sizeof *out), option, size, size);
    return 0;
}
