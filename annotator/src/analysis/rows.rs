//! Warps that span several rows of their work-group. The lane analysis
//! ([`crate::analysis::access`]) takes a warp as 32 consecutive work-items of one row; a warp of a
//! work-group 16 wide spans two rows, 8 wide four, and `a[y * n + x]` then touches a line
//! per row. Each access is priced for every width class (`pipeline_model::rows`) from its
//! values along the lanes and along the rows (`access::Axis::Rows`).

use std::collections::HashMap;

use pipeline_model::sampling::warp_access;
use pipeline_model::{MemAccess, OpClass};

use crate::analysis::access::{accesses_with, LaneValues, Lanes, WARP};
use crate::front::cfg::Cfg;
use crate::front::opcode::{access_width, op_class};
use crate::front::ptx::{Function, Instruction};

/// Rows of a warp in a work-group narrower than a warp whose row addresses the analysis
/// cannot tell apart: taken a line apart or more (`a[y * width + x]`, a width of at least
/// 32 words).
const ROWS_APART: i64 = 1 << 20;

/// `access` for a warp of a work-group `row_lanes` wide (less than 32): `32 / row_lanes`
/// rows of `row_lanes` work-items each, where the lane analysis took 32 work-items of one
/// row. `x` is the address across a row's lanes, `y` across the rows (`x` held): `a[y * n +
/// x]` touches a line per row; `a[x]` the same addresses in every row. An address with no
/// known stride along x stays as charged (a line per lane already), as does a shared one
/// whose rows' stride is known only at run time (its banks cannot be told).
pub(crate) fn in_rows(
    access: MemAccess,
    x: Lanes,
    y: Lanes,
    width: u32,
    shared: bool,
    row_lanes: u32,
) -> MemAccess {
    let sx = match x {
        Lanes::Undef | Lanes::Uniform(_) => 0,
        Lanes::Stride(s) => s,
        Lanes::UnknownStride | Lanes::Varying => return access,
    };
    let sy = match y {
        Lanes::Undef | Lanes::Uniform(_) => 0,
        Lanes::Stride(s) => s,
        Lanes::UnknownStride | Lanes::Varying if shared => return access,
        Lanes::UnknownStride | Lanes::Varying => ROWS_APART,
    };
    let lanes = i64::from(row_lanes.clamp(1, WARP as u32));
    let addresses: Vec<i64> = (0..WARP / lanes)
        .flat_map(|row| (0..lanes).map(move |lane| lane * sx + row * sy))
        .collect();
    let (transactions, sectors) = warp_access(&addresses, width, shared);
    MemAccess {
        transactions,
        sectors: if shared { 0 } else { sectors },
        ..access
    }
}

/// Whether some global or shared access of `f` has an address that differs between the
/// rows of a work-group (`rows`: `f`'s values along [`crate::analysis::access::Axis::Rows`]); most
/// kernels' do not, and their width classes all cost alike.
pub(crate) fn differs_by_row(f: &Function, rows: &LaneValues<'_>) -> bool {
    f.blocks.iter().flat_map(|b| &b.instrs).any(|instr| {
        matches!(op_class(instr).0, OpClass::GlobalMem | OpClass::SharedMem)
            && !matches!(rows.address(instr), Lanes::Undef | Lanes::Uniform(_))
    })
}

