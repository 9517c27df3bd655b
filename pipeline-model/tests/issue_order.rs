//! The compiler's issue order (`frontend.issue_order = "list_scheduled"`): loads are hoisted
//! above independent work so that their latency is paid at the first use, while register
//! dependencies, and stores, branches and barriers, keep their order.

use pipeline_model::*;

fn h100(order: IssueOrder) -> Architecture {
    let mut a = Architecture::load("hopper_h100").unwrap();
    a.frontend.issue_order = order;
    a
}

fn shared_load(dst: Reg, addr: Reg) -> Instr {
    Instr::new(OpClass::SharedMem, &[addr], &[dst]).with_access(MemAccess {
        level: MemLevel::L1,
        transactions: 1,
        sectors: 0,
        reuse_lines: None,
        step_bytes: None,
    })
}

fn fma(acc: Reg, a: Reg, b: Reg) -> Instr {
    Instr::new(
        OpClass::Arith(DataKind::Fp32, ArithOp::Mad),
        &[a, b, acc],
        &[acc],
    )
}

/// The inner loop of a tiled matrix multiply, unrolled four times, as clang writes it:
/// each multiply-add right after its two shared-memory loads.
fn tile_step() -> Vec<Instr> {
    let acc = 100;
    (0..4)
        .flat_map(|k| {
            let (a, b) = (10 + 2 * k, 11 + 2 * k);
            [shared_load(a, 1), shared_load(b, 2), fma(acc, a, b)]
        })
        .collect()
}

#[test]
fn loads_go_first_by_the_longest_latency_path() {
    let arch = h100(IssueOrder::ListScheduled);
    // Heights: the last fma 4 cycles, each earlier one 4 more; a load 29 (H100 shared
    // memory) plus its fma's: the pairs 45, 41, 37, 33, all above the first fma's 16.
    assert_eq!(
        issue_order(&arch, &tile_step()),
        [0, 1, 3, 4, 6, 7, 9, 10, 2, 5, 8, 11]
    );
    assert_eq!(
        issue_order(&h100(IssueOrder::Ptx), &tile_step()),
        (0..12).collect::<Vec<_>>()
    );
}

#[test]
fn hoisting_pays_the_load_latency_once_instead_of_at_every_use() {
    let listed = block_timing(&h100(IssueOrder::ListScheduled), &tile_step()).cycles;
    let in_ptx_order = block_timing(&h100(IssueOrder::Ptx), &tile_step()).cycles;
    // In PTX order every fma waits for its own loads: four load latencies (29) in a row.
    assert!(in_ptx_order >= 4 * 29, "{in_ptx_order}");
    // Hoisted: one load latency, then the chain of four dependent fmas (4 cycles each).
    assert!(listed < 29 + 8 + 4 * 4 + 8, "{listed}");
    assert!(listed < in_ptx_order / 2, "{listed} vs {in_ptx_order}");
    // The schedule is indexed as the block was written: the second pair's loads issue
    // before the first fma.
    let s = schedule(&h100(IssueOrder::ListScheduled), &tile_step());
    assert!(s.start(3, Stage::Issue) < s.start(2, Stage::Issue));
    // Usage does not depend on the order.
    assert_eq!(
        block_timing(&h100(IssueOrder::ListScheduled), &tile_step()).usage,
        block_timing(&h100(IssueOrder::Ptx), &tile_step()).usage
    );
}

#[test]
fn nothing_moves_across_a_store() {
    let arch = h100(IssueOrder::ListScheduled);
    let store = Instr::new(OpClass::SharedMem, &[1, 100], &[]);
    let mut block = tile_step();
    block.insert(6, store);
    let order = issue_order(&arch, &block);
    let at = |i: usize| order.iter().position(|&x| x == i).unwrap();
    // Everything written before the store issues before it, everything after after it.
    assert!((0..6).all(|i| at(i) < at(6)), "{order:?}");
    assert!((7..13).all(|i| at(i) > at(6)), "{order:?}");
    // And a register is not written before an earlier instruction has read it.
    let war = [
        fma(100, 10, 11),
        Instr::new(OpClass::SharedMem, &[1], &[10]),
    ];
    assert_eq!(issue_order(&arch, &war), [0, 1]);
}
