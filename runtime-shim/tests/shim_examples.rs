//! The example host programs (examples/hosts) under the shim: the same output and exit
//! code as without it, and every launch in the report, simulated with its cycles or with
//! the reason it was not.

mod common;

use common::examples;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

use srcsim::report::{Outcome, Report};

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
    ("histogram", 1),
    ("match_count", 1),
    ("gated_launches", 64),
    ("lu_steps", 1022),
];

/// (program, launches it makes, launches the annotated kernels run, launches whose paths
/// the host evaluates): programs of thousands of small launches, whose kernels' paths
/// depend on their geometry and some value arguments alone (`annotator::control`), so
/// that a launch is measured once per kernel and distinct values of those (`red_black`:
/// one kernel, two colours), on the device or, where its branches compare global ids
/// with those values (`annotator::host_paths`), on the host.
const MANY_LAUNCHES: &[(&str, usize, usize, usize)] = &[
    ("heat_steps", 3000, 1, 2),
    ("tiny_launches", 20000, 0, 1),
    ("converge", 1624, 2, 0),
    ("red_black", 800, 2, 0),
];

#[test]
fn programs_of_thousands_of_launches_compute_the_same_and_every_launch_is_simulated() {
    for &(program, launches, annotated, evaluated) in MANY_LAUNCHES {
        let before = plain(program);
        let (after, report) = simulated(program, &[], &[("SRCSIM_LOG", "info")]);
        assert_eq!(before.status.code(), Some(0), "{program} fails on its own");
        assert_eq!(after.status.code(), Some(0), "{program}: exit code");
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&before.stdout),
            "{program}: output"
        );
        assert_all_simulated(program, &report, launches);
        // The annotated kernels ran only where the deciding values were new (unless an
        // earlier run of the same command line measured them: `srcsim::remembered`); the
        // other launches ran the application's kernel.
        let log = String::from_utf8_lossy(&after.stderr);
        let repeated = launches - annotated - evaluated;
        let count = |what: &str| -> usize {
            let at = log.find(what).unwrap_or_else(|| panic!("{program}: {log}"));
            log[..at].rsplit(' ').next().unwrap().parse().unwrap()
        };
        assert_eq!(
            count(" launches annotated,") + count(" launches took the estimate a previous run"),
            annotated,
            "{program}: {log}"
        );
        assert!(
            log.contains(&format!("; {repeated} launches repeated an earlier one's"))
                && log.contains(&format!("; {evaluated} launches had their paths evaluated")),
            "{program}: {log}"
        );
        // Measured at every launch, the same estimates: from the third launch of a
        // kernel in a row, its copy reduces the records to warps (built once, with the
        // arguments set before it was made).
        let (every, every_report) = simulated(
            program,
            &[],
            &[("SRCSIM_LOG", "info"), ("SRCSIM_MEASURE_EVERY_LAUNCH", "1")],
        );
        let log = String::from_utf8_lossy(&every.stderr);
        // (Where no run kept the copies' binaries yet, the first 31 launches in a row
        // keep records per work-item.)
        assert!(
            log.contains(&format!("timing: {launches} launches annotated,"))
                && log.contains("copies that reduce records to warps built"),
            "{program}: {log}"
        );
        assert_eq!(every.stdout, after.stdout, "{program}: output");
        assert_eq!(every_report.launches, report.launches, "{program}");
        // Launches of one kernel and configuration with the same counts have the same
        // estimate, whether the model ran or the estimate was reused, and whether the
        // records came per work-item (the first two) or per warp.
        let mut seen = std::collections::HashMap::new();
        for l in &every_report.launches {
            let Outcome::Simulated(e) = &l.outcome else {
                unreachable!()
            };
            let first = seen
                .entry((l.kernel.clone(), l.global, l.local))
                .or_insert(e.cycles);
            assert_eq!(
                *first, e.cycles,
                "{program}: launch {} of {}",
                l.index, l.kernel
            );
        }
    }
}

/// `lu_steps`: each of its 1022 launches has a new step `k`, which decides which
/// work-items work; the host evaluates every launch's paths (no annotated kernel runs) and
/// gives every launch the estimate that measuring it on the device (its copy that keeps
/// paths) gives.
#[test]
fn every_lu_step_evaluated_on_the_host_is_estimated_as_measured() {
    let before = plain("lu_steps");
    let (after, report) = simulated("lu_steps", &[], &[("SRCSIM_LOG", "info")]);
    assert_eq!(after.stdout, before.stdout);
    assert_all_simulated("lu_steps", &report, 1022);
    let log = String::from_utf8_lossy(&after.stderr);
    assert!(
        log.contains("timing: 0 launches annotated,")
            && log.contains("; 1022 launches had their paths evaluated on the host"),
        "{log}"
    );
    let every = [("SRCSIM_LOG", "info"), ("SRCSIM_MEASURE_EVERY_LAUNCH", "1")];
    let (measured, measured_report) = simulated("lu_steps", &[], &every);
    let log = String::from_utf8_lossy(&measured.stderr);
    assert!(log.contains("timing: 1022 launches annotated,"), "{log}");
    assert_eq!(measured.stdout, before.stdout);
    assert_eq!(measured_report.launches, report.launches);
    // The steps differ: the estimates are not one launch's repeated.
    let cycles: std::collections::BTreeSet<u64> = report
        .launches
        .iter()
        .map(|l| l.estimate().unwrap().cycles)
        .collect();
    assert!(cycles.len() > 100, "{} distinct estimates", cycles.len());
}

