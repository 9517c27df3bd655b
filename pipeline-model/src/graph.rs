//! Pipeline execution graphs (Gerum et al. 2015, section IV-A; docs/design.md) and the fixpoint
//! of Algorithm 1.
//!
//! Each warp instruction has five steps, IF, IS, OC, EX and WB; an edge `p -> s` with
//! latency `l` says that `s` starts at least `l` cycles after `p`. The graph models one
//! warp alone on the SM, so the longest path is the best-case time of the instructions.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::arch::Architecture;
use crate::instr::{Instr, OpClass};

/// A pipeline step of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stage {
    /// Fetch into the instruction buffer.
    Fetch,
    /// Issue (scheduler and scoreboard).
    Issue,
    /// Operand collection from the banked register file.
    Operand,
    /// Execution on a functional unit.
    Execute,
    /// Write-back of the result.
    Writeback,
}

impl Stage {
    /// All stages in pipeline order.
    pub const ALL: [Stage; 5] = [
        Stage::Fetch,
        Stage::Issue,
        Stage::Operand,
        Stage::Execute,
        Stage::Writeback,
    ];

    /// The short name used in timelines (IF, IS, OC, EX, WB).
    pub fn short_name(self) -> &'static str {
        match self {
            Stage::Fetch => "IF",
            Stage::Issue => "IS",
            Stage::Operand => "OC",
            Stage::Execute => "EX",
            Stage::Writeback => "WB",
        }
    }
}

/// A node of the graph: one stage of one instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    /// Index of the instruction in the sequence the graph was built from.
    pub instr: usize,
    /// The stage.
    pub stage: Stage,
}

/// The pipeline execution graph `EG_B` of a sequence of instructions.
///
/// Invariant: the node of instruction `i`, stage `s` has index `5 * i + s`, and every edge
/// goes from a lower to a higher index, so index order is a topological order.
#[derive(Debug, Clone)]
pub struct ExecutionGraph {
    graph: DiGraph<Step, u32>,
    len: usize,
}

/// Start times of every step, the result of the fixpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Schedule {
    start: Vec<u64>,
    /// The largest start time: the best-case time `t_B` of the sequence.
    pub length: u64,
}

impl Schedule {
    /// When `stage` of instruction `instr` starts.
    pub fn start(&self, instr: usize, stage: Stage) -> u64 {
        self.start[node_index(instr, stage).index()]
    }

    /// Number of instructions scheduled.
    pub fn len(&self) -> usize {
        self.start.len() / Stage::ALL.len()
    }

    /// The schedule of instructions that were given in `order` (the `k`-th scheduled
    /// instruction is `order[k]` of the original sequence), indexed by the original
    /// positions.
    pub fn in_original_order(self, order: &[usize]) -> Schedule {
        let mut start = vec![0; self.start.len()];
        for (k, &i) in order.iter().enumerate() {
            for stage in Stage::ALL {
                start[node_index(i, stage).index()] = self.start[node_index(k, stage).index()];
            }
        }
        Schedule {
            start,
            length: self.length,
        }
    }

    /// Whether no instruction was scheduled.
    pub fn is_empty(&self) -> bool {
        self.start.is_empty()
    }
}

fn node_index(instr: usize, stage: Stage) -> NodeIndex {
    NodeIndex::new(instr * Stage::ALL.len() + stage as usize)
}

