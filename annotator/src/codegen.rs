//! Code generation (Algorithm 2): the kernel file with a timing call in every source block
//! that a PTX block maps to, the generated timing functions, private counters, and one
//! record per work-item written at every exit of each kernel.
//!
//! The annotated file computes exactly what the original does: calls are inserted as
//! statements before statements, as `(call, (expression))` around conditions, increments
//! and conditionally evaluated operands, or by wrapping a lone statement in braces; helper
//! functions get the counter state as an extra last parameter, and every kernel a
//! `__global ulong *` last parameter for the records.
//!
//! State (private to the work-item): `t` (cycles), `u[r]` (resource usage, in units of
//! 1/usage_scale cycles) and `last`, the last simulated PTX block, encoded as
//! `kernel << 16 | (block + 1)`, 0 in the low half meaning the kernel's start.
//! Record layout: `[t, u_0 .. u_{R-1}]` at index `linear global id * (1 + R)`.
//!
//! In profile mode the state also holds `p[3 * S + 2 * E]`: per profiled source block
//! (see [`profiled_blocks`]) its executions, the cycles charged there and the PTX
//! instructions on the charged paths; every charge of `t` is also added to one block's
//! cycles, so that the blocks' cycles sum to `t`. Then a pair (cycles, instructions) per
//! extra line share (see [`LineShare`]): a charge whose path divides over source lines
//! otherwise than the first path booked at its block is also added there, so that the
//! profile can divide each block's cycles over lines exactly. The record grows to
//! `[t, u.., p..]`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::matching::{BlockMap, SourceRef};
use crate::paths::{From, PathTable, TimedPath, To};
use crate::sampling::Site;
use crate::source::cfg::{Insertion, SourceCfg};
use crate::source::{AstNode, Extent, NodeKind, SourceFile, SourceFunction};
use crate::unroll::{UnrollShape, UnrolledLoop};
use pipeline_model::sampling::COUNTERS;

/// The name of the counter state parameter and variable in the annotated code.
pub const STATE: &str = "__srcsim";
/// The name of the records parameter appended to every kernel.
pub const RECORDS: &str = "__srcsim_records";

/// A timing function's case: the path charged, its scaled usage, the block it reaches
/// (encoded) and the divergent arm it ends in.
type Case<'p> = (&'p TimedPath, Vec<u64>, u32, Option<usize>);

/// One kernel to annotate: its PTX-to-source map and path table.
pub struct KernelTiming<'a> {
    /// The block map.
    pub map: &'a BlockMap,
    /// The path table.
    pub table: &'a PathTable,
    /// Loops the compiler unrolled (each with a shape): counted, charged when left.
    pub unrolled: &'a [UnrolledLoop],
    /// Per PTX block, the divergent arm counter its charges also go to (empty: none).
    pub arms: &'a [Option<usize>],
    /// A function the kernels call (not inlined) rather than a kernel: it keeps the
    /// caller's last block aside while it runs, and writes no record.
    pub called: bool,
}

impl KernelTiming<'_> {
    /// The arm counter of the charges of paths that end at `to`.
    fn arm(&self, to: To) -> Option<usize> {
        match to {
            To::Block(v) => self.arms.get(v).copied().flatten(),
            To::Exit => None,
        }
    }
}

/// Where a charge is also booked in profile mode: the profiled block's slot, the charged
/// path's PTX instruction count and, for a path whose cycles divide over source lines
/// otherwise than the first path booked at that block, the index in `p` of the cycles
/// and instructions counters of its line share.
#[derive(Debug, Clone, Copy)]
struct Booking {
    slot: usize,
    instructions: u64,
    share: Option<usize>,
}

/// `s->t += c; s->u[r] += u;` for a path taken `times` times (an expression, or "" once),
/// the same cycles to the counter of the divergent arm the path ends in, and in profile
/// mode the same cycles and the path's instructions to a block's slot.
fn charge(
    out: &mut String,
    cycles: u64,
    usage: &[u64],
    times: &str,
    arm: Option<usize>,
    booking: Option<Booking>,
) {
    let _ = write!(out, " s->t += {times}{cycles}ul;");
    if let Some(a) = arm {
        let _ = write!(out, " s->a[{a}] += {times}{cycles}ul;");
    }
    for (r, u) in usage.iter().enumerate() {
        if *u > 0 {
            let _ = write!(out, " s->u[{r}] += {times}{u}ul;");
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
            " s->p[{}] += {times}{cycles}ul; s->p[{}] += {times}{instructions}ul;",
            3 * slot + 1,
            3 * slot + 2
        );
        if let Some(at) = share {
            let _ = write!(
                out,
                " s->p[{at}] += {times}{cycles}ul; s->p[{}] += {times}{instructions}ul;",
                at + 1
            );
        }
    }
}

