//! Loops that run zero times, and run-time loops inside loops the compiler unrolled
//! completely: each work-item's time is that of its PTX path.

use super::*;
use crate::loop_paths::{fewest_blocks_path, fma_blocks, fma_loop_time};

/// Loops of every shape, for trip counts 0 to 20, the statement after them converting
/// the loop's result (so that the loop's exit block holds code of that statement, which
/// the PTX skips when the compiler's guard skips the loop) and storing at an index
/// computed before the loop (which the compiler sinks past the loop, so that the block
/// after the loop holds code of the statements before it too): `while`, `do`-`while`
/// (one iteration at least), and `for` with both bounds known at run time only. Each
/// work-item's time is that of its PTX path, including the paths around the loop.
#[test]
fn loops_that_run_zero_times_are_timed_exactly() {
    let src = "\
__kernel void while_loop(__global const float *a, __global const int *counts, __global int *out, const float b)
{
    int n = counts[get_global_id(0)];
    int slot = (get_global_id(0) * 5) % 64;
    float acc = 1.0f;
    int i = 0;
    while (i < n) {
        acc = acc * b + a[i];
        i++;
    }
    out[slot] = (int)acc + n;
}
__kernel void do_while(__global const float *a, __global const int *counts, __global int *out, const float b)
{
    int n = counts[get_global_id(0)];
    int slot = (get_global_id(0) * 5) % 64;
    float acc = 1.0f;
    int i = 0;
    do {
        acc = acc * b + a[i];
        i++;
    } while (i < n);
    out[slot] = (int)acc + n;
}
__kernel void bounds(__global const float *a, __global const int *counts, __global int *out, const float b)
{
    int lo = get_global_id(0) % 3;
    int hi = lo + counts[get_global_id(0)];
    int slot = (get_global_id(0) * 5) % 64;
    float acc = 1.0f;
    for (int i = lo; i < hi; i++)
        acc = acc * b + a[i];
    out[slot] = (int)acc + hi;
}
";
    let (a, analysis, module) = annotate_source("zero_trip.cl", src);
    let items = 64;
    let counts: Vec<i32> = (0..items as i32).map(|i| i % 21).collect();
    let data: Vec<f32> = (0..32).map(|i| (i % 7) as f32 * 1.5).collect();
    for name in ["while_loop", "do_while", "bounds"] {
        let k = analysis.kernels.iter().find(|k| k.name == name).unwrap();
        let f = module.function(name).unwrap();
        let both = run_source_both(
            name,
            src,
            name,
            vec![
                KernelArg::from_slice(&data),
                KernelArg::from_slice(&counts),
                KernelArg::zeroed::<i32>(items),
                KernelArg::scalar(1.25f32),
            ],
            NdRange::d1(items).with_local([32, 1, 1]),
            &a,
        );
        for (w, &n) in counts.iter().enumerate() {
            let trips = if name == "do_while" { n.max(1) } else { n } as usize;
            assert_eq!(
                both.t(w),
                fma_loop_time(k, f, trips),
                "{name}: work-item {w}, {trips} iterations"
            );
        }
        assert_ne!(both.t(0), both.t(2), "{name}");
    }
}

