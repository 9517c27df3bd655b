//! Paths evaluated on the host: for a path-coded kernel (`codegen`'s module `path_codes`)
//! whose branches depend on its global ids, its geometry and value arguments alone, the
//! warp records its copy would write, computed without running the copy.
//!
//! [`build`] turns the kernel's body into a [`HostPaths`]: its control skeleton (the
//! branches with their integer conditions, the timing points, the returns) and what each
//! transition charges. At a launch, [`HostPaths::cells`] cuts the NDRange along each
//! dimension where a condition changes (a binary search per condition and dimension,
//! each condition depending on one dimension at most), then runs the skeleton once per
//! cell with every value an interval (module `eval`), which proves the whole cell takes one
//! path or gives up (the shim then runs the copy, as before). [`Cells::warp_records`]
//! writes each warp's record from the cells its lanes lie in: the reducer's fold, bit for
//! bit (the same charges, maxima and sum).
//!
//! An LU update of 262144 work-items is nine cells, against a copy that costs about
//! 2.4 times the kernel on PoCL (`docs/performance.md`, sessions 14 and 15).

mod cells;
mod eval;

use std::collections::{BTreeSet, HashMap};

use pipeline_model::rows::Amount;
use pipeline_model::RecordFormat;
use serde::{Deserialize, Serialize};

use crate::front::source::cfg::Insertion;
use crate::front::source::{AstNode, IntType, NodeKind, Operator, Referent, Role, SourceFunction};

pub use cells::{Cells, MAX_CELLS};
pub use eval::PathLaunch;
use eval::{point, Env};

/// An integer expression of the kernel's conditions, with each node's type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expr {
    /// A literal (two's complement in 64 bits).
    Const(IntType, u64),
    /// A value argument, by position.
    Arg(IntType, u32),
    /// `get_global_id(axis)`.
    GlobalId(u8),
    /// A query of the launch's geometry (`get_global_size` and the like).
    Query(Query, u8),
    /// An operator applied to its operands (one or two), giving `ty`.
    Apply(IntType, Operator, Vec<Expr>),
    /// `c ? a : b`.
    Select(IntType, Box<[Expr; 3]>),
}

/// The geometry queries a condition may make.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Query {
    /// `get_global_size`.
    GlobalSize,
    /// `get_local_size` (uniform launches only).
    LocalSize,
    /// `get_num_groups`.
    NumGroups,
    /// `get_global_offset`.
    GlobalOffset,
    /// `get_work_dim` (no dimension).
    WorkDim,
}

/// A statement of the skeleton.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stmt {
    /// A timing point: the index of its cases in [`HostPaths::points`].
    Point(usize),
    /// `if (cond) then else otherwise`.
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `return;`.
    Return,
}

/// A transition's charge: what it adds to a work-item's cycles, usage (records' units)
/// and divergent arm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Charge {
    /// Cycles.
    pub cycles: u64,
    /// Usage per resource: one amount, or one per width class
    /// (`pipeline_model::rows`).
    pub usage: Vec<Amount>,
    /// The arm it also counts in.
    pub arm: Option<usize>,
    /// The arm it enters, which counts an entry and a decision
    /// (`crate::analysis::divergence::ArmTree::entered`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered: Option<usize>,
    /// The other side of that arm's branch, which counts the decision too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sibling: Option<usize>,
}

/// A path-coded kernel as the host evaluates it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostPaths {
    /// The body.
    pub body: Vec<Stmt>,
    /// The timing state's last block at entry (encoded).
    pub start: u32,
    /// Per timing point, its cases: (last block, bit, block reached).
    pub points: Vec<Vec<(u32, u32, u32)>>,
    /// The exit's cases: (last block, bit).
    pub exits: Vec<(u32, u32)>,
    /// Per bit, its transition's charge.
    pub charges: Vec<Charge>,
    /// The timing values of a record: resources and divergent arms.
    #[serde(flatten)]
    pub format: RecordFormat,
    /// The memory-side resource, summed over the lanes.
    pub memory: Option<usize>,
}

/// A timing point of a kernel: where its call is inserted, and its cases.
pub struct PointAt {
    /// Where.
    pub insertion: Insertion,
    /// Its cases for this kernel: (last block, bit, block reached).
    pub cases: Vec<(u32, u32, u32)>,
}

/// What the skeleton needs from the annotation besides the source.
pub struct Coding {
    /// The kernel's timing points.
    pub points: Vec<PointAt>,
    /// The timing state's last block at entry.
    pub start: u32,
    /// The exit's cases.
    pub exits: Vec<(u32, u32)>,
    /// Per bit, its charge.
    pub charges: Vec<Charge>,
    /// The timing values of a record.
    pub format: RecordFormat,
    /// The memory-side resource.
    pub memory: Option<usize>,
}

