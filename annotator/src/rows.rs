//! Accesses whose lanes may sit in several rows of a work-group: the lane analysis
//! ([`crate::access`]) takes a warp as 32 consecutive work-items along x, so `%tid.y` and
//! `%tid.z` are the same in its lanes. That holds where work-groups are at least 32 wide;
//! a warp of a 16 x 16 group spans two rows, of an 8 x 8 group four, and an access
//! `a[y * n + x]` then touches a line per row where the analysis charged one. Only the
//! launch's geometry tells, so these accesses are sampled as well
//! ([`crate::sampling`]): the model groups the work-items into warps as the GPU does and
//! charges the lines their addresses make.

use std::collections::HashSet;

use crate::cfg::Cfg;
use crate::opcode::{op_class, source_operands};
use crate::ptx::Function;
use pipeline_model::OpClass;

/// The special registers that differ between a work-group's rows and layers.
const ROW_IDS: [&str; 2] = ["%tid.y", "%tid.z"];

/// The registers of `f` whose value may depend on `%tid.y` or `%tid.z`, through any chain
/// of instructions (flow-insensitive, to a fixpoint: a loop's moves carry it round).
fn row_registers(f: &Function) -> HashSet<&str> {
    let mut rows: HashSet<&str> = HashSet::new();
    loop {
        let before = rows.len();
        for instr in f.blocks.iter().flat_map(|b| &b.instrs) {
            let (dst, srcs) = source_operands(instr);
            let from_rows = srcs
                .iter()
                .flat_map(|o| o.registers())
                .chain(instr.guard.iter().map(|g| g.reg.as_str()))
                .any(|r| ROW_IDS.contains(&r) || rows.contains(r));
            if from_rows {
                rows.extend(dst.iter().flat_map(|o| o.registers()));
            }
        }
        if rows.len() == before {
            return rows;
        }
    }
}

/// The global and shared accesses of `f` (block, index) outside loops whose address may
/// differ between a work-group's rows or layers. Inside a loop the rows' lines are what
/// the loop's other iterations and accesses read too (a stencil's neighbours, a matrix
/// row walked by every column): the L1 serves most of them, which the samples' lines
/// cannot tell, so those stay as the lane analysis charged them.
pub fn row_accesses(f: &Function) -> Vec<(usize, usize)> {
    let rows = row_registers(f);
    let cfg = Cfg::new(f);
    let mut out = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        if cfg.loop_depth(b) > 0 {
            continue;
        }
        for (i, instr) in block.instrs.iter().enumerate() {
            if !matches!(op_class(instr).0, OpClass::GlobalMem | OpClass::SharedMem) {
                continue;
            }
            let by_row = instr
                .address()
                .is_some_and(|a| a.registers().iter().any(|r| rows.contains(r)));
            if by_row {
                out.push((b, i));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ptx::parse;

    /// `a[gid(1) * n + gid(0)]` loads by row; `a[gid(0)]` and `a[n]` do not; a value moved
    /// through a register (`mov`) and a loop's join keep the row.
    #[test]
    fn an_address_from_tid_y_or_tid_z_is_by_row() {
        let src = ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n\
            .reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n\
            ld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n\
            mov.u32 %r2, %tid.x;\nmov.u32 %r3, %tid.z;\nmov.u32 %r4, %r3;\n\
            mad.lo.s32 %r5, %r4, %r1, %r2;\nmul.wide.s32 %rd2, %r5, 4;\n\
            add.s64 %rd3, %rd1, %rd2;\nld.global.f32 %r6, [%rd3];\n\
            mul.wide.s32 %rd4, %r2, 4;\nadd.s64 %rd5, %rd1, %rd4;\n\
            ld.global.f32 %r7, [%rd5];\nmul.wide.s32 %rd6, %r1, 4;\n\
            add.s64 %rd7, %rd1, %rd6;\nst.global.f32 [%rd7], %r7;\nret;\n}\n";
        let m = parse(src).unwrap();
        let f = &m.functions[0];
        let at: Vec<String> = row_accesses(f)
            .into_iter()
            .map(|(b, i)| f.blocks[b].instrs[i].to_string())
            .collect();
        assert_eq!(at, ["ld.global.f32 %r6, [%rd3]"]);
    }
}
