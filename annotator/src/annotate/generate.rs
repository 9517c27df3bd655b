//! Assembling the annotation of the kernels left: the annotated text from the code
//! generator and the sidecar with its record and profile layouts, sampled sites and the
//! host's path skeletons.

use std::collections::BTreeMap;

use pipeline_model::Architecture;

use super::{AnnotateOptions, Annotation};
use crate::analysis::blocks::Analysis;
use crate::analysis::control::with_sampled_indices;
use crate::analysis::sampling::sampled_sites;
use crate::back::codegen::{self, CodegenError, KernelTiming, Units};
use crate::back::sidecar::{
    AnnotatedKernel, KernelSample, LineShare, LineWeight, ProfileLayout, ProfiledBlock,
    RecordLayout, Sidecar, SIDECAR_SCHEMA,
};
use crate::front::source::cfg::{Insertion, SourceCfg};
use crate::front::source::SourceFile;
use crate::mapping::{Mapper, Mapping};

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
    blocks: &[crate::mapping::matching::SourceRef],
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
            let b = cfg.block(r.block);
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
                block: r.block.index(),
                lines,
                line,
                column,
                shares,
            }
        })
        .collect()
}

/// The annotated file and sidecar of the `kernels` left (with the called functions they
/// run), leaving out the `removed` functions.
#[allow(clippy::too_many_arguments)] // the annotation's inputs, each a different thing
pub(super) fn generate(
    analysis: &Analysis,
    module: &crate::front::ptx::Module,
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
    let mapper = Mapper {
        module,
        source,
        cfgs,
        arch,
        program,
        profile: how.profile,
    };
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
        let Mapping {
            block_map,
            unrolled,
            paths,
        } = mapper.map(f, g);
        called.push(AnnotatedKernel {
            name: g.name.clone(),
            records_arg: 0,
            params: Vec::new(),
            block_map,
            paths,
            unrolled,
            arms: Default::default(),
            arm_tree: Default::default(),
            warp_records: false,
            path_inputs: None,
            values_in_record: false,
            host_paths: None,
            group_free: false,
        });
    }
    let kernel_functions: Vec<&crate::front::ptx::Function> = kernels
        .iter()
        .filter_map(|k| module.function(&k.name))
        .collect();
    let sites = sampled_sites(module, &kernel_functions, source, program, arch);
    let sampled_kernels: Vec<String> = sites.iter().map(|s| s.kernel.clone()).collect();
    // Records reduce to warps where the model needs nothing per work-item: no profile.
    // A kernel with sampled accesses (whose counters are read lane by lane, and depend on
    // its indices as well as on its paths) keeps the lanes that ran one whole; not where
    // it has a barrier, whose twin keeps its values in its record (`codegen::records`).
    let kernels: Vec<AnnotatedKernel> = kernels
        .iter()
        .cloned()
        .map(|mut k| {
            let in_record = sampled_kernels.contains(&k.name) && source.has_barrier(&k.name);
            k.warp_records &= !how.profile && !in_record;
            k.path_inputs = with_sampled_indices(source, &k.name, k.path_inputs.take(), &sites);
            k
        })
        .collect();
    let branch_free = crate::analysis::uniformity::branch_free_units(source);
    let timings: Vec<KernelTiming<'_>> = kernels
        .iter()
        .map(|k| (k, false))
        .chain(called.iter().map(|k| (k, true)))
        .map(|(k, called)| KernelTiming {
            map: &k.block_map,
            table: &k.paths,
            unrolled: &k.unrolled,
            arms: &k.arms,
            arm_tree: &k.arm_tree,
            called,
            warp_records: k.warp_records,
            sampled: sampled_kernels.contains(&k.name),
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
    skeletons: &[(String, crate::back::host_paths::HostPaths)],
    sampled: &[String],
) -> Option<crate::back::host_paths::HostPaths> {
    k.path_inputs.as_ref()?;
    if sampled.contains(&k.name) {
        return None;
    }
    skeletons
        .iter()
        .find(|(name, _)| *name == k.name)
        .map(|(_, h)| h.clone())
}
