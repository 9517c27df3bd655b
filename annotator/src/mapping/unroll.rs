//! Loops the compiler unrolled at run time (an unrolled loop and a remainder loop) or
//! copied by unrolling the loops around them completely: which PTX blocks are the copies
//! of one source loop's body, so that the annotated code can count them
//! (`codegen`'s counted loops).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::blocks::FunctionAnalysis;
use crate::front::source::cfg::SourceCfg;
use crate::ids::{PtxBlock, SourceBlockId};
use crate::mapping::matching::{innermost_loop, source_loops, BlockMap, BlockMatch, SourceRef};

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
    pub ptx_blocks: Vec<PtxBlock>,
    /// The blocks of the source loop around the body (in the body's function): leaving
    /// them is when the count is charged.
    pub source_loop: Vec<SourceBlockId>,
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
    pub enter: SourceBlockId,
    /// The source block that enters the outermost loop the compiler unrolled completely.
    pub reset: SourceBlockId,
    /// How many loops around this one the compiler unrolled completely.
    pub unrolled_levels: usize,
}

/// The PTX blocks of an unrolled loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnrollShape {
    /// The block holding `factor` copies of the body.
    pub main: PtxBlock,
    /// The block holding one copy (the remainder loop, or for two copies in `main` a
    /// block outside any loop: a remainder of at most one iteration), if the trip count
    /// needs one.
    pub remainder: Option<PtxBlock>,
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
            by_source.entry(s).or_default().push(m.ptx_block.index());
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
            let source_loop = innermost_source_loop(cfg, s.block.index()).unwrap_or_default();
            let copied = loop_copies(map, analysis, cfg, s.block.index(), &in_loop, &outside);
            // A PTX loop holding code of the body that lost its mapping (to dominance
            // preservation: a copy of the loop behind a copy of other code of the loops
            // around it) would run uncounted.
            let lost = map.blocks.iter().any(|m| {
                m.source.is_none()
                    && m.within.is_none()
                    && innermost_loop(m.ptx_block.index()).is_some()
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
                        if o != s
                            && o.function == s.function
                            && source_loop.contains(&o.block.index()) =>
                    {
                        !ptx_loops.contains(&m.ptx_block.index())
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
                            .map(PtxBlock::index)
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
                        main: PtxBlock(main),
                        remainder: Some(PtxBlock(remainder)),
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
                            main: PtxBlock(main),
                            remainder: Some(PtxBlock(remainder)),
                            factor,
                        })
                    }
                    // A loop of copies alone (a trip count the copies divide).
                    [main] if !source_loop.is_empty() && copies(main) > 1 => clean(&[main])
                        .then_some(UnrollShape {
                            main: PtxBlock(main),
                            remainder: None,
                            factor: copies(main),
                        }),
                    _ => None,
                },
            };
            Some(UnrolledLoop {
                source: s.clone(),
                ptx_blocks: blocks.into_iter().map(PtxBlock).collect(),
                source_loop: source_loop.into_iter().map(SourceBlockId).collect(),
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
            let o_block = o.block.index();
            o.function != cfg.function || o_block == body || !around[levels].contains(&o_block)
        })
    });
    if !alone {
        return None;
    }
    let enter = entry_of(&around[0])?;
    let reset = entry_of(&around[levels])?;
    let placed =
        |b: usize| cfg.blocks[b].insertion != crate::front::source::cfg::Insertion::Nothing;
    if !placed(enter) || !placed(reset) {
        return None;
    }
    let order = copy_order(analysis, in_loop)?;
    let shapes = copy_shapes(map, &order)?;
    Some(LoopCopies {
        shapes,
        enter: SourceBlockId(enter),
        reset: SourceBlockId(reset),
        unrolled_levels: levels,
    })
}

/// The PTX copies `in_loop` in the order they run: a copy runs before those it reaches
/// without passing the header of a PTX loop around them all; `None` unless that is a
/// total order.
fn copy_order(analysis: &FunctionAnalysis, in_loop: &[usize]) -> Option<Vec<usize>> {
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
    Some(order)
}

/// The unrolled loops among the copies in `order`: each main loop (the most copies of
/// the body) with the remainder after it (or, where the first block is a remainder, before
/// it); `None` unless there are at least two and every remainder pairs with one main.
fn copy_shapes(map: &BlockMap, order: &[usize]) -> Option<Vec<UnrollShape>> {
    let copies = |b: usize| map.blocks[b].copies;
    let most = order.iter().map(|&b| copies(b)).max()?;
    let is_main = |b: usize| copies(b) == most;
    let mains = order.iter().filter(|&&b| is_main(b)).count();
    if mains < 2 {
        return None;
    }
    let remainder_first = !is_main(order[0]);
    let mut shapes = Vec::new();
    let mut pending: Option<usize> = None;
    let mut groups: Vec<(usize, Option<usize>)> = Vec::new();
    for &b in order {
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
            main: PtxBlock(main),
            remainder: remainder.map(PtxBlock),
            factor,
        });
    }
    Some(shapes)
}

/// The blocks of the innermost natural loop of `cfg` containing `block`.
fn innermost_source_loop(cfg: &SourceCfg, block: usize) -> Option<Vec<usize>> {
    source_loops(cfg)
        .into_iter()
        .filter(|body| body.contains(&block))
        .min_by_key(|body| body.len())
}

/// How many times as many copies of its source block's code `main` holds as `other`: at
/// each position both hold, the largest ratio of their instructions of one operation
/// (of each block's most repeated one where they share none), the smallest over the
/// positions (rounded); the ratio of their `copies` when they share no position. An
/// operation of `main` that `other` lacks is the compiler's rewrite, not a copy: DCT's
/// `inverse ? i * w + k : k * w + i` unrolled by 4 holds four `selp` and seven `add` (the
/// first copy's index adds once, the later ones twice, strength-reduced) where its
/// remainder holds one `selp` and no `add`: 4, not 7.
fn copies_ratio(main: &BlockMatch, other: &BlockMatch) -> u64 {
    let others = other.position_copies();
    main.position_copies()
        .iter()
        .filter_map(|(p, &m)| {
            let o = *others.get(p)?;
            let shared = other
                .operations
                .iter()
                .filter(|((l, c, _), &n)| (*l, *c) == *p && n > 0)
                .filter_map(|(op, &n)| {
                    let k = *main.operations.get(op)?;
                    Some(k as f64 / n as f64)
                })
                .fold(None, |most: Option<f64>, r| {
                    Some(most.map_or(r, |x| x.max(r)))
                });
            Some(shared.unwrap_or(m as f64 / o as f64).round() as u64)
        })
        .min()
        .unwrap_or_else(|| (main.copies as f64 / other.copies.max(1) as f64).round() as u64)
}
