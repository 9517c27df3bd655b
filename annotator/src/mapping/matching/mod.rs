//! Matching PTX blocks to source blocks (the unrolled loops among them: [`crate::mapping::unroll`];
//! the paths between mapped blocks: [`crate::mapping::paths`]).
//!
//! Every PTX instruction carries the line and column it came from; a PTX block votes for
//! the source blocks whose regions hold its instructions' positions (inlined helpers
//! included: their positions are in the helper's body). A block is mapped to one of the
//! source blocks it votes for, chosen so that the two execute equally often:
//! - the source block sits at the same loop depth as the PTX block (code of a fully
//!   unrolled inner loop, or a loop condition the compiler moved, votes from elsewhere);
//! - a statement block is preferred to a loop condition (a condition runs once more than
//!   the body the compiler rotated it into);
//! - among the rest, the one that dominates the others (the first to run), then the most
//!   votes;
//! - and dominance is preserved (Stattelmann et al.): a PTX block dominated by a mapped
//!   block maps to a source block dominated by (or equal to) that block's image, else it
//!   stays unmapped; post-dominance too, within one PTX loop iteration: a PTX block whose
//!   image runs whenever that block's image runs must post-dominate that block (the exit
//!   block of a guarded loop, skipped when the loop runs zero times, does not);
//! - and reflected, outside loops: where a source block dominates another, one of its
//!   images dominates the other's (a block on one arm's way that holds the last
//!   instruction of `if (c)` is no image of the condition every work-item runs);
//! - a branch's arm that holds code the compiler sank into it from before the branch maps
//!   to the arm's statements, not to that code's block (where its dominator's image is);
//!   or to the operand of `&&`, `||` or `?:` it evaluates, where no mapped code lies
//!   under it;
//! - and a block's code after a call of a helper timed in its own right is no timing
//!   point: the block's probe runs before the call, so before the helper's; nor, outside
//!   loops, is an image of a block that runs after another image of it on every path
//!   (the block's probe runs once).
//!
//! Unmapped PTX blocks are not lost: their time is charged on the paths between mapped
//! blocks ([`crate::mapping::paths::PathTable`]), so that `t = t_v0 + sum (t_(v_{i-1},v_i) - t_v_{i-1})` over the
//! PTX path is what the annotated kernel adds up.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::blocks::FunctionAnalysis;
use crate::front::cfg::{natural_loop_body, Cfg, NaturalLoop};
use crate::front::ptx::Function;
use crate::front::source::cfg::{BlockRole, SourceCfg};
use crate::front::source::{AstNode, SourceFile};
use crate::ids::{PtxBlock, SourceBlockId};

mod order;

/// A source block: function and block index in that function's CFG.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SourceRef {
    /// The source function (the kernel or an inlined helper).
    pub function: String,
    /// Its block.
    pub block: SourceBlockId,
}

/// Why a PTX block is mapped where it is, or not at all (for `annotate --explain`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlockMatch {
    /// The PTX block.
    pub ptx_block: PtxBlock,
    /// Where it maps.
    pub source: Option<SourceRef>,
    /// Instructions whose position is in each source block it touches.
    pub votes: Vec<(SourceRef, usize)>,
    /// Instructions with no source position (line 0) or outside every block.
    pub homeless: usize,
    /// Share of its positioned instructions in the chosen block (0 when unmapped).
    pub confidence: f64,
    /// Why it is unmapped, or which rule decided.
    pub reason: String,
    /// How many copies of its source block's code it holds: per source position, how
    /// often its most repeated opcode recurs, the fewest over the positions (positions
    /// inside macro expansions, which recur for other reasons, aside); for the entry of a
    /// region of compiler-made control flow, along every path through the region. More
    /// than one copy of a loop body means the compiler unrolled the loop into it.
    pub copies: usize,
    /// The entry of the region of compiler-made control flow inside one source block this
    /// block was folded into (it is then unmapped: its time is charged on the cheapest
    /// path through it).
    #[serde(default)]
    pub within: Option<PtxBlock>,
    /// Per source operation (line, column, opcode), its instructions in the block (or
    /// along the region's fewest path, as `copies`); not kept in the sidecar. An unrolled
    /// loop's copies are counted against its remainder's one copy operation by operation
    /// (`mapping::unroll`): at one position a strength-reduced index can take more
    /// instructions in later copies than in the first.
    #[serde(skip)]
    pub operations: Operations,
}

