//! Milliseconds per kernel file for compile + parse + analyze, per phase, and for the whole
//! annotation (analysis, libclang parse, source CFGs, matching, code generation; cold: no
//! cache), on the example kernels (`cargo bench -p annotator --bench analyze`, or
//! `scripts/bench`).
//!
//! Each phase is timed over the same runs, side by side, and the median is reported; the
//! aims are under 200 ms for the analysis and under 300 ms for the annotation of a typical
//! kernel.

use std::path::Path;
use std::time::{Duration, Instant};

use annotator::analysis::blocks::analyze_module;
use annotator::annotate::annotate_file;
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::ptx;
use pipeline_model::Architecture;

fn median(mut v: Vec<Duration>) -> f64 {
    v.sort();
    v[v.len() / 2].as_secs_f64() * 1e3
}

fn main() {
    let runs: usize = std::env::var("SRCSIM_BENCH_RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(11);
    let arch_name = std::env::var("SRCSIM_ARCH").unwrap_or_else(|_| "gtx480".into());
    let arch = Architecture::load(&arch_name).expect("architecture");
    let compiler = Compiler::locate().expect("clang 19 and libclc");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/kernels");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/kernels")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    files.sort();

    println!("srcsim analyze: median of {runs} runs per kernel file, arch {arch_name}");
    println!(
        "{:<26} {:>7} {:>11} {:>9} {:>11} {:>10} {:>12}",
        "kernel file", "blocks", "compile ms", "parse ms", "analyze ms", "total ms", "annotate ms"
    );
    let mut totals = Vec::new();
    let mut annotations = Vec::new();
    for path in &files {
        let (mut c, mut p, mut a, mut ann) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let mut blocks = 0;
        for _ in 0..runs {
            let t0 = Instant::now();
            let compiled = compiler
                .compile(path, &BuildOptions::default(), &arch.compile.ptx_target)
                .expect("compiles");
            let t1 = Instant::now();
            let module = ptx::parse(&compiled.ptx).expect("parses");
            let t2 = Instant::now();
            let analysis = analyze_module(&module, &arch, "bench");
            let t3 = Instant::now();
            blocks = analysis.kernels.iter().map(|k| k.blocks.len()).sum();
            let t4 = Instant::now();
            // Refused kernels (e.g. runtime-unrolled loops) still cost their time.
            let _ = annotate_file(&compiler, path, &BuildOptions::default(), &arch);
            let t5 = Instant::now();
            c.push(t1 - t0);
            p.push(t2 - t1);
            a.push(t3 - t2);
            ann.push(t5 - t4);
        }
        let (c, p, a, ann) = (median(c), median(p), median(a), median(ann));
        totals.push(c + p + a);
        annotations.push(ann);
        println!(
            "{:<26} {:>7} {:>11.1} {:>9.2} {:>11.2} {:>10.1} {:>12.1}",
            path.file_name().unwrap().to_string_lossy(),
            blocks,
            c,
            p,
            a,
            c + p + a,
            ann
        );
    }
    totals.sort_by(f64::total_cmp);
    annotations.sort_by(f64::total_cmp);
    println!(
        "analysis: median {:.1} ms, max {:.1} ms (aim: under 200 ms); annotation: median {:.1} ms, max {:.1} ms (aim: under 300 ms)",
        totals[totals.len() / 2],
        totals[totals.len() - 1],
        annotations[annotations.len() / 2],
        annotations[annotations.len() - 1]
    );
}