/// The source blocks a profiled annotation counts, in slot order: every block with a
/// place for a call, every block a PTX block maps to, and the entry block of every
/// kernel and called function (where charges with no timed block yet are booked).
pub fn profiled_blocks(cfgs: &[SourceCfg], kernels: &[KernelTiming<'_>]) -> Vec<SourceRef> {
    let units: Vec<&str> = kernels.iter().map(|k| k.map.kernel.as_str()).collect();
    let mut out = Vec::new();
    for cfg in cfgs {
        for block in &cfg.blocks {
            let mapped = kernels.iter().any(|k| {
                k.map.blocks.iter().any(|m| {
                    m.source
                        .as_ref()
                        .is_some_and(|s| s.function == cfg.function && s.block == block.id)
                })
            });
            let entry = block.id == 0 && units.contains(&cfg.function.as_str());
            if mapped || entry || block.insertion != Insertion::Nothing {
                out.push(SourceRef {
                    function: cfg.function.clone(),
                    block: block.id,
                });
            }
        }
    }
    out
}

/// Profile slots by source block.
struct Slots(BTreeMap<(String, usize), usize>);

impl Slots {
    fn new(blocks: &[SourceRef]) -> Self {
        Slots(
            blocks
                .iter()
                .enumerate()
                .map(|(i, b)| ((b.function.clone(), b.block), i))
                .collect(),
        )
    }

    fn of(&self, function: &str, block: usize) -> Option<usize> {
        self.0.get(&(function.to_string(), block)).copied()
    }

    /// The slot an exit path of `k` is booked at: the source block of its origin, or the
    /// unit's entry block for a path from the start.
    fn origin(&self, k: &KernelTiming<'_>, from: From) -> Option<usize> {
        match from {
            From::Block(b) => {
                let s = k.map.source_of(b)?;
                self.of(&s.function, s.block)
            }
            From::Start => self.of(&k.map.kernel, 0),
        }
    }
}

/// One way the cycles and instructions booked at a profiled block divide over source
/// lines: per line (0: none), its fractions of the cycles and of the instructions.
#[derive(Debug, Clone, PartialEq)]
pub struct LineShare {
    /// The counters holding the cycles and instructions booked with this share: `None`
    /// for the block's first share (the block's own counters less its other shares'),
    /// else the index of the cycles counter among the extra counters (instructions next).
    pub counter: Option<usize>,
    /// `(line, cycles fraction, instructions fraction)`, ascending by line.
    pub lines: Vec<(u32, f64, f64)>,
}

/// The line shares of every profiled block, found as paths are booked. Paths booked at
/// one block usually divide alike (every path into a PTX block divides its step the same
/// way, see [`crate::lines`]), so most blocks have one share and need no more counters;
/// a block also charged paths through other unmapped blocks gets a pair of counters per
/// further share, so that the profile's per-line cycles are exact.
struct Shares {
    /// Profiled blocks: the extra counters start at `3 * blocks` in `p`.
    blocks: usize,
    per_slot: Vec<Vec<LineShare>>,
    extra: usize,
}

impl Shares {
    fn new(blocks: usize) -> Self {
        Shares {
            blocks,
            per_slot: vec![Vec::new(); blocks],
            extra: 0,
        }
    }

    /// The booking of `path` at `slot`.
    fn book(&mut self, slot: usize, path: &TimedPath) -> Booking {
        let booking = |share| Booking {
            slot,
            instructions: path.instructions,
            share,
        };
        let fraction = |part: f64, whole: u64| {
            if whole == 0 {
                0.0
            } else {
                part / whole as f64
            }
        };
        if path.lines.is_empty() || (path.cycles == 0 && path.instructions == 0) {
            return booking(None);
        }
        let lines: Vec<(u32, f64, f64)> = path
            .lines
            .iter()
            .map(|l| {
                (
                    l.line,
                    fraction(l.cycles, path.cycles),
                    fraction(l.instructions as f64, path.instructions),
                )
            })
            .collect();
        let alike = |a: &[(u32, f64, f64)]| {
            a.len() == lines.len()
                && a.iter().zip(&lines).all(|(x, y)| {
                    x.0 == y.0 && (x.1 - y.1).abs() < 1e-9 && (x.2 - y.2).abs() < 1e-9
                })
        };
        let shares = &mut self.per_slot[slot];
        if let Some(s) = shares.iter().find(|s| alike(&s.lines)) {
            return booking(s.counter.map(|c| 3 * self.blocks + 2 * c));
        }
        let counter = if shares.is_empty() {
            None
        } else {
            self.extra += 1;
            Some(self.extra - 1)
        };
        shares.push(LineShare { counter, lines });
        booking(counter.map(|c| 3 * self.blocks + 2 * c))
    }

    /// Counters in `p`: three per block, two per extra share.
    fn counters(&self) -> usize {
        3 * self.blocks + 2 * self.extra
    }
}

/// The settle function of unrolled loop `l` of kernel `ki`: charges the `k` counted body
/// executions as `k / factor` iterations of the unrolled loop and `k % factor` of the
/// remainder loop, in the order the PTX runs them, each entered from wherever the last
/// simulated block is. A loop with several PTX copies (`shapes`, made by unrolling the
/// loops around it completely) charges the copy of the current pass, `c[l]`.
fn settle_function(
    out: &mut String,
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
        [shape] => settle_shape(out, ki, shape, table, usage_scale, book),
        _ => {
            let _ = writeln!(out, "    switch (s->c[{l}]) {{");
            for (j, shape) in shapes.iter().enumerate() {
                let _ = writeln!(out, "    case {j}u: {{");
                settle_shape(out, ki, shape, table, usage_scale, book);
                out.push_str("    } break;\n");
            }
            out.push_str("    default: break;\n    }\n");
        }
    }
    out.push_str("}\n");
}

