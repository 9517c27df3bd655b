//! Accesses whose addresses only the run can tell, found in the PTX and matched to their
//! subscripts in the source, so that the annotated program samples their indices
//! (`pipeline_model::sampling` turns the samples into what each warp did).
//!
//! An access qualifies where the lane analysis cannot resolve its address
//! ([`crate::analysis::access::unresolved_accesses`]) and its PTX instruction's `.loc` (line and
//! column, the subscript's first character in clang's line tables) is a subscript
//! `base[index]` of a kernel, written outside macros, whose base is a kernel parameter or
//! an array variable named directly: the same address in every work-item, so that the
//! index alone places each lane's access. Several PTX instructions of one subscript (an
//! unrolled loop's copies, the load and store of `a[i] += x`) make one site.
//!
//! What each execution was charged comes from the same steps the annotation charges: per
//! PTX block `v` holding the site's instructions, `t_(u,v) - t_u` from its predecessors
//! with them as one request and as a full gather gives the cycles per further request (the
//! path's slope), and with them at the L1 rather than the L2 the cycles an L1 hit saves;
//! the usage per request and per sector comes from the resource usage of the instruction
//! alone, which is linear in both. Where one block holds the loads of several sampled
//! accesses, what their L1 hits save is priced together ([`joint_l1`]).

use std::collections::BTreeMap;

use pipeline_model::{
    pair_cycles, schedule, Architecture, Instr, MemLevel, OpClass, ResourceUsage, SampledAccess,
};

use crate::analysis::access::{is_local, unresolved_accesses};
use crate::analysis::blocks::{model_function, same_file};
use crate::front::cfg::{Cfg, PostDominators};
use crate::front::opcode::{access_width, op_class, source_operands};
use crate::front::ptx::{Function, Instruction, Module};
use crate::front::source::{AstNode, NodeKind, Referent, Role, SourceFile};
use joint_l1::joint_savings;

mod joint_l1;

/// At most this many sampled accesses per file: each costs every record
/// `pipeline_model::sampling::COUNTERS` counters.
pub const MAX_SITES: usize = 32;

/// A PTX instruction's place: its block and its index there.
type Position = (usize, usize);

/// One sampled access: where its index is in the source, and what it was charged.
#[derive(Debug, Clone, PartialEq)]
pub struct Site {
    /// The kernel it is in.
    pub kernel: String,
    /// Byte offsets of its index expression, `[start, end)`.
    pub index: (u32, u32),
    /// The pointer variable its base is, where it is one
    /// ([`crate::front::source::Subscript::pointer`]): the sample records the address it
    /// selects, in elements.
    pub pointer: Option<String>,
    /// What the model needs of it.
    pub access: SampledAccess,
}

