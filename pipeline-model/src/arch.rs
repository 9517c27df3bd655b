//! Architecture descriptions: every latency, unit and limit of a GPU lives here, read from
//! a TOML file, never in code.
//!
//! The shipped descriptions (`gtx480`, `ampere_a100`, `hopper_h100`) are embedded in the
//! binary; a user may pass the path of their own file. A description is checked when it is
//! loaded: a missing, unknown or out-of-range field is rejected with a message naming it.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::instr::{Addressing, Instr, MemLevel, OpClass, OpRow};

/// The names of the shipped descriptions, default first.
pub const BUILTIN_ARCHS: &[&str] = &["gtx480", "ampere_a100", "hopper_h100"];

/// The description used when the user names none: the paper's target.
pub const DEFAULT_ARCH: &str = "gtx480";

/// The environment variable that chooses the architecture, where a command reads one
/// (the shim, `annotate`, `srcsim analyze`).
pub const ARCH_ENV: &str = "SRCSIM_ARCH";

fn builtin_source(name: &str) -> Option<&'static str> {
    Some(match name {
        "gtx480" => include_str!("../arch/gtx480.toml"),
        "ampere_a100" => include_str!("../arch/ampere_a100.toml"),
        "hopper_h100" => include_str!("../arch/hopper_h100.toml"),
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
}

/// The fixed cost of a kernel launch: the front end and work distributor set the grid up,
/// the first work-groups reach the SMs, and the last one's completion is retired (fill and
/// drain). Charged once per launch, on top of the work-groups' own time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LaunchCost {
    /// Cycles a launch takes beyond its work-groups' time.
    pub fixed_cycles: u32,
}

impl LaunchCost {
    fn is_free(&self) -> bool {
        self.fixed_cycles == 0
    }
}

/// The PTX target a kernel is compiled for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompileTarget {
    /// `sm_XX` handed to clang as `-march`.
    pub ptx_target: String,
}

/// Per-SM limits that bound how many work-groups run at once.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmLimits {
    /// Resident warps.
    pub max_warps: u32,
    /// Resident work-groups (CTAs).
    pub max_work_groups: u32,
    /// 32-bit registers in the register file.
    pub registers: u32,
    /// Shared (OpenCL local) memory in bytes.
    pub shared_memory_bytes: u32,
    /// Work-items in one work-group (threads per block) at most.
    #[serde(default = "max_work_group_size")]
    pub max_work_group_size: u32,
    /// Work-items per dimension of a work-group at most.
    #[serde(default = "max_work_group_dims")]
    pub max_work_group_dims: [u32; 3],
}

fn max_work_group_size() -> u32 {
    1024
}

fn max_work_group_dims() -> [u32; 3] {
    [1024, 1024, 64]
}

/// Where a resource lives: in every sub-core (its own copy, used only by the warps dealt to
/// that sub-core), once in the SM (shared by all its warps), or once in the whole GPU (the
/// DRAM interface, shared by every SM).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// Each sub-core has its own.
    SubCore,
    /// One for the whole SM.
    Sm,
    /// One for the whole GPU (only the DRAM resource; no unit may have it).
    Device,
}

/// A functional unit kind: how many copies, how wide, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Name used by [`OpTiming::unit`] and in reports (`ALU`, `SFU`, `MEM`, ...).
    pub name: String,
    /// Copies (per sub-core, or per SM, as `scope` says); a unit with k copies accepts k
    /// warp instructions per initiation interval.
    pub count: u32,
    /// Lanes of one copy: a warp instruction takes `ceil(warp_size / lanes)` cycles to
    /// dispatch, and the unit accepts no other instruction meanwhile.
    pub lanes: u32,
    /// Whether each sub-core has `count` copies or the SM has `count` in all.
    pub scope: Scope,
}

