//! SVM hosts: SVM pointers and pointers reached through SVM memory reach the annotated
//! kernel.

use super::*;

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
