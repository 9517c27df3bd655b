//! Records reduced to warps (their work-items' own, reduced), and group-free kernels that
//! write the same records in any work-groups.

use super::*;

/// A loop-free kernel whose lanes take four paths, in an order that mixes them within
/// each warp: its copy keeps each lane's path (not its counters), and the warps' records
/// it writes are still its work-items' own reduced (checked in `in_warps_alike`),
/// however many distinct paths a warp meets.
#[test]
fn warps_of_four_paths_reduce_alike_from_paths() {
    let src = r#"
__kernel void four_paths(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    int c = (i * 7 + i / 5) % 4;
    float x = in[i];
    if (c == 0)
        x = sqrt(x);
    else if (c == 1)
        x = x * x + 1.0f;
    else if (c == 2)
        x = exp(x) - native_sin(x);
    out[i] = x;
}
"#;
    let (a, _, _) = annotate_source("four_paths.cl", src);
    assert!(
        a.source.contains("__srcsim_lanes_four_paths("),
        "the copy keeps paths:\n{}",
        a.source
    );
    for (_, both) in in_groups_of_64_and_56("four_paths", src, &a) {
        // Four distinct times, each of a quarter of the work-items.
        let mut times: Vec<u64> = (0..GROUPED_ITEMS).map(|w| both.t(w)).collect();
        times.sort_unstable();
        times.dedup();
        assert_eq!(times.len(), 4, "{times:?}");
    }
}

/// Work-items of the kernels run [`in_groups_of_64_and_56`].
const GROUPED_ITEMS: usize = 448;

/// Runs `kernel(in, out)` of `src` ([`run_source_both`]) over [`GROUPED_ITEMS`] work-items in
/// groups of 64 (two whole warps), then of 56 (a whole warp and one of 24 lanes: a copy's
/// all-alike pass takes sixteen lanes a vector, then eight one by one).
fn in_groups_of_64_and_56(kernel: &str, src: &str, a: &Annotation) -> Vec<(usize, Both)> {
    let n = GROUPED_ITEMS;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.125).collect();
    [64, 56]
        .into_iter()
        .map(|local| {
            let both = run_source_both(
                &format!("{kernel}.cl"),
                src,
                kernel,
                vec![KernelArg::from_slice(&input), KernelArg::zeroed::<f32>(n)],
                NdRange::d1(n).with_local([local, 1, 1]),
                a,
            );
            (local, both)
        })
        .collect()
}

/// A kernel whose only odd lane is each work-group's last: in groups of 64 the last lane
/// of a whole warp (found by the all-alike pass's loads of sixteen lanes), in groups of 56
/// the last of a warp of 24 lanes (found one by one, after the loads). Either warp's
/// record must be its lanes' reduced, not its first lane's taken 32 times.
#[test]
fn a_warp_whose_last_lane_alone_differs_is_not_taken_for_alike() {
    let src = r#"
__kernel void last_lane(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float x = in[i];
    if (get_local_id(0) == get_local_size(0) - 1)
        x = exp(x) - native_sin(x);
    out[i] = x;
}
"#;
    let (a, _, _) = annotate_source("last_lane.cl", src);
    assert!(a.source.contains("__srcsim_lanes_last_lane("));
    for (local, both) in in_groups_of_64_and_56("last_lane", src, &a) {
        let slow = (0..GROUPED_ITEMS)
            .filter(|&w| both.t(w) > both.t(0))
            .count();
        assert_eq!(
            slow,
            GROUPED_ITEMS / local,
            "one slow lane per group of {local}"
        );
    }
}

