//! The front end: the kernel file read twice, as clang compiles it and as it is written.
//!
//! - [`compile`]: OpenCL C to PTX (the `clang-19` binary and libclc);
//! - [`ptx`]: the PTX parser, each function already split into basic blocks;
//! - [`mod@cfg`]: the PTX control-flow graph, its dominators and natural loops;
//! - [`opcode`]: what a PTX opcode says by itself. It sits here rather than in
//!   [`crate::analysis`] because it is a fact of the PTX language, read before any
//!   analysis, by several of them;
//! - [`source`]: libclang's AST of the kernel source and the source CFG. Both sides of the
//!   mapping start here: the source is parsed once, and the analyses over its tree
//!   (uniformity, control, sampling) sit in [`crate::analysis`].

pub mod cfg;
pub mod compile;
pub mod opcode;
pub mod ptx;
pub mod source;
