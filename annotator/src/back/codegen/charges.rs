//! The generated timing code: a path's charge, the settling of unrolled loops, the
//! exit function of a called function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

pub(super) use pipeline_model::rows::Amount;
use pipeline_model::rows::{CLASSES, WIDTH_CLASS_OPENCL};

use super::edits::{wrap_returns, Edit, CLOSE};
use super::profile::{Booking, Shares, Slots};
use super::{CodegenError, KernelTiming, STATE};
use crate::front::source::{AstNode, SourceFile};
use crate::ids::PtxBlock;
use crate::mapping::paths::{From, PathTable, TimedPath, To};
use crate::mapping::unroll::{UnrollShape, UnrolledLoop};

/// What a path adds to the divergent arms' counters (the state's `a`, in the record's
/// order: the arms' cycles, then their entries from `__SRCSIM_ARMS`, then their
/// branches' decisions from `2 * __SRCSIM_ARMS`; `pipeline_model::records`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct ArmCharge {
    /// The arm its cycles also go to (the arm of the block it ends in).
    pub(super) cycles: Option<usize>,
    /// The arm it enters, which counts an entry and a decision.
    pub(super) entered: Option<usize>,
    /// The other side of that arm's branch, which counts the decision too.
    pub(super) sibling: Option<usize>,
}

impl ArmCharge {
    /// Its counters and what each adds, for a path of `cycles`.
    fn terms(&self, values: &str, cycles: u64) -> impl Iterator<Item = (String, Amount)> + '_ {
        let values = values.to_string();
        let cycles_term = self
            .cycles
            .map(|a| (format!("{values}->a[{a}]"), Amount::Const(cycles)));
        let entry = self.entered.map(|a| {
            (
                format!("{values}->a[__SRCSIM_ARMS + {a}]"),
                Amount::Const(1),
            )
        });
        let decisions = self.entered.into_iter().chain(self.sibling).map(move |a| {
            (
                format!("{values}->a[2 * __SRCSIM_ARMS + {a}]"),
                Amount::Const(1),
            )
        });
        cycles_term.into_iter().chain(entry).chain(decisions)
    }
}

/// The width of the vector the state's usage counters `u` are also seen as
/// ([`usage_declaration`]), for `resources` of them: the narrowest OpenCL vector of
/// `ulong`s that holds them, where there is one and a charge may add to several.
pub(super) fn usage_vector(resources: usize) -> Option<usize> {
    [2, 3, 4, 8, 16]
        .into_iter()
        .find(|&n| n >= resources)
        .filter(|_| resources >= 2)
}

/// The declaration of the state's usage counters, `resources` of them: `u`, and where
/// there is a vector of their width ([`usage_vector`]), the same memory as a vector `uv`,
/// so that a charge adds to all of them at once ([`charge`]). In `bfs_frontier`'s
/// `expand`, whose loop charges nine counters an iteration, the copy took 18% less time
/// so (`docs/performance.md`): the counters stay in vector registers, where one by one
/// they were spilled.
pub(super) fn usage_declaration(resources: usize) -> String {
    match usage_vector(resources) {
        Some(n) => format!(" union {{ ulong u[{resources}]; ulong{n} uv; }};"),
        None => format!(" ulong u[{resources}];"),
    }
}

/// `s->t += c; s->u[r] += u;` for a path taken `times` times (an expression, or "" once),
/// the same cycles to the counter of the divergent arm the path ends in (and its entry
/// and decisions where it enters one: [`ArmCharge`]), and in profile
/// mode the same cycles and the path's instructions to a block's slot. `values` is where
/// the record's values are: `s`, or the record itself ([`super::records::in_record`]).
/// In the state, a path that uses several resources adds its usage as one vector
/// (`s->uv`, [`usage_declaration`]).
pub(super) fn charge(
    out: &mut String,
    values: &str,
    cycles: u64,
    usage: &[Amount],
    times: &str,
    arm: ArmCharge,
    booking: Option<Booking>,
) {
    let used = usage.iter().filter(|u| !u.is_zero()).count();
    let vector = usage_vector(usage.len()).filter(|_| values == "s" && used >= 2);
    let scalar = if vector.is_some() { &[][..] } else { usage };
    for (counter, amount) in charge_terms(values, cycles, scalar, arm, booking) {
        let _ = write!(out, " {counter} += {times}{};", opencl(&amount));
    }
    if let Some(n) = vector {
        let lanes: Vec<String> = (0..n)
            .map(|r| usage.get(r).map_or("0ul".to_string(), opencl))
            .collect();
        let _ = write!(out, " s->uv += {times}(ulong{n})({});", lanes.join(", "));
    }
}

/// The macro that picks a per-width-class amount (`pipeline_model::rows`) on the device.
pub(super) const BY_WIDTH: &str = "__SRCSIM_BY_WIDTH";