/// The sampled accesses of `kernels` (functions of `module`, compiled from `program`,
/// whose source is `source`), at most [`MAX_SITES`], in kernel then source order.
pub fn sampled_sites(
    module: &Module,
    kernels: &[&Function],
    source: &SourceFile,
    program: &str,
    arch: &Architecture,
) -> Vec<Site> {
    let mut sites = Vec::new();
    for f in kernels {
        let Some(body) = source.function(&f.name).map(|s| &s.body) else {
            continue;
        };
        let model = model_function(module, f);
        let cfg = Cfg::new(f);
        let mut preds = vec![Vec::new(); f.blocks.len()];
        for (u, b) in f.blocks.iter().enumerate() {
            for &v in &b.successors {
                preds[v].push(u);
            }
        }
        // Per subscript (its line and column), the PTX instructions that are its accesses.
        let mut instances: BTreeMap<(u32, u32), (&AstNode, Vec<Position>)> = BTreeMap::new();
        let mut unplaced = Vec::new();
        for (b, i) in unresolved_accesses(f) {
            let Some(loc) = f.blocks[b].instrs[i].loc.as_ref() else {
                unplaced.push((b, i));
                continue;
            };
            // Code inlined from a helper, or from another file, has no subscript here.
            let here = module.file(loc.file).is_some_and(|p| same_file(p, program));
            if loc.inlined_at.is_some() || !here || loc.line == 0 {
                unplaced.push((b, i));
                continue;
            }
            // Keyed by the subscript's place: a store's `.loc` is its assignment's
            // operator, a load's the subscript (`a[i] += x` is one site).
            let node = subscript_at(body, loc.line, loc.col)
                .or_else(|| initialiser_at(body, loc.line, loc.col));
            if let Some(node) = node {
                let at = node.extent.start;
                instances
                    .entry((at.line, at.col))
                    .or_insert_with(|| (node, Vec::new()))
                    .1
                    .push((b, i));
            } else {
                unplaced.push((b, i));
            }
        }
        let post = cfg.post_dominators();
        let mut merged = Vec::new();
        for (b, i) in unplaced {
            let same = instances
                .values_mut()
                .find(|(_, at)| at.iter().any(|&p| same_address(f, &cfg, &post, p, (b, i))));
            if let Some((_, at)) = same {
                at.push((b, i));
            } else {
                merged.push((b, i));
            }
        }
        for (b, i) in merged {
            let Some(node) = loop_subscript(f, &cfg, module, program, body, (b, i)) else {
                continue;
            };
            // A subscript with loads of its own is placed by them.
            let at = node.extent.start;
            instances
                .entry((at.line, at.col))
                .or_insert_with(|| (node, vec![(b, i)]));
        }
        let mut here: Vec<(Site, Vec<Position>)> = Vec::new();
        let mut full = false;
        for ((line, column), (node, at)) in instances {
            if sites.len() + here.len() == MAX_SITES {
                full = true;
                break;
            }
            let index = &node.children[1].extent;
            let subscript = node.subscript.as_ref().expect("subscript_at checks it");
            let width = access_width(&f.blocks[at[0].0].instrs[at[0].1]);
            let place = (line, column, width);
            if let Some(mut access) = charged(arch, &model.blocks, &preds, &at, place, subscript) {
                access.local = is_local(&f.blocks[at[0].0].instrs[at[0].1]);
                let site = Site {
                    kernel: f.name.clone(),
                    index: (index.start.offset, index.end.offset),
                    pointer: subscript.pointer.then(|| subscript.base.clone()),
                    access,
                };
                here.push((site, at));
            }
        }
        // Loads of several sampled accesses in one block save their trips together.
        let positions: Vec<&[Position]> = here.iter().map(|(_, at)| at.as_slice()).collect();
        let joint = joint_savings(arch, &model.blocks, &preds, &positions);
        for ((site, _), saved) in here.iter_mut().zip(joint) {
            if let Some(cycles) = saved {
                site.access.l1_cycles = cycles;
            }
        }
        // The loop's other loads: a sampled one's lines are what the run measures, the
        // rest as charged.
        let places: Vec<(&[Position], [u32; 2])> = here
            .iter()
            .map(|(s, at)| (at.as_slice(), [s.access.line, s.access.column]))
            .collect();
        let others: Vec<LoopLoads> = here
            .iter()
            .map(|(_, at)| loop_loads(&cfg, &model.blocks, at, &places))
            .collect();
        for ((mut site, _), loads) in here.into_iter().zip(others) {
            site.access.loop_lines = loads.lines;
            site.access.loop_peers = loads.peers;
            sites.push(site);
        }
        if full {
            return sites;
        }
    }
    sites
}

