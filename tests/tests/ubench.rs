//! The GPU microbenchmark ports (validation/ubench) as scripts/calibrate runs them: the
//! small ones build, run on the OpenCL device alone and under `srcsim run`, print the same
//! output (their checksum line) both ways, and every launch gets an estimate; and the
//! committed calibration tables have a row for every port in the directory.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{root, rows};

/// Small ports and a command line of their measured runs: a few thousand work-items and
/// short loops, so that the test takes seconds.
const SMALL: &[(&str, &[&str])] = &[
    ("l2_lat", &["--fast"]),
    ("shared_lat", &["--blocks", "1"]),
    ("shared_bank_conflicts", &["1"]),
    ("shared_bank_conflicts", &["2"]),
];

/// srcsim's binary, built by the same cargo profile as this test (target/<profile>/srcsim);
/// built here when a run of this crate alone has not built it.
fn srcsim() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(Path::parent).unwrap().to_path_buf();
    let bin = profile_dir.join("srcsim");
    if !bin.is_file() {
        let mut cmd = Command::new(env!("CARGO"));
        cmd.current_dir(root())
            .args(["build", "-q", "-p", "runtime-shim"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            cmd.arg("--release");
        }
        assert!(cmd.status().expect("cargo runs").success());
    }
    assert!(bin.is_file(), "{} not built", bin.display());
    bin
}

/// Builds the given ports with validation/ubench/Makefile into a directory of this test's.
fn build(ports: &[&str]) -> PathBuf {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ubench");
    let targets: Vec<String> = ports
        .iter()
        .map(|p| out.join(p).display().to_string())
        .collect();
    let status = Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(root().join("validation/ubench"))
        .arg(format!("OUT={}", out.display()))
        .args(&targets)
        .status()
        .expect("make runs");
    assert!(status.success(), "building the ports failed");
    out
}

fn text(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn small_ports_run_alike_under_srcsim_and_are_simulated() {
    let names: Vec<&str> = SMALL.iter().map(|(p, _)| *p).collect();
    let bins = build(&names);
    let srcsim = srcsim();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ubench-reports");
    std::fs::create_dir_all(&dir).unwrap();
    for (i, (port, args)) in SMALL.iter().enumerate() {
        let exe = bins.join(port);
        let plain = Command::new(&exe).args(*args).output().unwrap();
        assert_eq!(
            plain.status.code(),
            Some(0),
            "{port} {args:?} fails on its own"
        );
        assert!(
            text(&plain).starts_with(&format!("{port}: checksum ")),
            "{port}: {}",
            text(&plain)
        );

        let report = dir.join(format!("{port}-{i}.json"));
        let _ = std::fs::remove_file(&report);
        let sim = Command::new(&srcsim)
            .args(["run", "--arch", "hopper_h100", "--report"])
            .arg(&report)
            .arg("--")
            .arg(&exe)
            .args(*args)
            .output()
            .unwrap();
        assert_eq!(
            sim.status.code(),
            Some(0),
            "{port} {args:?} under srcsim: {}",
            String::from_utf8_lossy(&sim.stderr)
        );
        assert_eq!(text(&sim), text(&plain), "{port} {args:?}: output differs");

        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let launches = json["launches"].as_array().unwrap();
        assert_eq!(launches.len(), 1, "{port}: {json}");
        for l in launches {
            assert_eq!(l["status"], "simulated", "{port}: {l}");
            let cycles = l["cycles"].as_u64().unwrap();
            let latency = l["latency_cycles"].as_u64().unwrap();
            assert!(cycles > 0 && cycles >= latency, "{port}: {l}");
            // Every port fills a buffer and waits (clFinish) before its one launch: the
            // fill did the context's set-up, so the launch's event holds the launch term
            // alone (hopper_h100's 3.8 us), not the first launch's 15 more.
            assert!(l.get("first_in_context").is_none(), "{port}: {l}");
            let event = l["event_micros"].as_f64().unwrap() - l["micros"].as_f64().unwrap();
            assert!((event - 3.8).abs() < 1e-9, "{port}: {l}");
        }
    }
}

/// Every port in validation/ubench (one C file each) has a row in the committed tables of
/// scripts/calibrate, and every row names a port that is there.
#[test]
fn calibration_tables_list_every_port() {
    let dir = root().join("validation/ubench");
    let ports: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let stem = path.file_stem()?.to_string_lossy().into_owned();
            (path.extension()? == "c").then_some(stem)
        })
        .collect();
    assert!(ports.len() >= 15, "{ports:?}");
    for arch in ["hopper_h100", "ampere_a100"] {
        let table = rows(&dir.join(format!("calibration-{arch}.csv")));
        let listed: BTreeSet<String> = table.iter().map(|r| r["port"].clone()).collect();
        assert_eq!(
            listed, ports,
            "calibration-{arch}.csv: rerun scripts/calibrate --arch {arch}"
        );
        for r in &table {
            assert_eq!(r["status"], "simulated", "{arch}: {r:?}");
            let predicted: u64 = r["predicted_cycles"].parse().unwrap();
            let measured: u64 = r["measured_cycles"].parse().unwrap();
            assert!(predicted > 0 && measured > 0, "{arch}: {r:?}");
            // What the port's OpenCL event would show: hopper_h100's launch term (3.8 us at
            // 1980 MHz, 7,524 cycles) over the kernel, never the context's first launch's
            // (every port waits for a fill first); the A100's file gives no event terms.
            let event = if arch == "hopper_h100" {
                (predicted + 7524).to_string()
            } else {
                String::new()
            };
            assert_eq!(r["event_cycles"], event, "{arch}: {r:?}");
        }
    }
}