/// The charges of `k` body executions on one unrolled loop and its remainder.
fn settle_shape(
    out: &mut String,
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
type ExitCharges = BTreeMap<u32, (u64, Vec<u64>, Option<Booking>)>;

/// What the annotated code must not lose (checked before writing anything).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CodegenError {
    /// A kernel of the PTX is not defined in the file.
    #[error("{path}: kernel `{kernel}` is not defined in this file")]
    MissingKernel {
        /// The file.
        path: String,
        /// The kernel.
        kernel: String,
    },
    /// A function the compiler inlined into one kernel and called from another.
    #[error("{path}: `{function}` is inlined into some kernels and called by others; the annotator cannot time both")]
    InlinedAndCalled {
        /// The file.
        path: String,
        /// The function.
        function: String,
    },
    /// A kernel returns from inside a macro expansion, where its record cannot be written.
    #[error("{path}:{line}: kernel `{kernel}` returns inside a macro expansion; the annotator cannot write its counters there")]
    ReturnInMacro {
        /// The file.
        path: String,
        /// The line of the macro use.
        line: u32,
        /// The kernel.
        kernel: String,
    },
    /// A helper is called from a macro expansion, where no argument can be added.
    #[error("{path}:{line}: `{function}` is called inside a macro expansion; the annotator cannot pass it its counters")]
    CallThroughMacro {
        /// The file.
        path: String,
        /// The line of the macro use.
        line: u32,
        /// The helper.
        function: String,
    },
    /// A helper is declared before its definition in a way the annotator cannot give the
    /// new parameter (a macro that names it, an unbalanced parameter list).
    #[error("{path}:{line}: `{function}` is declared before its definition in a way the annotator cannot rewrite (a macro names it)")]
    Prototype {
        /// The file.
        path: String,
        /// The line of the declaration.
        line: u32,
        /// The function.
        function: String,
    },
}

/// An insertion into the source text. At one offset, closers come first, then statement
/// wrappers (outer first), then calls, then kernel-exit writes, then expression wrappers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Edit {
    offset: u32,
    class: u8,
    /// Tie-break within a class: for openers the negated end (outer first), for closers
    /// the negated start (inner first).
    nesting: i64,
    text: String,
}

const CLOSE: u8 = 0;
const OPEN_STATEMENT: u8 = 1;
const CALL: u8 = 2;
const EXIT: u8 = 3;
const OPEN_EXPRESSION: u8 = 4;

fn encode(kernel: usize, from: From) -> u32 {
    let low = match from {
        From::Start => 0,
        From::Block(b) => b as u32 + 1,
    };
    ((kernel as u32) << 16) | low
}

/// The annotated text of a file and, in profile mode, what its profile counters hold.
#[derive(Debug, Clone)]
pub struct Annotated {
    /// The annotated OpenCL C.
    pub text: String,
    /// The profiled source blocks in slot order (empty without the profile).
    pub profiled: Vec<SourceRef>,
    /// Per profiled block, how its cycles and instructions divide over source lines:
    /// one share per distinct division among the paths booked there (none for a block
    /// nothing is booked at).
    pub shares: Vec<Vec<LineShare>>,
    /// Pairs of counters (cycles, instructions) after the blocks' counters, one per
    /// share beyond each block's first.
    pub extra_counters: usize,
    /// Divergent arm counters in each record, after the usage (the most any kernel has).
    pub arms: usize,
}

/// What to annotate in a file: the units to time and the functions to leave out.
pub struct Units<'a> {
    /// The source CFGs of the functions to annotate (not of those `removed`).
    pub cfgs: &'a [SourceCfg],
    /// The kernels and called functions to time.
    pub kernels: &'a [KernelTiming<'a>],
    /// Functions left out of the annotated file (blanked, their lines kept): refused
    /// kernels and the helpers only they call.
    pub removed: &'a [&'a str],
}

