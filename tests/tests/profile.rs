//! Profiled annotation on PoCL: the profiled kernel computes what the original computes,
//! each source block's executions equal counts known from the kernel's code and its
//! inputs (loop trip counts, branches taken by a known set of work-items), and each
//! work-item's per-block cycles sum exactly to its `t`; the blocks' cycles divided over
//! source lines are those computed from the analysis' block timelines.

use std::path::Path;

use annotator::annotate::{annotate_file_with, AnnotateOptions, Annotation};
use annotator::back::sidecar::ProfileLayout;
use annotator::front::compile::{BuildOptions, Compiler};
use kernel_runner::{record_args, run_kernel, KernelArg, NdRange};
use pipeline_model::{Architecture, Grain};

/// Annotates `src` (written to a temporary file `name`) with or without the profile.
fn annotate(name: &str, src: &str, profile: bool) -> Annotation {
    let dir = std::env::temp_dir().join(format!("srcsim-profile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let compiler = Compiler::locate().expect("clang 19");
    annotate_file_with(
        &compiler,
        &path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
        AnnotateOptions { profile },
    )
    .unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// One profiled run: every work-item's record.
struct Profiled {
    records: Vec<u64>,
    stride: usize,
    layout: ProfileLayout,
    source: String,
}

impl Profiled {
    fn record(&self, w: usize) -> &[u64] {
        &self.records[w * self.stride..(w + 1) * self.stride]
    }

    /// The slot of the block whose first statement or expression starts at `snippet`
    /// (the `nth` occurrence, from 0) in the source.
    fn slot_at(&self, snippet: &str, nth: usize) -> usize {
        let offset = self
            .source
            .match_indices(snippet)
            .nth(nth)
            .unwrap_or_else(|| panic!("`{snippet}` not in the source"))
            .0;
        let before = &self.source[..offset];
        let line = before.matches('\n').count() as u32 + 1;
        let column = (offset - before.rfind('\n').map_or(0, |n| n + 1)) as u32 + 1;
        self.layout
            .blocks
            .iter()
            .position(|b| b.line == line && b.column == column)
            .unwrap_or_else(|| {
                panic!(
                    "no profiled block starts at {line}:{column} (`{snippet}`): {:?}",
                    self.layout.blocks
                )
            })
    }

    /// Work-item `w`'s (executions, cycles, instructions) of `slot`.
    fn counters(&self, w: usize, slot: usize) -> [u64; 3] {
        let at = self.layout.offset + 3 * slot;
        let r = self.record(w);
        [r[at], r[at + 1], r[at + 2]]
    }

    fn executions(&self, w: usize, snippet: &str) -> u64 {
        self.counters(w, self.slot_at(snippet, 0))[0]
    }
}

/// Runs the original `src` and its profiled annotation on the same arguments; the outputs
/// must be identical, the record layout without profile unchanged, and every work-item's
/// per-block cycles must sum to its `t`.
fn run_profiled(
    name: &str,
    src: &str,
    kernel: &str,
    args: Vec<KernelArg>,
    range: NdRange,
) -> Profiled {
    let plain = annotate(name, src, false);
    let a = annotate(name, src, true);
    // t, the usage, then a counter per divergent arm, then the profile's.
    let arms = |a: &Annotation| {
        let fields = &a.sidecar.records.fields;
        let arms = fields.iter().filter(|f| f.starts_with("arm")).count();
        assert!(fields.iter().rev().take(arms).all(|f| f.starts_with("arm")));
        arms
    };
    let resources = a.sidecar.analysis.resources.len() + arms(&a);
    assert_eq!(arms(&plain), arms(&a));
    // Then the sampled accesses' counters, the same in both modes.
    let sampled = |a: &Annotation| {
        a.sidecar.records.samples.as_ref().map_or(0, |s| {
            s.accesses.len() * pipeline_model::records::SAMPLE_COUNTERS
        })
    };
    assert_eq!(sampled(&plain), sampled(&a));
    let plain_stride = plain.sidecar.records.stride;
    assert_eq!(plain_stride, 1 + resources + sampled(&plain));
    assert!(plain.sidecar.records.profile.is_none());
    let layout = a.sidecar.records.profile.clone().expect("a profile layout");
    assert_eq!(layout.offset, 1 + resources);
    assert_eq!(
        a.sidecar.records.stride,
        1 + resources + 3 * layout.blocks.len() + 2 * layout.extra_counters + sampled(&a)
    );

    let original = run_kernel(src, "", kernel, &args, &range)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .buffers;
    let items: usize = range.global[..range.work_dim as usize].iter().product();
    let stride = a.sidecar.records.stride;
    let run_annotated = |a: &Annotation, stride: usize| {
        let mut timed_args = args.clone();
        let records = record_args(&a.sidecar, kernel, &range, Grain::WorkItem).args;
        assert!(matches!(&records[0], KernelArg::Buffer(b) if b.len() == items * stride * 8));
        timed_args.extend(records);
        let mut out = run_kernel(&a.source, "", kernel, &timed_args, &range)
            .unwrap_or_else(|e| panic!("{name} annotated: {e}\n{}", a.source))
            .buffers;
        let records = kernel_runner::from_bytes::<u64>(&out.pop().unwrap()).unwrap();
        (out, records)
    };
    let (outputs, records) = run_annotated(&a, stride);
    assert_eq!(
        original, outputs,
        "{name}: the profiled kernel computes something else\n{}",
        a.source
    );
    // The profile changes no timing: t and usage are those of the plain annotation.
    let (_, plain_records) = run_annotated(&plain, plain_stride);
    let p = Profiled {
        records,
        stride,
        layout,
        source: src.to_string(),
    };
    for w in 0..items {
        let r = p.record(w);
        assert_eq!(
            &r[..=resources],
            &plain_records[w * plain_stride..][..=resources],
            "{name}: work-item {w}: the profile changed t or the usage"
        );
        let cycles: u64 = (0..p.layout.blocks.len())
            .map(|s| p.counters(w, s)[1])
            .sum();
        assert!(r[0] > 0, "{name}: work-item {w} has no time");
        assert_eq!(
            cycles, r[0],
            "{name}: work-item {w}: per-block cycles do not sum to t"
        );
        for s in 0..p.layout.blocks.len() {
            let [executions, cycles, instructions] = p.counters(w, s);
            if executions == 0 {
                assert_eq!(
                    instructions, 0,
                    "{name}: work-item {w}: block {s} never ran yet has instructions"
                );
            }
            if instructions == 0 {
                assert_eq!(cycles, 0, "{name}: cycles without instructions");
            }
        }
    }
    p
}

#[test]
fn loop_trip_counts_and_a_branch_taken_by_half_the_work_items() {
    let src = "\
__kernel void profiled(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float acc = 0.0f;
    for (int k = 0; k < i % 5 + 1; k++) {
        acc += in[i] * (float)k;
    }
    if (i % 2 == 0) {
        acc = acc * 2.0f;
    }
    out[i] = acc;
}
";
    let input: Vec<f32> = (0..96).map(|i| i as f32 * 0.5).collect();
    let p = run_profiled(
        "profiled.cl",
        src,
        "profiled",
        vec![KernelArg::from_slice(&input), KernelArg::zeroed::<f32>(96)],
        NdRange::d1(96).with_local([32, 1, 1]),
    );
    for w in 0..96u64 {
        let trips = w % 5 + 1;
        let w = w as usize;
        assert_eq!(p.executions(w, "int i = get_global_id(0)"), 1, "entry");
        assert_eq!(p.executions(w, "acc += in[i]"), trips, "loop body");
        assert_eq!(p.executions(w, "k < i % 5 + 1"), trips + 1, "condition");
        assert_eq!(p.executions(w, "k++"), trips, "increment");
        let even = u64::from(w.is_multiple_of(2));
        assert_eq!(p.executions(w, "acc = acc * 2.0f"), even, "then");
        assert_eq!(p.executions(w, "out[i] = acc"), 1, "after the if");
    }
    // Lines: the `for` header holds the init (entry block), the condition and the
    // increment; the loop body is on its own line.
    let body = &p.layout.blocks[p.slot_at("acc += in[i]", 0)];
    assert_eq!(body.lines, vec![6]);
    let entry = &p.layout.blocks[p.slot_at("int i = get_global_id(0)", 0)];
    assert_eq!(entry.lines, vec![3, 4, 5]);
}

#[test]
fn early_returns_and_an_inlined_helper() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/helper_early_return.cl"),
    )
    .unwrap();
    let n = 300usize;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.1 - 5.0).collect();
    let p = run_profiled(
        "helper_early_return.cl",
        &src,
        "helper_early_return",
        vec![
            KernelArg::from_slice(&input),
            KernelArg::zeroed::<f32>(n),
            KernelArg::scalar(n as i32),
            KernelArg::scalar(1.0f32),
            KernelArg::scalar(20.0f32),
        ],
        NdRange::d1(320).with_local([32, 1, 1]),
    );
    let negative = |w: usize| w < n && input[w] < 0.0;
    let mut totals = [0u64; 3];
    for w in 0..320 {
        let past_end = u64::from(w >= n);
        let neg = u64::from(negative(w));
        let rest = u64::from(w < n && !negative(w));
        // `if (i >= n) return;`: the lone return is a block of its own.
        assert_eq!(p.executions(w, "return;\n    float x"), past_end, "w={w}");
        assert_eq!(p.executions(w, "float x = in[i]"), 1 - past_end, "w={w}");
        assert_eq!(p.executions(w, "out[i] = 0.0f"), neg, "w={w}");
        assert_eq!(p.executions(w, "out[i] = smoothstep01"), rest, "w={w}");
        // The helper's body runs once per call.
        assert_eq!(p.executions(w, "float t = clamp"), rest, "w={w}");
        totals[0] += past_end;
        totals[1] += neg;
        totals[2] += rest;
    }
    // The input's known split: 20 past the end, 50 negative, 250 on through the helper.
    assert_eq!(totals, [20, 50, 250]);
}