/// Constants of the front end and write-back (DESIGN.md, the pipeline execution graph).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Frontend {
    /// Instructions fetched together (IF_i -> IF_{i+1}: 0 within a group).
    pub fetch_group: u32,
    /// Cycles before the next group is fetched (IF_i -> IF_{i+group}).
    pub refill_gap: u32,
    /// IF -> IS.
    pub fetch_to_issue: u32,
    /// IS -> OC.
    pub issue_to_operand: u32,
    /// OC -> EX per general-purpose register read (at least one read is charged): 1 on a
    /// banked register file read one operand a cycle (the paper's Fermi); 0 where operand
    /// reads are pipelined into the measured latency (Volta and later).
    pub operand_cycles_per_read: u32,
    /// Minimum issue distance of two instructions of one warp (IS_i -> IS_{i+1}).
    pub issue_interval: u32,
    /// Results written back per cycle (WB_i -> WB_{i+width}: 1).
    pub writeback_width: u32,
    /// WB of a producer -> IS of a consumer (read after write).
    pub writeback_to_issue: u32,
    /// Fetch groups the SM's one fetch unit reads a cycle, for all its warps together; with
    /// it the model has a resource [`FETCH`] of the SM, each block holding it
    /// `ceil(instructions / fetch_group)` over this many cycles. Absent (0): each warp
    /// fetches on its own and only the per-warp edges apply.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sm_fetch_groups_per_cycle: u32,
    /// Cycles from a branch's execution to the fetch of the instruction after it (the
    /// warp's instruction buffer is refilled once the branch has resolved); absent: 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub branch_to_fetch: u32,
    /// The order a block's instructions issue in; absent: as the PTX gives them.
    #[serde(default, skip_serializing_if = "IssueOrder::is_ptx")]
    pub issue_order: IssueOrder,
    /// How much of the PTX's shared-memory address arithmetic the GPU's native code
    /// absorbs into its loads' and stores' addressing ([`Instr::addressing`]): `base`
    /// (`[R+UR+imm]`) or `scaled_index` (`[R.X4+UR+imm]`). Absent (`none`): every PTX
    /// instruction issues, as in a simulator of PTX (GPGPU-Sim).
    #[serde(default, skip_serializing_if = "Addressing::is_none")]
    pub native_addressing: Addressing,
}

/// The order in which a block's instructions reach the pipeline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum IssueOrder {
    /// The PTX order, as a simulator of PTX (GPGPU-Sim) runs it.
    #[default]
    Ptx,
    /// The order a backend compiler's list scheduler gives the machine code (ptxas on real
    /// GPUs): among the instructions whose operands are computed, the one with the longest
    /// latency path to the block's end first, so that loads are hoisted above independent
    /// work and their latency is paid at their first use. Stores, branches and barriers stay
    /// in place (nothing moves across them).
    ListScheduled,
}

impl IssueOrder {
    fn is_ptx(&self) -> bool {
        *self == IssueOrder::Ptx
    }
}

/// Latency and throughput of one instruction class.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpTiming {
    /// The unit that executes it (a name from `units`).
    pub unit: String,
    /// EX -> WB in cycles.
    pub latency: u32,
    /// Cycles the unit stays busy before it accepts the next instruction.
    pub initiation: u32,
}

/// The timing of every instruction class ([`OpRow`]: its rows and their keys), the
/// `[ops]` table of a description; `mem_global` and `mem_shared` may be left out (they
/// fall back to `mem`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct OpTable(BTreeMap<OpRow, OpTiming>);

