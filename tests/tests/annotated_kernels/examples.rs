//! The example kernels and an OpenCL C 1.1 program, annotated: they compute what the
//! originals do, and their work-items' times are those of their PTX paths.

use super::*;
use crate::loop_paths::{unrolled_fma_loops, unrolled_path_time};

/// A program built for OpenCL C 1.1 (no `static`): its annotated twin builds on PoCL with
/// the program's own `-cl-std=CL1.1`, computes the same and writes every record.
#[test]
fn an_opencl_1_1_program_runs_annotated() {
    // The sums go to their own buffer: written in place, a work-item's sum would depend on
    // whether its neighbours had already overwritten what it reads.
    let src = "__kernel void k(__global const float *a, __global float *out, const int n)\n{\n    \
               int i = get_global_id(0);\n    float s = 0.0f;\n    for (int j = 0; j < n; j++)\n        \
               s += a[(i + j) % 64];\n    out[i] = s;\n}\n";
    let dir = std::env::temp_dir().join(format!("srcsim-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("cl11.cl");
    std::fs::write(&path, src).unwrap();
    let options = BuildOptions::parse("-cl-std=CL1.1");
    let a = annotate_file(
        &Compiler::locate().unwrap(),
        &path,
        &options,
        &Architecture::default_arch(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let data: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let args = vec![
        KernelArg::from_slice(&data),
        KernelArg::zeroed::<f32>(64),
        KernelArg::scalar(5i32),
    ];
    let range = NdRange::d1(64);
    let original = run_kernel(src, "-cl-std=CL1.1", "k", &args, &range).unwrap();
    let mut timed = args.clone();
    timed.extend(record_args(&a.sidecar, "k", &range, Grain::WorkItem).args);
    let mut out = run_kernel(&a.source, "-cl-std=CL1.1", "k", &timed, &range)
        .unwrap_or_else(|e| panic!("{e}\n{}", a.source));
    let records = kernel_runner::from_bytes::<u64>(&out.buffers.pop().unwrap()).unwrap();
    assert_eq!(out.buffers, original.buffers);
    let sums: Vec<f32> = kernel_runner::from_bytes(&out.buffers[1]).unwrap();
    let expected: Vec<f32> = (0..64)
        .map(|i| (0..5).map(|j| data[(i + j) % 64]).sum())
        .collect();
    assert_eq!(sums, expected);
    assert!(records
        .iter()
        .step_by(a.sidecar.records.stride)
        .all(|&t| t > 0));
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
    let (_, module) = annotator::analysis::blocks::analyze_file(
        &compiler,
        &example("private_array_call.cl"),
        &BuildOptions::default(),
        &Architecture::default_arch(),
    )
    .unwrap();
    let h = &a.sidecar.analysis.functions[0];
    let hf = module.function("horner").unwrap();
    let (main, rem, factor) = unrolled_fma_loops(h, hf);
    let helper = unrolled_path_time(h, main, Some(rem), factor, degree);
    for w in 0..64 {
        assert_eq!(both.t(w), k.blocks[0].cycles + helper, "work-item {w}");
    }
}
