//! The annotator's whole pipeline for one kernel file: compile and analyze, parse the
//! source, build source CFGs, match blocks, build path tables, generate the annotated
//! file and its sidecar.

use std::collections::BTreeMap;
use std::path::Path;

use pipeline_model::Architecture;

use crate::analysis::{analyze_file, Analysis, AnalyzeError};
use crate::codegen::{self, CodegenError, KernelTiming, Units};
use crate::compile::{BuildOptions, CompileError, Compiler, KEEP_LOOPS};
use crate::control::{path_inputs, with_sampled_indices};
use crate::divergence::divergent_arms;
use crate::lines::{attribute, function_lines};
use crate::matching::match_blocks;
use crate::paths::path_table;
use crate::sampling::sampled_sites;
use crate::sidecar::{
    AnnotatedKernel, KernelSample, LineShare, LineWeight, ProfileLayout, ProfiledBlock,
    RecordLayout, RefusedKernel, Sidecar, SIDECAR_SCHEMA,
};
use crate::source::cfg::{build, Insertion, SourceCfg, Unsupported};
use crate::source::{parse, ParamKind, SourceError, SourceFile};
use crate::unroll::unrolled_loops;

/// Why a file could not be annotated.
#[derive(Debug, thiserror::Error)]
pub enum AnnotateError {
    /// Compiling or analyzing failed.
    #[error(transparent)]
    Analyze(#[from] AnalyzeError),
    /// libclang could not parse the file.
    #[error(transparent)]
    Source(#[from] SourceError),
    /// A construct the annotator does not handle.
    #[error(transparent)]
    Unsupported(#[from] Unsupported),
    /// The annotated code could not be generated.
    #[error(transparent)]
    Codegen(#[from] CodegenError),
    /// The annotation cache could not be read or written.
    #[error("annotation cache {path}: {source}")]
    Cache {
        /// The file or directory.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Every kernel of the file was refused: the reasons, one per line.
    #[error("{0}")]
    Refused(String),
    /// An earlier run found this source cannot be annotated (the message is that run's).
    #[error("{0} (cached)")]
    Cached(String),
    /// Annotating a source kept in the annotation cache failed; the message names the
    /// source by where it came from and where it is kept.
    #[error("{0}")]
    KeptSource(String),
    /// A barrier inside a branch whose condition may differ between the work-items of a
    /// work-group ([`crate::uniformity`]): undefined behaviour in OpenCL (every work-item
    /// of a work-group, or none, must reach a barrier), and the annotated twin of such a
    /// kernel cannot be trusted to compute what the kernel does on the OpenCL CPU
    /// runtime. Refused, so the kernel runs as it is.
    #[error("{path}:{line}: `{function}` {waits} inside a branch whose condition may differ between the work-items of a work-group (undefined behaviour in OpenCL: all of a work-group's work-items or none must reach a barrier), so the kernel runs unannotated")]
    VaryingBarrier {
        /// The file.
        path: String,
        /// The barrier's (or the call's) line.
        line: u32,
        /// The function that holds it.
        function: String,
        /// What waits there: "waits at a barrier", or "calls `f`, which waits at a
        /// barrier,".
        waits: String,
    },
    /// The compiler unrolled a loop; counting its iterations per call would be wrong.
    #[error("{path}:{line}: the compiler unrolled this loop of `{kernel}` (PTX blocks {ptx_blocks:?}) into a shape the annotator cannot count: more than a loop of copies and a remainder loop (per copy of the loops around it, where the compiler unrolled those completely and each of their passes enters it once), or other timed code inside them or between their copies")]
    UnrolledLoop {
        /// The file.
        path: String,
        /// The first line of the loop body.
        line: u32,
        /// The kernel.
        kernel: String,
        /// The PTX blocks of the loop body's copies.
        ptx_blocks: Vec<usize>,
    },
}

/// How to annotate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AnnotateOptions {
    /// Also count, per source block, executions, cycles and PTX instructions.
    pub profile: bool,
}

/// An annotated kernel file.
#[derive(Debug, Clone)]
pub struct Annotation {
    /// The annotated OpenCL C text.
    pub source: String,
    /// Everything a consumer of the records needs.
    pub sidecar: Sidecar,
}

/// Annotates the OpenCL C file `path` for `arch` (timing only, no profile).
pub fn annotate_file(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
) -> Result<Annotation, AnnotateError> {
    annotate_file_with(compiler, path, options, arch, AnnotateOptions::default())
}

/// Line and column (1-based) of byte `offset` of `text`.
fn line_col(text: &str, offset: u32) -> (u32, u32) {
    let before = &text[..(offset as usize).min(text.len())];
    let line = before.matches('\n').count() as u32 + 1;
    let col = before.len() - before.rfind('\n').map_or(0, |n| n + 1) + 1;
    (line, col as u32)
}

/// Describes the profiled blocks: their lines and first position in the original source.
fn describe_profiled(
    file: &SourceFile,
    cfgs: &[SourceCfg],
    blocks: &[crate::matching::SourceRef],
    shares: &[Vec<codegen::LineShare>],
) -> Vec<ProfiledBlock> {
    blocks
        .iter()
        .zip(shares)
        .map(|(r, shares)| {
            let cfg = cfgs
                .iter()
                .find(|c| c.function == r.function)
                .expect("profiled blocks come from the CFGs");
            let b = &cfg.blocks[r.block];
            let mut lines: Vec<u32> = b.lines().collect();
            lines.sort_unstable();
            lines.dedup();
            let first = b.regions.iter().map(|e| e.start).min_by_key(|p| p.offset);
            let (line, column) = match (first, b.insertion) {
                (Some(p), _) => (p.line, p.col),
                (None, Insertion::Before { offset, .. })
                | (None, Insertion::EmptyCondition { offset })
                | (None, Insertion::EmptyIncrement { offset })
                | (None, Insertion::WrapStatement { start: offset, .. })
                | (None, Insertion::WrapExpression { start: offset, .. }) => {
                    line_col(&file.text, offset)
                }
                // A block with no code: where its function's body starts.
                (None, Insertion::Nothing) => file.function(&r.function).map_or((0, 0), |f| {
                    (f.body.extent.start.line, f.body.extent.start.col)
                }),
            };
            if lines.is_empty() {
                lines.push(line);
            }
            // Code with no line of its own goes to the block's first line.
            let shares = shares
                .iter()
                .map(|s| {
                    let mut by_line: BTreeMap<u32, (f64, f64)> = BTreeMap::new();
                    for &(l, c, i) in &s.lines {
                        let at = by_line.entry(if l == 0 { line } else { l }).or_default();
                        at.0 += c;
                        at.1 += i;
                    }
                    LineShare {
                        counter: s.counter,
                        lines: by_line
                            .into_iter()
                            .map(|(line, (cycles, instructions))| LineWeight {
                                line,
                                cycles,
                                instructions,
                            })
                            .collect(),
                    }
                })
                .collect();
            ProfiledBlock {
                function: r.function.clone(),
                block: r.block,
                lines,
                line,
                column,
                shares,
            }
        })
        .collect()
}

/// Annotates the OpenCL C file `path` for `arch`, as `how` says.
///
/// A kernel the annotator cannot time (a construct it does not handle, in the kernel or
/// in a helper it calls) is refused alone: it is left out of the annotated file, with the
/// helpers only it calls, and named in [`Sidecar::refused`] with the reason; the other
/// kernels are annotated. Only when every kernel is refused, or the file itself cannot be
/// compiled or parsed, is the result an error.
///
/// Where the compiler unrolled a loop into a shape the annotator cannot count, the file is
/// compiled again without unrolling ([`BuildOptions::keep_loops`]) and timed from that PTX:
/// an estimate of a slightly different binary (loop overhead on every iteration) rather
/// than none. The sidecar says so ([`Sidecar::timed_without_unrolling`]).
pub fn annotate_file_with(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
    how: AnnotateOptions,
) -> Result<Annotation, AnnotateError> {
    let first = match annotate_compiled(compiler, path, options, arch, how) {
        // clang's NVPTX back end crashed: time the file as compiled at -O1 (a slightly
        // different binary) rather than not at all; should that crash too, clang's first
        // message is the one to give.
        Err(AnnotateError::Analyze(AnalyzeError::Compile(CompileError::Crash {
            path: file,
            message,
        }))) if !options.less_optimisation => {
            let lower = BuildOptions {
                less_optimisation: true,
                ..options.clone()
            };
            return match annotate_file_with(compiler, path, &lower, arch, how) {
                Ok(mut a) => {
                    let said = if message.is_empty() {
                        "no message".to_string()
                    } else {
                        message.lines().collect::<Vec<_>>().join("; ")
                    };
                    a.sidecar.timed_with_less_optimisation = Some(format!(
                        "timed as compiled at -O1: clang crashed compiling {file} for the \
                         GPU at -O3 ({said})"
                    ));
                    Ok(a)
                }
                Err(_) => Err(AnnotateError::Analyze(AnalyzeError::Compile(
                    CompileError::Crash {
                        path: file,
                        message,
                    },
                ))),
            };
        }
        other => other?,
    };
    let Some(unrolled) = first.refusals.iter().find(|r| r.unrolled) else {
        return first.finish();
    };
    let rolled = BuildOptions {
        keep_loops: true,
        ..options.clone()
    };
    let second = match annotate_compiled(compiler, path, &rolled, arch, how) {
        // Fewer kernels refused: that is the one to use.
        Ok(second) if second.refusals.len() < first.refusals.len() => second,
        // Should even that fail, the first reasons are the ones to give.
        _ => return first.finish(),
    };
    // The note names a loop the second compile times; a kernel refused again keeps the
    // first compile's reason.
    let u = first
        .refusals
        .iter()
        .filter(|r| r.unrolled)
        .find(|r| {
            !second
                .refusals
                .iter()
                .any(|s| s.kernel.name == r.kernel.name)
        })
        .unwrap_or(unrolled);
    let note = format!(
        "timed as compiled without loop unrolling ({}): at {}:{} the compiler unrolled a \
         loop of `{}` into a shape the annotator cannot count",
        KEEP_LOOPS.join(" "),
        u.kernel.path,
        u.kernel.line,
        u.kernel.name
    );
    let mut second = second;
    for r in &mut second.refusals {
        if let Some(f) = first
            .refusals
            .iter()
            .find(|f| f.kernel.name == r.kernel.name)
        {
            r.kernel = f.kernel.clone();
        }
    }
    let mut a = second.finish()?;
    a.sidecar.timed_without_unrolling = Some(note);
    Ok(a)
}

/// One refusal while annotating: whether it was a loop unrolled past counting (which a
/// compile without unrolling may time).
struct Refusal {
    kernel: RefusedKernel,
    unrolled: bool,
}

/// What [`annotate_compiled`] made: an annotation of the kernels it could time (none when
/// it refused them all) and the refusals.
struct Compiled {
    annotation: Option<Annotation>,
    refusals: Vec<Refusal>,
}

impl Compiled {
    /// The annotation with its refusals in the sidecar, or the refusals as the error when
    /// no kernel is left.
    fn finish(self) -> Result<Annotation, AnnotateError> {
        let refused: Vec<RefusedKernel> = self.refusals.into_iter().map(|r| r.kernel).collect();
        match self.annotation {
            Some(mut a) => {
                a.sidecar.refused = refused;
                Ok(a)
            }
            None => {
                let mut reasons: Vec<&str> = Vec::new();
                for r in &refused {
                    if !reasons.contains(&r.reason.as_str()) {
                        reasons.push(&r.reason);
                    }
                }
                Err(AnnotateError::Refused(reasons.join("\n")))
            }
        }
    }
}

/// Which functions of a file call which (by the calls written in their bodies).
struct CallGraph {
    calls: BTreeMap<String, Vec<String>>,
}

impl CallGraph {
    fn new(source: &SourceFile) -> Self {
        fn walk(n: &crate::source::AstNode, names: &[&str], out: &mut Vec<String>) {
            if n.kind == crate::source::NodeKind::Call
                && names.contains(&n.spelling.as_str())
                && !out.contains(&n.spelling)
            {
                out.push(n.spelling.clone());
            }
            for c in &n.children {
                walk(c, names, out);
            }
        }
        let names: Vec<&str> = source.functions.iter().map(|f| f.name.as_str()).collect();
        let calls = source
            .functions
            .iter()
            .map(|f| {
                let mut out = Vec::new();
                walk(&f.body, &names, &mut out);
                (f.name.clone(), out)
            })
            .collect();
        CallGraph { calls }
    }

    /// `from` and every function it calls, directly or not.
    fn reach(&self, from: &str) -> Vec<String> {
        let mut seen = vec![from.to_string()];
        let mut i = 0;
        while i < seen.len() {
            for c in self.calls.get(&seen[i]).into_iter().flatten() {
                if !seen.contains(c) {
                    seen.push(c.clone());
                }
            }
            i += 1;
        }
        seen
    }
}

/// The line of `function`'s definition in `source`, or 0.
fn line_of(source: &SourceFile, function: &str) -> u32 {
    source.function(function).map_or(0, |f| f.extent.start.line)
}

/// Annotates `path` compiled with `options` exactly, refusing the kernels it cannot time.
fn annotate_compiled(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
    how: AnnotateOptions,
) -> Result<Compiled, AnnotateError> {
    let (analysis, module) = analyze_file(compiler, path, options, arch)?;
    let program = path.display().to_string();
    let source = parse(path, options, compiler)?;
    let graph = CallGraph::new(&source);
    let mut refusals = Refusals {
        reach: analysis
            .kernels
            .iter()
            .map(|k| (k.name.clone(), graph.reach(&k.name)))
            .collect(),
        list: Vec::new(),
    };
    refusals.of_source(&source, &program);
    let mut cfgs = Vec::new();
    for f in &source.functions {
        match build(&source, f) {
            Ok(cfg) => cfgs.push(cfg),
            Err(e) => refusals.refuse(&f.name, &e.path, e.line, e.to_string(), false),
        }
    }
    let names: Vec<&str> = analysis.kernels.iter().map(|k| k.name.as_str()).collect();
    let mut inputs = path_inputs(&source, &names, &[]);
    let mut kernels = Vec::new();
    for k in &analysis.kernels {
        if refusals.refused(&k.name) {
            continue;
        }
        let f = module
            .function(&k.name)
            .expect("analyzed kernels are in the module");
        let block_map = match_blocks(f, k, &source, &cfgs);
        let unrolled = unrolled_loops(&block_map, k, &cfgs);
        if let Some(u) = unrolled.iter().find(|u| u.shape.is_none()) {
            let cfg = cfgs
                .iter()
                .find(|c| c.function == u.source.function)
                .expect("a CFG per function");
            let line = cfg.blocks[u.source.block]
                .regions
                .first()
                .map_or(0, |r| r.start.line);
            let e = AnnotateError::UnrolledLoop {
                path: program.clone(),
                line,
                kernel: k.name.clone(),
                ptx_blocks: u.ptx_blocks.clone(),
            };
            refusals.refuse(&k.name, &program, line, e.to_string(), true);
            continue;
        }
        let mut paths = path_table(k, &block_map);
        if how.profile {
            attribute(&mut paths, k, &function_lines(&module, f, arch, &program));
        }
        let function = source.function(&k.name);
        let params = function.map(|s| s.params.clone()).unwrap_or_default();
        let reach = graph.reach(&k.name);
        let group_free = function.is_some()
            && k.shared_memory_bytes == 0
            && !params.contains(&ParamKind::Local)
            && !reach.iter().any(|g| source.tells_groups_apart(g));
        kernels.push(AnnotatedKernel {
            name: k.name.clone(),
            records_arg: f.params.len(),
            params,
            block_map,
            paths,
            unrolled,
            arms: divergent_arms(f).of_block,
            warp_records: !(source.returns(&k.name) && reach.iter().any(|g| source.has_barrier(g))),
            path_inputs: inputs.remove(&k.name).flatten(),
            values_in_record: false,
            host_paths: None,
            group_free,
        });
    }
    // Code generation may refuse more kernels (a return inside a macro, a function both
    // inlined and called): each time, the kernels it names are left out and it runs again.
    loop {
        kernels.retain(|k| !refusals.refused(&k.name));
        if kernels.is_empty() {
            return Ok(Compiled {
                annotation: None,
                refusals: refusals.list,
            });
        }
        let removed = refusals.removed(&kernels);
        let e = match generate(
            &analysis, &module, &source, &cfgs, &kernels, &removed, arch, how, &program,
        ) {
            Ok(a) => {
                return Ok(Compiled {
                    annotation: Some(a),
                    refusals: refusals.list,
                })
            }
            Err(e) => e,
        };
        let Some((function, line, inlined)) = refused_by(&e, &source) else {
            return Err(e.into());
        };
        let before = refusals.list.len();
        if inlined {
            refusals.refuse_inlined(&kernels, &function, &program, line, e.to_string());
        } else {
            refusals.refuse(&function, &program, line, e.to_string(), false);
        }
        if refusals.list.len() == before {
            return Err(e.into());
        }
    }
}

/// The refusals so far, and per kernel the functions it runs (itself first).
struct Refusals {
    reach: BTreeMap<String, Vec<String>>,
    list: Vec<Refusal>,
}

impl Refusals {
    /// Whether `kernel` is refused.
    fn refused(&self, kernel: &str) -> bool {
        self.list.iter().any(|r| r.kernel.name == kernel)
    }

    /// Refuses every kernel that runs `function` (the kernel itself, or a helper of it).
    fn refuse(&mut self, function: &str, path: &str, line: u32, reason: String, unrolled: bool) {
        for (kernel, reached) in &self.reach {
            if reached.iter().any(|f| f == function)
                && !self.list.iter().any(|r| r.kernel.name == *kernel)
            {
                self.list.push(Refusal {
                    kernel: RefusedKernel {
                        name: kernel.to_string(),
                        path: path.to_string(),
                        line,
                        reason: reason.clone(),
                    },
                    unrolled,
                });
            }
        }
    }

    /// Refuses the `kernels` that `function` is inlined into (not its callers).
    fn refuse_inlined(
        &mut self,
        kernels: &[AnnotatedKernel],
        function: &str,
        path: &str,
        line: u32,
        reason: String,
    ) {
        for k in kernels {
            let into = k
                .block_map
                .blocks
                .iter()
                .any(|m| m.source.as_ref().is_some_and(|s| s.function == function));
            if into {
                self.list.push(Refusal {
                    kernel: RefusedKernel {
                        name: k.name.clone(),
                        path: path.to_string(),
                        line,
                        reason: reason.clone(),
                    },
                    unrolled: false,
                });
            }
        }
    }

    /// What the source itself refuses: a function declared again in an included file (its
    /// definition gets the counters' parameter, the declaration there cannot, so the
    /// annotated file would not build), and a barrier in a branch whose condition may
    /// differ between the work-items of a work-group.
    fn of_source(&mut self, source: &SourceFile, program: &str) {
        for d in &source.declared_elsewhere {
            let line = source
                .function(&d.function)
                .map_or(0, |f| f.extent.start.line);
            let reason = format!(
                "{program}:{line}: `{}` is also declared in {}:{}, an included file the \
                 annotator cannot rewrite (it gives the definition the counters' parameter); \
                 the kernels that run it run unannotated",
                d.function, d.file, d.line
            );
            self.refuse(&d.function, program, line, reason, false);
        }
        for b in crate::uniformity::varying_barriers(source) {
            let waits = match &b.callee {
                Some(callee) => format!("calls `{callee}`, which waits at a barrier,"),
                None => "waits at a barrier".to_string(),
            };
            let e = AnnotateError::VaryingBarrier {
                path: program.to_string(),
                line: b.line,
                function: b.function.clone(),
                waits,
            };
            self.refuse(&b.function, program, b.line, e.to_string(), false);
        }
    }

    /// The functions to leave out of the annotated file: those only refused kernels run.
    fn removed<'a>(&'a self, kernels: &[AnnotatedKernel]) -> Vec<&'a str> {
        let live: Vec<&String> = kernels
            .iter()
            .flat_map(|k| &self.reach[k.name.as_str()])
            .collect();
        self.list
            .iter()
            .flat_map(|r| &self.reach[r.kernel.name.as_str()])
            .filter(|f| !live.contains(f))
            .map(String::as_str)
            .collect()
    }
}

/// The function a code generation error refuses, its line, and whether the kernels it is
/// inlined into are refused (rather than those that run it); `None` for an error that
/// refuses nothing (the whole file fails).
fn refused_by(e: &CodegenError, source: &SourceFile) -> Option<(String, u32, bool)> {
    match e {
        CodegenError::MissingKernel { kernel, .. } => Some((kernel.clone(), 0, false)),
        CodegenError::ReturnInMacro { kernel, line, .. } => Some((kernel.clone(), *line, false)),
        CodegenError::InlinedAndCalled { function, .. } => {
            Some((function.clone(), line_of(source, function), true))
        }
        CodegenError::CallThroughMacro { line, .. } => {
            // The function whose body holds the call.
            let f = source
                .functions
                .iter()
                .find(|f| (f.extent.start.line..=f.extent.end.line).contains(line))?;
            Some((f.name.clone(), *line, false))
        }
        CodegenError::Prototype { .. } => None,
    }
}

/// The annotated file and sidecar of the `kernels` left (with the called functions they
/// run), leaving out the `removed` functions.
#[allow(clippy::too_many_arguments)] // the annotation's inputs, each a different thing
fn generate(
    analysis: &Analysis,
    module: &crate::ptx::Module,
    source: &SourceFile,
    cfgs: &[SourceCfg],
    kernels: &[AnnotatedKernel],
    removed: &[&str],
    arch: &Architecture,
    how: AnnotateOptions,
    program: &str,
) -> Result<Annotation, CodegenError> {
    // Functions the kernels call rather than inline: timed as units of their own.
    let mut called = Vec::new();
    for g in &analysis.functions {
        if removed.contains(&g.name.as_str()) {
            continue;
        }
        let (Some(f), Some(_)) = (module.function(&g.name), source.function(&g.name)) else {
            continue;
        };
        if !cfgs.iter().any(|c| c.function == g.name) {
            continue;
        }
        let block_map = match_blocks(f, g, source, cfgs);
        let unrolled = unrolled_loops(&block_map, g, cfgs);
        let mut paths = path_table(g, &block_map);
        if how.profile {
            attribute(&mut paths, g, &function_lines(module, f, arch, program));
        }
        called.push(AnnotatedKernel {
            name: g.name.clone(),
            records_arg: 0,
            params: Vec::new(),
            block_map,
            paths,
            unrolled,
            arms: Vec::new(),
            warp_records: false,
            path_inputs: None,
            values_in_record: false,
            host_paths: None,
            group_free: false,
        });
    }
    let kernel_functions: Vec<&crate::ptx::Function> = kernels
        .iter()
        .filter_map(|k| module.function(&k.name))
        .collect();
    let sites = sampled_sites(module, &kernel_functions, source, program, arch);
    let sampled_kernels: Vec<String> = sites.iter().map(|s| s.kernel.clone()).collect();
    // Records reduce to warps where the model needs nothing per work-item: no profile,
    // no sampled access of the kernel (their counters are read lane by lane). A sampled
    // access's counters depend on its indices as well as on the paths.
    let kernels: Vec<AnnotatedKernel> = kernels
        .iter()
        .cloned()
        .map(|mut k| {
            k.warp_records &= !how.profile && !sampled_kernels.contains(&k.name);
            k.path_inputs = with_sampled_indices(source, &k.name, k.path_inputs.take(), &sites);
            k
        })
        .collect();
    let branch_free = crate::uniformity::branch_free_units(source);
    let timings: Vec<KernelTiming<'_>> = kernels
        .iter()
        .map(|k| (k, false))
        .chain(called.iter().map(|k| (k, true)))
        .map(|(k, called)| KernelTiming {
            map: &k.block_map,
            table: &k.paths,
            unrolled: &k.unrolled,
            arms: &k.arms,
            called,
            warp_records: k.warp_records,
            branch_free: branch_free.contains(&k.name),
        })
        .collect();
    let kept: Vec<SourceCfg> = cfgs
        .iter()
        .filter(|c| !removed.contains(&c.function.as_str()))
        .cloned()
        .collect();
    let resources = analysis.resources.len();
    let annotated = codegen::annotate(
        source,
        &Units {
            cfgs: &kept,
            kernels: &timings,
            removed,
        },
        resources,
        arch.memory_side_resource(),
        arch.usage_scale(),
        how.profile,
        &sites,
    )?;
    let profile = how.profile.then(|| ProfileLayout {
        // Placed by `RecordLayout::new`, from the format.
        offset: 0,
        fields: ["executions", "cycles", "instructions"]
            .map(String::from)
            .to_vec(),
        blocks: describe_profiled(source, &kept, &annotated.profiled, &annotated.shares),
        extra_counters: annotated.extra_counters,
    });
    let samples = sites
        .into_iter()
        .map(|s| KernelSample {
            kernel: s.kernel,
            access: s.access,
        })
        .collect();
    let mut kernels = kernels;
    for k in &mut kernels {
        k.values_in_record = annotated.in_record.contains(&k.name);
        k.host_paths = host_paths(k, &annotated.host_paths, &sampled_kernels);
    }
    Ok(Annotation {
        source: annotated.text,
        sidecar: Sidecar {
            schema: SIDECAR_SCHEMA.to_string(),
            source: program.to_string(),
            records: RecordLayout::new(
                annotated.format,
                &analysis.resources,
                arch.usage_scale(),
                profile,
                samples,
            ),
            kernels,
            called_functions: called,
            analysis: analysis.clone(),
            timed_without_unrolling: None,
            timed_with_less_optimisation: None,
            refused: Vec::new(),
        },
    })
}

/// The skeleton of `k`, where the host evaluates its paths: where nothing but its
/// geometry and value arguments decide them ([`AnnotatedKernel::path_inputs`]), and it is
/// none of `sampled` (the host's paths carry no sampled indices).
fn host_paths(
    k: &AnnotatedKernel,
    skeletons: &[(String, crate::host_paths::HostPaths)],
    sampled: &[String],
) -> Option<crate::host_paths::HostPaths> {
    k.path_inputs.as_ref()?;
    if sampled.contains(&k.name) {
        return None;
    }
    skeletons
        .iter()
        .find(|(name, _)| *name == k.name)
        .map(|(_, h)| h.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(blocks: usize) -> ProfileLayout {
        ProfileLayout {
            offset: 2,
            fields: vec!["executions".into(), "cycles".into(), "instructions".into()],
            blocks: (0..blocks)
                .map(|b| ProfiledBlock {
                    function: "k".into(),
                    block: b,
                    lines: vec![b as u32 + 1],
                    line: b as u32 + 1,
                    column: 5,
                    shares: Vec::new(),
                })
                .collect(),
            extra_counters: 0,
        }
    }

    #[test]
    fn totals_sum_each_blocks_counters_over_work_items() {
        // Two blocks, records [t, u0, e0, c0, i0, e1, c1, i1]; three work-items.
        let records = [
            10, 1, 1, 4, 2, 3, 6, 9, //
            20, 1, 1, 4, 2, 0, 0, 0, //
            30, 1, 2, 8, 4, 7, 14, 21,
        ];
        assert_eq!(
            layout(2).totals(&records, 8),
            (vec![[4, 16, 8], [10, 20, 30]], vec![])
        );
        // No records, no counts.
        assert_eq!(layout(2).totals(&[], 8), (vec![[0; 3], [0; 3]], vec![]));
    }

    fn share(counter: Option<usize>, lines: &[(u32, f64, f64)]) -> LineShare {
        LineShare {
            counter,
            lines: lines
                .iter()
                .map(|&(line, cycles, instructions)| LineWeight {
                    line,
                    cycles,
                    instructions,
                })
                .collect(),
        }
    }

    #[test]
    fn block_totals_divide_each_share_over_its_lines() {
        // Block 0 (line 1): paths dividing 3/4 : 1/4 over lines 1 and 2 (cycles) and
        // 1/2 : 1/2 (instructions), and paths all on line 3, counted in extra pair 0.
        // Block 1 (line 2): no share (nothing booked by a known division): its line.
        let mut l = layout(2);
        l.extra_counters = 1;
        l.blocks[0].shares = vec![
            share(None, &[(1, 0.75, 0.5), (2, 0.25, 0.5)]),
            share(Some(0), &[(3, 1.0, 1.0)]),
        ];
        // Records [t, u0, e0, c0, i0, e1, c1, i1, extra c, extra i]; two work-items.
        let records = [
            0, 0, 2, 100, 10, 1, 7, 3, 20, 4, //
            0, 0, 1, 60, 6, 0, 0, 0, 0, 0,
        ];
        let t = l.block_totals(&records, 10);
        // Block 0: 160 cycles, 16 instructions; 20 and 4 of them on line 3, the rest
        // (140, 12) divided by the first share.
        assert_eq!(
            (t[0].executions, t[0].cycles, t[0].instructions),
            (3, 160, 16)
        );
        let lines = |b: &crate::records::BlockTotals| -> Vec<(u32, f64, f64)> {
            b.lines
                .iter()
                .map(|l| (l.line, l.cycles, l.instructions))
                .collect()
        };
        assert_eq!(
            lines(&t[0]),
            vec![(1, 105.0, 6.0), (2, 35.0, 6.0), (3, 20.0, 4.0)]
        );
        assert_eq!(lines(&t[1]), vec![(2, 7.0, 3.0)]);
        // Every block's lines hold all its cycles and instructions.
        for b in &t {
            let c: f64 = b.lines.iter().map(|l| l.cycles).sum();
            let i: f64 = b.lines.iter().map(|l| l.instructions).sum();
            assert_eq!((c, i), (b.cycles as f64, b.instructions as f64));
        }
    }

    #[test]
    fn a_sidecar_without_profile_reads_as_none() {
        let json = r#"{"stride": 1, "resources": 0, "arms": 0, "fields": ["t"], "usage_scale": 2, "index": "x"}"#;
        let r: RecordLayout = serde_json::from_str(json).unwrap();
        assert!(r.profile.is_none());
        assert!(!serde_json::to_string(&r).unwrap().contains("profile"));
    }
}