/// Whether the memory instructions at `a` and `b` of `f` access the same address in every
/// lane, as often: unguarded, of one class (global, shared, local) and width, their address the same
/// register and offset, its value the same at both (defined once in `f`, or not written
/// between the two in one block), in blocks that run as often (one dominates the other,
/// which post-dominates it, in the same loops). A store clang merged from both sides of a
/// branch (`if (up) { a[l] = x; } else { a[l] = y; }`: one store of a select, `.loc`
/// line 0) has no subscript of its own, and stores where the load before it read
/// (`a[l]`): the run's indices of that load place its lanes too.
fn same_address(f: &Function, cfg: &Cfg, post: &PostDominators, a: Position, b: Position) -> bool {
    let (a, b) = if cfg.dominates(a.0, b.0) && (a.0 != b.0 || a.1 < b.1) {
        (a, b)
    } else {
        (b, a)
    };
    let (x, y) = (&f.blocks[a.0].instrs[a.1], &f.blocks[b.0].instrs[b.1]);
    if x.guard.is_some() || y.guard.is_some() || op_class(x).0 != op_class(y).0 {
        return false;
    }
    if access_width(x) != access_width(y) {
        return false;
    }
    let (Some(address), Some(other)) = (x.address(), y.address()) else {
        return false;
    };
    let equivalent = a.0 == b.0
        || (cfg.dominates(a.0, b.0)
            && post.post_dominates(b.0, a.0)
            && cfg
                .loops
                .iter()
                .all(|l| l.body.contains(&a.0) == l.body.contains(&b.0)));
    if address != other || !equivalent {
        return false;
    }
    let registers = address.registers();
    let writes = |i: &Instruction| {
        let (dst, _) = source_operands(i);
        dst.iter()
            .flat_map(|o| o.registers())
            .any(|r| registers.contains(&r))
    };
    if a.0 == b.0 {
        !f.blocks[a.0].instrs[a.1..b.1].iter().any(writes)
    } else {
        f.blocks
            .iter()
            .flat_map(|k| &k.instrs)
            .filter(|i| writes(i))
            .count()
            <= 1
    }
}

/// The outermost subscript of `node` that starts at `line`:`col`, or is the left side of
/// an assignment whose operator is there (where clang puts a store's `.loc`), and can be
/// sampled: its base named directly, its index written here (not in a macro).
fn subscript_at(node: &AstNode, line: u32, col: u32) -> Option<&AstNode> {
    let starts_here = node.extent.start.line == line && node.extent.start.col == col;
    if starts_here && node.subscript.is_some() {
        // `a[i][j]`: the outer subscript is the access; an inner one at the same place
        // only selects a row.
        return sampleable(node).then_some(node);
    }
    if let (Some(Role::Assign | Role::CompoundAssign), [lhs, rhs]) =
        (&node.role, node.children.as_slice())
    {
        let here = (line, col);
        let operator_here = (lhs.extent.end.line, lhs.extent.end.col) <= here
            && here < (rhs.extent.start.line, rhs.extent.start.col);
        if operator_here && lhs.subscript.is_some() && sampleable(lhs) {
            return Some(lhs);
        }
    }
    // `a[i]++` and `++a[i]`: clang puts the load's and the store's `.loc` at the operator.
    if let (Some(Role::Step), [operand]) = (&node.role, node.children.as_slice()) {
        let here = (line, col);
        let at = |p: crate::front::source::Pos| (p.line, p.col);
        let on_operator = (at(node.extent.start) <= here && here < at(operand.extent.start))
            || (at(operand.extent.end) <= here && here < at(node.extent.end));
        if on_operator && operand.subscript.is_some() && sampleable(operand) {
            return Some(operand);
        }
    }
    node.children
        .iter()
        .find_map(|c| subscript_at(c, line, col))
}

