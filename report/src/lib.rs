//! srcsim's report, the product both the interposer (`libsrcsim.so`, which writes it) and
//! the `srcsim` command (which reads it back) share: what a simulated run produced, its
//! views, the baselines and verdicts of `srcsim check` ([`baseline`]), and the sweep
//! manifest and its plots ([`sweep`], [`plot`]). Typed data and pure functions: running
//! programs and the command line belong to `runtime-shim`.
//!
//! What a simulated run produced: one [`Launch`] per kernel launch, the per-kernel table
//! printed at exit, and the JSON and CSV forms (`SRCSIM_REPORT`). `srcsim run` and
//! `srcsim report` read the JSON back. With `SRCSIM_PROFILE=1` each simulated launch also
//! carries its source-block counters, and the report each profiled program's source
//! blocks and line texts, once ([`ProgramProfile`]); [`Report::line_profiles`] turns them
//! into per-line executions and cycles.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use pipeline_model::{Bound, KernelEstimate, OpenclEvent};
use serde::{Deserialize, Serialize};

pub mod baseline;
mod file;
mod legacy;
mod lines;
pub mod plot;
pub mod sweep;
pub mod views;

pub use file::FileError;
pub use lines::{apportion, lines_table};

/// The version tag of the report's JSON schema. Version 2 keeps each program's source
/// blocks and line texts once, in [`Report::programs`], where version 1 repeated them in
/// every launch's profile; a version 1 report still reads ([`Report::read`]).
pub const REPORT_SCHEMA: &str = "srcsim.report/2";

/// The tag of the first schema, whose launches' profiles held their blocks' places and
/// line texts themselves.
pub const REPORT_SCHEMA_V1: &str = "srcsim.report/1";

/// A whole run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// [`REPORT_SCHEMA`].
    pub schema: String,
    /// The architecture simulated.
    pub arch: String,
    /// Its clock, MHz.
    pub clock_mhz: f64,
    /// Its SMs (absent in reports written before they named them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sm_count: Option<u32>,
    /// What simulated it ([`model_identity`]): the same program gives the same cycles under
    /// the same identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The program and its arguments, as it was started (absent in reports written before
    /// they named it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub command: Vec<String>,
    /// Every launch, in the order the application enqueued them.
    pub launches: Vec<Launch>,
    /// With `SRCSIM_PROFILE=1`: every program with a profiled launch, once (programs of
    /// equal blocks and text, such as one source built twice, are one).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub programs: Vec<ProgramProfile>,
    /// Launches whose outcome is an earlier launch's (the same records, not measured
    /// again: [`LaunchSink::repeated`]), each with that launch, in order; settled at the
    /// end of the run ([`Report::settle_repeats`]).
    #[serde(skip)]
    pub repeats: Vec<(usize, usize)>,
    /// What srcsim did with its cache that changed nothing of the run but its speed,
    /// each once: kept files not taken (damaged, or another build's; removed and made
    /// again), files it could not keep, a directory it could not use.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cache: Vec<String>,
    /// The architecture's OpenCL event terms, which `event_micros` adds to each launch's
    /// estimate (absent: none measured for this GPU).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opencl_event: Option<OpenclEvent>,
}

/// One kernel launch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Launch {
    /// Its position among all launches of the run.
    pub index: usize,
    /// The kernel's name (shared by its launches).
    pub kernel: Arc<str>,
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Global size (ones beyond `work_dim`).
    pub global: [u64; 3],
    /// The work-group size the model used.
    pub local: [u64; 3],
    /// Whether the application left the local size to the runtime (then `local` is the
    /// shim's choice, see docs/usage.md).
    pub local_chosen: bool,
    /// Global offset.
    pub offset: [u64; 3],
    /// The estimate, or why there is none.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// With `SRCSIM_PROFILE=1`: the source-block counters summed over the work-items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<LaunchProfile>,
    /// Whether it was the first launch of its context, with no fill of the context waited
    /// for before it: on a GPU's driver it pays the context's lazy set-up
    /// (`pipeline_model::OpenclEvent::first_launch_us`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_in_context: bool,
    /// What an OpenCL profiling event's START to END would show for it on the GPU's own
    /// driver, in microseconds: the estimate plus the architecture's `opencl_event` terms
    /// (absent where the architecture gives none, or the launch is not simulated).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event_micros: Option<f64>,
}

