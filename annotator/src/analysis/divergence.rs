//! Divergent branches: where the lanes of a warp may take different paths, which a GPU then
//! runs one after the other, the warp's lanes masked off on the path they do not take.
//!
//! A conditional branch diverges when its predicate is not the same in every lane
//! ([`crate::analysis::access`]'s lane analysis: `if (get_global_id(0) % 2)` does, `if (n > 4)` does
//! not). Each of its two sides is an *arm*: the blocks reachable from that successor before
//! the branch's immediate post-dominator (where the paths meet again). Branches that
//! leave or close a loop (a side that comes back to the branch) are no arms: a warp runs a
//! loop until its last lane is done, which the slowest lane's time already says; nor are
//! branches with an empty side (an `if` without `else`), for the same reason. Each
//! block belongs to its innermost arm, so that nested divergence is serialised too.
//!
//! The annotated kernel adds the cycles charged in each arm to a counter of that arm, and
//! counts its entries into each arm and the decisions of each arm's branch (the entries
//! into either side: [`ArmTree::entered`]); the model then times a warp as the slowest
//! lane outside the arms plus, for every arm, what the warp runs of it: inside a loop
//! whose lanes change sides, once an iteration any lane enters it
//! (`pipeline_model::warps`).

use serde::{Deserialize, Serialize};

use crate::analysis::access::lane_values;
use crate::front::cfg::Cfg;
use crate::front::ptx::{Function, Operand};
use crate::ids::PtxBlock;

/// At most this many arm counters per kernel: the record's bound
/// ([`pipeline_model::records::MAX_ARMS`]).
pub use pipeline_model::records::MAX_ARMS;

/// The arms of one kernel.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Arms {
    /// Per PTX block, the arm counter it is charged to (its innermost arm), if any.
    pub of_block: BlockArms,
    /// Arm counters (at most [`MAX_ARMS`]).
    pub count: usize,
    /// How the arms nest and pair.
    pub tree: ArmTree,
}

/// Per PTX block (by its index), the arm counter it is charged to, if any; empty for a
/// called function. A wrapper so that it is read by [`PtxBlock`], never by another id;
/// serialized as the bare list.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct BlockArms(pub Vec<Option<usize>>);

impl BlockArms {
    /// The arm counter PTX block `b` is charged to, if any.
    pub fn of(&self, b: PtxBlock) -> Option<usize> {
        self.0.get(b.index()).copied().flatten()
    }

    /// How many arm counters the blocks use: one more than the highest.
    pub fn counters(&self) -> usize {
        self.0.iter().flatten().max().map_or(0, |m| m + 1)
    }
}

/// How a kernel's arms nest and pair, per arm counter.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArmTree {
    /// The innermost arm holding all of its blocks, if any.
    pub parent: Vec<Option<usize>>,
    /// The other side of its branch, where that is an arm too.
    pub sibling: Vec<Option<usize>>,
}

impl ArmTree {
    /// The arm a path from PTX block `from` (`None`: the function's start) to block `to`
    /// enters: `to`'s arm (`of_block`), unless `from` lies in it already (in it, or in an
    /// arm nested in it).
    pub fn entered(
        &self,
        of_block: &BlockArms,
        from: Option<PtxBlock>,
        to: PtxBlock,
    ) -> Option<usize> {
        let arm = of_block.of(to)?;
        let mut inside = from.and_then(|u| of_block.of(u));
        while let Some(a) = inside {
            if a == arm {
                return None;
            }
            inside = self.parent.get(a).copied().flatten();
        }
        Some(arm)
    }
}

/// The blocks reachable from `start` without passing `stop`; `None` when `from` is among
/// them (the side returns to its branch: a loop's).
fn region(f: &Function, start: usize, stop: Option<usize>, from: usize) -> Option<Vec<usize>> {
    let n = f.blocks.len();
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    let mut out = Vec::new();
    while let Some(b) = stack.pop() {
        if b >= n || Some(b) == stop || seen[b] {
            continue;
        }
        if b == from {
            return None;
        }
        seen[b] = true;
        out.push(b);
        stack.extend(&f.blocks[b].successors);
    }
    Some(out)
}