/// The memory hierarchy: load-to-use latencies in cycles and the DRAM bandwidth. A memory
/// instruction whose address the front end analysed ([`crate::MemAccess`]) is charged the
/// latency of the level it is served from; one it did not analyse keeps its `ops` row. The
/// bandwidth bounds the kernel as a whole.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MemorySystem {
    /// Shared (local) memory load to use, without bank conflicts.
    pub shared: u32,
    /// Global load to use on an L1 data cache hit.
    pub l1_hit: u32,
    /// Global load to use on an L1 miss that hits in the L2.
    pub l2_hit: u32,
    /// Global load to use on a miss in both caches (the whole trip to DRAM and back).
    pub dram: u32,
    /// Bytes a miss moves from DRAM: 32 where the caches fill 32-byte sectors (Volta and
    /// later), 128 where they fill whole 128-byte lines (Fermi's L1). An uncoalesced
    /// access moves this much per lane.
    #[serde(default = "sector_bytes")]
    pub fetch_bytes: u32,
    /// Misses to the L2 an SM can have in flight (its L1's miss status holding
    /// registers). With it the model has a resource [`MSHR`] of the SM: every load request
    /// that misses the L1 holds an entry for its latency, so that the SM's memory-level
    /// parallelism bounds how much latency its warps hide (Hong and Kim, ISCA 2009).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mshrs_per_sm: Option<u32>,
    /// DRAM bandwidth in GB/s (10^9 bytes a second). With it the model has a resource
    /// [`DRAM`] of the whole GPU: the bytes a launch must move between the SMs and DRAM over
    /// this bandwidth bound its time. Without it, global memory costs only latency.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dram_gb_per_s: Option<f64>,
    /// L2 capacity in bytes. With it a launch whose buffers fit in the L2 is served from
    /// it: what the host or an earlier launch last wrote is still there (the L2 is the
    /// point every access to device memory passes, copies included), so the launch moves
    /// nothing from DRAM and its misses in flight wait an L2 trip, not a DRAM one. A launch
    /// whose buffers exceed it streams through an LRU cache that keeps nothing it needs
    /// again: everything comes from DRAM, as without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_bytes: Option<u64>,
    /// L1 data cache capacity per SM in bytes. With it a sampled load inside a loop
    /// ([`crate::sampling`]) whose buffer fits in the L1 the SM has left is served from the
    /// L1: the loop's first pass brought the buffer in and nothing pushes it out. Without
    /// it such loads stay where the front end charged them (the L2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_bytes: Option<u64>,
    /// Whether the L1 and shared memory are one array of `l1_bytes` (Volta and later): the
    /// L1 then holds what the shared memory of the SM's work-groups leaves.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub l1_with_shared: bool,
    /// L2 bandwidth in GB/s, all slices together. With it the model has a resource [`L2`]
    /// of the whole GPU (every byte past the L1 crosses it), and the first wave of a launch
    /// served from the L2 queues there (see [`crate::kernel`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_gb_per_s: Option<f64>,
    /// Whether a warp exits only once its stores are acknowledged: then every warp's time
    /// ends an L2 trip (`l2_hit`) after its last instruction, as GPGPU-Sim's warps do.
    /// Either way a store does not hold up the instructions after it: it completes in the
    /// background, and a block's time does not wait for it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub store_ack_at_exit: bool,
}

fn is_zero(v: &u32) -> bool {
    *v == 0
}

fn sector_bytes() -> u32 {
    32
}

impl OpTable {
    /// The timing row of an instruction class.
    pub fn get(&self, class: OpClass) -> &OpTiming {
        let row = class.row();
        self.0
            .get(&row)
            .or_else(|| self.0.get(&OpRow::Mem))
            .expect("validated: every required row is given")
    }

    /// Every row the description gives, in table order.
    pub fn rows(&self) -> impl Iterator<Item = (OpRow, &OpTiming)> {
        self.0.iter().map(|(r, t)| (*r, t))
    }

    /// The required rows the description lacks.
    fn missing(&self) -> impl Iterator<Item = OpRow> + '_ {
        OpRow::ALL
            .iter()
            .copied()
            .filter(|r| r.required() && !self.0.contains_key(r))
    }
}

impl std::ops::Index<OpRow> for OpTable {
    type Output = OpTiming;

    /// The row `row` (for an optional one the description leaves out: `mem`).
    fn index(&self, row: OpRow) -> &OpTiming {
        self.0
            .get(&row)
            .or_else(|| self.0.get(&OpRow::Mem))
            .expect("validated: every required row is given")
    }
}

impl std::ops::IndexMut<OpRow> for OpTable {
    /// The row `row`, which the description must give (panics otherwise).
    fn index_mut(&mut self, row: OpRow) -> &mut OpTiming {
        self.0.get_mut(&row).expect("a row the description gives")
    }
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

