//! The SM's fill port on hand-computed cases: the lines a warp's loads bring past the L1
//! are counted once per warp instruction (stores and what the L1 serves bring none), and
//! the most loaded SM's bytes over the port's bandwidth bound a launch that the L2 as a
//! whole would serve far sooner.

mod common;

use pipeline_model::*;

/// gtx480 shrunk: warps of 4, two SMs, the L2 moving 128 bytes a cycle with a 20-cycle
/// trip, and each SM's port 8 bytes a cycle; no launch cost, no miss entries, no DRAM.
/// Resources: issue, ALU, SFU, MEM, fill, L2; usage scale 2 (2 ALUs).
fn toy() -> Architecture {
    let mut a = common::paper_gtx480();
    a.warp_size = 4;
    a.sm_count = 2;
    a.clock_mhz = 1000.0;
    a.memory.l2_gb_per_s = Some(128.0);
    a.memory.l2_hit = 20;
    a.memory.fill_bytes_per_cycle = Some(8.0);
    a
}

const R: usize = 6;
const FILL_COLUMN: usize = 4;
const L2_COLUMN: usize = 5;

fn access(transactions: u32, reuse_lines: Option<u32>) -> MemAccess {
    MemAccess {
        level: MemLevel::L2,
        transactions,
        sectors: 4 * transactions,
        reuse_lines,
        step_bytes: None,
    }
}

#[test]
fn a_warps_loads_bring_their_lines_through_the_port_once() {
    let arch = toy();
    assert_eq!(
        arch.resources(),
        ["issue", "ALU", "SFU", "MEM", "fill", "L2"]
    );
    assert_eq!(arch.fill_resource(), Some(FILL_COLUMN));
    assert_eq!(arch.resource_scopes()[FILL_COLUMN], Scope::Sm);
    // A gather whose 4 lanes each miss their own 128-byte line: the warp brings 4 lines,
    // 512 bytes, in one instruction (each lane's record holds the warp's, as for a
    // unit's passes); past the L1 each lane moves its own line.
    let gather = Instr::new(OpClass::GlobalMem, &[1], &[2])
        .with_global_bytes(4)
        .with_access(access(4, None));
    let usage = ResourceUsage::of(&arch, &[gather]).0;
    assert_eq!(usage[FILL_COLUMN], 512.0);
    assert_eq!(usage[L2_COLUMN], 128.0);
    // A store sends its bytes out: nothing comes in.
    let store = Instr::new(OpClass::GlobalMem, &[1, 2], &[])
        .with_global_bytes(4)
        .with_access(access(4, None));
    assert_eq!(ResourceUsage::of(&arch, &[store]).0[FILL_COLUMN], 0.0);
    // A load of the lines the warp's previous load brought in (no line between): the L1
    // keeps them for its sharers and serves it.
    let again = Instr::new(OpClass::GlobalMem, &[1], &[3])
        .with_global_bytes(4)
        .with_access(access(4, Some(0)));
    assert_eq!(arch.serving_level(&access(4, Some(0))), MemLevel::L1);
    assert_eq!(ResourceUsage::of(&arch, &[again]).0[FILL_COLUMN], 0.0);
}

/// A launch of `groups` work-groups of one warp (4 work-items), each work-item with time
/// `t` and `fill` bytes through its SM's port (its warp's, per the column's meaning) and
/// `bytes` bytes past the L1.
fn run(groups: usize, t: u64, fill: u64, bytes: u64) -> KernelEstimate {
    let arch = toy();
    let scale = arch.usage_scale();
    assert_eq!(scale, 2);
    let mut rec = [0u64; R];
    rec[FILL_COLUMN] = fill * scale;
    rec[L2_COLUMN] = bytes * scale;
    let data: Vec<u64> = (0..4 * groups)
        .flat_map(|_| std::iter::once(t).chain(rec))
        .collect();
    common::estimate_items(&arch, 4, &KernelResources::default(), &data, R)
}

#[test]
fn the_busiest_sms_port_bounds_a_launch_the_l2_would_serve_sooner() {
    // Three groups on two SMs: the first SM holds two (its warps 2 x 4096 bytes through
    // its port: 8192 / 8 = 1024 cycles), the second one (512 cycles). The L2 moves the
    // 12 work-items' 12 x 1024 bytes in 12288 / 128 = 96 cycles plus its 20-cycle trip.
    let e = run(3, 100, 4096, 1024);
    assert_eq!(e.contention_cycles[FILL_COLUMN], 1024.0);
    assert_eq!(e.contention_cycles[L2_COLUMN], 96.0 + 20.0);
    assert_eq!(e.cycles, 1024);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "fill".into()
        }
    );
}
