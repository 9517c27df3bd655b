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
//! Records are written in [`pipeline_model::records`]'s layout (`[t, u.., a.., p.., x..]`
//! at the work-item's linear global id), which [`RecordFormat`] gives every index of; a
//! kernel's copy that reduces its records to warps writes one record per warp (module
//! `warps`), from each work-item's counters or, where no transition of its timing state
//! can run twice, from the bits of the transitions it took (module `path_codes`, the
//! state's `m`).
//!
//! In profile mode the state also holds `p[3 * S + 2 * E]`: per profiled source block
//! (see [`profiled_blocks`]) its executions, the cycles charged there and the PTX
//! instructions on the charged paths; every charge of `t` is also added to one block's
//! cycles, so that the blocks' cycles sum to `t`. Then a pair (cycles, instructions) per
//! extra line share (see [`LineShare`]): a charge whose path divides over source lines
//! otherwise than the first path booked at its block is also added there, so that the
//! profile can divide each block's cycles over lines exactly.
//!
//! A kernel with a barrier keeps those values in its record rather than private (module
//! `records`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pipeline_model::records::RecordFormat;

use crate::analysis::sampling::Site;
use crate::front::source::cfg::{Insertion, SourceBlock, SourceCfg};
use crate::front::source::SourceFile;
use crate::ids::{PtxBlock, SourceBlockId};
use crate::mapping::matching::{BlockMap, SourceRef};
use crate::mapping::paths::{From, PathTable, TimedPath, To};
use crate::mapping::unroll::{UnrollShape, UnrolledLoop};

mod charges;
mod edits;
mod exit;
mod path_codes;
mod profile;
mod records;
mod warps;

use charges::{
    called_function, charge, charge_terms, encode, scaled, select_charges, settle_function, Amount,
    ArmCharge, CalledUnit, ExitCharges,
};
use edits::{
    apply, blank_out, helper_edits, insertion, param_edits, wrap_returns, Edit, CLOSE,
    OPEN_EXPRESSION,
};
use exit::KernelEdits;
use path_codes::PathCodes;
pub use profile::{profiled_blocks, LineShare};
use profile::{Shares, Slots};
pub use records::{probe_value, record_probe};
pub use warps::{kernel_name as warp_kernel_name, DEFINE as WARPS_DEFINE};

/// The name of the counter state parameter and variable in the annotated code.
pub const STATE: &str = "__srcsim";
/// The name of the records parameter appended to every kernel.
pub const RECORDS: &str = "__srcsim_records";
/// A timing function's case: the path charged, its scaled usage, the block it reaches
/// (encoded) and the divergent arm it ends in.
type Case<'p> = (&'p TimedPath, Vec<Amount>, u32, ArmCharge);

/// One kernel to annotate: its PTX-to-source map and path table.
pub struct KernelTiming<'a> {
    /// The block map.
    pub map: &'a BlockMap,
    /// The path table.
    pub table: &'a PathTable,
    /// Loops the compiler unrolled (each with a shape): counted, charged when left.
    pub unrolled: &'a [UnrolledLoop],
    /// Per PTX block, the divergent arm counter its charges also go to (empty: none).
    pub arms: &'a crate::analysis::divergence::BlockArms,
    /// How the arms nest and pair: which paths enter an arm.
    pub arm_tree: &'a crate::analysis::divergence::ArmTree,
    /// A function the kernels call (not inlined) rather than a kernel: it keeps the
    /// caller's last block aside while it runs, and writes no record.
    pub called: bool,
    /// A kernel that gets a copy reducing its records to warps (the module `warps`),
    /// which takes the lanes and the warp size after its records.
    pub warp_records: bool,
    /// It has sampled accesses: its copy keeps the lanes that ran one whole (module
    /// `warps`).
    pub sampled: bool,
    /// Write its exit (and its unrolled loops' settling) without a branch: it waits at a
    /// barrier inside a branch, or runs in a kernel that does
    /// ([`crate::analysis::uniformity::branch_free_units`]).
    pub branch_free: bool,
}

