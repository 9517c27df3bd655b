//! The binary (PTX) control-flow graph of a function: petgraph graph, dominators, natural
//! loops.

use petgraph::algo::dominators::{self, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use serde::{Deserialize, Serialize};

use crate::ptx::Function;

/// A natural loop: a header and the blocks of its body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NaturalLoop {
    /// The block every iteration enters through.
    pub header: usize,
    /// Blocks with a back edge to the header.
    pub latches: Vec<usize>,
    /// All blocks of the loop, header included, ascending.
    pub body: Vec<usize>,
}

/// The control-flow graph of one function; node `i` is block `i`, block 0 the entry.
#[derive(Debug, Clone)]
pub struct Cfg {
    graph: DiGraph<usize, ()>,
    dominators: Option<Dominators<NodeIndex>>,
    /// Natural loops, ordered by header.
    pub loops: Vec<NaturalLoop>,
}

impl Cfg {
    /// The CFG of `f` (from its blocks' successor lists).
    pub fn new(f: &Function) -> Self {
        let mut graph = DiGraph::with_capacity(f.blocks.len(), f.blocks.len() * 2);
        for b in 0..f.blocks.len() {
            graph.add_node(b);
        }
        for (b, block) in f.blocks.iter().enumerate() {
            for &s in &block.successors {
                graph.add_edge(NodeIndex::new(b), NodeIndex::new(s), ());
            }
        }
        let dominators =
            (graph.node_count() > 0).then(|| dominators::simple_fast(&graph, NodeIndex::new(0)));
        let mut cfg = Cfg {
            graph,
            dominators,
            loops: Vec::new(),
        };
        cfg.loops = cfg.find_loops();
        cfg
    }

    /// Every edge (from, to), in block order.
    pub fn edges(&self) -> Vec<(usize, usize)> {
        let mut e: Vec<_> = self
            .graph
            .edge_references()
            .map(|e| (e.source().index(), e.target().index()))
            .collect();
        e.sort_unstable();
        e
    }

    /// Whether block `a` dominates block `b` (every path from the entry to `b` passes `a`).
    /// Unreachable blocks are dominated by nothing.
    pub fn dominates(&self, a: usize, b: usize) -> bool {
        let Some(doms) = &self.dominators else {
            return false;
        };
        doms.dominators(NodeIndex::new(b))
            .is_some_and(|mut it| it.any(|d| d.index() == a))
    }

    /// The immediate dominator of `b`.
    pub fn immediate_dominator(&self, b: usize) -> Option<usize> {
        self.dominators
            .as_ref()?
            .immediate_dominator(NodeIndex::new(b))
            .map(|n| n.index())
    }

    /// Whether (from, to) is a back edge (`to` dominates `from`).
    pub fn is_back_edge(&self, from: usize, to: usize) -> bool {
        self.dominates(to, from)
    }

    /// How many loops contain block `b`.
    pub fn loop_depth(&self, b: usize) -> usize {
        self.loops.iter().filter(|l| l.body.contains(&b)).count()
    }

    fn find_loops(&self) -> Vec<NaturalLoop> {
        let mut loops: Vec<NaturalLoop> = Vec::new();
        for (from, to) in self.edges() {
            if !self.is_back_edge(from, to) {
                continue;
            }
            let mut body = natural_loop_body(to, from, |b| {
                self.graph
                    .neighbors_directed(NodeIndex::new(b), Direction::Incoming)
                    .map(|n| n.index())
                    .collect()
            });
            match loops.iter_mut().find(|l| l.header == to) {
                Some(l) => {
                    l.latches.push(from);
                    l.body.extend(body);
                    l.body.sort_unstable();
                    l.body.dedup();
                }
                None => {
                    body.sort_unstable();
                    loops.push(NaturalLoop {
                        header: to,
                        latches: vec![from],
                        body,
                    });
                }
            }
        }
        loops.sort_by_key(|l| l.header);
        loops
    }
}

/// The body of the natural loop of back edge `latch -> header`: the header and every block
/// that reaches the latch without passing the header. `predecessors` lists a block's.
pub fn natural_loop_body(
    header: usize,
    latch: usize,
    predecessors: impl Fn(usize) -> Vec<usize>,
) -> Vec<usize> {
    let mut body = vec![header];
    let mut stack = vec![latch];
    while let Some(b) = stack.pop() {
        if body.contains(&b) {
            continue;
        }
        body.push(b);
        stack.extend(predecessors(b));
    }
    body
}
