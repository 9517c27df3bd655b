//! A launch summarized once ([`LaunchSummary`]) gives, under every architecture that
//! differs only in what the records do not depend on, exactly what walking the records
//! gives (`estimate`): what a sweep relies on to model its points cheaply.

use pipeline_model::*;

/// Records of `work_items` work-items on `arch`, varied per work-item (a few slow lanes,
/// memory bytes, unequal usage), deterministic.
fn records(arch: &Architecture, work_items: u64) -> (Vec<u64>, usize) {
    let resources = arch.resources().len();
    let stride = 1 + resources;
    let mut data = Vec::with_capacity(work_items as usize * stride);
    let mut x: u64 = 12345;
    for _ in 0..work_items {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = x >> 33;
        data.push(200 + r % 1000);
        for k in 0..resources {
            data.push((r >> (k % 16)) % 97 * arch.usage_scale());
        }
    }
    (data, resources)
}

#[test]
fn a_summary_estimates_every_sm_count_clock_and_bandwidth_as_the_records_do() {
    let base = Architecture::load("hopper_h100").unwrap();
    let geometry = LaunchGeometry {
        global: [96 * 50, 3, 1],
        local: [96, 1, 1],
    };
    let (data, resources) = records(&base, geometry.work_items());
    let recs = Records {
        data: &data,
        format: RecordFormat::timing(resources, 0),
        usage_scale: base.usage_scale(),
        grain: Grain::WorkItem,
        shared: None,
    };
    let kernel = KernelResources {
        registers_per_work_item: 40,
        local_memory_bytes: 4096,
        global_memory_bytes: Some(1 << 24),
        read_memory_bytes: None,
        code_instructions: 0,
        arm_code: pipeline_model::ArmCode::NONE,
        first_round_warp_bytes: None,
        frame_bytes: 0,
        l1_sharing: None,
    };
    let summary = LaunchSummary::of(&base, &geometry, &recs).unwrap();
    let mut compared = 0;
    for sms in [1, 2, 7, 33, 66, 132, 200] {
        for (dram, launch) in [(3350.0, 1500), (100.0, 0), (20000.0, 9000)] {
            let mut arch = base.clone();
            arch.sm_count = sms;
            arch.memory.dram_gb_per_s = Some(dram);
            arch.launch.fixed_cycles = launch;
            arch.clock_mhz = 1000.0 + f64::from(sms);
            assert!(summary.fits(&arch));
            let walked = estimate(&arch, &geometry, &kernel, &recs).unwrap();
            let summarized =
                estimate_summarized(&arch, &geometry, &kernel, &summary, recs.usage_scale).unwrap();
            assert_eq!(
                walked, summarized,
                "{sms} SMs, {dram} GB/s, launch {launch}"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 21);
    // Fewer sub-cores deal the warps otherwise: the summary does not fit.
    let mut other = base.clone();
    other.sub_cores_per_sm = 2;
    assert!(!summary.fits(&other));
}