/// `scripts/calibrate --measure` (what `scripts/gpu-validate` runs on a GPU machine) times a
/// port on this machine's OpenCL device: the CSV row has the kernels' profiled time, the
/// cycles at the architecture's clock (1980 MHz for the H100 file), the public table's
/// cycles, srcsim's committed prediction for the run, and the device the port says it ran
/// on.
#[test]
fn calibrate_measure_times_a_port_and_sets_it_beside_the_table_and_the_prediction() {
    let bin = build(&["l2_lat"]);
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("measured-l2_lat.csv");
    // A `clinfo` that lists nothing first on its path: the device must come from what the
    // port prints.
    let stub = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no-clinfo");
    std::fs::create_dir_all(&stub).unwrap();
    std::fs::write(stub.join("clinfo"), "#!/bin/sh\nexit 1\n").unwrap();
    std::fs::set_permissions(
        stub.join("clinfo"),
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let path = format!(
        "{}:{}",
        stub.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let status = Command::new("python3")
        .current_dir(root())
        .env("PATH", path)
        .arg("scripts/calibrate")
        .args(["--measure", "--no-build", "--only", "l2_lat", "--bin-dir"])
        .arg(&bin)
        .arg("--measure-out")
        .arg(&out)
        .status()
        .expect("python3 runs");
    assert!(status.success());
    let measured = rows(&out);
    assert_eq!(measured.len(), 1);
    let m = &measured[0];
    assert_eq!(m["status"], "measured");
    assert_eq!(m["kernels"], "1");
    let us: f64 = m["measured_us"].parse().unwrap();
    let cycles: u64 = m["measured_cycles"].parse().unwrap();
    // The cycles come from the unrounded time, the CSV has it to 0.001 µs: they agree
    // within half of that at 1980 MHz (about one cycle), plus the cycles' own rounding.
    let off = (cycles as f64 - us * 1980.0).abs();
    assert!(off <= 0.0005 * 1980.0 + 0.5, "{cycles} cycles, {us} µs");
    assert_eq!(m["table_hw_cycles"], "8138734");
    let committed = rows(&root().join("validation/ubench/calibration-hopper_h100.csv"));
    let predicted = &committed.iter().find(|r| r["run"] == "l2_lat").unwrap()["predicted_cycles"];
    assert_eq!(&m["srcsim_predicted_cycles"], predicted);
    let port = Command::new(bin.join("l2_lat"))
        .arg("--fast")
        .output()
        .expect("the port runs");
    let stderr = String::from_utf8_lossy(&port.stderr);
    let device = stderr
        .lines()
        .find_map(|l| l.strip_prefix("l2_lat: device "))
        .unwrap_or_else(|| panic!("the port names no device: {stderr}"));
    assert!(!device.is_empty() && device != "?", "{stderr}");
    assert_eq!(m["device"], device);
}

/// `mem_bw` never releases its context, and its launch's records (135168 work-items, a
/// kernel without a barrier) want the copy that reduces them to warps for their size
/// alone: a first run
/// (empty annotation cache) puts the copies' program off and may not build it at exit
/// (PoCL's compiler crashed there, under the application's exit, changing its exit
/// code); the next run builds the copies when it first wants them, and the one after
/// takes them from the binary kept.
#[test]
fn a_first_run_that_puts_off_the_copies_exits_cleanly_and_the_next_builds_them() {
    let exe = build(&["mem_bw"]).join("mem_bw");
    let plain = Command::new(&exe).arg("1").output().unwrap();
    assert_eq!(plain.status.code(), Some(0));
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("ubench-first-run-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let run = || {
        Command::new(srcsim())
            .args(["run", "--arch", "hopper_h100", "--"])
            .arg(&exe)
            .arg("1")
            .env("SRCSIM_CACHE_DIR", &cache)
            .env("SRCSIM_LOG", "debug")
            // Measured at every run: the estimate a run keeps for its command line
            // (`srcsim::remembered`) would spare the next run the kernel and its copies.
            .env("SRCSIM_MEASURE_EVERY_LAUNCH", "1")
            .output()
            .unwrap()
    };
    let logs: Vec<String> = (0..3)
        .map(|i| {
            let out = run();
            let log = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(out.status.code(), Some(0), "run {i}: {log}");
            assert_eq!(text(&out), text(&plain), "run {i}");
            log
        })
        .collect();
    assert!(
        logs[0].contains("records stay per work-item on this first run")
            && !logs[0].contains("copies that reduce records to warps built"),
        "{}",
        logs[0]
    );
    assert!(
        logs[1].contains("copies that reduce records to warps built")
            && !logs[1].contains("records stay per work-item"),
        "{}",
        logs[1]
    );
    assert!(
        logs[2].contains("built from the binaries a previous run kept"),
        "{}",
        logs[2]
    );
    let _ = std::fs::remove_dir_all(&cache);
}