/// An LU step's trailing update (`examples/hosts/kernels/lu_steps.cl`) in two dimensions:
/// work-groups wholly idle, wholly working and split by the step, warps split by it too;
/// its copy keeps paths, and its warp records are its work-items' reduced.
#[test]
fn a_two_dimensional_lu_update_reduces_alike_from_paths() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hosts/kernels/lu_steps.cl"),
    )
    .unwrap();
    let (a, _, _) = annotate_source("lu_steps.cl", &src);
    assert!(a.source.contains("__srcsim_lanes_lu_update("));
    let n = 96usize;
    let matrix: Vec<f32> = (0..n * n).map(|i| 1.0 + (i % 7) as f32).collect();
    for k in [0i32, 37, 90] {
        run_source_both(
            "lu_steps.cl",
            &src,
            "lu_update",
            vec![
                KernelArg::from_slice(&matrix),
                KernelArg::scalar(n as i32),
                KernelArg::scalar(k),
            ],
            NdRange::d2([n, n]).with_local([16, 16, 1]),
            &a,
        );
        // The host evaluates its paths (`in_warps_alike` compared its records with the
        // device's).
        let args = [
            None,
            Some((n as i32).to_le_bytes().to_vec()),
            Some(k.to_le_bytes().to_vec()),
        ];
        let range = NdRange::d2([n, n]).with_local([16, 16, 1]);
        let arch = Architecture::default_arch();
        assert!(host_evaluated(&a, "lu_update", &args, &range, &arch).is_some());
    }
}

/// The premise of running a group-free kernel's twin in other work-groups than the
/// application's (the shim's `groups`): its annotated kernel writes the same records and
/// computes the same outputs in one work-group of 96, three of 32 and twelve of 8 (a loop
/// whose trip count the global id, the data and an argument decide); a kernel
/// that branches on its local id is not group-free, and its records do change.
#[test]
fn a_group_free_kernel_writes_the_same_records_in_any_work_groups() {
    let n = 96;
    let data: Vec<f32> = (0..n).map(|i| 1000.0 + (i % 7) as f32).collect();
    let src = "__kernel void k(__global float *x, const float d, const int iterations)\n{\n    \
               size_t i = get_global_id(0);\n    float v = x[i];\n    \
               int trips = i % 3 == 0 && v > 1002.0f ? 2 * iterations : iterations;\n    \
               for (int j = 0; j < trips; j++)\n        v = v / d;\n    x[i] = v;\n}\n";
    let by_local = |src: &str, name: &str| {
        let (a, _, _) = annotate_source(name, src);
        let runs: Vec<(Vec<Vec<u8>>, Vec<u64>)> = [96, 32, 8]
            .into_iter()
            .map(|local| {
                let range = NdRange::d1(n).with_local([local, 1, 1]);
                let mut args = vec![
                    KernelArg::from_slice(&data),
                    KernelArg::scalar(1.0001f32),
                    KernelArg::scalar(5i32),
                ];
                args.extend(record_args(&a.sidecar, "k", &range, Grain::WorkItem).args);
                let mut out = run_kernel(&a.source, "", "k", &args, &range)
                    .unwrap_or_else(|e| panic!("{name}: {e}"))
                    .buffers;
                let records = kernel_runner::from_bytes::<u64>(&out.pop().unwrap()).unwrap();
                (out, records)
            })
            .collect();
        (a.sidecar.kernels[0].group_free, runs)
    };
    let (free, runs) = by_local(src, "group_free.cl");
    assert!(free);
    assert!(runs[0].1.iter().any(|&v| v > 0));
    for run in &runs[1..] {
        assert_eq!(run.0, runs[0].0, "outputs");
        assert_eq!(run.1, runs[0].1, "records");
    }
    let local = src.replace("i % 3 == 0", "get_local_id(0) % 3 == 0");
    let (free, runs) = by_local(&local, "group_aware.cl");
    assert!(!free);
    assert_ne!(
        runs[2].1, runs[0].1,
        "records of work-groups of 8 and of 96"
    );
}

/// A 2D copy whose rows are `w` floats apart.
const PLANE: &str = r#"__kernel void plane(__global const float *in, __global float *out, int w)
{
    int x = get_global_id(0), y = get_global_id(1);
    out[y * w + x] = in[y * w + x] + 1.0f;
}
"#;

