//! Architecture descriptions: every latency, unit and limit of a GPU lives here, read from
//! a TOML file, never in code.
//!
//! The shipped descriptions (`gtx480`, `ampere_a100`, `hopper_h100`) are embedded in the
//! binary; a user may pass the path of their own file. A description is checked when it is
//! loaded: a missing, unknown or out-of-range field is rejected with a message naming it.

use std::path::Path;

use serde::{Deserialize, Serialize};

mod instr_timing;
mod resources;
mod schema;
#[cfg(test)]
mod tests;
mod validate;

pub use instr_timing::InstrTiming;
pub use resources::{DRAM, FETCH, FILL, ISSUE, L2, L2_TRIP, MSHR};
pub use schema::{
    ColdInstructionCache, CompileTarget, ConstantCache, Frontend, IssueOrder, L1Sets, LaunchCost,
    MemorySystem, OpTable, OpTiming, OpenclEvent, Scope, SetIndex, SmLimits, Unit,
};

/// The names of the shipped descriptions, default first.
pub const BUILTIN_ARCHS: &[&str] = &["gtx480", "ampere_a100", "hopper_h100"];

/// The description used when the user names none: the paper's target.
pub const DEFAULT_ARCH: &str = "gtx480";

/// The environment variable that chooses the architecture, where a command reads one
/// (the shim, `annotate`, `srcsim analyze`).
pub const ARCH_ENV: &str = "SRCSIM_ARCH";

fn builtin_source(name: &str) -> Option<&'static str> {
    Some(match name {
        "gtx480" => include_str!("../../arch/gtx480.toml"),
        "ampere_a100" => include_str!("../../arch/ampere_a100.toml"),
        "hopper_h100" => include_str!("../../arch/hopper_h100.toml"),
        _ => return None,
    })
}

/// Why an architecture description could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ArchError {
    /// Neither a shipped name nor a readable file.
    #[error("unknown architecture `{name}`: not a file, and not one of the shipped descriptions ({})", BUILTIN_ARCHS.join(", "))]
    Unknown {
        /// What the user asked for.
        name: String,
    },
    /// The file could not be read.
    #[error("cannot read architecture file {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is not valid TOML or lacks / misspells a field (the message names it).
    #[error("{origin}: {message}")]
    Syntax {
        /// The file or shipped name.
        origin: String,
        /// The TOML parser's message, with line and column.
        message: String,
    },
    /// A field has a value the model cannot use.
    #[error("{origin}: field `{field}`: {message}")]
    Invalid {
        /// The file or shipped name.
        origin: String,
        /// The dotted path of the field.
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

/// A GPU architecture as the pipeline model sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Architecture {
    /// Short name, e.g. `gtx480`.
    pub name: String,
    /// One line for humans.
    pub description: String,
    /// Core (shader) clock in MHz; converts cycles to seconds.
    pub clock_mhz: f64,
    /// Number of streaming multiprocessors.
    pub sm_count: u32,
    /// Work-items per warp.
    pub warp_size: u32,
    /// Sub-cores (processing blocks) per SM, each with its own warp scheduler issuing one
    /// instruction a cycle. The warps of a work-group are dealt to the sub-cores in turn,
    /// so warp `i` issues `floor(i / sub_cores_per_sm)` cycles after the first.
    pub sub_cores_per_sm: u32,
    /// Whether the issue resource (one instruction a cycle) belongs to each sub-core or is
    /// one for the whole SM.
    pub issue_scope: Scope,
    /// How kernels are compiled for this GPU.
    pub compile: CompileTarget,
    /// Per-SM occupancy limits.
    pub limits: SmLimits,
    /// Functional units of one SM, in the order their resource counters are reported.
    pub units: Vec<Unit>,
    /// Front-end and write-back constants of the pipeline execution graph.
    pub frontend: Frontend,
    /// Latency, initiation interval and unit of every instruction class.
    pub ops: OpTable,
    /// Memory latencies and bandwidth.
    pub memory: MemorySystem,
    /// What every launch costs beyond its work-groups; absent: nothing.
    #[serde(default, skip_serializing_if = "LaunchCost::is_free")]
    pub launch: LaunchCost,
    /// What an OpenCL event around a launch shows on the vendor's driver beyond the
    /// kernel's duration; absent: not measured for this GPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opencl_event: Option<OpenclEvent>,
    /// An instruction cache whose every line misses on a launch's first run of its code;
    /// absent: the code is there (a GPU that fetches ahead hides it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icache: Option<ColdInstructionCache>,
    /// The constant cache's cost per further line of a divergent `__constant` load;
    /// absent: a pass of the memory pipeline each, as every table fits (GPGPU-Sim's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub constant: Option<ConstantCache>,
    /// The warps sharing an SM's L1 that this description times a kernel's code for
    /// ([`Architecture::with_l1_sharers`]); not a field of the file: `None`, the first
    /// class of [`crate::l1_sharing`].
    #[serde(skip)]
    pub l1_sharers: Option<u32>,
    /// Whether this description times a first touch as a launch whose reads exceed the L2
    /// sees it: at the DRAM's unloaded trip ([`Architecture::with_first_touch_from_dram`]);
    /// not a field of the file: `false`, the L2's trip.
    #[serde(skip)]
    pub first_touch_from_dram: bool,
    /// Whether this description times every L2 trip at the unloaded one
    /// (`memory.l2_unloaded`, [`Architecture::with_unloaded_l2`]); not a field of the
    /// file: `false`, `memory.l2_hit`.
    #[serde(skip)]
    pub unloaded_l2: bool,
}

impl Architecture {
    /// A shipped description by name, or a TOML file by path.
    pub fn load(name_or_path: &str) -> Result<Self, ArchError> {
        if let Some(src) = builtin_source(name_or_path) {
            return Self::from_toml(src, name_or_path);
        }
        let path = Path::new(name_or_path);
        if path.is_file() {
            let src = std::fs::read_to_string(path).map_err(|source| ArchError::Io {
                path: path.display().to_string(),
                source,
            })?;
            return Self::from_toml(&src, &path.display().to_string());
        }
        Err(ArchError::Unknown {
            name: name_or_path.to_string(),
        })
    }

    /// The shipped default, `gtx480`.
    pub fn default_arch() -> Self {
        Self::load(DEFAULT_ARCH).expect("the shipped default architecture is valid")
    }

    /// Parses and validates a description; `origin` names it in messages.
    pub fn from_toml(src: &str, origin: &str) -> Result<Self, ArchError> {
        let arch: Architecture = toml::from_str(src).map_err(|e| ArchError::Syntax {
            origin: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        arch.validate(origin)?;
        Ok(arch)
    }

    /// The description as TOML: every number it gives, so that two descriptions that
    /// differ in one number differ in this text (what caches and reports key it by).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_else(|_| format!("{self:?}"))
    }

    /// Converts cycles to microseconds at the core clock.
    pub fn cycles_to_us(&self, cycles: f64) -> f64 {
        cycles / self.clock_mhz
    }
}