/// `functions` after the definition of [`BY_WIDTH`] (the launch's width class, then the
/// amount of that class) where they or the `edits` use it.
pub(super) fn with_by_width(functions: &str, edits: &[Edit]) -> String {
    let used = functions.contains(BY_WIDTH) || edits.iter().any(|e| e.text.contains(BY_WIDTH));
    if !used {
        return functions.to_string();
    }
    format!(
        "#define __SRCSIM_WIDTH_CLASS {WIDTH_CLASS_OPENCL}\n#define {BY_WIDTH}(a, b, c, d, e, f) (__SRCSIM_WIDTH_CLASS == 0u ? (a) : __SRCSIM_WIDTH_CLASS == 1u ? (b) : __SRCSIM_WIDTH_CLASS == 2u ? (c) : __SRCSIM_WIDTH_CLASS == 3u ? (d) : __SRCSIM_WIDTH_CLASS == 4u ? (e) : (f))\n{functions}"
    )
}

/// `amount` as an OpenCL C `ulong` expression.
pub(super) fn opencl(amount: &Amount) -> String {
    match amount {
        Amount::Const(v) => format!("{v}ul"),
        Amount::ByWidth(v) => {
            let each: Vec<String> = v.iter().map(|x| format!("{x}ul")).collect();
            format!("{BY_WIDTH}({})", each.join(", "))
        }
    }
}

/// What [`charge`] adds, counter by counter, for a path taken once.
pub(super) fn charge_terms(
    values: &str,
    cycles: u64,
    usage: &[Amount],
    arm: ArmCharge,
    booking: Option<Booking>,
) -> Vec<(String, Amount)> {
    let mut terms = vec![(format!("{values}->t"), Amount::Const(cycles))];
    terms.extend(arm.terms(values, cycles));
    for (r, u) in usage.iter().enumerate() {
        if !u.is_zero() {
            terms.push((format!("{values}->u[{r}]"), *u));
        }
    }
    if let Some(Booking {
        slot,
        instructions,
        share,
    }) = booking
    {
        let (cycles, instructions) = (Amount::Const(cycles), Amount::Const(instructions));
        terms.push((format!("{values}->p[{}]", 3 * slot + 1), cycles));
        terms.push((format!("{values}->p[{}]", 3 * slot + 2), instructions));
        if let Some(at) = share {
            terms.push((format!("{values}->p[{at}]"), cycles));
            terms.push((format!("{values}->p[{}]", at + 1), instructions));
        }
    }
    terms
}

/// The charges of `cases` (each a condition and what [`charge_terms`] adds when it holds;
/// at most one holds) without a branch: per counter, one addition of a sum of selects.
/// A branch here would give the work-items that take it a path of their own to the end
/// of the kernel, and PoCL then takes a per-work-item branch before it, after a barrier
/// under a condition, for one the whole work-group takes alike (see the module
/// `uniformity` of the crate).
pub(super) fn select_charges(
    out: &mut String,
    indent: &str,
    cases: &[(String, Vec<(String, Amount)>)],
) {
    let mut counters: Vec<(&str, Vec<(&str, Amount)>)> = Vec::new();
    for (condition, terms) in cases {
        for (counter, amount) in terms.iter().filter(|(_, a)| !a.is_zero()) {
            let at = match counters.iter().position(|(c, _)| c == counter) {
                Some(at) => at,
                None => {
                    counters.push((counter, Vec::new()));
                    counters.len() - 1
                }
            };
            counters[at].1.push((condition, *amount));
        }
    }
    for (counter, sums) in counters {
        let sum: Vec<String> = sums
            .iter()
            .map(|(condition, amount)| format!("({condition} ? {} : 0ul)", opencl(amount)))
            .collect();
        let _ = writeln!(out, "{indent}{counter} += {};", sum.join(" + "));
    }
}

