//! Fault injection on srcsim's own state (issue 35): whatever is wrong with the cache, the
//! host program under the shim prints what it prints plainly and exits the same, and the
//! report says what srcsim did about it.
//!
//! Every kind of kept file (annotated source, sidecar, program binary, estimates kept
//! across runs, failure record) truncated, bit-flipped, emptied and from another build; a
//! missing, unwritable, foreign or shared directory; a disk that fills mid-write; runs
//! killed with SIGKILL; cold runs racing on one cache.
//!
//! The shim runs by `LD_PRELOAD` with `SRCSIM_BIN` naming no file: no keeper process can
//! start, so the shim keeps the binaries itself before the run ends, and each run leaves
//! the cache complete (nothing here waits for a process it did not start).

mod common;

use common::{examples, library};

use std::collections::HashMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use srcsim_report::{Outcome, Report};

/// A fresh directory for one case (removed at the end of the test binary's run by the
/// temporary-directory guard).
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("srcsim-cache-faults-")
        .tempdir()
        .unwrap()
}

/// What a host prints and how it exits, without the shim (once per host).
fn plain(host: &str) -> Output {
    static PLAIN: OnceLock<Mutex<HashMap<String, Output>>> = OnceLock::new();
    let plain = PLAIN.get_or_init(Mutex::default);
    if let Some(out) = plain.lock().unwrap().get(host) {
        return out.clone();
    }
    let out = Command::new(examples().join(host)).output().unwrap();
    assert!(out.status.success(), "{host} fails plainly: {out:?}");
    plain.lock().unwrap().insert(host.to_string(), out.clone());
    out
}

/// A host run under the shim: its output and report.
struct Run {
    out: Output,
    report: Report,
}

/// The command that runs `host` under the shim with `cache` as its cache directory and
/// its report in `report`.
fn shim_command(host: &str, cache: &Path, report: &Path) -> Command {
    let mut command = Command::new(examples().join(host));
    command
        .env("LD_PRELOAD", library())
        .env("SRCSIM_CACHE_DIR", cache)
        .env("SRCSIM_REPORT", report)
        .env("SRCSIM_BIN", "/nonexistent/srcsim")
        .env("SRCSIM_TABLE", "0")
        .env_remove("SRCSIM_LOG");
    command
}

/// A fresh report path.
fn report_path() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!("srcsim-cache-faults-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}.json", N.fetch_add(1, Ordering::Relaxed)))
}

/// Runs `host` under the shim on `cache`, and checks that it printed and exited as it
/// does plainly.
fn under_shim(host: &str, cache: &Path) -> Run {
    let report = report_path();
    let out = shim_command(host, cache, &report).output().unwrap();
    same_as_plain(host, &out);
    let report = Report::read(&report)
        .unwrap_or_else(|e| panic!("{host}: {e}\n{}", String::from_utf8_lossy(&out.stderr)));
    Run { out, report }
}

fn same_as_plain(host: &str, out: &Output) {
    let plain = plain(host);
    assert_eq!(
        out.status.code(),
        plain.status.code(),
        "{host}: exit status {:?} under the shim; stderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&plain.stdout),
        "{host}: another output under the shim"
    );
}

/// Every launch simulated, with the outcomes of `like` (the same estimates).
fn simulated_like(run: &Run, like: &Report) {
    assert_eq!(run.report.launches.len(), like.launches.len());
    for (l, m) in run.report.launches.iter().zip(&like.launches) {
        assert!(
            matches!(l.outcome, Outcome::Simulated(_)),
            "{} not simulated: {:?}\n{}",
            l.kernel,
            l.outcome,
            String::from_utf8_lossy(&run.out.stderr)
        );
        assert_eq!(l.outcome, m.outcome, "{}", l.kernel);
    }
}