impl BlockMatch {
    /// Per source position (line, column), the copies `copies` is the fewest of. Two
    /// blocks holding one loop body compare by it position by position: a position that
    /// does not recur in the copies (an induction variable's `i++`, one add per unrolled
    /// iteration) then does not hide the unrolling.
    pub fn position_copies(&self) -> BTreeMap<(u32, u32), usize> {
        position_copies(&self.operations)
    }

    /// Leaves the block unmapped, for `reason` (its time is then charged on the paths
    /// through it).
    pub(super) fn unmap(&mut self, reason: String) {
        self.source = None;
        self.confidence = 0.0;
        self.reason = reason;
    }
}

/// The share of `votes` (a block's instructions per source block) that `source` has.
fn vote_share(votes: &[(SourceRef, usize)], source: &SourceRef) -> f64 {
    let total: usize = votes.iter().map(|(_, n)| n).sum();
    let mine = votes
        .iter()
        .find(|(v, _)| v == source)
        .map_or(0, |(_, n)| *n);
    mine as f64 / total.max(1) as f64
}

/// What a block holds of `source`'s operations, from its positions per source block.
fn operations_of(
    positions: &BTreeMap<(SourceRef, Operation), usize>,
    source: Option<&SourceRef>,
) -> Operations {
    positions
        .iter()
        .filter(|((p, _), _)| Some(p) == source)
        .map(|((_, op), n)| (op.clone(), *n))
        .collect()
}

/// The mapping of one kernel's PTX blocks.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlockMap {
    /// The kernel.
    pub kernel: String,
    /// One entry per PTX block, in order.
    pub blocks: Vec<BlockMatch>,
}

impl BlockMap {
    /// The source block a PTX block maps to.
    pub fn source_of(&self, ptx_block: PtxBlock) -> Option<&SourceRef> {
        self.blocks[ptx_block.index()].source.as_ref()
    }

    /// Whether a PTX block is mapped.
    pub fn is_mapped(&self, ptx_block: PtxBlock) -> bool {
        self.blocks[ptx_block.index()].source.is_some()
    }
}

/// Whether the innermost AST node at (line, col) was written in a macro's definition.
fn from_macro(file: &SourceFile, line: u32, col: u32) -> bool {
    fn innermost(n: &AstNode, key: (u32, u32)) -> Option<&AstNode> {
        let e = &n.extent;
        if !((e.start.line, e.start.col) <= key && key <= (e.end.line, e.end.col)) {
            return None;
        }
        n.children
            .iter()
            .find_map(|c| innermost(c, key))
            .or(Some(n))
    }
    file.functions
        .iter()
        .find_map(|f| innermost(&f.body, (line, col)))
        .is_some_and(|n| n.in_macro)
}

/// The natural loops of a source CFG, each as the list of its blocks.
pub(crate) fn source_loops(cfg: &SourceCfg) -> Vec<Vec<usize>> {
    let mut loops = Vec::new();
    for b in &cfg.blocks {
        for &h in &b.successors {
            if cfg.dominates(h, b.id) {
                loops.push(natural_loop_body(h, b.id, |x| {
                    cfg.blocks
                        .iter()
                        .filter(|p| p.successors.contains(&x))
                        .map(|p| p.id)
                        .collect()
                }));
            }
        }
    }
    loops
}

/// The loop depth of each block of a source CFG.
fn source_loop_depths(cfg: &SourceCfg) -> Vec<usize> {
    let mut depth = vec![0; cfg.blocks.len()];
    for body in source_loops(cfg) {
        for x in body {
            depth[x] += 1;
        }
    }
    depth
}