/// A warp is 32 consecutive work-items of a work-group, x fastest. In groups 32 wide a
/// warp of `plane` (rows 32 floats apart) reads one row's 128 bytes and writes them: a
/// line each. In groups 16 wide its lanes sit in two rows, 64 bytes of each: two lines
/// each, 2 more a warp than one row's; 8 wide, four rows: four lines each, 6 more. Every
/// work-item's record carries its warp's usage of the memory pipeline, one cycle a line
/// on the GTX 480 (`mem`'s initiation interval), so it grows by 2 and 6 cycles.
#[test]
fn a_warp_of_a_narrow_work_group_is_charged_a_line_per_row() {
    let (a, _, _) = annotate_source("plane.cl", PLANE);
    let arch = Architecture::default_arch();
    assert_eq!(arch.name, "gtx480");
    let mem = arch.resources().iter().position(|r| r == "MEM").unwrap();
    let (format, scale) = (a.sidecar.records.format, a.sidecar.records.usage_scale);
    let input: Vec<f32> = (0..256).map(|i| i as f32).collect();
    let used: Vec<u64> = [[32, 2], [16, 4], [8, 8]]
        .into_iter()
        .map(|[x, y]| {
            let both = run_source_both(
                "plane.cl",
                PLANE,
                "plane",
                vec![
                    KernelArg::from_slice(&input),
                    KernelArg::zeroed::<f32>(256),
                    KernelArg::scalar(32i32),
                ],
                NdRange::d2([32, 8]).with_local([x, y, 1]),
                &a,
            );
            let each: Vec<u64> = (0..256)
                .map(|w| both.records[w * both.stride + format.usage(mem)])
                .collect();
            assert!(each.iter().all(|&u| u == each[0]), "{x}x{y}: {each:?}");
            each[0]
        })
        .collect();
    assert_eq!(
        [used[1] - used[0], used[2] - used[0]],
        [2 * scale, 6 * scale],
        "{used:?}"
    );
}

/// A frontier step (`examples/hosts/kernels/bfs_frontier.cl`'s `expand`), whose gathers the
/// run samples: its copy reduces the lanes off the frontier to warps and keeps those on
/// it whole, and the model makes of them what it makes of the work-items' records
/// (checked in `in_warps_alike`), in groups of 64 and of 96 (a warp and two, three).
#[test]
fn a_frontier_step_keeps_its_sampled_lanes_whole() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/hosts/kernels/bfs_frontier.cl"),
    )
    .unwrap();
    let (a, _, _) = annotate_source("bfs_frontier.cl", &src);
    assert!(
        a.source.contains("__srcsim_reduce_kept(__srcsim_records"),
        "expand's copy keeps its sampled lanes:\n{}",
        a.source
    );
    // A ring of 384 nodes, each with three more edges; every fifth node on the frontier.
    let n = 384usize;
    let mut row = vec![0i32];
    let mut col = Vec::new();
    for v in 0..n {
        col.extend([
            (v + 1) % n,
            (v + n - 1) % n,
            (v * 7 + 3) % n,
            (v * 13 + 5) % n,
        ]);
        row.push(col.len() as i32);
    }
    let col: Vec<i32> = col.into_iter().map(|c| c as i32).collect();
    let frontier: Vec<u8> = (0..n).map(|v| u8::from(v % 5 == 0)).collect();
    // The frontier is visited (else a node marking a frontier node would change the depth
    // that node reads), and so is every third node.
    let visited: Vec<u8> = (0..n).map(|v| u8::from(v % 3 == 0 || v % 5 == 0)).collect();
    // One level's frontier: every node on it at one depth, so that the nodes marking a
    // common neighbour write it the same depth (the outputs must not depend on the order).
    let depth = vec![2i32; n];
    for local in [64, 96] {
        let both = run_source_both(
            "bfs_frontier.cl",
            &src,
            "expand",
            vec![
                KernelArg::from_slice(&row),
                KernelArg::from_slice(&col),
                KernelArg::from_slice(&frontier),
                KernelArg::zeroed::<u8>(n),
                KernelArg::from_slice(&visited),
                KernelArg::from_slice(&depth),
                KernelArg::scalar(n as i32),
            ],
            NdRange::d1(n).with_local([local, 1, 1]),
            &a,
        );
        let slow = (0..n).filter(|&w| both.t(w) > both.t(1)).count();
        let on_frontier = frontier.iter().filter(|&&f| f == 1).count();
        assert_eq!(
            slow, on_frontier,
            "the frontier's lanes ran the loop (groups of {local})"
        );
    }
}

