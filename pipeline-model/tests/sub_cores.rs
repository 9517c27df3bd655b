//! The sub-core model on hand-computed cases: dispatch cycles from unit widths, as the
//! initiation interval of the execution graph and in the resource usage; warps dealt to
//! sub-cores in turn; the issue offset per sub-core; the contention term per sub-core (the
//! busiest) for a resource of each sub-core and per SM for a shared one.

use pipeline_model::*;

fn op(kind: DataKind, op: ArithOp, reads: &[Reg], dst: Reg) -> Instr {
    Instr::new(OpClass::Arith(kind, op), reads, &[dst])
}

#[test]
fn dispatch_cycles_follow_the_lanes() {
    let h100 = Architecture::load("hopper_h100").unwrap();
    let a100 = Architecture::load("ampere_a100").unwrap();
    let unit = |a: &Architecture, n: &str| a.units.iter().position(|u| u.name == n).unwrap();
    // 32 work-items over 32, 16, 16, 4 lanes.
    assert_eq!(h100.dispatch_cycles(unit(&h100, "FP32")), 1);
    assert_eq!(h100.dispatch_cycles(unit(&h100, "INT")), 2);
    assert_eq!(h100.dispatch_cycles(unit(&h100, "FP64")), 2);
    assert_eq!(h100.dispatch_cycles(unit(&h100, "SFU")), 8);
    assert_eq!(a100.dispatch_cycles(unit(&a100, "FP32")), 2);
    assert_eq!(a100.dispatch_cycles(unit(&a100, "FP64")), 4);
    // The initiation interval is the larger of the class's and the dispatch cycles:
    // fp32_div on the SFU has 4 of its own, the 4-lane SFU needs 8; fp64_div keeps 130.
    let div = |k| h100.describe(OpClass::Arith(k, ArithOp::Div)).initiation;
    assert_eq!(div(DataKind::Fp32), 8);
    assert_eq!(div(DataKind::Fp64), 130);
    assert_eq!(h100.describe(OpClass::Sfu).initiation, 8);
    assert_eq!(
        a100.describe(OpClass::Arith(DataKind::Fp64, ArithOp::Add))
            .initiation,
        4
    );
    // Widths that do not divide the warp round up: 32 over 12 lanes is 3 cycles.
    let mut odd = h100.clone();
    odd.units[unit(&h100, "SFU")].lanes = 12;
    assert_eq!(odd.dispatch_cycles(unit(&h100, "SFU")), 3);
}

#[test]
fn independent_instructions_wait_for_the_lanes() {
    // Three independent fp64 adds on the A100: one FP64 unit of 8 lanes per sub-core, so
    // EX starts 4 cycles apart. Issue, operand read and write-back add nothing on Volta and
    // later (OC = EX = IS). IF 0,0,3; IS 2,3,5; EX 2, max(3, 2+4) = 6, max(5, 6+4) = 10;
    // WB = EX + 6: 8, 12, 16.
    let a100 = Architecture::load("ampere_a100").unwrap();
    let add = |d, a, b| op(DataKind::Fp64, ArithOp::Add, &[a, b], d);
    let block = [add(10, 1, 2), add(11, 3, 4), add(12, 5, 6)];
    let s = schedule(&a100, &block);
    let at = |stage| (0..3).map(|i| s.start(i, stage)).collect::<Vec<u64>>();
    assert_eq!(at(Stage::Issue), [2, 3, 5]);
    assert_eq!(at(Stage::Execute), [2, 6, 10]);
    assert_eq!(at(Stage::Writeback), [8, 12, 16]);
    assert_eq!(s.length, 16);
    // On the H100 (16 FP64 lanes, 2 cycles; latency 8): EX 2, 4, 6 -> WB 10, 12, 14.
    let h100 = Architecture::load("hopper_h100").unwrap();
    let s = schedule(&h100, &block);
    assert_eq!(s.start(2, Stage::Execute), 6);
    assert_eq!(s.length, 14);
}

#[test]
fn a_dependent_chain_issues_every_latency() {
    // Three chained fp32 multiply-adds on the H100 (latency 4): each issues when its
    // producer writes back, 4 cycles after the producer issued: IS 2, 6, 10; WB 6, 10, 14.
    // (On the gtx480 the same chain costs 1 + 3 + 5 + 1 = 10 cycles an instruction.)
    let h100 = Architecture::load("hopper_h100").unwrap();
    let fma = |d, a| op(DataKind::Fp32, ArithOp::Mad, &[a, 1, 2], d);
    let block = [fma(10, 3), fma(11, 10), fma(12, 11)];
    let s = schedule(&h100, &block);
    let at = |stage| (0..3).map(|i| s.start(i, stage)).collect::<Vec<u64>>();
    assert_eq!(at(Stage::Issue), [2, 6, 10]);
    assert_eq!(at(Stage::Writeback), [6, 10, 14]);
    let gtx480 = Architecture::load("gtx480").unwrap();
    let s = schedule(&gtx480, &block);
    let at = |stage| (0..3).map(|i| s.start(i, stage)).collect::<Vec<u64>>();
    assert_eq!(at(Stage::Issue), [2, 12, 22]);
}

