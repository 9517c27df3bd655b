//! What a simulated run produced: one [`Launch`] per kernel launch, the per-kernel table
//! printed at exit, and the JSON and CSV forms (`SRCSIM_REPORT`). `srcsim run` and
//! `srcsim report` read the JSON back. With `SRCSIM_PROFILE=1` each simulated launch also
//! carries its source-block counters, and the report each profiled program's source
//! blocks and line texts, once ([`ProgramProfile`]); [`Report::line_profiles`] turns them
//! into per-line executions and cycles.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Arc;

use pipeline_model::{Bound, KernelEstimate};
use serde::{Deserialize, Serialize};

mod legacy;
mod lines;
pub mod views;

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
    /// What simulated it ([`model_identity`]): the same program gives the same cycles under
    /// the same identity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
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

pub use annotator::sidecar::{BlockTotals, LineAmount};

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

/// What gives a run its cycles, in one line: srcsim's version, the revisions of the model's
/// arithmetic and of the annotation, and the architecture's name and fingerprint.
pub fn model_identity(arch: &pipeline_model::Architecture) -> String {
    format!(
        "srcsim {} (model {}, annotation {}), {} {}",
        env!("CARGO_PKG_VERSION"),
        pipeline_model::MODEL_REVISION,
        annotator::cache::ANNOTATION_REVISION,
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
    /// The latency term: `t_opt` plus `queue_cycles`.
    pub latency_cycles: u64,
    /// The cycles the first wave's memory requests wait at the level that serves them,
    /// included in `latency_cycles` (absent: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub queue_cycles: u64,
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
            sampled: Vec::new(),
        }
    }
}

