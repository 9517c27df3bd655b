//! The example host programs (examples/hosts) under the shim: the same output and exit
//! code as without it, and every launch in the report, simulated with its cycles or with
//! the reason it was not.

#[path = "../common/mod.rs"]
mod common;

use common::examples;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use srcsim_report::{Outcome, Report};

fn plain(program: &str) -> Output {
    plain_with(program, &[])
}

/// `program` run with `args`, without the shim.
fn plain_with(program: &str, args: &[&str]) -> Output {
    Command::new(examples().join(program))
        .args(args)
        .output()
        .expect("running the example")
}

/// Runs `program` through `srcsim run` with `extra` flags; returns its output and report.
fn simulated(program: &str, extra: &[&str], env: &[(&str, &str)]) -> (Output, Report) {
    simulated_with(program, &[], extra, env)
}

/// Runs `program args` through `srcsim run` with `extra` flags.
fn simulated_with(
    program: &str,
    args: &[&str],
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Output, Report) {
    let (out, report) = simulated_at(&examples().join(program), args, extra, env);
    let report = report
        .unwrap_or_else(|e| panic!("{program}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    (out, report)
}

/// Runs the host at `path` with `args` through `srcsim run`; its output and report (if it
/// wrote one).
fn simulated_at(
    path: &Path,
    args: &[&str],
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Output, Result<Report, String>) {
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let name = path.file_name().unwrap().to_string_lossy();
    // One file per call: tests run in parallel threads and several run the same host.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let report = dir.join(format!("{name}-{call}.json"));
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .arg("run")
        .args(["--report", report.to_str().unwrap()])
        .args(extra)
        .arg("--")
        .arg(path)
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("srcsim run");
    (out, Report::read(&report).map_err(|e| e.to_string()))
}

/// The Rust host (examples/rust, an example of this crate that `cargo test` builds).
fn rust_host() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let debug = exe.parent().and_then(Path::parent).unwrap();
    let host = debug.join("examples/rust_host_blur");
    assert!(host.is_file(), "{} not built", host.display());
    host
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

mod binaries;
mod cold_caches;
mod devices;
mod estimates;
mod example_hosts;
mod many_launches;
mod profile;
mod refusals;
mod srcsim_run;
mod svm;
mod warm_runs;
