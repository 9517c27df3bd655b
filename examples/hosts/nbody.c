/* nbody: one (semi-implicit Euler) step of a softened gravitational n-body system.
 * Covers: float4 buffers and arithmetic (xyz position, w mass), a helper function called
 * in the inner loop, rsqrt, native_exp and native_recip, positions staged through a
 * static __local tile with barriers, a kernel embedded in the host program as a string,
 * float check with a tolerance.
 * (Whole-float4 updates rather than `v.xyz = ...` or `(float4)(v.xyz * dt, 0.0f)`:
 * Oclgrind 21.10's --uninitialized plugin crashes on those 3-element shuffles.) */
#include "common.h"

#include <math.h>

#define TILE_SIZE 64

static const char *kernel_source =
    "#define TILE_SIZE 64\n"
    "\n"
    "// Acceleration on body `bi` from body `bj` (softened), added to `acc` (w stays 0).\n"
    "float4 pair_accel(float4 bi, float4 bj, float4 acc, float soft2)\n"
    "{\n"
    "    float4 d = (float4)(bj.xyz - bi.xyz, 0.0f);\n"
    "    float dist2 = dot(d, d) + soft2;\n"
    "    float inv = rsqrt(dist2);\n"
    "    float s = bj.w * inv * inv * inv;\n"
    "    return acc + d * s;\n"
    "}\n"
    "\n"
    "__kernel void nbody_step(__global const float4 *pos, __global const float4 *vel,\n"
    "                         __global float4 *new_pos, __global float4 *new_vel,\n"
    "                         const int n, const float dt, const float soft2,\n"
    "                         const float drag)\n"
    "{\n"
    "    __local float4 tile[TILE_SIZE];\n"
    "    int i = get_global_id(0);\n"
    "    int lid = get_local_id(0);\n"
    "    float4 me = pos[i];\n"
    "    float4 acc = (float4)(0.0f);\n"
    "    for (int base = 0; base < n; base += TILE_SIZE) {\n"
    "        tile[lid] = pos[base + lid];\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "        for (int j = 0; j < TILE_SIZE; j++)\n"
    "            acc = pair_accel(me, tile[j], acc, soft2);\n"
    "        barrier(CLK_LOCAL_MEM_FENCE);\n"
    "    }\n"
    "    float damp = native_exp(-drag * dt);\n"
    "    float4 v = (vel[i] + acc * dt) * damp; // acc.w is 0\n"
    "    float4 p = me + v * dt;\n"
    "    p.w = me.w; // the mass\n"
    "    // 1 / (1 + |v|^2) in w, a bounded measure of the new speed.\n"
    "    v.w = native_recip(1.0f + dot(v.xyz, v.xyz));\n"
    "    new_pos[i] = p;\n"
    "    new_vel[i] = v;\n"
    "}\n";

typedef struct {
    float x, y, z, w;
} float4_t;

