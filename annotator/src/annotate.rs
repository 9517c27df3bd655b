//! The annotator's whole pipeline for one kernel file: compile and analyze, parse the
//! source, build source CFGs, match blocks, build path tables, generate the annotated
//! file and its sidecar.

use std::path::Path;

use pipeline_model::Architecture;
use serde::{Deserialize, Serialize};

use crate::analysis::{analyze_file, Analysis, AnalyzeError};
use crate::codegen::{self, CodegenError, KernelTiming};
use crate::compile::{BuildOptions, Compiler};
use crate::matching::{
    match_blocks, path_table, unrolled_loops, BlockMap, PathTable, UnrolledLoop,
};
use crate::source::cfg::{build, Unsupported};
use crate::source::{parse, SourceError};

/// The version tag of the sidecar's JSON schema.
pub const SIDECAR_SCHEMA: &str = "srcsim.annotation/1";

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
    /// An earlier run found this source cannot be annotated (the message is that run's).
    #[error("{0} (cached)")]
    Cached(String),
    /// The compiler unrolled a loop; counting its iterations per call would be wrong.
    #[error("{path}:{line}: the compiler unrolled this loop of `{kernel}` (PTX blocks {ptx_blocks:?}) into a shape the annotator cannot count: more than a loop of copies and a remainder loop, or other timed code inside them")]
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

/// How the counters of one work-item are laid out in the records buffer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct RecordLayout {
    /// `ulong`s per work-item: `t`, then one per resource.
    pub stride: usize,
    /// Field names: `t`, then the resources.
    pub fields: Vec<String>,
    /// Usage counters are in units of `1 / usage_scale` cycles.
    pub usage_scale: u64,
    /// Records are indexed by the linear global id (offsets removed).
    pub index: String,
}

/// One annotated kernel.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AnnotatedKernel {
    /// Its name.
    pub name: String,
    /// The index of the appended records argument (the original argument count).
    pub records_arg: usize,
    /// PTX blocks to source blocks.
    pub block_map: BlockMap,
    /// What each timing point adds.
    pub paths: PathTable,
    /// Loops the compiler unrolled, counted and charged when left.
    pub unrolled: Vec<UnrolledLoop>,
}

/// The sidecar written beside the annotated file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Sidecar {
    /// [`SIDECAR_SCHEMA`].
    pub schema: String,
    /// The original file.
    pub source: String,
    /// The records' layout.
    pub records: RecordLayout,
    /// The annotated kernels.
    pub kernels: Vec<AnnotatedKernel>,
    /// Functions the kernels call (not inlined), timed as units of their own
    /// (`records_arg` is meaningless for them).
    pub called_functions: Vec<AnnotatedKernel>,
    /// The static analysis (architecture, blocks, edges, timing tables).
    pub analysis: Analysis,
}

/// An annotated kernel file.
#[derive(Debug, Clone)]
pub struct Annotation {
    /// The annotated OpenCL C text.
    pub source: String,
    /// Everything a consumer of the records needs.
    pub sidecar: Sidecar,
}

/// Annotates the OpenCL C file `path` for `arch`.
pub fn annotate_file(
    compiler: &Compiler,
    path: &Path,
    options: &BuildOptions,
    arch: &Architecture,
) -> Result<Annotation, AnnotateError> {
    let (analysis, module) = analyze_file(compiler, path, options, arch)?;
    let source = parse(path, options, compiler)?;
    let cfgs = source
        .functions
        .iter()
        .map(|f| build(&source, f))
        .collect::<Result<Vec<_>, _>>()?;
    let mut kernels = Vec::new();
    for k in &analysis.kernels {
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
            return Err(AnnotateError::UnrolledLoop {
                path: path.display().to_string(),
                line,
                kernel: k.name.clone(),
                ptx_blocks: u.ptx_blocks.clone(),
            });
        }
        let paths = path_table(k, &block_map);
        kernels.push(AnnotatedKernel {
            name: k.name.clone(),
            records_arg: f.params.len(),
            block_map,
            paths,
            unrolled,
        });
    }
    // Functions the kernels call rather than inline: timed as units of their own.
    let mut called = Vec::new();
    for g in &analysis.functions {
        let (Some(f), Some(_)) = (module.function(&g.name), source.function(&g.name)) else {
            continue;
        };
        let block_map = match_blocks(f, g, &source, &cfgs);
        let unrolled = unrolled_loops(&block_map, g, &cfgs);
        let paths = path_table(g, &block_map);
        called.push(AnnotatedKernel {
            name: g.name.clone(),
            records_arg: 0,
            block_map,
            paths,
            unrolled,
        });
    }
    let timings: Vec<KernelTiming<'_>> = kernels
        .iter()
        .map(|k| (k, false))
        .chain(called.iter().map(|k| (k, true)))
        .map(|(k, called)| KernelTiming {
            map: &k.block_map,
            table: &k.paths,
            unrolled: &k.unrolled,
            called,
        })
        .collect();
    let resources = analysis.resources.len();
    let text = codegen::annotate(&source, &cfgs, &timings, resources, arch.usage_scale())?;
    let mut fields = vec!["t".to_string()];
    fields.extend(analysis.resources.iter().cloned());
    Ok(Annotation {
        source: text,
        sidecar: Sidecar {
            schema: SIDECAR_SCHEMA.to_string(),
            source: path.display().to_string(),
            records: RecordLayout {
                stride: resources + 1,
                fields,
                usage_scale: arch.usage_scale(),
                index: "linear global id: (z - oz) * gy * gx + (y - oy) * gx + (x - ox)"
                    .to_string(),
            },
            kernels,
            called_functions: called,
            analysis,
        },
    })
}