/// The subscript a private variable named at `line`:`col` was initialised from
/// (`float4 p = pos[j]; ... p.x`), where that load is the variable's only write and runs
/// exactly when the use does. clang gives a load that only feeds such a variable the
/// `.loc` of the first use it was sunk to, not the subscript's. The subscript must be
/// sampleable, the variable never assigned, stepped or addressed after, and the use in
/// the declaration's own statement list with no branch, loop or exit between (so that
/// the declaration's executions, which the samples count, are the load's).
fn initialiser_at(body: &AstNode, line: u32, col: u32) -> Option<&AstNode> {
    let mut use_path = Vec::new();
    let decl = named_local_at(body, line, col, &mut use_path)?;
    let mut decl_path = Vec::new();
    if !find_path(body, &mut decl_path, &|n| {
        n.role == Some(Role::Declares(Referent::Local { decl, value: true }))
    }) {
        return None;
    }
    let var = *decl_path.last()?;
    // The initialiser, through the implicit conversions libclang wraps it in.
    let mut init = var.children.last()?;
    while init.subscript.is_none() && init.children.len() == 1 && init.role.is_none() {
        init = &init.children[0];
    }
    if init.subscript.is_none() || !sampleable(init) || written(body, decl) {
        return None;
    }
    // The statement list holding the declaration statement, and where both sit in it.
    let [.., list, statement, _] = decl_path.as_slice() else {
        return None;
    };
    if list.kind != NodeKind::Compound {
        return None;
    }
    let at = |n: &AstNode| list.children.iter().position(|c| std::ptr::eq(c, n));
    let (Some(k), Some(depth)) = (
        at(statement),
        use_path.iter().position(|n| std::ptr::eq(*n, *list)),
    ) else {
        return None;
    };
    let (Some(&use_statement), below) = (use_path.get(depth + 1), &use_path[depth + 1..]) else {
        return None;
    };
    let u = at(use_statement)?;
    let branches = |n: &AstNode| {
        matches!(
            n.kind,
            NodeKind::If
                | NodeKind::For
                | NodeKind::While
                | NodeKind::Do
                | NodeKind::Switch
                | NodeKind::Case
                | NodeKind::Default
                | NodeKind::Label
                | NodeKind::Conditional
                | NodeKind::LogicalAnd
                | NodeKind::LogicalOr
        )
    };
    let exits = |n: &AstNode| {
        contains(n, &|m| {
            matches!(
                m.kind,
                NodeKind::Break
                    | NodeKind::Continue
                    | NodeKind::Return
                    | NodeKind::Goto
                    | NodeKind::Label
            )
        })
    };
    let between_clear = list.children[k + 1..u].iter().all(|c| !exits(c));
    (k < u && between_clear && !below.iter().any(|n| branches(n))).then_some(init)
}

/// The private value variable (its declaration's offset) a name starting at `line`:`col`
/// refers to, `path` the nodes from `node` down to it.
fn named_local_at<'a>(
    node: &'a AstNode,
    line: u32,
    col: u32,
    path: &mut Vec<&'a AstNode>,
) -> Option<u32> {
    find_path(node, path, &|n| {
        n.extent.start.line == line
            && n.extent.start.col == col
            && matches!(
                n.role,
                Some(Role::Names(Referent::Local { value: true, .. }))
            )
    });
    match path.last()?.role {
        Some(Role::Names(Referent::Local { decl, .. })) => Some(decl),
        _ => None,
    }
}

/// Whether a node of `node`'s tree is `wanted`; `path` then holds the nodes from `node`
/// down to the first one found (depth first, in source order).
fn find_path<'a>(
    node: &'a AstNode,
    path: &mut Vec<&'a AstNode>,
    wanted: &dyn Fn(&AstNode) -> bool,
) -> bool {
    path.push(node);
    if wanted(node) || node.children.iter().any(|c| find_path(c, path, wanted)) {
        return true;
    }
    path.pop();
    false
}

/// Whether a node of `node`'s tree is `wanted`.
fn contains(node: &AstNode, wanted: &dyn Fn(&AstNode) -> bool) -> bool {
    wanted(node) || node.children.iter().any(|c| contains(c, wanted))
}

/// Whether the private variable declared at offset `decl` is assigned, stepped or has its
/// address taken anywhere in `node` (a member's write writes it too).
fn written(node: &AstNode, decl: u32) -> bool {
    let names = |n: &AstNode| {
        contains(
            n,
            &|m| matches!(m.role, Some(Role::Names(Referent::Local { decl: d, .. })) if d == decl),
        )
    };
    let writes = matches!(
        node.role,
        Some(Role::Assign | Role::CompoundAssign | Role::Step | Role::AddressOf)
    ) && node.children.first().is_some_and(names);
    writes || node.children.iter().any(|c| written(c, decl))
}