/// Annotates `file`: the annotated text and, with `profile`, the profiled source blocks
/// and their line shares.
pub fn annotate(
    file: &SourceFile,
    units: &Units<'_>,
    resources: usize,
    usage_scale: u64,
    profile: bool,
    sites: &[Site],
) -> Result<Annotated, CodegenError> {
    let (cfgs, kernels, removed) = (units.cfgs, units.kernels, units.removed);
    let path = file.path.display().to_string();
    for k in kernels {
        if file.function(&k.map.kernel).is_none() {
            return Err(CodegenError::MissingKernel {
                path,
                kernel: k.map.kernel.clone(),
            });
        }
    }
    let kernel_names: Vec<&str> = kernels
        .iter()
        .filter(|k| !k.called)
        .map(|k| k.map.kernel.as_str())
        .collect();
    let arms = kernels
        .iter()
        .filter(|k| !k.called)
        .filter_map(|k| k.arms.iter().flatten().max().map(|m| m + 1))
        .max()
        .unwrap_or(0);
    // A called function whose blocks are also inlined into a kernel would switch the
    // kernel's timing state in the inlined copy.
    for c in kernels.iter().filter(|k| k.called) {
        let inlined = kernels.iter().filter(|k| !k.called).any(|k| {
            k.map.blocks.iter().any(|m| {
                m.source
                    .as_ref()
                    .is_some_and(|s| s.function == c.map.kernel)
            })
        });
        if inlined {
            return Err(CodegenError::InlinedAndCalled {
                path,
                function: c.map.kernel.clone(),
            });
        }
    }
    let helpers: Vec<&SourceFunction> = file
        .functions
        .iter()
        .filter(|f| !kernel_names.contains(&f.name.as_str()) && !removed.contains(&f.name.as_str()))
        .collect();
    let profiled = if profile {
        profiled_blocks(cfgs, kernels)
    } else {
        Vec::new()
    };
    let slots = Slots::new(&profiled);
    let mut shares = Shares::new(profiled.len());
    // A unit whose entry block has no place for a call counts its entry where it starts.
    let entry_count = |unit: &str| -> String {
        let no_call = cfgs
            .iter()
            .find(|c| c.function == unit)
            .and_then(|c| c.blocks.first())
            .is_some_and(|b| b.insertion == Insertion::Nothing);
        match slots.of(unit, 0) {
            Some(slot) if no_call => format!(" {STATE}->p[{}] += 1;", 3 * slot),
            _ => String::new(),
        }
    };

    let mut edits: Vec<Edit> = Vec::new();
    let mut functions = String::new();

    // Unrolled loops of all kernels, numbered; their settle functions.
    let loops: Vec<(usize, &UnrolledLoop, Vec<UnrollShape>)> = kernels
        .iter()
        .enumerate()
        .flat_map(|(ki, k)| {
            k.unrolled
                .iter()
                .filter(|u| u.shape.is_some())
                .map(move |u| (ki, u, u.shapes()))
        })
        .collect();
    let copied = loops.iter().any(|(_, u, _)| u.copies.is_some());
    for (l, (ki, u, shapes)) in loops.iter().enumerate() {
        settle_function(
            &mut functions,
            l,
            *ki,
            shapes,
            kernels[*ki].table,
            usage_scale,
            &mut |p| {
                slots
                    .of(&u.source.function, u.source.block)
                    .map(|slot| shares.book(slot, p))
            },
        );
    }

    // The timing function of every source block some PTX block maps to.
    for cfg in cfgs {
        for block in &cfg.blocks {
            let here = |u: &UnrolledLoop| u.source.function == cfg.function;
            // Loops whose body this block is: count instead of charging.
            let counts: Vec<(usize, usize)> = loops
                .iter()
                .enumerate()
                .filter(|(_, (_, u, _))| here(u) && u.source.block == block.id)
                .map(|(l, (ki, _, _))| (l, *ki))
                .collect();
            let counted: Vec<(usize, usize)> = loops
                .iter()
                .filter(|(_, u, _)| here(u) && u.source.block == block.id)
                .flat_map(|(ki, _, shapes)| {
                    shapes.iter().flat_map(move |s| {
                        std::iter::once((*ki, s.main)).chain(s.remainder.map(|r| (*ki, r)))
                    })
                })
                .collect();
            // Loops with copies whose passes this block enters, or whose count of passes
            // it resets (it enters the outermost loop the compiler unrolled around them).
            let passes: Vec<String> = loops
                .iter()
                .enumerate()
                .filter(|(_, (_, u, _))| here(u))
                .flat_map(|(l, (_, u, _))| {
                    let c = u.copies.as_ref();
                    let reset = c
                        .filter(|c| c.reset == block.id)
                        .map(|_| format!("    s->n[{l}] = 0;"));
                    let enter = c
                        .filter(|c| c.enter == block.id)
                        .map(|_| format!("    s->c[{l}] = s->n[{l}]++;"));
                    reset.into_iter().chain(enter)
                })
                .collect();
            // Loops this block is outside of: settle them first.
            let settles: Vec<usize> = loops
                .iter()
                .enumerate()
                .filter(|(_, (_, u, _))| here(u) && !u.source_loop.contains(&block.id))
                .map(|(l, _)| l)
                .collect();
            let mut cases: BTreeMap<u32, Case<'_>> = BTreeMap::new();
            for (ki, k) in kernels.iter().enumerate() {
                let targets: Vec<usize> = k
                    .map
                    .blocks
                    .iter()
                    .filter(|m| {
                        m.source
                            .as_ref()
                            .is_some_and(|s| s.function == cfg.function && s.block == block.id)
                    })
                    .map(|m| m.ptx_block)
                    .filter(|&v| !counted.contains(&(ki, v)))
                    .collect();
                for p in &k.table.paths {
                    let To::Block(v) = p.to else { continue };
                    if !targets.contains(&v) {
                        continue;
                    }
                    let key = encode(ki, p.from);
                    let usage = scaled(&p.usage, usage_scale);
                    let better = cases.get(&key).is_none_or(|(c, ..)| p.cycles < c.cycles);
                    if better {
                        let to = encode(ki, From::Block(v));
                        cases.insert(key, (p, usage, to, k.arm(p.to)));
                    }
                }
            }
            let slot = slots.of(&cfg.function, block.id);
            if cases.is_empty() && counts.is_empty() && slot.is_none() && passes.is_empty() {
                continue;
            }
            let name = format!("__srcsim_{}_{}", cfg.function, block.id);
            let _ = writeln!(
                functions,
                "static inline __attribute__((always_inline)) void {name}(__private __srcsim_state *s)\n{{"
            );
            if let Some(slot) = slot {
                let _ = writeln!(functions, "    s->p[{}] += 1;", 3 * slot);
            }
            // A block with nothing to time and no passes to count has no function without
            // the profile; with it, it only counts its executions: settling unrolled loops
            // there would charge their iterations earlier (in smaller batches, K/U and K%U
            // of a smaller K) than the timing annotation does, and change t. A block that
            // counts passes settles in both modes, before the pass changes the copy.
            if !cases.is_empty() || !counts.is_empty() || !passes.is_empty() {
                for l in &settles {
                    let _ = writeln!(functions, "    __srcsim_settle_{l}(s);");
                }
            }
            // After settling the last pass, which the count of the next one follows.
            for p in &passes {
                let _ = writeln!(functions, "{p}");
            }
            for (l, ki) in &counts {
                let _ = writeln!(
                    functions,
                    "    if ((s->last >> 16) == {ki}u) {{ s->k[{l}] += 1; return; }}"
                );
            }
            functions.push_str("    switch (s->last) {\n");
            for (from, (path, usage, to, arm)) in &cases {
                let _ = write!(functions, "    case {from}u:");
                let booking = slot.map(|slot| shares.book(slot, path));
                charge(&mut functions, path.cycles, usage, "", *arm, booking);
                let _ = writeln!(functions, " s->last = {to}u; return;");
            }
            functions.push_str("    default: return;\n    }\n}\n");
            edits.extend(insertion(block.insertion, &format!("{name}({STATE})")));
        }
    }

    // Called functions: the caller's last block aside on entry, back at every return.
    for (ki, k) in kernels.iter().enumerate().filter(|(_, k)| k.called) {
        let called = CalledUnit {
            index: ki,
            timing: k,
            slots: &slots,
            entry_count: entry_count(&k.map.kernel),
        };
        called_function(
            file,
            &called,
            &loops,
            usage_scale,
            &mut shares,
            &mut functions,
            &mut edits,
        )?;
    }

    // The charges of leaving every kernel, booked before any record's size is written.
    let kernel_exits: Vec<ExitCharges> = kernels
        .iter()
        .enumerate()
        .map(|(ki, k)| {
            k.table
                .paths
                .iter()
                .filter(|p| p.to == To::Exit && !k.called)
                .map(|p| {
                    let booking = slots.origin(k, p.from).map(|slot| shares.book(slot, p));
                    (
                        encode(ki, p.from),
                        (p.cycles, scaled(&p.usage, usage_scale), booking),
                    )
                })
                .collect()
        })
        .collect();
    let counters = shares.counters();
    // Sampled accesses: their counters (executions, first and last index) after the
    // profile's.
    let samples = COUNTERS * sites.len();
    for (k, site) in sites.iter().enumerate() {
        let (start, end) = site.index;
        edits.push(Edit {
            offset: start,
            class: OPEN_EXPRESSION,
            nesting: -i64::from(end),
            text: format!("__srcsim_sample({STATE}, {k}u, "),
        });
        edits.push(Edit {
            offset: end,
            class: CLOSE,
            nesting: -i64::from(start),
            text: ")".to_string(),
        });
    }
    if !sites.is_empty() {
        // The index goes through as a `long`: every index of an array that fits in memory
        // keeps its value, so the access is the same.
        functions.push_str(
            "static inline __attribute__((always_inline)) long __srcsim_sample(__private __srcsim_state *s, uint k, long i)\n{\n    __private ulong *x = s->x + 3 * k;\n    x[1] = x[0] == 0 ? (ulong)i : x[1];\n    x[0] += 1;\n    x[2] = (ulong)i;\n    return i;\n}\n",
        );
    }

    // Exits and records of every kernel; its state; its extra parameter.
    for (ki, k) in kernels.iter().enumerate().filter(|(_, k)| !k.called) {
        let name = &k.map.kernel;
        let f = file.function(name).expect("checked above");
        let _ = writeln!(
            functions,
            "static inline __attribute__((always_inline)) void __srcsim_exit_{name}(__private __srcsim_state *s, __global ulong *records)\n{{"
        );
        for (l, (lk, _, _)) in loops.iter().enumerate() {
            if *lk == ki {
                let _ = writeln!(functions, "    __srcsim_settle_{l}(s);");
            }
        }
        functions.push_str("    switch (s->last) {\n");
        for (from, (cycles, usage, booking)) in &kernel_exits[ki] {
            let _ = write!(functions, "    case {from}u:");
            charge(&mut functions, *cycles, usage, "", None, *booking);
            functions.push_str(" break;\n");
        }
        let _ = writeln!(
            functions,
            "    default: break;\n    }}\n    size_t id = (get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)\n              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n              + (get_global_id(0) - get_global_offset(0));\n    __global ulong *rec = records + id * {stride};\n    rec[0] = s->t;",
            stride = resources + 1 + arms + counters + samples
        );
        for r in 0..resources {
            let _ = writeln!(functions, "    rec[{}] = s->u[{r}];", r + 1);
        }
        for a in 0..arms {
            let _ = writeln!(functions, "    rec[{}] = s->a[{a}];", resources + 1 + a);
        }
        if !profiled.is_empty() {
            let _ = writeln!(
                functions,
                "    for (uint i = 0; i < {counters}u; ++i) rec[{} + i] = s->p[i];",
                resources + 1 + arms
            );
        }
        if samples > 0 {
            let _ = writeln!(
                functions,
                "    for (uint i = 0; i < {samples}u; ++i) rec[{} + i] = s->x[i];",
                resources + 1 + arms + counters
            );
        }
        functions.push_str("}\n");

        // The records parameter, the state, the exits.
        edits.extend(param_edits(file, f, &format!("__global ulong *{RECORDS}")));
        edits.push(Edit {
            offset: f.body.extent.start.offset + 1,
            class: CLOSE,
            nesting: i64::MIN,
            text: format!(
                " __srcsim_state {STATE}_st = {{0}}; __private __srcsim_state *{STATE} = &{STATE}_st; {STATE}->last = {}u;{}",
                encode(ki, From::Start),
                entry_count(name)
            ),
        });
        let exit_call = format!("__srcsim_exit_{name}({STATE}, {RECORDS});");
        wrap_returns(
            file,
            f,
            |_| format!("{{ {exit_call} "),
            &exit_call,
            &mut edits,
        )?;
    }

    // Helpers take the state; every call of a helper passes it.
    let helper_names: Vec<&str> = helpers.iter().map(|h| h.name.as_str()).collect();
    for h in &helpers {
        let param = format!("__private __srcsim_state *{STATE}");
        edits.extend(param_edits(file, h, &param));
        edits.extend(prototype_edits(file, h, &param)?);
    }
    let mut through_macro = None;
    for f in file
        .functions
        .iter()
        .filter(|f| !removed.contains(&f.name.as_str()))
    {
        for_each(&f.body, &mut |n| {
            if n.kind == NodeKind::Call && helper_names.contains(&n.spelling.as_str()) {
                if !file.text_of(&n.extent).starts_with(n.spelling.as_str()) {
                    through_macro.get_or_insert((n.extent.start.line, n.spelling.clone()));
                    return;
                }
                let has_args = n.children.len() > 1;
                edits.push(Edit {
                    offset: n.extent.end.offset - 1,
                    class: CLOSE,
                    nesting: i64::MIN,
                    text: if has_args {
                        format!(", {STATE}")
                    } else {
                        STATE.to_string()
                    },
                });
            }
        });
    }

    if let Some((line, function)) = through_macro {
        return Err(CodegenError::CallThroughMacro {
            path: file.path.display().to_string(),
            line,
            function,
        });
    }
    let header = format!(
        "/* Timing annotation by srcsim {}: every work-item adds up its best-case cycles and\n   resource usage and writes them to {RECORDS}. */\n#if __OPENCL_C_VERSION__ < 120\n#define static /* OpenCL C 1.0 and 1.1 have no `static`; the functions are always inlined */\n#endif\ntypedef struct {{ ulong t; ulong u[{resources}]; uint last;{arm_counters}{counters}{profile}{sampled} }} __srcsim_state;\n{functions}#line 1\n",
        env!("CARGO_PKG_VERSION"),
        counters = match (loops.len(), copied) {
            (0, _) => String::new(),
            (n, false) => format!(" ulong k[{n}];"),
            // Per loop with copies: passes since the loops around it were entered, and
            // the copy the counted pass runs.
            (n, true) => format!(" ulong k[{n}]; uint n[{n}]; uint c[{n}];"),
        },
        profile = if profiled.is_empty() {
            String::new()
        } else {
            format!(" ulong p[{counters}];")
        },
        sampled = if samples == 0 {
            String::new()
        } else {
            format!(" ulong x[{samples}];")
        },
        arm_counters = if arms == 0 {
            String::new()
        } else {
            format!(" ulong a[{arms}];")
        },
    );
    let kept = blank_out(
        &file.text,
        file.functions
            .iter()
            .filter(|f| removed.contains(&f.name.as_str()))
            .map(|f| f.extent),
    );
    Ok(Annotated {
        arms,
        text: apply(&kept, header, edits),
        profiled,
        extra_counters: shares.extra,
        shares: shares.per_slot,
    })
}