/// A grid-stride loop that accumulates into a `__local` element with `+=` (SHOC's
/// reduction): the compiler keeps the element in a register across the iterations and
/// stores it once, in a block after the loop that holds only the `+=`'s source position.
/// That block runs once when the loop is left, not once an iteration: each work-item's
/// time is still that of its PTX path (mapped to the body, the store's block took the
/// body's second entry for its own and every iteration after it went uncounted: the same
/// time for 2 iterations as for 6).
#[test]
fn a_store_moved_out_of_the_loop_keeps_every_iteration_counted() {
    let src = "\
__kernel void local_sum(__global const float *a, __local float *acc, __global float *out, const float b, const unsigned int n)
{
    unsigned int lid = get_local_id(0);
    unsigned int i = get_global_id(0);
    unsigned int stride = get_global_size(0);
    acc[lid] = 1.0f;
    while (i < n) {
        acc[lid] += a[i] * b;
        i += stride;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = acc[lid ^ 1];
}
";
    let (a, analysis, module) = annotate_source("local_sum.cl", src);
    let k = analysis
        .kernels
        .iter()
        .find(|k| k.name == "local_sum")
        .unwrap();
    let f = module.function("local_sum").unwrap();
    let items = 64usize;
    for n in [0u32, 20, 64 * 2 + 20, 64 * 5 + 20] {
        let data: Vec<f32> = (0..n.max(1)).map(|i| (i % 7) as f32 * 1.5).collect();
        let both = run_source_both(
            "local_sum",
            src,
            "local_sum",
            vec![
                KernelArg::from_slice(&data),
                KernelArg::local::<f32>(32),
                KernelArg::zeroed::<f32>(items),
                KernelArg::scalar(1.25f32),
                KernelArg::scalar(n),
            ],
            NdRange::d1(items).with_local([32, 1, 1]),
            &a,
        );
        for w in 0..items {
            // Work-item w runs i = w, w + 64, ... below n.
            let trips = (n as usize).saturating_sub(w).div_ceil(items);
            assert_eq!(
                both.t(w),
                fma_loop_time(k, f, trips),
                "n = {n}: work-item {w}, {trips} iterations"
            );
        }
    }
}

/// The time of a PTX path through the copies of one loop, in order: per copy `(main,
/// remainder, factor, n)`, `n / factor` iterations of `main` and `n % factor` of the
/// remainder loop, walking the PTX CFG between them (fewest blocks, avoiding every other
/// copy's blocks), then to the exit.
fn copies_path_time(k: &FunctionAnalysis, copies: &[(usize, usize, usize, usize)]) -> u64 {
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let marked: Vec<usize> = copies
        .iter()
        .flat_map(|&(m, r, _, _)| [m, r])
        .chain([exit])
        .collect();
    let hop = |from: usize, to: usize| fewest_blocks_path(k, from, to, &marked);
    let mut p = vec![0];
    let mut at = 0;
    let mut go = |to: usize| {
        p.extend(hop(at, to));
        at = to;
    };
    for &(main, rem, factor, n) in copies {
        for _ in 0..n / factor {
            go(main);
        }
        for _ in 0..n % factor {
            go(rem);
        }
    }
    go(exit);
    path_time(k, &p)
}

/// The copies of a one-multiply-add loop body in PTX `f`, from the PTX alone, in block
/// order (the order the compiler lays the unrolled copies out): each a block of the most
/// multiply-adds (the loop of copies) followed by a block of one (the remainder loop), as
/// `(main, remainder, factor)`.
fn fma_copies(f: &annotator::front::ptx::Function) -> Vec<(usize, usize, usize)> {
    let blocks = fma_blocks(f);
    let most = blocks.iter().map(|&(_, n)| n).max().unwrap();
    blocks
        .chunks(2)
        .map(|pair| match pair {
            [(main, m), (rem, 1)] if *m == most => (*main, *rem, most),
            _ => panic!("{}: copies {blocks:?}", f.name),
        })
        .collect()
}

/// A run-time loop inside loops of constant trip counts that the compiler unrolled
/// completely: every copy of the inner loop is a PTX loop of 8 copies of the body and a
/// remainder loop of its own. The k-th pass of the inner loop runs the k-th copy: each
/// work-item's time is that of the PTX path through the copies in order, for trip counts
/// 0 to 12, with one unrolled loop around (3 copies) and two (a 3 x 3 stencil: 9 copies;
/// the copies' times differ, so a pass charged on another copy shows). Shapes the
/// annotator cannot count unrolled are timed from a compile without unrolling, and the
/// sidecar names the line: a `continue` that skips the inner loop in some passes, copies
/// of the statements around the inner loop that the matching cannot tell apart, and a
/// trip count that differs from copy to copy (the inner loop's condition then has code in
/// each copy's guard).
#[test]
fn loops_inside_loops_the_compiler_unrolled_completely_are_timed_exactly() {
    let src = "\
__kernel void channels(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < n; i++)
            acc = acc * b + a[c * 16 + i];
    out[get_global_id(0)] = acc;
}
__kernel void stencil(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            for (int i = 0; i < n; i++)
                acc = acc * b + a[(dy + 1) * 48 + (dx + 1) * 16 + i];
    out[get_global_id(0)] = acc;
}
";
    let (a, analysis, module) = annotate_source("unrolled_around.cl", src);
    let items = 64;
    let counts: Vec<i32> = (0..items as i32).map(|i| i % 13).collect();
    let data: Vec<f32> = (0..160).map(|i| (i % 7) as f32 * 0.5 - 1.0).collect();
    let args = vec![
        KernelArg::from_slice(&data),
        KernelArg::from_slice(&counts),
        KernelArg::zeroed::<f32>(items),
        KernelArg::scalar(0.75f32),
    ];
    let range = NdRange::d1(items).with_local([32, 1, 1]);
    for (name, copies, levels) in [("channels", 3, 1), ("stencil", 9, 2)] {
        let k = analysis.kernels.iter().find(|k| k.name == name).unwrap();
        let f = module.function(name).unwrap();
        let ptx = fma_copies(f);
        assert_eq!(ptx.len(), copies, "{name}");
        assert!(ptx.iter().all(|&(_, _, factor)| factor == 8), "{name}");
        // The annotator found the same copies in the same order.
        let unrolled = &a.sidecar.kernels.iter().find(|x| x.name == name).unwrap();
        let [u] = &unrolled.unrolled[..] else {
            panic!("{name}: {:?}", unrolled.unrolled)
        };
        let c = u.copies.as_ref().expect("counted per copy");
        assert_eq!(c.unrolled_levels, levels, "{name}");
        let found: Vec<(usize, usize, usize)> = c
            .shapes
            .iter()
            .map(|s| {
                (
                    s.main.index(),
                    s.remainder.unwrap().index(),
                    s.factor as usize,
                )
            })
            .collect();
        assert_eq!(found, ptx, "{name}");

        let both = run_source_both(name, src, name, args.clone(), range, &a);
        // What the original computes is the nest of loops (so the comparison with the
        // annotated kernel means something).
        let out = kernel_runner::from_bytes::<f32>(&both.original[2]).unwrap();
        for (w, &n) in counts.iter().enumerate() {
            let mut acc = 0.0f32;
            let trips = vec![n as usize; copies];
            for (c, &t) in trips.iter().enumerate() {
                for i in 0..t {
                    acc = acc * 0.75 + data[c * 16 + i];
                }
            }
            assert!((out[w] - acc).abs() < 1e-3, "{name}: work-item {w}");
            let walk: Vec<(usize, usize, usize, usize)> = ptx
                .iter()
                .zip(&trips)
                .map(|(&(m, r, factor), &t)| (m, r, factor, t))
                .collect();
            assert_eq!(
                both.t(w),
                copies_path_time(k, &walk),
                "{name}: work-item {w}, {n} iterations"
            );
        }
        assert_ne!(both.t(1), both.t(2), "{name}");
    }

    // Shapes the annotator cannot count when unrolled: timed from a compile without
    // unrolling.
    let refused = "\
__kernel void skipped(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    for (int c = 0; c < 3; c++) {
        if (a[c] > 1.0f)
            continue;
        for (int i = 0; i < n; i++)
            acc = acc * b + a[c * 16 + i];
    }
    out[get_global_id(0)] = acc;
}
__kernel void per_channel(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    for (int c = 0; c < 3; c++) {
        float acc = 0.0f;
        for (int i = 0; i < n - 2 * c; i++)
            acc = acc * b + a[c * 16 + i];
        out[get_global_id(0) * 3 + c] = acc;
    }
}
__kernel void shrinking(__global const float *a, __global const int *counts, __global float *out, const float b)
{
    int n = counts[get_global_id(0)];
    float acc = 0.0f;
    for (int c = 0; c < 3; c++)
        for (int i = 0; i < n - 4 * c; i++)
            acc = acc * b + a[c * 16 + i];
    out[get_global_id(0)] = acc;
}
";
    let dir = std::env::temp_dir().join(format!("srcsim-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let compiler = Compiler::locate().unwrap();
    for (kernel, line) in [("skipped", 9), ("per_channel", 19), ("shrinking", 29)] {
        let path = dir.join(format!("refused_{kernel}.cl"));
        let text: String = refused
            .split_inclusive('\n')
            .enumerate()
            .map(|(i, l)| {
                // Only this kernel: the other's lines blanked, so the numbers stay.
                let other = match kernel {
                    "skipped" => i >= 12,
                    "per_channel" => !(12..22).contains(&i),
                    _ => i < 22,
                };
                if other {
                    "\n"
                } else {
                    l
                }
            })
            .collect();
        std::fs::write(&path, &text).unwrap();
        // Not refused: timed as compiled without unrolling, and the sidecar says why.
        let a = annotate_file(
            &compiler,
            &path,
            &BuildOptions::default(),
            &Architecture::default_arch(),
        )
        .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        let note = a.sidecar.timed_without_unrolling.clone().expect(kernel);
        assert!(
            note.contains(&format!(
                "refused_{kernel}.cl:{line} the compiler unrolled a loop of `{kernel}`"
            )),
            "{kernel}: {note}"
        );
        assert!(
            a.sidecar.kernels.iter().all(|k| k.unrolled.is_empty()),
            "{kernel}: no loop is unrolled without unrolling"
        );
        // Work-item w runs its inner loops n = 9 + w, n - 2c or n - 4c times: every
        // further n adds the same iterations, so t grows by the same step (an unrolled
        // loop mistimed would step by its copies).
        let items = 8;
        let counts: Vec<i32> = (0..items).map(|w| 9 + w as i32).collect();
        let outputs = if kernel == "per_channel" {
            3 * items
        } else {
            items
        };
        let both = run_source_both(
            kernel,
            &text,
            kernel,
            vec![
                KernelArg::from_slice(&[0.5f32; 64]),
                KernelArg::from_slice(&counts),
                KernelArg::zeroed::<f32>(outputs),
                KernelArg::scalar(0.9f32),
            ],
            NdRange::d1(items).with_local([items, 1, 1]),
            &a,
        );
        both.assert_t_grows_evenly(items, kernel);
    }
}