/// The skeleton of kernel `f`, where its control is an `if`/`return` tree over
/// conditions of integers the host can evaluate (each depending on one dimension of the
/// global id at most), and every timing point sits before a statement; else `None`.
pub fn build(f: &SourceFunction, coding: Coding) -> Option<HostPaths> {
    let mut b = Builder {
        coding: &coding,
        locals: HashMap::new(),
        assigned: BTreeSet::new(),
        placed: vec![false; coding.points.len()],
    };
    assigned_locals(&f.body, &mut b.assigned);
    let mut body = Vec::new();
    b.block(&f.body, &mut body)?;
    if b.placed.contains(&false) {
        return None;
    }
    let mut leaves = Vec::new();
    conditions(&body, &mut |c| predicate_leaves(c, &mut leaves));
    if leaves.iter().any(|l| axes(l).len() > 1) {
        return None;
    }
    let Coding {
        points,
        start,
        exits,
        charges,
        format,
        memory,
    } = coding;
    Some(HostPaths {
        body,
        start,
        points: points.into_iter().map(|p| p.cases).collect(),
        exits,
        charges,
        format,
        memory,
    })
}

/// Locals that are assigned, stepped or have their address taken after their
/// declaration.
fn assigned_locals(n: &AstNode, out: &mut BTreeSet<u32>) {
    let target = |c: Option<&AstNode>| -> Option<u32> {
        let mut c = c?;
        while c.children.len() == 1 && c.role.is_none() {
            c = &c.children[0];
        }
        match c.role {
            Some(Role::Names(Referent::Local { decl, .. })) => Some(decl),
            _ => None,
        }
    };
    if matches!(
        n.role,
        Some(Role::Assign | Role::CompoundAssign | Role::Step | Role::AddressOf)
    ) {
        if let Some(decl) = target(n.children.first()) {
            out.insert(decl);
        }
    }
    for c in &n.children {
        assigned_locals(c, out);
    }
}

struct Builder<'a> {
    coding: &'a Coding,
    /// Locals declared so far with their initialiser (converted to their type).
    locals: HashMap<u32, Option<Expr>>,
    assigned: BTreeSet<u32>,
    placed: Vec<bool>,
}

impl Builder<'_> {
    /// The points whose call goes where `matches` says.
    fn points(&mut self, out: &mut Vec<Stmt>, matches: impl Fn(&Insertion) -> bool) {
        for (i, p) in self.coding.points.iter().enumerate() {
            if !self.placed[i] && matches(&p.insertion) {
                self.placed[i] = true;
                out.push(Stmt::Point(i));
            }
        }
    }

    /// A compound statement: the points after its `{`, then its statements.
    fn block(&mut self, n: &AstNode, out: &mut Vec<Stmt>) -> Option<()> {
        let open = n.extent.start.offset + 1;
        self.points(
            out,
            |i| matches!(i, Insertion::Before { offset, .. } if *offset == open),
        );
        for c in &n.children {
            self.statement(c, out)?;
        }
        Some(())
    }

    /// A statement, with the points inserted before it.
    fn statement(&mut self, n: &AstNode, out: &mut Vec<Stmt>) -> Option<()> {
        let (start, end) = (n.extent.start.offset, n.extent.end.offset);
        self.points(out, |i| match i {
            Insertion::Before { offset, .. } => *offset == start,
            Insertion::WrapStatement {
                start: s, end: e, ..
            } => *s == start && *e >= end,
            _ => false,
        });
        match n.kind {
            NodeKind::Compound => self.block(n, out),
            NodeKind::If => {
                let cond = self.expr(n.children.first()?)?;
                let mut then = Vec::new();
                self.statement(n.children.get(1)?, &mut then)?;
                let mut otherwise = Vec::new();
                if let Some(e) = n.children.get(2) {
                    self.statement(e, &mut otherwise)?;
                }
                out.push(Stmt::If(cond, then, otherwise));
                Some(())
            }
            NodeKind::Return => {
                out.push(Stmt::Return);
                Some(())
            }
            NodeKind::Decl => {
                for d in &n.children {
                    if let Some(Role::Declares(Referent::Local { decl, .. })) = d.role {
                        let init = d
                            .children
                            .iter()
                            .rfind(|c| c.kind != NodeKind::Other || c.int.is_some())
                            .zip(d.int)
                            .and_then(|(c, var)| Some(convert(var.ty, self.expr(c)?)));
                        self.locals.insert(decl, init);
                    }
                }
                Some(())
            }
            // Expressions for their effects on memory; a local they change is never read
            // by a condition (`assigned`).
            NodeKind::Expr | NodeKind::Call | NodeKind::Null => Some(()),
            _ => None,
        }
    }

    /// The integer expression `n`, where the host can evaluate it.
    fn expr(&self, n: &AstNode) -> Option<Expr> {
        let int = n.int?;
        let ty = int.ty;
        if let Some(v) = int.literal {
            return Some(Expr::Const(ty, v));
        }
        if n.kind == NodeKind::Conditional {
            let [c, a, b] = [0, 1, 2].map(|i| n.children.get(i).and_then(|c| self.expr(c)));
            return Some(Expr::Select(ty, Box::new([c?, a?, b?])));
        }
        match (int.op, n.role) {
            (Some(Operator::Convert), _) => {
                let child = n.children.iter().rfind(|c| c.kind != NodeKind::Other)?;
                Some(convert(ty, self.expr(child)?))
            }
            (Some(op), _) => {
                let operands: Option<Vec<Expr>> = n.children.iter().map(|c| self.expr(c)).collect();
                let operands = operands?;
                let unary = matches!(
                    op,
                    Operator::Neg | Operator::Plus | Operator::Not | Operator::LogicalNot
                );
                (operands.len() == if unary { 1 } else { 2 })
                    .then_some(Expr::Apply(ty, op, operands))
            }
            (None, Some(Role::Names(Referent::Param { index, value: true }))) => {
                Some(Expr::Arg(ty, index))
            }
            (None, Some(Role::Names(Referent::Local { decl, value: true }))) => {
                if self.assigned.contains(&decl) {
                    return None;
                }
                self.locals.get(&decl)?.clone()
            }
            (None, Some(Role::Builtin)) if n.kind == NodeKind::Call => self.builtin(n),
            _ => None,
        }
    }

    /// A work-item or geometry query with a constant dimension.
    fn builtin(&self, n: &AstNode) -> Option<Expr> {
        let query = match n.spelling.as_str() {
            "get_global_id" => None,
            "get_global_size" => Some(Query::GlobalSize),
            "get_local_size" => Some(Query::LocalSize),
            "get_num_groups" => Some(Query::NumGroups),
            "get_global_offset" => Some(Query::GlobalOffset),
            "get_work_dim" => return Some(Expr::Query(Query::WorkDim, 0)),
            _ => return None,
        };
        // The callee's name, then the dimension.
        let arg = self.expr(n.children.last()?)?;
        let axis = point(&arg, &Env::EMPTY)?;
        let axis = u8::try_from(axis).ok().filter(|a| *a < 3)?;
        Some(match query {
            None => convert(n.int?.ty, Expr::GlobalId(axis)),
            Some(q) => convert(n.int?.ty, Expr::Query(q, axis)),
        })
    }
}