/// A called (not inlined) function to annotate.
struct CalledUnit<'a> {
    /// Its unit number (kernels first).
    index: usize,
    timing: &'a KernelTiming<'a>,
    slots: &'a Slots,
    /// Code counting its entry block where it has no call of its own (profile mode).
    entry_count: String,
}

/// The exit function and the entry and return edits of a called (not inlined) function:
/// it times its own PTX blocks, from its start, and hands the caller's last block back.
fn called_function(
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

/// Puts `open(return)` and `return ...;` in braces at every return of `f` (braces keep
/// `if (c) return;` one statement), and `at_end` before the closing brace of its body.
fn wrap_returns(
    file: &SourceFile,
    f: &SourceFunction,
    open: impl Fn(&AstNode) -> String,
    at_end: &str,
    edits: &mut Vec<Edit>,
) -> Result<(), CodegenError> {
    let text = file.text.as_bytes();
    let mut in_macro = None;
    for_each(&f.body, &mut |n| {
        if n.kind != NodeKind::Return {
            return;
        }
        if n.in_macro {
            in_macro.get_or_insert(n.extent.start.line);
            return;
        }
        let mut end = n.extent.end.offset as usize;
        while end < text.len() && text[end] != b';' {
            end += 1;
        }
        let end = (end + 1).min(text.len()) as u32;
        edits.push(Edit {
            offset: n.extent.start.offset,
            class: EXIT,
            nesting: -i64::from(end),
            text: open(n),
        });
        edits.push(Edit {
            offset: end,
            class: CLOSE,
            nesting: -i64::from(n.extent.start.offset),
            text: " }".into(),
        });
    });
    if let Some(line) = in_macro {
        return Err(CodegenError::ReturnInMacro {
            path: file.path.display().to_string(),
            line,
            kernel: f.name.clone(),
        });
    }
    edits.push(Edit {
        offset: f.body.extent.end.offset - 1,
        class: EXIT,
        nesting: 0,
        text: format!(" {at_end} "),
    });
    Ok(())
}

fn scaled(usage: &[f64], scale: u64) -> Vec<u64> {
    usage
        .iter()
        .map(|u| (u * scale as f64).round() as u64)
        .collect()
}

/// What ends code inserted before a statement that starts with a directive on `line`
/// (`#pragma unroll`): a directive must start its line, and `#line` keeps the numbers of
/// the original lines.
fn directive_break(directive: Option<u32>) -> String {
    directive.map_or_else(String::new, |line| format!("\n#line {line}\n"))
}

fn insertion(ins: Insertion, call: &str) -> Vec<Edit> {
    match ins {
        Insertion::Before { offset, directive } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: format!(" {call};{}", directive_break(directive)),
        }],
        Insertion::WrapStatement {
            start,
            end,
            directive,
        } => vec![
            Edit {
                offset: start,
                class: OPEN_STATEMENT,
                nesting: -i64::from(end),
                text: format!("{{ {call}; {}", directive_break(directive)),
            },
            Edit {
                offset: end,
                class: CLOSE,
                nesting: -i64::from(start),
                text: " }".into(),
            },
        ],
        Insertion::WrapExpression { start, end } => vec![
            Edit {
                offset: start,
                class: OPEN_EXPRESSION,
                nesting: -i64::from(end),
                text: format!("({call}, ("),
            },
            Edit {
                offset: end,
                class: CLOSE,
                nesting: -i64::from(start),
                text: "))".into(),
            },
        ],
        Insertion::EmptyCondition { offset } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: format!("({call}, 1)"),
        }],
        Insertion::EmptyIncrement { offset } => vec![Edit {
            offset,
            class: CALL,
            nesting: 0,
            text: call.to_string(),
        }],
        Insertion::Nothing => Vec::new(),
    }
}

