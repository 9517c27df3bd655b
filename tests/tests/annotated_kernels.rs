//! Annotated kernels on PoCL, side by side with the originals on the same inputs: the
//! outputs are bit-identical, every work-item's record is filled, and each work-item's
//! time is what the pair-time formula gives along the PTX path it takes, computed here
//! from the analysis tables and the known control flow (not from the annotator's path
//! tables).

use std::path::Path;

use annotator::analysis::FunctionAnalysis;
use annotator::annotate::{annotate_file, Annotation};
use annotator::compile::{BuildOptions, Compiler};
use kernel_runner::{run_kernel, KernelArg, NdRange};
use pipeline_model::Architecture;

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
    annotator::analysis::Analysis,
    annotator::ptx::Module,
) {
    let dir = std::env::temp_dir().join(format!("srcsim-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, src).unwrap();
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::default_arch();
    let a = annotate_file(&compiler, &path, &BuildOptions::default(), &arch)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let (analysis, module) =
        annotator::analysis::analyze_file(&compiler, &path, &BuildOptions::default(), &arch)
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
    let mut timed_args = args;
    timed_args.push(KernelArg::zeroed::<u64>(items * stride));
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
    Both {
        original,
        annotated,
        records,
        stride,
    }
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

#[test]
fn straight_line_kernel_counts_exactly_t_b() {
    let a = annotate("float4_vectors.cl");
    let n = 256;
    let input: Vec<f32> = (0..n * 4).map(|i| i as f32 * 0.5 - 7.0).collect();
    let both = run_both(
        "float4_vectors.cl",
        "scale_offset4",
        vec![
            KernelArg::from_slice(&input),
            KernelArg::zeroed::<f32>(n * 4),
            KernelArg::scalar([2.0f32, 3.0, 4.0, 5.0]),
            KernelArg::scalar([1.0f32, -1.0, 0.5, 0.0]),
        ],
        NdRange::d1(n).with_local([64, 1, 1]),
        &a,
    );
    let k = kernel(&a, "scale_offset4");
    assert_eq!(k.blocks.len(), 1);
    for w in 0..n {
        assert_eq!(both.t(w), k.blocks[0].cycles);
    }
    // And the usage is the block's, scaled.
    let scale = a.sidecar.records.usage_scale as f64;
    for (r, u) in k.blocks[0].usage.iter().enumerate() {
        assert_eq!(both.records[1 + r], (u * scale).round() as u64);
    }
}

#[test]
fn guarded_vector_add_counts_both_paths() {
    let a = annotate("vector_add.cl");
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let both = run_both(
        "vector_add.cl",
        "vector_add",
        vec![
            KernelArg::from_slice(&x),
            KernelArg::from_slice(&y),
            KernelArg::zeroed::<f32>(n),
            KernelArg::scalar(n as i32),
        ],
        NdRange::d1(1024).with_local([64, 1, 1]),
        &a,
    );
    let k = kernel(&a, "vector_add");
    // Entry B0 branches to the add (B1) or straight to the return.
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let add = other_successor(k, 0, exit);
    let inside = path_time(k, &[0, add, exit]);
    let outside = path_time(k, &[0, exit]);
    assert!(inside > outside);
    for w in 0..1024 {
        assert_eq!(
            both.t(w),
            if w < n { inside } else { outside },
            "work-item {w}"
        );
    }
    let _ = (&both.original, &both.annotated);
}

#[test]
fn if_else_divergence_counts_each_branch() {
    let a = annotate("divergence.cl");
    let n = 128;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let both = run_both(
        "divergence.cl",
        "divergence",
        vec![KernelArg::from_slice(&input), KernelArg::zeroed::<f32>(n)],
        NdRange::d1(n).with_local([32, 1, 1]),
        &a,
    );
    let k = kernel(&a, "divergence");
    let join = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let (b1, b2) = (k.blocks[0].successors[0], k.blocks[0].successors[1]);
    // The branch with the SFU's square root is the even one.
    let sfu = a
        .sidecar
        .analysis
        .resources
        .iter()
        .position(|r| r == "SFU")
        .unwrap();
    let (even, odd) = if k.blocks[b1].usage[sfu] == 8.0 {
        (b1, b2)
    } else {
        (b2, b1)
    };
    let t_even = path_time(k, &[0, even, join]);
    let t_odd = path_time(k, &[0, odd, join]);
    assert_ne!(t_even, t_odd);
    for w in 0..n {
        assert_eq!(
            both.t(w),
            if w % 2 == 0 { t_even } else { t_odd },
            "work-item {w}"
        );
    }
}

#[test]
fn loop_with_known_trip_count() {
    let a = annotate("div_chain.cl");
    let n = 64;
    let iterations: i32 = 5;
    let data: Vec<f32> = (0..n).map(|i| 1000.0 + i as f32).collect();
    let both = run_both(
        "div_chain.cl",
        "div_chain",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::scalar(1.0001f32),
            KernelArg::scalar(iterations),
        ],
        NdRange::d1(n).with_local([32, 1, 1]),
        &a,
    );
    let k = kernel(&a, "div_chain");
    let l = &k.loops[0];
    let (header, latch) = (l.header, l.latches[0]);
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let mut path = vec![0, header];
    for _ in 1..iterations {
        path.extend([latch, header]);
    }
    path.push(exit);
    let expected = path_time(k, &path);
    assert!(expected >= (iterations * 30 * 39) as u64);
    for w in 0..n {
        assert_eq!(both.t(w), expected, "work-item {w}");
    }
}

#[test]
fn every_other_example_computes_the_same_when_annotated() {
    // Tiled matrix multiply: 2D, local memory, barriers.
    let a = annotate("matmul_tiled.cl");
    let n = 32usize;
    let ma: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 - 3.0).collect();
    let mb: Vec<f32> = (0..n * n).map(|i| (i % 5) as f32 * 0.5).collect();
    let both = run_both(
        "matmul_tiled.cl",
        "matmul_tiled",
        vec![
            KernelArg::from_slice(&ma),
            KernelArg::from_slice(&mb),
            KernelArg::zeroed::<f32>(n * n),
            KernelArg::scalar(n as i32),
        ],
        NdRange::d2([n, n]).with_local([16, 16, 1]),
        &a,
    );
    // Every work-item runs the tile loop n / 16 times: the same time for all.
    let k = kernel(&a, "matmul_tiled");
    let l = &k.loops[0];
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let pre = k.blocks[0]
        .successors
        .iter()
        .copied()
        .find(|&s| s != exit)
        .unwrap();
    let mut path = vec![0, pre, l.header];
    for _ in 1..n / 16 {
        path.extend([l.latches[0], l.header]);
    }
    path.push(exit);
    let expected = path_time(k, &path);
    for w in 0..n * n {
        assert_eq!(both.t(w), expected, "work-item {w}");
    }

    // Histogram with local and global atomics.
    let a = annotate("atomics.cl");
    let data: Vec<u32> = (0..4096u32)
        .map(|i| i.wrapping_mul(2654435761) >> 7)
        .collect();
    run_both(
        "atomics.cl",
        "histogram",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::scalar(4096i32),
            KernelArg::zeroed::<u32>(64),
        ],
        NdRange::d1(256).with_local([64, 1, 1]),
        &a,
    );

    // A helper and two early returns.
    let a = annotate("helper_early_return.cl");
    let input: Vec<f32> = (0..300).map(|i| i as f32 * 0.1 - 5.0).collect();
    run_both(
        "helper_early_return.cl",
        "helper_early_return",
        vec![
            KernelArg::from_slice(&input),
            KernelArg::zeroed::<f32>(300),
            KernelArg::scalar(300i32),
            KernelArg::scalar(1.0f32),
            KernelArg::scalar(20.0f32),
        ],
        NdRange::d1(320).with_local([32, 1, 1]),
        &a,
    );

    // Double precision.
    let a = annotate("double_precision.cl");
    let x: Vec<f64> = (0..500).map(|i| i as f64 * 1.5).collect();
    let y: Vec<f64> = (0..500).map(|i| 1.0 / (i as f64 + 3.0)).collect();
    run_both(
        "double_precision.cl",
        "daxpy_div",
        vec![
            KernelArg::from_slice(&x),
            KernelArg::from_slice(&y),
            KernelArg::scalar(0.75f64),
            KernelArg::scalar(500i32),
        ],
        NdRange::d1(512).with_local([128, 1, 1]),
        &a,
    );

    // A private array and a helper the compiler keeps as a function: the helper's own
    // PTX (an unrolled loop of `degree` iterations) is timed too, on top of the kernel's.
    let a = annotate("private_array_call.cl");
    let data: Vec<f32> = (0..64 * 16).map(|i| (i % 13) as f32 * 0.25).collect();
    let degree = 6usize;
    let both = run_both(
        "private_array_call.cl",
        "private_array_call",
        vec![
            KernelArg::from_slice(&data),
            KernelArg::scalar(degree as i32),
            KernelArg::scalar(5i32),
        ],
        NdRange::d1(64).with_local([32, 1, 1]),
        &a,
    );
    let k = kernel(&a, "private_array_call");
    assert_eq!(k.blocks.len(), 1);
    let compiler = Compiler::locate().unwrap();
    let (_, module) = annotator::analysis::analyze_file(
        &compiler,
        &example("private_array_call.cl"),
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap();
    let h = &a.sidecar.analysis.functions[0];
    let hf = module.function("horner").unwrap();
    let fmas = |b: usize| {
        hf.blocks[b]
            .instrs
            .iter()
            .filter(|i| i.base() == "fma")
            .count()
    };
    let mut loops: Vec<usize> = h
        .loops
        .iter()
        .map(|l| l.header)
        .filter(|&b| fmas(b) > 0)
        .collect();
    loops.sort_by_key(|&b| std::cmp::Reverse(fmas(b)));
    let [main, rem] = loops[..] else {
        panic!("{:?}", h.loops)
    };
    let helper = unrolled_path_time(h, main, Some(rem), fmas(main) / fmas(rem), degree);
    for w in 0..64 {
        assert_eq!(both.t(w), k.blocks[0].cycles + helper, "work-item {w}");
    }
}

mod random {
    use super::*;
    use proptest::prelude::*;

    /// A random structured statement (depth-limited) over `acc` and `n`: if/else, loops
    /// with break and continue, do-while, switch with fall-through, ?: and &&, a helper
    /// call, comments with braces, early returns. Loops that need not end are bounded by
    /// `steps`, shared by all of them.
    fn statement(depth: u32) -> BoxedStrategy<String> {
        let leaf = prop_oneof![
            Just("acc += 1;".to_string()),
            Just("acc ^= n;".to_string()),
            Just("acc = acc > 7 && n ? acc - 1 : acc * 3;".to_string()),
            Just("acc += helper(acc);".to_string()),
            Just("/* { } */ acc--;".to_string()),
            Just("if (acc == 1000) return;".to_string()),
        ];
        if depth == 0 {
            return leaf.boxed();
        }
        let inner = || statement(depth - 1);
        prop_oneof![
            3 => leaf,
            1 => (inner(), inner()).prop_map(|(a, b)| format!("if (acc < n) {{ {a} }} else {{ {b} }}")),
            1 => inner().prop_map(|a| format!("if (acc & 1) {a}")),
            1 => inner().prop_map(|a| format!("for (int i = 0; i < 3; i++) {{ {a} if (acc > 100) break; }}")),
            1 => inner().prop_map(|a| format!("while (acc < n * 2 && steps++ < 40) {{ acc++; if (acc == 5) continue; {a} }}")),
            1 => inner().prop_map(|a| format!("do {{ {a} }} while (acc++ < 4 && steps++ < 40);")),
            1 => (inner(), inner()).prop_map(|(a, b)| format!("switch (acc % 3) {{ case 0: {a} break; case 1: {b} default: acc++; }}")),
            1 => (inner(), inner()).prop_map(|(a, b)| format!("{{ {a} {b} }}")),
        ]
        .boxed()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]
        /// Annotated, a random kernel computes exactly what it computed before and every
        /// work-item writes its record (or the annotator says which loop it cannot count).
        #[test]
        fn random_kernels_compute_the_same_when_annotated(body in prop::collection::vec(statement(2), 1..4)) {
            let src = format!(
                "int helper(int x) {{ return x > 3 ? x / 2 : x + 1; }}\n\
                 __kernel void r(__global int *o, int n)\n{{\n    int acc = get_global_id(0) % 17;\n    int steps = 0;\n    {}\n    o[get_global_id(0)] = acc;\n}}\n",
                body.join("\n    ")
            );
            let dir = std::env::temp_dir().join(format!("srcsim-random-{}", std::process::id()));
            std::fs::create_dir_all(&dir).unwrap();
            let path = dir.join("random.cl");
            std::fs::write(&path, &src).unwrap();
            let compiler = Compiler::locate().unwrap();
            let a = match annotate_file(&compiler, &path, &BuildOptions::default(), &Architecture::default_arch()) {
                Ok(a) => a,
                Err(e) if e.to_string().contains("unrolled") => return Ok(()),
                Err(e) => return Err(TestCaseError::fail(format!("{e}\n{src}"))),
            };
            let items = 64;
            let range = NdRange::d1(items).with_local([32, 1, 1]);
            // -1 marks what a work-item that returned early did not write.
            let args = vec![KernelArg::from_slice(&vec![-1i32; items]), KernelArg::scalar(9i32)];
            let original = run_kernel(&src, "", "r", &args, &range).unwrap().buffers;
            let mut timed = args.clone();
            timed.push(KernelArg::zeroed::<u64>(items * a.sidecar.records.stride));
            let mut annotated = run_kernel(&a.source, "", "r", &timed, &range)
                .map_err(|e| TestCaseError::fail(format!("{e}\n{}", a.source)))?
                .buffers;
            let records = kernel_runner::from_bytes::<u64>(&annotated.pop().unwrap()).unwrap();
            prop_assert_eq!(&original, &annotated, "{}", a.source);
            for w in 0..items {
                prop_assert!(records[w * a.sidecar.records.stride] > 0, "work-item {} wrote no record\n{}", w, a.source);
            }
        }
    }
}

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
    let fmas = |b: usize| {
        f.blocks[b]
            .instrs
            .iter()
            .filter(|i| i.base() == "fma")
            .count()
    };
    let mut loops: Vec<usize> = k
        .loops
        .iter()
        .map(|l| l.header)
        .filter(|&h| fmas(h) > 0)
        .collect();
    loops.sort_by_key(|&h| std::cmp::Reverse(fmas(h)));
    let [main, rem] = loops[..] else {
        panic!("{:?}", k.loops)
    };
    let factor = fmas(main) / fmas(rem);
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

