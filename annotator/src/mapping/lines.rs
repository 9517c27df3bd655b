//! Where the cycles of a timed path go in the source: per source line, the cycles and PTX
//! instructions a path charges (for the line profile).
//!
//! A path's cycles are a sum of steps, `t_v0` from the start, then `t_(u,v) - t_u` for
//! every PTX block `v` entered from `u`; a step is owed to the instructions of `v`, the
//! block it adds. Within a block, an instruction owes the cycles by which it moves the
//! block's end: in the block's schedule (alone on the pipeline), instruction `i` ends at
//! the start of its write-back, and is owed `max(0, end_i - max_{j<i} end_j)`. These shares
//! sum to `t_v` exactly, fall on the instructions on the critical path (a chain of
//! dependent divisions is owed its latency, the independent adds beside it nothing), and
//! are 0 for instructions hidden behind others. A step's cost is divided over the lines
//! of `v` in proportion to these shares; scheduling the block alone (rather than behind
//! each predecessor) makes every path into `v` divide it alike, so that one set of
//! weights serves all single-step paths into a block.
//!
//! An instruction's line is its `.loc` line when that is in the program's file (code of a
//! helper inlined into the kernel keeps the helper's line: that is where it is written);
//! code from another file (a header, a builtin library) goes to the outermost call site
//! in the program's file. An instruction with no line (line 0: code the compiler made,
//! such as address arithmetic it merged) goes to the nearest positioned instruction
//! before it in its block, else the nearest after; a block with no positioned instruction
//! at all keeps line 0, which the profile resolves to the first line of the source block
//! the path is charged at.

use std::collections::BTreeMap;

use pipeline_model::{schedule, Architecture, Instr, Stage};

use crate::analysis::blocks::FunctionAnalysis;
use crate::front::ptx::{Function, Module, SourceLoc};
use crate::ids::PtxBlock;
use crate::mapping::paths::{From, LineCharge, PathTable};

/// What one PTX block owes each source line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BlockLines {
    /// Per line (0: none): the cycles of the block's end owed to it (summing to `t_B`)
    /// and its instructions.
    pub lines: BTreeMap<u32, (u64, u64)>,
}

impl BlockLines {
    /// The cycles the block's own schedule owes all lines: `t_B`.
    fn cycles(&self) -> u64 {
        self.lines.values().map(|(c, _)| c).sum()
    }
}

/// The line of the program's file `loc` stands for: its own, or that of the outermost
/// call site in the program's file; 0 if none.
fn program_line(loc: &SourceLoc, in_program: &impl Fn(u32) -> bool) -> u32 {
    let mut at = Some(loc);
    while let Some(l) = at {
        if l.line > 0 && in_program(l.file) {
            return l.line;
        }
        at = l.inlined_at.as_deref();
    }
    0
}

/// The `.file` indices of `module` that name `source` (all of them when none does: the
/// PTX then names the file otherwise, and every line is taken as the program's).
pub fn program_files(module: &Module, source: &str) -> Vec<u32> {
    let named: Vec<u32> = module
        .files
        .iter()
        .filter(|(_, path)| crate::analysis::blocks::same_file(path, source))
        .map(|(i, _)| *i)
        .collect();
    if named.is_empty() {
        module.files.iter().map(|(i, _)| *i).collect()
    } else {
        named
    }
}

/// The line of each instruction of a block, line 0 resolved to a neighbour's.
fn instruction_lines(locs: &[Option<&SourceLoc>], in_program: &impl Fn(u32) -> bool) -> Vec<u32> {
    let own: Vec<u32> = locs
        .iter()
        .map(|l| l.map_or(0, |l| program_line(l, in_program)))
        .collect();
    let mut lines = own.clone();
    let mut before = 0;
    for (i, &l) in own.iter().enumerate() {
        if l > 0 {
            before = l;
        } else if before > 0 {
            lines[i] = before;
        }
    }
    let mut after = 0;
    for i in (0..own.len()).rev() {
        if own[i] > 0 {
            after = own[i];
        } else if lines[i] == 0 {
            lines[i] = after;
        }
    }
    lines
}