impl KernelTiming<'_> {
    /// What a path from `from` to `to` adds to the arms' counters: its cycles to `to`'s
    /// arm, and where it enters an arm, an entry to it and a decision to it and to the
    /// other side of its branch.
    fn arm(&self, from: From, to: To) -> ArmCharge {
        let To::Block(v) = to else {
            return ArmCharge::default();
        };
        let entered = self.arm_tree.entered(self.arms, from.block(), v);
        ArmCharge {
            cycles: self.arms.of(v),
            entered,
            sibling: entered.and_then(|a| self.arm_tree.sibling.get(a).copied().flatten()),
        }
    }
}

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
    /// What each record holds: the resources, the divergent arms (the most any kernel
    /// has), the profile's counters and the sampled accesses.
    pub format: RecordFormat,
    /// The kernels whose twin keeps its record's values in its record (module
    /// `records`).
    pub in_record: Vec<String>,
    /// The path-coded kernels whose paths the host can evaluate, with their skeletons
    /// ([`crate::back::host_paths`]).
    pub host_paths: Vec<(String, crate::back::host_paths::HostPaths)>,
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
    memory: Option<usize>,
    usage_scale: u64,
    profile: bool,
    sites: &[Site],
) -> Result<Annotated, CodegenError> {
    let (cfgs, kernels, removed) = (units.cfgs, units.kernels, units.removed);
    check_units(file, kernels)?;
    let arms = kernels
        .iter()
        .filter(|k| !k.called)
        .map(|k| k.arms.counters())
        .max()
        .unwrap_or(0);
    let profiled = if profile {
        profiled_blocks(cfgs, kernels)
    } else {
        Vec::new()
    };
    let loops = numbered_loops(kernels);
    let in_record = records::kept_in_record(file, kernels);
    let mut g = Generation {
        file,
        kernels,
        in_record,
        usage_scale,
        memory,
        paths: PathCodes::new(kernels, cfgs, &loops, usage_scale),
        loops,
        slots: Slots::new(&profiled),
        shares: Shares::new(profiled.len()),
        functions: String::new(),
        edits: Vec::new(),
        kernel_edits: Vec::new(),
    };
    g.settle_functions();
    for cfg in cfgs {
        for block in &cfg.blocks {
            g.block_function(cfg, block);
        }
    }
    // Called functions: the caller's last block aside on entry, back at every return.
    for (ki, k) in kernels.iter().enumerate().filter(|(_, k)| k.called) {
        let called = CalledUnit {
            index: ki,
            timing: k,
            slots: &g.slots,
            entry_count: entry_count(cfgs, &g.slots, &k.map.kernel, STATE),
        };
        called_function(
            file,
            &called,
            &g.loops,
            usage_scale,
            &mut g.shares,
            &mut g.functions,
            &mut g.edits,
        )?;
    }
    // The charges of leaving every kernel, booked before any record's size is written.
    let kernel_exits = g.kernel_exit_charges();
    let format = RecordFormat {
        resources,
        arms,
        profile_counters: g.shares.counters(),
        sampled_accesses: sites.len(),
    };
    let copies: Vec<usize> = (0..kernels.len())
        .filter(|&ki| kernels[ki].warp_records && !kernels[ki].called)
        .collect();
    if !copies.is_empty() {
        let sampled = copies.iter().any(|&ki| kernels[ki].sampled);
        let counters = copies
            .iter()
            .any(|&ki| g.paths.of(ki).is_none() && !kernels[ki].sampled);
        g.functions
            .push_str(&warps::functions(&format, memory, counters, sampled));
    }
    let host_paths = g.paths.host_paths(file, kernels, cfgs, &format, memory);
    g.sample_calls(sites);
    if g.in_record.contains(&true) {
        g.functions.push_str(&records::enter_record(&format));
    }
    for (ki, k) in kernels.iter().enumerate().filter(|(_, k)| !k.called) {
        let entry = entry_count(cfgs, &g.slots, &k.map.kernel, &g.values(ki, STATE));
        g.kernel_exit(ki, &kernel_exits[ki], &format, &entry)?;
    }
    helper_edits(file, kernels, removed, &mut g.edits)?;
    let in_record = g.in_record.contains(&true);
    let functions = charges::with_by_width(&g.functions, &g.edits);
    let header = records::state_header(&format, &g.loops, g.paths.any(), in_record, &functions);
    let kept = blank_out(
        &file.text,
        file.functions
            .iter()
            .filter(|f| removed.contains(&f.name.as_str()))
            .map(|f| f.extent),
    );
    // The copies that reduce to warps, after everything they call; the program is built
    // with or without them (`warps::DEFINE`), each build holding only its own kernels. A
    // copy takes the edits inside its kernel so far: the timing calls, not exits, guards.
    let mut copies = String::new();
    let kernel_edits = std::mem::take(&mut g.kernel_edits);
    let guarded = kernel_edits.iter().any(|k| k.copy.is_some());
    for k in kernel_edits {
        let f = file
            .function(&kernels[k.kernel].map.kernel)
            .expect("check_units");
        if let Some(copy) = k.copy {
            copies.push_str(&warps::copy(&kept, f, &g.edits, copy));
        }
        if guarded {
            g.edits.extend(warps::without_copies(f));
        }
        g.edits.extend(k.own);
    }
    let mut text = apply(&kept, header, g.edits);
    if !copies.is_empty() {
        let _ = write!(text, "\n#ifdef {}{copies}#endif\n", warps::DEFINE);
    }
    let in_record = kernels
        .iter()
        .zip(&g.in_record)
        .filter(|(_, &kept)| kept)
        .map(|(k, _)| k.map.kernel.clone())
        .collect();
    Ok(Annotated {
        format,
        in_record,
        host_paths,
        text,
        profiled,
        extra_counters: g.shares.extra,
        shares: g.shares.per_slot,
    })
}

