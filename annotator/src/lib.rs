//! The annotator of srcsim, in four phases, in the order of its data flow:
//!
//! - [`front`]: the kernel file read twice, as clang compiles it (OpenCL C to PTX,
//!   [`front::compile`]; the PTX parser, [`front::ptx`]; its control-flow graph,
//!   [`front::cfg`]; what each opcode says, [`front::opcode`]) and as it is written
//!   (libclang's AST and the source CFG, [`front::source`]);
//! - [`analysis`]: what the PTX and the source say once analysed: the lanes' addresses,
//!   classification, register pressure, the arguments read, reuse, divergent arms, what
//!   decides a kernel's paths, the accesses to sample, and the static block timings
//!   ([`analysis::blocks`]);
//! - [`mapping`]: PTX blocks matched to source blocks (unrolled loops included), the paths
//!   between them and the lines they charge;
//! - [`back`]: the annotated code ([`back::codegen`]), its records and sidecar, and the
//!   paths the host evaluates from it ([`back::host_paths`]).
//!
//! The whole step, with the policy that refuses the kernels it cannot time, is
//! [`annotate`]; its results are kept in [`cache`].
//!
//! One kernel from source to block timings:
//!
//! ```no_run
//! use annotator::analysis::blocks;
//! use annotator::front::compile::{BuildOptions, Compiler};
//! use pipeline_model::Architecture;
//!
//! let arch = Architecture::load("gtx480")?;
//! let compiler = Compiler::locate()?;
//! let (result, _ptx) = blocks::analyze_file(
//!     &compiler, "examples/kernels/vector_add.cl".as_ref(), &BuildOptions::default(), &arch)?;
//! for block in &result.kernels[0].blocks {
//!     println!("B{}: {} cycles", block.id, block.cycles);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod analysis;
pub mod back;
pub mod front;
pub mod ids;
pub mod mapping;

pub mod annotate;
pub mod cache;
