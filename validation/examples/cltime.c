/* cltime: an LD_PRELOAD library that times every kernel launch of an unmodified OpenCL
 * program on the device it runs on (a real GPU), the measurement srcsim's estimates of the
 * same launches are compared with (validation/examples/README.md).
 *
 * Every command queue is created with CL_QUEUE_PROFILING_ENABLE; every
 * clEnqueueNDRangeKernel gets an event (the application's, retained, or one of its own),
 * whose START to END time is read once it is complete: when the next launch is enqueued,
 * before a queue is released, and at exit. One line per launch, in launch order, goes to
 * $CLTIME_OUT (default stderr):
 *
 *     cltime <index> <kernel> <work_dim> <global x,y,z> <local x,y,z | -> <microseconds>
 *
 * Where $CLTIME_BINARIES names a directory, every program the application builds has its
 * binaries written there after a successful clBuildProgram, one file a device:
 *
 *     <program name>-<build index>-<device index>.bin
 *
 * and a `.kernels` file beside them with the program's kernel names. On NVIDIA's OpenCL a
 * binary is the PTX its compiler made from the OpenCL C: set beside the PTX clang makes for
 * srcsim, it shows what the vendor's compiler did with the same source.
 *
 * Build: cc -O2 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -shared -fPIC -o cltime.so cltime.c -ldl
 *        -lpthread
 * Nothing of what the program computes changes: only the queues' profiling property and
 * the events it did not ask for. */
#define _GNU_SOURCE
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    cl_event event;
    cl_command_queue queue;
    char kernel[128];
    cl_uint dim;
    size_t global[3], local[3];
    int has_local;
    int done;
} launch_t;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static launch_t *launches;
static size_t count, capacity, written;
static FILE *out;

#define REAL(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

static void write_done(void)
{
    /* In launch order: a launch is written once it and every earlier one are timed. */
    if (!out) {
        const char *path = getenv("CLTIME_OUT");
        out = path && *path ? fopen(path, "a") : stderr;
        if (!out)
            out = stderr;
    }
    while (written < count && launches[written].done) {
        launch_t *l = &launches[written];
        fprintf(out, "cltime %zu %s %u %zu,%zu,%zu ", written, l->kernel, l->dim, l->global[0],
                l->global[1], l->global[2]);
        if (l->has_local)
            fprintf(out, "%zu,%zu,%zu", l->local[0], l->local[1], l->local[2]);
        else
            fprintf(out, "-");
        cl_ulong start = 0, end = 0;
        cl_int a = clGetEventProfilingInfo(l->event, CL_PROFILING_COMMAND_START, sizeof start,
                                           &start, NULL);
        cl_int b = clGetEventProfilingInfo(l->event, CL_PROFILING_COMMAND_END, sizeof end, &end,
                                           NULL);
        if (a == CL_SUCCESS && b == CL_SUCCESS)
            fprintf(out, " %.3f\n", (double)(end - start) / 1000.0);
        else
            fprintf(out, " error %d %d\n", a, b);
        clReleaseEvent(l->event);
        written++;
    }
    fflush(out);
}

/* Marks the launches whose events are complete (all of `queue`'s, waiting, if given). */
static void collect(cl_command_queue wait_for)
{
    for (size_t i = written; i < count; i++) {
        launch_t *l = &launches[i];
        if (l->done)
            continue;
        if (wait_for && l->queue == wait_for) {
            clWaitForEvents(1, &l->event);
            l->done = 1;
            continue;
        }
        cl_int status = 1;
        if (clGetEventInfo(l->event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                           NULL) == CL_SUCCESS &&
            status <= CL_COMPLETE)
            l->done = 1;
    }
    write_done();
}

/* Writes the binaries (one a device) and kernel names of `program`, built `index`-th by this
 * process, into `dir`. Failures are silent: the timing must go on whatever the disk says. */