/// Every kernel to time is in `file`, and no called function is also inlined into a
/// kernel (that copy would switch the kernel's timing state).
fn check_units(file: &SourceFile, kernels: &[KernelTiming<'_>]) -> Result<(), CodegenError> {
    let path = file.path.display().to_string();
    for k in kernels {
        if file.function(&k.map.kernel).is_none() {
            return Err(CodegenError::MissingKernel {
                path,
                kernel: k.map.kernel.clone(),
            });
        }
    }
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
    Ok(())
}

/// The unrolled loops of all kernels that have a shape, numbered in kernel order: the
/// kernel's index, the loop and its shapes.
type NumberedLoops<'a> = Vec<(usize, &'a UnrolledLoop, Vec<UnrollShape>)>;

fn numbered_loops<'a>(kernels: &'a [KernelTiming<'a>]) -> NumberedLoops<'a> {
    kernels
        .iter()
        .enumerate()
        .flat_map(|(ki, k)| {
            k.unrolled
                .iter()
                .filter(|u| u.shape.is_some())
                .map(move |u| (ki, u, u.shapes()))
        })
        .collect()
}

/// Profile mode: code counting the entry of `unit` where it starts, when its entry block
/// has no place for a call; `values` is where its record's values are.
fn entry_count(cfgs: &[SourceCfg], slots: &Slots, unit: &str, values: &str) -> String {
    let no_call = cfgs
        .iter()
        .find(|c| c.function == unit)
        .and_then(|c| c.blocks.first())
        .is_some_and(|b| b.insertion == Insertion::Nothing);
    match slots.of(unit, SourceBlockId(0)) {
        Some(slot) if no_call => format!(" {values}->p[{}] += 1;", 3 * slot),
        _ => String::new(),
    }
}

/// The generated functions and the edits of one file, as they are built.
struct Generation<'a> {
    file: &'a SourceFile,
    kernels: &'a [KernelTiming<'a>],
    /// Per kernel, whether it keeps its record's values in its record (see the module).
    in_record: Vec<bool>,
    usage_scale: u64,
    /// The resource whose usage is summed as the bytes past the L1, in warp records.
    memory: Option<usize>,
    /// The kernels whose copies keep paths, not counters.
    paths: PathCodes,
    loops: NumberedLoops<'a>,
    slots: Slots,
    shares: Shares,
    functions: String,
    edits: Vec<Edit>,
    kernel_edits: Vec<KernelEdits>,
}