/// The settle function of unrolled loop `l` of kernel `ki`: charges the `k` counted body
/// executions as `k / factor` iterations of the unrolled loop and `k % factor` of the
/// remainder loop, in the order the PTX runs them, each entered from wherever the last
/// simulated block is. A loop with several PTX copies (`shapes`, made by unrolling the
/// loops around it completely) charges the copy of the current pass, `c[l]`. With
/// `branch_free`, the same without a branch ([`select_charges`]).
#[allow(clippy::too_many_arguments)] // the loop, its kernel and where its values go
pub(super) fn settle_function(
    out: &mut String,
    values: &str,
    l: usize,
    ki: usize,
    shapes: &[UnrollShape],
    table: &PathTable,
    usage_scale: u64,
    branch_free: bool,
    book: &mut dyn FnMut(&TimedPath) -> Option<Booking>,
) {
    let mut settle = Settle {
        values,
        ki,
        table,
        usage_scale,
        branch_free,
        book,
    };
    let _ = writeln!(
        out,
        "static inline __attribute__((always_inline)) void __srcsim_settle_{l}(__private __srcsim_state *s)\n{{\n    ulong k = s->k[{l}];"
    );
    if !branch_free {
        out.push_str("    if (k == 0) return;\n");
    }
    let _ = writeln!(out, "    s->k[{l}] = 0;");
    match shapes {
        [shape] => settle.shape(out, shape, ""),
        _ if branch_free => {
            for (j, shape) in shapes.iter().enumerate() {
                out.push_str("    {\n");
                settle.shape(out, shape, &format!(" & (s->c[{l}] == {j}u)"));
                out.push_str("    }\n");
            }
        }
        _ => {
            let _ = writeln!(out, "    switch (s->c[{l}]) {{");
            for (j, shape) in shapes.iter().enumerate() {
                let _ = writeln!(out, "    case {j}u: {{");
                settle.shape(out, shape, "");
                out.push_str("    } break;\n");
            }
            out.push_str("    default: break;\n    }\n");
        }
    }
    out.push_str("}\n");
}

/// What a settle function charges from.
struct Settle<'a, 'b> {
    values: &'a str,
    ki: usize,
    table: &'a PathTable,
    usage_scale: u64,
    branch_free: bool,
    book: &'b mut dyn FnMut(&TimedPath) -> Option<Booking>,
}

impl Settle<'_, '_> {
    /// The charges of `k` body executions on one unrolled loop and its remainder; `on`,
    /// branch-free, is what else decides that this shape is the one charged.
    fn shape(&mut self, out: &mut String, shape: &UnrollShape, on: &str) {
        let (table, main) = (self.table, shape.main);
        let remainder_first = shape.remainder.is_some_and(|rem| {
            table.get(From::Block(rem), To::Block(main)).is_some()
                && table.get(From::Block(main), To::Block(rem)).is_none()
        });
        let _ = writeln!(
            out,
            "    ulong q = k / {f}ul, r = k % {f}ul;",
            f = shape.factor
        );
        // Without a remainder loop the copies divide the trip count: r is 0.
        match shape.remainder {
            Some(rem) if remainder_first => {
                self.part(out, "r", rem, on);
                self.part(out, "q", main, on);
            }
            Some(rem) => {
                self.part(out, "q", main, on);
                self.part(out, "r", rem, on);
            }
            None => self.part(out, "q", main, on),
        }
    }

    /// `count` iterations of PTX block `target`'s loop: entering it from the last block,
    /// then its passes around.
    fn part(&mut self, out: &mut String, count: &str, target: PtxBlock, on: &str) {
        let (values, ki, usage_scale) = (self.values, self.ki, self.usage_scale);
        let entries = self
            .table
            .paths
            .iter()
            .filter(|p| p.to == To::Block(target));
        let to = encode(ki, From::Block(target));
        let around = self.table.get(From::Block(target), To::Block(target));
        if self.branch_free {
            let _ = writeln!(
                out,
                "    {{\n        uint from = s->last, on = ({count} != 0ul){on};"
            );
            let cases: Vec<(String, Vec<(String, Amount)>)> = entries
                .map(|p| {
                    let terms = charge_terms(
                        values,
                        p.cycles,
                        &scaled(p, usage_scale),
                        ArmCharge::default(),
                        (self.book)(p),
                    );
                    (format!("(on & (from == {}u))", encode(ki, p.from)), terms)
                })
                .collect();
            select_charges(out, "        ", &cases);
            let _ = write!(out, "        s->last = on ? {to}u : from;\n       ");
            if let Some(p) = around {
                charge(
                    out,
                    values,
                    p.cycles,
                    &scaled(p, usage_scale),
                    &format!("({count} - 1ul) * (ulong)on * "),
                    ArmCharge::default(),
                    (self.book)(p),
                );
            }
            out.push_str("\n    }\n");
            return;
        }
        let _ = writeln!(out, "    if ({count} != 0) {{\n        switch (s->last) {{");
        for p in entries {
            let _ = write!(out, "        case {}u:", encode(ki, p.from));
            charge(
                out,
                values,
                p.cycles,
                &scaled(p, usage_scale),
                "",
                ArmCharge::default(),
                (self.book)(p),
            );
            out.push_str(" break;\n");
        }
        let _ = write!(
            out,
            "        default: break;\n        }}\n        s->last = {to}u;\n       "
        );
        if let Some(p) = around {
            charge(
                out,
                values,
                p.cycles,
                &scaled(p, usage_scale),
                &format!("({count} - 1) * "),
                ArmCharge::default(),
                (self.book)(p),
            );
        }
        out.push_str("\n    }\n");
    }
}

