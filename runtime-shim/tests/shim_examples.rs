//! The example host programs (examples/hosts) under the shim: the same output and exit
//! code as without it, and every launch in the report, simulated with its cycles or with
//! the reason it was not.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use srcsim::report::{Outcome, Report};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Builds the examples once, into a directory of this test's own.
fn examples() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let out = root().join("target/test-examples");
        let status = Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(root().join("examples/hosts"))
            .arg(format!("OUT={}", out.display()))
            .status()
            .expect("make");
        assert!(status.success(), "building examples/hosts failed");
        out
    })
}

fn plain(program: &str) -> Output {
    Command::new(examples().join(program))
        .output()
        .expect("running the example")
}

/// Runs `program` through `srcsim run` with `extra` flags; returns its output and report.
fn simulated(program: &str, extra: &[&str], env: &[(&str, &str)]) -> (Output, Report) {
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join(format!("{program}-{}.json", extra.join("")));
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .arg("run")
        .args(["--report", report.to_str().unwrap()])
        .args(extra)
        .arg("--")
        .arg(examples().join(program))
        .envs(env.iter().copied())
        .output()
        .expect("srcsim run");
    let r = Report::read(&report)
        .unwrap_or_else(|e| panic!("{program}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out, r)
}

fn assert_all_simulated(program: &str, report: &Report, launches: usize) {
    assert_eq!(report.launches.len(), launches, "{program}: {report:#?}");
    for l in &report.launches {
        match &l.outcome {
            Outcome::Simulated(e) => {
                assert!(e.cycles > 0 && e.micros > 0.0, "{program}: {l:?}");
                assert!(e.cycles >= e.latency_cycles, "{program}: {l:?}");
            }
            Outcome::NotSimulated { reason } => {
                panic!("{program}: {} not simulated: {reason}", l.kernel)
            }
        }
    }
}

/// (program, launches it makes)
const SIMULATED: &[(&str, usize)] = &[
    ("vector_add", 1),
    ("reduction", 2),
    ("scan", 3),
    ("stencil2d", 6),
    ("matmul", 1),
    ("spmv", 1),
    ("nbody", 1),
    ("kmeans", 5),
    ("volume3d", 1),
    ("dp_saxpy", 1),
];

#[test]
fn examples_compute_the_same_and_every_launch_is_simulated() {
    for &(program, launches) in SIMULATED {
        let before = plain(program);
        let (after, report) = simulated(program, &[], &[]);
        assert_eq!(before.status.code(), Some(0), "{program} fails on its own");
        assert_eq!(
            after.status.code(),
            before.status.code(),
            "{program}: exit code"
        );
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&before.stdout),
            "{program}: output"
        );
        assert_all_simulated(program, &report, launches);
    }
}

#[test]
fn a_kernel_the_annotator_cannot_count_runs_unannotated_with_the_reason() {
    let before = plain("histogram");
    let (after, report) = simulated("histogram", &[], &[]);
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(after.stdout, before.stdout);
    assert_eq!(report.launches.len(), 1);
    match &report.launches[0].outcome {
        Outcome::NotSimulated { reason } => {
            assert!(reason.contains("unrolled this loop"), "{reason}")
        }
        other => panic!("simulated: {other:?}"),
    }
    let stderr = String::from_utf8_lossy(&after.stderr);
    assert!(stderr.contains("1 launch(es) not simulated"), "{stderr}");
}

