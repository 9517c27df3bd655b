//! The analyses: what the front end's PTX and source say about the kernel's time and
//! paths, before any PTX block is matched to a source block.
//!
//! On the PTX: the lanes' addresses ([`access`]) and their affine forms ([`affine`]), the
//! address arithmetic native code folds away ([`addressing`]), instruction classification
//! ([`classify`]), register pressure ([`registers`]), the arguments a kernel reads through
//! ([`reads`]), loads the L1 serves ([`reuse`]), warps that span rows ([`rows`]) and
//! divergent arms ([`divergence`]); all of them feed the static block timings
//! ([`blocks`], also `srcsim analyze`'s output).
//!
//! On the source tree: barriers a work-group may not reach alike ([`uniformity`]), what
//! decides a kernel's paths ([`control`]) and the accesses the annotated program samples
//! ([`sampling`], which also reads the PTX's unresolved accesses, and prices the L1 hits of
//! loads a block issues together). They analyse the
//! source rather than map it to the PTX, so they sit here rather than in
//! [`crate::mapping`]; code generation reads what they find.

pub mod access;
pub mod addressing;
pub mod affine;
pub mod blocks;
pub mod classify;
pub mod control;
pub mod divergence;
pub mod reads;
pub mod registers;
pub mod reuse;
pub mod rows;
pub mod sampling;
pub mod uniformity;
