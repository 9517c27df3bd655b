//! Loops the compiler unrolled (at run time, for a constant trip count, behind unroll
//! pragmas and hints): counted and timed exactly, or timed as written where they cannot be.

use super::*;
use crate::loop_paths::{fma_blocks, fma_loop_time, unrolled_fma_loops, unrolled_path_time};

/// A loop the compiler unrolled at run time (8 copies and a remainder loop): the body's
/// executions are counted and charged as main and remainder iterations. The expected
/// time walks the PTX CFG (fewest blocks between the loops' blocks, not the annotator's
/// cheapest-cost paths) with the unroll factor counted from the PTX's multiply-adds.
#[test]
fn runtime_unrolled_loop_with_per_work_item_trip_counts() {
    let src = "__kernel void scaled_sum(__global const float *a, __global const int *counts, __global float *out, const float b)\n{\n    int n = counts[get_global_id(0)];\n    float acc = 0.0f;\n    for (int i = 0; i < n; i++)\n        acc += a[i] * b;\n    out[get_global_id(0)] = acc;\n}\n";
    let (a, analysis, module) = annotate_source("scaled_sum.cl", src);
    let k = &analysis.kernels[0];
    let f = module.function("scaled_sum").unwrap();
    // The two loops holding the multiply-adds: the unrolled one has more.
    let (main, rem, factor) = unrolled_fma_loops(k, f);
    assert_eq!(factor, 8);

    let items = 64;
    let counts: Vec<i32> = (0..items as i32).map(|i| i % 21).collect();
    let data: Vec<f32> = (0..32).map(|i| i as f32 * 0.5).collect();
    let both = run_source_both(
        "scaled_sum.cl",
        src,
        "scaled_sum",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::from_slice(&counts),
            KernelArg::zeroed::<f32>(items),
            KernelArg::scalar(1.5f32),
        ],
        NdRange::d1(items).with_local([32, 1, 1]),
        &a,
    );
    for (w, &n) in counts.iter().enumerate() {
        let expected = unrolled_path_time(k, main, Some(rem), factor, n as usize);
        assert_eq!(both.t(w), expected, "work-item {w}, {n} iterations");
    }
}

/// A run-time unrolled loop whose index is a select of two strength-reduced sums (AMD's
/// DCT: `inverse ? i * n + k : k * n + i`): the copies of the select's position hold four
/// `selp` but more `add`s than that (the first copy adds once, the later ones twice),
/// and the remainder loop one `selp` and no `add`. The annotator counts the copies by the
/// operation the remainder repeats (the factor the PTX's multiply-adds give), so every
/// work-item is charged all of its iterations (it counted 7 and charged 5 of 8).
#[test]
fn runtime_unrolled_loop_of_a_selected_index_counts_every_iteration() {
    let src = "__kernel void select_rows(__global const float *c, __global const float *a, __global const uint *counts, __global float *out, const uint inverse)\n{\n    uint i = get_global_id(0) % 8u;\n    uint n = counts[get_global_id(0)];\n    float acc = 0.0f;\n    for (uint k = 0; k < n; k++) {\n        uint index1 = inverse ? i * n + k : k * n + i;\n        acc += c[index1] * a[k];\n    }\n    out[get_global_id(0)] = acc;\n}\n";
    let (a, analysis, module) = annotate_source("select_rows.cl", src);
    let k = &analysis.kernels[0];
    let f = module.function("select_rows").unwrap();
    let (main, rem, factor) = unrolled_fma_loops(k, f);
    assert_eq!(factor, 4);
    let items = 64;
    let counts: Vec<u32> = (0..items as u32).map(|i| i % 13).collect();
    let data: Vec<f32> = (0..256).map(|i| i as f32 * 0.25).collect();
    let both = run_source_both(
        "select_rows.cl",
        src,
        "select_rows",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::from_slice(&data),
            KernelArg::from_slice(&counts),
            KernelArg::zeroed::<f32>(items),
            KernelArg::scalar(0u32),
        ],
        NdRange::d1(items).with_local([32, 1, 1]),
        &a,
    );
    for (w, &n) in counts.iter().enumerate() {
        let expected = unrolled_path_time(k, main, Some(rem), factor, n as usize);
        assert_eq!(both.t(w), expected, "work-item {w}, {n} iterations");
    }
}

