//! A kernel of one block moves to the class of L1 sharers its launch has: the warps the
//! busiest SM holds at once, and toward its timing with first touches from DRAM by the
//! share of its reads the L2 cannot hold (`pipeline_model::l1_sharing`).

use pipeline_model::l1_sharing::L1Sharing;
use pipeline_model::{
    estimate, Architecture, Grain, KernelResources, LaunchGeometry, RecordFormat, Records,
};

/// The GTX 480's memory pipeline among its resources.
const MEM: usize = 3;

/// The latency term and the memory pipeline's contention of `groups` work-groups of 128
/// work-items (four warps) on the GTX 480, each work-item's record 500 cycles and 8 of the
/// memory pipeline, the kernel timed per class as `sharing` says, its buffers of `read`
/// bytes.
fn latency_reading(
    groups: u64,
    sharing: Option<L1Sharing>,
    read: Option<u64>,
) -> (u64, f64, Option<u32>) {
    let arch = Architecture::load("gtx480").unwrap();
    let r = arch.resources().len();
    let items = groups * 128;
    let mut data = Vec::new();
    for _ in 0..items {
        data.push(500);
        data.extend((0..r).map(|i| if i == MEM { 8 * arch.usage_scale() } else { 0 }));
    }
    let records = Records {
        data: &data,
        format: RecordFormat::timing(r, 0),
        usage_scale: arch.usage_scale(),
        grain: Grain::WorkItem,
        shared: None,
    };
    let geometry = LaunchGeometry {
        global: [items, 1, 1],
        local: [128, 1, 1],
    };
    let resources = KernelResources {
        l1_sharing: sharing,
        global_memory_bytes: read,
        read_memory_bytes: read,
        ..KernelResources::default()
    };
    let e = estimate(&arch, &geometry, &resources, &records).unwrap();
    (e.latency_cycles, e.contention_cycles[MEM], e.l1_sharers)
}

/// The same over buffers that fit in the L2.
fn latency(groups: u64, sharing: Option<L1Sharing>) -> (u64, f64, Option<u32>) {
    latency_reading(groups, sharing, None)
}

#[test]
fn a_launch_of_few_warps_an_sm_gets_its_class_of_sharers() {
    let r = Architecture::load("gtx480").unwrap().resources().len();
    // 500 cycles for 64 or 32 warps, 400 for 16 or 8, 300 for 4 or 2; the memory
    // pipeline half as much from 4 warps on.
    let usage = |c: usize| {
        let mut u = vec![0.0; r];
        u[MEM] = if c >= 4 { 4.0 } else { 8.0 };
        u
    };
    let sharing = L1Sharing {
        cycles: [500, 500, 400, 400, 300, 300],
        usage: (0..6).map(usage).collect(),
        from_dram: None,
    };
    // 15 SMs, at most 8 work-groups each: one group an SM is 4 warps, two are 8, eight 32.
    // The memory pipeline's contention: 8 cycles a warp, four warps an SM -> 32.
    // The estimate names the class it took (none without a timing per class).
    for (groups, saved, usage, sharers) in [
        (15, 200, 0.5, Some(4)),
        (30, 100, 1.0, Some(8)),
        (120, 0, 1.0, Some(32)),
    ] {
        let (first, first_mem, none) = latency(groups, None);
        let (moved, moved_mem, took) = latency(groups, Some(sharing.clone()));
        assert_eq!(first - moved, saved, "{groups} work-groups");
        assert_eq!(moved_mem, first_mem * usage, "{groups} work-groups");
        assert_eq!((none, took), (None, sharers), "{groups} work-groups");
    }
    assert_eq!(latency(15, None).1, 32.0);
}

/// A timing per class with a usage missing for a class (a damaged or foreign sidecar) is
/// not used: the launch keeps the first class's estimate rather than failing.
#[test]
fn a_timing_short_of_a_class_is_left_out() {
    let r = Architecture::load("gtx480").unwrap().resources().len();
    let short = L1Sharing {
        cycles: [500, 500, 400, 400, 300, 300],
        usage: vec![vec![0.0; r]; 5],
        from_dram: None,
    };
    assert_eq!(latency(15, Some(short)), latency(15, None));
}

/// A launch whose reads exceed the L2 takes the kernel's timing with its first touches
/// from DRAM, in its class of sharers; one whose reads fit keeps the L2's; one that
/// overfills a few of the L2's sets moves by the share of its reads that miss.
#[test]
fn a_launch_beyond_the_l2_waits_for_dram_on_its_path() {
    let arch = Architecture::load("gtx480").unwrap();
    let r = arch.resources().len();
    let l2 = arch.memory.l2_bytes.unwrap();
    let sharing = L1Sharing {
        cycles: [500, 500, 400, 400, 300, 300],
        usage: vec![vec![0.0; r]; 6],
        from_dram: Some([700, 700, 600, 600, 480, 480]),
    };
    // One work-group of four warps: class 4 (300 cycles from the L2, 480 from DRAM).
    let fits = latency_reading(1, Some(sharing.clone()), Some(l2));
    let beyond = latency_reading(1, Some(sharing.clone()), Some(4 * l2));
    assert_eq!(fits.0, latency(1, None).0 - 200);
    assert_eq!(beyond.0 - fits.0, 180);
    assert_eq!((fits.2, beyond.2), (Some(4), Some(4)));
    // 120 work-groups (32 warps an SM: the first class's cycles but for the share): the
    // whole difference, 200 cycles, beyond the L2.
    let many = latency_reading(120, Some(sharing.clone()), Some(4 * l2));
    assert_eq!(many.0 - latency(120, None).0, 200);
    // Reads 12 lines beyond the L2 miss 108 of its 6,156 lines' worth (`l2_miss_share`):
    // 180 x 108 / 6156 = 3.2 cycles more.
    let share = arch.l2_miss_share(Some(l2 + 12 * 128));
    assert_eq!(share, 108.0 / 6156.0);
    let little = latency_reading(1, Some(sharing), Some(l2 + 12 * 128));
    assert_eq!(little.0 - fits.0, (180.0 * share).round() as u64);
}