/// What a block of `instrs`, whose instructions stand on `lines`, owes each line.
pub fn block_lines(arch: &Architecture, instrs: &[Instr], lines: &[u32]) -> BlockLines {
    let s = schedule(arch, instrs);
    let mut out = BlockLines::default();
    let mut end = 0u64;
    for (i, &line) in lines.iter().enumerate().take(instrs.len()) {
        let finish = Stage::ALL
            .iter()
            .map(|&st| s.start(i, st))
            .max()
            .unwrap_or(0);
        let owed = finish.saturating_sub(end);
        end = end.max(finish);
        let entry = out.lines.entry(line).or_default();
        entry.0 += owed;
        entry.1 += 1;
    }
    out
}

/// What every PTX block of `f` owes each line of the program (`source`).
pub fn function_lines(
    module: &Module,
    f: &Function,
    arch: &Architecture,
    source: &str,
) -> Vec<BlockLines> {
    let files = program_files(module, source);
    let in_program = |file: u32| files.contains(&file);
    let model = crate::analysis::blocks::model_function(module, f);
    f.blocks
        .iter()
        .zip(&model.blocks)
        .map(|(block, instrs)| {
            let locs: Vec<Option<&SourceLoc>> =
                block.instrs.iter().map(|i| i.loc.as_ref()).collect();
            block_lines(arch, instrs, &instruction_lines(&locs, &in_program))
        })
        .collect()
}