/// Maps the PTX blocks of `kernel` to source blocks of `file`, whose functions' CFGs are
/// `cfgs`.
pub fn match_blocks(
    kernel: &Function,
    analysis: &FunctionAnalysis,
    file: &SourceFile,
    cfgs: &[SourceCfg],
) -> BlockMap {
    let depths: Vec<Vec<usize>> = cfgs.iter().map(source_loop_depths).collect();
    let cfg_of = |name: &str| cfgs.iter().position(|c| c.function == name);
    let ptx_cfg = Cfg::new(kernel);
    let kernel_cfg = cfg_of(&kernel.name);

    // The source block at a position: of the function whose extent holds it.
    let source_at = |line: u32, col: u32| {
        let f = file.functions.iter().find(|f| {
            (f.extent.start.line, f.extent.start.col) <= (line, col)
                && (line, col) <= (f.extent.end.line, f.extent.end.col)
        })?;
        let c = cfg_of(&f.name)?;
        let block = cfgs[c].block_at(line, col)?;
        Some(SourceRef {
            function: f.name.clone(),
            block,
        })
    };

    let mut blocks: Vec<BlockMatch> = Vec::with_capacity(kernel.blocks.len());
    let mut block_operations: Vec<Operations> = Vec::with_capacity(kernel.blocks.len());
    let mut block_positions = Vec::with_capacity(kernel.blocks.len());
    for (id, block) in kernel.blocks.iter().enumerate() {
        let mut votes: BTreeMap<SourceRef, usize> = BTreeMap::new();
        let mut positions: BTreeMap<(SourceRef, Operation), usize> = BTreeMap::new();
        let mut homeless = 0;
        for i in &block.instrs {
            let hit = i
                .loc
                .as_ref()
                .filter(|l| l.line > 0)
                .and_then(|l| source_at(l.line, l.col));
            match hit {
                Some(s) => {
                    let l = i.loc.as_ref().expect("positioned");
                    if !from_macro(file, l.line, l.col) {
                        let op = (l.line, l.col, i.opcode.clone());
                        *positions.entry((s.clone(), op)).or_default() += 1;
                    }
                    *votes.entry(s).or_default() += 1;
                }
                None => homeless += 1,
            }
        }
        let votes: Vec<(SourceRef, usize)> = votes.into_iter().collect();
        let ptx_depth = analysis.blocks[id].loop_depth;
        let (source, reason) = choose(&votes, &kernel.name, ptx_depth, cfgs, &depths, &cfg_of);
        let confidence = source.as_ref().map_or(0.0, |s| vote_share(&votes, s));
        let operations = operations_of(&positions, source.as_ref());
        let copies = copies_in(&operations);
        block_positions.push(positions);
        blocks.push(BlockMatch {
            ptx_block: PtxBlock(id),
            source,
            votes,
            homeless,
            confidence,
            reason,
            copies,
            within: None,
            operations: operations.clone(),
        });
        block_operations.push(operations);
    }

    let source_depth =
        |s: &SourceRef| cfg_of(&s.function).map_or(0, |c| depths[c][s.block.index()]);
    unmap_moved_out_of_loops(&mut blocks, analysis, &source_depth);
    if let Some(kc) = kernel_cfg {
        // A block given another source block counts that block's operations.
        for id in prefer_the_conditional_block(&mut blocks, kernel, &ptx_cfg, &cfgs[kc]) {
            let operations = operations_of(&block_positions[id], blocks[id].source.as_ref());
            blocks[id].copies = copies_in(&operations);
            blocks[id].operations = operations.clone();
            block_operations[id] = operations;
        }
        order::preserve_dominance(&mut blocks, kernel, analysis, &ptx_cfg, &cfgs[kc]);
        order::reflect_dominance(&mut blocks, kernel, &ptx_cfg, &cfgs[kc], &depths[kc]);
        order::unmap_chained_images(&mut blocks, kernel, &ptx_cfg, &depths[kc]);
    }
    order::unmap_code_after_calls(&mut blocks, file, &ptx_cfg, cfgs, &source_at);
    fold_statement_regions(
        &mut blocks,
        &block_operations,
        analysis,
        &ptx_cfg,
        &source_depth,
    );
    BlockMap {
        kernel: kernel.name.clone(),
        blocks,
    }
}

