//! Address arithmetic that native code does not execute.
//!
//! clang computes a shared-memory address in PTX as 64-bit arithmetic, `base + index * 4`
//! (`mul.wide.u32` and `add.s64`) before each `ld.shared`. ptxas folds it into the load's
//! addressing mode, which holds a register, a uniform register and an immediate
//! (`[R+UR+imm]`), on some GPUs with the register scaled (`[R.X4+UR+imm]`): a pointer
//! chase through shared memory runs one or two instructions a step where the PTX has
//! three. The public A100 and H100 runs of the `shared_bw` microbenchmark count it
//! (validation/ubench/README.md): 139,584 and 271,264 warp instructions for 32 warps
//! chasing 4,096 steps, 1.1 and 2.1 a step, loop control included.
//!
//! This module finds that arithmetic ([`Instr::addressing`](pipeline_model::Instr)): an
//! integer `add` whose result is read only as the base register of shared-memory
//! accesses, in the same block, with one operand warp-uniform by construction (a
//! constant, a shared variable's address, a kernel parameter, or arithmetic on those: what
//! ptxas keeps in a uniform register), and the `mul`/`shl` by 1, 2, 4, 8 or 16 feeding its
//! other operand, when that scaled index feeds only such adds. The pipeline model skips
//! them on architectures that run native code (`frontend.native_addressing`).
//!
//! A global address is a 64-bit register pair, which the addressing mode takes as it is:
//! there ptxas fuses clang's `mul.wide` and `add.s64` into one `IMAD.WIDE`. So the add
//! after a `mul.wide` read only by it, whose sum is read only as addresses, goes too (as
//! [`Addressing::Base`]). The public H100 runs of `l1_bw_32f_unroll` execute 6.4 warp
//! instructions an iteration (835,776 for 32 warps x 4,096), what the PTX's 7.4 less that
//! add is.

use std::collections::{HashMap, HashSet};

use pipeline_model::{Addressing, OpClass};

use crate::front::opcode::{op_class, source_operands};
use crate::front::ptx::{Function, Instruction, Operand};

/// Special registers that differ between the lanes of a warp (or between reads).
const LANE_VARYING: &[&str] = &[
    "%tid.x",
    "%tid.y",
    "%tid.z",
    "%laneid",
    "%warpid",
    "%smid",
    "%clock",
    "%clock64",
    "%globaltimer",
    "%lanemask_eq",
    "%lanemask_le",
    "%lanemask_lt",
    "%lanemask_ge",
    "%lanemask_gt",
];