/// An extra last parameter for `f`: before the `)` that closes its parameter list.
fn param_edits(file: &SourceFile, f: &SourceFunction, param: &str) -> Vec<Edit> {
    let text = file.text.as_bytes();
    let mut close = f.body.extent.start.offset as usize;
    while close > 0 && text[close] != b')' {
        close -= 1;
    }
    let mut open = close;
    let mut depth = 0;
    while open > 0 {
        match text[open] {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            _ => {}
        }
        open -= 1;
    }
    parameter_list_edits(file, open, close, param)
}

/// `param` as the last parameter of the list between the parentheses at `open` and
/// `close`.
fn parameter_list_edits(file: &SourceFile, open: usize, close: usize, param: &str) -> Vec<Edit> {
    let inside = file.text[open + 1..close].trim();
    if inside == "void" {
        // `f(void)`: `void, x` is invalid; the `void` is commented out.
        vec![
            Edit {
                offset: (open + 1) as u32,
                class: CLOSE,
                nesting: i64::MIN,
                text: format!("{param} /*"),
            },
            Edit {
                offset: close as u32,
                class: CLOSE,
                nesting: i64::MIN,
                text: "*/".into(),
            },
        ]
    } else {
        vec![Edit {
            offset: close as u32,
            class: CLOSE,
            nesting: i64::MIN,
            text: if inside.is_empty() {
                param.to_string()
            } else {
                format!(", {param}")
            },
        }]
    }
}

