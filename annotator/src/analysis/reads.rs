//! The kernel arguments a kernel reads memory through.
//!
//! Whether a launch finds its data in the L2 depends on what it reads, not on every
//! buffer it is given: a buffer it only writes need not be there before it starts (the
//! L2 takes a written line without fetching it). The corpus's `amd_matrixtranspose#1`
//! reads one 576 KiB matrix and writes another; both together exceed the GTX 480's
//! 768 KiB L2, the one it reads does not, and GPGPU-Sim serves its loads from the L2.
//!
//! Each register's origins are the kernel parameters its value derives from (through
//! moves, address arithmetic and selects, over every definition of the register; not
//! through products, which are indices) and whether a loaded value enters it. A global, constant or
//! generic load (or an atomic) reads through the pointer parameters among its address's
//! origins. An address with no parameter among them (a pointer loaded from memory) makes
//! the answer unknown; one with no origin at all (a program-scope variable) reads no
//! argument.

use std::collections::{BTreeSet, HashMap};

use crate::front::ptx::{Function, Instruction, Operand};

/// Where a register's value comes from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Origins {
    /// Positions of the kernel parameters it derives from.
    params: BTreeSet<u32>,
    /// Whether a loaded value, or a value the analysis does not follow, enters it.
    untracked: bool,
}

impl Origins {
    fn join(&mut self, other: &Origins) -> bool {
        let before = (self.params.len(), self.untracked);
        self.params.extend(other.params.iter().copied());
        self.untracked |= other.untracked;
        before != (self.params.len(), self.untracked)
    }
}

/// Whether `instr` reads memory that a buffer argument may hold: a global, constant or
/// generic (no state space named) load, or an atomic on such memory.
fn reads_buffer(instr: &Instruction) -> bool {
    let space_of_buffers = !instr
        .modifiers()
        .any(|m| matches!(m, "param" | "shared" | "local"));
    matches!(instr.base(), "ld" | "ldu" | "atom") && space_of_buffers
}

