//! Barriers under conditions the whole work-group takes alike (legal OpenCL): kernels
//! with a barrier inside an `if` on a value argument or the group id, in a called helper,
//! and in a loop the compiler unrolled, are annotated, and their twins compute on PoCL what
//! the originals do.

use super::*;

const GUARDED_SUM: &str = "__kernel void guarded_sum(__global const float *in, __global float *out,
                          __local float *s, int n)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    if (n > 0) {
        s[lid] = gid < n ? in[gid] : 0.0f;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = get_local_size(0) / 2; k > 0; k >>= 1) {
            if (lid < k)
                s[lid] += s[lid + k];
            barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lid == 0)
            out[get_group_id(0)] = s[0];
    }
}
";

#[test]
fn a_guarded_reduction_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("guarded_sum.cl", GUARDED_SUM);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (256usize, 64usize);
    let input: Vec<f32> = (0..n).map(|i| (i % 17) as f32 - 3.0).collect();
    for count in [n as i32, 100, 0] {
        run_source_both(
            "guarded_sum.cl",
            GUARDED_SUM,
            "guarded_sum",
            vec![
                KernelArg::from_slice(&input),
                KernelArg::from_slice(&vec![-1.0f32; n / local]),
                KernelArg::local::<f32>(local),
                KernelArg::scalar(count),
            ],
            NdRange::d1(n).with_local([local, 1, 1]),
            &a,
        );
    }
}

const GROUP_IF: &str = "__kernel void first_groups(__global float *a, __local float *tile, int k)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    float v = a[gid];
    if (get_group_id(0) < k) {
        tile[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v = tile[get_local_size(0) - 1 - lid] * 2.0f;
    }
    a[gid] = v + 1.0f;
}
";

#[test]
fn a_barrier_in_an_if_on_the_group_id_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("first_groups.cl", GROUP_IF);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (256usize, 32usize);
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let both = run_source_both(
        "first_groups.cl",
        GROUP_IF,
        "first_groups",
        vec![
            KernelArg::from_slice(&input),
            KernelArg::local::<f32>(local),
            KernelArg::scalar(3i32),
        ],
        NdRange::d1(n).with_local([local, 1, 1]),
        &a,
    );
    // The first three groups take the branch, the others go straight to the end: each
    // work-item's time is the pair-time formula's along its PTX path.
    let k = kernel(&a, "first_groups");
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let body = other_successor(k, 0, exit);
    let (inside, outside) = (path_time(k, &[0, body, exit]), path_time(k, &[0, exit]));
    assert!(inside > outside);
    for w in 0..n {
        let expected = if w / local < 3 { inside } else { outside };
        assert_eq!(both.t(w), expected, "work-item {w}");
    }
}

/// A barrier under a condition that differs between the work-items of a work-group is
/// undefined behaviour in OpenCL: its kernel is refused with the barrier's line (and a
/// helper's barrier reached under such a condition with the call's), and runs as it is;
/// the file's other kernels, whose barriers' conditions are uniform, are annotated.
#[test]
fn a_barrier_under_a_lane_varying_condition_is_refused_naming_its_line() {
    let src = "void wait_here(void) { barrier(CLK_LOCAL_MEM_FENCE); }

__kernel void varying(__global float *a, __local float *s)
{
    int lid = get_local_id(0);
    s[lid] = a[lid];
    if (lid < 16)
        barrier(CLK_LOCAL_MEM_FENCE);
    a[lid] = s[(lid + 1) % get_local_size(0)];
}

__kernel void through_helper(__global float *a, int n)
{
    int limit = n + get_local_id(0);
    if (limit > 8)
        wait_here();
    a[get_global_id(0)] = limit;
}

__kernel void uniform(__global float *a, __local float *s, int n)
{
    int lid = get_local_id(0);
    int groups = get_num_groups(0) + n;
    if (groups > 2 && get_group_id(0) != 1) {
        s[lid] = a[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        a[lid] = s[0];
    }
}
";
    let (a, _, _) = annotate_source("lane_varying.cl", src);
    let names: Vec<&str> = a.sidecar.kernels.iter().map(|k| k.name.as_str()).collect();
    assert_eq!(names, ["uniform"]);
    let refused: Vec<(&str, u32)> = a
        .sidecar
        .refused
        .iter()
        .map(|r| (r.name.as_str(), r.line))
        .collect();
    assert_eq!(refused, [("varying", 8), ("through_helper", 16)]);
    let reasons: Vec<&str> = a
        .sidecar
        .refused
        .iter()
        .map(|r| r.reason.as_str())
        .collect();
    assert!(
        reasons[0].ends_with(
            "lane_varying.cl:8: `varying` waits at a barrier inside a branch whose condition \
             may differ between the work-items of a work-group (undefined behaviour in OpenCL: \
             all of a work-group's work-items or none must reach a barrier), so the kernel \
             runs unannotated"
        ),
        "{reasons:?}"
    );
    assert!(
        reasons[1].contains(
            "lane_varying.cl:16: `through_helper` calls `wait_here`, which waits at a barrier, \
             inside a branch whose condition may differ"
        ),
        "{reasons:?}"
    );
}

const NEIGHBOURS: &str = "__kernel void neighbours(__global const float *in, __global float *out,
                         __local float *tile, int width)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int size = get_local_size(0);
    if (width > 2 && get_group_id(0) * size < width) {
        tile[lid] = in[gid];
        barrier(CLK_LOCAL_MEM_FENCE);
        float left = lid > 0 ? tile[lid - 1] : tile[lid];
        float right = lid + 1 < size ? tile[lid + 1] : tile[lid];
        out[gid] = 0.25f * left + 0.5f * tile[lid] + 0.25f * right;
    } else {
        out[gid] = in[gid];
    }
}
";