fn for_each(n: &AstNode, f: &mut dyn FnMut(&AstNode)) {
    f(n);
    for c in &n.children {
        for_each(c, f);
    }
}

/// The prototypes of `h` before its definition (`float scale(float x, float s);` at file
/// scope) get the new parameter as the definition does, so that both keep one signature.
/// Mentions inside function bodies are calls, which the call edits handle.
fn prototype_edits(
    file: &SourceFile,
    h: &SourceFunction,
    param: &str,
) -> Result<Vec<Edit>, CodegenError> {
    let text = file.text.as_bytes();
    let before = &file.text[..h.extent.start.offset as usize];
    let in_a_body = |pos: usize| {
        file.functions.iter().any(|f| {
            (f.body.extent.start.offset as usize..f.body.extent.end.offset as usize).contains(&pos)
        })
    };
    let refuse = |pos: usize| CodegenError::Prototype {
        path: file.path.display().to_string(),
        line: before[..pos].matches('\n').count() as u32 + 1,
        function: h.name.clone(),
    };
    let pattern = format!("{}(", h.name);
    let mut edits = Vec::new();
    let mut from = 0;
    while let Some(at) = before[from..].find(&pattern) {
        let pos = from + at;
        from = pos + pattern.len();
        let prev = before[..pos].chars().next_back();
        if prev.is_some_and(|c| c.is_alphanumeric() || c == '_') || in_a_body(pos) {
            continue;
        }
        // A preprocessor line (a macro that names the helper) cannot be rewritten. A call
        // in a macro's body (`#define CELL(p) cell_index((p).x)`: the name after `(`, `,`,
        // an operator) is no declaration: the kernels that expand it are refused where
        // the call is (CallThroughMacro), the others are annotated. A name after a word or
        // `*` may declare it (`#define P float cell_index(int)`): refused, the whole file.
        let line_start = before[..pos].rfind('\n').map_or(0, |n| n + 1);
        if before[line_start..pos].trim_start().starts_with('#') {
            let after_word = before[line_start..pos]
                .trim_end()
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '*');
            if after_word {
                return Err(refuse(pos));
            }
            continue;
        }
        let open = pos + h.name.len();
        let mut depth = 0;
        let mut close = None;
        for (i, &c) in text.iter().enumerate().skip(open) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let close = close.ok_or_else(|| refuse(pos))?;
        edits.extend(parameter_list_edits(file, open, close, param));
    }
    Ok(edits)
}