/// What the profiles of a program's launches refer to: its source blocks and the text of
/// their lines.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProgramProfile {
    /// Its position in [`Report::programs`], which [`LaunchProfile::program`] names.
    pub id: usize,
    /// The profiled source blocks of all its functions (kernels and helpers), which
    /// [`BlockCounts::index`] names.
    pub blocks: Vec<SourceBlock>,
    /// The text of every line a block occupies or can be charged cycles on, by line
    /// number (of the source given to `clCreateProgramWithSource`).
    pub source_lines: BTreeMap<u32, String>,
}

/// Where a profiled source block is.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct SourceBlock {
    /// The function (a kernel or a helper).
    pub function: String,
    /// The block's index in its function's source CFG.
    pub block: usize,
    /// The lines of the program's source it occupies.
    pub lines: Vec<u32>,
    /// Its first line.
    pub line: u32,
    /// Its first column.
    pub column: u32,
}

/// A launch's source-block profile.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct LaunchProfile {
    /// The program of the kernel: its [`ProgramProfile::id`].
    pub program: usize,
    /// The kernel's source blocks, and those of the helpers it ran.
    pub blocks: Vec<BlockCounts>,
}

pub use annotator::back::sidecar::{BlockTotals, LineAmount};

/// One source block's counters, summed over a launch's work-items: the records' totals
/// as the profile's layout sums them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct BlockCounts {
    /// The block: its position in its program's [`ProgramProfile::blocks`].
    pub index: usize,
    /// Its executions, cycles and instructions, and their parts by source line
    /// (`executions`, `cycles`, `instructions` and `by_line` in the JSON).
    #[serde(flatten)]
    pub totals: BlockTotals,
}

/// One source line of a kernel's profile.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LineProfile {
    /// The line number.
    pub line: u32,
    /// The most executions of a block on this line (summed over launches); for a line no
    /// block occupies (a closing brace), of the blocks whose cycles land on it.
    pub executions: u64,
    /// The cycles owed to this line's PTX instructions (summed over work-items and
    /// launches); the lines' cycles sum to the kernel's.
    pub cycles: u64,
    /// `cycles` in percent of the kernel's cycles.
    pub share: f64,
    /// The PTX instructions on this line the work-items executed; the lines' sum to the
    /// kernel's.
    pub instructions: u64,
    /// The line's text.
    pub source: String,
}

/// A kernel's line profile, hottest line first.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct KernelLines {
    /// The kernel.
    pub kernel: String,
    /// Profiled launches.
    pub launches: usize,
    /// Cycles of all its work-items in all profiled launches (the sum of its blocks').
    pub cycles: u64,
    /// PTX instructions its work-items executed.
    pub instructions: u64,
    /// Its lines.
    pub lines: Vec<LineProfile>,
}

/// What became of a launch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The model's estimate (shared by the launches it is the estimate of).
    Simulated(Arc<Estimate>),
    /// The launch ran unannotated.
    NotSimulated {
        /// Why.
        reason: String,
    },
}

/// srcsim's version with the revisions of the model's arithmetic and of the annotation,
/// which decide a run's cycles (`srcsim --version`).
pub fn version() -> String {
    format!(
        "{} (model {}, annotation {})",
        env!("CARGO_PKG_VERSION"),
        pipeline_model::MODEL_REVISION,
        annotator::cache::ANNOTATION_REVISION
    )
}

/// What gives a run its cycles, in one line: srcsim's [`version`] and the architecture's
/// name and fingerprint.
pub fn model_identity(arch: &pipeline_model::Architecture) -> String {
    format!(
        "srcsim {}, {} {}",
        version(),
        arch.name,
        annotator::cache::fingerprint(&[&arch.to_toml()])
    )
}

fn is_zero(v: &u64) -> bool {
    *v == 0
}