/// Records are indexed by the linear global id with the offset removed, in 3 dimensions:
/// a work-item's time grows with its x (a loop of x iterations), so a record written in
/// the wrong place shows: all work-items of one x take one time, and more x takes longer.
#[test]
fn three_dimensional_launch_with_global_offset() {
    let src = "__kernel void cube(__global int *out)\n{\n    size_t x = get_global_id(0) - get_global_offset(0);\n    size_t y = get_global_id(1) - get_global_offset(1);\n    size_t z = get_global_id(2) - get_global_offset(2);\n    size_t i = (z * get_global_size(1) + y) * get_global_size(0) + x;\n    float acc = 1.0f;\n    for (size_t k = 0; k < x; k++)\n        acc = acc * 1.5f + (float)k;\n    out[i] = (int)acc + (int)(y * 10 + z);\n}\n";
    let (a, _, _) = annotate_source("cube.cl", src);
    let (gx, gy, gz) = (12usize, 4usize, 2usize);
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
    for x in 0..gx {
        for z in 0..gz {
            for y in 0..gy {
                assert_eq!(t(x, y, z), t(x, 0, 0), "work-item ({x},{y},{z})");
            }
        }
        if x > 0 {
            assert!(
                t(x, 0, 0) > t(x - 1, 0, 0),
                "x = {x}: {} <= {}",
                t(x, 0, 0),
                t(x - 1, 0, 0)
            );
        }
    }
}

