//! Evaluation over sets of work-items: every value an interval ([`Range`]) of
//! mathematical integers, fitted to its C type after each operation (C's conversions and
//! unsigned wrap-around, or nothing where a set would not stay one interval), every
//! condition yes, no or both ([`Truth`]).

use super::{Expr, HostPaths, Query, Stmt};
use crate::front::source::{IntType, Operator};

/// A launch as the conditions see it.
#[derive(Debug, Clone, Copy)]
pub struct PathLaunch<'a> {
    /// Dimensions (1 to 3).
    pub work_dim: u32,
    /// Global size per dimension (1 beyond `work_dim`).
    pub global: [u64; 3],
    /// Local size per dimension.
    pub local: [u64; 3],
    /// Global offset per dimension.
    pub offset: [u64; 3],
    /// Each argument's bytes, by position (`None`: not a value).
    pub args: &'a [Option<&'a [u8]>],
}

/// The values an expression may take over a set of work-items: `lo..=hi`, as
/// mathematical integers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Range {
    pub(super) lo: i128,
    pub(super) hi: i128,
}

impl Range {
    pub(super) fn point(v: i128) -> Range {
        Range { lo: v, hi: v }
    }
}

/// What an evaluation sees: the launch and the global ids' ranges.
pub(super) struct Env<'a> {
    pub(super) launch: Option<&'a PathLaunch<'a>>,
    pub(super) ids: [Range; 3],
}

impl Env<'_> {
    pub(super) const EMPTY: Env<'static> = Env {
        launch: None,
        ids: [Range { lo: 0, hi: 0 }; 3],
    };
}

/// The value of `e` where it is one value.
pub(super) fn point(e: &Expr, env: &Env<'_>) -> Option<i128> {
    eval(e, env).filter(|r| r.lo == r.hi).map(|r| r.lo)
}

/// `v` (two's complement bits) as a value of `ty`.
fn from_bits(ty: IntType, v: u64) -> i128 {
    let bits = u32::from(ty.bits.max(1));
    let v = if bits == 64 {
        v
    } else {
        v & ((1u64 << bits) - 1)
    };
    if ty.signed && bits < 128 && v >> (bits - 1) & 1 == 1 {
        i128::from(v) - (1i128 << bits)
    } else {
        i128::from(v)
    }
}

/// The values of `r` converted to (or computed in) `ty`: C's conversion, and wrap-around
/// in unsigned arithmetic; `None` where they would not stay one range.
fn fit(ty: IntType, r: Range) -> Option<Range> {
    if ty.bits == 1 {
        return Some(if r.lo > 0 || r.hi < 0 {
            Range::point(1)
        } else if r.lo == 0 && r.hi == 0 {
            Range::point(0)
        } else {
            Range { lo: 0, hi: 1 }
        });
    }
    let m = 1i128 << ty.bits;
    let base = if ty.signed { -(m / 2) } else { 0 };
    let (lo, hi) = (r.lo - base, r.hi - base);
    if lo.div_euclid(m) != hi.div_euclid(m) {
        return None;
    }
    Some(Range {
        lo: lo.rem_euclid(m) + base,
        hi: hi.rem_euclid(m) + base,
    })
}

/// A condition's truth over a set of work-items.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Truth {
    Yes,
    No,
    Both,
}

pub(super) fn truth(r: Range) -> Truth {
    if r.lo == 0 && r.hi == 0 {
        Truth::No
    } else if r.lo > 0 || r.hi < 0 {
        Truth::Yes
    } else {
        Truth::Both
    }
}

fn of_truth(t: Truth) -> Range {
    match t {
        Truth::Yes => Range::point(1),
        Truth::No => Range::point(0),
        Truth::Both => Range { lo: 0, hi: 1 },
    }
}

fn compare(op: Operator, a: Range, b: Range) -> Truth {
    let decide = |yes: bool, no: bool| match (yes, no) {
        (true, _) => Truth::Yes,
        (_, true) => Truth::No,
        _ => Truth::Both,
    };
    match op {
        Operator::Lt => decide(a.hi < b.lo, a.lo >= b.hi),
        Operator::Le => decide(a.hi <= b.lo, a.lo > b.hi),
        Operator::Gt => decide(a.lo > b.hi, a.hi <= b.lo),
        Operator::Ge => decide(a.lo >= b.hi, a.hi < b.lo),
        Operator::Eq => decide(
            a.lo == a.hi && b.lo == b.hi && a.lo == b.lo,
            a.hi < b.lo || b.hi < a.lo,
        ),
        _ => decide(
            a.hi < b.lo || b.hi < a.lo,
            a.lo == a.hi && b.lo == b.hi && a.lo == b.lo,
        ),
    }
}

/// The values `e` takes over `env`'s work-items, where they are one range.
pub(super) fn eval(e: &Expr, env: &Env<'_>) -> Option<Range> {
    match e {
        Expr::Const(ty, v) => Some(Range::point(from_bits(*ty, *v))),
        Expr::Arg(ty, i) => {
            let bytes = env.launch?.args.get(*i as usize).copied().flatten()?;
            if bytes.len() * 8 != usize::from(ty.bits.max(8)) {
                return None;
            }
            let mut word = [0u8; 8];
            word[..bytes.len()].copy_from_slice(bytes);
            Some(Range::point(from_bits(*ty, u64::from_le_bytes(word))))
        }
        Expr::GlobalId(a) => Some(env.ids[usize::from(*a)]),
        Expr::Query(q, a) => {
            let l = env.launch?;
            let d = usize::from(*a);
            let v = match q {
                Query::GlobalSize => l.global[d],
                Query::LocalSize if l.global[d] % l.local[d] == 0 => l.local[d],
                Query::LocalSize => return None,
                Query::NumGroups => l.global[d].div_ceil(l.local[d]),
                Query::GlobalOffset => l.offset[d],
                Query::WorkDim => u64::from(l.work_dim),
            };
            Some(Range::point(i128::from(v)))
        }
        Expr::Select(ty, x) => {
            let c = truth(eval(&x[0], env)?);
            let pick = |i: usize| eval(&x[i], env);
            match c {
                Truth::Yes => pick(1),
                Truth::No => pick(2),
                Truth::Both => {
                    let (a, b) = (pick(1)?, pick(2)?);
                    fit(
                        *ty,
                        Range {
                            lo: a.lo.min(b.lo),
                            hi: a.hi.max(b.hi),
                        },
                    )
                }
            }
        }
        Expr::Apply(ty, op, x) => apply(*ty, *op, x, env),
    }
}

