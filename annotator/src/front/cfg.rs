//! The binary (PTX) control-flow graph of a function: petgraph graph, dominators, natural
//! loops.

use petgraph::algo::dominators::{self, Dominators};
use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;
use serde::{Deserialize, Serialize};

use crate::front::ptx::Function;

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

    /// The post-dominators, the blocks without successors being the exits.
    pub fn post_dominators(&self) -> PostDominators {
        let n = self.graph.node_count();
        let successors = |b: usize| -> Vec<usize> {
            self.graph
                .neighbors(NodeIndex::new(b))
                .map(|s| s.index())
                .collect()
        };
        let exits: Vec<usize> = (0..n).filter(|&b| successors(b).is_empty()).collect();
        PostDominators::new(n, successors, exits)
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

/// Post-dominance over a graph: `a` post-dominates `b` when every path from `b` to an exit
/// passes `a`. Computed as dominance over the reversed graph, from a virtual node every
/// exit leads to; a node that reaches no exit is post-dominated by nothing.
#[derive(Debug, Clone)]
pub struct PostDominators {
    dominators: Dominators<NodeIndex>,
}

impl PostDominators {
    /// The post-dominators of the graph of `n` nodes with `successors`, whose exits are
    /// `exits`.
    pub fn new(
        n: usize,
        successors: impl Fn(usize) -> Vec<usize>,
        exits: impl IntoIterator<Item = usize>,
    ) -> Self {
        let mut reversed = DiGraph::<(), ()>::with_capacity(n + 1, 2 * n + 1);
        for _ in 0..=n {
            reversed.add_node(());
        }
        for b in 0..n {
            for s in successors(b) {
                reversed.add_edge(NodeIndex::new(s), NodeIndex::new(b), ());
            }
        }
        let end = NodeIndex::new(n);
        for e in exits {
            reversed.add_edge(end, NodeIndex::new(e), ());
        }
        PostDominators {
            dominators: dominators::simple_fast(&reversed, end),
        }
    }

    /// The strict post-dominator of `b` that every other one post-dominates (where the
    /// paths from `b` meet again), if `b` reaches an exit and an exit is not the next step.
    pub fn immediate_post_dominator(&self, b: usize) -> Option<usize> {
        let end = self.dominators.root();
        self.dominators
            .immediate_dominator(NodeIndex::new(b))
            .filter(|&d| d != end)
            .map(|d| d.index())
    }

    /// Whether `a` post-dominates `b` (a node post-dominates itself).
    pub fn post_dominates(&self, a: usize, b: usize) -> bool {
        self.dominators
            .dominators(NodeIndex::new(b))
            .is_some_and(|mut it| it.any(|d| d.index() == a))
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

#[cfg(test)]
mod tests {
    use super::PostDominators;

    /// A guarded loop: 0 -> 1 (preheader) -> 2 (loop) -> 3 (its exit block) -> 4 (the
    /// join and return), and 0 -> 4 (the guard skipping the loop); 5 loops forever.
    #[test]
    fn post_dominance_of_a_guarded_loop() {
        let succ: [&[usize]; 6] = [&[1, 4], &[2], &[2, 3], &[4], &[], &[5]];
        let p = PostDominators::new(6, |b| succ[b].to_vec(), [4]);
        assert!(
            p.post_dominates(4, 0),
            "the join runs whenever the entry runs"
        );
        assert!(!p.post_dominates(3, 0), "the loop's exit block does not");
        assert!(!p.post_dominates(1, 0));
        assert!(p.post_dominates(3, 1) && p.post_dominates(3, 2) && p.post_dominates(2, 1));
        assert!(p.post_dominates(0, 0), "a node post-dominates itself");
        assert!(
            !p.post_dominates(5, 5),
            "a node that reaches no exit has none"
        );
        assert!(!p.post_dominates(4, 5));
        assert_eq!(p.immediate_post_dominator(0), Some(4));
        assert_eq!(p.immediate_post_dominator(1), Some(2));
        assert_eq!(p.immediate_post_dominator(2), Some(3));
        assert_eq!(
            p.immediate_post_dominator(4),
            None,
            "an exit's is the virtual end"
        );
        assert_eq!(p.immediate_post_dominator(5), None, "it reaches no exit");
    }
}