/// The model's estimate of one launch, as reported.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// Estimated cycles.
    pub cycles: u64,
    /// Estimated microseconds at the architecture's clock.
    pub micros: f64,
    /// The latency term: `t_opt` plus `queue_cycles` and `icache_cycles`.
    pub latency_cycles: u64,
    /// The cycles the first wave's memory requests wait at the level that serves them,
    /// included in `latency_cycles` (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub queue_cycles: u64,
    /// The cycles the warps' paths wait for their schedulers' issue slots where the
    /// latency and issue terms are close (the knee between them), added in `cycles` to
    /// the larger of the latency term and the contention terms, not in `latency_cycles`
    /// (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub issue_wait_cycles: u64,
    /// The cycles their requests wait for the L2 besides, where the latency term and the
    /// L2's bytes over its bandwidth are close, added in `cycles` as `issue_wait_cycles`
    /// is (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub l2_wait_cycles: u64,
    /// The cycles the SMs wait for the kernel's code on its first run, where the
    /// architecture's instruction cache fetches no line ahead (`[icache]`), included in
    /// `latency_cycles` and added to whichever term bounds the launch (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub icache_cycles: u64,
    /// Whether the launch's buffers fit in the L2 (the architecture gives
    /// `memory.l2_bytes`), so that it was served from there and moved nothing from DRAM.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub l2_resident: bool,
    /// The architecture's fixed cost of a launch, included in `cycles` (absent in reports
    /// of models before it: 0).
    #[serde(default)]
    pub launch_cycles: u64,
    /// The most cycles that running divergent paths one after the other added to a warp
    /// (0: no warp diverged).
    #[serde(default)]
    pub divergence_cycles: u64,
    /// `latency` or the saturated resource.
    pub bound: String,
    /// Bytes the launch moves to and from DRAM (the architecture models DRAM): the
    /// work-items' global loads, stores and atomics, at most the bound buffers' bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dram_bytes: Option<u64>,
    /// How the kernel was timed, where that is not the usual way (e.g. from a compile
    /// without loop unrolling, and why).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Work-groups resident per SM.
    pub work_groups_per_sm: u32,
    /// What limited them.
    pub occupancy_limiter: String,
    /// Work-groups in the launch.
    pub work_groups: u64,
    /// Warps in the launch.
    pub warps: u64,
    /// A kernel of one block timed for this many warps sharing an SM's L1, its launch's
    /// busiest SM holding that few (absent: the first class, 64).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l1_sharers: Option<u32>,
    /// The accesses whose addresses the run sampled (the static analysis could not tell
    /// them): what the warps did there, which the estimate charges.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sampled: Vec<SampledAccessReport>,
}

/// What the warps of a launch did at an access whose addresses only the run could tell (a
/// gather through loaded indices, a pointer chase, a run-time stride).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SampledAccessReport {
    /// Its line in the kernel file.
    pub line: u32,
    /// Its column (the subscript's first character).
    pub column: u32,
    /// `global` or `shared`.
    pub space: String,
    /// Requests per warp access the static analysis assumed: 128-byte lines (global: one
    /// a lane) or bank passes (shared: none conflicting).
    pub assumed_requests: f64,
    /// Requests per warp access the warps made, on average.
    pub requests: f64,
    /// 32-byte sectors per warp access (global).
    pub sectors: f64,
    /// Whether the L1 served it (a load in a loop whose buffer fits in the L1).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub l1: bool,
}

impl From<&KernelEstimate> for Estimate {
    fn from(e: &KernelEstimate) -> Self {
        Estimate {
            cycles: e.cycles,
            micros: e.micros,
            latency_cycles: e.latency_cycles,
            queue_cycles: e.queue_cycles,
            issue_wait_cycles: e.issue_wait_cycles,
            l2_wait_cycles: e.l2_wait_cycles,
            icache_cycles: e.icache_cycles,
            l2_resident: e.l2_resident,
            launch_cycles: e.launch_cycles,
            divergence_cycles: e.divergence_cycles,
            bound: match &e.bound {
                Bound::Launch => "launch".to_string(),
                Bound::Latency => "latency".to_string(),
                Bound::Resource { resource } => resource.clone(),
            },
            dram_bytes: e.dram_bytes,
            note: None,
            work_groups_per_sm: e.occupancy.work_groups_per_sm,
            occupancy_limiter: e.occupancy.limiter.describe().to_string(),
            work_groups: e.work_groups,
            warps: e.warps,
            l1_sharers: e.l1_sharers,
            sampled: Vec::new(),
        }
    }
}