/// How many launches waited for room for their records, from the timing line of
/// `SRCSIM_LOG=info`.
fn room_waits(log: &str) -> usize {
    let (_, after) = log
        .split_once("each in the application's thread (")
        .unwrap_or_else(|| panic!("no timing line: {log}"));
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn launches_past_the_records_budget_wait_for_room_unless_a_user_event_may_gate_them() {
    // heat_steps measured at every launch enqueues 3000 launches far ahead of the device:
    // with 1 MiB allowed, launches wait for the model, and the estimates are the same.
    // Unheld, it is given more room than all its records take (1000 steps of at most
    // 3344 work-items' records of 11 values: under 290 MiB), so that no launch can wait
    // however far the model falls behind on a busy machine (with the default 16 MiB, one
    // did once: its records in flight are about 8.7 MiB when the model keeps up).
    let every = [("SRCSIM_LOG", "info"), ("SRCSIM_MEASURE_EVERY_LAUNCH", "1")];
    let (free, free_report) = simulated(
        "heat_steps",
        &[],
        &[every[0], every[1], ("SRCSIM_RECORDS_MIB", "512")],
    );
    let (held, held_report) = simulated(
        "heat_steps",
        &[],
        &[every[0], every[1], ("SRCSIM_RECORDS_MIB", "1")],
    );
    assert_eq!(held.status.code(), Some(0));
    assert_eq!(held.stdout, free.stdout);
    assert_eq!(held_report.launches, free_report.launches);
    let (free_log, held_log) = (
        String::from_utf8_lossy(&free.stderr),
        String::from_utf8_lossy(&held.stderr),
    );
    assert_eq!(room_waits(&free_log), 0, "{free_log}");
    assert!(room_waits(&held_log) > 0, "{held_log}");
    // gated_launches' first launch waits on a user event the program completes after
    // enqueueing the rest: a launch held for room would wait for records that cannot
    // come back until it returns. Having seen the user event, the shim holds none.
    let before = plain("gated_launches");
    let (after, report) = simulated(
        "gated_launches",
        &[],
        &[("SRCSIM_LOG", "info"), ("SRCSIM_RECORDS_MIB", "1")],
    );
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(after.stdout, before.stdout);
    assert_all_simulated("gated_launches", &report, 64);
    let log = String::from_utf8_lossy(&after.stderr);
    assert_eq!(room_waits(&log), 0, "{log}");
    // A budget that is no number of MiB is named, and the default used.
    let (bad, _) = simulated("vector_add", &[], &[("SRCSIM_RECORDS_MIB", "lots")]);
    let log = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(0));
    assert_eq!(bad.stdout, plain("vector_add").stdout);
    assert!(
        log.contains("srcsim: SRCSIM_RECORDS_MIB=lots is not a positive number of MiB; using 16"),
        "{log}"
    );
}

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

/// The corpus (examples/hosts/kernels/corpus, one host each): (program, launches it
/// makes, the kernels of its file, each launched at least once).
const CORPUS: &[(&str, usize, &[&str])] = &[
    (
        "corpus_linalg",
        99,
        &[
            "gemm_tiled",
            "gemv",
            "transpose_tiled",
            "dot_partial",
            "lu_column",
            "lu_trailing",
            "gauss_eliminate",
            "back_substitute",
        ],
    ),
    (
        "corpus_sparse",
        5,
        &[
            "spmv_csr_scalar",
            "spmv_csr_vector",
            "spmv_ell",
            "spmv_dia",
            "csr_census",
        ],
    ),
    (
        "corpus_stencil",
        43,
        &[
            "jacobi1d",
            "jacobi2d_tiled",
            "heat3d",
            "wave1d",
            "fdtd_h",
            "fdtd_e",
        ],
    ),
    (
        "corpus_graph",
        37,
        &[
            "bfs_expand",
            "bfs_advance",
            "sssp_relax",
            "cc_propagate",
            "pagerank_pull",
        ],
    ),
    (
        "corpus_particles",
        6,
        &[
            "nbody_accel",
            "bin_count",
            "neighbour_list",
            "list_force",
            "pf_weight",
            "pf_resample",
        ],
    ),
    (
        "corpus_sort",
        97,
        &[
            "bitonic_local",
            "bitonic_step",
            "rank_sort",
            "radix_count",
            "odd_even_step",
        ],
    ),
    (
        "corpus_image",
        6,
        &[
            "convolve",
            "sobel",
            "median3x3",
            "blur_rows",
            "blur_cols",
            "grey_histogram",
        ],
    ),
    (
        "corpus_dp",
        110,
        &[
            "nw_diagonal",
            "sw_tile",
            "edit_distance",
            "knapsack_row",
            "max_subarray",
        ],
    ),
    (
        "corpus_cluster",
        12,
        &[
            "kmeans_assign",
            "kmeans_accumulate",
            "haar_forward",
            "haar_inverse",
            "haar2d_level",
            "density_count",
        ],
    ),
];

/// Every kernel of the corpus is simulated: no refusal, no launch left unsimulated, and
/// each host prints and exits as it does on its own.
#[test]
fn every_kernel_of_the_corpus_is_simulated_and_computes_the_same() {
    let mut kernels = 0;
    for &(program, launches, names) in CORPUS {
        let before = plain(program);
        let (after, report) = simulated(program, &[], &[]);
        assert_eq!(
            before.status.code(),
            Some(0),
            "{program} fails on its own: {}",
            String::from_utf8_lossy(&before.stderr)
        );
        assert_eq!(after.status.code(), Some(0), "{program}: exit code");
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            String::from_utf8_lossy(&before.stdout),
            "{program}: output"
        );
        assert!(
            String::from_utf8_lossy(&before.stdout).ends_with(&format!("{program}: OK\n")),
            "{program}: {}",
            String::from_utf8_lossy(&before.stdout)
        );
        assert_all_simulated(program, &report, launches);
        let mut launched: Vec<&str> = report.launches.iter().map(|l| &*l.kernel).collect();
        launched.sort_unstable();
        launched.dedup();
        let mut want = names.to_vec();
        want.sort_unstable();
        assert_eq!(launched, want, "{program}: the kernels launched");
        kernels += names.len();
    }
    assert_eq!(kernels, 52);
}

#[test]
fn a_kernel_the_annotator_cannot_count_runs_unannotated_with_the_reason() {
    // Its kernel returns inside a macro expansion, where no counters can be written.
    let before = plain("unsupported");
    assert_eq!(
        before.status.code(),
        Some(0),
        "unsupported fails on its own"
    );
    let (after, report) = simulated("unsupported", &[], &[]);
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(after.stdout, before.stdout);
    assert_eq!(report.launches.len(), 1);
    match &report.launches[0].outcome {
        Outcome::NotSimulated { reason } => {
            assert!(
                reason.contains("returns inside a macro expansion"),
                "{reason}"
            );
            // The kernel source came as a string: the message says so, and where the
            // annotator's copy of it is, at the line of the macro's use.
            assert!(
                reason.contains(
                    "program.cl (the source given to clCreateProgramWithSource, kept at "
                ),
                "{reason}"
            );
            assert!(
                reason.contains("/program.cl):14: kernel `guarded_scale`"),
                "{reason}"
            );
        }
        other => panic!("simulated: {other:?}"),
    }
    let stderr = String::from_utf8_lossy(&after.stderr);
    assert!(stderr.contains("1 launch(es) not simulated"), "{stderr}");
}