/// Records are indexed by the linear global id with the offset removed, in 3 dimensions:
/// a work-item's time depends on its x (a loop of x iterations, which the compiler unrolls
/// 8 times with a remainder loop), so a record written in the wrong place shows: every
/// work-item of one x takes the time of x iterations, computed from the PTX.
#[test]
fn three_dimensional_launch_with_global_offset() {
    let src = "__kernel void cube(__global int *out)\n{\n    size_t x = get_global_id(0) - get_global_offset(0);\n    size_t y = get_global_id(1) - get_global_offset(1);\n    size_t z = get_global_id(2) - get_global_offset(2);\n    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n    float acc = 1.0f;\n    for (size_t k = 0; k < x; k++)\n        acc = acc * 1.5f + (float)k;\n    out[i] = (int)acc + (int)(y * 10 + z);\n}\n";
    let (a, analysis, module) = annotate_source("cube.cl", src);
    let k = &analysis.kernels[0];
    let f = module.function("cube").unwrap();
    let (main, rem, factor) = unrolled_fma_loops(k, f);
    assert_eq!(factor, 8);
    let (gx, gy, gz) = (20usize, 4usize, 2usize);
    let range = NdRange::d3([gx, gy, gz])
        .with_local([4, 2, 1])
        .with_offset([3, 5, 7]);
    let both = run_source_both(
        "cube.cl",
        src,
        "cube",
        vec![KernelArg::zeroed::<i32>(gx * gy * gz)],
        range,
        &a,
    );
    let t = |x: usize, y: usize, z: usize| both.t((z * gy + y) * gx + x);
    // x = 0 too: the PTX then jumps from the entry straight to the block that computes
    // the store, skipping the loop's exit block (which holds code of the statement after
    // the loop, but runs only when the loop does).
    for x in 0..gx {
        let expected = unrolled_path_time(k, main, Some(rem), factor, x);
        for z in 0..gz {
            for y in 0..gy {
                assert_eq!(t(x, y, z), expected, "work-item ({x},{y},{z})");
            }
        }
    }
    // Times differ with x (else a misplaced record could go unseen).
    assert_ne!(t(0, 0, 0), t(1, 0, 0));
    assert_ne!(t(1, 0, 0), t(2, 0, 0));
    assert_ne!(t(8, 0, 0), t(9, 0, 0));
}

/// A loop of a constant trip count the compiler unrolled 8 times with no remainder loop:
/// the 64 calls of the body are charged as 8 iterations of the unrolled block.
#[test]
fn constant_trip_count_unrolled_without_remainder() {
    let src = "__kernel void horner64(__global const float *a, __global float *out, const float b)\n{\n    float acc = 0.0f;\n    for (int i = 0; i < 64; i++)\n        acc = acc * b + a[i];\n    out[get_global_id(0)] = acc;\n}\n";
    let (a, analysis, module) = annotate_source("horner64.cl", src);
    let k = &analysis.kernels[0];
    let f = module.function("horner64").unwrap();
    assert_eq!(k.loops.len(), 1, "one PTX loop, no remainder");
    let main = k.loops[0].header;
    let factor = f.blocks[main]
        .instrs
        .iter()
        .filter(|i| i.base() == "fma")
        .count();
    assert_eq!(factor, 8);
    let expected = unrolled_path_time(k, main, None, factor, 64);

    let items = 32;
    let data: Vec<f32> = (0..64).map(|i| (i % 5) as f32).collect();
    let both = run_source_both(
        "horner64.cl",
        src,
        "horner64",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::zeroed::<f32>(items),
            KernelArg::scalar(0.5f32),
        ],
        NdRange::d1(items).with_local([32, 1, 1]),
        &a,
    );
    for w in 0..items {
        assert_eq!(both.t(w), expected, "work-item {w}");
    }
}

