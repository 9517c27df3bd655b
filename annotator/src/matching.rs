//! Matching PTX blocks to source blocks, and the path tables of Algorithm 2.
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
//!   block of a guarded loop, skipped when the loop runs zero times, does not).
//!
//! Unmapped PTX blocks are not lost: their time is charged on the paths between mapped
//! blocks ([`PathTable`]), so that `t = t_v0 + sum (t_(v_{i-1},v_i) - t_v_{i-1})` over the
//! PTX path is what the annotated kernel adds up.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use serde::{Deserialize, Serialize};

use crate::analysis::FunctionAnalysis;
use crate::cfg::{natural_loop_body, Cfg, NaturalLoop};
use crate::lines::LineCharge;
use crate::ptx::Function;
use crate::source::cfg::{BlockRole, SourceCfg};
use crate::source::{AstNode, SourceFile};

/// A source block: function and block index in that function's CFG.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SourceRef {
    /// The source function (the kernel or an inlined helper).
    pub function: String,
    /// Its block.
    pub block: usize,
}

/// Why a PTX block is mapped where it is, or not at all (for `annotate --explain`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct BlockMatch {
    /// The PTX block.
    pub ptx_block: usize,
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
    pub within: Option<usize>,
    /// Per source position (line, column), the copies `copies` is the fewest of; not kept
    /// in the sidecar. Two blocks holding one loop body compare by it position by
    /// position: a position that does not recur in the copies (an induction variable's
    /// `i++`, one add per unrolled iteration) then does not hide the unrolling.
    #[serde(skip)]
    pub position_copies: BTreeMap<(u32, u32), usize>,
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
    pub fn source_of(&self, ptx_block: usize) -> Option<&SourceRef> {
        self.blocks[ptx_block].source.as_ref()
    }

    /// Whether a PTX block is mapped.
    pub fn is_mapped(&self, ptx_block: usize) -> bool {
        self.blocks[ptx_block].source.is_some()
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
fn source_loops(cfg: &SourceCfg) -> Vec<Vec<usize>> {
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

    let mut blocks: Vec<BlockMatch> = Vec::with_capacity(kernel.blocks.len());
    let mut block_operations: Vec<Operations> = Vec::with_capacity(kernel.blocks.len());
    for (id, block) in kernel.blocks.iter().enumerate() {
        let mut votes: BTreeMap<SourceRef, usize> = BTreeMap::new();
        let mut positions: BTreeMap<(SourceRef, Operation), usize> = BTreeMap::new();
        let mut homeless = 0;
        for i in &block.instrs {
            let hit = i.loc.as_ref().filter(|l| l.line > 0).and_then(|l| {
                let f = file.functions.iter().find(|f| {
                    (f.extent.start.line, f.extent.start.col) <= (l.line, l.col)
                        && (l.line, l.col) <= (f.extent.end.line, f.extent.end.col)
                })?;
                let c = cfg_of(&f.name)?;
                let b = cfgs[c].block_at(l.line, l.col)?;
                Some(SourceRef {
                    function: f.name.clone(),
                    block: b,
                })
            });
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
        let (source, reason) = choose(&votes, ptx_depth, cfgs, &depths, &cfg_of);
        let total: usize = votes.iter().map(|(_, n)| n).sum();
        let confidence = match &source {
            Some(s) => {
                votes.iter().find(|(v, _)| v == s).map_or(0, |(_, n)| *n) as f64 / total as f64
            }
            None => 0.0,
        };
        let operations: Operations = source.as_ref().map_or_else(BTreeMap::new, |s| {
            positions
                .into_iter()
                .filter(|((p, _), _)| p == s)
                .map(|((_, op), n)| (op, n))
                .collect()
        });
        let copies = copies_in(&operations);
        let position_copies = position_copies(&operations);
        block_operations.push(operations);
        blocks.push(BlockMatch {
            ptx_block: id,
            source,
            votes,
            homeless,
            confidence,
            reason,
            copies,
            within: None,
            position_copies,
        });
    }

    // Dominance preservation, for blocks mapped into the kernel's own body: walk the
    // PTX dominator tree; a block whose image is not dominated by its nearest mapped
    // dominator's image loses its mapping. Post-dominance too: a block whose image
    // post-dominates that dominator's image (runs whenever it runs) must post-dominate
    // the dominator, else it runs on some paths only. This is the exit block of a loop
    // the compiler guarded (`if (n > 0)` around the rotated loop): it holds code of the
    // statement after the loop, which runs also when the guard skips the loop. Only
    // within one PTX loop iteration: the body of a `do`-`while` runs whenever the code
    // before it runs, yet the compiler may split it into an unrolled loop and a remainder
    // loop, each of which runs on some paths only (and is counted as such).
    let ptx_post = ptx_cfg.post_dominators();
    let same_iteration = |a: usize, b: usize| {
        innermost_loop(analysis, a).map(|l| l.header)
            == innermost_loop(analysis, b).map(|l| l.header)
    };
    if let Some(kc) = kernel_cfg {
        for id in 0..blocks.len() {
            let Some(s) = blocks[id].source.clone() else {
                continue;
            };
            if s.function != kernel.name {
                continue;
            }
            let mut d = ptx_cfg.immediate_dominator(id);
            while let Some(a) = d {
                if a == id {
                    break;
                }
                if let Some(sa) = blocks[a]
                    .source
                    .as_ref()
                    .filter(|sa| sa.function == kernel.name)
                {
                    let reason = if !cfgs[kc].dominates(sa.block, s.block)
                        && !entered_loop(&cfgs[kc], sa.block, s.block)
                    {
                        Some(format!(
                            "its dominator B{a} maps to S{}, which does not dominate S{}",
                            sa.block, s.block
                        ))
                    } else if sa.block != s.block
                        && same_iteration(a, id)
                        && cfgs[kc].post_dominates(s.block, sa.block)
                        && !ptx_post.post_dominates(id, a)
                    {
                        Some(format!(
                            "S{} runs whenever S{} does, which its dominator B{a} maps to, \
                             but B{id} runs on some paths from B{a} only",
                            s.block, sa.block
                        ))
                    } else {
                        None
                    };
                    if let Some(reason) = reason {
                        blocks[id].reason = reason;
                        blocks[id].source = None;
                        blocks[id].confidence = 0.0;
                    }
                    break;
                }
                d = ptx_cfg.immediate_dominator(a);
            }
        }
    }
    let source_depth = |s: &SourceRef| cfg_of(&s.function).map_or(0, |c| depths[c][s.block]);
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

/// Whether source block `a` lies in a loop that the code before `b` runs through: a loop
/// whose header dominates both. A compiler that proves such a loop runs at least once
/// (`for (i = lid; i < N; i += size)` with `N` at least the largest work-group) enters its
/// body unguarded, so in the PTX the body dominates the code after the loop, though in
/// the source it may not.
fn entered_loop(cfg: &SourceCfg, a: usize, b: usize) -> bool {
    let reaches = |from: usize, to: usize| {
        let mut seen = vec![false; cfg.blocks.len()];
        let mut stack = vec![from];
        while let Some(x) = stack.pop() {
            if x == to {
                return true;
            }
            if std::mem::replace(&mut seen[x], true) {
                continue;
            }
            stack.extend(cfg.blocks[x].successors.iter().copied());
        }
        false
    };
    (0..cfg.blocks.len()).any(|h| {
        h != a && cfg.dominates(h, a) && cfg.dominates(h, b) && reaches(a, h) && !reaches(b, h)
    })
}

/// A source operation as the PTX names it: line, column and the full opcode.
type Operation = (u32, u32, String);

/// How many instructions of each source operation of its source block a PTX block (or a
/// path through several) holds.
type Operations = BTreeMap<Operation, usize>;

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

/// How many times as many copies of its source block's code `main` holds as `other`: the
/// ratio of their copies at each position both hold, the smallest (rounded); the ratio
/// of their `copies` when they share no position.
fn copies_ratio(main: &BlockMatch, other: &BlockMatch) -> u64 {
    main.position_copies
        .iter()
        .filter_map(|(p, &m)| {
            let o = *other.position_copies.get(p)?;
            Some((m as f64 / o as f64).round() as u64)
        })
        .min()
        .unwrap_or_else(|| (main.copies as f64 / other.copies.max(1) as f64).round() as u64)
}

/// The innermost PTX loop holding block `b`.
fn innermost_loop(analysis: &FunctionAnalysis, b: usize) -> Option<&NaturalLoop> {
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
        blocks[e].position_copies = position_copies(&along);
        let s = blocks[e].source.clone().expect("an entry is mapped");
        for b in members {
            blocks[b].source = None;
            blocks[b].confidence = 0.0;
            blocks[b].within = Some(e);
            blocks[b].reason = format!(
                "compiler-made control flow inside {} S{} entered at B{e}: the cheapest path through it is charged",
                s.function, s.block
            );
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

/// A source loop the compiler unrolled at run time: its body is the image of PTX blocks in
/// different PTX loops (an unrolled loop of `factor` copies and a remainder loop), so that
/// one call of its timing function cannot tell which of them ran. The annotated code
/// counts the body's executions instead and charges them when control leaves the loop:
/// `K / factor` iterations of `main`, `K % factor` of `remainder`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrolledLoop {
    /// The source block of the loop body.
    pub source: SourceRef,
    /// The PTX blocks mapped to it.
    pub ptx_blocks: Vec<usize>,
    /// The blocks of the source loop around the body (in the body's function): leaving
    /// them is when the count is charged.
    pub source_loop: Vec<usize>,
    /// How it is counted; `None` when the shape is not one the annotator can count. For
    /// a loop copied by the complete unrolling of enclosing loops, the first copy's.
    pub shape: Option<UnrollShape>,
    /// When the compiler unrolled the loops around this one completely: the PTX copies of
    /// the loop, in the order they run, and where the annotated code tells them apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub copies: Option<LoopCopies>,
}

impl UnrolledLoop {
    /// The shapes its executions are charged on: one per PTX copy of the loop, in the
    /// order they run (one when no enclosing loop was unrolled completely).
    pub fn shapes(&self) -> Vec<UnrollShape> {
        match (&self.copies, self.shape) {
            (Some(c), _) => c.shapes.clone(),
            (None, Some(s)) => vec![s],
            (None, None) => Vec::new(),
        }
    }
}

/// The copies of a loop nested in loops the compiler unrolled completely (a run-time
/// loop inside `for (c = 0; c < 3; c++)`): each pass of the enclosing loops' bodies runs
/// the loop once, in its own PTX copy, in order. So the `j`-th entry of the loop since
/// the outermost unrolled loop was entered runs copy `j`: the annotated code counts the
/// entries (at `enter`, reset at `reset`) and charges each pass's count on its copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopCopies {
    /// Per copy, in the order they run, its unrolled loop and remainder.
    pub shapes: Vec<UnrollShape>,
    /// The source block that enters the loop, once per pass of the loop around it.
    pub enter: usize,
    /// The source block that enters the outermost loop the compiler unrolled completely.
    pub reset: usize,
    /// How many loops around this one the compiler unrolled completely.
    pub unrolled_levels: usize,
}

/// The PTX blocks of an unrolled loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrollShape {
    /// The block holding `factor` copies of the body.
    pub main: usize,
    /// The block holding one copy (the remainder loop, or for two copies in `main` a
    /// block outside any loop: a remainder of at most one iteration), if the trip count
    /// needs one.
    pub remainder: Option<usize>,
    /// Copies of the body in `main`.
    pub factor: u64,
}

/// The source loops of a mapping that the compiler unrolled with a remainder loop.
pub fn unrolled_loops(
    map: &BlockMap,
    analysis: &FunctionAnalysis,
    cfgs: &[SourceCfg],
) -> Vec<UnrolledLoop> {
    let innermost_loop = |b: usize| {
        analysis
            .loops
            .iter()
            .filter(|l| l.body.contains(&b))
            .min_by_key(|l| l.body.len())
    };
    let mut by_source: BTreeMap<&SourceRef, Vec<usize>> = BTreeMap::new();
    for m in &map.blocks {
        if let Some(s) = &m.source {
            by_source.entry(s).or_default().push(m.ptx_block);
        }
    }
    by_source
        .into_iter()
        .filter_map(|(s, blocks)| {
            let in_loop: Vec<usize> = blocks
                .iter()
                .copied()
                .filter(|&b| innermost_loop(b).is_some())
                .collect();
            let mut loops: Vec<usize> = in_loop
                .iter()
                .filter_map(|&b| innermost_loop(b).map(|l| l.header))
                .collect();
            loops.sort_unstable();
            loops.dedup();
            let copies = |b: usize| map.blocks[b].copies as u64;
            let ratio = |a: usize, b: usize| copies_ratio(&map.blocks[a], &map.blocks[b]);
            let outside: Vec<usize> = blocks
                .iter()
                .copied()
                .filter(|b| !in_loop.contains(b))
                .collect();
            let unrolled = loops.len() > 1
                || in_loop.iter().any(|&b| copies(b) > 1)
                || matches!((in_loop.as_slice(), outside.as_slice()), (&[l], &[o]) if ratio(l, o) > 1);
            if !unrolled {
                return None;
            }
            let cfg = cfgs.iter().find(|c| c.function == s.function)?;
            let source_loop = innermost_source_loop(cfg, s.block).unwrap_or_default();
            let copied = loop_copies(map, analysis, cfg, s.block, &in_loop, &outside);
            // A PTX loop holding code of the body that lost its mapping (to dominance
            // preservation: a copy of the loop behind a copy of other code of the loops
            // around it) would run uncounted.
            let lost = map.blocks.iter().any(|m| {
                m.source.is_none()
                    && m.within.is_none()
                    && innermost_loop(m.ptx_block).is_some()
                    && m.votes.iter().any(|(v, _)| v == s)
            });
            // Other source blocks of the loop must not map into the PTX loops: their timing
            // points would interleave with the deferred count.
            let clean = |members: &[usize]| {
                let ptx_loops: Vec<usize> = members
                    .iter()
                    .filter_map(|&b| innermost_loop(b))
                    .flat_map(|l| l.body.iter().copied())
                    .collect();
                map.blocks.iter().all(|m| match &m.source {
                    Some(o)
                        if o != s && o.function == s.function && source_loop.contains(&o.block) =>
                    {
                        !ptx_loops.contains(&m.ptx_block)
                    }
                    _ => true,
                })
            };
            let shape = match (in_loop.as_slice(), outside.as_slice()) {
                _ if lost => None,
                // Copies made by unrolling the loops around this one completely.
                _ if copied.is_some() => copied
                    .as_ref()
                    .filter(|c| {
                        let members: Vec<usize> = c
                            .shapes
                            .iter()
                            .flat_map(|s| std::iter::once(s.main).chain(s.remainder))
                            .collect();
                        clean(&members)
                    })
                    .map(|c| c.shapes[0]),
                // A loop of two copies and one more copy after or before it, which runs when
                // the trip count is odd: the remainder loop of at most one iteration,
                // straight-line code.
                (&[main], &[remainder])
                    if !source_loop.is_empty()
                        && ratio(main, remainder) == 2
                        && clean(&[main]) =>
                {
                    Some(UnrollShape {
                        main,
                        remainder: Some(remainder),
                        factor: 2,
                    })
                }
                (in_loop, _) => match *in_loop {
                    // A loop of copies and a remainder loop (run-time trip count).
                    [a, b] if !source_loop.is_empty() && loops.len() == 2 => {
                        let (main, remainder) = if ratio(a, b) >= ratio(b, a) {
                            (a, b)
                        } else {
                            (b, a)
                        };
                        let factor = ratio(main, remainder);
                        (factor >= 2 && clean(&[main, remainder])).then_some(UnrollShape {
                            main,
                            remainder: Some(remainder),
                            factor,
                        })
                    }
                    // A loop of copies alone (a trip count the copies divide).
                    [main] if !source_loop.is_empty() && copies(main) > 1 => clean(&[main])
                        .then_some(UnrollShape {
                            main,
                            remainder: None,
                            factor: copies(main),
                        }),
                    _ => None,
                },
            };
            Some(UnrolledLoop {
                source: s.clone(),
                ptx_blocks: blocks,
                source_loop,
                copies: copied.filter(|_| shape.is_some()),
                shape,
            })
        })
        .collect()
}

/// The copies of the source loop around `body` (a loop body mapped to PTX blocks
/// `in_loop`, each in a PTX loop, and `outside`, in none) that the complete unrolling of
/// the loops around it left, if that is what the compiler did and the annotated code can
/// tell them apart; `None` otherwise (a loop with no such copies, or copies the annotator
/// cannot count, which stay refused).
///
/// The source loops around the body are `L0` (the loop itself), `L1`, ...; the body sits
/// `d` source loops deep and its PTX copies `d - u` PTX loops deep, so the compiler
/// removed `u` loops, `L1` to `Lu` (the innermost: those of constant trip counts, which it
/// unrolls first). Each pass of `Lm`'s body must enter `L(m-1)` exactly once (its entry
/// block dominates `Lm`'s latches: no `continue` or `if` skips it) so that the `j`-th
/// entry of `L0` since `Lu` was entered is the `j`-th copy, and the blocks entering `L0`
/// and `Lu` need a place for a call. The copies are ordered by reachability in the PTX,
/// not passing the header of any loop around all of them; each copy is a loop of the
/// most copies of the body and at most one remainder loop, next to it in that order.
fn loop_copies(
    map: &BlockMap,
    analysis: &FunctionAnalysis,
    cfg: &SourceCfg,
    body: usize,
    in_loop: &[usize],
    outside: &[usize],
) -> Option<LoopCopies> {
    let mut around: Vec<Vec<usize>> = source_loops(cfg)
        .into_iter()
        .filter(|l| l.contains(&body))
        .collect();
    around.sort_by_key(Vec::len);
    around.dedup();
    let depth = |b: usize| analysis.blocks[b].loop_depth;
    let ptx_depth = in_loop.iter().map(|&b| depth(b)).min()?;
    if !outside.is_empty() || in_loop.iter().any(|&b| depth(b) != ptx_depth) {
        return None;
    }
    let levels = around.len().checked_sub(ptx_depth).filter(|&u| u > 0)?;
    let header = |l: &[usize]| {
        l.iter()
            .copied()
            .find(|&h| l.iter().all(|&b| cfg.dominates(h, b)))
    };
    // The one block outside loop `l` entering its header.
    let entry_of = |l: &[usize]| -> Option<usize> {
        let h = header(l)?;
        let entries: Vec<usize> = cfg
            .blocks
            .iter()
            .filter(|b| !l.contains(&b.id) && b.successors.contains(&h))
            .map(|b| b.id)
            .collect();
        match entries[..] {
            [e] => Some(e),
            _ => None,
        }
    };
    for m in 1..=levels {
        let (inner, outer) = (&around[m - 1], &around[m]);
        let e = entry_of(inner)?;
        let h = header(outer)?;
        let latches = outer
            .iter()
            .filter(|&&b| cfg.blocks[b].successors.contains(&h));
        if !outer.contains(&e) || !latches.into_iter().all(|&x| cfg.dominates(e, x)) {
            return None;
        }
    }
    // No other block of the unrolled loops may map into the PTX (a copy of the inner
    // loop's condition in each copy's guard): the matching cannot tell its copies apart.
    let alone = map.blocks.iter().all(|m| {
        m.source.as_ref().is_none_or(|o| {
            o.function != cfg.function || o.block == body || !around[levels].contains(&o.block)
        })
    });
    if !alone {
        return None;
    }
    let enter = entry_of(&around[0])?;
    let reset = entry_of(&around[levels])?;
    let placed = |b: usize| cfg.blocks[b].insertion != crate::source::cfg::Insertion::Nothing;
    if !placed(enter) || !placed(reset) {
        return None;
    }
    // Order the copies: a copy runs before those it reaches without passing the header of
    // a PTX loop around them all.
    let loop_of = |b: usize| innermost_loop(analysis, b);
    let common: Vec<usize> = analysis
        .loops
        .iter()
        .filter(|l| in_loop.iter().all(|b| l.body.contains(b)))
        .map(|l| l.header)
        .collect();
    let reaches = |from: usize, to: usize| {
        let own = loop_of(from).map(|l| l.body.clone()).unwrap_or_default();
        let mut seen = vec![false; analysis.blocks.len()];
        let mut stack = vec![from];
        while let Some(b) = stack.pop() {
            for &s in &analysis.blocks[b].successors {
                if s == to && !own.contains(&to) {
                    return true;
                }
                if !seen[s] && !common.contains(&s) {
                    seen[s] = true;
                    stack.push(s);
                }
            }
        }
        false
    };
    let mut order: Vec<usize> = in_loop.to_vec();
    order.sort_by_key(|&b| in_loop.iter().filter(|&&o| o != b && reaches(o, b)).count());
    // A total order: each copy reaches all later ones, none reaches an earlier one.
    for (i, &a) in order.iter().enumerate() {
        for &b in &order[i + 1..] {
            if !reaches(a, b) || reaches(b, a) {
                return None;
            }
        }
    }
    let copies = |b: usize| map.blocks[b].copies;
    let most = order.iter().map(|&b| copies(b)).max()?;
    let is_main = |b: usize| copies(b) == most;
    let mains = order.iter().filter(|&&b| is_main(b)).count();
    if mains < 2 {
        return None;
    }
    // Each main with the remainder after it (or, where the first block is a remainder,
    // before it).
    let remainder_first = !is_main(order[0]);
    let mut shapes = Vec::new();
    let mut pending: Option<usize> = None;
    let mut groups: Vec<(usize, Option<usize>)> = Vec::new();
    for &b in &order {
        match (is_main(b), remainder_first) {
            (true, false) => groups.push((b, None)),
            (true, true) => groups.push((b, pending.take())),
            (false, false) => {
                let last = groups.last_mut()?;
                if last.1.replace(b).is_some() {
                    return None;
                }
            }
            (false, true) => {
                if pending.replace(b).is_some() {
                    return None;
                }
            }
        }
    }
    if pending.is_some() || groups.len() != mains {
        return None;
    }
    for (main, remainder) in groups {
        let factor = match remainder {
            Some(r) => copies_ratio(&map.blocks[main], &map.blocks[r]),
            None => copies(main) as u64,
        };
        if factor == 0 || (remainder.is_some() && factor < 2) {
            return None;
        }
        shapes.push(UnrollShape {
            main,
            remainder,
            factor,
        });
    }
    Some(LoopCopies {
        shapes,
        enter,
        reset,
        unrolled_levels: levels,
    })
}

/// The blocks of the innermost natural loop of `cfg` containing `block`.
fn innermost_source_loop(cfg: &SourceCfg, block: usize) -> Option<Vec<usize>> {
    source_loops(cfg)
        .into_iter()
        .filter(|body| body.contains(&block))
        .min_by_key(|body| body.len())
}

fn choose(
    votes: &[(SourceRef, usize)],
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
        (c, depths[c][s.block], cfgs[c].blocks[s.block].role)
    };
    // Helpers are inlined at call sites of unknown depth: their blocks pass the depth rule.
    let kernel_fn = votes
        .iter()
        .map(|(s, _)| s.function.as_str())
        .next()
        .unwrap_or_default();
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
                .all(|(o, _)| cfgs[c].dominates(s.block, o.block))
        })
        .max_by_key(|(_, n)| *n);
    let pick = head.or_else(|| cands.iter().copied().max_by_key(|(_, n)| *n));
    match pick {
        Some((s, _)) => (Some(s.clone()), rule.to_string()),
        None => (None, "no candidate".into()),
    }
}

