//! The worked examples of docs/design.md and the properties of the fixpoint.

use pipeline_model::*;
use proptest::prelude::*;

fn fadd(dst: Reg, a: Reg, b: Reg) -> Instr {
    Instr::new(
        OpClass::Arith(DataKind::Fp32, ArithOp::Add),
        &[a, b],
        &[dst],
    )
}

fn starts(s: &Schedule, stage: Stage) -> Vec<u64> {
    (0..s.len()).map(|i| s.start(i, stage)).collect()
}

#[test]
fn three_independent_adds_take_12_cycles() {
    let arch = Architecture::load("gtx480").unwrap();
    let block = [fadd(10, 1, 2), fadd(11, 3, 4), fadd(12, 5, 6)];
    let s = schedule(&arch, &block);
    assert_eq!(starts(&s, Stage::Fetch), [0, 0, 3]);
    assert_eq!(starts(&s, Stage::Issue), [2, 3, 5]);
    assert_eq!(starts(&s, Stage::Operand), [3, 4, 6]);
    assert_eq!(starts(&s, Stage::Execute), [5, 6, 8]);
    assert_eq!(starts(&s, Stage::Writeback), [9, 10, 12]);
    assert_eq!(s.length, 12);
    assert_eq!(block_timing(&arch, &block).cycles, 12);
}

#[test]
fn three_chained_adds_take_25_cycles() {
    let arch = Architecture::load("gtx480").unwrap();
    let block = [fadd(10, 1, 2), fadd(11, 10, 2), fadd(12, 11, 2)];
    let s = schedule(&arch, &block);
    assert_eq!(starts(&s, Stage::Issue), [2, 10, 18]);
    assert_eq!(starts(&s, Stage::Writeback), [9, 17, 25]);
    assert_eq!(s.length, 25);
}

