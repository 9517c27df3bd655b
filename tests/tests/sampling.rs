//! Sampled accesses on PoCL: an access whose addresses the static analysis cannot tell
//! (a gather through an index array) is charged what the warps did, from the indices the
//! annotated kernel records. The expected lines, sectors and bank passes are computed
//! here from the index arrays the test builds, not by the code under test.

use annotator::annotate::{annotate_file, Annotation};
use annotator::front::compile::{BuildOptions, Compiler};
use kernel_runner::{from_bytes, record_args, run_kernel, KernelArg, NdRange};
use pipeline_model::sampling::{timing_records, timing_records_in_place, Measured, SampledLaunch};
use pipeline_model::{estimate, Architecture, Grain, KernelResources, LaunchGeometry, Records};

const ITEMS: usize = 256;
const LOCAL: usize = 64;

/// A gather through `idx` into global memory, one through `sidx` into a `__local` array,
/// and a loop that reads a small table through loaded indices `rounds` times.
const SRC: &str = r#"__kernel void gather(__global const float *in, __global const int *idx,
                     __global const int *sidx, __global const float *table,
                     __global float *out, int rounds)
{
    __local float tile[1024];
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    for (int i = lid; i < 1024; i += get_local_size(0))
        tile[i] = (float)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    float acc = in[idx[gid]] + tile[sidx[gid]];
    int j = idx[gid] & 63;
    for (int r = 0; r < rounds; r++) {
        acc += table[j];
        j = (int)acc & 63;
    }
    out[gid] = acc;
}
"#;

fn annotation(arch: &Architecture) -> Annotation {
    annotate_text(arch, "gather.cl", SRC)
}

/// `text` written to `file` in a directory of this call's own, annotated for `arch`. A
/// directory per call: the tests run in threads of one process, and one writing the file
/// while another's clang reads it gave that clang an empty file.
fn annotate_text(arch: &Architecture, file: &str, text: &str) -> Annotation {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    std::fs::write(&path, text).unwrap();
    let compiler = Compiler::locate().expect("clang 19");
    annotate_file(&compiler, &path, &BuildOptions::default(), arch).unwrap()
}

/// What a run of a kernel with sampled accesses gave: its buffers after the run, its
/// records, their timing values corrected, and what the warps did at each sampled access
/// (in the order of the sidecar's `samples_of`).
struct SampledRun {
    buffers: Vec<Vec<u8>>,
    records: Vec<u64>,
    timing: Vec<u64>,
    measured: Vec<Option<Measured>>,
    geometry: LaunchGeometry,
}

/// `kernel` of `a` run on PoCL over `items` work-items in work-groups of `local`, with its
/// own `args` (their buffers `sizes` bytes each, in parameter order), `resources` and a
/// record a work-item; its records corrected both as the model reads them and in place, as
/// the shim does (the same values, packed).
#[allow(clippy::too_many_arguments)] // a launch's inputs, each a different thing
fn run_sampled(
    arch: &Architecture,
    a: &Annotation,
    kernel: &str,
    mut args: Vec<KernelArg>,
    items: usize,
    local: usize,
    resources: &KernelResources,
    sizes: &[usize],
) -> SampledRun {
    let range = NdRange::d1(items).with_local([local, 1, 1]);
    args.extend(record_args(&a.sidecar, kernel, &range, Grain::WorkItem).args);
    let out = run_kernel(&a.source, "", kernel, &args, &range).unwrap();
    let records: Vec<u64> = from_bytes(out.buffers.last().unwrap()).unwrap();
    let geometry = LaunchGeometry {
        global: [items as u64, 1, 1],
        local: [local as u64, 1, 1],
    };
    let buffer_bytes = |p: u32| sizes.get(p as usize).map(|&b| b as u64);
    let layout = &a.sidecar.records;
    let launch = SampledLaunch {
        arch,
        geometry: &geometry,
        resources,
        buffer_bytes: &buffer_bytes,
        usage_scale: layout.usage_scale,
    };
    let samples = layout.samples_of(kernel);
    let (timing, measured) = timing_records(&records, &layout.format, &samples, &launch);
    let timing = timing.into_owned();
    let mut in_place = records.clone();
    let (len, measured_in_place) =
        timing_records_in_place(&mut in_place, &layout.format, &samples, &launch);
    assert_eq!(&in_place[..len], &timing[..]);
    assert_eq!(measured_in_place, measured);
    SampledRun {
        buffers: out.buffers,
        records,
        timing,
        measured,
        geometry,
    }
}