/// The time of `n` iterations of a loop unrolled into `main` (`factor` copies) and a
/// remainder loop `rem`, walking the PTX CFG: fewest blocks between the loops' blocks.
fn unrolled_path_time(
    k: &FunctionAnalysis,
    main: usize,
    rem: Option<usize>,
    factor: usize,
    n: usize,
) -> u64 {
    let exit = k
        .blocks
        .iter()
        .position(|b| b.successors.is_empty())
        .unwrap();
    let hop = |from: usize, to: usize, avoid: &[usize]| -> Vec<usize> {
        let mut prev = vec![None; k.blocks.len()];
        let mut queue = std::collections::VecDeque::from([from]);
        let mut seen = vec![false; k.blocks.len()];
        while let Some(b) = queue.pop_front() {
            for &s in &k.blocks[b].successors {
                if seen[s] || (avoid.contains(&s) && s != to) {
                    continue;
                }
                seen[s] = true;
                prev[s] = Some(b);
                if s == to {
                    let mut p = vec![to];
                    let mut x = b;
                    while x != from {
                        p.push(x);
                        x = prev[x].unwrap();
                    }
                    p.reverse();
                    return p;
                }
                queue.push_back(s);
            }
        }
        panic!("no path B{from} -> B{to}");
    };
    let others = |this: usize| -> Vec<usize> {
        [Some(main), rem, Some(exit)]
            .into_iter()
            .flatten()
            .filter(|&b| b != this)
            .collect()
    };
    let (q, r) = (n / factor, n % factor);
    let mut p = vec![0];
    let mut at = 0;
    let mut go = |to: usize| {
        p.extend(hop(at, to, &others(to)));
        at = to;
    };
    for _ in 0..q {
        go(main);
    }
    if let Some(rem) = rem {
        for _ in 0..r {
            go(rem);
        }
    }
    go(exit);
    path_time(k, &p)
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