    fn validate(&self, origin: &str) -> Result<(), ArchError> {
        let invalid = |field: &str, message: &str| ArchError::Invalid {
            origin: origin.to_string(),
            field: field.to_string(),
            message: message.to_string(),
        };
        let positive = [
            ("sm_count", self.sm_count),
            ("warp_size", self.warp_size),
            ("sub_cores_per_sm", self.sub_cores_per_sm),
            ("limits.max_warps", self.limits.max_warps),
            ("limits.max_work_groups", self.limits.max_work_groups),
            ("limits.registers", self.limits.registers),
            (
                "limits.max_work_group_size",
                self.limits.max_work_group_size,
            ),
            (
                "limits.max_work_group_dims[0]",
                self.limits.max_work_group_dims[0],
            ),
            (
                "limits.max_work_group_dims[1]",
                self.limits.max_work_group_dims[1],
            ),
            (
                "limits.max_work_group_dims[2]",
                self.limits.max_work_group_dims[2],
            ),
            ("frontend.fetch_group", self.frontend.fetch_group),
            ("frontend.issue_interval", self.frontend.issue_interval),
            ("frontend.writeback_width", self.frontend.writeback_width),
        ];
        for (field, value) in positive {
            if value == 0 {
                return Err(invalid(field, "must be at least 1"));
            }
        }
        if !(self.clock_mhz.is_finite() && self.clock_mhz > 0.0) {
            return Err(invalid("clock_mhz", "must be a positive number"));
        }
        if !self.compile.ptx_target.starts_with("sm_") {
            return Err(invalid(
                "compile.ptx_target",
                "must name a PTX target such as `sm_90`",
            ));
        }
        if self.units.is_empty() {
            return Err(invalid("units", "at least one unit is needed"));
        }
        for (key, bw) in [
            ("memory.dram_gb_per_s", self.memory.dram_gb_per_s),
            ("memory.l2_gb_per_s", self.memory.l2_gb_per_s),
        ] {
            if bw.is_some_and(|bw| !(bw.is_finite() && bw > 0.0)) {
                return Err(invalid(key, "must be a positive number"));
            }
        }
        if self.memory.l1_bytes == Some(0) {
            return Err(invalid("memory.l1_bytes", "must be at least 1"));
        }
        if self.memory.l2_bytes == Some(0) {
            return Err(invalid("memory.l2_bytes", "must be at least 1"));
        }
        if self.memory.mshrs_per_sm == Some(0) {
            return Err(invalid("memory.mshrs_per_sm", "must be at least 1"));
        }
        if !matches!(self.memory.fetch_bytes, 32 | 128) {
            return Err(invalid(
                "memory.fetch_bytes",
                "must be 32 (sectors) or 128 (lines)",
            ));
        }
        if self.issue_scope == Scope::Device {
            return Err(invalid(
                "issue_scope",
                "must be `sub_core` or `sm` (`device` is the DRAM's)",
            ));
        }
        for (i, unit) in self.units.iter().enumerate() {
            if unit.scope == Scope::Device {
                return Err(invalid(
                    &format!("units[{i}].scope"),
                    "must be `sub_core` or `sm` (`device` is the DRAM's)",
                ));
            }
            if unit.count == 0 {
                return Err(invalid(&format!("units[{i}].count"), "must be at least 1"));
            }
            if unit.lanes == 0 {
                return Err(invalid(&format!("units[{i}].lanes"), "must be at least 1"));
            }
            if unit.name == ISSUE
                || unit.name == DRAM
                || unit.name == L2
                || unit.name == FETCH
                || unit.name == MSHR
                || self.units[..i].iter().any(|u| u.name == unit.name)
            {
                return Err(invalid(
                    &format!("units[{i}].name"),
                    &format!("`{}` is reserved or used twice", unit.name),
                ));
            }
        }
        if let Some(row) = self.ops.missing().next() {
            return Err(invalid(&format!("ops.{row}"), "missing"));
        }
        for (row, timing) in self.ops.rows() {
            if self.unit_index(&timing.unit).is_none() {
                return Err(invalid(
                    &format!("ops.{row}.unit"),
                    &format!("`{}` is not one of the units", timing.unit),
                ));
            }
            if timing.initiation == 0 {
                return Err(invalid(
                    &format!("ops.{row}.initiation"),
                    "must be at least 1",
                ));
            }
        }
        Ok(())
    }

    fn unit_index(&self, name: &str) -> Option<usize> {
        self.units.iter().position(|u| u.name == name)
    }