#[test]
fn a_refused_kernel_runs_as_it_is_and_the_other_kernels_of_its_program_are_simulated() {
    // kernels/partly_refused.cl: `scale` is annotated; `block_sums` (a barrier inside a
    // branch on a value read from memory) and `shift` (a return inside a macro expansion) are refused, and `twice` is
    // a helper of both `scale` and `block_sums`.
    let before = plain("partly_refused");
    assert_eq!(
        before.status.code(),
        Some(0),
        "partly_refused fails on its own"
    );
    let (after, report) = simulated("partly_refused", &[], &[]);
    let stderr = String::from_utf8_lossy(&after.stderr);
    assert_eq!(after.status.code(), Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&after.stdout),
        String::from_utf8_lossy(&before.stdout)
    );
    let kernels: Vec<&str> = report.launches.iter().map(|l| &*l.kernel).collect();
    assert_eq!(kernels, ["scale", "block_sums", "shift", "scale"]);
    let reason = |i: usize| match &report.launches[i].outcome {
        Outcome::NotSimulated { reason } => reason.clone(),
        other => panic!("launch {i} simulated: {other:?}"),
    };
    for i in [0, 3] {
        match &report.launches[i].outcome {
            Outcome::Simulated(e) => assert!(e.cycles > 0, "{e:?}"),
            Outcome::NotSimulated { reason } => panic!("scale not simulated: {reason}"),
        }
    }
    // Each refused kernel with the file and line of its construct, and the construct.
    let origin = "program.cl (the source given to clCreateProgramWithSource, kept at ";
    let block_sums = reason(1);
    assert!(block_sums.starts_with(origin), "{block_sums}");
    assert!(
        block_sums.contains(
            "/program.cl):35: `block_sums` waits at a barrier inside a branch whose condition \
             may differ between the work-items of a work-group"
        ),
        "{block_sums}"
    );
    let shift = reason(2);
    assert!(shift.starts_with(origin), "{shift}");
    assert!(
        shift.contains(
            "/program.cl):48: kernel `shift` returns inside a macro expansion; the annotator \
             cannot write its counters there"
        ),
        "{shift}"
    );
    // One warning per refused kernel as the program is built, and the table's lines.
    assert_eq!(
        stderr
            .lines()
            .filter(|l| l.starts_with("srcsim: kernel `"))
            .count(),
        2,
        "{stderr}"
    );
    assert!(
        stderr.contains("srcsim: shift: 1 launch(es) not simulated: "),
        "{stderr}"
    );
}