/// The charges of leaving a unit, by encoded last block: cycles, scaled usage, booking.
pub(super) type ExitCharges = BTreeMap<u32, (u64, Vec<Amount>, Option<Booking>)>;

pub(super) fn encode(kernel: usize, from: From) -> u32 {
    let low = match from {
        From::Start => 0,
        From::Block(b) => b.index() as u32 + 1,
    };
    ((kernel as u32) << 16) | low
}

/// A called (not inlined) function to annotate.
pub(super) struct CalledUnit<'a> {
    /// Its unit number (kernels first).
    pub(super) index: usize,
    pub(super) timing: &'a KernelTiming<'a>,
    pub(super) slots: &'a Slots,
    /// Code counting its entry block where it has no call of its own (profile mode).
    pub(super) entry_count: String,
}

/// The exit function and the entry and return edits of a called (not inlined) function:
/// it times its own PTX blocks, from its start, and hands the caller's last block back.
pub(super) fn called_function(
    file: &SourceFile,
    unit: &CalledUnit<'_>,
    loops: &[(usize, &UnrolledLoop, Vec<UnrollShape>)],
    usage_scale: u64,
    shares: &mut Shares,
    functions: &mut String,
    edits: &mut Vec<Edit>,
) -> Result<(), CodegenError> {
    let (ki, k) = (unit.index, unit.timing);
    let name = &k.map.kernel;
    let f = file
        .function(name)
        .ok_or_else(|| CodegenError::MissingKernel {
            path: file.path.display().to_string(),
            kernel: name.clone(),
        })?;
    let _ = writeln!(
        functions,
        "static inline __attribute__((always_inline)) void __srcsim_exit_{name}(__private __srcsim_state *s)\n{{"
    );
    for (l, (lk, _, _)) in loops.iter().enumerate() {
        if *lk == ki {
            let _ = writeln!(functions, "    __srcsim_settle_{l}(s);");
        }
    }
    let exits = k.table.paths.iter().filter(|p| p.to == To::Exit).map(|p| {
        let booking = unit
            .slots
            .origin(k, p.from)
            .map(|slot| shares.book(slot, p));
        (p, booking)
    });
    if k.branch_free {
        let cases: Vec<(String, Vec<(String, Amount)>)> = exits
            .map(|(p, booking)| {
                let terms = charge_terms(
                    "s",
                    p.cycles,
                    &scaled(p, usage_scale),
                    ArmCharge::default(),
                    booking,
                );
                (format!("(from == {}u)", encode(ki, p.from)), terms)
            })
            .collect();
        functions.push_str("    uint from = s->last;\n");
        select_charges(functions, "    ", &cases);
        functions.push_str("}\n");
    } else {
        functions.push_str("    switch (s->last) {\n");
        for (p, booking) in exits {
            let _ = write!(functions, "    case {}u:", encode(ki, p.from));
            charge(
                functions,
                "s",
                p.cycles,
                &scaled(p, usage_scale),
                "",
                ArmCharge::default(),
                booking,
            );
            functions.push_str(" break;\n");
        }
        functions.push_str("    default: break;\n    }\n}\n");
    }
    edits.push(Edit {
        offset: f.body.extent.start.offset + 1,
        class: CLOSE,
        nesting: i64::MIN,
        text: format!(
            " uint {STATE}_caller = {STATE}->last; {STATE}->last = {}u;{}",
            encode(ki, From::Start),
            unit.entry_count
        ),
    });
    let leave = format!("__srcsim_exit_{name}({STATE}); {STATE}->last = {STATE}_caller;");
    // The value is computed before leaving (its own timing calls, if any, run in this
    // function); the original statement stays behind, unreachable.
    let open = |n: &AstNode| match n.children.first() {
        Some(e) => {
            let expr = file.text_of(&e.extent);
            format!(
                "{{ __typeof__({expr}) {STATE}_value = ({expr}); {leave} return {STATE}_value; "
            )
        }
        None => format!("{{ {leave} "),
    };
    wrap_returns(file, f, open, &leave, edits)?;
    Ok(())
}

/// The usage `path` adds in the records' units (`scale` to a cycle), per resource: one
/// amount, or one per width class where its blocks cost otherwise in narrow work-groups.
pub(super) fn scaled(path: &TimedPath, scale: u64) -> Vec<Amount> {
    let units = |u: f64| (u * scale as f64).round() as u64;
    (0..path.usage.len())
        .map(|r| {
            let mut per_class = [units(path.usage[r]); CLASSES];
            for (c, usage) in path.narrow_usage.iter().enumerate() {
                per_class[c + 1] = units(usage[r]);
            }
            Amount::of(per_class)
        })
        .collect()
}