    /// Every resource whose usage is counted, with where it lives, in record order: `issue`
    /// first, then every unit, then those the description asks for: the SM's shared fetch
    /// unit ([`FETCH`]), its misses in flight ([`MSHR`]), the GPU's [`L2`] and [`DRAM`]
    /// (whose usage is bytes, not cycles).
    fn resource_list(&self) -> impl Iterator<Item = (&str, Scope)> {
        let optional = [
            (
                FETCH,
                Scope::Sm,
                self.frontend.sm_fetch_groups_per_cycle > 0,
            ),
            (MSHR, Scope::Sm, self.memory.mshrs_per_sm.is_some()),
            (L2, Scope::Device, self.memory.l2_gb_per_s.is_some()),
            (DRAM, Scope::Device, self.memory.dram_gb_per_s.is_some()),
        ];
        std::iter::once((ISSUE, self.issue_scope))
            .chain(self.units.iter().map(|u| (u.name.as_str(), u.scope)))
            .chain(
                optional
                    .into_iter()
                    .filter(|(_, _, present)| *present)
                    .map(|(name, scope, _)| (name, scope)),
            )
    }

    /// The names of the resources whose usage is counted, in record
    /// order: `issue`, the units, then `fetch`, `MSHR`, `L2` and `DRAM` where present.
    pub fn resources(&self) -> Vec<String> {
        self.resource_list().map(|(n, _)| n.to_string()).collect()
    }

    /// Where each resource of [`Architecture::resources`] lives, in the same order.
    pub fn resource_scopes(&self) -> Vec<Scope> {
        self.resource_list().map(|(_, s)| s).collect()
    }

    /// The index of the resource `name` in [`Architecture::resources`], if present (unit
    /// names never take the reserved ones: validated).
    fn resource_index(&self, name: &str) -> Option<usize> {
        self.resource_list().position(|(n, _)| n == name)
    }

    /// The index of [`FETCH`] in [`Architecture::resources`], if the SM's warps share one
    /// fetch unit (`frontend.sm_fetch_groups_per_cycle`).
    pub fn fetch_resource(&self) -> Option<usize> {
        self.resource_index(FETCH)
    }

    /// The index of [`MSHR`] in [`Architecture::resources`], if the description bounds
    /// the misses in flight (`memory.mshrs_per_sm`).
    pub fn mshr_resource(&self) -> Option<usize> {
        self.resource_index(MSHR)
    }

    /// The index of [`DRAM`] in [`Architecture::resources`], if the description has it.
    pub fn dram_resource(&self) -> Option<usize> {
        self.resource_index(DRAM)
    }

    /// The index of [`L2`] in [`Architecture::resources`], if the description has it.
    pub fn l2_resource(&self) -> Option<usize> {
        self.resource_index(L2)
    }

    /// The resource whose usage counts the bytes past the L1: the L2's, else the DRAM's
    /// (both columns count the same bytes); `None` with neither. The model sums it over
    /// work-items, and a warp's record carries it summed over its lanes.
    pub fn memory_side_resource(&self) -> Option<usize> {
        self.l2_resource().or(self.dram_resource())
    }

    /// Bytes the DRAM moves per core clock cycle, if the description gives its bandwidth.
    pub fn dram_bytes_per_cycle(&self) -> Option<f64> {
        self.memory
            .dram_gb_per_s
            .map(|gb| gb * 1e9 / (self.clock_mhz * 1e6))
    }

    /// Bytes the L2 moves per core clock cycle, if the description gives its bandwidth.
    pub fn l2_bytes_per_cycle(&self) -> Option<f64> {
        self.memory
            .l2_gb_per_s
            .map(|gb| gb * 1e9 / (self.clock_mhz * 1e6))
    }

    /// Cycles a warp instruction takes to dispatch on `unit`: `ceil(warp_size / lanes)`.
    pub fn dispatch_cycles(&self, unit: usize) -> u32 {
        self.warp_size.div_ceil(self.units[unit].lanes)
    }

    /// How an instruction of `class` behaves on this architecture. Its initiation interval
    /// is the larger of the class's own (`ops`) and the unit's dispatch cycles: the unit
    /// takes the next warp instruction once its pipeline and its lanes are both free.
    pub fn describe(&self, class: OpClass) -> InstrTiming {
        let row = self.ops.get(class);
        let unit = self
            .unit_index(&row.unit)
            .expect("validated: every op row names a unit");
        InstrTiming {
            unit,
            copies: self.units[unit].count,
            latency: row.latency,
            initiation: row.initiation.max(self.dispatch_cycles(unit)),
        }
    }