/// A cache a cold run of `host` filled, and that run's report (once per host); each case
/// damages a copy.
fn filled(host: &str) -> (PathBuf, Report) {
    static FILLED: OnceLock<Mutex<HashMap<String, (PathBuf, Report)>>> = OnceLock::new();
    let filled = FILLED.get_or_init(Mutex::default);
    // Held while filling: two tests of one host fill it once.
    let mut filled = filled.lock().unwrap();
    if let Some(f) = filled.get(host) {
        return f.clone();
    }
    let dir = std::env::temp_dir().join(format!(
        "srcsim-cache-faults-{}/filled-{host}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let run = under_shim(host, &dir);
    assert!(run.report.cache.is_empty(), "{:?}", run.report.cache);
    filled.insert(host.to_string(), (dir.clone(), run.report.clone()));
    (dir, run.report)
}

/// A copy of the cache `host`'s cold run filled, in a directory of its own.
fn copy_of_filled(host: &str, into: &Path) -> (PathBuf, Report) {
    let (dir, report) = filled(host);
    let copy = into.join("cache");
    let status = Command::new("cp")
        .arg("-a")
        .arg(&dir)
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    (copy, report)
}

/// The one file in `cache` whose path ends with `suffix` (`annotated.cl`, `.bin`, ...).
fn entry(cache: &Path, suffix: &str) -> PathBuf {
    let mut found = Vec::new();
    let mut dirs = vec![cache.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.to_string_lossy().ends_with(suffix) {
                found.push(path);
            }
        }
    }
    assert_eq!(
        found.len(),
        1,
        "files ending {suffix} in {}: {found:?}",
        cache.display()
    );
    found.pop().unwrap()
}

/// The ways a kept file is damaged, with what the report then says of it.
const DAMAGES: &[(&str, &str)] = &[
    ("truncated", "was truncated"),
    ("bit-flipped", "failed its checksum"),
    ("emptied", "was empty"),
    ("another build's", "was made by another build"),
];

fn damage(path: &Path, how: &str) {
    let mut bytes = std::fs::read(path).unwrap();
    match how {
        "truncated" => bytes.truncate(bytes.len() / 2),
        "bit-flipped" => {
            let at = bytes.len() - bytes.len() / 3;
            bytes[at] ^= 0x10;
        }
        "emptied" => bytes.clear(),
        "another build's" => {
            // The header's second field names the build; another build's file has
            // another there (and is whole otherwise).
            let end = bytes.iter().position(|&b| b == b'\n').unwrap();
            let header = String::from_utf8(bytes[..end].to_vec()).unwrap();
            let mut fields: Vec<String> = header.split(' ').map(String::from).collect();
            assert_eq!(fields.len(), 4, "{header}");
            fields[1] = format!("{:032x}", 0x5eed_u128);
            let mut out = fields.join(" ").into_bytes();
            out.extend_from_slice(&bytes[end..]);
            bytes = out;
        }
        _ => unreachable!("{how}"),
    }
    std::fs::write(path, bytes).unwrap();
}

fn assert_noted(run: &Run, wanted: &str) {
    assert!(
        run.report.cache.iter().any(|n| n.contains(wanted)),
        "the report does not say `{wanted}`: {:?}",
        run.report.cache
    );
}

/// Each damage of the kept `kind` (the file of `host`'s cache ending with `suffix`): the
/// run that meets it is the plain run's, simulated as the cold run was, and says so; the
/// next run finds the file made again.
fn each_damage(host: &str, suffix: &str, kind: &str) {
    for (how, said) in DAMAGES {
        let scratch = scratch();
        let (cache, cold) = copy_of_filled(host, scratch.path());
        damage(&entry(&cache, suffix), how);
        let run = under_shim(host, &cache);
        simulated_like(&run, &cold);
        assert_noted(&run, &format!("a kept {kind} {said}"));
        let again = under_shim(host, &cache);
        simulated_like(&again, &cold);
        assert!(
            again.report.cache.is_empty(),
            "{kind} {how}: made again, yet {:?}",
            again.report.cache
        );
        entry(&cache, suffix);
    }
}

#[test]
fn a_damaged_program_binary_is_never_handed_to_the_runtime() {
    // Before the binaries were sealed, PoCL was handed the truncated one and killed the
    // host: SIGSEGV for this one cut in half (SIGABRT, `buffer < end_of_buffer` in
    // pocl_binary_deserialize, for others). `histogram`'s launch is measured at every run
    // (its paths depend on its data), so every run builds the annotated program; a run
    // whose launches need no measuring never reads its binary.
    each_damage("histogram", ".bin", "program binary");
}

#[test]
fn a_damaged_annotated_source_is_annotated_again() {
    each_damage("scan", "annotated.cl", "annotated source");
}

#[test]
fn a_damaged_sidecar_is_annotated_again() {
    each_damage("scan", "sidecar.json", "sidecar");
}

#[test]
fn damaged_estimates_are_measured_again() {
    for (how, said) in DAMAGES {
        let scratch = scratch();
        let (cache, cold) = copy_of_filled("scan", scratch.path());
        let estimates = std::fs::read_dir(cache.join("estimates"))
            .unwrap()
            .next()
            .expect("scan keeps estimates")
            .unwrap()
            .path();
        damage(&estimates, how);
        let run = under_shim("scan", &cache);
        simulated_like(&run, &cold);
        assert_noted(&run, &format!("a kept estimates file {said}"));
    }
}

#[test]
fn a_damaged_failure_record_is_tried_again() {
    // `unsupported`'s only kernel cannot be annotated; the failure is kept so that no
    // run compiles it again.
    for (how, said) in DAMAGES {
        let scratch = scratch();
        let (cache, cold) = copy_of_filled("unsupported", scratch.path());
        damage(&entry(&cache, "failure.txt"), how);
        let run = under_shim("unsupported", &cache);
        assert_noted(&run, &format!("a kept failure record {said}"));
        // Not simulated, for the same reason, found anew (not "(cached)").
        assert_eq!(run.report.launches.len(), cold.launches.len());
        for l in &run.report.launches {
            let Outcome::NotSimulated { reason } = &l.outcome else {
                panic!("{how}: {l:?}");
            };
            assert!(
                reason.contains("returns inside a macro expansion"),
                "{reason}"
            );
            assert!(!reason.contains("(cached)"), "{how}: {reason}");
        }
        entry(&cache, "failure.txt");
    }
}

/// The private directory a warning names, which must be gone after the run.
fn private_dir_of(note: &str) -> PathBuf {
    let start = note.find("private temporary one (").unwrap() + "private temporary one (".len();
    let end = start + note[start..].find(')').unwrap();
    PathBuf::from(&note[start..end])
}

/// A run on `dir`, which srcsim must not use: simulated all the same, in a private
/// temporary directory that it removes, with one warning line saying `why`.
fn falls_back(dir: &Path, why: &str) {
    falls_back_in(under_shim("vector_add", dir), why);
}

/// [`falls_back`] for a run made already.
fn falls_back_in(run: Run, why: &str) {
    let (_, cold) = filled("vector_add");
    simulated_like(&run, &cold);
    assert_noted(&run, why);
    let note = run.report.cache.iter().find(|n| n.contains(why)).unwrap();
    assert!(!private_dir_of(note).exists(), "{note}");
    let stderr = String::from_utf8_lossy(&run.out.stderr);
    let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains(why)).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
}