/// Per block, per instruction: the part of an address it computes that native code
/// absorbs ([`Addressing::None`] for everything else).
pub fn absorbed_addressing(f: &Function) -> Vec<Vec<Addressing>> {
    let mut out: Vec<Vec<Addressing>> = f
        .blocks
        .iter()
        .map(|b| vec![Addressing::None; b.instrs.len()])
        .collect();
    let uniform = compiler_uniform(f);
    let is_reg = |name: &str| f.registers.iter().any(|d| d.declares(name));
    // Every register's definitions, and its readers: (block, index, read as the base of a
    // memory access's address).
    let mut defs: HashMap<&str, usize> = HashMap::new();
    let mut readers: HashMap<&str, Vec<(usize, usize, bool)>> = HashMap::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let (dst, srcs) = source_operands(instr);
            for name in dst.iter().flat_map(Operand::registers) {
                *defs.entry(name).or_default() += 1;
            }
            let base = address_base(instr).map(|(reg, _)| reg);
            let mut reads: Vec<(&str, bool)> = Vec::new();
            for op in srcs {
                let as_base = matches!(op, Operand::Address { .. });
                for name in op.registers() {
                    reads.push((name, as_base && Some(name) == base));
                }
            }
            if let Some(g) = &instr.guard {
                reads.push((g.reg.as_str(), false));
            }
            for (name, as_base) in reads {
                if is_reg(name) {
                    readers.entry(name).or_default().push((b, i, as_base));
                }
            }
        }
    }
    let single_def = |name: &str| defs.get(name) == Some(&1);
    // The adds: each shared access's base register, defined once, earlier in its block.
    let mut adds: HashSet<(usize, usize)> = HashSet::new();
    let mut indices: Vec<(usize, usize, &str)> = Vec::new();
    // The global accesses' adds fused into the multiply before them.
    let mut fused: Vec<(usize, usize)> = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        for (m, instr) in block.instrs.iter().enumerate() {
            let Some((a, shared)) = address_base(instr) else {
                continue;
            };
            let read_otherwise = readers
                .get(a)
                .is_none_or(|r| r.iter().any(|&(_, _, as_base)| !as_base));
            if !single_def(a) || read_otherwise {
                continue;
            }
            let Some(d) = defined_before(&block.instrs[..m], a) else {
                continue;
            };
            let def = &block.instrs[d];
            if def.guard.is_some() || def.base() != "add" || !integer(def) {
                continue;
            }
            let Some([x, y]) = def.operands.get(1..3) else {
                continue;
            };
            if !shared {
                // A global address is a 64-bit register pair: `base + i * 4` is one
                // IMAD.WIDE, the multiply with the add fused into it.
                let only_here = |op: &Operand| match op {
                    Operand::Reg { name, .. } => {
                        single_def(name)
                            && readers
                                .get(name.as_str())
                                .is_some_and(|r| r.iter().all(|&(rb, ri, _)| (rb, ri) == (b, d)))
                            && defined_before(&block.instrs[..d], name)
                                .is_some_and(|s| wide_multiply(&block.instrs[s]))
                    }
                    _ => false,
                };
                if def.modifiers().any(|m| m == "s64" || m == "u64")
                    && (only_here(x) || only_here(y))
                {
                    fused.push((b, d));
                }
                continue;
            }
            let uniform_operand = |op: &Operand| match op {
                Operand::Imm(_) => true,
                Operand::Reg { name, .. } => uniform.contains(name.as_str()),
                _ => false,
            };
            // The operand that is not uniform is the index (either, when both are).
            let candidates: Vec<&Operand> = match (uniform_operand(x), uniform_operand(y)) {
                (true, true) => vec![x, y],
                (false, true) => vec![x],
                (true, false) => vec![y],
                (false, false) => continue,
            };
            adds.insert((b, d));
            for op in candidates {
                if let Operand::Reg { name, .. } = op {
                    indices.push((b, d, name.as_str()));
                }
            }
        }
    }
    for &(b, d) in adds.iter().chain(&fused) {
        out[b][d] = Addressing::Base;
    }
    // The scaled indices: defined once, earlier in the add's block, read only by the adds.
    for (b, d, x) in indices {
        let only_adds = readers
            .get(x)
            .is_some_and(|r| r.iter().all(|&(rb, ri, _)| adds.contains(&(rb, ri))));
        if !single_def(x) || !only_adds {
            continue;
        }
        let instrs = &f.blocks[b].instrs;
        if let Some(s) = defined_before(&instrs[..d], x) {
            if instrs[s].guard.is_none() && power_of_two_scale(&instrs[s]) {
                out[b][s] = Addressing::ScaledIndex;
            }
        }
    }
    out
}

/// The base register of a global or shared access's address (`[%rd9+1024]`), and whether
/// the access is to shared memory.
fn address_base(instr: &Instruction) -> Option<(&str, bool)> {
    let shared = match op_class(instr).0 {
        OpClass::SharedMem => true,
        OpClass::GlobalMem => false,
        _ => return None,
    };
    instr.operands.iter().find_map(|op| match op {
        Operand::Address { base: Some(b), .. } => match b.as_ref() {
            Operand::Reg { name, .. } => Some((name.as_str(), shared)),
            _ => None,
        },
        _ => None,
    })
}