    /// Whether `instr` is absorbed into an access's addressing on this GPU: it takes no
    /// fetch, issue or unit ([`Frontend::native_addressing`], [`Instr::addressing`]).
    pub fn folds(&self, instr: &Instr) -> bool {
        instr.addressing != Addressing::None && instr.addressing <= self.frontend.native_addressing
    }

    /// How `instr` behaves: [`Architecture::describe`] of its class, except for a memory
    /// access whose address was analysed: its latency is its level's (the shared memory's
    /// for a shared access), and it holds the memory pipeline once per transaction (line
    /// or bank-conflict pass), the last transaction's result arriving that much later.
    pub fn describe_instr(&self, instr: &Instr) -> InstrTiming {
        let mut t = self.describe(instr.class);
        if let Some(access) = instr.access {
            // A global store (or reduction) writes no register: nothing waits for it, and
            // it completes in the background (the warp's exit may wait for it:
            // `memory.store_ack_at_exit`); it keeps its row's latency.
            let background = instr.class == OpClass::GlobalMem && instr.writes.is_empty();
            let base = match (instr.class, self.served_from(access.level)) {
                _ if background => t.latency,
                (OpClass::SharedMem, _) => self.memory.shared,
                (_, MemLevel::L1) => self.memory.l1_hit,
                (_, MemLevel::L2) => self.memory.l2_hit,
                (_, MemLevel::Dram) => self.memory.dram,
            };
            let extra = access.transactions.max(1) - 1;
            t.latency = base + extra * t.initiation;
            t.initiation *= extra + 1;
        }
        t
    }

    /// The level whose latency an access the front end charged at `level` waits for. A
    /// first touch ([`MemLevel::Dram`]) comes from the L2 where the description gives its
    /// capacity (`memory.l2_bytes`): block times are fixed before any launch, and a
    /// launch's data is in the L2 when its buffers fit (what the host or an earlier launch
    /// wrote is still there). A launch whose buffers exceed the L2 pays DRAM's trip in the
    /// model's throughput terms (misses in flight, DRAM), not in its paths' latency.
    pub fn served_from(&self, level: MemLevel) -> MemLevel {
        match level {
            MemLevel::Dram if self.memory.l2_bytes.is_some() => MemLevel::L2,
            level => level,
        }
    }