#[test]
fn a_called_function_with_an_unrolled_loop() {
    let src = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/private_array_call.cl"),
    )
    .unwrap();
    let data: Vec<f32> = (0..64 * 16).map(|i| (i % 13) as f32 * 0.25).collect();
    for degree in [0u64, 6, 13] {
        let p = run_profiled(
            "private_array_call.cl",
            &src,
            "private_array_call",
            vec![
                KernelArg::from_slice(&data),
                KernelArg::scalar(degree as i32),
                KernelArg::scalar(5i32),
            ],
            NdRange::d1(64).with_local([32, 1, 1]),
        );
        for w in 0..64 {
            assert_eq!(p.executions(w, "float acc = 0.0f"), 1, "horner's entry");
            assert_eq!(
                p.executions(w, "acc = acc * x"),
                degree,
                "horner's loop body"
            );
            assert_eq!(p.executions(w, "window[i] = data"), 16, "the kernel's loop");
            assert_eq!(p.executions(w, "data[gid * 16] = horner"), 1);
        }
    }
}

/// Found by the random-kernel property test: the compiler folds a loop of one iteration
/// into the `do` loop around it and unrolls the two as one loop (8 copies and a
/// remainder), which the annotator counts at the inner loop's body. The `do` body and
/// condition time nothing; profiled, they only count, and must not settle the unrolled
/// loop at every outer iteration (which charged n remainder iterations instead of n / 8
/// unrolled and n % 8 remainder ones, and changed t).
#[test]
fn profile_leaves_the_time_of_a_loop_unrolled_across_an_outer_do_loop_alone() {
    let src = "\
__kernel void merged(__global long *out, __global const int *trips, __global const long *big)
{
    int gid = get_global_id(0);
    int n = trips[gid];
    long wide = big[gid % 4];
    int d = 0;
    do {
        for (int i = 0, e = 1; i < e; i++) {
            wide = wide / ((long)(gid % 7) - 9);
        }
    } while (++d < n);
    out[gid] = wide;
}
";
    let a = annotate("merged.cl", src, true);
    let unrolled = &a.sidecar.kernels[0].unrolled;
    assert_eq!(
        unrolled.len(),
        1,
        "one unrolled loop expected: {unrolled:?}"
    );
    assert!(unrolled[0].shape.is_some());
    let items = 64usize;
    let trips: Vec<i32> = (0..items as i32).map(|i| i % 19).collect();
    let big = [3i64, 5_000_000_000, -7, 1 << 40];
    let p = run_profiled(
        "merged.cl",
        src,
        "merged",
        vec![
            KernelArg::zeroed::<i64>(items),
            KernelArg::from_slice(&trips),
            KernelArg::from_slice(&big),
        ],
        NdRange::d1(items).with_local([32, 1, 1]),
    );
    for (w, &n) in trips.iter().enumerate() {
        let iterations = n.max(1) as u64;
        assert_eq!(p.executions(w, "int gid"), 1, "entry");
        assert_eq!(p.executions(w, "wide = wide /"), iterations, "w={w}");
    }
}