fn apply(ty: IntType, op: Operator, x: &[Expr], env: &Env<'_>) -> Option<Range> {
    use Operator::*;
    match op {
        LogicalAnd | LogicalOr => {
            let a = truth(eval(&x[0], env)?);
            let short = if op == LogicalAnd {
                Truth::No
            } else {
                Truth::Yes
            };
            if a == short {
                return Some(of_truth(a));
            }
            let b = truth(eval(&x[1], env)?);
            return Some(of_truth(match (a, b) {
                (_, b) if b == short => short,
                (Truth::Both, _) | (_, Truth::Both) => Truth::Both,
                _ => b,
            }));
        }
        LogicalNot => {
            return Some(of_truth(match truth(eval(&x[0], env)?) {
                Truth::Yes => Truth::No,
                Truth::No => Truth::Yes,
                Truth::Both => Truth::Both,
            }))
        }
        _ => {}
    }
    let a = eval(&x[0], env)?;
    let r = match op {
        Convert | Plus => a,
        Neg => Range {
            lo: -a.hi,
            hi: -a.lo,
        },
        Not if a.lo == a.hi => Range::point(!a.lo),
        Not => return None,
        _ => {
            let b = eval(&x[1], env)?;
            match op {
                Lt | Gt | Le | Ge | Eq | Ne => return Some(of_truth(compare(op, a, b))),
                Add => Range {
                    lo: a.lo + b.lo,
                    hi: a.hi + b.hi,
                },
                Sub => Range {
                    lo: a.lo - b.hi,
                    hi: a.hi - b.lo,
                },
                Mul => {
                    let c = [a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi];
                    Range {
                        lo: *c.iter().min()?,
                        hi: *c.iter().max()?,
                    }
                }
                // Truncating division by a positive constant keeps the order.
                Div if b.lo == b.hi && b.lo > 0 => Range {
                    lo: a.lo / b.lo,
                    hi: a.hi / b.lo,
                },
                Shr if b.lo == b.hi && (0..i128::from(ty.bits)).contains(&b.lo) => Range {
                    lo: a.lo >> b.lo,
                    hi: a.hi >> b.lo,
                },
                Shl if b.lo == b.hi && (0..i128::from(ty.bits)).contains(&b.lo) && a.lo >= 0 => {
                    Range {
                        lo: a.lo << b.lo,
                        hi: a.hi << b.lo,
                    }
                }
                // A non-negative remainder by a positive constant: exact within one
                // period, else every residue.
                Rem if b.lo == b.hi && b.lo > 0 && a.lo >= 0 && a.lo != a.hi => {
                    if a.lo / b.lo == a.hi / b.lo {
                        Range {
                            lo: a.lo % b.lo,
                            hi: a.hi % b.lo,
                        }
                    } else {
                        Range {
                            lo: 0,
                            hi: b.lo - 1,
                        }
                    }
                }
                _ if a.lo != a.hi || b.lo != b.hi => return None,
                Div | Rem if b.lo == 0 => return None,
                Div => Range::point(a.lo / b.lo),
                Rem => Range::point(a.lo % b.lo),
                And => Range::point(a.lo & b.lo),
                Or => Range::point(a.lo | b.lo),
                Xor => Range::point(a.lo ^ b.lo),
                _ => return None,
            }
        }
    };
    fit(ty, r)
}

/// Why a set of work-items has no one path.
struct Undecided;

/// The bits of the transitions a cell's work-items take (the copy's `m`), where every
/// condition is decided over the cell.
pub(super) fn run(paths: &HostPaths, env: &Env<'_>) -> Option<u64> {
    fn walk(
        paths: &HostPaths,
        body: &[Stmt],
        env: &Env<'_>,
        state: &mut (u32, u64),
    ) -> Result<bool, Undecided> {
        for s in body {
            match s {
                Stmt::Point(i) => {
                    if let Some(&(_, bit, to)) = paths.points[*i].iter().find(|c| c.0 == state.0) {
                        state.1 |= 1 << bit;
                        state.0 = to;
                    }
                }
                Stmt::If(c, a, b) => {
                    let arm = match eval(c, env).map(truth) {
                        Some(Truth::Yes) => a,
                        Some(Truth::No) => b,
                        _ => return Err(Undecided),
                    };
                    if walk(paths, arm, env, state)? {
                        return Ok(true);
                    }
                }
                Stmt::Return => return Ok(true),
            }
        }
        Ok(false)
    }
    let mut state = (paths.start, 0u64);
    walk(paths, &paths.body, env, &mut state).ok()?;
    if let Some(&(_, bit)) = paths.exits.iter().find(|e| e.0 == state.0) {
        state.1 |= 1 << bit;
    }
    Some(state.1)
}