#[test]
fn a_neighbour_computation_under_a_uniform_condition_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("neighbours.cl", NEIGHBOURS);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (256usize, 64usize);
    let input: Vec<f32> = (0..n).map(|i| ((i * 7) % 13) as f32).collect();
    for width in [200i32, 1] {
        run_source_both(
            "neighbours.cl",
            NEIGHBOURS,
            "neighbours",
            vec![
                KernelArg::from_slice(&input),
                KernelArg::zeroed::<f32>(n),
                KernelArg::local::<f32>(local),
                KernelArg::scalar(width),
            ],
            NdRange::d1(n).with_local([local, 1, 1]),
            &a,
        );
    }
}

const HELPER: &str =
    "__attribute__((noinline)) void publish(__global float *out, __local float *s, float v, int n)
{
    int lid = get_local_id(0);
    if (n > 0) {
        s[lid] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < 4)
            out[get_global_id(0)] = s[lid] + s[lid + 4];
    }
}

__kernel void helper_sums(__global const float *in, __global float *out,
                          __local float *s, int n, int scale)
{
    int gid = get_global_id(0);
    float v = in[gid] * scale;
    publish(out, s, v, n);
}
";

#[test]
fn a_helper_holding_a_barrier_under_a_uniform_condition_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("helper_sums.cl", HELPER);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (256usize, 64usize);
    let input: Vec<f32> = (0..n).map(|i| (i % 5) as f32).collect();
    for (count, scale) in [(1i32, 3i32), (0, 2), (1, 0), (0, 0)] {
        run_source_both(
            "helper_sums.cl",
            HELPER,
            "helper_sums",
            vec![
                KernelArg::from_slice(&input),
                KernelArg::from_slice(&vec![-1.0f32; n]),
                KernelArg::local::<f32>(local),
                KernelArg::scalar(count),
                KernelArg::scalar(scale),
            ],
            NdRange::d1(n).with_local([local, 1, 1]),
            &a,
        );
    }
}

const UNROLLED: &str = "__kernel void rounds(__global float *a, __local float *tile, int n)
{
    int lid = get_local_id(0);
    int gid = get_global_id(0);
    int size = get_local_size(0);
    float v = a[gid];
    if (n > 0) {
        #pragma unroll 4
        for (int r = 0; r < 8; r++) {
            tile[lid] = v;
            barrier(CLK_LOCAL_MEM_FENCE);
            v = 0.5f * (v + tile[(lid + r + 1) % size]);
            barrier(CLK_LOCAL_MEM_FENCE);
        }
    }
    a[gid] = v;
}
";

#[test]
fn a_barrier_in_an_unrolled_loop_under_a_uniform_condition_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("rounds.cl", UNROLLED);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (256usize, 32usize);
    let input: Vec<f32> = (0..n).map(|i| (i % 9) as f32).collect();
    for count in [1i32, 0] {
        run_source_both(
            "rounds.cl",
            UNROLLED,
            "rounds",
            vec![
                KernelArg::from_slice(&input),
                KernelArg::local::<f32>(local),
                KernelArg::scalar(count),
            ],
            NdRange::d1(n).with_local([local, 1, 1]),
            &a,
        );
    }
}

const CHASE: &str = "#define THREADS 4u
__kernel void chase(__global volatile ulong *pos, __global ulong *sink_out, uint n,
                    uint iters)
{
    uint tid = get_local_id(0);
    uint uid = get_global_id(0);
    for (uint i = uid; i < n - THREADS; i += get_global_size(0))
        pos[i] = i + THREADS;
    if (get_group_id(0) == 0) {
        for (uint i = tid; i < iters + THREADS && i < n - THREADS; i += get_local_size(0))
            pos[i] = i + THREADS;
        barrier(CLK_GLOBAL_MEM_FENCE);
        if (uid < THREADS) {
            pos[n - (THREADS - tid)] = tid;
            ulong p = pos[tid];
            for (uint i = tid; i < iters - THREADS; i += THREADS)
                p = pos[p];
            sink_out[tid] = p;
        }
    }
}
";

#[test]
fn a_per_work_item_branch_after_a_barrier_in_a_group_branch_computes_the_same_annotated() {
    let (a, _, _) = annotate_source("chase.cl", CHASE);
    assert!(a.sidecar.refused.is_empty(), "{:?}", a.sidecar.refused);
    let (n, local) = (2048usize, 64usize);
    run_source_both(
        "chase.cl",
        CHASE,
        "chase",
        vec![
            KernelArg::zeroed::<u64>(n),
            KernelArg::zeroed::<u64>(4),
            KernelArg::scalar(n as u32),
            KernelArg::scalar(512u32),
        ],
        NdRange::d1(256).with_local([local, 1, 1]),
        &a,
    );
}
