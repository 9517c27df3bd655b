//! `srcsim run`: as a layer or preloaded, with events, with threads, reaching a host that
//! dlopens the loader; its report where SRCSIM_REPORT names it, and in CSV.

use super::*;

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

/// Issue 32: `srcsim run` writes the report SRCSIM_REPORT names where `--report` is not
/// given, as the README says (it ignored the variable before).
#[test]
fn srcsim_run_writes_the_report_srcsim_report_names() {
    let dir = std::env::temp_dir().join(format!("srcsim-env-report-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let report = dir.join("from-env.json");
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .arg("run")
        .arg("--")
        .arg(examples().join("vector_add"))
        .env("SRCSIM_REPORT", &report)
        .output()
        .expect("srcsim run");
    assert_eq!(out.status.code(), Some(0));
    let written = Report::read(&report).unwrap_or_else(|e| panic!("{e}"));
    assert_all_simulated("vector_add", &written, 1);
    let _ = std::fs::remove_dir_all(&dir);
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

/// A Rust host through opencl3, which loads libOpenCL with dlopen: the shim reaches it as
/// an OpenCL layer (the default of `srcsim run`), not through LD_PRELOAD.
#[test]
fn a_rust_host_that_dlopens_the_loader_is_reached_as_a_layer() {
    let host = rust_host();
    let before = Command::new(&host).output().unwrap();
    assert_eq!(before.status.code(), Some(0), "{before:?}");
    let (after, report) = simulated_at(&host, &[], &[], &[]);
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(after.stdout, before.stdout);
    let report = report.unwrap();
    assert_all_simulated("rust_host_blur", &report, 4);
    let configurations: Vec<(String, String)> = report
        .launches
        .iter()
        .map(|l| (l.kernel.to_string(), l.configuration()))
        .collect();
    let blur = ("box_blur".to_string(), "256x128 / 16x16".to_string());
    let sum = ("sum".to_string(), "1024 / 64".to_string());
    assert_eq!(configurations, [blur.clone(), blur.clone(), blur, sum]);
    // Three passes over the same image size: the same work, the same estimate.
    let cycles: Vec<u64> = report.launches[..3]
        .iter()
        .map(|l| l.estimate().unwrap().cycles)
        .collect();
    assert!(cycles.windows(2).all(|w| w[0] == w[1]), "{cycles:?}");

    // LD_PRELOAD does not reach a loader opened with dlopen: the host runs as it would
    // alone and the shim sees no OpenCL call, so there is no report.
    let (preloaded, report) = simulated_at(&host, &[], &["--preload"], &[]);
    assert_eq!(preloaded.status.code(), Some(0));
    assert_eq!(preloaded.stdout, before.stdout);
    assert!(report.is_err(), "{report:?}");
}

/// Issue 34: on a terminal `srcsim run --progress always` shows the launches taken and
/// estimated, ending at the run's own counts (stencil2d: 6 and 6); by default a short run
/// shows nothing, and piped (as in CI) no run does. The terminal is util-linux's
/// `script`, which runs the command on a pseudo-terminal.
#[test]
fn srcsim_run_shows_its_progress_on_a_terminal_only() {
    let host = examples().join("stencil2d");
    let on_tty = |extra: &str| {
        let command = format!(
            "{} run {extra} -- {}",
            env!("CARGO_BIN_EXE_srcsim"),
            host.display()
        );
        let out = Command::new("script")
            .args(["-qec", &command, "/dev/null"])
            .env_remove("SRCSIM_REPORT")
            .env("TERM", "xterm")
            .output()
            .expect("util-linux's script");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let always = on_tty("--progress always");
    assert!(always.contains("6 launches, 6 estimated"), "{always}");
    assert!(always.contains("stencil2d: OK"), "{always}");
    let short = on_tty("");
    assert!(!short.contains("estimated ("), "{short}");
    let piped = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(["run", "--progress", "always", "--"])
        .arg(&host)
        .env_remove("SRCSIM_REPORT")
        .output()
        .unwrap();
    assert!(piped.status.success());
    assert!(!String::from_utf8_lossy(&piped.stderr).contains("launches,"));
}

/// A program killed by a signal leaves no estimates (the shim writes them as the program
/// exits): `srcsim run` exits as a shell does (128 + the signal) and says why there is no
/// table, where before it was silent (the conformance suite's test_api, crashing inside
/// PoCL, showed nothing).
#[test]
fn srcsim_run_says_why_a_killed_program_has_no_estimates() {
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(["run", "--", "sh", "-c", "kill -SEGV $$"])
        .env_remove("SRCSIM_REPORT")
        .output()
        .expect("srcsim run");
    assert_eq!(out.status.code(), Some(128 + 11));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sh was killed by signal 11 (SIGSEGV): srcsim writes its estimates as the program exits, so this run has none"),
        "{stderr}"
    );
    // A program that exits, however badly, gets no such note.
    let out = Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .args(["run", "--", "sh", "-c", "exit 3"])
        .env_remove("SRCSIM_REPORT")
        .output()
        .expect("srcsim run");
    assert_eq!(out.status.code(), Some(3));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("killed by signal"));
}