/// Code the compiler moved out of a loop that it kept as a loop (a store of a value held
/// in a register across the iterations, SHOC's `sdata[tid] += ...`): a block outside
/// every PTX loop deeper than itself whose source lies in a loop, where another block of
/// the same source block sits in such a loop, holding at least twice its source
/// positions, runs once when that loop is left, not once an iteration. Mapped to the loop's source block, it would take the block's next entry
/// for its own and lose every iteration after it; unmapped, its time is charged on the
/// paths through it. (Where the compiler unrolled the loop completely, no block of its
/// source is in a PTX loop and the copies keep their mapping.)
fn unmap_moved_out_of_loops(
    blocks: &mut [BlockMatch],
    analysis: &FunctionAnalysis,
    source_depth: &dyn Fn(&SourceRef) -> usize,
) {
    let depth = |b: usize| analysis.blocks[b].loop_depth;
    let positions: Vec<usize> = blocks.iter().map(|m| m.position_copies().len()).collect();
    let moved: Vec<usize> = (1..blocks.len())
        .filter(|&b| {
            blocks[b].source.as_ref().is_some_and(|s| {
                // A copy of the body (an unrolled loop's remainder run once after it)
                // holds its positions; what was moved out holds few of them.
                source_depth(s) > depth(b)
                    && blocks.iter().enumerate().any(|(c, m)| {
                        c != b
                            && m.source.as_ref() == Some(s)
                            && depth(c) > depth(b)
                            && 2 * positions[b] <= positions[c]
                    })
            })
        })
        .collect();
    for b in moved {
        let s = blocks[b].source.clone().expect("mapped");
        blocks[b].unmap(format!(
            "code moved out of the loop of {} S{}, which a deeper block runs",
            s.function, s.block
        ));
    }
}

/// The block of a branch's arm that also holds code the compiler sank into it from
/// before the branch (`int j = get_global_id(1)`, used only under `if (i < n)`): it
/// votes for the code's source block and for the arm's, and the first to run (the
/// code's) is what its dominator maps to already. It runs on some paths from that
/// dominator only, which the code's block does not, so it is the arm's: of the source
/// blocks it votes for that the dominator's image dominates and that run on some of its
/// paths only (a statement sequence, or an operand where no mapped block lies under it),
/// the one with the most votes. Left with the code's block, it would be taken for control
/// flow the compiler made inside it, and the arm's time charged as its cheapest path
/// (none of it). Returns the blocks it gave another source block.
fn prefer_the_conditional_block(
    blocks: &mut [BlockMatch],
    kernel: &Function,
    ptx_cfg: &Cfg,
    kernel_cfg: &SourceCfg,
) -> Vec<usize> {
    let ptx_post = ptx_cfg.post_dominators();
    let mut remapped = Vec::new();
    for id in 0..blocks.len() {
        let Some(s) = blocks[id]
            .source
            .clone()
            .filter(|s| s.function == kernel.name)
        else {
            continue;
        };
        let Some(d) = ptx_cfg.immediate_dominator(id).filter(|&d| d != id) else {
            continue;
        };
        if blocks[d].source.as_ref() != Some(&s) || ptx_post.post_dominates(id, d) {
            continue;
        }
        let sb = s.block.index();
        // Whether `id` dominates another block mapped into the kernel: the code after a
        // branch on an operand, which the source CFG does not put under the operand.
        let leads = (0..blocks.len()).any(|b| {
            b != id
                && ptx_cfg.dominates(id, b)
                && blocks[b]
                    .source
                    .as_ref()
                    .is_some_and(|t| t.function == kernel.name)
        });
        let arm = blocks[id]
            .votes
            .iter()
            .filter(|(t, _)| {
                let tb = t.block.index();
                // An operand of `&&`, `||` or `?:` only where no mapped code follows
                // under the block (`if (c >= w && a[c - w] > k)`): the CFG joins an
                // operand as a value (the branch on it follows the join), so no
                // statement after the branch is dominated by it.
                let role = kernel_cfg.block(t.block).role;
                t.function == kernel.name
                    && tb != sb
                    && (matches!(role, BlockRole::Sequence | BlockRole::CaseLabel)
                        || role == BlockRole::ConditionalOperand && !leads)
                    && kernel_cfg.dominates(sb, tb)
                    && !kernel_cfg.post_dominates(tb, sb)
            })
            .max_by_key(|(_, n)| *n)
            .map(|(t, _)| t.clone());
        if let Some(t) = arm {
            blocks[id].reason = format!(
                "runs on some paths from B{d} only, which maps to S{}: the arm S{} it votes for",
                s.block, t.block
            );
            blocks[id].confidence = vote_share(&blocks[id].votes, &t);
            blocks[id].source = Some(t);
            remapped.push(id);
        }
    }
    remapped
}

