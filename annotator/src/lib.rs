//! The annotator of srcsim: OpenCL C to PTX, the PTX parser and CFG, and the static
//! block analysis.
#![deny(missing_docs)]

pub mod ptx;
pub mod compile;