/// `kernel` of `a` run on PoCL in one work-group of `items` work-items, with its own
/// `args` (their buffers `sizes` bytes each, in parameter order) and a record a
/// work-item: its buffers after the run, and what the warps did at each of its sampled
/// accesses (in the order of the sidecar's `samples_of`).
fn one_group(
    arch: &Architecture,
    a: &Annotation,
    kernel: &str,
    args: Vec<KernelArg>,
    items: usize,
    sizes: &[usize],
) -> (Vec<Vec<u8>>, Vec<Option<Measured>>) {
    let resources = KernelResources {
        registers_per_work_item: 16,
        ..KernelResources::default()
    };
    let run = run_sampled(arch, a, kernel, args, items, items, &resources, sizes);
    (run.buffers, run.measured)
}

/// Runs the annotated kernel with the index arrays; the estimate and what the warps did
/// at each sampled access, by line.
fn run(
    arch: &Architecture,
    a: &Annotation,
    idx: &[i32],
    sidx: &[i32],
    rounds: i32,
) -> (u64, Vec<(u32, Measured)>, Vec<u64>) {
    let layout = &a.sidecar.records;
    let input: Vec<f32> = (0..ITEMS * 32).map(|i| i as f32).collect();
    let table: Vec<f32> = (0..64).map(|i| i as f32 * 0.5).collect();
    let args = vec![
        KernelArg::from_slice(&input),
        KernelArg::from_slice(idx),
        KernelArg::from_slice(sidx),
        KernelArg::from_slice(&table),
        KernelArg::zeroed::<f32>(ITEMS),
        KernelArg::scalar(rounds),
    ];
    let resources = KernelResources {
        registers_per_work_item: 16,
        local_memory_bytes: 4096,
        ..KernelResources::default()
    };
    let sizes = [ITEMS * 32 * 4, ITEMS * 4, ITEMS * 4, 64 * 4, ITEMS * 4];
    let run = run_sampled(arch, a, "gather", args, ITEMS, LOCAL, &resources, &sizes);
    let e = estimate(
        arch,
        &run.geometry,
        &resources,
        &Records {
            data: &run.timing,
            format: layout.format.timing_only(),
            usage_scale: layout.usage_scale,
            grain: Grain::WorkItem,
            shared: None,
        },
    )
    .unwrap();
    let by_line = layout
        .samples_of("gather")
        .iter()
        .zip(run.measured)
        .filter_map(|((_, s), m)| Some((s.line, m?)))
        .collect();
    let t = run.records.iter().step_by(layout.stride).copied().collect();
    (e.cycles, by_line, t)
}

fn at(measured: &[(u32, Measured)], line: u32) -> Measured {
    measured
        .iter()
        .find(|(l, _)| *l == line)
        .unwrap_or_else(|| panic!("no sampled access on line {line}: {measured:?}"))
        .1
}

#[test]
fn gathers_are_charged_what_the_warps_did() {
    let arch = Architecture::load("hopper_h100").unwrap();
    let a = annotation(&arch);
    let samples = a
        .sidecar
        .records
        .samples
        .as_ref()
        .expect("sampled accesses");
    let lines: Vec<u32> = samples.accesses.iter().map(|s| s.access.line).collect();
    // in[idx[gid]] and tile[sidx[gid]] (line 11) and table[j] (line 14); idx[gid] itself
    // has a known stride.
    assert!(lines.contains(&11) && lines.contains(&14), "{lines:?}");

    // Identity indices: each warp reads 32 consecutive floats, one 128-byte line and four
    // sectors (the arrays start on a line), and 32 consecutive shared words, one pass.
    let identity: Vec<i32> = (0..ITEMS as i32).collect();
    let (coalesced, m, _) = run(&arch, &a, &identity, &identity, 20);
    let global = m
        .iter()
        .find(|(l, s)| *l == 11 && s.sectors > 0.0)
        .expect("the global gather")
        .1;
    assert_eq!((global.transactions, global.sectors), (1.0, 4.0));
    assert_eq!(global.warps, (ITEMS / 32) as u64);
    let shared = m
        .iter()
        .find(|(l, s)| *l == 11 && s.sectors == 0.0)
        .expect("the shared gather")
        .1;
    assert_eq!(shared.transactions, 1.0);

    // Indices 32 floats apart: every lane its own line and sector; shared words 32 apart
    // all fall on bank 0 of the 32: 32 passes.
    let spread: Vec<i32> = (0..ITEMS as i32).map(|i| i * 32).collect();
    let column: Vec<i32> = (0..ITEMS as i32).map(|i| (i % 32) * 32).collect();
    let (scattered, m, _) = run(&arch, &a, &spread, &column, 20);
    let global = m
        .iter()
        .find(|(l, s)| *l == 11 && s.sectors > 0.0)
        .unwrap()
        .1;
    assert_eq!((global.transactions, global.sectors), (32.0, 32.0));
    let shared = m
        .iter()
        .find(|(l, s)| *l == 11 && s.sectors == 0.0)
        .unwrap()
        .1;
    assert_eq!(shared.transactions, 32.0);
    assert!(
        scattered > coalesced,
        "scattered {scattered} vs coalesced {coalesced}"
    );

    // The table (256 bytes) read in the loop fits in the L1: served from there.
    assert!(at(&m, 14).l1_resident());
}

