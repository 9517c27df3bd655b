//! The matching's rules of order: the annotated kernel passes its timing points in the
//! order its source runs them, so a PTX block whose image would come in another order
//! than the PTX's is unmapped (its time is then charged on the paths through it).
//! Dominance preserved and reflected, loops the compiler enters unguarded, and a block's
//! code after its call of a helper timed in its own right.

use std::collections::BTreeMap;

use super::{innermost_loop, source_loops, BlockMatch, SourceRef};
use crate::analysis::blocks::FunctionAnalysis;
use crate::front::cfg::Cfg;
use crate::front::ptx::Function;
use crate::front::source::cfg::SourceCfg;
use crate::front::source::{AstNode, NodeKind, SourceFile};

/// Dominance preservation, for blocks mapped into the kernel's own body (`kernel_cfg` is
/// its source CFG): a block whose image breaks it loses its mapping (see the module's
/// documentation).
pub(super) fn preserve_dominance(
    blocks: &mut [BlockMatch],
    kernel: &Function,
    analysis: &FunctionAnalysis,
    ptx_cfg: &Cfg,
    kernel_cfg: &SourceCfg,
) {
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
                let (sa_block, s_block) = (sa.block.index(), s.block.index());
                let reason = if !kernel_cfg.dominates(sa_block, s_block)
                    && !entered_loop(kernel_cfg, sa_block, s_block)
                {
                    Some(format!(
                        "its dominator B{a} maps to S{}, which does not dominate S{}",
                        sa.block, s.block
                    ))
                } else if sa.block != s.block
                    && same_iteration(a, id)
                    && kernel_cfg.post_dominates(s_block, sa_block)
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
                    blocks[id].unmap(reason);
                }
                break;
            }
            d = ptx_cfg.immediate_dominator(a);
        }
    }
}

/// Dominance reflected, for blocks mapped into the kernel's own body outside its loops
/// (an unrolled loop's copies are images of one source block each, and a later copy
/// dominates no earlier one): where source block `Sa` runs before `Sb` on every path
/// (dominates it), some image of `Sa` must dominate each image of `Sb`. An image of `Sa`
/// that runs on fewer paths than `Sa` breaks it: the branch of `if (c)` that the compiler left holding
/// the condition's last instruction (`if (lid == 0) {..} else if (lid == n - 1) {..}`:
/// the one-instruction block on the way to the first arm carries the first condition's
/// position, while the second condition runs after the first in the source). Mapped, its
/// source block's probe (which every work-item passes) would charge the first arm's path
/// to every work-item; unmapped, its time is charged on the paths through it.
pub(super) fn reflect_dominance(
    blocks: &mut [BlockMatch],
    kernel: &Function,
    ptx_cfg: &Cfg,
    kernel_cfg: &SourceCfg,
    source_depths: &[usize],
) {
    let mapped = outside_loops(blocks, kernel, source_depths);
    let mut broken: Vec<(usize, String)> = Vec::new();
    for &(b, sb) in &mapped {
        let dominators = mapped.iter().filter(|&&(_, sa)| {
            sa != sb && kernel_cfg.dominates(sa, sb) && !entered_loop(kernel_cfg, sa, sb)
        });
        // Per dominating source block, its images; broken where none of them dominates
        // `b`.
        let mut by_source: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &(a, sa) in dominators {
            by_source.entry(sa).or_default().push(a);
        }
        for (sa, images) in by_source {
            if images.iter().all(|&a| !ptx_cfg.dominates(a, b)) {
                for a in images {
                    let reason = format!(
                        "S{sa} runs before S{sb} on every path, but B{a} does not dominate \
                         B{b}, which maps there"
                    );
                    broken.push((a, reason));
                }
            }
        }
    }
    // An image that breaks it for several blocks keeps the first reason.
    for (a, reason) in broken {
        if blocks[a].source.is_some() {
            blocks[a].unmap(reason);
        }
    }
}

/// Two images of one source block on one path, outside loops (AMD's `blockAddition`: the
/// kernel's first block and, after `if (localId == 0) {..}`, the join that the compiler
/// sank the first block's `get_global_id` into; Parboil's `histo_prescan`: the exit of a
/// `while` and the join after it): the block's probe runs once, where the block starts,
/// so the state reaches the first image and never the later one, whose transitions to
/// every later timing point are dead (`histo_prescan` was charged nothing after its first
/// loop). An image that post-dominates another image of its source block is unmapped:
/// its time is charged on the paths through it. (Unmapping the earlier image instead made
/// the state jump to `blockAddition`'s join before its arm's probe.)
pub(super) fn unmap_chained_images(
    blocks: &mut [BlockMatch],
    kernel: &Function,
    ptx_cfg: &Cfg,
    source_depths: &[usize],
) {
    let mapped = outside_loops(blocks, kernel, source_depths);
    let post = ptx_cfg.post_dominators();
    // Each later image, with an earlier one it follows on every path, and their block.
    let later: Vec<(usize, usize, usize)> = mapped
        .iter()
        .filter_map(|&(b, s)| {
            let (a, _) = mapped
                .iter()
                .find(|&&(a, t)| t == s && a != b && post.post_dominates(b, a))?;
            Some((b, *a, s))
        })
        .collect();
    for (b, a, s) in later {
        blocks[b].unmap(format!(
            "it runs on every path after B{a}, another image of S{s}, and the block's probe \
             runs once"
        ));
    }
}

