//! Address arithmetic a native addressing mode absorbs (`frontend.native_addressing`):
//! a shared-memory pointer chase, `p = s[p]`, as clang writes each step (scale the index,
//! add the array's address, load).

use pipeline_model::*;

fn h100(addressing: Addressing) -> Architecture {
    let mut a = Architecture::load("hopper_h100").unwrap();
    a.frontend.native_addressing = addressing;
    a
}

/// `steps` dependent steps; registers 0 (the array's address) and 1 (p) come in.
fn chase(steps: u32) -> Vec<Instr> {
    let int = |op| OpClass::Arith(DataKind::Int, op);
    let mut out = Vec::new();
    let mut p = 1;
    for s in 0..steps {
        let (scaled, address, next) = (10 + 3 * s, 11 + 3 * s, 12 + 3 * s);
        out.push(
            Instr::new(int(ArithOp::Mul), &[p], &[scaled]).as_addressing(Addressing::ScaledIndex),
        );
        out.push(
            Instr::new(int(ArithOp::Add), &[0, scaled], &[address]).as_addressing(Addressing::Base),
        );
        out.push(
            Instr::new(OpClass::SharedMem, &[address], &[next]).with_access(MemAccess {
                level: MemLevel::L1,
                transactions: 1,
                sectors: 0,
                reuse_lines: None,
                step_bytes: None,
            }),
        );
        p = next;
    }
    out
}

#[test]
fn each_absorbed_instruction_leaves_the_chain_and_the_issue_stage() {
    let steps = 4;
    let instrs = chase(steps);
    let none = h100(Addressing::None);
    let int_latency = u64::from(none.ops[OpRow::IntAdd].latency);
    let t = |a: Addressing| block_timing(&h100(a), &instrs);
    let (t_none, t_base, t_scaled) = (
        t(Addressing::None),
        t(Addressing::Base),
        t(Addressing::ScaledIndex),
    );
    // Every step's chain loses the add, then the multiply too.
    assert_eq!(
        t_none.cycles - t_base.cycles,
        u64::from(steps) * int_latency
    );
    assert_eq!(
        t_base.cycles - t_scaled.cycles,
        u64::from(steps) * int_latency
    );
    // What issues: three, two, then one instruction a step.
    let issue = |t: &BlockTiming| t.usage.0[0];
    assert_eq!(issue(&t_none), f64::from(3 * steps));
    assert_eq!(issue(&t_base), f64::from(2 * steps));
    assert_eq!(issue(&t_scaled), f64::from(steps));
    // Fully absorbed, a step is the shared load's latency (and the issue after it).
    let shared = u64::from(none.memory.shared);
    assert!(t_scaled.cycles >= u64::from(steps) * shared);
    assert!(t_scaled.cycles <= u64::from(steps) * (shared + 2) + 4);
}

#[test]
fn a_ptx_simulator_runs_every_instruction() {
    // GPGPU-Sim's GTX 480 executes PTX: nothing is absorbed.
    let gtx = Architecture::load("gtx480").unwrap();
    assert_eq!(gtx.frontend.native_addressing, Addressing::None);
    let instrs = chase(2);
    assert!(instrs.iter().all(|i| !gtx.folds(i)));
    assert_eq!(
        block_timing(&gtx, &instrs).usage.0[0],
        6.0 * f64::from(gtx.frontend.issue_interval)
    );
}
