//! The annotator of srcsim, in the order of its data flow: OpenCL C to PTX ([`compile`]),
//! the PTX parser ([`ptx`]) and control-flow graph ([`mod@cfg`]); what each opcode says
//! ([`opcode`]), the lanes' addresses ([`access`]), the address arithmetic native code folds
//! away ([`addressing`]), instruction classification ([`classify`]), register pressure
//! ([`registers`]), the arguments a kernel reads through ([`reads`]) and the static block
//! analysis ([`analysis`]); the source side
//! ([`source`]: libclang's AST and the source CFG); PTX blocks matched to source blocks
//! ([`matching`], unrolled loops: [`unroll`]), the paths between them ([`paths`]) and
//! their lines ([`lines`]); sampled accesses ([`sampling`]), divergent arms
//! ([`divergence`]), what decides a kernel's paths ([`control`]); the annotated code ([`codegen`]) and the whole step ([`annotate`],
//! cached: [`cache`]).
//!
//! One kernel from source to block timings:
//!
//! ```no_run
//! use annotator::{analysis, compile::{BuildOptions, Compiler}};
//! use pipeline_model::Architecture;
//!
//! let arch = Architecture::load("gtx480")?;
//! let compiler = Compiler::locate()?;
//! let (result, _ptx) = analysis::analyze_file(
//!     &compiler, "examples/kernels/vector_add.cl".as_ref(), &BuildOptions::default(), &arch)?;
//! for block in &result.kernels[0].blocks {
//!     println!("B{}: {} cycles", block.id, block.cycles);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod access;
pub mod addressing;
pub mod analysis;
pub mod annotate;
pub mod cache;
pub mod cfg;
pub mod classify;
pub mod cli;
pub mod codegen;
pub mod compile;
pub mod control;
pub mod divergence;
pub mod host_paths;
pub mod lines;
pub mod matching;
pub mod opcode;
pub mod paths;
pub mod ptx;
pub mod reads;
pub mod records;
pub mod registers;
pub mod reuse;
pub mod rows;
pub mod sampling;
pub mod sidecar;
pub mod source;
pub mod uniformity;
pub mod unroll;
