/* from_binary: a program built from the binary the runtime made of its source, as
 * applications that keep their builds do (and the OpenCL CTS).
 * Covers: the program is built from source with -D SCALE=3 and launched; its binary is
 * read back with clGetProgramInfo (CL_PROGRAM_BINARY_SIZES, CL_PROGRAM_BINARIES), the
 * program released, and a program created from the binary with
 * clCreateProgramWithBinary, built with no options and launched again on the result.
 *   from_binary              the round trip in one run (2 launches)
 *   from_binary save FILE    the same, and the binary written to FILE
 *   from_binary load FILE    only a program from the binary in FILE (1 launch), as a
 *                            later run of an application that keeps its builds
 * Prints the checksum, checked against the host's own arithmetic. */
#include "common.h"

#define N 4096

static void launch(cl_command_queue queue, cl_program program, cl_mem x)
{
    const size_t global = N, local = 64;
    cl_kernel kernel = create_kernel(program, "scale_steps");
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &x));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clFinish(queue));
    clReleaseKernel(kernel);
}

static unsigned char *read_binary(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "from_binary: cannot open %s\n", path);
        exit(66);
    }
    fseek(f, 0, SEEK_END);
    *size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *bytes = malloc(*size);
    if (!bytes || fread(bytes, 1, *size, f) != *size) {
        fprintf(stderr, "from_binary: cannot read %s\n", path);
        exit(66);
    }
    fclose(f);
    return bytes;
}

int main(int argc, char **argv)
{
    int load = argc == 3 && strcmp(argv[1], "load") == 0;
    int save = argc == 3 && strcmp(argv[1], "save") == 0;
    if (argc != 1 && !load && !save) {
        fprintf(stderr, "usage: from_binary [save FILE | load FILE]\n");
        return 64;
    }
    float *x = malloc(N * sizeof(float));
    for (int i = 0; i < N; i++)
        x[i] = (float)(i % 5);

    cl_platform_id platform;
    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, &platform);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_mem buf = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                N * sizeof(float), x, &err);
    CHECK(err);

    size_t size = 0;
    unsigned char *binary = NULL;
    int launches = 0;
    if (load) {
        binary = read_binary(argv[2], &size);
    } else {
        char *source = read_kernel_file("hosts/kernels/from_binary.cl");
        cl_program program = build_program(ctx, device, source, "-D SCALE=3");
        launch(queue, program, buf);
        launches++;
        CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL));
        binary = malloc(size);
        CHECK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof binary, &binary, NULL));
        clReleaseProgram(program);
        free(source);
        if (save) {
            FILE *f = fopen(argv[2], "wb");
            if (!f || fwrite(binary, 1, size, f) != size || fclose(f) != 0) {
                fprintf(stderr, "from_binary: cannot write %s\n", argv[2]);
                return 73;
            }
        }
    }
    const unsigned char *bytes = binary;
    cl_int status;
    cl_program program = clCreateProgramWithBinary(ctx, 1, &device, &size, &bytes, &status,
                                                   &err);
    CHECK(err);
    CHECK(status);
    CHECK(clBuildProgram(program, 1, &device, "", NULL, NULL));
    launch(queue, program, buf);
    launches++;
    CHECK(clEnqueueReadBuffer(queue, buf, CL_TRUE, 0, N * sizeof(float), x, 0, NULL, NULL));

    int bad = 0;
    double checksum = 0.0;
    for (int i = 0; i < N; i++) {
        float want = (float)(i % 5);
        for (int r = 0; r < launches; r++)
            for (int k = 0; k < (i & 3); k++)
                want = want * 3.0f + 1.0f;
        if (x[i] != want && bad++ < 5)
            fprintf(stderr, "x[%d] = %g, expected %g\n", i, x[i], want);
        checksum += x[i];
    }
    printf("from_binary: %d launches, checksum %.1f\n", launches, checksum);

    clReleaseProgram(program);
    clReleaseMemObject(buf);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(binary);
    free(x);
    return bad ? 1 : 0;
}