/// The subscript a load with no line of its own (`.loc` line 0: clang merged it from
/// several places) stands for, where its innermost loop tells: the one load of its width
/// in the source loop that loop was compiled from (the loop statement on a line of the
/// loop's code), sampleable. A pointer chase `p = a[i]; for (...) p = a[p];` compiles to
/// one loop of one load, merged from both subscripts; the loop's is the one that runs
/// (l1_lat, validation/ubench).
fn loop_subscript<'a>(
    f: &Function,
    cfg: &Cfg,
    module: &Module,
    program: &str,
    body: &'a AstNode,
    (b, i): Position,
) -> Option<&'a AstNode> {
    let instr = &f.blocks[b].instrs[i];
    if instr.base() != "ld" || instr.loc.as_ref().is_some_and(|l| l.line != 0) {
        return None;
    }
    let width = access_width(instr);
    let innermost = cfg
        .loops
        .iter()
        .filter(|l| l.body.contains(&b))
        .min_by_key(|l| l.body.len())?;
    let lines: Vec<u32> = innermost
        .body
        .iter()
        .flat_map(|&k| &f.blocks[k].instrs)
        .filter_map(|x| x.loc.as_ref())
        .filter(|l| l.inlined_at.is_none() && l.line != 0)
        .filter(|l| module.file(l.file).is_some_and(|p| same_file(p, program)))
        .map(|l| l.line)
        .collect();
    let statement = innermost_loop_statement(body, &lines)?;
    let mut loads = Vec::new();
    loads_in(statement, &mut loads);
    loads.retain(|n| {
        sampleable(n)
            && n.subscript
                .as_ref()
                .is_some_and(|s| s.element_bytes == width)
    });
    match loads.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

/// The innermost `for`, `while` or `do` statement of `node` that starts on one of `lines`.
fn innermost_loop_statement<'a>(node: &'a AstNode, lines: &[u32]) -> Option<&'a AstNode> {
    let inner = node
        .children
        .iter()
        .find_map(|c| innermost_loop_statement(c, lines));
    let is_loop = matches!(node.kind, NodeKind::For | NodeKind::While | NodeKind::Do);
    inner.or_else(|| (is_loop && lines.contains(&node.extent.start.line)).then_some(node))
}

/// The subscripts of `node` read (not the target of a plain assignment), outermost first.
fn loads_in<'a>(node: &'a AstNode, out: &mut Vec<&'a AstNode>) {
    if node.subscript.is_some() {
        out.push(node);
        // `a[i][j]`: the outer subscript is the access.
        for c in node.children.iter().skip(1) {
            loads_in(c, out);
        }
        return;
    }
    if let (Some(Role::Assign), [lhs, rhs]) = (&node.role, node.children.as_slice()) {
        if lhs.subscript.is_some() {
            for c in lhs.children.iter().skip(1) {
                loads_in(c, out);
            }
        } else {
            loads_in(lhs, out);
        }
        loads_in(rhs, out);
        return;
    }
    for c in &node.children {
        loads_in(c, out);
    }
}

/// Whether subscript `node` can be sampled: its base named directly, its index written
/// here (not in a macro).
fn sampleable(node: &AstNode) -> bool {
    node.subscript.as_ref().is_some_and(|s| {
        !s.base.is_empty()
            && s.element_bytes > 0
            && !node.in_macro
            && node.children.len() == 2
            && !node.children[1].in_macro
    })
}

/// The global loads other than `at` of the innermost loop holding `at`'s first
/// instruction: the lines those not sampled bring into a warp's L1 each iteration, as
/// charged, and the sampled ones' places (`sampled`: each site's instructions and its
/// line and column), whose lines the run measures. Nothing outside loops.
struct LoopLoads {
    lines: u32,
    peers: Vec<[u32; 2]>,
}

