//! The annotator's steps for one file, its four phases in order: the front (`Front::read`:
//! clang's PTX, parsed, and libclang's tree with its source CFGs), the analysis
//! (`analyze_ptx`: block timings), the mapping (`map_kernels`: each kernel's blocks matched
//! and its paths) and the back (`generate_kept`: the annotated file), with the refusal
//! policy between them: a kernel the annotator cannot time is refused alone. Also the
//! second compile without unrolling where a loop unrolled past counting refused a kernel,
//! and the rewrite for kernels that other kernels call.

use std::path::Path;

use pipeline_model::Architecture;

use super::generate::generate;
use super::refusals::{refused_by, CallGraph, Refusal, Refusals};
use super::{AnnotateError, AnnotateOptions, Annotation};
use crate::analysis::blocks::{analyze_ptx, compile_ptx, Analysis, AnalyzeError, CompiledPtx};
use crate::analysis::control::path_inputs;
use crate::analysis::divergence::divergent_arms;
use crate::back::sidecar::{AnnotatedKernel, RefusedKernel};
use crate::front::compile::{BuildOptions, CompileError, Compiler, KEEP_LOOPS};
use crate::front::source::cfg::{build, SourceCfg, Unsupported};
use crate::front::source::{parse, ParamKind, SourceFile};
use crate::mapping::{Mapper, Mapping};

/// Annotates the OpenCL C file `path` for `arch` (timing only, no profile).
pub fn annotate_file(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
) -> Result<Annotation, AnnotateError> {
    annotate_file_with(compiler, path, options, arch, AnnotateOptions::default())
}