impl Generation<'_> {
    /// Where unit `ki`'s record's values are, from its state `state` (`s` in the timing
    /// functions).
    fn values(&self, ki: usize, state: &str) -> String {
        if self.in_record.get(ki) == Some(&true) {
            records::in_record(state)
        } else {
            state.to_string()
        }
    }

    /// The kernel (not a called function) named `name`, if it is one.
    fn kernel_named(&self, name: &str) -> Option<usize> {
        self.kernels
            .iter()
            .position(|k| !k.called && k.map.kernel == name)
    }

    /// The settle function of every unrolled loop.
    fn settle_functions(&mut self) {
        for (l, (ki, u, shapes)) in self.loops.iter().enumerate() {
            let values = self.values(*ki, "s");
            let (slots, shares) = (&self.slots, &mut self.shares);
            settle_function(
                &mut self.functions,
                &values,
                l,
                *ki,
                shapes,
                self.kernels[*ki].table,
                self.usage_scale,
                self.kernels[*ki].branch_free,
                &mut |p| {
                    slots
                        .of(&u.source.function, u.source.block)
                        .map(|slot| shares.book(slot, p))
                },
            );
        }
    }

    /// The timing function of source block `block` of `cfg`, if some PTX block maps to it
    /// (or it counts loop iterations or passes, or executions in profile mode), and its
    /// call.
    fn block_function(&mut self, cfg: &SourceCfg, block: &SourceBlock) {
        let id = SourceBlockId(block.id);
        let loops = &self.loops;
        let here = |u: &UnrolledLoop| u.source.function == cfg.function;
        // Loops whose body this block is: count instead of charging.
        let counts: Vec<(usize, usize)> = loops
            .iter()
            .enumerate()
            .filter(|(_, (_, u, _))| here(u) && u.source.block == id)
            .map(|(l, (ki, _, _))| (l, *ki))
            .collect();
        let counted: Vec<(usize, PtxBlock)> = loops
            .iter()
            .filter(|(_, u, _)| here(u) && u.source.block == id)
            .flat_map(|(ki, _, shapes)| {
                shapes.iter().flat_map(move |s| {
                    std::iter::once((*ki, s.main)).chain(s.remainder.map(|r| (*ki, r)))
                })
            })
            .collect();
        // Loops with copies whose passes this block enters, or whose count of passes it
        // resets (it enters the outermost loop the compiler unrolled around them).
        let passes: Vec<String> = loops
            .iter()
            .enumerate()
            .filter(|(_, (_, u, _))| here(u))
            .flat_map(|(l, (_, u, _))| {
                let c = u.copies.as_ref();
                let reset = c
                    .filter(|c| c.reset == id)
                    .map(|_| format!("    s->n[{l}] = 0;"));
                let enter = c
                    .filter(|c| c.enter == id)
                    .map(|_| format!("    s->c[{l}] = s->n[{l}]++;"));
                reset.into_iter().chain(enter)
            })
            .collect();
        // Loops this block is outside of: settle them first.
        let settles: Vec<usize> = loops
            .iter()
            .enumerate()
            .filter(|(_, (_, u, _))| here(u) && !u.source_loop.contains(&id))
            .map(|(l, _)| l)
            .collect();
        let cases = cases(self.kernels, self.usage_scale, cfg, id, &counted);
        let slot = self.slots.of(&cfg.function, id);
        if cases.is_empty() && counts.is_empty() && slot.is_none() && passes.is_empty() {
            return;
        }
        // A kernel that keeps its values in its record calls no function of the file,
        // so its blocks' functions are its alone.
        let values = self
            .kernel_named(&cfg.function)
            .map_or("s".to_string(), |ki| self.values(ki, "s"));
        let functions = &mut self.functions;
        let name = format!("__srcsim_{}_{}", cfg.function, block.id);
        let _ = writeln!(
            functions,
            "static inline __attribute__((always_inline)) void {name}(__private __srcsim_state *s)\n{{"
        );
        if let Some(slot) = slot {
            let _ = writeln!(functions, "    {values}->p[{}] += 1;", 3 * slot);
        }
        // A block with nothing to time and no passes to count has no function without the
        // profile; with it, it only counts its executions: settling unrolled loops there
        // would charge their iterations earlier (in smaller batches, K/U and K%U of a
        // smaller K) than the timing annotation does, and change t. A block that counts
        // passes settles in both modes, before the pass changes the copy.
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
            let booking = slot.map(|slot| self.shares.book(slot, path));
            charge(functions, &values, path.cycles, usage, "", *arm, booking);
            functions.push_str(&self.paths.set_case(&cfg.function, block.id, *from));
            let _ = writeln!(functions, " s->last = {to}u; return;");
        }
        functions.push_str("    default: return;\n    }\n}\n");
        self.edits
            .extend(insertion(block.insertion, &format!("{name}({STATE})")));
    }

    /// Per kernel, what leaving it from each timing point charges (booked in profile
    /// mode).
    fn kernel_exit_charges(&mut self) -> Vec<ExitCharges> {
        let (slots, shares, usage_scale) = (&self.slots, &mut self.shares, self.usage_scale);
        self.kernels
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
                            (p.cycles, scaled(p, usage_scale), booking),
                        )
                    })
                    .collect()
            })
            .collect()
    }

    /// Sampled accesses: each index goes through `__srcsim_sample`, which counts the
    /// executions and keeps the first and last index (counters after the profile's), or
    /// `__srcsim_sample_v` in a kernel that keeps them in its record.
    fn sample_calls(&mut self, sites: &[Site]) {
        let mut in_record = false;
        for (k, site) in sites.iter().enumerate() {
            let (start, end) = site.index;
            let ki = self.kernel_named(&site.kernel);
            let suffix = if ki.is_some_and(|ki| self.in_record[ki]) {
                in_record = true;
                "_v"
            } else {
                ""
            };
            // A pointer variable's subscript records the address it selects, in elements
            // (the pointer's own differ between work-items), and still selects the index.
            let text = match &site.pointer {
                Some(p) => format!(
                    "__srcsim_sample_from{suffix}({STATE}, {k}u, (long)((ulong)({p}) / {}), ",
                    site.access.element_bytes.max(1)
                ),
                None => format!("__srcsim_sample{suffix}({STATE}, {k}u, "),
            };
            self.edits.push(Edit {
                offset: start,
                class: OPEN_EXPRESSION,
                nesting: -i64::from(end),
                text,
            });
            self.edits.push(Edit {
                offset: end,
                class: CLOSE,
                nesting: -i64::from(start),
                text: ")".to_string(),
            });
        }
        if !sites.is_empty() {
            self.functions
                .push_str(&records::sample_function("", "__private ulong *x = s->x"));
            self.functions.push_str(&records::sample_from(""));
        }
        if in_record {
            self.functions.push_str(&records::sample_in_record());
            self.functions.push_str(&records::sample_from("_v"));
        }
    }
}

/// The cases of `block`'s timing function: per timing point a path into one of the
/// PTX blocks mapped to it comes from (the cheapest), what it charges; PTX blocks whose
/// iterations are `counted` instead are left out.
fn cases<'a>(
    kernels: &'a [KernelTiming<'a>],
    usage_scale: u64,
    cfg: &SourceCfg,
    block: SourceBlockId,
    counted: &[(usize, PtxBlock)],
) -> BTreeMap<u32, Case<'a>> {
    let mut cases: BTreeMap<u32, Case<'a>> = BTreeMap::new();
    for (ki, k) in kernels.iter().enumerate() {
        let targets: Vec<PtxBlock> = k
            .map
            .blocks
            .iter()
            .filter(|m| {
                m.source
                    .as_ref()
                    .is_some_and(|s| s.function == cfg.function && s.block == block)
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
            let usage = scaled(p, usage_scale);
            let better = cases.get(&key).is_none_or(|(c, ..)| p.cycles < c.cycles);
            if better {
                let to = encode(ki, From::Block(v));
                cases.insert(key, (p, usage, to, k.arm(p.from, p.to)));
            }
        }
    }
    cases
}