    /// Usage counter units per cycle: the least common multiple of the units' copies (and
    /// of the fetch groups a cycle and the miss entries, where given), so that every
    /// use(r, B) (an initiation interval divided by copies) is a whole number of units and
    /// counters can be integers.
    pub fn usage_scale(&self) -> u64 {
        fn gcd(a: u64, b: u64) -> u64 {
            if b == 0 {
                a
            } else {
                gcd(b, a % b)
            }
        }
        // The fetch unit's groups per cycle and the miss entries divide usage too.
        self.units
            .iter()
            .map(|u| u64::from(u.count))
            .chain(
                (self.frontend.sm_fetch_groups_per_cycle > 0)
                    .then_some(u64::from(self.frontend.sm_fetch_groups_per_cycle)),
            )
            .chain(self.memory.mshrs_per_sm.map(u64::from))
            .fold(1, |l, c| l / gcd(l, c) * c)
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

/// The name of the issue resource (index 0 of [`Architecture::resources`]).
pub const ISSUE: &str = "issue";

/// The name of the SM's shared fetch unit (after the units, when present).
pub const FETCH: &str = "fetch";

/// The name of the SM's misses in flight (after the fetch unit, when present): its usage
/// is entry-cycles over the number of entries.
pub const MSHR: &str = "MSHR";

/// The name of the L2 resource (before [`DRAM`], when present): its usage is the bytes
/// that cross the L2, to and from the SMs.
pub const L2: &str = "L2";

/// The name of the DRAM resource (the last of [`Architecture::resources`], when present):
/// its usage is bytes moved to and from global memory.
pub const DRAM: &str = "DRAM";

/// The resolved timing of one instruction class (llvm-mca's `InstrDesc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InstrTiming {
    /// Index into [`Architecture::units`].
    pub unit: usize,
    /// Copies of that unit.
    pub copies: u32,
    /// EX -> WB.
    pub latency: u32,
    /// Initiation interval on the unit (dispatch cycles included).
    pub initiation: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instr::{ArithOp, DataKind};

    #[test]
    fn shipped_descriptions_load() {
        for name in BUILTIN_ARCHS {
            let arch = Architecture::load(name).unwrap();
            assert_eq!(&arch.name, name);
        }
    }

    #[test]
    fn the_toml_text_reads_back_as_the_same_description() {
        let a = Architecture::load("gtx480").unwrap();
        assert_eq!(Architecture::from_toml(&a.to_toml(), "again").unwrap(), a);
        let mut b = a.clone();
        b.ops[OpRow::Fp32Div].latency += 1;
        assert_ne!(a.to_toml(), b.to_toml());
    }

    #[test]
    fn gtx480_has_the_papers_numbers() {
        let a = Architecture::default_arch();
        assert_eq!(a.sm_count, 15);
        assert_eq!(a.limits.max_warps, 48);
        assert_eq!(a.limits.max_work_groups, 8);
        assert_eq!(a.limits.registers, 32768);
        assert_eq!(a.limits.shared_memory_bytes, 48 * 1024);
        let lat = |r: OpRow| (a.ops[r].latency, a.ops[r].initiation);
        use OpRow::*;
        assert_eq!(
            [IntAdd, IntMax, IntMul, IntMad, IntDiv].map(lat),
            [(4, 1), (13, 2), (4, 2), (5, 1), (145, 8)]
        );
        assert_eq!(
            [Fp32Add, Fp32Max, Fp32Mul, Fp32Mad, Fp32Div].map(lat),
            [(4, 1), (13, 2), (4, 1), (5, 1), (39, 4)]
        );
        assert_eq!(
            [Fp64Add, Fp64Max, Fp64Mul, Fp64Mad, Fp64Div].map(lat),
            [(8, 8), (19, 16), (8, 8), (8, 8), (330, 130)]
        );
        assert_eq!(
            a.resources(),
            ["issue", "ALU", "SFU", "MEM", "fetch", "MSHR", "L2", "DRAM"]
        );
        assert_eq!(a.usage_scale(), 64, "2 ALUs and 64 miss entries");
        assert_eq!(Architecture::load("hopper_h100").unwrap().usage_scale(), 1);
        assert_eq!(
            a.describe(OpClass::Arith(DataKind::Fp32, ArithOp::Div))
                .unit,
            1
        );
    }

    #[test]
    fn an_analysed_access_takes_its_levels_latency_and_a_pass_per_transaction() {
        use crate::instr::{Instr, MemAccess};
        let a = Architecture::default_arch();
        let access = |level, transactions| MemAccess {
            level,
            transactions,
            sectors: 4,
        };
        let load = Instr::new(OpClass::GlobalMem, &[1], &[2]);
        // Not analysed: the `mem` row.
        assert_eq!(a.describe_instr(&load).latency, a.ops[OpRow::Mem].latency);
        // A first touch: from the L2 where the description gives its capacity (the
        // launch's data is there when it fits), else from DRAM.
        let first_touch = load.clone().with_access(access(MemLevel::Dram, 1));
        assert_eq!(a.served_from(MemLevel::Dram), MemLevel::L2);
        let t = a.describe_instr(&first_touch);
        assert_eq!((t.latency, t.initiation), (a.memory.l2_hit, 1));
        let mut no_l2 = a.clone();
        no_l2.memory.l2_bytes = None;
        assert_eq!(no_l2.served_from(MemLevel::Dram), MemLevel::Dram);
        assert_eq!(no_l2.describe_instr(&first_touch).latency, a.memory.dram);
        let t = a.describe_instr(&load.clone().with_access(access(MemLevel::L2, 1)));
        assert_eq!(t.latency, a.memory.l2_hit);
        // A store writes no register: it completes in the background, at its row's latency
        // (the memory pipeline is still held once per line).
        let store =
            Instr::new(OpClass::GlobalMem, &[1, 2], &[]).with_access(access(MemLevel::L2, 2));
        let t = a.describe_instr(&store);
        assert_eq!(
            (t.latency, t.initiation),
            (a.ops[OpRow::Mem].latency + 1, 2)
        );
        // 32 lines: the memory pipeline is held 32 passes, the last line 31 passes later.
        let t = a.describe_instr(&load.with_access(access(MemLevel::L1, 32)));
        assert_eq!((t.latency, t.initiation), (a.memory.l1_hit + 31, 32));
        // A 2-way bank conflict on shared memory (gtx480: 2 cycles a pass): the shared
        // latency, two passes, the second one pass later.
        let shared =
            Instr::new(OpClass::SharedMem, &[1], &[2]).with_access(access(MemLevel::L1, 2));
        let t = a.describe_instr(&shared);
        assert_eq!(a.ops.get(OpClass::SharedMem).initiation, 2);
        assert_eq!((t.latency, t.initiation), (a.memory.shared + 2, 4));
    }

    fn gtx480_src() -> &'static str {
        builtin_source("gtx480").unwrap()
    }