pub(crate) fn dims(v: [u64; 3], work_dim: u32) -> String {
    v[..work_dim.clamp(1, 3) as usize]
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join("x")
}

impl Launch {
    /// The launch configuration, as `global / local`.
    pub fn configuration(&self) -> String {
        format!(
            "{} / {}{}",
            dims(self.global, self.work_dim),
            dims(self.local, self.work_dim),
            if self.local_chosen { "*" } else { "" }
        )
    }

    /// The estimate, if simulated.
    pub fn estimate(&self) -> Option<&Estimate> {
        match &self.outcome {
            Outcome::Simulated(e) => Some(e),
            Outcome::NotSimulated { .. } => None,
        }
    }
}

/// The launches of one kernel in one configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelSummary {
    /// The kernel.
    pub kernel: String,
    /// `global / local`.
    pub configuration: String,
    /// Simulated launches.
    pub launches: usize,
    /// Cycles summed over them.
    pub total_cycles: u64,
    /// Microseconds summed over them.
    pub total_micros: f64,
    /// The bound of the last launch.
    pub bound: String,
    /// The occupancy of the last launch, as `N/SM (limiter)`.
    pub occupancy: String,
}

/// Where the shim puts what it learns of each launch, as it learns it: the launch when it
/// is enqueued (or runs unsimulated), then its outcome and profile once the model is done
/// with its records (and, once, the program a profile refers to). The shim writes only
/// through this; the views of `views` render what a sink collected. [`Report`] is the sink
/// of a run.
pub trait LaunchSink {
    /// Takes a launch (its outcome so far), gives it the next index and returns that.
    fn launched(&mut self, launch: Launch) -> usize;
    /// Launch `index`'s outcome, and its profile where it was profiled.
    fn estimated(&mut self, index: usize, outcome: Outcome, profile: Option<LaunchProfile>);
    /// Takes a launch that left the records launch `of` left, so that its outcome is
    /// `of`'s (the annotated kernel did not run again); gives it the next index and
    /// returns that. `of` is a launch taken by [`LaunchSink::launched`], not a repeat.
    fn repeated(&mut self, launch: Launch, of: usize) -> usize;
    /// The id of the program of these `blocks` and `source_lines`, which a profile given
    /// to [`LaunchSink::estimated`] names ([`LaunchProfile::program`]): an equal one's if
    /// the sink has it, else a new one's.
    fn program(&mut self, blocks: &[SourceBlock], source_lines: &BTreeMap<u32, String>) -> usize;
}

impl LaunchSink for Report {
    fn launched(&mut self, mut launch: Launch) -> usize {
        launch.index = self.launches.len();
        self.launches.push(launch);
        self.launches.len() - 1
    }

    fn estimated(&mut self, index: usize, outcome: Outcome, profile: Option<LaunchProfile>) {
        if let Some(launch) = self.launches.get_mut(index) {
            launch.outcome = outcome;
            if profile.is_some() {
                launch.profile = profile;
            }
        }
    }

    fn repeated(&mut self, launch: Launch, of: usize) -> usize {
        let index = self.launched(launch);
        self.repeats.push((index, of));
        index
    }

    fn program(&mut self, blocks: &[SourceBlock], source_lines: &BTreeMap<u32, String>) -> usize {
        self.add_program(blocks, source_lines)
    }
}

impl Report {
    /// An empty report for `arch`.
    pub fn new(arch: &str, clock_mhz: f64) -> Self {
        Report {
            schema: REPORT_SCHEMA.to_string(),
            arch: arch.to_string(),
            clock_mhz,
            sm_count: None,
            model: None,
            command: Vec::new(),
            launches: Vec::new(),
            programs: Vec::new(),
            repeats: Vec::new(),
            cache: Vec::new(),
            opencl_event: None,
        }
    }

    /// The launch whose records gave launch `index`'s outcome: itself, or the earlier
    /// launch it repeats.
    pub fn measured_as(&self, index: usize) -> usize {
        match self.repeats.binary_search_by_key(&index, |&(i, _)| i) {
            Ok(at) => self.repeats[at].1,
            Err(_) => index,
        }
    }

