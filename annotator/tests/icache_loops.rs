//! GPGPU-Sim's instruction cache keeps 2 KiB (gtx480's `[icache]`: 4 sets of 4 ways,
//! 128-byte lines, the least recently used replaced), and a loop whose iterations run more
//! code misses it again every iteration. The analysis charges that on the loop's back
//! edge: the lines of the sets the iteration's code overfills, an L2 trip each, two at a
//! time. An iteration's code is the lightest path through the body, so a loop that keeps
//! a long branch few iterations take is charged nothing.

use std::path::Path;

use annotator::analysis::blocks::{analyze_file, FunctionAnalysis};
use annotator::front::compile::{BuildOptions, Compiler};
use pipeline_model::Architecture;

/// 8 dependent multiply-adds; `R64` repeats them 64 times (512).
const SOURCE: &str = "
#define F8 x = fma(x, y, 1.0f); x = fma(x, y, 2.0f); x = fma(x, y, 3.0f); x = fma(x, y, 4.0f); \\
           x = fma(x, y, 5.0f); x = fma(x, y, 6.0f); x = fma(x, y, 7.0f); x = fma(x, y, 8.0f);
#define R8 F8 F8 F8 F8 F8 F8 F8 F8
#define R64 R8 R8 R8 R8 R8 R8 R8 R8
__kernel void long_body(__global float *out, float y, int n) {
    float x = out[get_global_id(0)];
    #pragma unroll 1
    for (int i = 0; i < n; i++) {
        R64
    }
    out[get_global_id(0)] = x;
}
__kernel void long_branch(__global float *out, float y, int n) {
    float x = out[get_global_id(0)];
    #pragma unroll 1
    for (int i = 0; i < n; i++) {
        x = fma(x, y, 1.0f);
        if (x > 1.0e30f) {
            R64
        }
    }
    out[get_global_id(0)] = x;
}
";

/// Each back edge's pair time under `arch`, by kernel name.
fn back_edges(arch: &Architecture) -> Vec<(String, u64, FunctionAnalysis)> {
    let dir = std::env::temp_dir().join(format!("srcsim-icache-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("icache_loops.cl");
    std::fs::write(&path, SOURCE).unwrap();
    let compiler = Compiler::locate().unwrap();
    let (analysis, _) =
        analyze_file(&compiler, Path::new(&path), &BuildOptions::default(), arch).unwrap();
    analysis
        .kernels
        .into_iter()
        .map(|k| {
            let back: Vec<u64> = k
                .edges
                .iter()
                .filter(|e| e.back_edge)
                .map(|e| e.cycles)
                .collect();
            assert_eq!(back.len(), 1, "{}: {:?}", k.name, k.edges);
            (k.name.clone(), back[0], k)
        })
        .collect()
}

#[test]
fn a_loop_running_more_code_than_the_cache_keeps_refetches_it_each_iteration() {
    let gtx480 = Architecture::load("gtx480").unwrap();
    let cache = gtx480.icache.clone().unwrap();
    assert_eq!(
        (cache.sets, cache.ways, cache.line_bytes),
        (Some(4), Some(4), 128)
    );
    let mut unbounded = gtx480.clone();
    unbounded.icache.as_mut().unwrap().sets = None;
    let with = back_edges(&gtx480);
    let without = back_edges(&unbounded);
    for ((name, charged, k), (_, bare, _)) in with.iter().zip(&without) {
        let lp = &k.loops[0];
        let body: u64 = lp
            .body
            .iter()
            .map(|&b| k.blocks[b].instructions as u64)
            .sum();
        match name.as_str() {
            "long_body" => {
                // At least the 512 multiply-adds an iteration, every one of them run.
                assert!(body >= 512, "{body}");
                let lines = (body * 8).div_ceil(128);
                // More than 16 lines: every set holds more than its 4 ways; each line an
                // L2 trip (250 cycles), two at a time.
                assert!(lines > 16 * 2);
                assert_eq!(charged - bare, lines * 250 / 2, "{name}: {lines} lines");
            }
            "long_branch" => {
                // The body holds the 512 behind the branch, but an iteration need not run
                // them: nothing charged.
                assert!(body >= 512, "{body}");
                assert_eq!(charged, bare, "{name}");
            }
            other => panic!("{other}"),
        }
    }
}