/// `e` converted to `ty` (nothing where it has that type).
fn convert(ty: IntType, e: Expr) -> Expr {
    if type_of(&e) == ty {
        e
    } else {
        Expr::Apply(ty, Operator::Convert, vec![e])
    }
}

const SIZE_T: IntType = IntType {
    bits: 64,
    signed: false,
};

pub(super) fn type_of(e: &Expr) -> IntType {
    match e {
        Expr::Const(t, _) | Expr::Arg(t, _) | Expr::Apply(t, ..) | Expr::Select(t, _) => *t,
        Expr::GlobalId(_) => SIZE_T,
        Expr::Query(Query::WorkDim, _) => IntType {
            bits: 32,
            signed: false,
        },
        Expr::Query(..) => SIZE_T,
    }
}

/// Every condition of the skeleton.
pub(super) fn conditions(body: &[Stmt], f: &mut dyn FnMut(&Expr)) {
    for s in body {
        if let Stmt::If(c, a, b) = s {
            f(c);
            conditions(a, f);
            conditions(b, f);
        }
    }
}

/// The truth-valued leaves of a condition: what `&&`, `||`, `!` and `?:`'s condition
/// combine.
pub(super) fn predicate_leaves(e: &Expr, out: &mut Vec<Expr>) {
    match e {
        Expr::Apply(_, Operator::LogicalAnd | Operator::LogicalOr | Operator::LogicalNot, x) => {
            x.iter().for_each(|x| predicate_leaves(x, out))
        }
        Expr::Apply(_, Operator::Convert, x) if type_of(&x[0]).bits == 1 || is_truth(&x[0]) => {
            predicate_leaves(&x[0], out)
        }
        Expr::Select(_, x) => {
            predicate_leaves(&x[0], out);
            // The arms are values, which may hold further conditions.
            for arm in &x[1..] {
                if is_truth(arm) {
                    predicate_leaves(arm, out);
                }
            }
        }
        _ => out.push(e.clone()),
    }
}

/// Whether `e` is a truth value (a logical operator or a comparison).
pub(super) fn is_truth(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Apply(
            _,
            Operator::LogicalAnd
                | Operator::LogicalOr
                | Operator::LogicalNot
                | Operator::Lt
                | Operator::Gt
                | Operator::Le
                | Operator::Ge
                | Operator::Eq
                | Operator::Ne,
            _
        )
    )
}

/// The dimensions of the global id `e` depends on.
pub(super) fn axes(e: &Expr) -> BTreeSet<u8> {
    let mut out = BTreeSet::new();
    fn walk(e: &Expr, out: &mut BTreeSet<u8>) {
        match e {
            Expr::GlobalId(a) => {
                out.insert(*a);
            }
            Expr::Apply(_, _, x) => x.iter().for_each(|x| walk(x, out)),
            Expr::Select(_, x) => x.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    walk(e, &mut out);
    out
}