/// A block's code after a call it makes to a helper timed in its own right (one with a
/// source CFG, inlined into the kernel): the block's probe runs where the block starts,
/// before the call, so in the annotated kernel the helper's probes follow it. An image of
/// the block that the helper's code dominates (SHOC sort's `FPTYPE res =
/// scanLocalMem(val, lmem, 1);` and the `if` after it, whose PTX all follows the scan)
/// would be a timing point after the helper's, which the probes never pass in that order:
/// in the loop around it every other pass charged the scan and the others the code
/// between. Unmapped, its time is charged on the paths from the helper's blocks to the
/// next timing point. The helper's code counts as this call's where it runs after code
/// of a source block that runs before the caller's on every path: code of the helper
/// that runs before all of them (mapped to it from the kernel's first block, as in
/// `else_if_arms`) belongs to another call.
pub(super) fn unmap_code_after_calls(
    blocks: &mut [BlockMatch],
    file: &SourceFile,
    ptx_cfg: &Cfg,
    cfgs: &[SourceCfg],
    source_at: &dyn Fn(u32, u32) -> Option<SourceRef>,
) {
    let cfg_of = |name: &str| cfgs.iter().find(|c| c.function == name);
    let callers = timed_calls(file, &|name| cfg_of(name).is_some(), source_at);
    let mut after: Vec<(usize, String)> = Vec::new();
    for (b, m) in blocks.iter().enumerate() {
        let Some(source) = &m.source else {
            continue;
        };
        let helpers: Vec<&String> = callers
            .iter()
            .filter(|(s, _)| s == source)
            .map(|(_, h)| h)
            .collect();
        let Some(cfg) = cfg_of(&source.function).filter(|_| !helpers.is_empty()) else {
            continue;
        };
        // Images of the source blocks that run before this one on every path.
        let before: Vec<usize> = blocks
            .iter()
            .enumerate()
            .filter(|(_, a)| {
                a.source.as_ref().is_some_and(|s| {
                    s.function == source.function
                        && s.block != source.block
                        && cfg.dominates(s.block.index(), source.block.index())
                })
            })
            .map(|(a, _)| a)
            .collect();
        for helper in helpers {
            let dominated_by = blocks.iter().enumerate().find(|(h, q)| {
                *h != b
                    && q.source.as_ref().is_some_and(|s| &s.function == helper)
                    && ptx_cfg.dominates(*h, b)
                    && before.iter().any(|&a| ptx_cfg.dominates(a, *h))
            });
            if let Some((h, _)) = dominated_by {
                after.push((
                    b,
                    format!(
                        "{}:S{} calls `{helper}`, whose code (B{h}) runs before this block's; \
                         its probe runs before the call",
                        source.function,
                        source.block.index()
                    ),
                ));
                break;
            }
        }
    }
    for (b, reason) in after {
        blocks[b].unmap(reason);
    }
}

/// The source blocks that call a function `timed` accepts (not themselves), each with
/// the function: where `source_at` puts the call's position.
fn timed_calls(
    file: &SourceFile,
    timed: &dyn Fn(&str) -> bool,
    source_at: &dyn Fn(u32, u32) -> Option<SourceRef>,
) -> Vec<(SourceRef, String)> {
    /// The calls under `n` of a timed function other than `caller`.
    fn calls_in<'n>(
        n: &'n AstNode,
        caller: &str,
        timed: &dyn Fn(&str) -> bool,
        out: &mut Vec<&'n AstNode>,
    ) {
        if n.kind == NodeKind::Call && n.spelling != caller && timed(&n.spelling) {
            out.push(n);
        }
        for c in &n.children {
            calls_in(c, caller, timed, out);
        }
    }
    let mut callers: Vec<(SourceRef, String)> = Vec::new();
    for f in &file.functions {
        let mut calls = Vec::new();
        calls_in(&f.body, &f.name, timed, &mut calls);
        for call in calls {
            let at = source_at(call.extent.start.line, call.extent.start.col);
            if let Some(s) = at.filter(|s| s.function == f.name) {
                let caller = (s, call.spelling.clone());
                if !callers.contains(&caller) {
                    callers.push(caller);
                }
            }
        }
    }
    callers
}

/// Whether source block `a` lies in a loop that the code before `b` runs through: a loop
/// whose header dominates `b`, with `a` in its body and `b` after it. A compiler that
/// proves such a loop runs at least once (`for (i = lid; i < N; i += size)` with `N` at
/// least the largest work-group, `for (q = 0; q < 16; q++)`) enters its body unguarded,
/// so in the PTX the body dominates the code after the loop, though in the source it may
/// not. The loop may itself lie in another (a histogram cleared at the top of every pass
/// of a `while`): `b` runs on into the outer loop's next pass, but not into this loop.
fn entered_loop(cfg: &SourceCfg, a: usize, b: usize) -> bool {
    source_loops(cfg).iter().any(|body| {
        // `natural_loop_body` lists the header first.
        let h = body[0];
        h != a && body.contains(&a) && !body.contains(&b) && cfg.dominates(h, b)
    })
}

/// The PTX blocks mapped to blocks of the kernel's own body outside its source loops, each
/// with its source block (whose probe runs at most once a work-item).
fn outside_loops(
    blocks: &[BlockMatch],
    kernel: &Function,
    source_depths: &[usize],
) -> Vec<(usize, usize)> {
    blocks
        .iter()
        .enumerate()
        .filter_map(|(id, m)| {
            let s = m.source.as_ref().filter(|s| s.function == kernel.name)?;
            let s = s.block.index();
            (source_depths[s] == 0).then_some((id, s))
        })
        .collect()
}
