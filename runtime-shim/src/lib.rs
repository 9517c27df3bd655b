//! srcsim's runtime: `libsrcsim.so`, the OpenCL interposer that runs an unmodified host
//! program's kernels annotated and estimates every launch (see docs/design.md, The shim).
//! The report it writes, which the `srcsim` command reads back, is `srcsim_report`'s.
//!
//! The interposer is the FFI edge: `cl` (the real API), `interpose` (the exported
//! entry points) and `layer` (the same as an OpenCL layer) hold all of this crate's `unsafe`; `shim` decides, `modelling` estimates.

// `real!` (in `cl`) is the FFI edge itself, used only by the two FFI modules: its
// arguments are raw pointers from the application or buffers owned right there.
#![allow(clippy::macro_metavars_in_unsafe)]

mod batch;
pub mod builds;
pub mod cl;
pub mod config;
mod ffi;
mod gpu_answers;
mod host_memory;
mod interpose;
pub mod keeper;
mod launch_call;
mod layer;
mod model_worker;
mod modelling;
mod ndrange;
mod program_binaries;
pub mod progress;
mod quiet;
mod records_hash;
mod remembered;
mod shadow;
pub mod shim;