/// [`LoopLoads`] of the site at `at` among `sampled` (in `blocks`). A warp-uniform load
/// (charged at the L1) reads one address a step, and an unrolled loop's copies of it read
/// its neighbours (`x[j]`, `x[j + 1]`, ...): all of them hold one line.
fn loop_loads(
    cfg: &Cfg,
    blocks: &[Vec<Instr>],
    at: &[Position],
    sampled: &[(&[Position], [u32; 2])],
) -> LoopLoads {
    let Some(innermost) = cfg
        .loops
        .iter()
        .filter(|l| l.body.contains(&at[0].0))
        .min_by_key(|l| l.body.len())
    else {
        return LoopLoads {
            lines: 0,
            peers: Vec::new(),
        };
    };
    let mut peers = Vec::new();
    let mut loads = Vec::new();
    let positions = innermost
        .body
        .iter()
        .flat_map(|&b| blocks[b].iter().enumerate().map(move |(i, x)| ((b, i), x)));
    for (p, x) in positions {
        if x.class != OpClass::GlobalMem || x.writes.is_empty() || at.contains(&p) {
            continue;
        }
        match sampled.iter().find(|(places, _)| places.contains(&p)) {
            Some(&(_, place)) => {
                if !peers.contains(&place) {
                    peers.push(place);
                }
            }
            None => loads.extend(x.access),
        }
    }
    loads.retain(|a| a.level != MemLevel::Constant && a.reuse_lines.is_none());
    let uniform = loads.iter().any(|a| a.level == MemLevel::L1);
    let varying: u32 = loads
        .iter()
        .filter(|a| a.level != MemLevel::L1)
        .map(|a| a.transactions)
        .sum();
    LoopLoads {
        lines: varying + u32::from(uniform),
        peers,
    }
}

/// What a path pays for entering block `v` of `blocks` (whose predecessors are
/// `preds[v]`), as the annotation charges it: `t_(u,v) - t_u` from each predecessor `u`,
/// averaged over them; `t_v` for a block with none (the entry).
pub(super) fn step(
    arch: &Architecture,
    blocks: &[Vec<Instr>],
    preds: &[Vec<usize>],
    v: usize,
) -> f64 {
    if preds[v].is_empty() {
        return schedule(arch, &blocks[v]).length as f64;
    }
    let total: f64 = preds[v]
        .iter()
        .map(|&u| {
            let pair = pair_cycles(arch, &blocks[u], &blocks[v]);
            pair as f64 - schedule(arch, &blocks[u]).length as f64
        })
        .sum();
    total / preds[v].len() as f64
}

/// Whether `i` is a load an L1 hit can save a trip for: a global (not shared) load
/// charged at the L2.
fn past_l1_load(i: &Instr) -> bool {
    !i.writes.is_empty()
        && i.class != OpClass::SharedMem
        && i.access.is_some_and(|a| a.level == MemLevel::L2)
}

/// `blocks` with the instructions `at` as `transactions` requests each, at `level` where
/// given.
fn with_requests(
    blocks: &[Vec<Instr>],
    at: impl IntoIterator<Item = Position>,
    transactions: u32,
    level: Option<MemLevel>,
) -> Vec<Vec<Instr>> {
    let mut changed = blocks.to_vec();
    for (b, i) in at {
        if let Some(a) = changed[b][i].access.as_mut() {
            a.transactions = transactions;
            a.level = level.unwrap_or(a.level);
        }
    }
    changed
}

