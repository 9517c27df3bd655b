//! Kernels the annotator refuses or cannot count: they run as they are (or timed as
//! written), the report says why, and the other kernels of their programs are simulated.

use super::*;

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