/// [`accesses_with`] for warps of work-groups `row_lanes` wide (less than 32: a warp spans
/// several rows; [`in_rows`]), where an access's address differs between rows (`rows`,
/// `f`'s values along [`crate::analysis::access::Axis::Rows`]); one the same in every row (`a[x]`)
/// stays as one row charges it. So does a global access whose rows differ where other
/// accesses read those rows' lines too, which the L1 then serves: inside a loop (its
/// other iterations: a tile's neighbours, a matrix walked by rows and columns), and where
/// it is one of several copies of one subscript (the same source line and column: an
/// unrolled stencil's neighbours, `in[(y + dy) * w + x + dx]`).
pub(crate) fn accesses_in_rows(
    f: &Function,
    values: &LaneValues<'_>,
    rows: &LaneValues<'_>,
    cfg: &Cfg,
    row_lanes: u32,
) -> Vec<Vec<Option<MemAccess>>> {
    let mut accesses = accesses_with(f, values, cfg);
    // The global loads (or stores) of each subscript (source line and column; `a[i] +=
    // x` is a load and a store of one).
    let place = |i: &'_ Instruction| {
        let loc = i.loc.as_ref().filter(|l| l.line > 0)?;
        Some((loc.file, loc.line, loc.col, i.base() == "ld"))
    };
    let mut copies: HashMap<(u32, u32, u32, bool), usize> = HashMap::new();
    let globals = f.blocks.iter().flat_map(|b| &b.instrs);
    for instr in globals.filter(|i| op_class(i).0 == OpClass::GlobalMem) {
        if let Some(at) = place(instr) {
            *copies.entry(at).or_default() += 1;
        }
    }
    let copied = |instr: &Instruction| {
        place(instr).is_some_and(|at| copies.get(&at).is_some_and(|&n| n > 1))
    };
    for (b, block) in f.blocks.iter().enumerate() {
        for (i, instr) in block.instrs.iter().enumerate() {
            let Some(access) = accesses[b][i] else {
                continue;
            };
            let shared = match op_class(instr).0 {
                OpClass::SharedMem => true,
                OpClass::GlobalMem => false,
                _ => continue,
            };
            let (x, y) = (values.address(instr), rows.address(instr));
            if matches!(y, Lanes::Undef | Lanes::Uniform(_))
                || !shared && (cfg.loop_depth(b) > 0 || copied(instr))
            {
                continue;
            }
            accesses[b][i] = Some(in_rows(
                access,
                x,
                y,
                access_width(instr),
                shared,
                row_lanes,
            ));
        }
    }
    accesses
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::access::{lane_values, strided, values_along, Axis};
    use crate::front::ptx::parse;
    use pipeline_model::MemLevel;

    /// Lines, sectors and bank passes of a warp in rows, computed by hand: `a[y * n + x]`
    /// (floats, rows apart) touches 64 bytes of two rows in groups 16 wide, 32 bytes of
    /// four rows 8 wide, a word of 32 rows 1 wide; `a[x]` reads the same 64 bytes in both
    /// rows; a shared `tile[x][y]` of 16 x 16 floats puts lane `i` of row `j` at word
    /// `16 i + j`: banks 0, 1, 16 and 17 hold 8 words each (16 at one row of 32 lanes).
    #[test]
    fn a_warp_in_rows_touches_each_row_s_lines() {
        let access = |lanes, sectors| MemAccess {
            level: MemLevel::L2,
            transactions: lanes,
            sectors,
            reuse_lines: None,
            step_bytes: None,
        };
        let rows = |x, y, shared, row_lanes| {
            let a = in_rows(access(1, 4), x, y, 4, shared, row_lanes);
            (a.transactions, a.sectors)
        };
        let (x, far) = (Lanes::Stride(4), Lanes::UnknownStride);
        assert_eq!(rows(x, far, false, 16), (2, 4));
        assert_eq!(rows(x, far, false, 8), (4, 4));
        assert_eq!(rows(x, far, false, 1), (32, 32));
        assert_eq!(rows(x, Lanes::Uniform(None), false, 16), (1, 2));
        assert_eq!(rows(Lanes::Stride(64), Lanes::Stride(4), true, 16), (8, 0));
        assert_eq!(strided(64, 4, true).0, 16);
        // A gather stays a line per lane; a shared tile of a run-time width stays as
        // charged.
        assert_eq!(rows(Lanes::Varying, far, false, 16), (1, 4));
        assert_eq!(rows(Lanes::Stride(64), far, true, 16), (1, 4));
    }

    /// Along the rows, `%tid.y` steps by one and `%tid.x` is held: `(ctaid.y * ntid.y +
    /// tid.y) * n + tid.x`, times 4, is a row stride of `4 n`, known at run time.
    #[test]
    fn rows_follow_tid_y() {
        let src = ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n\
            .reg .b32 %r<20>;\n.reg .b64 %rd<20>;\n.reg .f32 %f<4>;\n\
            ld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n\
            mov.u32 %r2, %ctaid.y;\nmov.u32 %r3, %ntid.y;\nmov.u32 %r4, %tid.y;\n\
            mad.lo.s32 %r5, %r2, %r3, %r4;\nmov.u32 %r6, %tid.x;\n\
            mad.lo.s32 %r7, %r5, %r1, %r6;\nmul.wide.s32 %rd2, %r7, 4;\n\
            add.s64 %rd3, %rd1, %rd2;\nld.global.f32 %f1, [%rd3];\n\
            shl.b32 %r8, %r4, 2;\nmul.wide.s32 %rd4, %r8, 4;\nadd.s64 %rd5, %rd1, %rd4;\n\
            ld.global.f32 %f2, [%rd5];\nret;\n}\n";
        let m = parse(src).unwrap();
        let f = &m.functions[0];
        let (x, y) = (lane_values(f), values_along(f, Axis::Rows));
        let loads: Vec<&Instruction> = f.blocks[0]
            .instrs
            .iter()
            .filter(|i| i.base() == "ld" && i.modifiers().any(|m| m == "global"))
            .collect();
        assert_eq!(x.address(loads[0]), Lanes::Stride(4));
        assert_eq!(y.address(loads[0]), Lanes::UnknownStride);
        assert_eq!(x.address(loads[1]), Lanes::Uniform(None));
        assert_eq!(y.address(loads[1]), Lanes::Stride(16));
    }
}