/// `mul.wide`: a 32 x 32 -> 64-bit multiply (IMAD.WIDE).
fn wide_multiply(instr: &Instruction) -> bool {
    instr.guard.is_none() && instr.base() == "mul" && instr.modifiers().any(|m| m == "wide")
}

/// The position of the last instruction of `instrs` that writes `reg`.
fn defined_before(instrs: &[Instruction], reg: &str) -> Option<usize> {
    instrs.iter().rposition(|i| {
        source_operands(i)
            .0
            .iter()
            .flat_map(Operand::registers)
            .any(|w| w == reg)
    })
}

fn integer(instr: &Instruction) -> bool {
    instr
        .modifiers()
        .any(|m| matches!(m, "s32" | "u32" | "s64" | "u64"))
}

/// `mul.wide`/`mul.lo` by 1, 2, 4, 8 or 16, or `shl` by at most 4: what a scaled-index
/// addressing mode holds.
fn power_of_two_scale(instr: &Instruction) -> bool {
    let Some(Operand::Imm(text)) = instr.operands.get(2) else {
        return false;
    };
    let Ok(c) = text.parse::<u64>() else {
        return false;
    };
    match instr.base() {
        "mul" => {
            instr.modifiers().any(|m| m == "wide" || m == "lo") && [1, 2, 4, 8, 16].contains(&c)
        }
        "shl" => c <= 4,
        _ => false,
    }
}

/// The registers whose value the compiler knows to be the same in every lane: computed
/// only from constants, symbols, kernel parameters and the work-group's ids and sizes
/// (the greatest fixpoint: a loop counter stepping from a constant stays uniform).
fn compiler_uniform(f: &Function) -> HashSet<&str> {
    let is_reg = |name: &str| f.registers.iter().any(|d| d.declares(name));
    let defs: Vec<(&Instruction, Vec<&str>)> = f
        .blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .map(|i| {
            (
                i,
                source_operands(i)
                    .0
                    .iter()
                    .flat_map(Operand::registers)
                    .collect(),
            )
        })
        .collect();
    let mut uniform: HashSet<&str> = defs.iter().flat_map(|(_, d)| d.iter().copied()).collect();
    loop {
        let mut changed = false;
        for (instr, dst) in &defs {
            if dst.iter().any(|d| uniform.contains(d)) && !uniform_result(instr, &uniform, &is_reg)
            {
                for d in dst {
                    changed |= uniform.remove(d);
                }
            }
        }
        if !changed {
            return uniform;
        }
    }
}

