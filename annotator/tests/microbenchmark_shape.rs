//! The paper's microbenchmark (Figure 2) through the static tables and the analytical
//! model: a loop of 30 dependent divisions, one work-group of 1 to 1024 work-items on the
//! GTX 480. The per-work-item records are computed here, independently of any annotator,
//! by Algorithm 2's path sum over the analysis tables: t = t_v0 + sum of
//! (t_(v_{i-1},v_i) - t_v_{i-1}) along the executed path, use(r) = sum of use(r, v_i).
//! The estimate must stay flat (within 1%) while the warps only hide each other's
//! latency, up to 256 work-items, and grow linearly once the SFU is saturated.

use std::path::Path;

use annotator::analysis::blocks::{analyze_file, FunctionAnalysis};
use annotator::front::compile::{BuildOptions, Compiler};
use pipeline_model::{
    estimate, Architecture, Grain, KernelResources, LaunchGeometry, RecordFormat, Records,
};

const ITERATIONS: usize = 100;

/// The executed path of `div_chain` for `n` iterations: entry, header, (latch, header)
/// n - 1 times, exit; found from the CFG, not assumed.
fn path(k: &FunctionAnalysis, n: usize) -> Vec<usize> {
    assert_eq!(k.loops.len(), 1, "{:?}", k.loops);
    let l = &k.loops[0];
    let header = l.header;
    let latch = l.latches[0];
    let exit = *k.blocks[header]
        .successors
        .iter()
        .find(|s| !l.body.contains(s))
        .expect("loop exit");
    let mut p = vec![0, header];
    for _ in 1..n {
        p.extend([latch, header]);
    }
    p.push(exit);
    p
}

fn record(k: &FunctionAnalysis, p: &[usize], scale: f64) -> Vec<u64> {
    let edge = |a: usize, b: usize| {
        k.edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .unwrap_or_else(|| panic!("B{a} -> B{b} is no edge"))
            .cycles
    };
    let mut t = k.blocks[p[0]].cycles;
    for w in p.windows(2) {
        t += edge(w[0], w[1]) - k.blocks[w[0]].cycles;
    }
    let r = k.blocks[0].usage.len();
    let mut rec = vec![t];
    for res in 0..r {
        let u: f64 = p.iter().map(|&b| k.blocks[b].usage[res]).sum::<f64>() * scale;
        assert_eq!(u.fract(), 0.0, "usage {u} is not a whole number of units");
        rec.push(u as u64);
    }
    rec
}

#[test]
fn flat_while_latency_bound_then_linear() {
    let arch = Architecture::load("gtx480").unwrap();
    let compiler = Compiler::locate().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels/div_chain.cl");
    let (a, _) = analyze_file(&compiler, &file, &BuildOptions::default(), &arch).unwrap();
    let k = &a.kernels[0];
    let scale = arch.usage_scale();
    let rec = record(k, &path(k, ITERATIONS), scale as f64);
    // 30 divisions of latency 39 per iteration at least.
    assert!(rec[0] >= (ITERATIONS * 30 * 39) as u64);

    let sizes: Vec<u64> = std::iter::once(1).chain((1..=32).map(|i| i * 32)).collect();
    let cycles: Vec<u64> = sizes
        .iter()
        .map(|&n| {
            let data: Vec<u64> = (0..n).flat_map(|_| rec.iter().copied()).collect();
            let e = estimate(
                &arch,
                &LaunchGeometry {
                    global: [n, 1, 1],
                    local: [n, 1, 1],
                },
                &KernelResources::default(),
                &Records {
                    data: &data,
                    format: RecordFormat::timing(rec.len() - 1, 0),
                    usage_scale: scale,
                    grain: Grain::WorkItem,
                    shared: None,
                },
            )
            .unwrap();
            e.cycles
        })
        .collect();
    let base = cycles[0] as f64;
    for (n, c) in sizes.iter().zip(&cycles) {
        if *n <= 256 {
            assert!(*c as f64 <= base * 1.01, "{n} work-items: {c} vs {base}");
        }
    }
    // Past saturation the time is proportional to the warps: 1024 takes twice 512.
    let at = |n: u64| cycles[sizes.iter().position(|&s| s == n).unwrap()] as f64;
    assert!((at(1024) / at(512) - 2.0).abs() < 0.02, "{cycles:?}");
    assert!((at(768) / at(512) - 1.5).abs() < 0.02, "{cycles:?}");
    assert!(at(1024) > 2.5 * base, "{cycles:?}");
}
