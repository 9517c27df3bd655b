//! Straight-line code, branches and a loop of a known trip count: each work-item's time is
//! that of the PTX path it takes.

use super::*;

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

/// Asserts that every even work-item of `both` took the even branch of `divergence.cl`'s
/// kernel (named `name` in `a`) and every odd one the odd branch, as the path table
/// times them.
fn assert_even_and_odd_branches(a: &Annotation, name: &str, both: &Both, n: usize) {
    let k = kernel(a, name);
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
    assert_even_and_odd_branches(&a, "divergence", &both, n);
}

/// The divergence above after a barrier (each work-item's input passes through a
/// `__local` tile first): the twin keeps each work-item's values in its record (codegen's
/// module `records`), which every work-item must find as its own, charged by each branch
/// it took.
#[test]
fn divergence_after_a_barrier_counts_each_branch_in_the_record() {
    let example = std::fs::read_to_string(example("divergence.cl")).unwrap();
    let through_tile = "__local float tile[32];
    int i = get_global_id(0);
    tile[get_local_id(0)] = in[i];
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = tile[31 - get_local_id(0)];";
    let src = example.replace(
        "int i = get_global_id(0);\n    float v = in[i];",
        through_tile,
    );
    assert_ne!(src, example);
    let (a, _, _) = annotate_source("divergence_after_barrier.cl", &src);
    assert!(a.source.contains("__srcsim_enter_record("), "{}", a.source);
    let n = 128;
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.25).collect();
    let range = NdRange::d1(n).with_local([32, 1, 1]);
    let args = vec![KernelArg::from_slice(&input), KernelArg::zeroed::<f32>(n)];
    let both = run_source_both(
        "divergence_after_barrier.cl",
        &src,
        "divergence",
        args.clone(),
        range,
        &a,
    );
    assert_even_and_odd_branches(&a, "divergence", &both, n);
    // The shim reuses records' memory without clearing it: the twin makes its records
    // from nothing, whatever the memory held.
    let stale = vec![0x5eed_5eed_5eed_5eedu64; both.records.len()];
    let mut stale_args = args;
    stale_args.push(KernelArg::from_slice(&stale));
    let out = run_kernel(&a.source, "", "divergence", &stale_args, &range).unwrap();
    let again = kernel_runner::from_bytes::<u64>(out.buffers.last().unwrap()).unwrap();
    assert_eq!(again, both.records);
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

/// A temperature's two polynomials (SHOC S3D's `rdsmh`): `if (x > 1000) { ... } else
/// { ... }`, each side of its own code.
const TWO_SIDES: &str = "__kernel void two_sides(__global const float *t, __global float *out) {
    size_t i = get_global_id(0);
    float x = t[i];
    if (x > 1000.0f) {
        out[i] = exp(x * 1.0e-3f + 0.5f) * 3.0f + exp(x * 2.0e-3f - 0.25f) * 5.0f
                 + exp(x * 3.0e-3f + 0.75f);
    } else {
        out[i] = log(x + 2.0f) * 7.0f - log(x * 0.5f + 3.0f) * 11.0f
                 + log(x * 0.25f + 5.0f);
    }
}
";

/// The instruction cache fetches the code the launch ran: on the GTX 480 (GPGPU-Sim's
/// cache, which fetches nothing ahead), a launch whose lanes all take one side of an
/// `if` / `else` misses the lines of the kernel's code less the other side's; one whose
/// warps take both misses all of it. From the records PoCL's run of the annotated kernel
/// wrote.
#[test]
fn the_instruction_cache_fetches_only_the_side_every_lane_took() {
    let dir = std::env::temp_dir().join(format!("srcsim-e2e-sides-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("two_sides.cl");
    std::fs::write(&path, TWO_SIDES).unwrap();
    let compiler = Compiler::locate().unwrap();
    let arch = Architecture::load("gtx480").unwrap();
    let a = annotate_file(&compiler, &path, &BuildOptions::default(), &arch).unwrap();
    let analysis = &a.sidecar.analysis.kernels[0];
    let annotated = &a.sidecar.kernels[0];
    let arms = annotated.arm_code(analysis);
    // Two arms, siblings, each of its own code (three calls of `exp` or `log` inlined).
    let sides: Vec<u64> = arms
        .instructions
        .iter()
        .copied()
        .filter(|&n| n > 0)
        .collect();
    assert_eq!(sides.len(), 2, "{arms:?}");
    assert!(sides.iter().all(|&n| n >= 12), "{sides:?}");
    let code = analysis.code_instructions();
    let icache = arch.icache.clone().unwrap();
    let cold = |instructions: u64| icache.cold_cycles(instructions, arch.memory.dram);
    let n = 256;
    let run = |t: Vec<f32>| {
        let range = NdRange::d1(n).with_local([64, 1, 1]);
        let mut args = vec![KernelArg::from_slice(&t), KernelArg::zeroed::<f32>(n)];
        args.extend(record_args(&a.sidecar, "two_sides", &range, Grain::WorkItem).args);
        let mut out = run_kernel(&a.source, "", "two_sides", &args, &range).unwrap();
        let records = kernel_runner::from_bytes::<u64>(&out.buffers.pop().unwrap()).unwrap();
        let format = a.sidecar.records.format;
        estimate(
            &arch,
            &pipeline_model::LaunchGeometry {
                global: [n as u64, 1, 1],
                local: [64, 1, 1],
            },
            &KernelResources {
                code_instructions: code,
                arm_code: arms,
                ..KernelResources::default()
            },
            &Records::per_work_item(&records, format, a.sidecar.records.usage_scale),
        )
        .unwrap()
        .icache_cycles
    };
    let hot = run(vec![1500.0; n]);
    let cool = run(vec![300.0; n]);
    let mixed = run((0..n)
        .map(|i| if i % 2 == 0 { 1500.0 } else { 300.0 })
        .collect());
    assert_eq!(mixed, cold(code));
    // Each one-sided launch leaves out one side, not the same one.
    let without = |side: u64| cold(code - side);
    assert!(
        (hot == without(sides[0]) && cool == without(sides[1]))
            || (hot == without(sides[1]) && cool == without(sides[0])),
        "hot {hot}, cool {cool}, sides {sides:?} of {code}"
    );
    assert!(hot < mixed && cool < mixed, "{hot} {cool} {mixed}");
}