int main(int argc, char **argv)
{
    const int n = size_arg(argc, argv, 1024, TILE_SIZE, 1 << 20); /* bodies */
    const float dt = 0.01f, soft2 = 0.01f, drag = 0.1f;
    const size_t local = TILE_SIZE;
    const size_t global = (size_t)n;

    float4_t *pos = malloc(n * sizeof(float4_t));
    float4_t *vel = malloc(n * sizeof(float4_t));
    float4_t *out_pos = malloc(n * sizeof(float4_t));
    float4_t *out_vel = malloc(n * sizeof(float4_t));
    unsigned seed = 8086;
    for (int i = 0; i < n; i++) {
        pos[i].x = rand_unit(&seed) * 2.0f - 1.0f;
        pos[i].y = rand_unit(&seed) * 2.0f - 1.0f;
        pos[i].z = rand_unit(&seed) * 2.0f - 1.0f;
        pos[i].w = 0.5f + rand_unit(&seed); /* mass */
        vel[i].x = rand_unit(&seed) - 0.5f;
        vel[i].y = rand_unit(&seed) - 0.5f;
        vel[i].z = rand_unit(&seed) - 0.5f;
        vel[i].w = 0.0f;
    }

    cl_device_id device = require_device(CL_DEVICE_TYPE_DEFAULT, NULL);
    cl_int err;
    cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err);
    CHECK(err);
    cl_command_queue queue = clCreateCommandQueue(ctx, device, 0, &err);
    CHECK(err);
    cl_program program = build_program(ctx, device, kernel_source, "");
    cl_kernel kernel = clCreateKernel(program, "nbody_step", &err);
    CHECK(err);

    const size_t bytes = n * sizeof(float4_t);
    cl_mem dpos = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, pos, &err);
    CHECK(err);
    cl_mem dvel = clCreateBuffer(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, vel, &err);
    CHECK(err);
    cl_mem dnew_pos = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);
    cl_mem dnew_vel = clCreateBuffer(ctx, CL_MEM_WRITE_ONLY, bytes, NULL, &err);
    CHECK(err);

    CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &dpos));
    CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &dvel));
    CHECK(clSetKernelArg(kernel, 2, sizeof(cl_mem), &dnew_pos));
    CHECK(clSetKernelArg(kernel, 3, sizeof(cl_mem), &dnew_vel));
    CHECK(clSetKernelArg(kernel, 4, sizeof(int), &n));
    CHECK(clSetKernelArg(kernel, 5, sizeof(float), &dt));
    CHECK(clSetKernelArg(kernel, 6, sizeof(float), &soft2));
    CHECK(clSetKernelArg(kernel, 7, sizeof(float), &drag));
    CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &global, &local, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dnew_pos, CL_FALSE, 0, bytes, out_pos, 0, NULL, NULL));
    CHECK(clEnqueueReadBuffer(queue, dnew_vel, CL_FALSE, 0, bytes, out_vel, 0, NULL, NULL));
    CHECK(clFinish(queue));

    int bad = 0;
    double kinetic = 0.0;
    const double damp = exp(-(double)drag * dt);
    for (int i = 0; i < n; i++) {
        double ax = 0.0, ay = 0.0, az = 0.0;
        for (int j = 0; j < n; j++) {
            double dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y, dz = pos[j].z - pos[i].z;
            double inv = 1.0 / sqrt(dx * dx + dy * dy + dz * dz + soft2);
            double s = pos[j].w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        double v[3] = {(vel[i].x + ax * dt) * damp, (vel[i].y + ay * dt) * damp,
                       (vel[i].z + az * dt) * damp};
        double p[3] = {pos[i].x + v[0] * dt, pos[i].y + v[1] * dt, pos[i].z + v[2] * dt};
        double v2 = v[0] * v[0] + v[1] * v[1] + v[2] * v[2];
        double got_v[3] = {out_vel[i].x, out_vel[i].y, out_vel[i].z};
        double got_p[3] = {out_pos[i].x, out_pos[i].y, out_pos[i].z};
        int ok = fabs(out_vel[i].w - 1.0 / (1.0 + v2)) < 1e-3 && out_pos[i].w == pos[i].w;
        for (int k = 0; k < 3; k++) {
            ok = ok && fabs(got_v[k] - v[k]) < 2e-3 * (1.0 + fabs(v[k]));
            ok = ok && fabs(got_p[k] - p[k]) < 1e-4 * (1.0 + fabs(p[k]));
        }
        if (!ok) {
            if (bad < 5)
                fprintf(stderr, "body %d: v=(%g,%g,%g) p=(%g,%g,%g), expected v=(%g,%g,%g) "
                        "p=(%g,%g,%g)\n", i, got_v[0], got_v[1], got_v[2], got_p[0],
                        got_p[1], got_p[2], v[0], v[1], v[2], p[0], p[1], p[2]);
            bad++;
        }
        kinetic += 0.5 * pos[i].w * (got_v[0] * got_v[0] + got_v[1] * got_v[1] +
                                     got_v[2] * got_v[2]);
    }

    clReleaseMemObject(dpos);
    clReleaseMemObject(dvel);
    clReleaseMemObject(dnew_pos);
    clReleaseMemObject(dnew_vel);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(ctx);
    free(pos);
    free(vel);
    free(out_pos);
    free(out_vel);

    if (bad) {
        printf("nbody: FAILED (%d of %d bodies differ)\n", bad, n);
        return 1;
    }
    printf("nbody: OK (n=%d, kinetic energy=%.4f)\n", n, kinetic);
    return 0;
}
