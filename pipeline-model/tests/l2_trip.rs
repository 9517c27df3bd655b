//! The L2's unloaded trip on hand-computed cases: a block's `L2_trip` usage is what its
//! path takes beyond the same path with every L2 trip unloaded, and a launch's paths shed
//! that share of their time as its L2 is idle, none of it where the L2 is busy for the
//! whole paths or where the reads come from DRAM.

mod common;

use pipeline_model::*;

/// gtx480 shrunk: warps of 4, one SM, a 1000 MHz clock; an L2 of 4096 bytes (8 ways of
/// 128-byte lines) moving 128 bytes a cycle, its trip 20 cycles under load and 12 unloaded; no launch cost.
/// Resources: issue, ALU, SFU, MEM, L2, L2_trip; usage scale 2 (2 ALUs).
fn toy() -> Architecture {
    let mut a = common::paper_gtx480();
    a.warp_size = 4;
    a.sm_count = 1;
    a.clock_mhz = 1000.0;
    a.memory.l2_bytes = Some(4096);
    a.memory.l2_ways = Some(8);
    a.memory.l2_gb_per_s = Some(128.0);
    a.memory.l2_hit = 20;
    a.memory.l2_unloaded = Some(12);
    a
}

const R: usize = 6;
const L2_COLUMN: usize = 4;
const TRIP_COLUMN: usize = 5;

fn l2_load(reads: &[u32], writes: &[u32]) -> Instr {
    Instr::new(OpClass::GlobalMem, reads, writes)
        .with_global_bytes(4)
        .with_access(MemAccess {
            level: MemLevel::L2,
            transactions: 1,
            sectors: 1,
            reuse_lines: None,
            step_bytes: None,
        })
}

#[test]
fn a_block_counts_what_its_l2_trips_take_beyond_the_unloaded_ones() {
    let arch = toy();
    assert_eq!(
        arch.resources(),
        ["issue", "ALU", "SFU", "MEM", "L2", "L2_trip"]
    );
    assert_eq!(arch.l2_trip_resource(), Some(TRIP_COLUMN));
    // Two loads in a chain (the second's address is the first's value): two trips on the
    // path, each 20 - 12 = 8 cycles longer than unloaded.
    let chain = [l2_load(&[1], &[2]), l2_load(&[2], &[3])];
    let loaded = block_timing(&arch, &chain);
    let unloaded = block_timing(&arch.with_unloaded_l2(), &chain);
    assert_eq!(loaded.cycles - unloaded.cycles, 16);
    assert_eq!(loaded.usage.0[TRIP_COLUMN], 16.0);
    // Two independent loads overlap: one trip on the path.
    let both = [l2_load(&[1], &[2]), l2_load(&[1], &[3])];
    assert_eq!(block_timing(&arch, &both).usage.0[TRIP_COLUMN], 8.0);
    // A description without the unloaded trip has no such resource.
    let mut plain = toy();
    plain.memory.l2_unloaded = None;
    assert_eq!(plain.l2_trip_resource(), None);
    assert_eq!(plain.resources().len(), R - 1);
}

/// One work-group of `n` work-items (one warp of 4 each), each with time `t`, `trip`
/// cycles of it beyond unloaded L2 trips and `bytes` bytes past the L1; the buffers
/// `footprint` bytes.
fn run(n: usize, t: u64, trip: u64, bytes: u64, footprint: u64) -> KernelEstimate {
    let arch = toy();
    let scale = arch.usage_scale();
    assert_eq!(scale, 2);
    let mut rec = [0u64; R];
    rec[L2_COLUMN] = bytes * scale;
    rec[TRIP_COLUMN] = trip * scale;
    let data: Vec<u64> = (0..n).flat_map(|_| std::iter::once(t).chain(rec)).collect();
    let resources = KernelResources {
        global_memory_bytes: Some(footprint),
        ..KernelResources::default()
    };
    common::estimate_items(&arch, n as u64, &resources, &data, R)
}

#[test]
fn an_idle_l2_sheds_the_paths_trips_a_busy_one_keeps_them() {
    // No bytes past the L1: the L2 idle for the whole path. One warp of 100 cycles, 40
    // of them beyond unloaded trips: the path takes 100 - 40 = 60.
    let idle = run(4, 100, 40, 0, 1024);
    assert_eq!(idle.latency_cycles, 60);
    assert_eq!(idle.cycles, 60);
    // 4 lanes x 1600 bytes = 6400 bytes over 128 a cycle: 50 cycles, and the last
    // request's trip (20): the L2 busy for 70 cycles. The first wave's compulsory bytes
    // (the 1024-byte footprint) queue 1024 / 128 = 8 cycles, so the paths and the queue
    // take 108, the L2 busy for 70 / 108 of them; the paths shed (1 - 70/108) x 40 =
    // 14.07, 14: 86, and the queue after them: 94.
    let half = run(4, 100, 40, 1600, 1024);
    assert_eq!(half.queue_cycles, 8);
    assert_eq!(half.contention_cycles[L2_COLUMN], 70.0);
    assert_eq!(half.contention_cycles[TRIP_COLUMN], 0.0);
    assert_eq!(half.latency_cycles, 94);
    // Busy for more than the paths: the L2 bounds the launch, nothing shed (the queue
    // the same 8).
    let busy = run(4, 100, 40, 4000, 1024);
    assert_eq!(busy.latency_cycles, 108);
    // Buffers two lines over the L2 (34 lines in its 4 sets of 8 ways): the sets they
    // overfill miss, 2 x 9 of the 34 lines, and those reads come from DRAM, whose trip is
    // no shorter; the L2's share, 16/34, sheds 40 x 16/34 = 18.8, 19: 81.
    let over = run(4, 100, 40, 0, 4096 + 2 * 128);
    assert_eq!(over.latency_cycles, 81);
    // Four times the L2: every read from DRAM, nothing shed.
    let dram = run(4, 100, 40, 0, 4 * 4096);
    assert_eq!(dram.latency_cycles, 100);
}