/// `program` run without the shim and through `srcsim run` (with `log`), each with an
/// empty PoCL kernel cache (so that PoCL compiles every program's source, and prints
/// what its compiler prints) and an empty annotation cache: the plain output and the
/// shim's output and report.
fn with_cold_caches(program: &str, log: &str) -> (Output, Output, Report) {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "srcsim-cold-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let pocl = |name: &str| dir.join(name).display().to_string();
    let before = Command::new(examples().join(program))
        .env("POCL_CACHE_DIR", pocl("pocl-plain"))
        .output()
        .expect("running the example");
    let (pocl_shim, cache) = (pocl("pocl-shim"), pocl("srcsim"));
    let (after, report) = simulated(
        program,
        &[],
        &[
            ("POCL_CACHE_DIR", pocl_shim.as_str()),
            ("SRCSIM_CACHE_DIR", cache.as_str()),
            ("SRCSIM_LOG", log),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
    (before, after, report)
}

/// Issue 35: integer `/` and `%` by zero (int, uint, char, long, int4, and the
/// conformance suite's `/=` and `%=`). x86 traps on them; PoCL steps over the trapping
/// instruction in its own SIGFPE handler, so the program runs on. Under the shim it died
/// of SIGFPE (exit 136) where the annotation ran in the process: libclang's crash
/// recovery had put LLVM's handler in place of PoCL's. The annotation cache must be
/// empty, or libclang never runs. Every result, the undefined ones too (what PoCL's
/// stepping over leaves), is as without the shim.
#[test]
fn a_kernel_dividing_by_zero_computes_and_exits_as_without_the_shim() {
    let program = "div_by_zero";
    let before = plain(program);
    assert_eq!(
        before.status.code(),
        Some(0),
        "{program} fails on its own: {}",
        String::from_utf8_lossy(&before.stderr)
    );
    let cache = std::env::temp_dir().join(format!("srcsim-div-by-zero-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&cache);
    let (after, report) = simulated_at(
        &examples().join(program),
        &[],
        &[],
        &[("SRCSIM_CACHE_DIR", cache.to_str().unwrap())],
    );
    let _ = std::fs::remove_dir_all(&cache);
    assert_eq!(
        after.status.code(),
        before.status.code(),
        "{program}: exit code (136: SIGFPE); stderr: {}",
        String::from_utf8_lossy(&after.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&after.stdout),
        String::from_utf8_lossy(&before.stdout),
        "{program}: output"
    );
    let report = report.unwrap_or_else(|e| panic!("{program}: {e}"));
    assert_all_simulated(program, &report, 6);
}

#[test]
fn the_runtimes_compiler_output_about_the_twin_stays_off_the_programs_stderr() {
    // build_chatter builds a program clang warns about (PoCL prints "1 warning
    // generated." on stderr, as the program's own output, and would again for the twin)
    // and one the annotator refuses (its helper is also declared in an included header).
    // Without the shim's own lines (SRCSIM_LOG=off), stderr is the program's own.
    let (before, after, report) = with_cold_caches("build_chatter", "off");
    let plain_err = String::from_utf8_lossy(&before.stderr);
    assert_eq!(before.status.code(), Some(0), "{plain_err}");
    // What the test is about: the runtime's compiler does print on stderr.
    assert_eq!(plain_err, "1 warning generated.\n");
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(after.stdout, before.stdout);
    assert_eq!(String::from_utf8_lossy(&after.stderr), plain_err);
    let kernels: Vec<&str> = report.launches.iter().map(|l| &*l.kernel).collect();
    assert_eq!(kernels, ["flip_sign", "doubled"]);
    assert!(matches!(report.launches[0].outcome, Outcome::Simulated(_)));
    // The refusal names the header's declaration.
    match &report.launches[1].outcome {
        Outcome::NotSimulated { reason } => {
            assert!(
                reason.starts_with("annotation failed: program.cl"),
                "{reason}"
            );
            assert!(
                reason.contains("`twice` is also declared in ")
                    && reason.contains("chatter_twice.h:2"),
                "{reason}"
            );
        }
        other => panic!("doubled simulated: {other:?}"),
    }
    // With the default log, every line more than the program's own is the shim's.
    let (before, after, _) = with_cold_caches("build_chatter", "warn");
    let plain_err = String::from_utf8_lossy(&before.stderr);
    let shim_err = String::from_utf8_lossy(&after.stderr);
    let own: Vec<&str> = shim_err
        .lines()
        .filter(|l| !l.starts_with("srcsim: ") && !l.starts_with(['┌', '│', '╞', '└']))
        .collect();
    assert_eq!(own, plain_err.lines().collect::<Vec<_>>(), "{shim_err}");
    assert!(
        shim_err.contains("srcsim: program not simulated: annotation failed: program.cl")
            && shim_err.contains("chatter_twice.h:2"),
        "{shim_err}"
    );
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
fn a_host_asking_for_a_gpu_gets_the_cpu_answering_as_the_gpu_unless_told_not_to() {
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
    // The device answers the queries hosts size launches by as the simulated GTX 480:
    // 15 SMs, 1024 work-items a group (1024, 1024, 64 per dimension), 48 KiB of local
    // memory, warps of 32 (PoCL's CPU device allows more of each).
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "limits: compute units 15, work-group 1024, work-items 1024 1024 64, \
             local memory 49152, kernel work-group 1024, multiple 32"
        ),
        "{stdout}"
    );
    let (kept, report) = simulated("gpu_by_type", &[], &[("SRCSIM_KEEP_DEVICE_TYPE", "1")]);
    assert_eq!(kept.status.code(), Some(3));
    assert!(report.launches.is_empty());
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

/// Issue 32: a host that asks for any device (`CL_DEVICE_TYPE_ALL` or `DEFAULT`, as most
/// hosts and the OpenCL conformance suite do) and sizes its work-groups by
/// `CL_KERNEL_WORK_GROUP_SIZE` gets the simulated GPU's answers, as a host asking for a GPU
/// does, so its launches are ones the GPU takes and are simulated; the device keeps its
/// type. Without the shim (and with SRCSIM_KEEP_DEVICE_TYPE=1) it sizes by PoCL's 4096.
#[test]
fn a_host_asking_for_any_device_sizes_its_launches_as_the_simulated_gpu() {
    for asked in ["all", "default"] {
        let plain = plain_with("gpu_by_type", &["max", asked]);
        assert_eq!(plain.status.code(), Some(0), "plain, {asked}");
        let plain_out = String::from_utf8_lossy(&plain.stdout);
        assert!(plain_out.contains("kernel work-group 4096"), "{plain_out}");
        let (out, report) = simulated_with("gpu_by_type", &["max", asked], &[], &[]);
        assert_eq!(out.status.code(), Some(0), "{asked}");
        let stdout = String::from_utf8_lossy(&out.stdout);
        // The type is the device's own (PoCL's CPU, 0x2); the sizes are the GTX 480's.
        assert!(stdout.contains("of type 0x2"), "{stdout}");
        assert!(
            stdout.contains(
                "limits: compute units 15, work-group 1024, work-items 1024 1024 64, \
                 local memory 49152, kernel work-group 1024, multiple 32"
            ),
            "{stdout}"
        );
        assert_all_simulated("gpu_by_type", &report, 1);
        assert_eq!(report.launches[0].local, [1024, 1, 1], "{asked}");
        // The same results as the plain run.
        let ok = |s: &str| s.lines().find(|l| l.contains(": OK")).map(str::to_string);
        assert_eq!(ok(&stdout), ok(&plain_out), "{asked}");
    }
    let (kept, report) = simulated_with(
        "gpu_by_type",
        &["max", "all"],
        &[],
        &[("SRCSIM_KEEP_DEVICE_TYPE", "1")],
    );
    assert_eq!(kept.status.code(), Some(0));
    assert_eq!(report.launches[0].local, [4096, 1, 1]);
    assert!(matches!(
        report.launches[0].outcome,
        Outcome::NotSimulated { .. }
    ));
}

#[test]
fn a_launch_the_gpu_would_refuse_is_reported_invalid_and_runs_as_asked() {
    // 2048-wide work-groups: PoCL's CPU device runs them, a GTX 480 launches at most 1024.
    // (Without the shim there is no GPU to ask for; the program checks its results.)
    let (out, report) = simulated_with("gpu_by_type", &["2048"], &[], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("gpu_by_type: OK"));
    assert_eq!(report.launches.len(), 1);
    match &report.launches[0].outcome {
        Outcome::NotSimulated { reason } => assert_eq!(
            reason,
            "invalid on gtx480: a work-group of [2048, 1, 1] work-items exceeds gtx480's 1024 \
             work-items per work-group (limits.max_work_group_size)"
        ),
        other => panic!("simulated an impossible launch: {other:?}"),
    }
    // The same program within the limit is simulated.
    let (_, report) = simulated_with("gpu_by_type", &["1024"], &[], &[]);
    assert_all_simulated("gpu_by_type", &report, 1);
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
/// proportion to the warps (each adds the same SFU time). The shape is that of the work:
/// the launch's fixed cost, the same for every size, is taken off. Its kernel cannot tell
/// work-groups apart, so its annotated twin runs in three sizes (1, 32 and 64, each
/// compiled once by PoCL) rather than 33; the estimates are those of the application's
/// work-groups all the same.
#[test]
fn microbenchmark_is_flat_then_linear() {
    // Measured at every launch: an earlier run of the same command line may have kept
    // its estimates (`srcsim::remembered`), and the twin's regrouping is the point.
    let env = [
        ("SRCSIM_LOG", "debug"),
        ("SRCSIM_MEASURE_EVERY_LAUNCH", "1"),
    ];
    let (out, report) = simulated("microbenchmark", &[], &env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_all_simulated("microbenchmark", &report, 33);
    let log = String::from_utf8_lossy(&out.stderr);
    let regrouped: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("runs annotated in work-groups of"))
        .collect();
    assert_eq!(regrouped.len(), 30, "{log}");
    assert_eq!(
        regrouped
            .iter()
            .filter(|l| l.contains("of [32, 1, 1]"))
            .count(),
        15,
        "{log}"
    );
    let points: Vec<(u64, u64, String)> = report
        .launches
        .iter()
        .map(|l| {
            let e = l.estimate().unwrap();
            assert_eq!(e.launch_cycles, 450, "gtx480's launch cost");
            (l.global[0], e.cycles - e.launch_cycles, e.bound.clone())
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

/// A warm run builds the annotated program from the binaries the first run kept (no
/// second pass of the source through the runtime's compiler) and estimates the same.
/// `dp_saxpy`'s copy that reduces records to warps is wanted for the records' size and
/// kept with them; `matmul`'s kernel has a barrier, so it keeps its values in its record
/// and runs as fast as its copy would: no copy is built for its size, on a first run or
/// after.
#[test]
fn a_warm_run_builds_the_annotated_program_from_kept_binaries() {
    let cache = OwnCache::new("binary-cache");
    let env = cache.env();
    let kept = "built from the binaries a previous run kept";
    let put_off = "records stay per work-item on this first run";
    let (cold, first) = simulated("dp_saxpy", &[], &env);
    let cold_log = String::from_utf8_lossy(&cold.stderr);
    assert!(!cold_log.contains(kept));
    // dp_saxpy's records per work-item would be over a MiB: the copy that reduces them
    // to warps is wanted at once, but on a first run its program is not built: a process
    // of its own (`srcsim::keeper`), started when the application releases the context,
    // builds it and keeps its binaries for the next run, as it keeps the twin's.
    assert!(
        cold_log.contains(put_off)
            && !cold_log.contains("copies that reduce records to warps built")
            && cold_log.contains("kept by a process of their own"),
        "{cold_log}"
    );
    keepers_done(&cache);
    let binaries = std::fs::read_dir(cache.join("binaries")).unwrap().count();
    // One program, one device: its twin's binary, and that of the copies.
    assert_eq!(binaries, 2, "the twin's binary and its copies'");
    let (warm, second) = simulated("dp_saxpy", &[], &env);
    let warm_log = String::from_utf8_lossy(&warm.stderr);
    assert!(
        warm_log.contains(kept) && !warm_log.contains(put_off),
        "{warm_log}"
    );
    assert_eq!(warm.stdout, cold.stdout);
    assert_all_simulated("dp_saxpy", &second, 1);
    assert_eq!(
        first.launches[0].estimate().unwrap().cycles,
        second.launches[0].estimate().unwrap().cycles
    );

    let copies = "copies that reduce records to warps";
    for run in ["first", "second"] {
        let (out, report) = simulated("matmul", &[], &env);
        let log = String::from_utf8_lossy(&out.stderr);
        assert!(
            !log.contains(put_off) && !log.contains(copies),
            "{run} run: {log}"
        );
        assert_all_simulated("matmul", &report, 1);
    }
    // dp_saxpy's two programs, and matmul's twin alone.
    keepers_done(&cache);
    let binaries = std::fs::read_dir(cache.join("binaries")).unwrap().count();
    assert_eq!(binaries, 3);
}

/// `kmeans` launches its kernel five times in a row: on a first run (no copies built or
/// kept) its copy that reduces records to warps is put off, not built at the third launch
/// (that waits for the 32nd), and the keeper builds it for the next run, which runs it
/// from the third launch on, built from the kept binaries; the estimates are the same.
#[test]
fn a_first_run_puts_off_the_copies_of_a_few_launches_for_the_next() {
    let cache = OwnCache::new("put-off");
    let env = cache.env();
    let built = "copies that reduce records to warps built";
    let (first, first_report) = simulated("kmeans", &[], &env);
    let log = String::from_utf8_lossy(&first.stderr);
    assert!(
        log.contains("records stay per work-item on this first run") && !log.contains(built),
        "{log}"
    );
    keepers_done(&cache);
    let (second, second_report) = simulated("kmeans", &[], &env);
    let log = String::from_utf8_lossy(&second.stderr);
    assert!(
        log.contains(built) && log.contains("built from the binaries a previous run kept"),
        "{log}"
    );
    assert_eq!(second.stdout, first.stdout);
    assert_all_simulated("kmeans", &second_report, 5);
    assert_eq!(second_report.launches, first_report.launches);
}

/// A run keeps the estimates of the launches it measured whose geometry and value
/// arguments decide their records (`srcsim::remembered`): `scan`'s two `scan_blocks`
/// launches (their sampled `__local` indices come from local ids and the loop's stride);
/// the next run of the same command line takes them and runs the application's kernels,
/// with the same report; another architecture, or `SRCSIM_MEASURE_EVERY_LAUNCH=1`,
/// measures again.
#[test]
fn a_warm_run_takes_the_estimates_the_last_run_measured() {
    let cache = OwnCache::new("remembered");
    let dir = cache.to_str().unwrap();
    let env = |arch: &'static str, every: &'static str| {
        [
            ("SRCSIM_CACHE_DIR", dir),
            ("SRCSIM_LOG", "info"),
            ("SRCSIM_ARCH", arch),
            ("SRCSIM_MEASURE_EVERY_LAUNCH", every),
        ]
    };
    let took = |out: &Output| -> usize {
        let log = String::from_utf8_lossy(&out.stderr);
        let at = log
            .find(" launches took the estimate a previous run measured")
            .unwrap_or_else(|| panic!("{log}"));
        log[..at].rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (first, first_report) = simulated("scan", &[], &env("gtx480", "0"));
    assert_eq!(took(&first), 0);
    assert_all_simulated("scan", &first_report, 3);
    let (warm, warm_report) = simulated("scan", &[], &env("gtx480", "0"));
    assert_eq!(took(&warm), 2);
    assert_eq!(warm.stdout, first.stdout);
    assert_eq!(warm.status.code(), Some(0));
    assert_eq!(warm_report.launches, first_report.launches);
    let (other, other_report) = simulated("scan", &[], &env("hopper_h100", "0"));
    assert_eq!(took(&other), 0);
    assert_ne!(
        other_report.launches[0].estimate().unwrap().cycles,
        first_report.launches[0].estimate().unwrap().cycles
    );
    let (every, every_report) = simulated("scan", &[], &env("gtx480", "1"));
    assert_eq!(took(&every), 0);
    assert_eq!(every_report.launches, first_report.launches);
}

/// An annotation cache of a test's own, empty at first and removed with it, and the
/// environment that runs a host with it and the debug log.
struct OwnCache(PathBuf);

impl OwnCache {
    fn new(name: &str) -> OwnCache {
        let dir = std::env::temp_dir().join(format!("srcsim-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        OwnCache(dir)
    }

    fn env(&self) -> [(&'static str, &str); 2] {
        [
            ("SRCSIM_CACHE_DIR", self.0.to_str().unwrap()),
            ("SRCSIM_LOG", "debug"),
        ]
    }
}

impl std::ops::Deref for OwnCache {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for OwnCache {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Waits until the keepers of program binaries started with `cache` have finished
/// (`srcsim::keeper`: each removes its job's file when done), for two minutes at most:
/// a keeper that never finishes is a failure.
fn keepers_done(cache: &Path) {
    let jobs = cache.join("keeping");
    for _ in 0..1200 {
        let pending = std::fs::read_dir(&jobs).map_or(0, |d| d.count());
        if pending == 0 {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    panic!("the keepers of {} did not finish", jobs.display());
}

/// `srcsim run --profile` on matmul (n = 160, TILE = 16, 160x160 work-items): per source
/// line, executions are what the loops' trip counts give; the estimates are those of a run
/// without the profile; `srcsim report --lines` renders the saved profile.
#[test]
fn the_line_profile_counts_what_the_loops_execute() {
    let (plain_out, plain_report) = simulated("matmul", &[], &[]);
    let (out, report) = simulated("matmul", &["--profile"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain_out.stdout);
    assert_all_simulated("matmul", &report, 1);
    assert_eq!(
        report.launches[0].estimate(),
        plain_report.launches[0].estimate(),
        "the profile changed the estimate"
    );
    assert!(plain_report.launches[0].profile.is_none());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line profile of matmul_tiled"), "{stderr}");

    let (n, tile) = (160u64, 16u64);
    let items = n * n;
    let profile = report.launches[0].profile.as_ref().expect("a profile");
    let source_lines = &report.programs[profile.program].source_lines;
    let line_of = |text: &str| -> u32 {
        *source_lines
            .iter()
            .find(|(_, t)| t.contains(text))
            .unwrap_or_else(|| panic!("no line `{text}` in {source_lines:?}"))
            .0
    };
    let lines = report.line_profiles();
    assert_eq!(lines.len(), 1);
    let k = &lines[0];
    let executions = |text: &str| {
        let line = line_of(text);
        k.lines
            .iter()
            .find(|l| l.line == line)
            .unwrap_or_else(|| panic!("line {line} not profiled"))
            .executions
    };
    let tiles = n / tile;
    assert_eq!(executions("float acc = 0.0f"), items);
    assert_eq!(executions("As[ty][tx] = A["), items * tiles);
    assert_eq!(
        executions("acc += As[ty][k] * Bs[k][tx]"),
        items * tiles * tile
    );
    // The inner `for` header: its condition runs TILE + 1 times per tile.
    assert_eq!(executions("for (int k = 0"), items * tiles * (tile + 1));
    assert_eq!(executions("C[row * n + col] = acc"), items);
    // Every work-item's cycles are charged at some block: the blocks add up to the
    // work-items' summed t, which is at least the kernel's (one work-item's) time.
    let blocks: u64 = profile.blocks.iter().map(|b| b.totals.cycles).sum();
    assert_eq!(blocks, k.cycles);
    assert!(k.cycles >= report.launches[0].estimate().unwrap().latency_cycles);
    assert!(k.lines.windows(2).all(|w| w[0].cycles >= w[1].cycles));
    // The lines' cycles and instructions are the blocks' divided: they sum exactly to
    // the kernel's, and the percentages to 100.
    assert_eq!(k.lines.iter().map(|l| l.cycles).sum::<u64>(), k.cycles);
    assert_eq!(
        k.lines.iter().map(|l| l.instructions).sum::<u64>(),
        k.instructions
    );
    let percent: f64 = k.lines.iter().map(|l| l.share).sum();
    assert!((percent - 100.0).abs() < 1e-6, "{percent}");
    // The compiler unrolled the inner loop into the block of the tile loads: its
    // multiply-adds (a chain through `acc`) take the largest share of the time and land on their own
    // line, which runs TILE times per tile, not on the loads'.
    let inner = line_of("acc += As[ty][k] * Bs[k][tx]");
    assert_eq!(k.lines[0].line, inner, "hottest: {:?}", k.lines[0]);
    assert!(k.lines[0].share > 40.0, "{:?}", k.lines[0]);
    // 16 fused multiply-adds and their 32 shared-memory loads per tile.
    assert_eq!(k.lines[0].instructions, items * tiles * tile * 3);
    for b in &profile.blocks {
        let parts: f64 = b.totals.lines.iter().map(|l| l.cycles).sum();
        assert!(
            (parts - b.totals.cycles as f64).abs() <= 1e-6 * b.totals.cycles as f64,
            "block {} ({} cycles) divided into {parts}",
            b.index,
            b.totals.cycles
        );
    }

    // `srcsim report --lines`, as a table and as JSON.
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    let saved = dir.join("matmul-profile-saved.json");
    report.write(&saved).unwrap();
    let show = |args: &[&str], path: &Path| {
        Command::new(env!("CARGO_BIN_EXE_srcsim"))
            .arg("report")
            .args(args)
            .arg(path)
            .output()
            .unwrap()
    };
    let table = show(&["--lines", "--top", "3"], &saved);
    assert!(table.status.success());
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.contains("the 3 hottest of"), "{text}");
    assert!(text.contains(k.lines[0].source.trim()), "{text}");
    let json = show(&["--lines", "--json", "--kernel", "matmul_tiled"], &saved);
    assert!(json.status.success());
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let first = &v["kernels"][0]["lines"][0];
    assert_eq!(first["line"], k.lines[0].line);
    assert_eq!(first["cycles"], k.lines[0].cycles);
    // Without --lines: the exit table.
    let summary = show(&[], &saved);
    assert!(String::from_utf8_lossy(&summary.stdout).contains("matmul_tiled"));
    // A report without profile: a clear error.
    let without = dir.join("matmul-without-profile.json");
    plain_report.write(&without).unwrap();
    let no_profile = show(&["--lines"], &without);
    assert_eq!(no_profile.status.code(), Some(1));
    let err = String::from_utf8_lossy(&no_profile.stderr);
    assert!(
        err.contains("no line profile") && err.contains("--profile"),
        "{err}"
    );
    let unknown = show(&["--kernel", "nope"], &saved);
    assert_eq!(unknown.status.code(), Some(1));
}

/// The svm host (OpenCL 2.0, coarse-grained buffer SVM: PoCL's CPU device has it) with
/// `args`, plain and under the shim as a layer and preloaded: the same output and exit
/// code, both launches simulated; their cycles, one per launch.
fn svm_host_under_the_shim(args: &[&str]) -> Vec<u64> {
    let before = plain_with("svm", args);
    let stdout = String::from_utf8_lossy(&before.stdout);
    assert_eq!(
        before.status.code(),
        Some(0),
        "svm fails on its own: {stdout}"
    );
    // A device without SVM makes the host skip its work; PoCL's CPU device, which the
    // tests run on, has it: a skip here is a broken installation, not a pass.
    assert!(
        stdout.starts_with("svm: OK"),
        "the svm host did not run its launches: {stdout}"
    );
    let mut cycles = None;
    for extra in [&[][..], &["--preload"]] {
        let (after, report) = simulated_with("svm", args, extra, &[]);
        assert_eq!(after.status.code(), Some(0), "svm {args:?} {extra:?}");
        assert_eq!(
            String::from_utf8_lossy(&after.stdout),
            stdout,
            "svm {args:?} {extra:?}: output"
        );
        assert_all_simulated("svm", &report, 2);
        let these: Vec<u64> = report
            .launches
            .iter()
            .map(|l| l.estimate().unwrap().cycles)
            .collect();
        assert_eq!(*cycles.get_or_insert(these.clone()), these, "{extra:?}");
    }
    cycles.unwrap()
}

/// Arguments set with clSetKernelArgSVMPointer and a pointer reached through SVM memory
/// (clSetKernelExecInfo) reach the annotated kernel: every launch is simulated, and the
/// host's own check of both launches' results passes under the shim.
#[test]
fn an_svm_host_computes_the_same_and_every_launch_is_simulated() {
    let cycles = svm_host_under_the_shim(&[]);
    // The second launch reads other table values through the same indices: the same
    // branches, the same estimate.
    assert_eq!(cycles[0], cycles[1], "{cycles:?}");

    // The line profile counts what ran through the SVM pointers, per the host's data: 20000
    // elements in 313 work-groups of 64 (20032 work-items), index i negative (the helper's
    // branch) when i % 8 == 5, two launches.
    let (out, report) = simulated("svm", &["--profile"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_all_simulated("svm", &report, 2);
    let lines = report.line_profiles();
    assert_eq!(lines.len(), 1);
    let executions = |text: &str| {
        let found: Vec<u64> = lines[0]
            .lines
            .iter()
            .filter(|l| l.source.contains(text))
            .map(|l| l.executions)
            .collect();
        assert_eq!(found.len(), 1, "`{text}` in {:?}", lines[0].lines);
        found[0]
    };
    let (items, n) = (20032, 20000);
    let negative = (0..n).filter(|i| i % 8 == 5).count() as u64;
    assert_eq!(executions("int i = get_global_id(0)"), 2 * items);
    assert_eq!(executions("int k = index[i]"), 2 * n);
    assert_eq!(
        executions("v = lut->table[k % lut->size] * lut->scale"),
        2 * (n - negative)
    );
    assert_eq!(executions("return w[k & 3] * (float)(k + 1)"), 2 * negative);
    assert_eq!(executions("out[i] = v"), 2 * n);
}

/// match_count's loop is unrolled by the compiler into copies the annotator cannot count:
/// the launch is simulated all the same, timed as compiled without unrolling, and the
/// report and the table at exit say so, naming the line and the source as the host gave it.
#[test]
fn a_loop_unrolled_past_counting_is_timed_as_written_and_the_report_says_so() {
    let (out, report) = simulated("match_count", &[], &[("SRCSIM_TABLE", "1")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, plain("match_count").stdout);
    assert_all_simulated("match_count", &report, 1);
    let note = report.launches[0]
        .estimate()
        .and_then(|e| e.note.clone())
        .expect("a note");
    assert!(
        note.starts_with("timed as compiled without loop unrolling (-fno-unroll-loops -mllvm -unroll-count=1): at program.cl (the source given to clCreateProgramWithSource, kept at "),
        "{note}"
    );
    assert!(
        note.ends_with("program.cl):13 the compiler unrolled a loop of `match_count` into a shape the annotator cannot count"),
        "{note}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(&format!("srcsim: match_count: {note}")),
        "{stderr}"
    );
}

/// On the H100 the DRAM term sees the host's buffers: vector_add moves what its work-items
/// ask for (two loads and a store of a float each, 100000 elements; the three buffers hold
/// as much), those bytes over 3350 GB/s at 1980 MHz plus the last request's trip, and its
/// time is the launch cost and the larger of that and one work-item's path; a
/// stencil step asks for six floats a point, but the caches keep the neighbours, so its
/// bytes are the two grids bound to it; a tiled matrix multiply's are its three matrices.
#[test]
fn the_dram_term_charges_the_bytes_of_the_buffers_bound_to_a_launch() {
    let arch = ["--arch", "hopper_h100"];
    let bytes_per_cycle: f64 = 3350e9 / 1980e6;
    let (out, report) = simulated("vector_add", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    let e = report.launches[0].estimate().expect("simulated");
    assert_eq!(e.dram_bytes, Some(100_000 * 3 * 4));
    // The traffic over the bandwidth, and the last request's trip (479 cycles).
    let dram = (1_200_000.0 / bytes_per_cycle + 479.0).ceil() as u64;
    assert_eq!(dram, 710 + 479);
    // The H100's launch cost (1500 cycles) exceeds this small launch's work.
    let work = match e.bound.as_str() {
        "DRAM" => dram,
        "latency" => e.latency_cycles,
        "launch" => dram.max(e.latency_cycles),
        other => panic!("vector_add bound by {other}"),
    };
    assert_eq!(e.launch_cycles, 1500);
    assert!(work >= dram && work >= e.latency_cycles, "{e:?}");
    assert_eq!(e.cycles, e.launch_cycles + work);

    let (out, report) = simulated("stencil2d", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    for l in &report.launches {
        let e = l.estimate().expect("simulated");
        assert_eq!(e.dram_bytes, Some(2 * 258 * 130 * 4), "{l:?}");
        assert!(e.cycles >= (e.dram_bytes.unwrap() as f64 / bytes_per_cycle) as u64);
    }

    let (out, report) = simulated("matmul", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    let e = report.launches[0].estimate().expect("simulated");
    assert_eq!(e.dram_bytes, Some(3 * 160 * 160 * 4));
}

/// `svm --mixed` sets its output argument with clSetKernelArg (a cl_mem buffer) for the
/// first launch and with clSetKernelArgSVMPointer for the second: were the switch not
/// mirrored, the annotated kernel would write the second launch's results into the
/// buffer and the host's check of the SVM output would fail.
#[test]
fn an_argument_switched_from_a_buffer_to_an_svm_pointer_reaches_the_annotated_kernel() {
    let mixed = svm_host_under_the_shim(&["--mixed"]);
    let stdout = String::from_utf8_lossy(&plain_with("svm", &["--mixed"]).stdout).into_owned();
    assert!(stdout.contains("buffer then SVM output"), "{stdout}");
    // How the output argument is passed does not change what the kernel executes.
    let all_svm = svm_host_under_the_shim(&[]);
    assert_eq!(mixed, all_svm);
}

/// `report` (schema 2) written the way schema 1 wrote it: every launch's profile with its
/// blocks' places and its program's line texts.
fn as_version_1(report: &serde_json::Value) -> serde_json::Value {
    let mut old = report.clone();
    let programs = old
        .as_object_mut()
        .unwrap()
        .remove("programs")
        .expect("programs");
    old["schema"] = "srcsim.report/1".into();
    for l in old["launches"].as_array_mut().unwrap() {
        if l["profile"].is_null() {
            continue;
        }
        let program = &programs[l["profile"]["program"].as_u64().unwrap() as usize];
        let blocks: Vec<serde_json::Value> = l["profile"]["blocks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|counts| {
                let mut b = program["blocks"][counts["index"].as_u64().unwrap() as usize].clone();
                for (field, value) in counts.as_object().unwrap() {
                    if field != "index" {
                        b[field] = value.clone();
                    }
                }
                b
            })
            .collect();
        l["profile"] = serde_json::json!({
            "blocks": blocks,
            "source_lines": program["source_lines"].clone(),
        });
    }
    old
}

fn srcsim_report(args: &[&str], path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_srcsim"))
        .arg("report")
        .args(args)
        .arg(path)
        .output()
        .unwrap()
}

/// The `--lines --json` output without its `schema` (a report read from schema 1 is
/// shown in schema 2).
fn lines_json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v.as_object_mut().unwrap().remove("schema");
    v
}

/// stencil2d launches its kernel 6 times: the profiled report holds the kernel's source
/// text and block places once, and gives the same line profile as the same report
/// written the old way (the text in every launch), which still reads.
#[test]
fn a_profiled_report_holds_the_source_once_and_reads_as_the_old_one() {
    let (out, report) = simulated("stencil2d", &["--profile"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_all_simulated("stencil2d", &report, 6);
    let dir = std::env::temp_dir().join(format!("srcsim-shim-test-{}", std::process::id()));
    let saved = dir.join("stencil2d-profile-saved.json");
    report.write(&saved).unwrap();
    let text = std::fs::read_to_string(&saved).unwrap();
    let line = "out[i] = c + alpha * lap;";
    assert_eq!(text.matches(line).count(), 1, "{text}");
    assert_eq!(
        text.matches("\"column\"").count(),
        1,
        "one block, placed once"
    );
    assert_eq!(
        text.matches("\"executions\"").count(),
        6,
        "its counts per launch"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["schema"], "srcsim.report/2");
    assert_eq!(doc["programs"].as_array().unwrap().len(), 1);

    let old = as_version_1(&doc);
    let old_path = dir.join("stencil2d-as-version-1.json");
    std::fs::write(&old_path, serde_json::to_string_pretty(&old).unwrap()).unwrap();
    let old_text = std::fs::read_to_string(&old_path).unwrap();
    assert_eq!(old_text.matches(line).count(), 6);
    assert!(old_text.len() > text.len());
    for args in [&["--lines"][..], &[][..]] {
        let new = srcsim_report(args, &saved);
        let from_old = srcsim_report(args, &old_path);
        assert!(new.status.success() && from_old.status.success());
        assert_eq!(
            String::from_utf8_lossy(&from_old.stdout),
            String::from_utf8_lossy(&new.stdout),
            "srcsim report {args:?}"
        );
    }
    assert!(String::from_utf8_lossy(&srcsim_report(&["--lines"], &saved).stdout).contains(line));
    assert_eq!(
        lines_json(&srcsim_report(&["--lines", "--json"], &old_path)),
        lines_json(&srcsim_report(&["--lines", "--json"], &saved))
    );
}

/// A report the srcsim of schema 1 wrote (scan, `srcsim run --profile`: 3 launches of
/// two kernels) gives what that srcsim's `srcsim report --lines` printed.
#[test]
fn a_report_of_schema_1_gives_the_line_profile_it_gave() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let old = data.join("scan-report-v1.json");
    let table = srcsim_report(&["--lines"], &old);
    assert!(
        table.status.success(),
        "{}",
        String::from_utf8_lossy(&table.stderr)
    );
    let expected = std::fs::read_to_string(data.join("scan-report-v1.lines.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&table.stdout), expected);
    let json = srcsim_report(&["--lines", "--json"], &old);
    let mut expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(data.join("scan-report-v1.lines.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(expected["schema"], "srcsim.report/1");
    expected.as_object_mut().unwrap().remove("schema");
    assert_eq!(lines_json(&json), expected);
}
