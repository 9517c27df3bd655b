//! Algorithm 2's path table: for every pair of consecutive timing points (mapped PTX
//! blocks, the kernel's start and end), the cheapest PTX path between them through
//! unmapped blocks, with the cycles, resource usage and instructions it adds.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use pipeline_model::rows::CLASSES;
use serde::{Deserialize, Serialize};

use crate::analysis::blocks::FunctionAnalysis;
use crate::ids::PtxBlock;
use crate::mapping::matching::BlockMap;

/// What a timed path charges one source line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineCharge {
    /// The line of the program's source; 0 for code with no line in its PTX block (the
    /// profile gives it the first line of the source block the path is charged at).
    pub line: u32,
    /// Its part of the path's cycles (the parts sum to the path's cycles).
    pub cycles: f64,
    /// The path's PTX instructions on that line.
    pub instructions: u64,
}

/// Where a timed path starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum From {
    /// The kernel's start, before its first block.
    Start,
    /// A mapped PTX block, the last one simulated.
    Block(PtxBlock),
}

impl From {
    /// The PTX block it starts at, if not the start.
    pub fn block(self) -> Option<PtxBlock> {
        match self {
            From::Start => None,
            From::Block(b) => Some(b),
        }
    }
}

/// Where a timed path ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum To {
    /// A mapped PTX block.
    Block(PtxBlock),
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
    pub blocks: Vec<PtxBlock>,
    /// Cycles it adds: t_v0 for a path from the start, then
    /// `sum (t_(v_{i-1},v_i) - t_v_{i-1})`.
    pub cycles: u64,
    /// Resource usage it adds: `sum use(r, v_i)` over `blocks`.
    pub usage: Vec<f64>,
    /// The same in each narrow width class (`BlockAnalysis::narrow_usage`), where any of
    /// its blocks' differs; empty where none does.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub narrow_usage: Vec<Vec<f64>>,
    /// PTX instructions it executes: the sum over `blocks` (per thread).
    #[serde(default)]
    pub instructions: u64,
    /// Its cycles and instructions per source line (see [`crate::mapping::lines`]), ascending by
    /// line; empty until [`crate::mapping::lines::attribute`] fills it.
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
    /// Loops made of unmapped blocks only, by header: their iterations are not counted.
    pub uncounted_loops: Vec<PtxBlock>,
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
/// the static analysis). Inside, a PTX block is its `usize` index in `analysis.blocks`.
pub fn path_table(analysis: &FunctionAnalysis, map: &BlockMap) -> PathTable {
    let n = analysis.blocks.len();
    let mapped = |b: usize| map.is_mapped(PtxBlock(b));
    let t = |b: usize| analysis.blocks[b].cycles;
    let pair = |a: usize, b: usize| analysis.pair_cycles(PtxBlock(a), PtxBlock(b));
    let mut origins = vec![From::Start];
    origins.extend(
        (0..n)
            .filter(|&b| mapped(b))
            .map(|b| From::Block(PtxBlock(b))),
    );
    let mut paths = Vec::new();
    for origin in origins {
        // Dijkstra over the blocks reachable through unmapped ones; the weight of edge
        // (a, b) is t_(a,b) - t_a, never negative since t_(a,b) >= t_a.
        let mut search = Search::new(n);
        match origin {
            From::Start if n > 0 => search.relax(0, t(0), None),
            From::Start => {}
            From::Block(o) => {
                let o = o.index();
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
            if mapped(b) {
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
            blocks.into_iter().map(PtxBlock).collect::<Vec<_>>()
        };
        let instructions_of = |blocks: &[PtxBlock]| -> u64 {
            blocks
                .iter()
                .map(|&b| analysis.block(b).instructions as u64)
                .sum()
        };
        let usage_of = |blocks: &[PtxBlock], class: Option<usize>| -> Vec<f64> {
            let r = analysis.blocks.first().map_or(0, |b| b.usage.len());
            let of = |b: PtxBlock| {
                let block = analysis.block(b);
                class
                    .and_then(|c| block.narrow_usage.get(c))
                    .unwrap_or(&block.usage)
            };
            (0..r)
                .map(|k| blocks.iter().map(|&b| of(b)[k]).sum())
                .collect()
        };
        let narrow_of = |blocks: &[PtxBlock]| -> Vec<Vec<f64>> {
            if blocks
                .iter()
                .all(|&b| analysis.block(b).narrow_usage.is_empty())
            {
                return Vec::new();
            }
            (0..CLASSES - 1)
                .map(|c| usage_of(blocks, Some(c)))
                .collect()
        };
        for (b, d) in dist.iter().enumerate() {
            let Some(d) = *d else { continue };
            if mapped(b) {
                let blocks = walk(b);
                paths.push(TimedPath {
                    from: origin,
                    to: To::Block(PtxBlock(b)),
                    usage: usage_of(&blocks, None),
                    narrow_usage: narrow_of(&blocks),
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
            From::Block(o) if analysis.block(o).successors.is_empty() => Some((0, None)),
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
                usage: usage_of(&blocks, None),
                narrow_usage: narrow_of(&blocks),
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
        .filter(|l| l.body.iter().all(|&b| !mapped(b)))
        .map(|l| PtxBlock(l.header))
        .collect();
    PathTable {
        kernel: map.kernel.clone(),
        paths,
        uncounted_loops,
    }
}