/// Sets the per-line charges of every path of `table`: each step's cost over the lines of
/// the block it enters, in proportion to what that block owes them ([`BlockLines`]).
pub fn attribute(table: &mut PathTable, analysis: &FunctionAnalysis, blocks: &[BlockLines]) {
    let t = |b: PtxBlock| analysis.block(b).cycles;
    let pair = |a: PtxBlock, b: PtxBlock| analysis.pair_cycles(a, b);
    for path in &mut table.paths {
        let mut charges: BTreeMap<u32, (f64, u64)> = BTreeMap::new();
        let mut previous = match path.from {
            From::Start => None,
            From::Block(o) => Some(o),
        };
        for &v in &path.blocks {
            let step = match previous {
                None => t(v),
                Some(u) => pair(u, v) - t(u),
            };
            previous = Some(v);
            let owed = &blocks[v.index()];
            let total = owed.cycles();
            for (&line, &(cycles, instructions)) in &owed.lines {
                let c = charges.entry(line).or_default();
                if total > 0 {
                    c.0 += step as f64 * cycles as f64 / total as f64;
                }
                c.1 += instructions;
            }
            if total == 0 && step > 0 {
                // A block whose schedule owes nothing (no instructions) cannot have cost
                // anything; kept for safety: its step goes to "no line".
                charges.entry(0).or_default().0 += step as f64;
            }
        }
        path.lines = charges
            .into_iter()
            .map(|(line, (cycles, instructions))| LineCharge {
                line,
                cycles,
                instructions,
            })
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::blocks::analyze_module;
    use crate::front::ptx;
    use crate::ids::SourceBlockId;
    use crate::mapping::matching::{BlockMap, BlockMatch, SourceRef};
    use crate::mapping::paths::{path_table, To};

    fn loc(file: u32, line: u32, inlined_at: Option<SourceLoc>) -> SourceLoc {
        SourceLoc {
            file,
            line,
            col: 1,
            inlined_at: inlined_at.map(Box::new),
        }
    }

    #[test]
    fn lines_of_other_files_go_to_the_call_site_and_line_0_to_a_neighbour() {
        let in_program = |f: u32| f == 1;
        let header = loc(2, 40, Some(loc(1, 7, None)));
        let helper = loc(1, 3, Some(loc(1, 9, None)));
        let none = loc(1, 0, None);
        let a = loc(1, 5, None);
        let locs = [
            Some(&none),
            Some(&a),
            Some(&none),
            Some(&header),
            None,
            Some(&helper),
        ];
        assert_eq!(
            instruction_lines(&locs, &in_program),
            vec![5, 5, 5, 7, 7, 3]
        );
        assert_eq!(
            instruction_lines(&[None, Some(&none)], &in_program),
            vec![0, 0]
        );
    }

    // Line 4: three independent adds; line 5: a division depending on one of them, then
    // an add depending on the division; line 6: nothing timed after them but the return.
    const PTX: &str = r#"
.version 7.8
.target sm_20
.address_size 64
.visible .entry k(.param .u64 k_param_0)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .f32 %f<12>;
    .loc 1 3 5
    mov.u32 %r1, %tid.x;
    setp.gt.u32 %p1, %r1, 7;
    @%p1 bra $L__BB0_2;
    .loc 1 4 9
    add.f32 %f1, %f2, %f3;
    add.f32 %f4, %f5, %f6;
    add.f32 %f7, %f8, %f9;
    .loc 1 5 9
    div.rn.f32 %f10, %f1, %f4;
    add.f32 %f11, %f10, %f7;
$L__BB0_2:
    .loc 1 6 1
    ret;
}
.file 1 "/src/k.cl"
"#;

    #[test]
    fn a_block_owes_its_lines_what_they_add_to_its_end_and_paths_divide_exactly() {
        let module = ptx::parse(PTX).unwrap();
        let arch = Architecture::default_arch();
        let f = module.function("k").unwrap();
        let owed = function_lines(&module, f, &arch, "/src/k.cl");
        let analysis = analyze_module(&module, &arch, "/src/k.cl");
        let k = &analysis.kernels[0];
        // Each block's lines owe exactly its t_B, and hold all its instructions.
        for (b, lines) in owed.iter().enumerate() {
            assert_eq!(lines.cycles(), k.blocks[b].cycles, "B{b}");
            let n: u64 = lines.lines.values().map(|(_, i)| i).sum();
            assert_eq!(n, k.blocks[b].instructions as u64, "B{b}");
        }
        // Independently: the schedule of B1 alone. The adds of line 4 end (WB) at
        // 9, 10, 12 (the worked example of the design, 2 source registers each); the
        // division reads f1 and f4, so issues after both write back and ends its
        // latency later; the dependent add ends 4 + its fetch/issue chain later still.
        let model = crate::analysis::blocks::model_function(&module, f);
        let s = schedule(&arch, &model.blocks[1]);
        let wb = |i: usize| s.start(i, Stage::Writeback);
        assert_eq!((wb(0), wb(1), wb(2)), (9, 10, 12));
        let line4 = 12;
        let line5 = s.length - 12;
        assert_eq!(owed[1].lines[&4], (line4, 3));
        assert_eq!(owed[1].lines[&5], (line5, 2));
        assert!(line5 > 39, "the division's latency is on line 5: {line5}");

        // Two blocks mapped: B1 and B2 (B0 unmapped, charged on the paths from the start
        // through it): the path to B1 divides over lines 3 (B0), 4 and 5 (B1).
        let map = BlockMap {
            kernel: "k".into(),
            blocks: (0..3)
                .map(|b| BlockMatch {
                    ptx_block: PtxBlock(b),
                    source: (b != 0).then(|| SourceRef {
                        function: "k".into(),
                        block: SourceBlockId(b),
                    }),
                    votes: Vec::new(),
                    homeless: 0,
                    confidence: 1.0,
                    reason: String::new(),
                    copies: 1,
                    within: None,
                    operations: Default::default(),
                })
                .collect(),
        };
        let mut table = path_table(k, &map);
        attribute(&mut table, k, &owed);
        let through = table
            .get(From::Start, To::Block(PtxBlock(1)))
            .expect("start -> B0 -> B1");
        assert_eq!(through.blocks, vec![PtxBlock(0), PtxBlock(1)]);
        let sum: f64 = through.lines.iter().map(|l| l.cycles).sum();
        assert!((sum - through.cycles as f64).abs() < 1e-9);
        let n: u64 = through.lines.iter().map(|l| l.instructions).sum();
        assert_eq!(n, through.instructions);
        let got: Vec<(u32, u64)> = through
            .lines
            .iter()
            .map(|l| (l.line, l.instructions))
            .collect();
        assert_eq!(got, vec![(3, 3), (4, 3), (5, 2)]);
        // B0 alone (t_B0, all on line 3), then entering B1 costs t_(B0,B1) - t_B0,
        // divided 12 : (t_B1 - 12).
        assert_eq!(through.lines[0].cycles, k.blocks[0].cycles as f64);
        let step = k
            .edges
            .iter()
            .find(|e| e.from == 0 && e.to == 1)
            .unwrap()
            .cycles
            - k.blocks[0].cycles;
        let want4 = step as f64 * 12.0 / k.blocks[1].cycles as f64;
        assert!((through.lines[1].cycles - want4).abs() < 1e-9);
        // From B1 to B2: the return's line alone.
        let ret = table
            .get(From::Block(PtxBlock(1)), To::Block(PtxBlock(2)))
            .unwrap();
        assert_eq!(ret.lines.len(), 1);
        assert_eq!(ret.lines[0].line, 6);
        assert_eq!(ret.lines[0].cycles, ret.cycles as f64);
    }
}