    /// Gives every launch that repeats another that launch's outcome and profile (once
    /// every estimate is in).
    pub fn settle_repeats(&mut self) {
        for &(index, of) in &self.repeats {
            let Some(source) = self.launches.get(of) else {
                continue;
            };
            let (outcome, profile) = (source.outcome.clone(), source.profile.clone());
            if let Some(launch) = self.launches.get_mut(index) {
                launch.outcome = outcome;
                launch.profile = profile;
            }
        }
    }

    /// Gives every simulated launch what an OpenCL event would show for it under `event`'s
    /// terms (once every estimate is in, repeats settled), and keeps the terms.
    pub fn settle_events(&mut self, event: Option<&OpenclEvent>) {
        self.opencl_event = event.cloned();
        for launch in &mut self.launches {
            launch.event_micros = match (event, &launch.outcome) {
                (Some(event), Outcome::Simulated(e)) => {
                    Some(event.micros(e.micros, launch.first_in_context))
                }
                _ => None,
            };
        }
    }

    /// Simulated launches grouped by kernel and configuration, in order of first launch.
    pub fn summaries(&self) -> Vec<KernelSummary> {
        // Grouped by what the configuration is made of, so that a run of a million
        // launches formats a string per row, not per launch.
        type Group<'a> = (&'a str, u32, [u64; 3], [u64; 3], bool);
        let mut row_of: HashMap<Group<'_>, usize> = HashMap::new();
        // The rows by what the table shows of them (groups that print alike are one row).
        let mut row_named: HashMap<(String, String), usize> = HashMap::new();
        let mut rows: Vec<(KernelSummary, &Estimate)> = Vec::new();
        for l in &self.launches {
            let Some(e) = l.estimate() else { continue };
            let group = (&*l.kernel, l.work_dim, l.global, l.local, l.local_chosen);
            let row = *row_of.entry(group).or_insert_with(|| {
                let named = (l.kernel.to_string(), l.configuration());
                *row_named.entry(named.clone()).or_insert_with(|| {
                    let summary = KernelSummary {
                        kernel: named.0,
                        configuration: named.1,
                        launches: 0,
                        total_cycles: 0,
                        total_micros: 0.0,
                        bound: String::new(),
                        occupancy: String::new(),
                    };
                    rows.push((summary, e));
                    rows.len() - 1
                })
            });
            let (summary, last) = &mut rows[row];
            summary.launches += 1;
            summary.total_cycles += e.cycles;
            summary.total_micros += e.micros;
            *last = e;
        }
        rows.into_iter()
            .map(|(mut summary, last)| {
                summary.bound = last.bound.clone();
                summary.occupancy = format!(
                    "{}/SM ({})",
                    last.work_groups_per_sm, last.occupancy_limiter
                );
                summary
            })
            .collect()
    }

    /// Launches not simulated, grouped by kernel and reason, with their counts.
    pub fn unsimulated(&self) -> Vec<(String, String, usize)> {
        let mut out: Vec<(String, String, usize)> = Vec::new();
        for l in &self.launches {
            if let Outcome::NotSimulated { reason } = &l.outcome {
                match out
                    .iter_mut()
                    .find(|(k, r, _)| **k == *l.kernel && r == reason)
                {
                    Some(row) => row.2 += 1,
                    None => out.push((l.kernel.to_string(), reason.clone(), 1)),
                }
            }
        }
        out
    }

    /// The notes of simulated launches (how their kernels were timed), one per kernel and
    /// note, in order of first appearance.
    pub fn notes(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for l in &self.launches {
            let note = match &l.outcome {
                Outcome::Simulated(e) => e.note.as_ref(),
                Outcome::NotSimulated { .. } => None,
            };
            if let Some(note) = note {
                if !out.iter().any(|(k, n)| **k == *l.kernel && n == note) {
                    out.push((l.kernel.to_string(), note.clone()));
                }
            }
        }
        out
    }
}

/// Every line of `msg` after `srcsim: `, each ended by a line break.
pub fn prefixed(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len() + 16);
    for line in msg.lines() {
        out.push_str("srcsim: ");
        out.push_str(line);
        out.push('\n');
    }
    if out.is_empty() {
        out.push_str("srcsim: \n");
    }
    out
}

#[cfg(test)]
mod tests;
