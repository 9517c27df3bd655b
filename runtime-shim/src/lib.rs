//! srcsim's runtime: `libsrcsim.so`, the OpenCL interposer that runs an unmodified host
//! program's kernels annotated and estimates every launch (see docs/design.md, The shim), and
//! the report it writes, which the `srcsim` command reads back.
//!
//! The interposer is the FFI edge: `cl` (the real API), `interpose` (the exported
//! entry points) and `layer` (the same as an OpenCL layer) hold all of this crate's `unsafe`; `shim` decides, `report` reports.

// `real!` (in `cl`) is the FFI edge itself, used only by the two FFI modules: its
// arguments are raw pointers from the application or buffers owned right there.
#![allow(clippy::macro_metavars_in_unsafe)]

mod batch;
pub mod builds;
pub mod check;
pub mod cl;
pub mod config;
mod ffi;
mod gpu_answers;
mod interpose;
pub mod keeper;
mod launch_call;
mod layer;
mod modelling;
mod ndrange;
pub mod plot;
mod quiet;
mod remembered;
pub mod report;
mod shadow;
pub mod shim;
pub mod sweep;
