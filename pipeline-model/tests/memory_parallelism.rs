//! The SM's shared fetch unit and its misses in flight, on hand-computed cases: each is a
//! resource of the SM whose usage the blocks' instructions give.

use pipeline_model::*;

fn load(level: MemLevel, transactions: u32) -> Instr {
    Instr::new(OpClass::GlobalMem, &[1], &[2]).with_access(MemAccess {
        level,
        transactions,
        sectors: transactions,
        reuse_lines: None,
        step_bytes: None,
    })
}

#[test]
fn a_load_from_dram_takes_a_miss_entry_per_line() {
    // The records count entries; the model multiplies by the trip of the launch's data
    // (pipeline-model/tests/l2.rs).
    let arch = Architecture::load("gtx480").unwrap();
    let mshr = arch
        .mshr_resource()
        .expect("gtx480 bounds the misses in flight");
    let entries = f64::from(arch.memory.mshrs_per_sm.unwrap());
    let usage = |i: Instr| ResourceUsage::of(&arch, &[i]).0[mshr];
    // 32 lines (a gather) over the SM's 64 entries.
    assert_eq!(usage(load(MemLevel::Dram, 32)), 32.0 / entries);
    assert_eq!(usage(load(MemLevel::Dram, 1)), 1.0 / entries);
    // Hits in the L1, loads charged at the L2 (inside loops) and stores hold none.
    assert_eq!(usage(load(MemLevel::L1, 32)), 0.0);
    assert_eq!(usage(load(MemLevel::L2, 32)), 0.0);
    let store = Instr::new(OpClass::GlobalMem, &[1, 2], &[]).with_access(MemAccess {
        level: MemLevel::Dram,
        transactions: 32,
        sectors: 32,
        reuse_lines: None,
        step_bytes: None,
    });
    assert_eq!(usage(store), 0.0);
}

#[test]
fn many_warps_of_gathers_are_bound_by_the_misses_in_flight() {
    // One SM, 64 warps of one gather each (32 lines from DRAM, the buffers unknown, so not
    // in the L2): 64 * 32 * 500 / 64 entry cycles, far more than one warp's path.
    let mut arch = Architecture::load("gtx480").unwrap();
    arch.sm_count = 1;
    arch.memory.dram_gb_per_s = None;
    arch.launch.fixed_cycles = 0;
    let block = [load(MemLevel::Dram, 32)];
    let timing = block_timing(&arch, &block);
    let r = arch.resources().len();
    let scale = arch.usage_scale();
    let record: Vec<u64> = std::iter::once(timing.cycles)
        .chain(
            timing
                .usage
                .0
                .iter()
                .map(|u| (u * scale as f64).round() as u64),
        )
        .collect();
    assert_eq!(record.len(), 1 + r);
    let items = 64 * 32;
    let data: Vec<u64> = record
        .iter()
        .copied()
        .cycle()
        .take(items * (1 + r))
        .collect();
    let geometry = LaunchGeometry {
        global: [items as u64, 1, 1],
        local: [256, 1, 1],
    };
    let e = estimate(
        &arch,
        &geometry,
        &KernelResources::default(),
        &Records {
            data: &data,
            format: RecordFormat::timing(r, 0),
            usage_scale: scale,
            grain: Grain::WorkItem,
            shared: None,
        },
    )
    .unwrap();
    let expected = 64.0 * 32.0 * f64::from(arch.memory.dram) / 64.0;
    assert_eq!(e.contention_cycles[arch.mshr_resource().unwrap()], expected);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: MSHR.into()
        }
    );
    assert_eq!(e.cycles, expected as u64);
}

#[test]
fn the_fetch_unit_reads_a_pair_of_instructions_a_cycle_for_the_whole_sm() {
    let arch = Architecture::load("gtx480").unwrap();
    let fetch = arch
        .fetch_resource()
        .expect("gtx480 has one fetch unit per SM");
    let add = |d| Instr::new(OpClass::Arith(DataKind::Int, ArithOp::Add), &[1], &[d]);
    let usage = |n: u32| ResourceUsage::of(&arch, &(0..n).map(add).collect::<Vec<_>>()).0[fetch];
    // ceil(n / 2) groups, one a cycle.
    assert_eq!([1, 2, 3, 5].map(usage), [1.0, 1.0, 2.0, 3.0]);
    let mut none = arch.clone();
    none.frontend.sm_fetch_groups_per_cycle = 0;
    assert_eq!(none.fetch_resource(), None);
    assert!(!none.resources().contains(&FETCH.to_string()));
}
