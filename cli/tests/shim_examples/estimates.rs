//! The estimates' shape: the paper's microbenchmark, and the DRAM term's bytes.

use super::*;

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
            // The code's first run holds up every warp, whatever bounds the launch: a
            // constant of the kernel, like the launch cost (model revision 13).
            (
                l.global[0],
                e.cycles - e.launch_cycles - e.icache_cycles,
                e.bound.clone(),
            )
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

/// The DRAM term sees the host's buffers, where they do not stay in the L2: on an H100
/// described without its L2's capacity, vector_add moves what its work-items ask for (two
/// loads and a store of a float each, 100000 elements; the three buffers hold as much),
/// those bytes over 3350 GB/s at 1980 MHz plus the last request's trip, and its time is
/// the launch cost and the larger of that and one work-item's path (as an OpenCL event,
/// the driver's launch terms more); a stencil step asks for six floats a point, but the
/// caches keep the neighbours, so its bytes are the two grids bound to it; a tiled matrix
/// multiply's are its three matrices. The H100 as shipped holds all of them in its 50 MB
/// L2: nothing comes from DRAM.
#[test]
fn the_dram_term_charges_the_bytes_of_the_buffers_bound_to_a_launch() {
    let h100 = pipeline_model::Architecture::load("hopper_h100").unwrap();
    let (l2, launch) = (h100.memory.l2_bytes, h100.launch.fixed_cycles);
    assert_eq!(l2, Some(50 << 20));
    let mut no_l2 = h100.clone();
    no_l2.memory.l2_bytes = None;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("h100_no_l2.toml");
    std::fs::write(&file, no_l2.to_toml()).unwrap();
    let arch = ["--arch", file.to_str().unwrap()];
    let bytes_per_cycle: f64 = 3350e9 / 1980e6;
    let (out, report) = simulated("vector_add", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    let e = report.launches[0].estimate().expect("simulated");
    assert_eq!(e.dram_bytes, Some(100_000 * 3 * 4));
    // The traffic over the bandwidth, and the last request's trip (479 cycles).
    let dram = (1_200_000.0 / bytes_per_cycle + 479.0).ceil() as u64;
    assert_eq!(dram, 710 + 479);
    // The H100's launch cost exceeds this small launch's work. The paths take their
    // waits for the issue slots and the L2 besides (`issue_wait_cycles`,
    // `l2_wait_cycles`, 0 far from the knee).
    let paths = e.latency_cycles + e.issue_wait_cycles + e.l2_wait_cycles;
    let work = match e.bound.as_str() {
        "DRAM" => dram,
        "latency" => paths,
        "launch" => dram.max(paths),
        other => panic!("vector_add bound by {other}"),
    };
    assert_eq!(e.launch_cycles, u64::from(launch));
    assert!(work >= dram && work >= e.latency_cycles, "{e:?}");
    assert_eq!(e.cycles, e.launch_cycles + work);

    // As an OpenCL event on NVIDIA's driver: the launch's term more, and the first
    // launch's as the context's first (`[opencl_event]` of hopper_h100.toml: 3.8 and 15 us).
    let terms = h100
        .opencl_event
        .clone()
        .expect("hopper_h100 gives event terms");
    assert_eq!((terms.launch_us, terms.first_launch_us), (3.8, 15.0));
    assert!(report.launches[0].first_in_context);
    let event = report.launches[0].event_micros.expect("event terms");
    assert!(
        (event - (e.cycles as f64 / 1980.0 + 3.8 + 15.0)).abs() < 1e-9,
        "{event}"
    );

    let (out, report) = simulated("stencil2d", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    for (i, l) in report.launches.iter().enumerate() {
        let e = l.estimate().expect("simulated");
        assert_eq!(l.first_in_context, i == 0);
        let event = l.event_micros.unwrap() - e.micros;
        assert!(
            (event - if i == 0 { 18.8 } else { 3.8 }).abs() < 1e-9,
            "{event}"
        );
        assert_eq!(e.dram_bytes, Some(2 * 258 * 130 * 4), "{l:?}");
        assert!(e.cycles >= (e.dram_bytes.unwrap() as f64 / bytes_per_cycle) as u64);
    }

    let (out, report) = simulated("matmul", &arch, &[]);
    assert_eq!(out.status.code(), Some(0));
    let e = report.launches[0].estimate().expect("simulated");
    assert_eq!(e.dram_bytes, Some(3 * 160 * 160 * 4));

    // As shipped, every one of them reads from the L2.
    for program in ["vector_add", "stencil2d", "matmul"] {
        let (out, report) = simulated(program, &["--arch", "hopper_h100"], &[]);
        assert_eq!(out.status.code(), Some(0));
        for l in &report.launches {
            let e = l.estimate().expect("simulated");
            assert_eq!(e.dram_bytes, Some(0), "{program}: {l:?}");
            assert_ne!(e.bound, "DRAM", "{program}: {l:?}");
        }
    }
}

/// The shim gives the model the kernel's code size: on the GTX 480 (an instruction cache
/// that fetches no line ahead) a launch waits for its code's lines after the first, 250
/// cycles each (a 500-cycle DRAM trip, two at a time), more for the tiled matrix
/// multiply's longer code than for vector_add's; the H100 charges nothing for it.
/// first_launch's 41 launches (its header lists them): measured on an H200, only the
/// process's first launch (0) and a second context's (36) took 15 to 21 us as events, where
/// the rest, a second kernel's and four new queues' first launches among them, took 4 to 9
/// (validation/examples/README.md). srcsim charges `first_launch_us` to those two alone.
#[test]
fn only_a_contexts_first_launch_pays_the_first_launch_term() {
    let arch = pipeline_model::Architecture::load("hopper_h100").unwrap();
    let (out, report) = simulated("first_launch", &["--arch", "hopper_h100"], &[]);
    assert_eq!(out.status.code(), Some(0));
    assert_all_simulated("first_launch", &report, 41);
    let terms = arch.opencl_event.expect("hopper_h100 gives event terms");
    for l in &report.launches {
        let first = l.index == 0 || l.index == 36;
        assert_eq!(l.first_in_context, first, "launch {}", l.index);
        let event = l.event_micros.unwrap() - l.estimate().unwrap().micros;
        let expected = terms.launch_us + if first { terms.first_launch_us } else { 0.0 };
        assert!(
            (event - expected).abs() < 1e-9,
            "launch {}: {event}",
            l.index
        );
    }
}

#[test]
fn the_gtx480_waits_for_the_kernels_code_and_the_h100_does_not() {
    let icache = |program: &str, arch: &[&str]| {
        let (out, report) = simulated(program, arch, &[]);
        assert_eq!(out.status.code(), Some(0));
        let e = report.launches[0].estimate().expect("simulated").clone();
        assert!(e.latency_cycles >= e.icache_cycles, "{e:?}");
        e.icache_cycles
    };
    let add = icache("vector_add", &["--arch", "gtx480"]);
    let mul = icache("matmul", &["--arch", "gtx480"]);
    assert!(add > 0 && add % 250 == 0, "{add}");
    assert!(mul > add && mul % 250 == 0, "{mul} against {add}");
    assert_eq!(icache("vector_add", &["--arch", "hopper_h100"]), 0);
}

/// A kernel of one block is timed for the warps sharing the L1 that its launch has:
/// `div_by_zero`'s `div_int4` (`r[i] = a[i] % b[i]` reads `a` and `b` again after the store
/// to `q`) runs 4 work-groups of 64 work-items, one work-group of 2 warps on each SM it
/// reaches, and the report says it took that class; a kernel with a branch keeps the
/// 64-warp timing and says nothing.
#[test]
fn a_one_block_kernel_reports_the_warps_sharing_its_l1() {
    let (out, report) = simulated("div_by_zero", &["--arch", "gtx480"], &[]);
    assert_eq!(out.status.code(), Some(0));
    let sharers = |kernel: &str| {
        let l = report
            .launches
            .iter()
            .find(|l| *l.kernel == *kernel)
            .unwrap_or_else(|| panic!("a launch of {kernel}"));
        l.estimate().expect("simulated").l1_sharers
    };
    assert_eq!(sharers("div_int4"), Some(2));
    let (_, vector_add) = simulated("vector_add", &["--arch", "gtx480"], &[]);
    let e = vector_add.launches[0].estimate().expect("simulated");
    assert_eq!(e.l1_sharers, None);
}