static void write_binaries(const char *dir, cl_program program, unsigned index)
{
    extern char *program_invocation_short_name;
    cl_uint devices = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_NUM_DEVICES, sizeof devices, &devices, NULL) !=
            CL_SUCCESS ||
        devices == 0 || devices > 64)
        return;
    size_t sizes[64] = {0};
    unsigned char *binaries[64] = {0};
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, devices * sizeof *sizes, sizes,
                         NULL) != CL_SUCCESS)
        return;
    for (cl_uint d = 0; d < devices; d++)
        binaries[d] = malloc(sizes[d] ? sizes[d] : 1);
    char path[4096];
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, devices * sizeof *binaries, binaries,
                         NULL) == CL_SUCCESS) {
        for (cl_uint d = 0; d < devices; d++) {
            snprintf(path, sizeof path, "%s/%s-%u-%u.bin", dir, program_invocation_short_name,
                     index, d);
            FILE *f = fopen(path, "wb");
            if (f) {
                fwrite(binaries[d], 1, sizes[d], f);
                fclose(f);
            }
        }
    }
    for (cl_uint d = 0; d < devices; d++)
        free(binaries[d]);
    size_t names = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, 0, NULL, &names) == CL_SUCCESS &&
        names > 0) {
        char *text = malloc(names);
        if (text && clGetProgramInfo(program, CL_PROGRAM_KERNEL_NAMES, names, text, NULL) ==
                        CL_SUCCESS) {
            snprintf(path, sizeof path, "%s/%s-%u.kernels", dir, program_invocation_short_name,
                     index);
            FILE *f = fopen(path, "w");
            if (f) {
                fprintf(f, "%s\n", text);
                fclose(f);
            }
        }
        free(text);
    }
}

cl_int clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id *device_list,
                      const char *options,
                      void(CL_CALLBACK *notify)(cl_program program, void *user_data),
                      void *user_data)
{
    static unsigned builds;
    cl_int code =
        REAL(clBuildProgram)(program, num_devices, device_list, options, notify, user_data);
    const char *dir = getenv("CLTIME_BINARIES");
    if (code == CL_SUCCESS && dir && *dir) {
        pthread_mutex_lock(&lock);
        unsigned index = builds++;
        pthread_mutex_unlock(&lock);
        /* A build with a callback may still be under way: the binaries are whatever it
         * has made when the call returned, which for the examples is all of it. */
        write_binaries(dir, program, index);
    }
    return code;
}

cl_command_queue clCreateCommandQueue(cl_context context, cl_device_id device,
                                      cl_command_queue_properties properties, cl_int *err)
{
    return REAL(clCreateCommandQueue)(context, device, properties | CL_QUEUE_PROFILING_ENABLE,
                                      err);
}

cl_command_queue clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                    const cl_queue_properties *properties,
                                                    cl_int *err)
{
    cl_queue_properties props[64];
    size_t n = 0;
    int set = 0;
    for (; properties && properties[n] && n + 3 < 62; n += 2) {
        props[n] = properties[n];
        props[n + 1] = properties[n + 1];
        if (properties[n] == CL_QUEUE_PROPERTIES) {
            props[n + 1] |= CL_QUEUE_PROFILING_ENABLE;
            set = 1;
        }
    }
    if (!set) {
        props[n++] = CL_QUEUE_PROPERTIES;
        props[n++] = CL_QUEUE_PROFILING_ENABLE;
    }
    props[n] = 0;
    return REAL(clCreateCommandQueueWithProperties)(context, device, props, err);
}

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dim,
                              const size_t *offset, const size_t *global, const size_t *local,
                              cl_uint waits, const cl_event *wait_list, cl_event *event)
{
    cl_event own = NULL;
    cl_int code = REAL(clEnqueueNDRangeKernel)(queue, kernel, dim, offset, global, local, waits,
                                               wait_list, event ? event : &own);
    if (code != CL_SUCCESS || dim < 1 || dim > 3)
        return code;
    pthread_mutex_lock(&lock);
    if (count == capacity) {
        capacity = capacity ? 2 * capacity : 1024;
        launches = realloc(launches, capacity * sizeof *launches);
    }
    launch_t *l = &launches[count++];
    memset(l, 0, sizeof *l);
    l->event = event ? *event : own;
    if (event)
        clRetainEvent(*event);
    l->queue = queue;
    l->dim = dim;
    clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof l->kernel - 1, l->kernel, NULL);
    for (cl_uint d = 0; d < 3; d++) {
        l->global[d] = d < dim ? global[d] : 1;
        l->local[d] = d < dim && local ? local[d] : 1;
    }
    l->has_local = local != NULL;
    collect(NULL);
    pthread_mutex_unlock(&lock);
    return code;
}

cl_int clReleaseCommandQueue(cl_command_queue queue)
{
    pthread_mutex_lock(&lock);
    clFinish(queue);
    collect(queue);
    pthread_mutex_unlock(&lock);
    return REAL(clReleaseCommandQueue)(queue);
}

__attribute__((destructor)) static void at_exit(void)
{
    pthread_mutex_lock(&lock);
    for (size_t i = written; i < count; i++) {
        clWaitForEvents(1, &launches[i].event);
        launches[i].done = 1;
    }
    write_done();
    pthread_mutex_unlock(&lock);
}