/// Whether `instr` computes the same value in every lane, given the uniform registers.
fn uniform_result(
    instr: &Instruction,
    uniform: &HashSet<&str>,
    is_reg: &dyn Fn(&str) -> bool,
) -> bool {
    let reads_lanes = matches!(
        instr.base(),
        "ld" | "ldu" | "atom" | "shfl" | "vote" | "activemask" | "match" | "redux" | "tex"
    ) && !instr.modifiers().any(|m| m == "param");
    if reads_lanes {
        return false;
    }
    let guard = instr.guard.as_ref().map(|g| g.reg.as_str());
    source_operands(instr)
        .1
        .iter()
        .flat_map(Operand::registers)
        .chain(guard)
        .all(|r| {
            if is_reg(r) {
                uniform.contains(r)
            } else {
                // The work-group's and grid's ids and sizes are uniform; the lane's and
                // the clocks are not.
                !LANE_VARYING.contains(&r)
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    /// Per instruction: `.` nothing, `b` a base's add, `x` an index's scaling.
    fn absorbed(body: &str) -> String {
        let src = format!(
            ".visible .entry k(.param .u64 k_param_0)\n{{\n.reg .pred %p<3>;\n.reg .b32 %r<20>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<40>;\n.shared .align 4 .b8 k_s[4096];\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        absorbed_addressing(&m.functions[0])
            .into_iter()
            .flatten()
            .map(|a| match a {
                Addressing::None => '.',
                Addressing::Base => 'b',
                Addressing::ScaledIndex => 'x',
            })
            .collect()
    }

    #[test]
    fn a_shared_chase_step_is_one_load() {
        // shared_bw's step: the index times 4 plus the array's address, then the load.
        let a = absorbed(
            "mov.u32 %r1, %tid.x;\nmov.u64 %rd1, k_s;\nmul.wide.u32 %rd2, %r1, 4;\n\
             add.s64 %rd3, %rd1, %rd2;\nld.shared.u32 %r2, [%rd3];\n\
             mul.wide.u32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd1, %rd4;\nld.shared.u32 %r3, [%rd5+8];\n\
             st.global.u32 [%rd1], %r3;",
        );
        assert_eq!(a, "..xb.xb..");
    }

    #[test]
    fn an_address_read_otherwise_or_without_a_uniform_base_stays() {
        let a = absorbed(
            // The sum is also stored: it stays (and so does its scaled index); then both
            // operands vary between lanes (tid.x * 128 + tid.y * 4); a scale by 12 is no
            // addressing mode (the add goes, the multiply stays); a global access keeps
            // its multiply, into which the add is fused (IMAD.WIDE).
            "mov.u32 %r1, %tid.x;\nmov.u64 %rd1, k_s;\nmul.wide.u32 %rd2, %r1, 4;\n\
             add.s64 %rd3, %rd1, %rd2;\nld.shared.u32 %r2, [%rd3];\nst.global.u64 [%rd1], %rd3;\n\
             mov.u32 %r3, %tid.y;\nmul.wide.u32 %rd4, %r1, 128;\nmul.wide.u32 %rd5, %r3, 4;\n\
             add.s64 %rd6, %rd4, %rd5;\nld.shared.u32 %r4, [%rd6];\n\
             mul.wide.u32 %rd7, %r1, 12;\nadd.s64 %rd8, %rd1, %rd7;\nld.shared.u32 %r5, [%rd8];\n\
             ld.param.u64 %rd9, [k_param_0];\nmul.wide.u32 %rd10, %r1, 4;\n\
             add.s64 %rd11, %rd9, %rd10;\nld.global.u32 %r6, [%rd11];",
        );
        assert_eq!(a, ["......", ".....", ".b.", "..b."].concat());
    }

    #[test]
    fn a_global_address_fuses_its_add_into_the_wide_multiply() {
        // `p[i]` and `p[i + 1]`: the second product is also stored, so its add stays; a
        // 32-bit add is no address.
        let a = absorbed(
            "ld.param.u64 %rd1, [k_param_0];\nmov.u32 %r1, %tid.x;\n\
             mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\nld.global.u32 %r2, [%rd3];\n\
             add.s32 %r3, %r1, 1;\nmul.wide.u32 %rd4, %r3, 4;\nadd.s64 %rd5, %rd1, %rd4;\n\
             ld.global.u32 %r4, [%rd5];\nst.global.u64 [%rd1], %rd4;",
        );
        assert_eq!(a, "...b......");
    }

    #[test]
    fn a_parameter_base_and_a_loop_counter_are_uniform() {
        // A __local buffer passed as an argument: its address is a parameter; a loop's
        // counter from 0 is uniform, so `s[i]` with i the counter folds entirely.
        let a = absorbed(
            "ld.param.u64 %rd1, [k_param_0];\nmov.u32 %r1, 0;\n$L__BB0_1:\n\
             mul.wide.u32 %rd2, %r1, 8;\nadd.s64 %rd3, %rd1, %rd2;\nld.shared.u64 %rd4, [%rd3];\n\
             add.s32 %r1, %r1, 1;\nsetp.lt.u32 %p1, %r1, 64;\n@%p1 bra $L__BB0_1;\nret;",
        );
        assert_eq!(a, "..xb.....");
    }
}