/// What one execution of the subscript whose PTX accesses are `at` (each lane moving
/// `width` bytes) was charged, and how its cycles and usage change with its requests and
/// sectors.
fn charged(
    arch: &Architecture,
    blocks: &[Vec<Instr>],
    preds: &[Vec<usize>],
    at: &[(usize, usize)],
    (line, column, width): (u32, u32, u32),
    subscript: &crate::front::source::Subscript,
) -> Option<SampledAccess> {
    let first = &blocks[at[0].0][at[0].1];
    let access = first.access?;
    let shared = first.class == OpClass::SharedMem;
    // The full gather: a request per lane (and per line a lane's bytes span).
    let gather = 32 * width.div_ceil(128).max(1);
    // Instructions that store (write no register) and those that load are the two kinds
    // an execution may run once each (`a[i] += x`): slopes and usage add over kinds.
    let mut per_kind: BTreeMap<bool, Vec<(usize, usize)>> = BTreeMap::new();
    for &(b, i) in at {
        per_kind
            .entry(blocks[b][i].writes.is_empty())
            .or_default()
            .push((b, i));
    }
    let resources = arch.resources().len();
    let (mut slope, mut l1_cycles, mut per_transaction, mut per_sector) =
        (0.0, 0.0, vec![0.0; resources], vec![0.0; resources]);
    let (mut charged_t, mut charged_s, mut n) = (0.0, 0.0, 0.0);
    for instances in per_kind.values() {
        // Per block, the block's time with its instances of this kind as one request and
        // as a full gather.
        let mut by_block: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &(b, i) in instances {
            by_block.entry(b).or_default().push(i);
        }
        let kind = &blocks[instances[0].0][instances[0].1];
        // A load in a loop charged at the L2 (data neighbours or earlier passes brought
        // in) is served from the L1 where its buffer fits there.
        let in_loop_past_l1 = past_l1_load(kind);
        let with = |transactions: u32, level: Option<MemLevel>| {
            with_requests(blocks, instances.iter().copied(), transactions, level)
        };
        let (one, all, at_l1) = (
            with(1, None),
            with(gather, None),
            with(1, Some(MemLevel::L1)),
        );
        let (mut sum, mut l1_sum, mut count) = (0.0, 0.0, 0.0);
        for (v, positions) in &by_block {
            let k = positions.len() as f64;
            sum +=
                (step(arch, &all, preds, *v) - step(arch, &one, preds, *v)) / f64::from(gather - 1);
            if in_loop_past_l1 {
                l1_sum += step(arch, &one, preds, *v) - step(arch, &at_l1, preds, *v);
            }
            count += k;
        }
        // The list scheduler may order a block otherwise for a longer latency, which can
        // make it a cycle shorter: more requests never make a path faster.
        slope += (sum / count).max(0.0);
        l1_cycles += (l1_sum / count).max(0.0);
        let usage = |transactions: u32, sectors: u32| {
            let mut i = kind.clone();
            if let Some(a) = i.access.as_mut() {
                a.transactions = transactions;
                a.sectors = sectors;
            }
            ResourceUsage::of(arch, &[i]).0
        };
        // A shared access moves no sector of the memory side: priced with one, each extra
        // bank pass would be charged L2 and DRAM bytes (`timing::memory_bytes`).
        let one = u32::from(!shared);
        let base = usage(1, one);
        for (r, (t, s)) in usage(2, one).iter().zip(usage(1, 2)).enumerate() {
            per_transaction[r] += t - base[r];
            if !shared {
                per_sector[r] += s - base[r];
            }
        }
        for &(b, i) in instances {
            if let Some(a) = blocks[b][i].access {
                charged_t += f64::from(a.transactions);
                charged_s += f64::from(a.sectors);
                n += 1.0;
            }
        }
    }
    Some(SampledAccess {
        line,
        column,
        shared,
        local: false,
        element_bytes: subscript.element_bytes,
        width,
        charged_transactions: charged_t / n,
        charged_sectors: if shared { 0.0 } else { charged_s / n },
        cycles_per_transaction: slope,
        usage_per_transaction: per_transaction,
        usage_per_sector: per_sector,
        param: subscript.param,
        l1_cycles,
        loop_lines: 0,
        loop_peers: Vec::new(),
    })
    .filter(|_| access.transactions > 0)
}