/// The positions of `f`'s parameters it loads from (or runs atomics on), ascending;
/// `None` when some load's address comes from no parameter the analysis can see (a
/// pointer loaded from memory), or `f` calls a function (which may load through the
/// pointers it is passed).
pub fn read_arguments(f: &Function) -> Option<Vec<u32>> {
    if f.blocks
        .iter()
        .flat_map(|b| &b.instrs)
        .any(|i| i.base() == "call")
    {
        return None;
    }
    let param_position: HashMap<&str, u32> = f
        .params
        .iter()
        .enumerate()
        .filter_map(|(i, p)| Some((p.split_whitespace().last()?.trim_end_matches(','), i as u32)))
        .collect();
    let mut origins: HashMap<&str, Origins> = HashMap::new();
    let of_operand = |origins: &HashMap<&str, Origins>, op: &Operand| {
        let mut o = Origins::default();
        for r in op.registers() {
            if let Some(known) = origins.get(r) {
                o.join(known);
            }
        }
        o
    };
    // The fixpoint: each definition joins its sources' origins into its destinations.
    // Origins only grow, over a finite set, so this ends.
    loop {
        let mut changed = false;
        for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
            if matches!(instr.base(), "st" | "red" | "bra" | "bar" | "ret" | "exit") {
                continue;
            }
            let Some((dst, srcs)) = instr.operands.split_first() else {
                continue;
            };
            let value = if instr.base() == "ld" && instr.modifiers().any(|m| m == "param") {
                let param = instr
                    .address()
                    .into_iter()
                    .flat_map(|a| a.symbols())
                    .find_map(|s| param_position.get(s).copied());
                Origins {
                    params: param.into_iter().collect(),
                    untracked: param.is_none(),
                }
            } else if matches!(
                instr.base(),
                "ld" | "ldu" | "atom" | "tex" | "suld" | "shfl"
            ) {
                Origins {
                    params: BTreeSet::new(),
                    untracked: true,
                }
            } else {
                // A product is an index, never a pointer (`n * 4`, `i << 2`): of a
                // multiply-add only the addend may be one.
                let pointers = match instr.base() {
                    "mul" | "mul24" | "shl" => &srcs[..0],
                    "mad" | "mad24" => srcs.get(2..).unwrap_or_default(),
                    _ => srcs,
                };
                let mut o = Origins::default();
                for s in pointers {
                    o.join(&of_operand(&origins, s));
                }
                o
            };
            for name in dst.registers() {
                changed |= origins.entry(name).or_default().join(&value);
            }
        }
        if !changed {
            break;
        }
    }
    let mut read = BTreeSet::new();
    for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
        if !reads_buffer(instr) {
            continue;
        }
        let Some(address) = instr.address() else {
            continue;
        };
        let o = of_operand(&origins, address);
        if o.params.is_empty() && o.untracked {
            return None;
        }
        read.extend(o.params);
    }
    Some(read.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    fn kernel(body: &str, params: &str) -> Function {
        let text = format!(
            ".version 7.0\n.target sm_20\n.address_size 64\n\
             .visible .entry k({params})\n{{\n.reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
             .reg .f32 %f<20>;\n.reg .pred %p<4>;\n{body}\nret;\n}}\n"
        );
        parse(&text).expect("parses").functions.remove(0)
    }

    #[test]
    fn a_copy_reads_its_source_only() {
        let f = kernel(
            "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
             mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\n\
             cvta.to.global.u64 %rd4, %rd2;\nadd.s64 %rd5, %rd4, %rd3;\n\
             ld.global.f32 %f1, [%rd5];\ncvta.to.global.u64 %rd6, %rd1;\n\
             add.s64 %rd7, %rd6, %rd3;\nst.global.f32 [%rd7], %f1;",
            ".param .u64 k_param_0, .param .u64 k_param_1",
        );
        assert_eq!(read_arguments(&f), Some(vec![1]));
    }

    #[test]
    fn a_pointer_bumped_in_a_loop_keeps_its_parameter() {
        let f = kernel(
            "ld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n\
             mov.u32 %r2, 0;\n$L_loop:\nld.global.f32 %f1, [%rd1];\n\
             add.s64 %rd1, %rd1, 4;\nadd.s32 %r2, %r2, 1;\n\
             setp.lt.u32 %p1, %r2, %r1;\n@%p1 bra $L_loop;",
            ".param .u64 k_param_0, .param .u32 k_param_1",
        );
        assert_eq!(read_arguments(&f), Some(vec![0]));
    }

    #[test]
    fn a_gather_reads_both_the_indices_and_the_table() {
        let f = kernel(
            "ld.param.u64 %rd1, [k_param_0];\nld.param.u64 %rd2, [k_param_1];\n\
             mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 4;\nadd.s64 %rd4, %rd2, %rd3;\n\
             ld.global.u32 %r2, [%rd4];\nmul.wide.u32 %rd5, %r2, 4;\n\
             add.s64 %rd6, %rd1, %rd5;\nld.global.f32 %f1, [%rd6];",
            ".param .u64 k_param_0, .param .u64 k_param_1",
        );
        assert_eq!(read_arguments(&f), Some(vec![0, 1]));
    }

    #[test]
    fn a_pointer_loaded_from_memory_leaves_the_reads_unknown() {
        let f = kernel(
            "ld.param.u64 %rd1, [k_param_0];\nld.global.u64 %rd2, [%rd1];\n\
             ld.global.f32 %f1, [%rd2];",
            ".param .u64 k_param_0",
        );
        assert_eq!(read_arguments(&f), None);
    }

    #[test]
    fn a_kernel_that_only_writes_reads_nothing() {
        let f = kernel(
            "ld.param.u64 %rd1, [k_param_0];\nmov.f32 %f1, 0f3F800000;\n\
             st.global.f32 [%rd1], %f1;",
            ".param .u64 k_param_0",
        );
        assert_eq!(read_arguments(&f), Some(vec![]));
    }
}
