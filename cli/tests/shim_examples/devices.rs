//! The simulated GPU as the host sees it: the device a host asking for a GPU or any device
//! gets, and launches the GPU would refuse.

use super::*;

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
