//! The launch cost on hand-computed cases: the architecture's fixed cycles are added once
//! per launch, on top of whichever term bounds the work, and reported on their own.

mod common;

use pipeline_model::*;

/// gtx480 with warps of 4 and one SM, no DRAM term, and a launch cost of `fixed` cycles.
fn arch(fixed: u32) -> Architecture {
    // The paper's gtx480 with its two schedulers issuing apart.
    let mut a = common::paper_gtx480();
    a.issue_scope = Scope::SubCore;
    a.warp_size = 4;
    a.sm_count = 1;
    a.launch.fixed_cycles = fixed;
    a
}

fn run(arch: &Architecture, t: &[u64], issue: u64) -> KernelEstimate {
    let n = arch.resources().len();
    let scale = arch.usage_scale();
    let data: Vec<u64> = t
        .iter()
        .flat_map(|&t| {
            let mut rec = vec![0u64; 1 + n];
            rec[0] = t;
            rec[1] = issue * scale;
            rec
        })
        .collect();
    let geometry = LaunchGeometry {
        global: [t.len() as u64, 1, 1],
        local: [t.len() as u64, 1, 1],
    };
    let records = Records {
        data: &data,
        format: RecordFormat::timing(n, 0),
        usage_scale: scale,
        grain: Grain::WorkItem,
        shared: None,
    };
    estimate(arch, &geometry, &KernelResources::default(), &records).unwrap()
}

#[test]
fn the_launch_cost_is_added_once_and_bounds_a_launch_smaller_than_it() {
    // One warp of 4, t = 100: 100 cycles of work, 450 of launch: the launch bounds it.
    let e = run(&arch(450), &[100; 4], 1);
    assert_eq!(e.latency_cycles, 100);
    assert_eq!(e.launch_cycles, 450);
    assert_eq!(e.cycles, 550);
    assert_eq!(e.bound, Bound::Launch);
    assert!((e.micros - 550.0 / 700.0).abs() < 1e-12);
    // More work than launch: the work's term bounds it.
    let e = run(&arch(450), &[600; 4], 1);
    assert_eq!((e.cycles, e.bound), (1050, Bound::Latency));
    // Without a launch cost the same records give the work alone.
    assert_eq!(run(&arch(0), &[100; 4], 1).cycles, 100);
}

#[test]
fn the_launch_cost_is_added_to_a_contention_bound_launch_too() {
    // 8 warps of 4 in one group, t = 10, 300 issue cycles each: two schedulers take 4
    // warps each, 1200 cycles, more than the latency (10 + floor(7 / 2) = 13).
    let e = run(&arch(450), &[10; 32], 300);
    assert_eq!(e.latency_cycles, 13);
    assert_eq!(e.contention_cycles[0], 1200.0);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "issue".into()
        }
    );
    assert_eq!(e.cycles, 1200 + 450);
}

#[test]
fn shipped_files_without_a_launch_section_cost_nothing_extra() {
    let text = Architecture::load("gtx480")
        .unwrap()
        .to_toml()
        .replace("[launch]\nfixed_cycles = 450\n", "");
    let a = Architecture::from_toml(&text, "no-launch.toml").unwrap();
    assert_eq!(a.launch.fixed_cycles, 0);
}
