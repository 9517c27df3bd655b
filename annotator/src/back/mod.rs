//! The back end: what the annotator hands on.
//!
//! The annotated code ([`codegen`]), the format of the records it writes and what they sum
//! to ([`records`]), the sidecar written beside it ([`sidecar`], the JSON of
//! `docs/annotation-json.md`), and the paths the host evaluates from an annotated kernel
//! instead of running its copy ([`host_paths`]). The last runs in the runtime shim, at a
//! launch, but reads only what code generation made of the kernel, so it sits here rather
//! than in [`crate::analysis`].

pub mod codegen;
pub mod host_paths;
pub mod records;
pub mod sidecar;