/// Where a timed path starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum From {
    /// The kernel's start, before its first block.
    Start,
    /// A mapped PTX block, the last one simulated.
    Block(usize),
}

/// Where a timed path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum To {
    /// A mapped PTX block.
    Block(usize),
    /// The kernel's end (a block without successors).
    Exit,
}

/// The cheapest PTX path between two consecutive timing points, through unmapped blocks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TimedPath {
    /// Origin.
    pub from: From,
    /// Destination.
    pub to: To,
    /// The PTX blocks after the origin, in order (for `Exit`, up to the returning block).
    pub blocks: Vec<usize>,
    /// Cycles it adds: t_v0 for a path from the start, then
    /// `sum (t_(v_{i-1},v_i) - t_v_{i-1})`.
    pub cycles: u64,
    /// Resource usage it adds: `sum use(r, v_i)` over `blocks`.
    pub usage: Vec<f64>,
    /// PTX instructions it executes: the sum over `blocks` (per thread).
    #[serde(default)]
    pub instructions: u64,
    /// Its cycles and instructions per source line (see [`crate::lines`]), ascending by
    /// line; empty until [`crate::lines::attribute`] fills it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineCharge>,
}

/// Algorithm 2's table: for every pair of consecutive timing points, the path cost.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PathTable {
    /// The kernel.
    pub kernel: String,
    /// Every reachable (from, to) pair.
    pub paths: Vec<TimedPath>,
    /// Loops made of unmapped blocks only: their iterations are not counted.
    pub uncounted_loops: Vec<usize>,
}

