/* gpu_by_type: a program that insists on a GPU.
 * Covers: clGetDeviceIDs with CL_DEVICE_TYPE_GPU on every platform (exit code 3 with a
 * clear message when there is none), CL_DEVICE_TYPE and CL_DEVICE_NAME read back with
 * clGetDeviceInfo, a context made with clCreateContextFromType for that type (and
 * CL_CONTEXT_PLATFORM), its device found again with clGetContextInfo(CL_CONTEXT_DEVICES),
 * the limits a host sizes its launches by (compute units, work-group and work-item sizes,
 * local memory, the kernel's work-group size and preferred multiple), printed,
 * a small embedded kernel, exact integer check. `gpu_by_type [LOCAL|max] [gpu|all|default]`:
 * work-groups of LOCAL work-items (default 64), e.g. more than a GPU launches, or `max`:
 * the kernel's CL_KERNEL_WORK_GROUP_SIZE, as hosts that size their launches by the device
 * do; the device type asked for (default gpu: insisted on; all or default: any device,
 * as most hosts and the OpenCL conformance suite ask, its type only printed). */
#include "common.h"

static const char *kernel_source =
    "__kernel void squares(__global int *out, const int n)\n"
    "{\n"
    "    int i = get_global_id(0);\n"
    "    if (i < n)\n"
    "        out[i] = i * i - 3 * i;\n"
    "}\n";

int main(int argc, char **argv)
{
    const int n = 1000;
    const int by_kernel = argc > 1 && strcmp(argv[1], "max") == 0;
    size_t local = argc > 1 && !by_kernel ? (size_t)strtoul(argv[1], NULL, 10) : 64;
    const char *asked = argc > 2 ? argv[2] : "gpu";
    cl_device_type wanted = CL_DEVICE_TYPE_GPU;
    if (strcmp(asked, "all") == 0)
        wanted = CL_DEVICE_TYPE_ALL;
    else if (strcmp(asked, "default") == 0)
        wanted = CL_DEVICE_TYPE_DEFAULT;
    else if (strcmp(asked, "gpu") != 0) {
        fprintf(stderr, "usage: gpu_by_type [LOCAL|max] [gpu|all|default]\n");
        return 64;
    }

    cl_platform_id platform;
    cl_device_id gpu = pick_device(wanted, &platform);
    if (!gpu) {
        fprintf(stderr, "gpu_by_type: no OpenCL device found (%s)\n", asked);
        return 3;
    }

    cl_device_type type;
    CHECK(clGetDeviceInfo(gpu, CL_DEVICE_TYPE, sizeof type, &type, NULL));
    char name[256];
    CHECK(clGetDeviceInfo(gpu, CL_DEVICE_NAME, sizeof name, name, NULL));
    if (wanted != CL_DEVICE_TYPE_GPU) {
        printf("gpu_by_type: asked for %s, got '%s' of type 0x%lx\n", asked, name,
               (unsigned long)type);
        type = wanted;
    } else if (!(type & CL_DEVICE_TYPE_GPU)) {
        fprintf(stderr, "gpu_by_type: device '%s' has CL_DEVICE_TYPE 0x%lx, not a GPU\n", name,
                (unsigned long)type);
        return 1;
    }

    cl_int err;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)platform, 0};
    cl_context ctx = clCreateContextFromType(props, type, NULL, NULL, &err);
    CHECK(err);
    cl_uint num_devices = 0;
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_NUM_DEVICES, sizeof num_devices, &num_devices, NULL));
    if (num_devices < 1) {
        fprintf(stderr, "gpu_by_type: the context has no device\n");
        return 1;
    }
    cl_device_id *devices = malloc(num_devices * sizeof(cl_device_id));
    CHECK(clGetContextInfo(ctx, CL_CONTEXT_DEVICES, num_devices * sizeof(cl_device_id), devices,
                           NULL));
    cl_device_id device = devices[0];
    free(devices);

    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_program program = build_program(ctx, device, kernel_source, "");
    cl_kernel kernel = clCreateKernel(program, "squares", &err);
    CHECK(err);

    cl_uint units;
    size_t max_group, items[3], kernel_group, multiple;
    cl_ulong local_mem;
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof max_group, &max_group,
                          NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof items, items, NULL));
    CHECK(clGetDeviceInfo(device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof local_mem, &local_mem, NULL));
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kernel_group,
                                   &kernel_group, NULL));
    CHECK(clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                   sizeof multiple, &multiple, NULL));
    printf("gpu_by_type: limits: compute units %u, work-group %zu, work-items %zu %zu %zu, "
           "local memory %llu, kernel work-group %zu, multiple %zu\n",
           units, max_group, items[0], items[1], items[2], (unsigned long long)local_mem,
           kernel_group, multiple);
    if (by_kernel)
        local = kernel_group;
    const size_t global = ((size_t)n + local - 1) / local * local;
    cl_mem dout = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, n * sizeof(int), NULL, &err);
    CHECK(err);
    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dout));
    CHECK(clSetKernelArg(kernel, 1, sizeof(int), &n));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    int *out = malloc(n * sizeof(int));
    CHECK(clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, n * sizeof(int), out, 0, NULL, NULL));

    int bad = 0;
    long long sum = 0;
    for (int i = 0; i < n; i++) {
        if (out[i] != i * i - 3 * i) {
            if (bad < 5)
                fprintf(stderr, "out[%d] = %d, expected %d\n", i, out[i], i * i - 3 * i);
            bad++;
        }
        sum += out[i];
    }

    clReleaseMemObject(dout);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(out);

    if (bad) {
        printf("gpu_by_type: FAILED (%d of %d elements differ)\n", bad, n);
        return 1;
    }
    printf("gpu_by_type: OK (device '%s', n=%d, sum=%lld)\n", name, n, sum);
    return 0;
}