/// Checks that every `#pragma` line of `src` is, in `annotated`, a line of its own with
/// the same (presumed) line number, `#line` directives counted.
fn directives_keep_their_lines(src: &str, annotated: &str) {
    let lines: Vec<&str> = annotated.lines().collect();
    let body = lines.iter().position(|l| *l == "#line 1").unwrap();
    for (n, line) in src.lines().enumerate() {
        let line = line.trim_start();
        if !line.starts_with("#pragma") {
            continue;
        }
        let mut presumed = 0;
        let mut found = false;
        for l in &lines[body..] {
            if let Some(number) = l.strip_prefix("#line ") {
                presumed = number.trim().parse::<usize>().unwrap() - 1;
                continue;
            }
            found |= l.trim_start() == line && presumed == n;
            presumed += 1;
        }
        assert!(
            found,
            "`{line}` (line {}) is not on its line:\n{annotated}",
            n + 1
        );
    }
}

/// Loops behind unroll pragmas and attributes are loops, annotated and timed exactly:
/// `#pragma unroll` on a constant trip count (no PTX loop is left), `#pragma unroll 4` on
/// a run-time trip count (a loop of 4 copies and a remainder loop), `#pragma nounroll`
/// (a loop of one copy), `__attribute__((opencl_unroll_hint(2)))` (a loop of 2 copies and
/// one more copy, outside any loop, for an odd count), each for trip counts 0 to 20; and
/// pragmas where the annotator inserts a call right before the directive (after an `if`,
/// as the body of another loop): the directive keeps its own line and the annotated
/// kernel computes the same.
#[test]
fn loops_behind_unroll_pragmas_and_hints_are_timed_exactly() {
    let src = "\
__kernel void full(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    float acc = counts[get_global_id(0)];
    #pragma unroll
    for (int i = 0; i < 16; i++)
        acc = acc * b + a[i];
    out[get_global_id(0)] = acc;
}
__kernel void by4(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    #pragma unroll 4
    for (int i = 0; i < n; i++)
        acc = acc * b + a[i];
    out[get_global_id(0)] = acc;
}
__kernel void never(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    #pragma nounroll
    for (int i = 0; i < n; i++)
        acc = acc * b + a[i];
    out[get_global_id(0)] = acc;
}
__kernel void hint2(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 0; i < n; i++)
        acc = acc * b + a[i];
    out[get_global_id(0)] = acc;
}
__kernel void directives(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    if (n > 10)
        acc = a[n];
    #pragma unroll 2
    for (int i = 0; i < n; i++)
        acc = acc * b + a[i];
    for (int j = 0; j < 2; j++)
        #pragma nounroll
        while (n-- > 15)
            acc += b;
    out[get_global_id(0)] = acc;
}
";
    let (a, analysis, module) = annotate_source("unroll_pragmas.cl", src);
    // Every kernel's loop is counted or timed, none refused or folded into a statement.
    for k in &a.sidecar.kernels {
        assert!(
            k.paths.uncounted_loops.is_empty(),
            "{}: {:?}",
            k.name,
            k.paths.uncounted_loops
        );
    }
    directives_keep_their_lines(src, &a.source);
    // With the profile, every source block has a call: some right before a directive
    // (after the `if`, and as the body of the outer loop of the `while`).
    let compiler = Compiler::locate().unwrap();
    let path = std::env::temp_dir()
        .join(format!("srcsim-e2e-{}", std::process::id()))
        .join("unroll_pragmas.cl");
    let profiled = annotator::annotate::annotate_file_with(
        &compiler,
        &path,
        &BuildOptions::default(),
        &Architecture::default_arch(),
        annotator::annotate::AnnotateOptions { profile: true },
    )
    .unwrap();
    assert_eq!(
        profiled.source.matches("\n#line ").count(),
        3,
        "the header's and two before directives:\n{}",
        profiled.source
    );
    directives_keep_their_lines(src, &profiled.source);

    let items = 64;
    let counts: Vec<i32> = (0..items as i32).map(|i| i % 21).collect();
    let data: Vec<f32> = (0..32).map(|i| (i % 7) as f32 * 0.5 - 1.0).collect();
    let mut times = std::collections::BTreeMap::new();
    let args = vec![
        KernelArg::from_slice(&data),
        KernelArg::from_slice(&counts),
        KernelArg::zeroed::<f32>(items),
        KernelArg::scalar(0.75f32),
    ];
    let range = NdRange::d1(items).with_local([32, 1, 1]);
    run_source_both(
        "directives",
        src,
        "directives",
        args.clone(),
        range,
        &profiled,
    );
    for name in ["full", "by4", "never", "hint2", "directives"] {
        let both = run_source_both(name, src, name, args.clone(), range, &a);
        // The original's results are what the loop computes, so the comparison above
        // means something.
        let out = kernel_runner::from_bytes::<f32>(&both.original[2]).unwrap();
        if name != "directives" {
            for (w, &n) in counts.iter().enumerate() {
                let (start, trips) = if name == "full" {
                    (n as f32, 16)
                } else {
                    (0.0, n as usize)
                };
                let expected = data[..trips].iter().fold(start, |acc, &x| acc * 0.75 + x);
                assert!(
                    (out[w] - expected).abs() < 1e-3,
                    "{name}: work-item {w}: {} {expected}",
                    out[w]
                );
            }
        }
        times.insert(name, both);
    }

    let k = |name: &str| analysis.kernels.iter().find(|k| k.name == name).unwrap();
    let f = |name: &str| module.function(name).unwrap();

    // Fully unrolled: no loop, one path.
    let full = k("full");
    assert!(full.loops.is_empty(), "{:?}", full.loops);
    assert_eq!(
        fma_blocks(f("full")).iter().map(|&(_, n)| n).sum::<usize>(),
        16
    );
    let mut path = vec![0];
    while let [next] = full.blocks[*path.last().unwrap()].successors[..] {
        path.push(next);
    }
    assert!(full.blocks[*path.last().unwrap()].successors.is_empty());
    for w in 0..items {
        assert_eq!(
            times["full"].t(w),
            path_time(full, &path),
            "full: work-item {w}"
        );
    }

    // The shapes the compiler made, as the pragmas asked.
    let shape = |name: &str| {
        let mut c: Vec<usize> = fma_blocks(f(name)).into_iter().map(|(_, n)| n).collect();
        c.sort_unstable();
        c
    };
    assert_eq!(shape("by4"), [1, 4]);
    assert_eq!(shape("never"), [1]);
    assert_eq!(shape("hint2"), [1, 2]);
    let loops_with_copies = |name: &str| {
        fma_blocks(f(name))
            .iter()
            .filter(|(b, _)| k(name).loops.iter().any(|l| l.body.contains(b)))
            .count()
    };
    assert_eq!(loops_with_copies("by4"), 2, "a loop and a remainder loop");
    assert_eq!(
        loops_with_copies("hint2"),
        1,
        "a loop and straight-line code"
    );
    for name in ["by4", "never", "hint2"] {
        for (w, &n) in counts.iter().enumerate() {
            assert_eq!(
                times[name].t(w),
                fma_loop_time(k(name), f(name), n as usize),
                "{name}: work-item {w}, {n} iterations"
            );
        }
        // Times differ with the trip count (else a mix-up could go unseen).
        assert_ne!(times[name].t(1), times[name].t(2), "{name}");
    }
}