#[test]
fn usage_counts_the_dispatch_cycles() {
    // H100: one sqrt (SFU, 8 cycles), one fp32 mad (FP32, 1), one int add (INT, 2) and one
    // load of a float4 (MEM, 1; 16 bytes): issue 4, INT 2, FP32 1, FP64 0, SFU 8, MEM 1,
    // L2 16, DRAM 0 (it counts what is stored).
    let h100 = Architecture::load("hopper_h100").unwrap();
    assert_eq!(
        h100.resources(),
        ["issue", "INT", "FP32", "FP64", "SFU", "MEM", "L2", "DRAM"]
    );
    let block = [
        Instr::new(OpClass::Sfu, &[1], &[2]),
        op(DataKind::Fp32, ArithOp::Mad, &[1, 2, 3], 4),
        op(DataKind::Int, ArithOp::Add, &[5, 6], 7),
        Instr::new(OpClass::Mem, &[7], &[8]).with_global_bytes(16),
    ];
    assert_eq!(
        ResourceUsage::of(&h100, &block).0,
        [4.0, 2.0, 1.0, 0.0, 8.0, 1.0, 16.0, 0.0]
    );
    assert_eq!(
        h100.resource_scopes(),
        [
            Scope::SubCore,
            Scope::SubCore,
            Scope::SubCore,
            Scope::SubCore,
            Scope::SubCore,
            Scope::Sm,
            Scope::Device,
            Scope::Device
        ]
    );
}

/// The H100 shrunk for hand computation: warps of 4, one SM, 4 sub-cores; resources
/// issue, INT, FP32, FP64, SFU (each sub-core's) and MEM (the SM's), the L2 and DRAM left
/// out (they have tests of their own); no launch cost; usage scale 1.
fn toy(groups_per_sm: u32) -> Architecture {
    let mut a = Architecture::load("hopper_h100").unwrap();
    a.memory.dram_gb_per_s = None;
    a.memory.l2_gb_per_s = None;
    a.launch.fixed_cycles = 0;
    a.warp_size = 4;
    a.sm_count = 1;
    a.limits.max_work_groups = groups_per_sm;
    a
}

const R: usize = 6;
const SFU: usize = 4;
const MEM: usize = 5;

fn run(
    arch: &Architecture,
    global: u64,
    local: u64,
    t: &[u64],
    uses: &[[u64; R]],
) -> KernelEstimate {
    let data: Vec<u64> = t
        .iter()
        .zip(uses)
        .flat_map(|(&t, u)| std::iter::once(t).chain(u.iter().copied()))
        .collect();
    estimate(
        arch,
        &LaunchGeometry {
            global: [global, 1, 1],
            local: [local, 1, 1],
        },
        &KernelResources::default(),
        &Records {
            data: &data,
            format: RecordFormat::timing(R, 0),
            usage_scale: arch.usage_scale(),
            grain: Grain::WorkItem,
            shared: None,
        },
    )
    .unwrap()
}

fn uses(r: usize, per_warp: &[u64], warp_size: usize) -> Vec<[u64; R]> {
    per_warp
        .iter()
        .flat_map(|&u| {
            let mut rec = [0; R];
            rec[r] = u;
            vec![rec; warp_size]
        })
        .collect()
}

#[test]
fn the_issue_offset_is_per_sub_core() {
    // One group of 9 warps, all t = 10: warps 0..3 on sub-cores 0..3 start at once, 4..7
    // one cycle later, warp 8 two cycles later: t_last = 10 + floor(8 / 4) = 12.
    let arch = toy(1);
    let t = [10; 36];
    let e = run(&arch, 36, 36, &t, &[[0; R]; 36]);
    assert_eq!(e.latency_cycles, 12);
    assert_eq!(e.warps, 9);
}

#[test]
fn contention_takes_the_busiest_sub_core() {
    // One group of 6 warps with SFU use 10, 20, 30, 40, 50, 60 (a sub-core resource):
    // sub-core 0 gets warps 0 and 4 (10 + 50), 1 gets 1 and 5 (20 + 60), 2 gets 30, 3 gets
    // 40: the busiest holds it 80 cycles. On the whole SM it would be 210.
    let arch = toy(1);
    let t = [5; 24];
    let e = run(&arch, 24, 24, &t, &uses(SFU, &[10, 20, 30, 40, 50, 60], 4));
    assert_eq!(e.contention_cycles[SFU], 80.0);
    assert_eq!(e.cycles, 80);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "SFU".into()
        }
    );
    // MEM is the SM's: the same usage sums over all six warps.
    let e = run(&arch, 24, 24, &t, &uses(MEM, &[10, 20, 30, 40, 50, 60], 4));
    assert_eq!(e.contention_cycles[MEM], 210.0);
}

#[test]
fn the_sm_deals_warps_round_robin_across_work_groups() {
    // Five groups of one warp each, SFU use 7, 1, 1, 1, 9: the SM's counter sends them to
    // sub-cores 0, 1, 2, 3, 0, so sub-core 0 holds 7 + 9 = 16 (starting every group at
    // sub-core 0 would give 19). All five are resident (8 work-group slots).
    let arch = toy(8);
    let t = [3; 20];
    let e = run(&arch, 20, 4, &t, &uses(SFU, &[7, 1, 1, 1, 9], 4));
    assert_eq!(e.contention_cycles[SFU], 16.0);
    // Groups of two warps: group 0 on sub-cores 0, 1; group 1 on 2, 3; group 2 on 0, 1.
    // Uses 1, 2 | 3, 4 | 5, 6: sub-core 0 = 1 + 5, 1 = 2 + 6 = 8, 2 = 3, 3 = 4.
    let t = [3; 24];
    let e = run(&arch, 24, 8, &t, &uses(SFU, &[1, 2, 3, 4, 5, 6], 4));
    assert_eq!(e.contention_cycles[SFU], 8.0);
}