#[test]
fn events_and_profiling_still_work() {
    let (out, report) = simulated("events_profile", &[], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_all_simulated("events_profile", &report, 2);
    // The second launch is clEnqueueTask: one work-item in one work-group.
    let task = &report.launches[1];
    assert_eq!((task.global, task.local), ([1, 1, 1], [1, 1, 1]));
}

#[test]
fn a_host_asking_for_a_gpu_gets_the_cpu_unless_told_not_to() {
    assert_eq!(
        plain("gpu_by_type").status.code(),
        Some(3),
        "this machine has a GPU?"
    );
    let (out, report) = simulated("gpu_by_type", &[], &[]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_all_simulated("gpu_by_type", &report, 1);
    let (kept, report) = simulated("gpu_by_type", &[], &[("SRCSIM_KEEP_DEVICE_TYPE", "1")]);
    assert_eq!(kept.status.code(), Some(3));
    assert!(report.launches.is_empty());
}

#[test]
fn layer_and_preload_give_the_same_deterministic_estimates() {
    let cycles = |r: &Report| -> Vec<u64> {
        r.launches
            .iter()
            .map(|l| l.estimate().expect("simulated").cycles)
            .collect()
    };
    let (_, layer) = simulated("stencil2d", &[], &[]);
    let (_, preload) = simulated("stencil2d", &["--preload"], &[]);
    let (_, again) = simulated("stencil2d", &[], &[]);
    assert_eq!(cycles(&layer), cycles(&preload));
    assert_eq!(cycles(&layer), cycles(&again));
    // stencil2d launches one configuration six times: equal work, equal estimates.
    assert!(
        cycles(&layer).windows(2).all(|w| w[0] == w[1]),
        "{:?}",
        cycles(&layer)
    );
}

#[test]
fn the_report_names_every_launch_in_csv_too() {
    let dir = std::env::temp_dir().join(format!("srcsim-shim-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let csv = dir.join("kmeans.csv");
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(["run", "--report", csv.to_str().unwrap(), "--"])
        .arg(examples().join("kmeans"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 1 + 5, "{text}");
    assert!(
        rows[1..].iter().all(|r| r.contains(",simulated,")),
        "{text}"
    );
}

/// The paper's microbenchmark under the shim on gtx480: one work-group of 1, 32, ...,
/// 1024 work-items running 30 dependent divisions per iteration. While latency-bound the
/// estimate is flat (one warp's dependent chain); once the SFU saturates it grows in
/// proportion to the warps (each adds the same SFU time).
#[test]
fn microbenchmark_is_flat_then_linear() {
    let (out, report) = simulated("microbenchmark", &[], &[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_all_simulated("microbenchmark", &report, 33);
    let points: Vec<(u64, u64, String)> = report
        .launches
        .iter()
        .map(|l| {
            let e = l.estimate().unwrap();
            (l.global[0], e.cycles, e.bound.clone())
        })
        .collect();
    let at = |n: u64| points.iter().find(|p| p.0 == n).unwrap().1 as f64;
    for (n, cycles, bound) in &points {
        if *n <= 256 {
            assert!((*cycles as f64 - at(1)).abs() <= 0.01 * at(1), "{points:?}");
            assert_eq!(bound, "latency", "{points:?}");
        }
    }
    let (last, knee) = (at(1024), at(512));
    assert!((last / knee - 2.0).abs() < 0.05, "{points:?}");
    // Beyond the knee, equal steps in work-items give equal steps in cycles.
    let tail: Vec<f64> = points
        .iter()
        .filter(|p| p.0 >= 512)
        .map(|p| p.1 as f64)
        .collect();
    let steps: Vec<f64> = tail.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        steps
            .iter()
            .all(|s| (s - steps[0]).abs() <= 0.02 * steps[0]),
        "{steps:?}"
    );
}

/// Four host threads building programs and launching kernels at once: no launch lost,
/// every one simulated, the report's indices whole.
#[test]
fn threads_building_and_launching_at_once_lose_nothing() {
    let before = plain("threads");
    let (after, report) = simulated("threads", &[], &[]);
    assert_eq!(
        after.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&after.stdout)
    );
    assert_eq!(after.stdout, before.stdout);
    assert_all_simulated("threads", &report, 32);
    let indices: Vec<usize> = report.launches.iter().map(|l| l.index).collect();
    assert_eq!(indices, (0..32).collect::<Vec<_>>());
}