/// `text` with the code of every extent replaced by spaces, its line breaks kept (so that
/// every other offset and line stays where it was) and its preprocessor directives but
/// `#pragma` kept (a `#define` or `#if` inside a function still holds for the code after
/// it), each with its continuation lines.
fn blank_out(text: &str, extents: impl Iterator<Item = Extent>) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for e in extents {
        let (start, end) = (
            e.start.offset as usize,
            (e.end.offset as usize).min(bytes.len()),
        );
        let mut i = start;
        let mut directive = false;
        while i < end {
            let line_start = i == 0 || text.as_bytes()[i - 1] == b'\n';
            if line_start && !directive {
                let rest = text[i..end].trim_start_matches([' ', '\t']);
                directive = rest.starts_with('#')
                    && !rest[1..]
                        .trim_start_matches([' ', '\t'])
                        .starts_with("pragma");
            }
            let line_end = text[i..end].find('\n').map_or(end, |n| i + n);
            if !directive {
                for b in &mut bytes[i..line_end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
            // A directive goes on past a line that ends with a backslash.
            directive = directive && text[i..line_end].trim_end().ends_with('\\');
            i = line_end + 1;
        }
    }
    String::from_utf8(bytes).expect("only ASCII bytes replaced whole characters")
}

fn apply(text: &str, header: String, mut edits: Vec<Edit>) -> String {
    edits.sort();
    let mut out = header;
    out.reserve(text.len() + edits.iter().map(|e| e.text.len()).sum::<usize>());
    let mut at = 0usize;
    for e in edits {
        let offset = e.offset as usize;
        if offset > at {
            out.push_str(&text[at..offset]);
            at = offset;
        }
        out.push_str(&e.text);
    }
    out.push_str(&text[at..]);
    out
}