    #[test]
    fn missing_field_is_named() {
        let src = gtx480_src().replace("fp32_mad =", "fp32_mad_typo =");
        let err = Architecture::from_toml(&src, "my.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("my.toml:"), "{err}");
        assert!(err.contains("fp32_mad"), "{err}");
    }

    #[test]
    fn unknown_unit_is_named() {
        let src = gtx480_src().replacen("unit = \"SFU\"", "unit = \"XFU\"", 1);
        let err = Architecture::from_toml(&src, "my.toml")
            .unwrap_err()
            .to_string();
        assert!(err.contains("ops.int_div.unit"), "{err}");
        assert!(err.contains("XFU"), "{err}");
    }

    #[test]
    fn zero_values_are_rejected_by_name() {
        let src = gtx480_src().replace("sm_count = 15", "sm_count = 0");
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("`sm_count`"), "{err}");
        let src = gtx480_src().replace("clock_mhz = 700.0", "clock_mhz = -1.0");
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("clock_mhz"), "{err}");
        // Model v2's fields: each bad value named.
        for (from, to, field) in [
            (
                "mshrs_per_sm = 64",
                "mshrs_per_sm = 0",
                "`memory.mshrs_per_sm`",
            ),
            (
                "fetch_bytes = 128",
                "fetch_bytes = 64",
                "`memory.fetch_bytes`",
            ),
            (
                "max_work_group_size = 1024",
                "max_work_group_size = 0",
                "`limits.max_work_group_size`",
            ),
            (
                "max_work_group_dims = [1024, 1024, 64]",
                "max_work_group_dims = [1024, 1024, 0]",
                "`limits.max_work_group_dims[2]`",
            ),
        ] {
            assert!(gtx480_src().contains(from), "{from}");
            let err = Architecture::from_toml(&gtx480_src().replace(from, to), "x")
                .unwrap_err()
                .to_string();
            assert!(err.contains(field), "{err}");
        }
    }

    #[test]
    fn unit_widths_and_scopes_are_checked_by_name() {
        let src = gtx480_src().replace(
            "{ name = \"SFU\", count = 1, lanes = 32,",
            "{ name = \"SFU\", count = 1, lanes = 0,",
        );
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("`units[1].lanes`"), "{err}");
        let src = gtx480_src().replace("issue_scope = \"sub_core\"", "issue_scope = \"gpc\"");
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("gpc") && err.contains("sub_core"), "{err}");
        let src = gtx480_src().replace("sub_cores_per_sm = 2", "sub_cores_per_sm = 0");
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("`sub_cores_per_sm`"), "{err}");
        let src = gtx480_src().replacen(", scope = \"sm\" }", " }", 1);
        let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
        assert!(err.contains("scope"), "{err}");
    }

    #[test]
    fn malformed_toml_reports_position() {
        let err = Architecture::from_toml("name = \"x\"\nsm_count = [", "bad.toml")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("bad.toml:"), "{err}");
        assert!(err.contains("line 2"), "{err}");
    }

    #[test]
    fn unknown_name_lists_the_shipped_ones() {
        let err = Architecture::load("no_such_gpu").unwrap_err().to_string();
        assert!(err.contains("gtx480, ampere_a100, hopper_h100"), "{err}");
    }
}
