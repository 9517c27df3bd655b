//! Warm runs: annotated programs built from kept binaries, copies put off to the next run,
//! and estimates the last run measured.

use super::*;

/// A warm run builds the annotated program from the binaries the first run kept (no
/// second pass of the source through the runtime's compiler) and estimates the same.
/// `dp_saxpy`'s copy that reduces records to warps is wanted for the records' size and
/// kept with them; `matmul`'s kernel has a barrier, so it keeps its values in its record
/// and runs as fast as its copy would: no copy is built for its size, on a first run or
/// after.
/// The program binaries kept in `cache` (not the notes that a program is wanted).
fn kept_binaries(cache: &Path) -> usize {
    std::fs::read_dir(cache.join("binaries"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "bin"))
        })
        .count()
}

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
    let binaries = kept_binaries(&cache);
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
    let binaries = kept_binaries(&cache);
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

/// A run keeps the estimates of the launches it measured or evaluated on the host whose
/// geometry and value arguments decide their records (`srcsim::remembered`): `scan`'s two
/// `scan_blocks` launches (their sampled `__local` indices come from local ids and the
/// loop's stride) and its `add_offsets`; the next run of the same command line takes them
/// and runs the application's kernels, with the same report, and never builds the
/// annotated program; another architecture, or `SRCSIM_MEASURE_EVERY_LAUNCH=1`, measures
/// again.
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
    // The twin's binaries are kept by a process of their own after the first run: a warm
    // run that started before it is done would build the twin from source.
    keepers_done(&cache);
    let (warm, warm_report) = simulated("scan", &[], &env("gtx480", "0"));
    assert_eq!(took(&warm), 3);
    let log = String::from_utf8_lossy(&warm.stderr);
    assert!(!log.contains("annotated program built"), "{log}");
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