#[test]
fn without_an_l1_size_the_loop_stays_at_the_l2() {
    let mut arch = Architecture::load("hopper_h100").unwrap();
    arch.memory.l1_bytes = None;
    let a = annotation(&arch);
    let identity: Vec<i32> = (0..ITEMS as i32).collect();
    let (_, m, _) = run(&arch, &a, &identity, &identity, 20);
    assert!(!at(&m, 14).l1_resident());
}

/// The table loop follows a loop the compiler enters unguarded (it proves `lid < 1024`), so
/// that in the PTX the first loop's body dominates it: it is still timed per iteration.
#[test]
fn a_loop_after_an_unguarded_loop_is_charged_per_iteration() {
    let arch = Architecture::load("hopper_h100").unwrap();
    let a = annotation(&arch);
    let identity: Vec<i32> = (0..ITEMS as i32).collect();
    // Multiples of the compiler's unroll factor (8), so that the remainder loop never runs.
    let t: Vec<u64> = [0, 8, 16, 32]
        .iter()
        .map(|&r| run(&arch, &a, &identity, &identity, r).2[0])
        .collect();
    // Entering the loop at all costs a little more than one pass of 8.
    assert!(t[1] > t[0], "{t:?}");
    let per8 = t[2] - t[1];
    assert!(per8 >= 8 * 263, "eight dependent L2 trips at least: {t:?}");
    assert_eq!(t[3] - t[2], 2 * per8, "{t:?}");
}

/// Each work-item walks its own row, `a[row * pitch + j]` over `j`, beside `x[j]`.
const ROWS: &str = r#"__kernel void rows(__global const float *a, __global const float *x,
                   __global float *out, const int pitch, const int n)
{
    int row = get_global_id(0);
    float acc = 0.0f;
    for (int j = 0; j < n; j++)
        acc += a[row * pitch + j] * x[j];
    out[row] = acc;
}
"#;

/// What the warps did at the row walk of [`ROWS`], 64 work-items in one work-group, rows
/// `pitch` floats apart, 128 steps each, on `arch`.
fn row_walk(arch: &Architecture, pitch: usize) -> Measured {
    const N: usize = 128;
    let a = annotate_text(arch, "rows.cl", ROWS);
    let matrix = vec![1.0f32; 64 * pitch];
    let x = vec![0.5f32; N];
    let args = vec![
        KernelArg::from_slice(&matrix),
        KernelArg::from_slice(&x),
        KernelArg::zeroed::<f32>(64),
        KernelArg::scalar(pitch as i32),
        KernelArg::scalar(N as i32),
    ];
    let samples = a.sidecar.records.samples_of("rows");
    assert_eq!(samples.len(), 1, "{samples:?}");
    assert_eq!(samples[0].1.loop_lines, 1, "x[j]: one line a warp");
    let sizes = [64 * pitch * 4, N * 4, 64 * 4];
    let (_, measured) = one_group(arch, &a, "rows", args, 64, &sizes);
    measured[0].expect("the row walk ran")
}