impl PathTable {
    /// The path between two timing points, if there is one.
    pub fn get(&self, from: From, to: To) -> Option<&TimedPath> {
        self.paths.iter().find(|p| p.from == from && p.to == to)
    }
}

/// Shortest-path state over the PTX blocks.
struct Search {
    dist: Vec<Option<u64>>,
    prev: Vec<Option<usize>>,
    settled: Vec<bool>,
    heap: BinaryHeap<Reverse<(u64, usize)>>,
}

impl Search {
    fn new(n: usize) -> Self {
        Search {
            dist: vec![None; n],
            prev: vec![None; n],
            settled: vec![false; n],
            heap: BinaryHeap::new(),
        }
    }

    fn relax(&mut self, b: usize, d: u64, from: Option<usize>) {
        if self.dist[b].is_none_or(|old| d < old) {
            self.dist[b] = Some(d);
            self.prev[b] = from;
            self.heap.push(Reverse((d, b)));
        }
    }
}

/// Builds the path table of `analysis` under `map`. Where several PTX paths lead from one
/// timing point to the next, the cheapest is charged (the best case, like the rest of
/// the static analysis).
pub fn path_table(analysis: &FunctionAnalysis, map: &BlockMap) -> PathTable {
    let n = analysis.blocks.len();
    let t = |b: usize| analysis.blocks[b].cycles;
    let pair = |a: usize, b: usize| analysis.pair_cycles(a, b);
    let mut origins = vec![From::Start];
    origins.extend((0..n).filter(|&b| map.is_mapped(b)).map(From::Block));
    let mut paths = Vec::new();
    for origin in origins {
        // Dijkstra over the blocks reachable through unmapped ones; the weight of edge
        // (a, b) is t_(a,b) - t_a, never negative since t_(a,b) >= t_a.
        let mut search = Search::new(n);
        match origin {
            From::Start if n > 0 => search.relax(0, t(0), None),
            From::Start => {}
            From::Block(o) => {
                for &s in &analysis.blocks[o].successors {
                    search.relax(s, pair(o, s) - t(o), None);
                }
            }
        }
        while let Some(Reverse((d, b))) = search.heap.pop() {
            if search.settled[b] || search.dist[b] != Some(d) {
                continue;
            }
            search.settled[b] = true;
            // Stop at a timing point; go on through unmapped blocks.
            if map.is_mapped(b) {
                continue;
            }
            for &s in &analysis.blocks[b].successors {
                search.relax(s, d + pair(b, s) - t(b), Some(b));
            }
        }
        let Search { dist, prev, .. } = search;
        let walk = |end: usize| {
            let mut blocks = vec![end];
            let mut x = end;
            while let Some(p) = prev[x] {
                blocks.push(p);
                x = p;
            }
            blocks.reverse();
            blocks
        };
        let instructions_of = |blocks: &[usize]| -> u64 {
            blocks
                .iter()
                .map(|&b| analysis.blocks[b].instructions as u64)
                .sum()
        };
        let usage_of = |blocks: &[usize]| {
            let r = analysis.blocks.first().map_or(0, |b| b.usage.len());
            (0..r)
                .map(|k| blocks.iter().map(|&b| analysis.blocks[b].usage[k]).sum())
                .collect()
        };
        for (b, d) in dist.iter().enumerate() {
            let Some(d) = *d else { continue };
            if map.is_mapped(b) {
                let blocks = walk(b);
                paths.push(TimedPath {
                    from: origin,
                    to: To::Block(b),
                    usage: usage_of(&blocks),
                    instructions: instructions_of(&blocks),
                    blocks,
                    cycles: d,
                    lines: Vec::new(),
                });
            }
        }
        // The exit: from a returning block, nothing more; else the cheapest path to a
        // returning block (mapped or not: a return the compiler merged into another's
        // block is reached without that block's timing point).
        let at_end = match origin {
            From::Block(o) if analysis.blocks[o].successors.is_empty() => Some((0, None)),
            _ => None,
        };
        let exit = (0..n)
            .filter(|&b| analysis.blocks[b].successors.is_empty())
            .filter_map(|b| dist[b].map(|d| (d, Some(b))))
            .chain(at_end)
            .min();
        if let Some((d, end)) = exit {
            let blocks = end.map(walk).unwrap_or_default();
            paths.push(TimedPath {
                from: origin,
                to: To::Exit,
                usage: usage_of(&blocks),
                instructions: instructions_of(&blocks),
                blocks,
                cycles: d,
                lines: Vec::new(),
            });
        }
    }
    let uncounted_loops = analysis
        .loops
        .iter()
        .filter(|l| l.body.iter().all(|&b| !map.is_mapped(b)))
        .map(|l| l.header)
        .collect();
    PathTable {
        kernel: map.kernel.clone(),
        paths,
        uncounted_loops,
    }
}
