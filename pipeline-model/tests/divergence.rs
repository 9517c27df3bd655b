//! Divergent arms on hand-computed cases: a warp runs the paths its work-items take one
//! after the other, so its time is the slowest work-item outside the arms plus the slowest
//! inside each arm, and it issues every path.

mod common;

use pipeline_model::*;

/// gtx480 shrunk: warps of 4, one SM, the paper's one issue a cycle per SM, no launch
/// cost, no DRAM. Resources: issue, ALU, SFU, MEM; usage scale 2.
fn toy() -> Architecture {
    let mut a = common::paper_gtx480();
    a.warp_size = 4;
    a.sm_count = 1;
    a
}

const R: usize = 4;

/// A work-item's record as these tests write it: `(t, issue cycles, arm cycles, arm
/// entries, its branches' decisions)`.
type Counted = (u64, u64, Vec<u64>, Vec<u64>, Vec<u64>);

/// One work-group of the records `(t, issue cycles, arm cycles)`, outside loops: each
/// arm with cycles entered once, each branch decided once.
fn run(items: &[(u64, u64, Vec<u64>)]) -> KernelEstimate {
    let counted: Vec<Counted> = items
        .iter()
        .map(|(t, issue, a)| {
            let entries = a.iter().map(|&c| u64::from(c > 0)).collect();
            (*t, *issue, a.clone(), entries, vec![1; a.len()])
        })
        .collect();
    run_counted(&counted)
}

/// One work-group of the records [`Counted`].
fn run_counted(items: &[Counted]) -> KernelEstimate {
    let arch = toy();
    let arms = items[0].2.len();
    let data: Vec<u64> = items
        .iter()
        .flat_map(|(t, issue, a, e, d)| {
            let mut rec = vec![*t, issue * 2, 0, 0, 0];
            rec.extend(a);
            rec.extend(e);
            rec.extend(d);
            rec
        })
        .collect();
    let n = items.len() as u64;
    let geometry = LaunchGeometry {
        global: [n, 1, 1],
        local: [n, 1, 1],
    };
    let records = Records {
        data: &data,
        format: RecordFormat::timing(R, arms),
        usage_scale: 2,
        grain: Grain::WorkItem,
        shared: None,
    };
    estimate(&arch, &geometry, &KernelResources::default(), &records).unwrap()
}

#[test]
fn an_if_else_on_parity_runs_both_sides() {
    // Each work-item: 10 cycles before, 100 in its side (then for even, else for odd),
    // 5 after: t = 115. The warp: 15 outside, then 100 and 100: 215.
    let even = (115, 115, vec![100, 0]);
    let odd = (115, 115, vec![0, 100]);
    let e = run(&[even.clone(), odd.clone(), even, odd]);
    assert_eq!(e.latency_cycles, 215);
    assert_eq!(e.divergence_cycles, 100);
    // It issued both sides: 115 issue cycles grow by 215 / 115.
    assert_eq!(e.contention_cycles[0], 215.0);
}

#[test]
fn an_arm_every_work_item_takes_costs_what_it_did() {
    // A bounds check every work-item passes: the then-side is an arm, the else-side empty.
    let inside = (115, 115, vec![100, 0]);
    let e = run(&[inside.clone(), inside.clone(), inside.clone(), inside]);
    assert_eq!(e.latency_cycles, 115);
    assert_eq!(e.divergence_cycles, 0);
    assert_eq!(e.contention_cycles[0], 115.0);
    // The same records without arms.
    let plain: Vec<(u64, u64, Vec<u64>)> = vec![(115, 115, vec![]); 4];
    assert_eq!(run(&plain).latency_cycles, 115);
}

#[test]
fn uneven_arms_take_the_slowest_work_item_of_each() {
    // Outside: 20, 30, 10, 0 (t less arms); arm 0: 50, 0, 70, 0; arm 1: 0, 40, 0, 90.
    let e = run(&[
        (70, 70, vec![50, 0]),
        (70, 70, vec![0, 40]),
        (80, 80, vec![70, 0]),
        (90, 90, vec![0, 90]),
    ]);
    // 30 + 70 + 90 = 190, against the slowest work-item's 90.
    assert_eq!(e.latency_cycles, 190);
    assert_eq!(e.divergence_cycles, 100);
}

#[test]
fn a_loop_whose_lanes_change_sides_runs_both_each_iteration() {
    // 8 iterations of an if / else inside a loop, 10 cycles a side, 4 outside an
    // iteration (t = 8 x 14 = 112 a work-item). Work-items 0 and 2 take the then-side in
    // iterations 0-3 and the else-side in 4-7, work-items 1 and 3 the opposite: each
    // work-item is 40 cycles in each arm, entered 4 times, 8 decisions. Every iteration
    // the warp runs both sides: 32 outside + 8 x 10 + 8 x 10 = 192, where the per-lane
    // arms alone gave 32 + 40 + 40 = 112.
    let item = (112, 112, vec![40, 40], vec![4, 4], vec![8, 8]);
    let e = run_counted(&[item.clone(), item.clone(), item.clone(), item]);
    assert_eq!(e.latency_cycles, 192);
    assert_eq!(e.divergence_cycles, 192 - 112);
    // Lanes that keep their side through the loop (a parity branch in it): 80 cycles in
    // one arm, 8 entries: the slowest lane of each arm, 32 + 80 + 80 = 192 too.
    let then = (112, 112, vec![80, 0], vec![8, 0], vec![8, 8]);
    let other = (112, 112, vec![0, 80], vec![0, 8], vec![8, 8]);
    let e = run_counted(&[then.clone(), other.clone(), then, other]);
    assert_eq!(e.latency_cycles, 192);
    // Every lane in the then-side every iteration: no divergence, 112.
    let all = (112, 112, vec![80, 0], vec![8, 0], vec![8, 8]);
    let e = run_counted(&[all.clone(), all.clone(), all.clone(), all]);
    assert_eq!(e.latency_cycles, 112);
}