impl ExecutionGraph {
    /// Builds the graph of `instrs` executed in order by one warp on `arch`.
    pub fn build(arch: &Architecture, instrs: &[Instr]) -> Self {
        use Stage::*;
        let fe = &arch.frontend;
        let n = instrs.len();
        let mut graph = DiGraph::with_capacity(n * 5, n * 12);
        for instr in 0..n {
            for stage in Stage::ALL {
                graph.add_node(Step { instr, stage });
            }
        }
        let mut edge = |from: (usize, Stage), to: (usize, Stage), latency: u32| {
            graph.add_edge(node_index(from.0, from.1), node_index(to.0, to.1), latency);
        };
        let timings: Vec<_> = instrs.iter().map(|i| arch.describe_instr(i)).collect();
        let group = fe.fetch_group as usize;
        let wb_width = fe.writeback_width as usize;
        // For each unit, the instructions seen on it so far (for the k-copies edges).
        let mut on_unit: Vec<Vec<usize>> = vec![Vec::new(); arch.units.len()];
        // The instructions that write back in order so far.
        let mut in_order_wb: Vec<usize> = Vec::with_capacity(n);
        // The instructions that issue, in order (an absorbed one does not: fetch groups and
        // the issue interval count the others).
        let mut issued: Vec<usize> = Vec::with_capacity(n);
        // The latest writers of each register so far (read-after-write edges): the
        // instruction itself, or for one absorbed into an access's addressing, what it
        // read (its reader waits for that).
        let mut last_writer: std::collections::HashMap<_, Vec<usize>> =
            std::collections::HashMap::new();

        for (i, (instr, timing)) in instrs.iter().zip(&timings).enumerate() {
            let mut producers: Vec<usize> = instr
                .reads
                .iter()
                .filter_map(|r| last_writer.get(r))
                .flatten()
                .copied()
                .collect();
            producers.sort_unstable();
            producers.dedup();
            if arch.folds(instr) {
                // No step of its own: its nodes stay unconnected (start 0).
                for &w in &instr.writes {
                    last_writer.insert(w, producers.clone());
                }
                continue;
            }
            // The instruction's own pipeline.
            edge((i, Fetch), (i, Issue), fe.fetch_to_issue);
            edge((i, Issue), (i, Operand), fe.issue_to_operand);
            edge(
                (i, Operand),
                (i, Execute),
                instr.operand_reads.max(1) * fe.operand_cycles_per_read,
            );
            edge((i, Execute), (i, Writeback), timing.latency);
            // In program order: fetch in groups, one issue per interval; after a branch,
            // fetch waits for it to resolve.
            if let Some(&p) = issued.last() {
                edge((p, Fetch), (i, Fetch), 0);
                if instrs[p].branch && fe.branch_to_fetch > 0 {
                    edge((p, Execute), (i, Fetch), fe.branch_to_fetch);
                }
                edge((p, Issue), (i, Issue), fe.issue_interval);
            }
            if issued.len() >= group {
                edge(
                    (issued[issued.len() - group], Fetch),
                    (i, Fetch),
                    fe.refill_gap,
                );
            }
            issued.push(i);
            // Results leave the execution pipelines in order, `writeback_width` a cycle. A
            // memory access the front end analysed writes back through the load/store
            // unit's own port when its data arrives, outside that order (GPGPU-Sim's
            // ldst_unit::writeback), so a long miss holds back no later instruction; so
            // does a texture fetch.
            if instr.access.is_none() && instr.class != OpClass::Texture {
                if in_order_wb.len() >= wb_width {
                    let p = in_order_wb[in_order_wb.len() - wb_width];
                    edge((p, Writeback), (i, Writeback), 1);
                }
                in_order_wb.push(i);
            }
            // A unit with k copies: the k-th earlier instruction on it must have initiated.
            let seen = &mut on_unit[timing.unit];
            let k = timing.copies as usize;
            if seen.len() >= k {
                let p = seen[seen.len() - k];
                edge((p, Execute), (i, Execute), timings[p].initiation);
            }
            seen.push(i);
            // Data: the result must be written back before a reader issues.
            for p in producers {
                edge((p, Writeback), (i, Issue), fe.writeback_to_issue);
            }
            for &w in &instr.writes {
                last_writer.insert(w, vec![i]);
            }
        }
        ExecutionGraph { graph, len: n }
    }

    /// Number of instructions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the graph has no instruction.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All nodes in a topological order (index order, by the type's invariant).
    pub fn topological_order(&self) -> Vec<NodeIndex> {
        self.graph.node_indices().collect()
    }

    /// Every edge as (from step, to step, latency).
    pub fn edges(&self) -> impl Iterator<Item = (Step, Step, u32)> + '_ {
        self.graph
            .edge_references()
            .map(move |e| (self.graph[e.source()], self.graph[e.target()], *e.weight()))
    }

    /// The fixpoint in topological order (Algorithm 1; one sweep suffices).
    pub fn schedule(&self) -> Schedule {
        self.schedule_in_order(&self.topological_order())
    }

    /// Algorithm 1 visiting the nodes in `order` until nothing changes. Any order that
    /// contains every node reaches the same fixpoint (the longest paths from the sources);
    /// a topological order reaches it in one sweep.
    pub fn schedule_in_order(&self, order: &[NodeIndex]) -> Schedule {
        assert_eq!(
            order.len(),
            self.graph.node_count(),
            "order must visit every node"
        );
        let mut start = vec![0u64; self.graph.node_count()];
        let mut length = 0;
        let mut changed = true;
        while changed {
            changed = false;
            for &s in order {
                for e in self.graph.edges_directed(s, Direction::Incoming) {
                    let candidate = start[e.source().index()] + u64::from(*e.weight());
                    if start[s.index()] < candidate {
                        start[s.index()] = candidate;
                        length = length.max(candidate);
                        changed = true;
                    }
                }
            }
        }
        Schedule { start, length }
    }

    /// The largest latency of an edge from an instruction before `split` to one at or
    /// after it: the most a block boundary at `split` can add to a path.
    pub fn max_crossing_latency(&self, split: usize) -> u32 {
        self.edges()
            .filter(|(from, to, _)| from.instr < split && to.instr >= split)
            .map(|(_, _, latency)| latency)
            .max()
            .unwrap_or(0)
    }
}