/// GPGPU-Sim's GTX 480: 4-way sets picked by the Fermi hash. Rows 528 floats (2,112
/// bytes) apart: the first SM's 64 rows fall in sets at most 3 deep, which hold them and
/// `x[j]`'s line; each lane's row starts 0 or 64 bytes into a line and crosses a line
/// every 32 steps, so of a warp's 128 steps 1 + 4 x 2 = 9 enter lines nobody held (the
/// rest, 119, are L1 hits). Rows 512 floats (2 KiB) apart: four in each of 16 sets, with
/// `x[j]`'s a fifth line in one: the lanes' lines do not stay.
#[test]
fn a_row_walk_is_served_by_the_l1_where_its_sets_hold_its_lines() {
    let arch = Architecture::load("gtx480").unwrap();
    let held = row_walk(&arch, 528);
    assert_eq!(held.set_lines, 3);
    assert!(held.l1_resident());
    assert_eq!(held.stream_hits, 119.0 / 128.0);
    assert_eq!(held.l1_share, held.stream_hits);
    let crowded = row_walk(&arch, 512);
    assert_eq!(crowded.set_lines, 4);
    assert!(!crowded.l1_resident());
    assert_eq!(crowded.l1_share, 0.0);
}

/// Each warp walks its own 32 flags (`flags[v]`: one address for all its lanes, a step of
/// 4 bytes), and where a flag is set (one in four) its lanes gather `data[idx[...]]`. The
/// chunk is an argument, so the walk's addresses are sampled too.
const WALK: &str = r#"__kernel void walk(__global const int *flags, __global const int *idx,
                   __global const float *data, __global float *out, int chunk)
{
    int w = get_global_id(0) / chunk;
    int lane = get_local_id(0) % 32;
    float acc = 0.0f;
    for (int v = w * 32; v < w * 32 + 32; v++) {
        if (flags[v] == 1)
            acc += data[idx[v * 32 + lane]];
    }
    out[get_global_id(0)] = acc;
}
"#;

/// GPGPU-Sim's GTX 480 (4-way sets, 32 of them). Two warps walk their flags: each enters
/// a new line once in its 32 steps (31 of 32 are L1 hits). The gather under the `if`
/// would take 32 lines a step as charged, which in the walk's set would evict its line;
/// as measured it takes, in the one step in four it runs, one line of `idx` and 32 of
/// `data`: 33 / 4 lines a warp's step, spread over 32 sets by the SM's two warps (about
/// half a line a set), beside the one walked line in a set. The walk's line stays.
#[test]
fn a_walk_keeps_its_lines_beside_loads_the_loop_runs_in_a_share_of_its_steps() {
    let arch = Architecture::load("gtx480").unwrap();
    let a = annotate_text(&arch, "walk.cl", WALK);
    let samples = a.sidecar.records.samples_of("walk");
    let walk = &samples
        .iter()
        .find(|(_, s)| s.line == 8)
        .expect("flags[v]")
        .1;
    // `data[...]` and `idx[...]` on line 9, a subscript each.
    let mut gathers: Vec<[u32; 2]> = samples
        .iter()
        .filter(|(_, s)| s.line == 9)
        .map(|(_, s)| [s.line, s.column])
        .collect();
    gathers.sort();
    assert_eq!(gathers.len(), 2, "{samples:?}");
    let mut peers = walk.loop_peers.clone();
    peers.sort();
    assert_eq!(peers, gathers, "the loop's sampled loads, measured");
    assert_eq!(walk.loop_lines, 0, "no other load is charged as it stands");

    let warps = 2;
    let items = warps * 32;
    // 8192 flags (32 KiB, more than the L1's 16 KiB): one in four set.
    let flags: Vec<i32> = (0..8192).map(|v| i32::from(v % 4 == 0)).collect();
    // Each lane's index scattered: a line a lane.
    let idx: Vec<i32> = (0..items as i32 * 32).map(|i| (i * 64) % 32768).collect();
    let data = vec![1.0f32; 32768];
    let args = vec![
        KernelArg::from_slice(&flags),
        KernelArg::from_slice(&idx),
        KernelArg::from_slice(&data),
        KernelArg::zeroed::<f32>(items),
        KernelArg::scalar(32i32),
    ];
    let sizes = [8192 * 4, idx.len() * 4, 32768 * 4, items * 4];
    let (buffers, measured) = one_group(&arch, &a, "walk", args, items, &sizes);
    let sums: Vec<f32> = from_bytes(&buffers[3]).unwrap();
    assert!(
        sums.iter().all(|&s| s == 8.0),
        "8 flags of 32 set: {sums:?}"
    );
    let at = |line: u32| {
        let i = samples.iter().position(|(_, s)| s.line == line).unwrap();
        measured[i].unwrap_or_else(|| panic!("line {line} ran"))
    };
    let walked = at(8);
    assert_eq!(walked.transactions, 1.0, "one address a warp");
    assert_eq!(walked.stream_hits, 31.0 / 32.0);
    assert_eq!(walked.executions, (warps * 32) as f64, "32 steps a warp");
    assert_eq!(walked.l1_share, walked.stream_hits, "its lines stay");
}

