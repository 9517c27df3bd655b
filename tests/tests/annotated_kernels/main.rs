//! Annotated kernels on PoCL, side by side with the originals on the same inputs: the
//! outputs are bit-identical, every work-item's record is filled, and each work-item's
//! time is what the pair-time formula gives along the PTX path it takes, computed here
//! from the analysis tables and the known control flow (not from the annotator's path
//! tables).

use std::path::Path;

use annotator::analysis::blocks::FunctionAnalysis;
use annotator::annotate::{annotate_file, Annotation};
use annotator::back::host_paths::PathLaunch;
use annotator::front::compile::{BuildOptions, Compiler};
use kernel_runner::{record_args, run_kernel, KernelArg, NdRange};
use pipeline_model::records::{KEPT_NARROW, SAMPLE_FIRST, SAMPLE_LAST, SAMPLE_RUNS};
use pipeline_model::sampling::{timing_records, warp_records, SampledLaunch};
use pipeline_model::{estimate, Architecture, Grain, KernelResources, Records};

fn example(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/kernels")
        .join(name)
}

fn annotate(name: &str) -> Annotation {
    let compiler = Compiler::locate().expect("clang 19");
    annotate_file(
        &compiler,
        &example(name),
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Annotates the kernel file `name` with text `src` (written to a temporary directory),
/// and returns the analysis and PTX too, for tests that look at the compiled code.
fn annotate_source(
    name: &str,
    src: &str,
) -> (
    Annotation,
    annotator::analysis::blocks::Analysis,
    annotator::front::ptx::Module,
) {
    let dir = std::env::temp_dir().join(format!("srcsim-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::default_arch();
    let a = annotate_file(&compiler, &path, &BuildOptions::default(), &arch)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (analysis, module) = annotator::analysis::blocks::analyze_file(
        &compiler,
        &path,
        &BuildOptions::default(),
        &arch,
    )
    .unwrap();
    (a, analysis, module)
}

struct Both {
    original: Vec<Vec<u8>>,
    annotated: Vec<Vec<u8>>,
    records: Vec<u64>,
    stride: usize,
}

impl Both {
    fn t(&self, work_item: usize) -> u64 {
        self.records[work_item * self.stride]
    }

    /// Asserts that work-items `0..items` take times that grow by one positive step each
    /// (where each runs one more trip of the same loop than the one before).
    fn assert_t_grows_evenly(&self, items: usize, name: &str) {
        let steps: Vec<u64> = (1..items).map(|w| self.t(w) - self.t(w - 1)).collect();
        assert!(steps[0] > 0, "{name}: {steps:?}");
        assert!(steps.iter().all(|&s| s == steps[0]), "{name}: {steps:?}");
    }
}

/// Runs `kernel` of example `name` and its annotated version on the same arguments.
fn run_both(
    name: &str,
    kernel: &str,
    args: Vec<KernelArg>,
    range: NdRange,
    a: &Annotation,
) -> Both {
    let source = std::fs::read_to_string(example(name)).unwrap();
    run_source_both(name, &source, kernel, args, range, a)
}

/// Runs `kernel` of `source` and its annotated version `a` on the same arguments: the
/// outputs must be identical and every work-item must have written its record.
fn run_source_both(
    name: &str,
    source: &str,
    kernel: &str,
    args: Vec<KernelArg>,
    range: NdRange,
    a: &Annotation,
) -> Both {
    let original = run_kernel(source, "", kernel, &args, &range)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .buffers;
    let items: usize = range.global[..range.work_dim as usize].iter().product();
    let stride = a.sidecar.records.stride;
    let mut timed_args = args.clone();
    timed_args.extend(record_args(&a.sidecar, kernel, &range, Grain::WorkItem).args);
    let out = run_kernel(&a.source, "", kernel, &timed_args, &range)
        .unwrap_or_else(|e| panic!("{name} annotated: {e}\n{}", a.source));
    let mut annotated = out.buffers;
    let records = kernel_runner::from_bytes::<u64>(&annotated.pop().unwrap()).unwrap();
    assert_eq!(original.len(), annotated.len());
    for (i, (o, t)) in original.iter().zip(&annotated).enumerate() {
        if let Some(at) = o.iter().zip(t).position(|(a, b)| a != b) {
            panic!(
                "{name}: buffer {i} differs from byte {at} on: the annotated kernel computes \
                 something else\n{}",
                a.source
            );
        }
    }
    for w in 0..items {
        assert!(
            records[w * stride] > 0,
            "{name}: work-item {w} wrote no record"
        );
        assert!(
            records[w * stride + 1] > 0,
            "{name}: work-item {w} issued nothing"
        );
    }
    in_warps_alike(name, kernel, args, &range, a, &original, &records);
    Both {
        original,
        annotated,
        records,
        stride,
    }
}

/// Where `kernel` can reduce its records to warps and the launch gives whole work-groups:
/// run so, the annotated kernel computes what the original does, and its warp records
/// give the estimate that its work-items' `records` give. A kernel with sampled accesses
/// keeps the lanes that ran one whole (`KeptLanes`): its masks mark exactly them, its
/// kept records are theirs, its warp records are the other lanes' reduced, and the model
/// corrects the kept lanes and folds them into the warps to the estimate (and the
/// measured accesses) of the work-items' records corrected.
#[allow(clippy::too_many_arguments)] // the launch, both runs' outputs
fn in_warps_alike(
    name: &str,
    kernel: &str,
    args: Vec<KernelArg>,
    range: &NdRange,
    a: &Annotation,
    original: &[Vec<u8>],
    records: &[u64],
) {
    let has_copy = a
        .sidecar
        .kernels
        .iter()
        .any(|k| k.name == kernel && k.warp_records);
    let Some(local) = range.local else { return };
    let dims = range.work_dim as usize;
    if !has_copy || (0..dims).any(|d| !range.global[d].is_multiple_of(local[d])) {
        return;
    }
    let arch = Architecture::default_arch();
    let layout = &a.sidecar.records;
    let samples = layout.samples_of(kernel);
    let grain = Grain::Warp {
        warp_size: arch.warp_size,
        sampled: !samples.is_empty(),
    };
    let twin = record_args(&a.sidecar, kernel, range, grain);
    let mut warp_args = args;
    warp_args.extend(twin.args);
    let mut out = run_kernel(&a.source, &twin.options, &twin.kernel, &warp_args, range)
        .unwrap_or_else(|e| panic!("{name} annotated, in warps: {e}"));
    let warps = kernel_runner::from_bytes::<u64>(&out.buffers.pop().unwrap()).unwrap();
    assert!(
        out.buffers == original,
        "{name}: in warps, the annotated kernel computes something else"
    );
    let geometry = range.geometry();
    let format = layout.format;
    let width = format.timing_width();
    // Lanes that ran a sampled access (none where the kernel has none).
    let ran = |r: &[u64]| samples.iter().any(|(slot, _)| r[slot + SAMPLE_RUNS] > 0);
    let items: Vec<&[u64]> = records.chunks_exact(layout.stride).collect();
    // The timing values of each work-item's record, the kept lanes' left out (zero: a
    // reduction's maxima and sums are then the other lanes'). The file's other kernels may
    // have sampled accesses, whose counters follow in every record.
    let timing: Vec<u64> = items
        .iter()
        .flat_map(|r| {
            let kept = ran(r);
            r[..width].iter().map(move |&v| if kept { 0 } else { v })
        })
        .collect();
    let memory = arch.memory_side_resource();
    let reduced = reduce_whole_groups(&timing, range, width, format.arms, memory, arch.warp_size);
    if samples.is_empty() {
        assert!(
            warps == reduced,
            "{name}: the device's warp records are not its work-items' reduced"
        );
        if let Some(evaluated) = host_evaluated(a, kernel, &args_of(&warp_args), range, &arch) {
            assert!(
                evaluated == warps,
                "{name}: the warp records evaluated on the host are not the device's"
            );
        }
        same_estimate(name, &arch, &geometry, layout, &timing, &warps, grain);
        return;
    }
    // Kept lanes: each group's marked lanes in local linear id order, warp by warp.
    let kept_layout = geometry.kept_lanes(&format, arch.warp_size);
    let (mut masks, mut kept) = (Vec::new(), Vec::new());
    // Every value a record keeps fits in 32 bits: the timing values and executions below
    // 2^32, the sampled indices (signed) within 32 bits.
    let fits = |r: &[u64]| {
        let unsigned = (0..width).chain(samples.iter().map(|(slot, _)| slot + SAMPLE_RUNS));
        let signed = samples
            .iter()
            .flat_map(|(slot, _)| [slot + SAMPLE_FIRST, slot + SAMPLE_LAST]);
        unsigned.into_iter().all(|v| r[v] >> 32 == 0)
            && signed
                .into_iter()
                .all(|v| i32::try_from(r[v] as i64).is_ok())
    };
    for (g, ids) in group_ids(range).into_iter().enumerate() {
        let mut narrow = None;
        for warp in ids.chunks(arch.warp_size as usize) {
            let mut mask = 0u64;
            for (l, &id) in warp.iter().enumerate() {
                if ran(items[id]) {
                    mask |= 1 << l;
                    kept.extend_from_slice(items[id]);
                    narrow = Some(narrow.unwrap_or(true) && fits(items[id]));
                }
            }
            masks.push(mask);
        }
        // A group that kept a lane: its part's header says whether its records are in 32
        // bits, which they are where every value fits.
        if let Some(narrow) = narrow {
            let part = kept_layout.region() + warps[kept_layout.offsets().start + g] as usize;
            assert_eq!(
                warps[part] == KEPT_NARROW,
                narrow,
                "{name}: work-group {g}'s kept lanes in 32 bits"
            );
        }
    }
    assert!(
        masks.iter().any(|&m| m != 0),
        "{name}: no lane ran a sampled access"
    );
    assert_eq!(
        &warps[..kept_layout.masks().start],
        &reduced[..],
        "{name}: the device's warp records are not its other lanes' reduced"
    );
    assert_eq!(&warps[kept_layout.masks()], &masks[..], "{name}: the masks");
    let tail = &warps[kept_layout.masks().start..];
    let mut runs: Vec<u64> = Vec::new();
    kept_layout.visit(tail, |_, _, kept| runs.extend_from_slice(kept));
    assert_eq!(runs, kept, "{name}: the kept lanes");
    let buffer_bytes = |_: u32| None;
    let launch = SampledLaunch {
        arch: &arch,
        geometry: &geometry,
        resources: &KERNEL_RESOURCES,
        buffer_bytes: &buffer_bytes,
        usage_scale: layout.usage_scale,
    };
    let (corrected, measured_by_item) = timing_records(records, &format, &samples, &launch);
    let (in_warps, measured_in_warps) = warp_records(&warps, &format, &samples, &launch);
    // The shim's correction, in the records themselves, comes to the same.
    let mut in_place = warps.clone();
    let (len, measured_in_place) = launch.correct_warps(&samples, &mut in_place, &format);
    assert_eq!(
        &in_place[..len],
        &in_warps[..],
        "{name}: corrected in place"
    );
    assert_eq!(
        measured_in_place, measured_in_warps,
        "{name}: measured in place"
    );
    assert_eq!(
        measured_by_item, measured_in_warps,
        "{name}: what the warps did"
    );
    same_estimate(name, &arch, &geometry, layout, &corrected, &in_warps, grain);
}

/// The resources the estimates of [`in_warps_alike`] take the kernel to use.
const KERNEL_RESOURCES: KernelResources = KernelResources {
    registers_per_work_item: 32,
    local_memory_bytes: 0,
    global_memory_bytes: Some(1 << 20),
    read_memory_bytes: None,
    code_instructions: 0,
    arm_code: pipeline_model::ArmCode::NONE,
    first_round_warp_bytes: None,
    frame_bytes: 0,
    l1_sharing: None,
};

/// The estimate of a launch of `geometry` from its work-items' timing values `items` and
/// from its warps' records `warps` (of `grain`) are one, and an estimate.
fn same_estimate(
    name: &str,
    arch: &Architecture,
    geometry: &pipeline_model::LaunchGeometry,
    layout: &annotator::back::records::RecordLayout,
    items: &[u64],
    warps: &[u64],
    grain: Grain,
) {
    let format = layout.format.timing_only();
    let by_item = estimate(
        arch,
        geometry,
        &KERNEL_RESOURCES,
        &Records::per_work_item(items, format, layout.usage_scale),
    );
    let in_warps = Records {
        data: warps,
        format,
        usage_scale: layout.usage_scale,
        grain,
        shared: None,
    };
    let by_warp = estimate(arch, geometry, &KERNEL_RESOURCES, &in_warps);
    assert_eq!(
        by_item, by_warp,
        "{name}: the warp records estimate otherwise"
    );
    assert!(by_item.is_ok(), "{name}: {by_item:?}");
}

/// Per work-group of a launch of whole groups (linear, x fastest), its work-items'
/// linear global ids in local linear id order.
fn group_ids(range: &NdRange) -> Vec<Vec<usize>> {
    let (global, local) = (range.global, range.local.unwrap_or([1; 3]));
    let groups: Vec<usize> = (0..3).map(|d| global[d] / local[d]).collect();
    (0..groups.iter().product::<usize>())
        .map(|g| {
            let (bx, by, bz) = (
                g % groups[0],
                g / groups[0] % groups[1],
                g / (groups[0] * groups[1]),
            );
            let mut ids = Vec::new();
            for z in 0..local[2] {
                for y in 0..local[1] {
                    for x in 0..local[0] {
                        let id = ((bz * local[2] + z) * global[1] + by * local[1] + y) * global[0]
                            + bx * local[0]
                            + x;
                        ids.push(id);
                    }
                }
            }
            ids
        })
        .collect()
}

/// The by-value arguments' bytes, by position.
fn args_of(args: &[KernelArg]) -> Vec<Option<Vec<u8>>> {
    args.iter()
        .map(|a| match a {
            KernelArg::Scalar(bytes) => Some(bytes.clone()),
            _ => None,
        })
        .collect()
}

/// The warp records of a launch of `kernel` evaluated on the host
/// (`annotator::back::host_paths`), every work-group's at its own place, where the annotation
/// has the kernel's skeleton and the launch's cells each take one path.
fn host_evaluated(
    a: &Annotation,
    kernel: &str,
    args: &[Option<Vec<u8>>],
    range: &NdRange,
    arch: &Architecture,
) -> Option<Vec<u64>> {
    let paths = a
        .sidecar
        .kernels
        .iter()
        .find(|k| k.name == kernel)?
        .host_paths
        .as_ref()?;
    let values: Vec<Option<&[u8]>> = args.iter().map(|a| a.as_deref()).collect();
    let geometry = range.geometry();
    let launch = PathLaunch {
        work_dim: range.work_dim,
        global: geometry.global,
        local: geometry.local,
        offset: [0; 3],
        args: &values,
    };
    let cells = paths.cells(&launch)?;
    let (mut shared, mut places) = (Vec::new(), Vec::new());
    let warp_size = u64::from(arch.warp_size);
    cells.warp_records(paths, &launch, warp_size, &mut shared, &mut places);
    let per_group = geometry.work_group_size().div_ceil(warp_size) as usize * paths.warp_stride();
    Some(
        places
            .iter()
            .flat_map(|&p| &shared[p as usize * per_group..][..per_group])
            .copied()
            .collect(),
    )
}

/// The warp records of work-item records `items` (`[t, use.., arm..]`, `width` values, in
/// linear global id order) of a launch of whole work-groups, reduced as the model reads
/// them: per work-group (x fastest) its local linear ids in runs of `warp_size`, each
/// `[max(t - arms), max t, max of every other value, sum of use[memory]]`.
fn reduce_whole_groups(
    items: &[u64],
    range: &NdRange,
    width: usize,
    arms: usize,
    memory: Option<usize>,
    warp_size: u32,
) -> Vec<u64> {
    let (global, local) = (range.global, range.local.unwrap_or([1; 3]));
    let groups: Vec<u64> = (0..3).map(|d| (global[d] / local[d]) as u64).collect();
    let mut out = Vec::new();
    for g in 0..groups.iter().product::<u64>() {
        let (bx, by, bz) = (
            g % groups[0],
            g / groups[0] % groups[1],
            g / (groups[0] * groups[1]),
        );
        let mut lanes = Vec::new();
        for z in 0..local[2] as u64 {
            for y in 0..local[1] as u64 {
                for x in 0..local[0] as u64 {
                    let (gx, gy) = (global[0] as u64, global[1] as u64);
                    let id = ((bz * local[2] as u64 + z) * gy + by * local[1] as u64 + y) * gx
                        + bx * local[0] as u64
                        + x;
                    lanes.push(&items[id as usize * width..][..width]);
                }
            }
        }
        // A lane: [t, use.., arm cycles.., entries.., decisions..]; a warp: [outside,
        // t_max, max use.., max cycles.., sum cycles.., sum entries.., max decisions..,
        // sum of use[memory]].
        let uses = width - 1 - 3 * arms;
        for warp in lanes.chunks(warp_size as usize) {
            let mut rec = vec![0u64; 3 + uses + 4 * arms];
            for lane in warp {
                let arm_sum: u64 = lane[1 + uses..1 + uses + arms].iter().sum();
                rec[0] = rec[0].max(lane[0].saturating_sub(arm_sum));
                rec[1] = rec[1].max(lane[0]);
                for v in 0..uses {
                    rec[2 + v] = rec[2 + v].max(lane[1 + v]);
                }
                for a in 0..arms {
                    let at = 2 + uses + a;
                    let cycles = lane[1 + uses + a];
                    rec[at] = rec[at].max(cycles);
                    rec[at + arms] += cycles;
                    rec[at + 2 * arms] += lane[1 + uses + arms + a];
                    rec[at + 3 * arms] = rec[at + 3 * arms].max(lane[1 + uses + 2 * arms + a]);
                }
                if let Some(m) = memory {
                    rec[2 + uses + 4 * arms] += lane[1 + m];
                }
            }
            out.extend(rec);
        }
    }
    out
}

fn kernel<'a>(a: &'a Annotation, name: &str) -> &'a FunctionAnalysis {
    a.sidecar
        .analysis
        .kernels
        .iter()
        .find(|k| k.name == name)
        .unwrap()
}

/// t of a PTX path by the pair-time formula: t_v0 + sum (t_(v_{i-1},v_i) - t_v_{i-1}).
fn path_time(k: &FunctionAnalysis, path: &[usize]) -> u64 {
    let t = |b: usize| k.blocks[b].cycles;
    let pair = |a: usize, b: usize| {
        k.edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .unwrap_or_else(|| panic!("B{a} -> B{b} is no edge of {}", k.name))
            .cycles
    };
    let mut total = t(path[0]);
    for w in path.windows(2) {
        total += pair(w[0], w[1]) - t(w[0]);
    }
    total
}

/// The only successor of `b` other than `not`.
fn other_successor(k: &FunctionAnalysis, b: usize, not: usize) -> usize {
    *k.blocks[b].successors.iter().find(|&&s| s != not).unwrap()
}

mod barrier_branches;
mod branches;
mod divisions;
mod examples;
mod loop_paths;
mod loop_shapes;
mod prototypes_and_macros;
mod unrolled_loops;
mod warps_and_groups;

/// Random structured kernels, annotated with and without the profile, run side by side
/// with the original on PoCL. The generator mixes what the annotator must fold or count:
/// if/else, loops with break and continue, switch with fall-through, `?:` and `&&`, a
/// helper call, early returns, signed and unsigned 64-bit `/` and `%` on data-dependent
/// values (the compiler splits each into a 32-bit and a 64-bit arm), and `for`, `while`
/// and `do` loops, nested, behind `#pragma unroll`, `#pragma unroll N`,
/// `#pragma nounroll` or `opencl_unroll_hint(N)`, with constant trip counts (0 included)
/// and trip counts read from the inputs.
mod random;