/// The divergent arms of kernel `f`.
pub fn divergent_arms(f: &Function) -> Arms {
    let n = f.blocks.len();
    let lanes = lane_values(f);
    let pdom = Cfg::new(f).post_dominators();
    // Each region with the branch it is a side of (the first, where two branches give one).
    let mut regions: Vec<Vec<usize>> = Vec::new();
    let mut branch_of: Vec<usize> = Vec::new();
    for (b, block) in f.blocks.iter().enumerate() {
        let Some(last) = block.instrs.last() else {
            continue;
        };
        let Some(guard) = &last.guard else { continue };
        if last.base() != "bra" || block.successors.len() != 2 {
            continue;
        }
        let predicate = Operand::Reg {
            name: guard.reg.clone(),
            negated: false,
        };
        if lanes.operand(&predicate).is_uniform() {
            continue;
        }
        let join = pdom.immediate_post_dominator(b);
        let sides: Option<Vec<Vec<usize>>> = block
            .successors
            .iter()
            .map(|&s| region(f, s, join, b))
            .collect();
        // A branch with an empty side (an `if` without `else`, a bounds check) runs at
        // most one path: the slowest lane already says what the warp takes.
        if let Some(sides) = sides.filter(|s| s.iter().all(|r| !r.is_empty())) {
            for mut r in sides {
                r.sort_unstable();
                if !regions.contains(&r) {
                    regions.push(r);
                    branch_of.push(b);
                }
            }
        }
    }
    regions.truncate(MAX_ARMS);
    branch_of.truncate(MAX_ARMS);
    let mut of_block = vec![None; n];
    for (b, arm) in of_block.iter_mut().enumerate() {
        *arm = regions
            .iter()
            .enumerate()
            .filter(|(_, r)| r.contains(&b))
            .min_by_key(|(_, r)| r.len())
            .map(|(i, _)| i);
    }
    let sibling = (0..regions.len())
        .map(|i| (0..regions.len()).find(|&j| j != i && branch_of[j] == branch_of[i]))
        .collect();
    // Nested arms are subsets of the arms around them: the smallest strict superset.
    let parent = regions
        .iter()
        .map(|r| {
            regions
                .iter()
                .enumerate()
                .filter(|(_, o)| o.len() > r.len() && r.iter().all(|b| o.contains(b)))
                .min_by_key(|(_, o)| o.len())
                .map(|(j, _)| j)
        })
        .collect();
    Arms {
        of_block: BlockArms(of_block),
        count: regions.len(),
        tree: ArmTree { parent, sibling },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::ptx::parse;

    fn arms(body: &str) -> Arms {
        let src = format!(
            ".visible .entry k(.param .u32 k_param_0)\n{{\n.reg .pred %p<5>;\n.reg .b32 %r<20>;\n{body}\n}}\n"
        );
        let m = parse(&src).unwrap();
        divergent_arms(&m.functions[0])
    }

    /// `if (tid & 1) { A } else { B }`, then C: blocks 0 (branch), 1 (else), 2 (then), 3.
    const PARITY: &str = "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 1;\nsetp.eq.s32 %p1, %r2, 0;\n\
        @%p1 bra $L__A;\nadd.s32 %r3, %r1, 2;\nbra.uni $L__C;\n$L__A:\nadd.s32 %r3, %r1, 1;\n\
        $L__C:\nadd.s32 %r4, %r3, 1;\nret;";

    #[test]
    fn both_sides_of_a_branch_on_the_lane_are_arms() {
        let a = arms(PARITY);
        assert_eq!(a.count, 2);
        assert_eq!(a.of_block.0[0], None);
        assert!(a.of_block.0[1].is_some() && a.of_block.0[2].is_some());
        assert_ne!(a.of_block.0[1], a.of_block.0[2]);
        assert_eq!(a.of_block.0[3], None, "the join is outside both arms");
        let (then, other) = (a.of_block.0[2].unwrap(), a.of_block.0[1].unwrap());
        assert_eq!(a.tree.sibling[then], Some(other));
        assert_eq!(a.tree.sibling[other], Some(then));
        assert_eq!(a.tree.parent, [None, None]);
        // Into a side from the branch: an entry; from the side to the join: none.
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(0)), PtxBlock(2)),
            Some(then)
        );
        assert_eq!(a.tree.entered(&a.of_block, None, PtxBlock(1)), Some(other));
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(2)), PtxBlock(3)),
            None
        );
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(2)), PtxBlock(2)),
            None
        );
    }

    #[test]
    fn an_if_without_else_is_no_arm() {
        // if (tid & 1) { A }; C: one path at most, the slowest lane's.
        let a = arms(
            "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 1;\nsetp.eq.s32 %p1, %r2, 0;\n\
             @%p1 bra $L__C;\nadd.s32 %r3, %r1, 2;\n$L__C:\nadd.s32 %r4, %r1, 1;\nret;",
        );
        assert_eq!(a.count, 0);
    }

    #[test]
    fn a_branch_on_a_uniform_value_is_no_arm() {
        let uniform = PARITY.replace("mov.u32 %r1, %tid.x;", "ld.param.u32 %r1, [k_param_0];");
        assert_eq!(arms(&uniform).count, 0);
    }

    #[test]
    fn a_loop_exit_on_the_lane_is_no_arm() {
        // for (i = 0; i < tid; i++): the trip count diverges, the slowest lane says it.
        let a = arms(
            "mov.u32 %r1, %tid.x;\nmov.u32 %r2, 0;\n$L__H:\nadd.s32 %r2, %r2, 1;\n\
             setp.lt.s32 %p1, %r2, %r1;\n@%p1 bra $L__H;\nret;",
        );
        assert_eq!(a.count, 0);
    }

    #[test]
    fn a_nested_divergent_branch_gets_its_own_innermost_arms() {
        // if (tid & 1) { if (tid & 2) X else Y } else Z; W
        let a = arms(
            "mov.u32 %r1, %tid.x;\nand.b32 %r2, %r1, 1;\nsetp.eq.s32 %p1, %r2, 0;\n\
             @%p1 bra $L__Z;\nand.b32 %r5, %r1, 2;\nsetp.eq.s32 %p2, %r5, 0;\n@%p2 bra $L__Y;\n\
             add.s32 %r3, %r1, 7;\nbra.uni $L__W;\n$L__Y:\nadd.s32 %r3, %r1, 8;\nbra.uni $L__W;\n\
             $L__Z:\nadd.s32 %r3, %r1, 9;\n$L__W:\nadd.s32 %r4, %r3, 1;\nret;",
        );
        // Blocks: 0 branch, 1 inner branch, 2 X, 3 Y, 4 Z, 5 W.
        assert_eq!(a.count, 4);
        let arms: Vec<Option<usize>> = a.of_block.0.clone();
        assert_eq!(arms[0], None);
        assert_eq!(arms[5], None);
        let distinct: std::collections::BTreeSet<usize> =
            arms[1..5].iter().flatten().copied().collect();
        assert_eq!(distinct.len(), 4, "{arms:?}");
        // X and Y nest in the then-side (block 1, the inner branch, is in it), and pair.
        let (outer, x, y, z) = (
            arms[1].unwrap(),
            arms[2].unwrap(),
            arms[3].unwrap(),
            arms[4].unwrap(),
        );
        assert_eq!(a.tree.parent[x], Some(outer));
        assert_eq!(a.tree.parent[y], Some(outer));
        assert_eq!(a.tree.parent[outer], None);
        assert_eq!(a.tree.sibling[x], Some(y));
        assert_eq!(a.tree.sibling[outer], Some(z));
        // Back from X into the outer side's blocks is no entry of it; into X from its
        // branch is.
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(2)), PtxBlock(1)),
            None
        );
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(1)), PtxBlock(2)),
            Some(x)
        );
        assert_eq!(
            a.tree.entered(&a.of_block, Some(PtxBlock(0)), PtxBlock(1)),
            Some(outer)
        );
    }
}