/// A row reached through a pointer variable whose offset is loaded (`row = in +
/// idx[gid]`, `alt = &in[idx[gid]]`), and a `__local` one the same way: the analysis cannot tell their lanes'
/// addresses, and their subscripts (`row[k]`, `t[0]`) are sampled at the addresses they
/// select, as a subscript of the parameter would be.
const POINTERS: &str = r#"__kernel void rows(__global const float *in, __global const int *idx,
                   __global const int *sidx, __global float *out)
{
    __local float tile[2048];
    int gid = get_global_id(0);
    for (int i = get_local_id(0); i < 2048; i += get_local_size(0))
        tile[i] = (float)i;
    barrier(CLK_LOCAL_MEM_FENCE);
    __global const float *row = in + idx[gid];
    __global const float *alt = &in[idx[gid]];
    __local float *t = tile + sidx[gid];
    out[gid] = row[0] + row[64] + alt[32] + t[0];
}
"#;

/// The lines and passes expected below, counted here from the indices: identity indices
/// give each warp 32 consecutive floats at `row[0]` (one line, four sectors) and 32
/// consecutive shared words (one pass); indices 32 floats apart give every lane its own
/// line, and shared words 32 apart all fall on one bank (32 passes). The outputs are what
/// the kernel computes without the shim.
#[test]
fn subscripts_of_pointer_variables_are_sampled_at_the_addresses_they_select() {
    const N: usize = 64;
    let arch = Architecture::load("gtx480").unwrap();
    let a = annotate_text(&arch, "pointers.cl", POINTERS);
    let samples = a.sidecar.records.samples_of("rows");
    let lines: Vec<(u32, u32)> = samples.iter().map(|(_, s)| (s.line, s.column)).collect();
    assert_eq!(
        samples.len(),
        4,
        "row[0], row[64], alt[32], t[0]: {lines:?}"
    );
    // `row` and `alt` read the first parameter's buffer (whether it fits the L1 is known
    // at the launch); `t` a `__local` array, no parameter.
    let params: Vec<Option<u32>> = samples.iter().map(|(_, s)| s.param).collect();
    assert_eq!(params, [Some(0), Some(0), Some(0), None]);
    let input: Vec<f32> = (0..N * 32 + 64).map(|i| i as f32).collect();
    let sizes = [input.len() * 4, N * 4, N * 4, N * 4];
    let measure = |idx: &[i32], sidx: &[i32]| {
        let args = vec![
            KernelArg::from_slice(&input),
            KernelArg::from_slice(idx),
            KernelArg::from_slice(sidx),
            KernelArg::zeroed::<f32>(N),
        ];
        let (buffers, measured) = one_group(&arch, &a, "rows", args, N, &sizes);
        let out: Vec<f32> = from_bytes(&buffers[3]).unwrap();
        let expected: Vec<f32> = (0..N)
            .map(|g| {
                let (i, s) = (idx[g] as usize, sidx[g] as usize);
                input[i] + input[i + 64] + input[i + 32] + s as f32
            })
            .collect();
        assert_eq!(out, expected);
        measured
            .into_iter()
            .map(|m| m.expect("every lane ran it"))
            .map(|m| (m.transactions, m.sectors))
            .collect::<Vec<_>>()
    };
    let identity: Vec<i32> = (0..N as i32).collect();
    assert_eq!(
        measure(&identity, &identity),
        [(1.0, 4.0), (1.0, 4.0), (1.0, 4.0), (1.0, 0.0)]
    );
    let spread: Vec<i32> = (0..N as i32).map(|i| i * 32).collect();
    let column: Vec<i32> = (0..N as i32).map(|i| (i % 32) * 32).collect();
    assert_eq!(
        measure(&spread, &column),
        [(32.0, 32.0), (32.0, 32.0), (32.0, 32.0), (32.0, 0.0)]
    );
}
