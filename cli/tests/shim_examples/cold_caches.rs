//! Runs with empty kernel and annotation caches: the runtime's compiler and libclang run
//! in the host's process, and change nothing the host sees.

use super::*;

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

/// The keeper srcsim starts to keep a first run's binaries (once the application
/// releases its context) is no child of the application's: a host that waits for any
/// child (`wait()`) gets exactly the two it forked, then ECHILD, as it does plainly.
/// Before, `wait()` returned the keeper too and the host exited 1, and a CTS binary
/// held 614 zombies of srcsim's.
#[test]
fn a_host_waiting_for_any_child_gets_only_its_own() {
    let (before, after, report) = with_cold_caches("child_processes", "warn");
    let plain = String::from_utf8_lossy(&before.stdout);
    assert_eq!(before.status.code(), Some(0), "{plain}");
    assert!(plain.contains("then wait() failed with ECHILD"), "{plain}");
    assert_eq!(after.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&after.stdout), plain);
    assert_all_simulated("child_processes", &report, 1);
}
