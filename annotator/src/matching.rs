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
//!   stays unmapped.
//!
//! Unmapped PTX blocks are not lost: their time is charged on the paths between mapped
//! blocks ([`PathTable`]), so that `t = t_v0 + sum (t_(v_{i-1},v_i) - t_v_{i-1})` over the
//! PTX path is what the annotated kernel adds up.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use serde::{Deserialize, Serialize};

use crate::analysis::FunctionAnalysis;
use crate::cfg::{natural_loop_body, Cfg};
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
    /// How many times each source position of its source block recurs in it, the fewest
    /// (positions inside macro expansions, which recur for other reasons, aside): more
    /// than one copy of a loop body means the compiler unrolled the loop into it.
    pub copies: usize,
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
    for (id, block) in kernel.blocks.iter().enumerate() {
        let mut votes: BTreeMap<SourceRef, usize> = BTreeMap::new();
        let mut positions: BTreeMap<(SourceRef, u32, u32), usize> = BTreeMap::new();
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
                        *positions.entry((s.clone(), l.line, l.col)).or_default() += 1;
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
        let copies = source.as_ref().map_or(1, |s| {
            positions
                .iter()
                .filter(|((p, _, _), _)| p == s)
                .map(|(_, n)| *n)
                .min()
                .unwrap_or(1)
        });
        blocks.push(BlockMatch {
            ptx_block: id,
            source,
            votes,
            homeless,
            confidence,
            reason,
            copies,
        });
    }

    // Dominance preservation, for blocks mapped into the kernel's own body: walk the
    // PTX dominator tree; a block whose image is not dominated by its nearest mapped
    // dominator's image loses its mapping.
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
                    if !cfgs[kc].dominates(sa.block, s.block) {
                        blocks[id].reason = format!(
                            "its dominator B{a} maps to S{}, which does not dominate S{}",
                            sa.block, s.block
                        );
                        blocks[id].source = None;
                        blocks[id].confidence = 0.0;
                    }
                    break;
                }
                d = ptx_cfg.immediate_dominator(a);
            }
        }
    }
    BlockMap {
        kernel: kernel.name.clone(),
        blocks,
    }
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
    /// How it is counted; `None` when the shape is not one the annotator can count.
    pub shape: Option<UnrollShape>,
}

/// The PTX blocks of an unrolled loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrollShape {
    /// The block holding `factor` copies of the body.
    pub main: usize,
    /// The block holding one copy (the remainder loop), if the trip count needs one.
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
    let votes_for = |b: usize, s: &SourceRef| {
        map.blocks[b]
            .votes
            .iter()
            .find(|(v, _)| v == s)
            .map_or(0, |(_, n)| *n)
    };
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
            let unrolled = loops.len() > 1 || in_loop.iter().any(|&b| copies(b) > 1);
            if !unrolled {
                return None;
            }
            let cfg = cfgs.iter().find(|c| c.function == s.function)?;
            let source_loop = innermost_source_loop(cfg, s.block).unwrap_or_default();
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
            let shape = match *in_loop.as_slice() {
                // A loop of copies and a remainder loop (run-time trip count).
                [a, b] if !source_loop.is_empty() && loops.len() == 2 => {
                    let (main, remainder) = if votes_for(a, s) >= votes_for(b, s) {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    let factor = (votes_for(main, s) as f64 / votes_for(remainder, s).max(1) as f64)
                        .round() as u64;
                    (factor >= 2 && clean(&[main, remainder])).then_some(UnrollShape {
                        main,
                        remainder: Some(remainder),
                        factor,
                    })
                }
                // A loop of copies alone (a trip count the copies divide).
                [main] if !source_loop.is_empty() && copies(main) > 1 => {
                    clean(&[main]).then_some(UnrollShape {
                        main,
                        remainder: None,
                        factor: copies(main),
                    })
                }
                _ => None,
            };
            Some(UnrolledLoop {
                source: s.clone(),
                ptx_blocks: blocks,
                source_loop,
                shape,
            })
        })
        .collect()
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
    let pair = |a: usize, b: usize| {
        analysis
            .edges
            .iter()
            .find(|e| e.from == a && e.to == b)
            .map_or(t(a) + t(b), |e| e.cycles)
    };
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
                    blocks,
                    cycles: d,
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
                blocks,
                cycles: d,
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