pub(super) fn dims(v: [u64; 3], work_dim: u32) -> String {
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
/// with its records. The shim writes only through this; the views of `views` render what
/// a sink collected. [`Report`] is the sink of a run.
pub trait LaunchSink {
    /// Takes a launch (its outcome so far), gives it the next index and returns that.
    fn launched(&mut self, launch: Launch) -> usize;
    /// Launch `index`'s outcome, and its profile where it was profiled.
    fn estimated(&mut self, index: usize, outcome: Outcome, profile: Option<LaunchProfile>);
    /// Takes a launch that left the records launch `of` left, so that its outcome is
    /// `of`'s (the annotated kernel did not run again); gives it the next index and
    /// returns that. `of` is a launch taken by [`LaunchSink::launched`], not a repeat.
    fn repeated(&mut self, launch: Launch, of: usize) -> usize;
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
}

impl Report {
    /// An empty report for `arch`.
    pub fn new(arch: &str, clock_mhz: f64) -> Self {
        Report {
            schema: REPORT_SCHEMA.to_string(),
            arch: arch.to_string(),
            clock_mhz,
            model: None,
            launches: Vec::new(),
            programs: Vec::new(),
            repeats: Vec::new(),
            cache: Vec::new(),
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

    /// Writes the report to `path`, in the view its extension names ([`views::VIEWS`]:
    /// CSV for `.csv`, the table for `.txt`, else JSON).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, views::for_path(path).render(self)?)
    }

    /// Reads a JSON report, of this schema or of [`REPORT_SCHEMA_V1`].
    pub fn read(path: &Path) -> Result<Self, FileError> {
        let text = std::fs::read_to_string(path).map_err(|source| FileError::Io {
            path: path.display().to_string(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses a JSON report; `path` names it in errors. A [`REPORT_SCHEMA_V1`] report
    /// comes back in this schema, its launches' profiles keeping their block counters
    /// and each kernel's blocks and line texts becoming a [`ProgramProfile`] (one per
    /// kernel: a version 1 report does not say which kernels share a program).
    pub fn parse(text: &str, path: &Path) -> Result<Self, FileError> {
        let at = || path.display().to_string();
        let format = |source| FileError::Format {
            path: at(),
            what: "report",
            source,
        };
        let invalid = |cause: String| FileError::Invalid { path: at(), cause };
        /// The schema tag alone, read first so that the rest is read by its version.
        #[derive(Deserialize)]
        struct Tag {
            schema: Option<String>,
        }
        let tag: Tag = serde_json::from_str(text).map_err(format)?;
        let report = match tag.schema.as_deref() {
            Some(REPORT_SCHEMA) => serde_json::from_str::<Report>(text).map_err(format)?,
            Some(REPORT_SCHEMA_V1) => serde_json::from_str::<legacy::Report>(text)
                .map_err(format)?
                .upgrade(),
            Some(other) => {
                return Err(invalid(format!(
                "schema is \"{other}\", expected \"{REPORT_SCHEMA}\" (or \"{REPORT_SCHEMA_V1}\")"
            )))
            }
            None => {
                return Err(invalid(format!(
                    "no \"schema\": \"{REPORT_SCHEMA}\" (write one with `srcsim run --report`)"
                )))
            }
        };
        report.check_references().map_err(invalid)?;
        Ok(report)
    }

    /// That every program is at its id and every launch's profile names a program and
    /// blocks the report has.
    fn check_references(&self) -> Result<(), String> {
        for (i, p) in self.programs.iter().enumerate() {
            if p.id != i {
                return Err(format!("programs[{i}] has id {}, expected {i}", p.id));
            }
        }
        for l in &self.launches {
            let Some(p) = &l.profile else { continue };
            let Some(program) = self.programs.get(p.program) else {
                return Err(format!(
                    "launch {} ({}): its profile names program {}, but the report has {} program(s)",
                    l.index,
                    l.kernel,
                    p.program,
                    self.programs.len()
                ));
            };
            if let Some(b) = p.blocks.iter().find(|b| b.index >= program.blocks.len()) {
                return Err(format!(
                    "launch {} ({}): its profile names block {} of program {}, which has {} block(s)",
                    l.index,
                    l.kernel,
                    b.index,
                    p.program,
                    program.blocks.len()
                ));
            }
        }
        Ok(())
    }
}

/// A JSON file of srcsim's (a report, a baseline) that could not be read, written or
/// understood.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not JSON of the file's shape (serde names the line and column).
    #[error("{path}: not an srcsim {what}: {source}")]
    Format {
        /// The file.
        path: String,
        /// What the file should have been: `report`, `baseline`.
        what: &'static str,
        /// The error.
        source: serde_json::Error,
    },
    /// The shape is right but a value is not, or the parts do not fit together, or the
    /// schema is another.
    #[error("{path}: {cause}")]
    Invalid {
        /// The file.
        path: String,
        /// What is wrong, naming the entry.
        cause: String,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block `block` of function `k` on `lines`, with `executions` and `cycles` (and half
    /// as many instructions).
    fn block(
        block: usize,
        lines: &[u32],
        executions: u64,
        cycles: u64,
    ) -> (SourceBlock, BlockCounts) {
        let place = SourceBlock {
            block,
            function: "k".into(),
            lines: lines.to_vec(),
            line: lines[0],
            column: 5,
        };
        let counts = BlockCounts {
            index: block,
            totals: BlockTotals {
                executions,
                cycles,
                instructions: cycles / 2,
                lines: Vec::new(),
            },
        };
        (place, counts)
    }

    fn launch(index: usize, kernel: &str, profile: Option<LaunchProfile>) -> Launch {
        Launch {
            index,
            kernel: kernel.into(),
            work_dim: 1,
            global: [64, 1, 1],
            local: [32, 1, 1],
            local_chosen: false,
            offset: [0; 3],
            outcome: Outcome::NotSimulated {
                reason: "test".into(),
            },
            profile,
        }
    }

    /// Parts of a block over lines: `(line, cycles, instructions)` per unit of scale.
    fn by_line(parts: &[(u32, f64, f64)], scale: u64) -> Vec<LineAmount> {
        parts
            .iter()
            .map(|&(line, cycles, instructions)| LineAmount {
                line,
                cycles: cycles * scale as f64,
                instructions: instructions * scale as f64,
            })
            .collect()
    }

    /// A `for` header on line 3 (init in block 0, condition in 1, increment in 2), the
    /// body on line 4, the closing brace on line 5 (no block). The increment's PTX holds
    /// code of the body; the body's, the code of the closing brace. The program's blocks
    /// and line texts, and the counters of a launch of `scale` times the work-items.
    fn loop_profile(scale: u64) -> (Vec<SourceBlock>, BTreeMap<u32, String>, Vec<BlockCounts>) {
        let with = |(place, mut counts): (SourceBlock, BlockCounts), parts: &[(u32, f64, f64)]| {
            counts.totals.lines = by_line(parts, scale);
            (place, counts)
        };
        let (places, counts) = [
            with(
                block(0, &[2, 3], scale, 10 * scale),
                &[(2, 6.0, 2.5), (3, 4.0, 2.5)],
            ),
            with(block(1, &[3], 5 * scale, 20 * scale), &[(3, 20.0, 10.0)]),
            with(
                block(2, &[3], 4 * scale, 8 * scale),
                &[(3, 5.0, 4.0), (4, 3.0, 0.0)],
            ),
            with(
                block(3, &[4], 4 * scale, 100 * scale),
                &[(4, 70.0, 50.0 / 3.0), (5, 30.0, 100.0 / 3.0)],
            ),
        ]
        .into_iter()
        .unzip();
        let text = [
            (2, "  int i = 0;"),
            (3, "  for (int k = 0; k < 4; k++)"),
            (4, "    acc += k;"),
            (5, "  }"),
        ]
        .map(|(line, text)| (line, text.to_string()))
        .into();
        (places, text, counts)
    }

    /// Adds a launch of kernel `k` at `scale` (its program added once).
    fn push_loop_launch(r: &mut Report, scale: u64) {
        let (places, text, blocks) = loop_profile(scale);
        let program = r.add_program(&places, &text);
        let index = r.launches.len();
        r.launches
            .push(launch(index, "k", Some(LaunchProfile { program, blocks })));
    }

    /// `r` in schema 1: every launch's profile with its blocks' places and the line texts.
    fn as_version_1(r: &Report) -> String {
        let mut v = serde_json::to_value(r).unwrap();
        let programs = v["programs"].take();
        v.as_object_mut().unwrap().remove("programs");
        v["schema"] = REPORT_SCHEMA_V1.into();
        for l in v["launches"].as_array_mut().unwrap() {
            if l["profile"].is_null() {
                continue;
            }
            let program = &programs[l["profile"]["program"].as_u64().unwrap() as usize];
            let blocks: Vec<serde_json::Value> = l["profile"]["blocks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| {
                    let mut old = program["blocks"][b["index"].as_u64().unwrap() as usize].clone();
                    for field in ["executions", "cycles", "instructions", "by_line"] {
                        if !b[field].is_null() {
                            old[field] = b[field].clone();
                        }
                    }
                    old
                })
                .collect();
            l["profile"] = serde_json::json!({
                "blocks": blocks,
                "source_lines": program["source_lines"].clone(),
            });
        }
        serde_json::to_string_pretty(&v).unwrap()
    }

    #[test]
    fn lines_get_the_parts_of_the_blocks_and_sum_to_the_kernel() {
        let mut r = Report::new("gtx480", 700.0);
        push_loop_launch(&mut r, 1);
        r.launches.push(launch(1, "other", None));
        push_loop_launch(&mut r, 2);
        assert_eq!(r.programs.len(), 1, "one program for both launches");
        let p = r.line_profiles();
        assert_eq!(p.len(), 1);
        let k = &p[0];
        assert_eq!((&*k.kernel, k.launches), ("k", 2));
        // Summed over both launches (scale 1 + 2 = 3).
        assert_eq!(k.cycles, 3 * (10 + 20 + 8 + 100));
        assert_eq!(k.instructions, 3 * (5 + 10 + 4 + 50));
        let got: Vec<(u32, u64, u64, u64)> = k
            .lines
            .iter()
            .map(|l| (l.line, l.executions, l.cycles, l.instructions))
            .collect();
        // Cycles x3: line 2: 6; line 3: 4 + 20 + 5; line 4: 3 + 70; line 5: 30.
        // Instructions x3: 7.5, 49.5, 50, 100 (the halves: one more to the first, line 2).
        // Executions: the most of the blocks on the line; line 5, which no block
        // occupies, those of the body, whose cycles land there.
        assert_eq!(
            got,
            vec![
                (4, 12, 219, 50),
                (5, 12, 90, 100),
                (3, 15, 87, 49),
                (2, 3, 18, 8)
            ]
        );
        assert_eq!(k.lines.iter().map(|l| l.cycles).sum::<u64>(), k.cycles);
        let percent: f64 = k.lines.iter().map(|l| l.share).sum();
        assert!((percent - 100.0).abs() < 1e-9, "{percent}");
        assert!((k.lines[0].share - 219.0 * 100.0 / 414.0).abs() < 1e-9);
        assert_eq!(k.lines[0].source, "    acc += k;");
        assert_eq!(k.lines[1].source, "  }");
        let table = lines_table(k, Some(2));
        assert!(table.contains("the 2 hottest of 4 lines"), "{table}");
        assert!(
            table.contains("acc += k;") && !table.contains("int i = 0;"),
            "{table}"
        );
    }

    #[test]
    fn blocks_of_an_older_report_count_on_their_first_line() {
        let mut r = Report::new("gtx480", 700.0);
        push_loop_launch(&mut r, 1);
        for b in &mut r.launches[0].profile.as_mut().unwrap().blocks {
            b.totals.lines.clear();
        }
        let k = &r.line_profiles()[0];
        let got: Vec<(u32, u64)> = k.lines.iter().map(|l| (l.line, l.cycles)).collect();
        assert_eq!(got, vec![(4, 100), (3, 28), (2, 10)]);
    }

    #[test]
    fn apportion_rounds_to_the_total_by_largest_remainder() {
        assert_eq!(apportion(10, &[2.5, 2.5, 5.0]), vec![3, 2, 5]);
        assert_eq!(apportion(3, &[1.0, 1.0, 1.0]), vec![1, 1, 1]);
        // Parts a hair off their sum (floating point) still give the exact total.
        assert_eq!(
            apportion(100, &[33.333_333_333_4, 33.333_333_333_4, 33.333_333_333_4]),
            vec![34, 33, 33]
        );
        assert_eq!(apportion(7, &[0.1, 6.9000001]), vec![0, 7]);
        assert_eq!(apportion(5, &[0.0, 0.0]), vec![5, 0]);
        assert_eq!(apportion(0, &[1.0, 2.0]), vec![0, 0]);
        assert!(apportion(9, &[]).is_empty());
        // Proportions are kept when the parts are scaled otherwise than the total.
        assert_eq!(apportion(100, &[1.0, 3.0]), vec![25, 75]);
    }

    #[test]
    fn the_model_identity_names_the_architecture_and_changes_with_any_number() {
        let a = pipeline_model::Architecture::load("gtx480").unwrap();
        let id = model_identity(&a);
        assert!(
            id.starts_with(&format!(
                "srcsim {} (model {}, annotation {}), gtx480 ",
                env!("CARGO_PKG_VERSION"),
                pipeline_model::MODEL_REVISION,
                annotator::cache::ANNOTATION_REVISION
            )),
            "{id}"
        );
        assert_eq!(id.rsplit(' ').next().unwrap().len(), 32, "{id}");
        assert_eq!(id, model_identity(&a));
        let mut b = a.clone();
        b.ops[pipeline_model::OpRow::Fp32Div].latency += 1;
        assert_ne!(id, model_identity(&b));
    }

    #[test]
    fn a_kernels_note_is_reported_once_and_read_back() {
        let mut r = Report::new("gtx480", 700.0);
        let simulated = |note: Option<&str>| {
            Outcome::Simulated(std::sync::Arc::new(Estimate {
                cycles: 700,
                micros: 1.0,
                latency_cycles: 700,
                queue_cycles: 0,
                l2_resident: false,
                launch_cycles: 0,
                divergence_cycles: 0,
                bound: "latency".into(),
                dram_bytes: Some(256),
                note: note.map(String::from),
                work_groups_per_sm: 2,
                occupancy_limiter: "warps".into(),
                work_groups: 2,
                warps: 2,
                sampled: Vec::new(),
            }))
        };
        let note = "timed as compiled without loop unrolling (-fno-unroll-loops -mllvm -unroll-count=1): at k.cl:3 ...";
        for (i, (kernel, n)) in [("k", Some(note)), ("k", Some(note)), ("j", None)]
            .into_iter()
            .enumerate()
        {
            let mut l = launch(i, kernel, None);
            l.outcome = simulated(n);
            r.launches.push(l);
        }
        assert_eq!(r.notes(), [("k".to_string(), note.to_string())]);
        let table = r.table();
        assert_eq!(table.matches(note).count(), 1, "{table}");
        assert!(table.contains(&format!("srcsim: k: {note}")), "{table}");
        let back: Report = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(back, r);
        let csv = r.to_csv().unwrap();
        let rows: Vec<&str> = csv.lines().collect();
        assert!(rows[0].ends_with("dram_bytes,note,reason"), "{csv}");
        assert!(rows[1].contains(",256,timed as compiled"), "{csv}");
        assert!(rows[3].ends_with(",256,,"), "{csv}");
    }

    #[test]
    fn a_repeated_launch_takes_its_measured_launchs_outcome_once_settled() {
        let mut r = Report::new("gtx480", 700.0);
        let reason = |s: &str| Outcome::NotSimulated { reason: s.into() };
        assert_eq!(r.launched(launch(0, "k", None)), 0);
        assert_eq!(r.launched(launch(0, "j", None)), 1);
        assert_eq!(r.repeated(launch(0, "k", None), 0), 2);
        assert_eq!(r.repeated(launch(0, "j", None), 1), 3);
        assert_eq!(r.repeated(launch(0, "k", None), 0), 4);
        // Estimates come in after the repeats were taken.
        r.estimated(0, reason("zero"), None);
        let profile = LaunchProfile {
            program: 0,
            blocks: Vec::new(),
        };
        r.estimated(1, reason("one"), Some(profile.clone()));
        r.settle_repeats();
        let outcomes: Vec<&Outcome> = r.launches.iter().map(|l| &l.outcome).collect();
        let (zero, one) = (reason("zero"), reason("one"));
        assert_eq!(outcomes, [&zero, &one, &zero, &one, &zero]);
        assert_eq!(r.launches[3].profile, Some(profile));
        assert_eq!(r.launches[4].profile, None);
        let indices: Vec<usize> = r.launches.iter().map(|l| l.index).collect();
        assert_eq!(indices, [0, 1, 2, 3, 4]);
        let measured: Vec<usize> = (0..6).map(|i| r.measured_as(i)).collect();
        assert_eq!(measured, [0, 1, 0, 1, 0, 5]);
    }

    /// A report is written in the view its file's extension names, and read back from
    /// JSON whatever the extension it had.
    #[test]
    fn a_report_file_is_written_in_the_view_its_extension_names() {
        let mut r = Report::new("gtx480", 700.0);
        r.launches.push(launch(0, "k", None));
        let dir = std::env::temp_dir().join(format!("srcsim-views-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, expected) in [
            ("r.csv", r.to_csv().unwrap()),
            ("r.txt", r.table()),
            ("r.json", serde_json::to_string_pretty(&r).unwrap()),
            ("r.out", serde_json::to_string_pretty(&r).unwrap()),
        ] {
            let path = dir.join(name);
            r.write(&path).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), expected, "{name}");
        }
        assert_eq!(Report::read(&dir.join("r.out")).unwrap(), r);
        // Every view's extensions are its own.
        let mut seen: Vec<&str> = views::VIEWS
            .iter()
            .flat_map(|v| v.extensions().iter().copied())
            .collect();
        let n = seen.len();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), n);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_report_without_profile_reads_and_has_no_line_profile() {
        let mut r = Report::new("gtx480", 700.0);
        r.launches.push(launch(0, "k", None));
        let json = serde_json::to_string(&r).unwrap();
        assert!(!json.contains("profile"));
        let back: Report = serde_json::from_str(&json).unwrap();
        assert_eq!(back, r);
        assert!(!back.has_profile());
        assert!(back.line_profiles().is_empty());
        assert!(!back.table().contains("line profile"));
    }

    #[test]
    fn many_launches_hold_the_source_text_once() {
        let mut r = Report::new("gtx480", 700.0);
        for scale in 1..=100 {
            push_loop_launch(&mut r, scale);
        }
        let json = serde_json::to_string_pretty(&r).unwrap();
        assert_eq!(json.matches("acc += k;").count(), 1, "{json}");
        assert_eq!(json.matches("\"column\"").count(), 4, "block places once");
        assert_eq!(json.matches("\"executions\"").count(), 400);
        let back = Report::parse(&json, Path::new("run.json")).unwrap();
        assert_eq!(back, r);
        // The same written the old way (the text in each of the 100 launches) reads back
        // as this report (all in one program, kernel k's) and gives the same lines.
        let old = as_version_1(&r);
        assert_eq!(old.matches("acc += k;").count(), 100);
        let upgraded = Report::parse(&old, Path::new("old.json")).unwrap();
        assert_eq!(upgraded.schema, REPORT_SCHEMA);
        assert_eq!(upgraded, r);
        assert_eq!(upgraded.line_profiles(), r.line_profiles());
    }

    #[test]
    fn an_old_report_gets_a_program_per_kernel_and_the_same_lines() {
        // Two kernels of one program, a helper's block in both, launches interleaved.
        let mut r = Report::new("gtx480", 700.0);
        push_loop_launch(&mut r, 1);
        let (mut places, text, _) = loop_profile(1);
        let helper = SourceBlock {
            function: "helper".into(),
            block: 0,
            lines: vec![9],
            line: 9,
            column: 3,
        };
        places.push(helper);
        let mut text = text;
        text.insert(9, "  return x * x;".into());
        let program = r.add_program(&places, &text);
        assert_eq!(program, 1, "other blocks: another program");
        for (index, scale) in [(1, 3), (2, 5)] {
            let (_, _, mut blocks) = loop_profile(scale);
            blocks.push(BlockCounts {
                index: 4,
                totals: BlockTotals {
                    executions: scale,
                    cycles: 7 * scale,
                    instructions: scale,
                    lines: by_line(&[(9, 7.0, 1.0)], scale),
                },
            });
            r.launches.push(launch(
                index,
                if index == 1 { "two" } else { "k" },
                Some(LaunchProfile { program, blocks }),
            ));
        }
        let upgraded = Report::parse(&as_version_1(&r), Path::new("old.json")).unwrap();
        // Per kernel one program: k's (its blocks and the helper's), two's.
        let kernels: Vec<(usize, usize)> = upgraded
            .programs
            .iter()
            .map(|p| (p.blocks.len(), p.source_lines.len()))
            .collect();
        assert_eq!(kernels, vec![(5, 5), (5, 5)]);
        assert_eq!(upgraded.line_profiles(), r.line_profiles());
        assert_eq!(upgraded.table(), r.table());
        let helper_line = &r.line_profiles()[0].lines;
        assert!(helper_line
            .iter()
            .any(|l| l.line == 9 && l.cycles == 35 && l.source == "  return x * x;"));
    }

    #[test]
    fn a_report_of_another_schema_or_broken_references_is_named() {
        let err = |text: &str| {
            Report::parse(text, Path::new("r.json"))
                .unwrap_err()
                .to_string()
        };
        let e = err(r#"{"schema": "srcsim.baseline/1", "entries": []}"#);
        assert!(
            e.starts_with("r.json: schema is \"srcsim.baseline/1\""),
            "{e}"
        );
        assert!(e.contains("srcsim.report/2"), "{e}");
        let e = err(r#"{"arch": "gtx480", "launches": []}"#);
        assert!(e.contains("r.json: no \"schema\""), "{e}");
        // Line and column of a malformed report.
        let e = err("{\n  \"schema\": \"srcsim.report/2\",\n  \"arch\": 3\n}");
        assert!(
            e.contains("r.json: not an srcsim report") && e.contains("line 3"),
            "{e}"
        );

        let mut r = Report::new("gtx480", 700.0);
        push_loop_launch(&mut r, 1);
        r.launches[0].profile.as_mut().unwrap().program = 4;
        let e = err(&serde_json::to_string(&r).unwrap());
        assert!(
            e.contains("launch 0 (k): its profile names program 4, but the report has 1"),
            "{e}"
        );
        r.launches[0].profile.as_mut().unwrap().program = 0;
        r.launches[0].profile.as_mut().unwrap().blocks[1].index = 9;
        let e = err(&serde_json::to_string(&r).unwrap());
        assert!(
            e.contains("its profile names block 9 of program 0, which has 4 block(s)"),
            "{e}"
        );
        r.launches[0].profile.as_mut().unwrap().blocks[1].index = 1;
        r.programs[0].id = 2;
        let e = err(&serde_json::to_string(&r).unwrap());
        assert!(e.contains("programs[0] has id 2, expected 0"), "{e}");
    }
}