/// A gather over rows of a two-dimensional grid, run only where a flag is set: work-groups
/// of 16 x 4 (two warps, each of two rows), so that a group's lanes are not one run of
/// linear ids, and the lanes kept whole come from rows apart.
#[test]
fn kept_lanes_of_two_dimensional_groups_come_in_their_warps_order() {
    let src = r#"
__kernel void flagged_rows(__global const int *start, __global const int *idx,
                           __global const float *in, __global const uchar *flag,
                           __global float *out)
{
    int w = get_global_size(0);
    int i = get_global_id(1) * w + get_global_id(0);
    if (!flag[i])
        return;
    float s = 0.0f;
    for (int e = start[i]; e < start[i + 1]; e++)
        s += in[idx[e]];
    out[i] = s;
}
"#;
    let (a, _, _) = annotate_source("flagged_rows.cl", src);
    assert!(a.source.contains("__srcsim_reduce_kept(__srcsim_records"));
    let (w, h) = (32usize, 8usize);
    let n = w * h;
    let mut start = vec![0i32];
    let mut idx = Vec::new();
    for i in 0..n {
        for k in 0..(i % 4) {
            idx.push(((i * 31 + k * 17) % n) as i32);
        }
        start.push(idx.len() as i32);
    }
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let flag: Vec<u8> = (0..n).map(|i| u8::from(i % 7 == 2 || i / w == 5)).collect();
    let both = run_source_both(
        "flagged_rows.cl",
        src,
        "flagged_rows",
        vec![
            KernelArg::from_slice(&start),
            KernelArg::from_slice(&idx),
            KernelArg::from_slice(&input),
            KernelArg::from_slice(&flag),
            KernelArg::zeroed::<f32>(n),
        ],
        NdRange::d2([w, h]).with_local([16, 4, 1]),
        &a,
    );
    assert!(
        (0..n).any(|i| both.t(i) > both.t(0)),
        "flagged lanes took longer"
    );
}

/// Kept lanes whose records fit in 32 bits beside ones that do not: work-group 0's lanes
/// gather 40000 times (their usage counters pass 2^32), the other groups' a few times.
/// The device writes group 0's kept lanes whole and the others' in 32-bit values
/// (`in_warps_alike` checks each group's header against its work-items' records, and the
/// kept lanes, widened, against them value for value).
#[test]
fn kept_lanes_fit_in_32_bits_group_by_group() {
    let src = r#"
__kernel void gather_sum(__global const int *idx, __global const int *a, __global int *out,
                         const int many)
{
    int i = get_global_id(0);
    int k = idx[i];
    if (k < 0)
        return;
    int reps = get_group_id(0) == 0 ? many : 3;
    int s = 0;
    for (int j = 0; j < reps; j++)
        s += a[(k + j) & 255];
    out[i] = s;
}
"#;
    let (a, _, _) = annotate_source("gather_sum.cl", src);
    assert!(a.source.contains("__srcsim_reduce_kept(__srcsim_records"));
    let n = 256usize;
    // Every third work-item skips; the others start at a scattered element.
    let idx: Vec<i32> = (0..n)
        .map(|i| {
            if i % 3 == 1 {
                -1
            } else {
                ((i * 37) % 200) as i32
            }
        })
        .collect();
    let input: Vec<i32> = (0..n as i32).map(|v| v * 3 + 1).collect();
    let both = run_source_both(
        "gather_sum.cl",
        src,
        "gather_sum",
        vec![
            KernelArg::from_slice(&idx),
            KernelArg::from_slice(&input),
            KernelArg::zeroed::<i32>(n),
            KernelArg::scalar(40_000i32),
        ],
        NdRange::d1(n).with_local([64, 1, 1]),
        &a,
    );
    // Group 0's gathering lanes hold a value past 32 bits, the other groups' none.
    let width = a.sidecar.records.format.timing_width();
    let largest = |items: std::ops::Range<usize>| {
        items
            .filter(|&i| idx[i] >= 0)
            .flat_map(|i| both.records[i * both.stride..][..width].to_vec())
            .max()
            .unwrap()
    };
    assert!(largest(0..64) >> 32 != 0, "group 0's usage");
    assert!(largest(64..n) >> 32 == 0, "the other groups' usage");
}