/// Annotates the OpenCL C file `path` for `arch`, as `how` says.
///
/// A kernel the annotator cannot time (a construct it does not handle, in the kernel or
/// in a helper it calls) is refused alone: it is left out of the annotated file, with the
/// helpers only it calls, and named in [`Sidecar::refused`](crate::back::sidecar::Sidecar::refused) with the reason; the other
/// kernels are annotated. Only when every kernel is refused, or the file itself cannot be
/// compiled or parsed, is the result an error.
///
/// Where the compiler unrolled a loop into a shape the annotator cannot count, the file is
/// compiled again without unrolling ([`BuildOptions::keep_loops`]) and timed from that PTX:
/// an estimate of a slightly different binary (loop overhead on every iteration) rather
/// than none. The sidecar says so ([`Sidecar::timed_without_unrolling`](crate::back::sidecar::Sidecar::timed_without_unrolling)).
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
    if first.refusals.iter().any(|r| r.called) {
        if let Some(a) = with_called_kernels(compiler, path, options, arch, how) {
            return Ok(a);
        }
    }
    let Some(unrolled) = first.refusals.iter().find(|r| r.unrolled) else {
        return with_loops_counted(compiler, path, options, arch, how, first);
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

/// The loops of `annotation`'s kernels and called functions none of whose blocks has a
/// home in the source (each pass charged as one), as (kernel, PTX block of the header).
fn uncounted_loops(annotation: &Annotation) -> Vec<(String, usize)> {
    let s = &annotation.sidecar;
    s.kernels
        .iter()
        .chain(&s.called_functions)
        .flat_map(|k| {
            k.paths
                .uncounted_loops
                .iter()
                .map(|b| (k.name.clone(), b.index()))
        })
        .collect()
}

/// `first`'s annotation, or, where a loop of it is not counted (the compiler unrolled it
/// and its copies of the body carry no source line of the body: l1_lat's pointer chase,
/// validation/README.md), the file compiled without unrolling where that counts more of
/// them and refuses no more kernels: a slightly different binary (loop overhead on every
/// iteration) timed as it runs rather than its loop charged once. The sidecar says so
/// ([`Sidecar::timed_without_unrolling`](crate::back::sidecar::Sidecar::timed_without_unrolling)).
fn with_loops_counted(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
    how: AnnotateOptions,
    first: Compiled,
) -> Result<Annotation, AnnotateError> {
    // Compiled without unrolling already: nothing to compile again.
    if options.keep_loops {
        return first.finish();
    }
    let uncounted = first
        .annotation
        .as_ref()
        .map(uncounted_loops)
        .unwrap_or_default();
    let Some((kernel, header)) = uncounted.first().cloned() else {
        return first.finish();
    };
    let rolled = BuildOptions {
        keep_loops: true,
        ..options.clone()
    };
    let second = match annotate_compiled(compiler, path, &rolled, arch, how) {
        Ok(s) if s.refusals.len() <= first.refusals.len() => s,
        _ => return first.finish(),
    };
    let counted_more = second
        .annotation
        .as_ref()
        .is_some_and(|a| uncounted_loops(a).len() < uncounted.len());
    if !counted_more {
        return first.finish();
    }
    let mut a = second.finish()?;
    a.sidecar.timed_without_unrolling = Some(format!(
        "timed as compiled without loop unrolling ({}): the compiler unrolled a loop of `{}` \
         (PTX block B{}) into copies of its body that carry no source line of it, which the \
         annotator cannot count",
        KEEP_LOOPS.join(" "),
        kernel,
        header
    ));
    Ok(a)
}

/// The annotation of `path` rewritten with a plain copy of each kernel another kernel
/// calls ([`super::called_kernels`]), for a file whose first annotation refused such
/// kernels, where the rewritten file annotates (else `None`: the file is annotated as
/// written, those kernels refused). The
/// copy is compiled from a directory of its own, with the file's directory on the include
/// path; the sidecar names the file as given.
fn with_called_kernels(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
    how: AnnotateOptions,
) -> Option<Annotation> {
    let text = std::fs::read_to_string(path).ok()?;
    let source = parse(path, options, compiler).ok()?;
    let rewritten = super::called_kernels::with_called_kernels(&text, &source)?;
    let dir = tempfile::tempdir().ok()?;
    let copy = dir.path().join(path.file_name()?);
    std::fs::write(&copy, rewritten).ok()?;
    let mut options = options.clone();
    if let Some(parent) = path.parent() {
        options.include_dirs.push(parent.to_path_buf());
    }
    let a = annotate_file_with(compiler, &copy, &options, arch, how).ok()?;
    // Every mention of the copy's path (messages, the source's name) is the file's.
    let quoted = |p: &Path| serde_json::to_string(&p.display().to_string()).ok();
    let (from, to) = (quoted(&copy)?, quoted(path)?);
    let (from, to) = (from.trim_matches('"'), to.trim_matches('"'));
    let sidecar = serde_json::to_string(&a.sidecar).ok()?.replace(from, to);
    Some(Annotation {
        source: a.source,
        sidecar: serde_json::from_str(&sidecar).ok()?,
    })
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

/// Annotates `path` compiled with `options` exactly, refusing the kernels it cannot time:
/// the annotator's four phases, with the refusal policy between them.
fn annotate_compiled(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
    how: AnnotateOptions,
) -> Result<Compiled, AnnotateError> {
    let program = path.display().to_string();
    let front = Front::read(compiler, path, options, arch)?;
    let analysis = analyze_ptx(&front.ptx, arch, &program);
    let mut refusals = Refusals::of_front(&front, &analysis, &program);
    let kernels = map_kernels(&front, &analysis, arch, how, &program, &mut refusals);
    generate_kept(&front, &analysis, kernels, arch, how, &program, refusals)
}

/// The front phase: the kernel file as clang compiles it (its PTX, parsed) and as it is
/// written (libclang's tree, each function's source CFG or why it has none).
struct Front {
    ptx: CompiledPtx,
    source: SourceFile,
    cfgs: Vec<SourceCfg>,
    /// The functions whose source CFG could not be built, and why, in the file's order.
    unbuilt: Vec<(String, Unsupported)>,
}

impl Front {
    fn read(
        compiler: &Compiler,
        path: &Path,
        options: &BuildOptions,
        arch: &Architecture,
    ) -> Result<Front, AnnotateError> {
        let ptx = compile_ptx(compiler, path, options, arch)?;
        let source = parse(path, options, compiler)?;
        let mut cfgs = Vec::new();
        let mut unbuilt = Vec::new();
        for f in &source.functions {
            match build(&source, f) {
                Ok(cfg) => cfgs.push(cfg),
                Err(e) => unbuilt.push((f.name.clone(), e)),
            }
        }
        Ok(Front {
            ptx,
            source,
            cfgs,
            unbuilt,
        })
    }
}

impl Refusals {
    /// The refusals the front and the analysis already decide: what the source holds
    /// that the annotator cannot time, and the functions with no source CFG.
    fn of_front(front: &Front, analysis: &Analysis, program: &str) -> Refusals {
        let graph = CallGraph::new(&front.source);
        let mut refusals = Refusals {
            reach: analysis
                .kernels
                .iter()
                .map(|k| (k.name.clone(), graph.reach(&k.name)))
                .collect(),
            list: Vec::new(),
        };
        refusals.of_source(&front.source, program);
        for (name, e) in &front.unbuilt {
            refusals.refuse(name, &e.path, e.line, e.to_string(), false);
        }
        refusals
    }
}

/// The mapping phase: each kernel not refused, its PTX blocks matched to its source
/// blocks, its paths and what its twin needs to know; a kernel whose unrolled loop cannot
/// be counted is refused.
fn map_kernels(
    front: &Front,
    analysis: &Analysis,
    arch: &Architecture,
    how: AnnotateOptions,
    program: &str,
    refusals: &mut Refusals,
) -> Vec<AnnotatedKernel> {
    let (module, source, cfgs) = (&front.ptx.module, &front.source, &front.cfgs);
    let names: Vec<&str> = analysis.kernels.iter().map(|k| k.name.as_str()).collect();
    let mut inputs = path_inputs(source, &names, &[]);
    let mut kernels = Vec::new();
    let mapper = Mapper {
        module,
        source,
        cfgs,
        arch,
        program,
        profile: how.profile,
    };
    for k in &analysis.kernels {
        if refusals.refused(&k.name) {
            continue;
        }
        let f = module
            .function(&k.name)
            .expect("analyzed kernels are in the module");
        let Mapping {
            block_map,
            unrolled,
            paths,
        } = mapper.map(f, k);
        if let Some(u) = unrolled.iter().find(|u| u.shape.is_none()) {
            let cfg = cfgs
                .iter()
                .find(|c| c.function == u.source.function)
                .expect("a CFG per function");
            let line = cfg
                .block(u.source.block)
                .regions
                .first()
                .map_or(0, |r| r.start.line);
            let e = AnnotateError::UnrolledLoop {
                path: program.to_string(),
                line,
                kernel: k.name.clone(),
                ptx_blocks: u.ptx_blocks.iter().map(|b| b.index()).collect(),
            };
            refusals.refuse(&k.name, program, line, e.to_string(), true);
            continue;
        }
        let function = source.function(&k.name);
        let params = function.map(|s| s.params.clone()).unwrap_or_default();
        // What the kernel calls, as the refusals took it from the front's call graph.
        let reach = &refusals.reach[&k.name];
        let group_free = function.is_some()
            && k.shared_memory_bytes == 0
            && !params.contains(&ParamKind::Local)
            && !reach.iter().any(|g| source.tells_groups_apart(g));
        let arms = divergent_arms(f);
        kernels.push(AnnotatedKernel {
            name: k.name.clone(),
            records_arg: f.params.len(),
            params,
            block_map,
            paths,
            unrolled,
            arms: arms.of_block,
            arm_tree: arms.tree,
            warp_records: !(source.returns(&k.name) && reach.iter().any(|g| source.has_barrier(g))),
            path_inputs: inputs.remove(&k.name).flatten(),
            values_in_record: false,
            host_paths: None,
            group_free,
        });
    }
    kernels
}

/// The back phase: the annotated file of the kernels kept. Code generation may refuse
/// more kernels (a return inside a macro, a function both inlined and called): each
/// time, the kernels it names are left out and it runs again.
fn generate_kept(
    front: &Front,
    analysis: &Analysis,
    mut kernels: Vec<AnnotatedKernel>,
    arch: &Architecture,
    how: AnnotateOptions,
    program: &str,
    mut refusals: Refusals,
) -> Result<Compiled, AnnotateError> {
    let (module, source, cfgs) = (&front.ptx.module, &front.source, &front.cfgs);
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
            analysis, module, source, cfgs, &kernels, &removed, arch, how, program,
        ) {
            Ok(a) => {
                return Ok(Compiled {
                    annotation: Some(a),
                    refusals: refusals.list,
                })
            }
            Err(e) => e,
        };
        let Some((function, line, inlined)) = refused_by(&e, source) else {
            return Err(e.into());
        };
        let before = refusals.list.len();
        if inlined {
            refusals.refuse_inlined(&kernels, &function, program, line, e.to_string());
        } else {
            refusals.refuse(&function, program, line, e.to_string(), false);
        }
        if refusals.list.len() == before {
            return Err(e.into());
        }
    }
}
