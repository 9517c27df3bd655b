//! The generated timing code: a path's charge, the settling of unrolled loops, the
//! exit function of a called function.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::edits::{wrap_returns, Edit, CLOSE};
use super::profile::{Booking, Shares, Slots};
use super::{CodegenError, KernelTiming, STATE};
use crate::paths::{From, PathTable, TimedPath, To};
use crate::source::{AstNode, SourceFile};
use crate::unroll::{UnrollShape, UnrolledLoop};

/// `s->t += c; s->u[r] += u;` for a path taken `times` times (an expression, or "" once),
/// the same cycles to the counter of the divergent arm the path ends in, and in profile
/// mode the same cycles and the path's instructions to a block's slot. `values` is where
/// the record's values are: `s`, or the record itself ([`super::records::in_record`]).
pub(super) fn charge(
    out: &mut String,
    values: &str,
    cycles: u64,
    usage: &[u64],
    times: &str,
    arm: Option<usize>,
    booking: Option<Booking>,
) {
    let _ = write!(out, " {values}->t += {times}{cycles}ul;");
    if let Some(a) = arm {
        let _ = write!(out, " {values}->a[{a}] += {times}{cycles}ul;");
    }
    for (r, u) in usage.iter().enumerate() {
        if *u > 0 {
            let _ = write!(out, " {values}->u[{r}] += {times}{u}ul;");
        }
    }
    if let Some(Booking {
        slot,
        instructions,
        share,
    }) = booking
    {
        let _ = write!(
            out,
            " {values}->p[{}] += {times}{cycles}ul; {values}->p[{}] += {times}{instructions}ul;",
            3 * slot + 1,
            3 * slot + 2
        );
        if let Some(at) = share {
            let _ = write!(
                out,
                " {values}->p[{at}] += {times}{cycles}ul; {values}->p[{}] += {times}{instructions}ul;",
                at + 1
            );
        }
    }
}

/// The settle function of unrolled loop `l` of kernel `ki`: charges the `k` counted body
/// executions as `k / factor` iterations of the unrolled loop and `k % factor` of the
/// remainder loop, in the order the PTX runs them, each entered from wherever the last
/// simulated block is. A loop with several PTX copies (`shapes`, made by unrolling the
/// loops around it completely) charges the copy of the current pass, `c[l]`.
#[allow(clippy::too_many_arguments)] // the loop, its kernel and where its values go
pub(super) fn settle_function(
    out: &mut String,
    values: &str,
    l: usize,
    ki: usize,
    shapes: &[UnrollShape],
    table: &PathTable,
    usage_scale: u64,
    book: &mut dyn FnMut(&TimedPath) -> Option<Booking>,
) {
    let _ = writeln!(
        out,
        "static inline __attribute__((always_inline)) void __srcsim_settle_{l}(__private __srcsim_state *s)\n{{\n    ulong k = s->k[{l}];\n    if (k == 0) return;\n    s->k[{l}] = 0;"
    );
    match shapes {
        [shape] => settle_shape(out, values, ki, shape, table, usage_scale, book),
        _ => {
            let _ = writeln!(out, "    switch (s->c[{l}]) {{");
            for (j, shape) in shapes.iter().enumerate() {
                let _ = writeln!(out, "    case {j}u: {{");
                settle_shape(out, values, ki, shape, table, usage_scale, book);
                out.push_str("    } break;\n");
            }
            out.push_str("    default: break;\n    }\n");
        }
    }
    out.push_str("}\n");
}

/// The charges of `k` body executions on one unrolled loop and its remainder.
pub(super) fn settle_shape(
    out: &mut String,
    values: &str,
    ki: usize,
    shape: &UnrollShape,
    table: &PathTable,
    usage_scale: u64,
    book: &mut dyn FnMut(&TimedPath) -> Option<Booking>,
) {
    let main = shape.main;
    let remainder_first = shape.remainder.is_some_and(|rem| {
        table.get(From::Block(rem), To::Block(main)).is_some()
            && table.get(From::Block(main), To::Block(rem)).is_none()
    });
    let _ = writeln!(
        out,
        "    ulong q = k / {f}ul, r = k % {f}ul;",
        f = shape.factor
    );
    let mut part = |out: &mut String, count: &str, target: usize| {
        let _ = writeln!(out, "    if ({count} != 0) {{\n        switch (s->last) {{");
        for p in table.paths.iter().filter(|p| p.to == To::Block(target)) {
            let _ = write!(out, "        case {}u:", encode(ki, p.from));
            charge(
                out,
                values,
                p.cycles,
                &scaled(&p.usage, usage_scale),
                "",
                None,
                book(p),
            );
            out.push_str(" break;\n");
        }
        let _ = write!(
            out,
            "        default: break;\n        }}\n        s->last = {}u;\n       ",
            encode(ki, From::Block(target))
        );
        if let Some(p) = table.get(From::Block(target), To::Block(target)) {
            charge(
                out,
                values,
                p.cycles,
                &scaled(&p.usage, usage_scale),
                &format!("({count} - 1) * "),
                None,
                book(p),
            );
        }
        out.push_str("\n    }\n");
    };
    // Without a remainder loop the copies divide the trip count: r is 0.
    match shape.remainder {
        Some(rem) if remainder_first => {
            part(out, "r", rem);
            part(out, "q", main);
        }
        Some(rem) => {
            part(out, "q", main);
            part(out, "r", rem);
        }
        None => part(out, "q", main),
    }
}

/// The charges of leaving a unit, by encoded last block: cycles, scaled usage, booking.
pub(super) type ExitCharges = BTreeMap<u32, (u64, Vec<u64>, Option<Booking>)>;

pub(super) fn encode(kernel: usize, from: From) -> u32 {
    let low = match from {
        From::Start => 0,
        From::Block(b) => b as u32 + 1,
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
    functions.push_str("    switch (s->last) {\n");
    for p in k.table.paths.iter().filter(|p| p.to == To::Exit) {
        let _ = write!(functions, "    case {}u:", encode(ki, p.from));
        let booking = unit
            .slots
            .origin(k, p.from)
            .map(|slot| shares.book(slot, p));
        charge(
            functions,
            "s",
            p.cycles,
            &scaled(&p.usage, usage_scale),
            "",
            None,
            booking,
        );
        functions.push_str(" break;\n");
    }
    functions.push_str("    default: break;\n    }\n}\n");
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

pub(super) fn scaled(usage: &[f64], scale: u64) -> Vec<u64> {
    usage
        .iter()
        .map(|u| (u * scale as f64).round() as u64)
        .collect()
}