/// A loop an unroll hint makes the compiler copy, with an `if` in its body: the copies'
/// branches cannot be counted, so the kernel is timed as compiled with the hint ignored,
/// and the note says so. Every iteration costs the same here (the test never holds), so
/// t grows by one step per further trip.
#[test]
fn a_hinted_unroll_the_annotator_cannot_count_is_timed_as_written() {
    let src = "\
__kernel void hinted(__global const int *a, __global int *out, const int n)
{
    int gid = get_global_id(0);
    int c = 0;
    __attribute__((opencl_unroll_hint(2)))
    for (int i = 0; i < n + gid; i++) {
        if (a[i] == gid) {
            c += a[i + 1];
            out[64 + i] = c;
        }
    }
    out[gid] = c;
}
";
    let (a, _, _) = annotate_source("hinted.cl", src);
    let note = a.sidecar.timed_without_unrolling.clone().expect("a note");
    assert!(
        note.contains("-unroll-count=1): at ")
            && note.contains("hinted.cl:7 the compiler unrolled"),
        "{note}"
    );
    let items = 16;
    let both = run_source_both(
        "hinted",
        src,
        "hinted",
        vec![
            KernelArg::from_slice(&[-1i32; 64]),
            KernelArg::zeroed::<i32>(128),
            KernelArg::scalar(8i32),
        ],
        NdRange::d1(items).with_local([items, 1, 1]),
        &a,
    );
    both.assert_t_grows_evenly(items, "hinted");
}