/// A source operation as the PTX names it: line, column and the full opcode.
pub(crate) type Operation = (u32, u32, String);

/// How many instructions of each source operation of its source block a PTX block (or a
/// path through several) holds.
pub(crate) type Operations = BTreeMap<Operation, usize>;

/// How many copies of its source block's code `operations` hold: per source position,
/// how often its most repeated opcode recurs; the fewest over the positions. Several
/// different instructions at one position (`cvt`, `div`, `cvt` of one `/`) are one
/// operation, not copies of a loop body; a position absent from `operations` (a count of
/// 0) does not count.
fn copies_in(operations: &Operations) -> usize {
    position_copies(operations).into_values().min().unwrap_or(1)
}

/// Per source position of `operations`, how often its most repeated opcode recurs
/// (positions of no instruction left out).
fn position_copies(operations: &Operations) -> BTreeMap<(u32, u32), usize> {
    let mut per_position: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    for ((line, col, _), &n) in operations {
        let most = per_position.entry((*line, *col)).or_default();
        *most = (*most).max(n);
    }
    per_position.retain(|_, n| *n > 0);
    per_position
}

/// The innermost PTX loop holding block `b`.
pub(crate) fn innermost_loop(analysis: &FunctionAnalysis, b: usize) -> Option<&NaturalLoop> {
    analysis
        .loops
        .iter()
        .filter(|l| l.body.contains(&b))
        .min_by_key(|l| l.body.len())
}

/// Folds the compiler's own control flow inside one source block into the block that
/// enters it. The back end splits single statements into several PTX blocks (a 64-bit
/// `/` or `%` becomes a test whether both operands fit in 32 bits, a `div.u32` or a
/// `div.s64`, and a join; a `select` may become a branch; a builtin may become a short
/// loop): all of them map to one source block, yet only one runs per execution of it, or
/// some run several times. A block mapped to source block S is folded into the nearest
/// block mapped to S that dominates it when it lies in the same PTX loop iteration (the
/// same innermost loop), or in a loop deeper than S's own loop depth (a loop the
/// compiler made). Folded blocks become unmapped, so their time is charged on the
/// cheapest path between timing points through them (the best case: the source cannot
/// know which arm ran), and the region's entry keeps the timing call. The entry's
/// `copies` become those of the whole region: per operation, the fewest times any path
/// from the entry through the region runs it, so that the arms of one division are one
/// copy and a loop unrolled around them still counts its copies.
fn fold_statement_regions(
    blocks: &mut [BlockMatch],
    operations: &[Operations],
    analysis: &FunctionAnalysis,
    ptx_cfg: &Cfg,
    source_depth: &dyn Fn(&SourceRef) -> usize,
) {
    let n = blocks.len();
    let loop_of = |b: usize| innermost_loop(analysis, b).map(|l| l.header);
    let in_loop_of =
        |b: usize, of: usize| innermost_loop(analysis, of).is_none_or(|l| l.body.contains(&b));
    // Whether `b` belongs to the region of `a` (both mapped to one source block, `a`
    // dominating `b`).
    let joins = |a: usize, b: usize, s: &SourceRef| {
        in_loop_of(b, a)
            && (loop_of(a) == loop_of(b) || analysis.blocks[b].loop_depth > source_depth(s))
    };
    // The entry of each block's region, in dominator-tree order (a dominator's entry is
    // known before the blocks it dominates).
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&b| {
        std::iter::successors(Some(b), |&a| {
            ptx_cfg.immediate_dominator(a).filter(|&x| x != a)
        })
        .count()
    });
    let mut entry: Vec<Option<usize>> = vec![None; n];
    for &b in &order {
        let Some(s) = blocks[b].source.clone() else {
            continue;
        };
        entry[b] = Some(b);
        // The nearest dominator mapped to the same source block.
        let mut d = ptx_cfg.immediate_dominator(b).filter(|&a| a != b);
        while let Some(a) = d {
            if blocks[a].source.as_ref() == Some(&s) {
                if joins(a, b, &s) {
                    entry[b] = entry[a];
                }
                break;
            }
            d = ptx_cfg.immediate_dominator(a).filter(|&x| x != a);
        }
    }
    for e in 0..n {
        if entry[e] != Some(e) {
            continue;
        }
        let members: Vec<usize> = (0..n).filter(|&b| b != e && entry[b] == Some(e)).collect();
        if members.is_empty() {
            continue;
        }
        // Paths through the region: blocks of the entry's loop iteration it dominates.
        let node = |b: usize| {
            b != e && ptx_cfg.dominates(e, b) && loop_of(b) == loop_of(e) && in_loop_of(b, e)
        };
        let mut memo: BTreeMap<usize, Operations> = BTreeMap::new();
        let along = fewest_along(e, e, &node, analysis, operations, &entry, &mut memo);
        blocks[e].copies = copies_in(&along);
        blocks[e].operations = along;
        let s = blocks[e].source.clone().expect("an entry is mapped");
        for b in members {
            blocks[b].unmap(format!(
                "compiler-made control flow inside {} S{} entered at B{e}: the cheapest path through it is charged",
                s.function, s.block
            ));
            blocks[b].within = Some(PtxBlock(e));
        }
    }
}