#[test]
fn cycles_divide_over_lines_as_the_block_timelines_say() {
    // Three PTX blocks, all timed: B0 (lines 2 to 6: the index, the load, the multiply
    // and add, the test), B1 (line 7: a division and a store, taken by even work-items),
    // B2 (lines 9 and 10: a store and the return). The two stores never meet: a kernel
    // whose work-groups wrote the same element would give outputs that depend on their order.
    let src = "\
__kernel void lines(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    float x = in[i];
    float y = x * x + 1.0f;
    if (i % 2 == 0) {
        out[i] = y / x;
    }
    out[i + 128] = y;
}
";
    let items = 128usize;
    let input: Vec<f32> = (0..items).map(|i| i as f32 + 0.5).collect();
    let p = run_profiled(
        "lines.cl",
        src,
        "lines",
        vec![
            KernelArg::from_slice(&input),
            KernelArg::zeroed::<f32>(items + 128),
        ],
        NdRange::d1(items).with_local([64, 1, 1]),
    );

    // Independently, from the analysis (what `srcsim analyze --json` prints) and the
    // blocks' timelines (`--timeline`): every instruction owes the cycles by which its
    // write-back moves the block's end; an instruction with no line goes with the
    // nearest positioned one before it, else after it.
    let dir = std::env::temp_dir().join(format!("srcsim-profile-{}", std::process::id()));
    let path = dir.join("lines.cl");
    let arch = Architecture::default_arch();
    let compiler = Compiler::locate().expect("clang 19");
    let (analysis, module) = annotator::analysis::blocks::analyze_file(
        &compiler,
        &path,
        &BuildOptions::default(),
        &arch,
    )
    .unwrap();
    let k = &analysis.kernels[0];
    assert_eq!(k.blocks.len(), 3, "B0, B1, B2 expected");
    let f = module.function("lines").unwrap();
    let fractions: Vec<Vec<(u32, f64)>> = (0..3)
        .map(|b| {
            let t = annotator::analysis::blocks::timeline(&module, f, b, &arch);
            let mut lines: Vec<u32> = t.rows.iter().map(|r| r.line).collect();
            for i in 0..lines.len() {
                if lines[i] == 0 {
                    let before = lines[..i].iter().rev().find(|&&l| l > 0);
                    let after = t.rows[i..].iter().map(|r| r.line).find(|&l| l > 0);
                    lines[i] = before.copied().or(after).unwrap_or(0);
                }
            }
            let (mut end, mut owed) = (0u64, Vec::<(u32, f64)>::new());
            for (row, &line) in t.rows.iter().zip(&lines) {
                let add = row.starts[4].saturating_sub(end);
                end = end.max(row.starts[4]);
                match owed.iter_mut().find(|(l, _)| *l == line) {
                    Some(o) => o.1 += add as f64,
                    None => owed.push((line, add as f64)),
                }
            }
            assert_eq!(end, t.cycles);
            owed.into_iter()
                .map(|(l, c)| (l, c / t.cycles as f64))
                .collect()
        })
        .collect();
    let t_b = |b: usize| k.blocks[b].cycles;
    let pair = |a: usize, b: usize| {
        k.edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .unwrap()
            .cycles
    };
    let mut expected: std::collections::BTreeMap<u32, f64> = Default::default();
    let mut total = 0u64;
    for w in 0..items {
        // The steps a work-item runs: B0 alone, then each block after the previous.
        let steps: Vec<(usize, u64)> = if w % 2 == 0 {
            vec![
                (0, t_b(0)),
                (1, pair(0, 1) - t_b(0)),
                (2, pair(1, 2) - t_b(1)),
            ]
        } else {
            vec![(0, t_b(0)), (2, pair(0, 2) - t_b(0))]
        };
        for (b, cost) in steps {
            total += cost;
            for &(line, fraction) in &fractions[b] {
                *expected.entry(line).or_default() += cost as f64 * fraction;
            }
        }
    }
    let t_sum: u64 = (0..items).map(|w| p.record(w)[0]).sum();
    assert_eq!(t_sum, total, "the work-items' t");

    let mut got: std::collections::BTreeMap<u32, f64> = Default::default();
    for b in p.layout.block_totals(&p.records, p.stride) {
        for l in b.lines {
            *got.entry(l.line).or_default() += l.cycles;
        }
    }
    got.retain(|_, c| *c > 0.0);
    expected.retain(|_, c| *c > 0.0);
    let lines = |m: &std::collections::BTreeMap<u32, f64>| m.keys().copied().collect::<Vec<_>>();
    assert_eq!(
        lines(&got),
        lines(&expected),
        "lines charged: {got:?} vs {expected:?}"
    );
    for (line, want) in &expected {
        assert!(
            (got[line] - want).abs() < 1e-6 * total as f64,
            "line {line}: {} cycles, expected {want}",
            got[line]
        );
    }
    // The load's trip to DRAM (a first touch) is the largest part, on its line, then the
    // lines of the two stores (they complete at the L2; line 7 also has the division);
    // the lines sum to t.
    let mut by_cycles: Vec<(u32, f64)> = got.iter().map(|(l, c)| (*l, *c)).collect();
    by_cycles.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(by_cycles[0].0, 4, "{got:?}");
    let mut next = [by_cycles[1].0, by_cycles[2].0];
    next.sort_unstable();
    assert_eq!(next, [7, 9], "{got:?}");
    let sum: f64 = got.values().sum();
    assert!((sum - total as f64).abs() < 1e-6 * total as f64);
}
