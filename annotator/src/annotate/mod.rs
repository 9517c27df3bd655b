//! The annotator's whole pipeline for one kernel file: compile and analyze, parse the
//! source, build source CFGs, match blocks, build path tables, generate the annotated
//! file and its sidecar.
//!
//! The rooms: `pipeline` runs the steps (and compiles again without unrolling where
//! that lets a refused kernel be timed), `refusals` decides which kernels are refused and
//! which functions go with them, `generate` assembles the annotated file and its sidecar;
//! this file holds what a caller sees. Each kernel's and called function's blocks are
//! matched and its paths built by the mapping phase ([`crate::mapping`], `Mapper`).

use crate::analysis::blocks::AnalyzeError;
use crate::back::codegen::CodegenError;
use crate::back::sidecar::Sidecar;
use crate::front::source::cfg::Unsupported;
use crate::front::source::SourceError;

mod called_kernels;
mod generate;
mod pipeline;
mod refusals;
#[cfg(test)]
mod tests;

pub use pipeline::{annotate_file, annotate_file_with};

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
    /// work-group ([`crate::analysis::uniformity`]): undefined behaviour in OpenCL (every work-item
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