fn running_as_root() -> bool {
    std::fs::metadata("/proc/self").unwrap().uid() == 0
}

#[test]
fn a_missing_cache_directory_is_created_private() {
    let scratch = scratch();
    let dir = scratch.path().join("home/.cache/srcsim");
    let (_, cold) = filled("vector_add");
    let run = under_shim("vector_add", &dir);
    simulated_like(&run, &cold);
    assert!(run.report.cache.is_empty(), "{:?}", run.report.cache);
    let mode = std::fs::metadata(&dir).unwrap().mode() & 0o777;
    assert_eq!(mode, 0o700, "{:o}", mode);
}

#[test]
fn an_unwritable_cache_directory_falls_back_to_a_private_one() {
    if running_as_root() {
        // Root writes through any mode bits; /proc/self is root's and writable by no one.
        falls_back(Path::new("/proc/self"), "is not writable");
    } else {
        let scratch = scratch();
        let dir = scratch.path().join("read-only");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o500)).unwrap();
        falls_back(&dir, "is not writable");
    }
    // A cache directory that cannot be created (a file is in the way).
    let scratch = scratch();
    std::fs::write(scratch.path().join("file"), "").unwrap();
    falls_back(&scratch.path().join("file/srcsim"), "cannot be created");
}

#[test]
fn no_cache_directory_at_all_falls_back_to_a_private_one() {
    // A CI runner without $HOME: no shared directory in /tmp (anybody's) either.
    let report = report_path();
    let out = shim_command("vector_add", Path::new("unused"), &report)
        .env_remove("SRCSIM_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env_remove("HOME")
        .output()
        .unwrap();
    same_as_plain("vector_add", &out);
    let report = Report::read(&report).unwrap();
    falls_back_in(Run { out, report }, "no cache directory is configured");
}

#[test]
fn a_cache_directory_others_can_write_is_not_used() {
    for mode in [0o777, 0o770, 0o702] {
        let scratch = scratch();
        let (cache, _) = copy_of_filled("vector_add", scratch.path());
        std::fs::set_permissions(&cache, std::fs::Permissions::from_mode(mode)).unwrap();
        falls_back(&cache, "is writable by its group or by others");
    }
}

#[test]
fn a_cache_directory_of_another_user_is_not_used() {
    if running_as_root() {
        let scratch = scratch();
        let (cache, _) = copy_of_filled("vector_add", scratch.path());
        let status = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(&cache)
            .status()
            .unwrap();
        assert!(status.success());
        falls_back(&cache, "is owned by another user");
    } else {
        // The root directory is root's.
        falls_back(Path::new("/"), "is owned by another user");
    }
}

/// Runs `script` (sh) in a user and mount namespace of its own, where it may mount a
/// tmpfs; `None` where this system allows none.
fn in_mount_namespace(script: &str, env: &[(&str, &Path)]) -> Option<Output> {
    let probe = Command::new("unshare")
        .args(["-rm", "true"])
        .stderr(Stdio::null())
        .status();
    if !probe.is_ok_and(|s| s.success()) {
        return None;
    }
    let mut command = Command::new("unshare");
    command.args(["-rm", "sh", "-c", script]);
    for (k, v) in env {
        command.env(k, v);
    }
    Some(command.output().unwrap())
}

#[test]
fn a_disk_that_fills_mid_write_costs_only_what_was_not_kept() {
    // A tmpfs of 100 KiB: scan's annotated source and sidecar (80 KiB) fit, its program
    // binary (130 KiB) fills the disk halfway through its write.
    let scratch = scratch();
    let cache = scratch.path().join("small");
    std::fs::create_dir(&cache).unwrap();
    let report = report_path();
    let host = examples().join("scan");
    let lib = library();
    let script = "mount -t tmpfs -o size=100k,mode=0700 tmpfs \"$CACHE\" || exit 99
        LD_PRELOAD=\"$LIB\" SRCSIM_CACHE_DIR=\"$CACHE\" SRCSIM_REPORT=\"$REPORT\" \
        SRCSIM_BIN=/nonexistent/srcsim SRCSIM_TABLE=0 \"$HOST\" || exit $?
        # Nothing half-written is left, and the next run takes what was kept.
        ls -A \"$CACHE\"/binaries | grep . && exit 98
        LD_PRELOAD=\"$LIB\" SRCSIM_CACHE_DIR=\"$CACHE\" SRCSIM_REPORT=\"$REPORT.2\" \
        SRCSIM_BIN=/nonexistent/srcsim SRCSIM_TABLE=0 \"$HOST\"";
    let env = [
        ("CACHE", cache.as_path()),
        ("REPORT", report.as_path()),
        ("HOST", host.as_path()),
        ("LIB", lib.as_path()),
    ];
    let Some(out) = in_mount_namespace(script, &env) else {
        eprintln!("no user and mount namespace here: the full disk is not tried");
        return;
    };
    let (_, cold) = filled("scan");
    let plain = plain("scan");
    assert_eq!(
        out.status.code(),
        plain.status.code(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both runs printed what the plain run prints.
    let twice = String::from_utf8_lossy(&plain.stdout).repeat(2);
    assert_eq!(String::from_utf8_lossy(&out.stdout), twice);
    for (path, nth) in [
        (report.clone(), "first"),
        (report.with_extension("json.2"), "second"),
    ] {
        let run = Run {
            out: out.clone(),
            report: Report::read(&path).unwrap(),
        };
        simulated_like(&run, &cold);
        assert_noted(&run, "a program binary could not be kept in the cache");
        if nth == "second" {
            assert!(!run.report.cache.iter().any(|n| n.contains("sidecar")));
        }
    }
}

/// A condition on a cache directory.
type Condition = dyn Fn(&Path) -> bool;

/// Kills a run of `host` on `cache` with SIGKILL once `when` holds of the cache (or lets
/// it finish, if it finishes first).
fn killed_when(host: &str, cache: &Path, when: impl Fn(&Path) -> bool) {
    let report = report_path();
    let mut child = shim_command(host, cache, &report)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    loop {
        if child.try_wait().unwrap().is_some() {
            return;
        }
        if when(cache) {
            break;
        }
        std::thread::yield_now();
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn has_file(dir: &Path, suffix: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|e| {
        let path = e.path();
        path.to_string_lossy().ends_with(suffix) || (path.is_dir() && has_file(&path, suffix))
    })
}

#[test]
fn a_run_killed_at_any_point_leaves_a_cache_the_next_run_uses() {
    let (_, cold) = filled("scan");
    let points: &[(&str, &Condition)] = &[
        ("at once", &|_| true),
        ("once the cache exists", &|c| c.exists()),
        ("once a file is being written", &|c| has_file(c, "")),
        ("once the annotation is kept", &|c| {
            has_file(c, "annotated.cl")
        }),
        ("once the sidecar is kept", &|c| has_file(c, "sidecar.json")),
        ("once binaries are being kept", &|c| {
            c.join("binaries").exists()
        }),
    ];
    for (point, when) in points {
        let scratch = scratch();
        let cache = scratch.path().join("cache");
        killed_when("scan", &cache, when);
        let run = under_shim("scan", &cache);
        simulated_like(&run, &cold);
        // Every file was written whole or not at all: nothing to remove.
        assert!(
            run.report.cache.is_empty(),
            "killed {point}: {:?}",
            run.report.cache
        );
        let again = under_shim("scan", &cache);
        simulated_like(&again, &cold);
    }
}

#[test]
fn cold_runs_racing_on_one_cache_agree() {
    let (_, cold) = filled("scan");
    let scratch = scratch();
    let cache = scratch.path().join("cache");
    let reports: Vec<PathBuf> = (0..4).map(|_| report_path()).collect();
    let children: Vec<_> = reports
        .iter()
        .map(|r| {
            shim_command("scan", &cache, r)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for (child, report) in children.into_iter().zip(&reports) {
        let out = child.wait_with_output().unwrap();
        same_as_plain("scan", &out);
        let run = Run {
            out,
            report: Report::read(report).unwrap(),
        };
        simulated_like(&run, &cold);
        assert!(run.report.cache.is_empty(), "{:?}", run.report.cache);
    }
    let warm = under_shim("scan", &cache);
    simulated_like(&warm, &cold);
    assert!(warm.report.cache.is_empty(), "{:?}", warm.report.cache);
}
