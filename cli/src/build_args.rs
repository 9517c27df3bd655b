//! Flags shared by the command-line tools (`annotate`, `srcsim analyze`, and later
//! `srcsim run`): the kernel file's build and the architecture, defined once so that their
//! help text is the same everywhere.

use std::path::PathBuf;

use annotator::front::compile::BuildOptions;
use clap::Args;
use pipeline_model::{ArchError, Architecture};

/// How a kernel file is built, and for which GPU.
#[derive(Debug, Clone, Args)]
pub struct BuildArgs {
    /// The OpenCL C file.
    pub file: PathBuf,
    /// Architecture: a shipped name (gtx480, ampere_a100, hopper_h100) or a TOML file.
    #[arg(long, default_value = pipeline_model::arch::DEFAULT_ARCH, env = pipeline_model::arch::ARCH_ENV)]
    pub arch: String,
    /// Define a macro, as in clBuildProgram options (-D NAME or -D NAME=VALUE).
    #[arg(short = 'D', value_name = "NAME[=VALUE]")]
    pub defines: Vec<String>,
    /// Add a directory to the include path.
    #[arg(short = 'I', value_name = "DIR")]
    pub include_dirs: Vec<PathBuf>,
    /// Further OpenCL build options, as one string (e.g. "-cl-std=CL2.0 -cl-mad-enable").
    #[arg(long, value_name = "OPTIONS", allow_hyphen_values = true)]
    pub options: Option<String>,
}

impl BuildArgs {
    /// The build options: `--options`, then every `-D` and `-I`.
    pub fn build_options(&self) -> BuildOptions {
        let mut options = BuildOptions::parse(self.options.as_deref().unwrap_or(""));
        options.defines.extend(self.defines.iter().cloned());
        options
            .include_dirs
            .extend(self.include_dirs.iter().cloned());
        options
    }

    /// The architecture named by `--arch`.
    pub fn architecture(&self) -> Result<Architecture, ArchError> {
        Architecture::load(&self.arch)
    }
}
