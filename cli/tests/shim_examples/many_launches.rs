//! Programs of thousands of launches: a launch measured once per kernel and the values that
//! decide its paths, or evaluated on the host; launches that wait for room for their records.

use super::*;

/// (program, launches it makes, launches the annotated kernels run, launches whose paths
/// the host evaluates): programs of thousands of small launches, whose kernels' paths
/// depend on their geometry and some value arguments alone (`annotator::analysis::control`), so
/// that a launch is measured once per kernel and distinct values of those (`red_black`:
/// one kernel, two colours), on the device or, where its branches compare global ids
/// with those values (`annotator::back::host_paths`), on the host.
const MANY_LAUNCHES: &[(&str, usize, usize, usize)] = &[
    // `inject`, launched without a local size, is evaluated too: its work-items
    // cannot tell work-groups apart, so the model's work-groups are theirs.
    ("heat_steps", 3000, 0, 3),
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
        // The annotated kernels ran, or the host evaluated the paths, only where the
        // deciding values were new, unless an earlier run of the same command line
        // measured or evaluated them (`srcsim::remembered`: this test runs in the
        // user's cache); the other launches ran the application's kernel.
        let log = String::from_utf8_lossy(&after.stderr);
        let repeated = launches - annotated - evaluated;
        let count = |what: &str| -> usize {
            let at = log.find(what).unwrap_or_else(|| panic!("{program}: {log}"));
            log[..at].rsplit(' ').next().unwrap().parse().unwrap()
        };
        let (measured, evaluated_now, kept) = (
            count(" launches annotated,"),
            count(" launches had their paths evaluated"),
            count(" launches took the estimate a previous run"),
        );
        assert!(
            measured <= annotated && evaluated_now <= evaluated,
            "{program}: {log}"
        );
        assert_eq!(
            measured + evaluated_now + kept,
            annotated + evaluated,
            "{program}: {log}"
        );
        assert!(
            log.contains(&format!("; {repeated} launches repeated an earlier one's")),
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
/// paths) gives. The next run of the same command line takes those estimates and
/// evaluates nothing (`srcsim::remembered`), with the same report.
#[test]
fn every_lu_step_evaluated_on_the_host_is_estimated_as_measured() {
    let before = plain("lu_steps");
    let cache = tempfile::tempdir().unwrap();
    let own = [
        ("SRCSIM_LOG", "info"),
        ("SRCSIM_CACHE_DIR", cache.path().to_str().unwrap()),
    ];
    let (after, report) = simulated("lu_steps", &[], &own);
    assert_eq!(after.stdout, before.stdout);
    assert_all_simulated("lu_steps", &report, 1022);
    let log = String::from_utf8_lossy(&after.stderr);
    assert!(
        log.contains("timing: 0 launches annotated,")
            && log.contains("; 1022 launches had their paths evaluated on the host")
            && log.contains("; 0 launches took the estimate a previous run measured"),
        "{log}"
    );
    let (again, again_report) = simulated("lu_steps", &[], &own);
    took_every_estimate(&again, 1022);
    assert_eq!(again.stdout, before.stdout);
    assert_eq!(again_report.launches, report.launches);
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

/// Asserts that a run (with `SRCSIM_LOG=info`) took the estimates a previous run kept for
/// all its `launches`: none annotated, evaluated or modelled.
fn took_every_estimate(run: &Output, launches: usize) {
    let log = String::from_utf8_lossy(&run.stderr);
    assert!(
        log.contains("timing: 0 launches annotated,")
            && log.contains("; 0 launches had their paths evaluated on the host")
            && log.contains(&format!(
                "; {launches} launches took the estimate a previous run measured"
            ))
            && log.contains(" 0 launches modelled"),
        "{log}"
    );
}

/// `gauss_steps`: 255 steps of two launches without a local size, the step new at every
/// launch. `eliminate`'s work-items cannot tell work-groups apart, so the host evaluates
/// its paths in the work-groups the model takes, and every such launch gets the estimate
/// that measuring it on the device gives; `pivot_ratios` samples its accesses and is
/// measured. A later run takes what this one measured and evaluated (all 510 keys are
/// kept): it runs no annotated kernel and models nothing.
#[test]
fn gauss_steps_without_a_local_size_are_evaluated_on_the_host_as_measured() {
    let before = plain("gauss_steps");
    let cache = tempfile::tempdir().unwrap();
    let own = [
        ("SRCSIM_LOG", "info"),
        ("SRCSIM_CACHE_DIR", cache.path().to_str().unwrap()),
    ];
    let (after, report) = simulated("gauss_steps", &[], &own);
    assert_eq!(after.stdout, before.stdout);
    assert_all_simulated("gauss_steps", &report, 510);
    let log = String::from_utf8_lossy(&after.stderr);
    assert!(
        log.contains("timing: 255 launches annotated,")
            && log.contains("; 255 launches had their paths evaluated on the host"),
        "{log}"
    );
    let (again, again_report) = simulated("gauss_steps", &[], &own);
    took_every_estimate(&again, 510);
    assert_eq!(again_report.launches, report.launches);
    let every = [("SRCSIM_LOG", "info"), ("SRCSIM_MEASURE_EVERY_LAUNCH", "1")];
    let (measured, measured_report) = simulated("gauss_steps", &[], &every);
    let log = String::from_utf8_lossy(&measured.stderr);
    assert!(log.contains("timing: 510 launches annotated,"), "{log}");
    assert_eq!(measured.stdout, before.stdout);
    assert_eq!(measured_report.launches, report.launches);
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