/// Per operation of the region entered at `region`, the fewest times a path from `b`
/// through the region's blocks (`node`) to where it leaves them runs it.
fn fewest_along(
    region: usize,
    b: usize,
    node: &dyn Fn(usize) -> bool,
    analysis: &FunctionAnalysis,
    operations: &[Operations],
    entry: &[Option<usize>],
    memo: &mut BTreeMap<usize, Operations>,
) -> Operations {
    if let Some(m) = memo.get(&b) {
        return m.clone();
    }
    let mut fewest: Option<Operations> = None;
    for &s in analysis.blocks[b].successors.iter().filter(|&&s| node(s)) {
        let next = fewest_along(region, s, node, analysis, operations, entry, memo);
        fewest = Some(match fewest {
            None => next,
            Some(f) => f
                .into_iter()
                .map(|(op, n)| {
                    let m = next.get(&op).copied().unwrap_or(0);
                    (op, n.min(m))
                })
                .collect(),
        });
    }
    let mut total = fewest.unwrap_or_default();
    // Only the region's own blocks count (a block it passes through for another source
    // block adds nothing).
    if entry[b] == Some(region) {
        for (op, n) in &operations[b] {
            *total.entry(op.clone()).or_default() += n;
        }
    }
    memo.insert(b, total.clone());
    total
}

fn choose(
    votes: &[(SourceRef, usize)],
    kernel_fn: &str,
    ptx_depth: usize,
    cfgs: &[SourceCfg],
    depths: &[Vec<usize>],
    cfg_of: &dyn Fn(&str) -> Option<usize>,
) -> (Option<SourceRef>, String) {
    if votes.is_empty() {
        return (None, "no instruction lies in a source block".into());
    }
    let info = |s: &SourceRef| {
        let c = cfg_of(&s.function).expect("votes name parsed functions");
        (c, depths[c][s.block.index()], cfgs[c].block(s.block).role)
    };
    // Helpers are inlined at call sites of unknown depth: their blocks pass the depth rule.
    let mut cands: Vec<&(SourceRef, usize)> = votes
        .iter()
        .filter(|(s, _)| s.function != kernel_fn || info(s).1 == ptx_depth)
        .collect();
    let mut rule = "same loop depth";
    if cands.is_empty() {
        cands = votes.iter().collect();
        rule = "no source block at its loop depth; nearest";
    }
    let statements: Vec<_> = cands
        .iter()
        .copied()
        .filter(|(s, _)| info(s).2 != BlockRole::LoopCondition)
        .collect();
    if !statements.is_empty() {
        cands = statements;
    }
    // The first to run: a candidate that dominates every other one of its function.
    let head = cands
        .iter()
        .copied()
        .filter(|(s, _)| {
            let (c, _, _) = info(s);
            cands
                .iter()
                .filter(|(o, _)| o.function == s.function)
                .all(|(o, _)| cfgs[c].dominates(s.block.index(), o.block.index()))
        })
        .max_by_key(|(_, n)| *n);
    let pick = head.or_else(|| cands.iter().copied().max_by_key(|(_, n)| *n));
    match pick {
        Some((s, _)) => (Some(s.clone()), rule.to_string()),
        None => (None, "no candidate".into()),
    }
}