#[test]
fn dependent_divisions_pay_the_full_latency() {
    // x = x / d, 30 times: each division waits for the previous write-back:
    // WB -> IS 1, IS -> OC 1, OC -> EX 2 (two registers), EX -> WB 39.
    let arch = Architecture::load("gtx480").unwrap();
    let div = |dst, a| {
        Instr::new(
            OpClass::Arith(DataKind::Fp32, ArithOp::Div),
            &[a, 0],
            &[dst],
        )
    };
    let block: Vec<Instr> = (1..=30).map(|i| div(i, i - 1)).collect();
    let t = block_timing(&arch, &block);
    assert_eq!(t.cycles, 2 + 1 + 2 + 39 + 29 * (1 + 1 + 2 + 39));
    // The SFU is held 4 cycles per division (one copy); one issue cycle each; the SM's
    // fetch unit one cycle per pair of instructions; no miss entries, nothing through the
    // fill port, no L2 or DRAM bytes, no L2 trip on the path.
    assert_eq!(
        t.usage.0,
        vec![30.0, 0.0, 120.0, 0.0, 15.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn resource_usage_divides_by_copies() {
    let arch = Architecture::load("gtx480").unwrap();
    let block = [
        fadd(10, 1, 2),
        fadd(11, 3, 4),
        fadd(12, 5, 6),
        Instr::new(OpClass::Mem, &[10], &[]),
    ];
    // issue 4; ALU: 3 adds of initiation 1 on 2 copies; SFU 0; MEM 1; fetch 2 pairs; no
    // miss entries, fill port, L2 or DRAM bytes (nor L2 trips: a path, not a usage of
    // the instructions themselves).
    assert_eq!(
        ResourceUsage::of(&arch, &block).0,
        vec![4.0, 1.5, 0.0, 1.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn empty_block_takes_no_time() {
    let arch = Architecture::load("gtx480").unwrap();
    assert_eq!(block_timing(&arch, &[]).cycles, 0);
}

fn arb_instr(regs: u32) -> impl Strategy<Value = Instr> {
    let class = prop_oneof![
        Just(OpClass::Other),
        Just(OpClass::Mem),
        Just(OpClass::Sfu),
        (0..3usize, 0..5usize).prop_map(|(k, o)| OpClass::Arith(
            [DataKind::Int, DataKind::Fp32, DataKind::Fp64][k],
            [
                ArithOp::Add,
                ArithOp::Max,
                ArithOp::Mul,
                ArithOp::Mad,
                ArithOp::Div
            ][o]
        )),
    ];
    (
        class,
        prop::collection::vec(0..regs, 0..4),
        prop::collection::vec(0..regs, 0..2),
    )
        .prop_map(|(class, reads, writes)| Instr::new(class, &reads, &writes))
}

fn arb_block() -> impl Strategy<Value = Vec<Instr>> {
    prop::collection::vec(arb_instr(12), 0..24)
}

proptest! {
    #[test]
    fn fixpoint_does_not_depend_on_visiting_order(
        arch in prop::sample::select(arch::BUILTIN_ARCHS),
        block in arb_block(),
        seed in any::<u64>(),
    ) {
        let arch = Architecture::load(arch).unwrap();
        let graph = ExecutionGraph::build(&arch, &block);
        let reference = graph.schedule();
        let mut order = graph.topological_order();
        // Reverse topological order is the slowest to converge; then a seeded shuffle.
        order.reverse();
        prop_assert_eq!(&graph.schedule_in_order(&order), &reference);
        let mut state = seed | 1;
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            order.swap(i, (state % (i as u64 + 1)) as usize);
        }
        prop_assert_eq!(&graph.schedule_in_order(&order), &reference);
    }

    #[test]
    fn pair_time_is_bounded_by_its_blocks(
        arch in prop::sample::select(arch::BUILTIN_ARCHS),
        first in arb_block(),
        second in arb_block(),
    ) {
        let arch = Architecture::load(arch).unwrap();
        let ti = block_timing(&arch, &first).cycles;
        let tj = block_timing(&arch, &second).cycles;
        let both: Vec<Instr> = first.iter().chain(&second).cloned().collect();
        let l = u64::from(ExecutionGraph::build(&arch, &both).max_crossing_latency(first.len()));
        let tij = pair_cycles(&arch, &first, &second);
        prop_assert!(ti.max(tj) <= tij, "max({ti},{tj}) > {tij}");
        prop_assert!(tij <= ti + tj + l, "{tij} > {ti} + {tj} + {l}");
    }
}

#[test]
fn global_and_shared_accesses_take_their_own_rows_where_a_description_gives_them() {
    // The shipped H100 charges every memory instruction the `mem` row (1 cycle); a copy
    // with a `mem_global` row of 41 cycles (Accel-Sim's L1 hit) delays an add that reads
    // a loaded value by 40 more cycles, and leaves shared and other accesses on `mem`.
    let shipped = include_str!("../arch/hopper_h100.toml");
    let mem_row = "mem      = { unit = \"MEM\",  latency = 1,   initiation = 1 }";
    assert!(shipped.contains(mem_row));
    let with_l1 = shipped.replace(
        mem_row,
        &format!("{mem_row}\nmem_global = {{ unit = \"MEM\", latency = 41, initiation = 1 }}"),
    );
    let slow = Architecture::from_toml(&with_l1, "with_l1.toml").unwrap();
    let h100 = Architecture::load("hopper_h100").unwrap();
    assert_eq!(slow.describe(OpClass::GlobalMem).latency, 41);
    assert_eq!(slow.describe(OpClass::SharedMem).latency, 1);
    assert_eq!(slow.describe(OpClass::Mem).latency, 1);
    assert_eq!(h100.describe(OpClass::GlobalMem).latency, 1);
    let load_then_add = |class| [Instr::new(class, &[1], &[2]), fadd(3, 2, 2)];
    let t = |arch: &Architecture, class| block_timing(arch, &load_then_add(class)).cycles;
    assert_eq!(
        t(&slow, OpClass::GlobalMem),
        t(&h100, OpClass::GlobalMem) + 40
    );
    assert_eq!(t(&slow, OpClass::SharedMem), t(&h100, OpClass::SharedMem));
    // A row naming no unit is refused like any other.
    let bad = with_l1.replace(
        "mem_global = { unit = \"MEM\"",
        "mem_global = { unit = \"LSU\"",
    );
    let err = Architecture::from_toml(&bad, "bad.toml").unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad.toml: field `ops.mem_global.unit`: `LSU` is not one of the units"
    );
}

#[test]
fn fetch_after_a_branch_waits_for_it_to_resolve() {
    // gtx480: the instruction after a branch is fetched `branch_to_fetch` cycles after the
    // branch executes, so a loop's back edge costs that much more than falling through.
    let arch = Architecture::load("gtx480").unwrap();
    let bra = Instr::new(OpClass::Other, &[], &[]).as_branch();
    let block = [fadd(3, 1, 2), bra];
    let next = [fadd(4, 1, 2)];
    let schedule = pipeline_model::schedule(&arch, &[block.to_vec(), next.to_vec()].concat());
    assert_eq!(
        schedule.start(2, Stage::Fetch),
        schedule.start(1, Stage::Execute) + u64::from(arch.frontend.branch_to_fetch)
    );
    // Everything after the branch moves by the fetch's delay.
    let mut no_penalty = arch.clone();
    no_penalty.frontend.branch_to_fetch = 0;
    let before = pipeline_model::schedule(&no_penalty, &[block.to_vec(), next.to_vec()].concat());
    let delay = schedule.start(2, Stage::Fetch) - before.start(2, Stage::Fetch);
    assert!(delay > 0);
    assert_eq!(
        pair_cycles(&arch, &block, &next),
        pair_cycles(&no_penalty, &block, &next) + delay
    );
}
