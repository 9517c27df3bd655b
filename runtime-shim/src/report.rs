//! What a simulated run produced: one [`Launch`] per kernel launch, the per-kernel table
//! printed at exit, and the JSON and CSV forms (`SRCSIM_REPORT`). `srcsim run` and
//! `srcsim check` read the JSON back.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
use pipeline_model::{Bound, KernelEstimate};
use serde::{Deserialize, Serialize};

/// The version tag of the report's JSON schema.
pub const REPORT_SCHEMA: &str = "srcsim.report/1";

/// A whole run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Report {
    /// [`REPORT_SCHEMA`].
    pub schema: String,
    /// The architecture simulated.
    pub arch: String,
    /// Its clock, MHz.
    pub clock_mhz: f64,
    /// Every launch, in the order the application enqueued them.
    pub launches: Vec<Launch>,
}

/// One kernel launch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Launch {
    /// Its position among all launches of the run.
    pub index: usize,
    /// The kernel's name.
    pub kernel: String,
    /// 1, 2 or 3.
    pub work_dim: u32,
    /// Global size (ones beyond `work_dim`).
    pub global: [u64; 3],
    /// The work-group size the model used.
    pub local: [u64; 3],
    /// Whether the application left the local size to the runtime (then `local` is the
    /// shim's choice, see the README).
    pub local_chosen: bool,
    /// Global offset.
    pub offset: [u64; 3],
    /// The estimate, or why there is none.
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// What became of a launch.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum Outcome {
    /// The model's estimate.
    Simulated(Estimate),
    /// The launch ran unannotated.
    NotSimulated {
        /// Why.
        reason: String,
    },
}

/// The model's estimate of one launch, as reported.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Estimate {
    /// Estimated cycles.
    pub cycles: u64,
    /// Estimated microseconds at the architecture's clock.
    pub micros: f64,
    /// The latency term `t_opt`.
    pub latency_cycles: u64,
    /// `latency` or the saturated resource.
    pub bound: String,
    /// Work-groups resident per SM.
    pub work_groups_per_sm: u32,
    /// What limited them.
    pub occupancy_limiter: String,
    /// Work-groups in the launch.
    pub work_groups: u64,
    /// Warps in the launch.
    pub warps: u64,
}

impl From<&KernelEstimate> for Estimate {
    fn from(e: &KernelEstimate) -> Self {
        Estimate {
            cycles: e.cycles,
            micros: e.micros,
            latency_cycles: e.latency_cycles,
            bound: match &e.bound {
                Bound::Latency => "latency".to_string(),
                Bound::Resource { resource } => resource.clone(),
            },
            work_groups_per_sm: e.occupancy.work_groups_per_sm,
            occupancy_limiter: e.occupancy.limiter.describe().to_string(),
            work_groups: e.work_groups,
            warps: e.warps,
        }
    }
}

fn dims(v: [u64; 3], work_dim: u32) -> String {
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
#[derive(Debug, Clone, PartialEq)]
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

impl Report {
    /// An empty report for `arch`.
    pub fn new(arch: &str, clock_mhz: f64) -> Self {
        Report {
            schema: REPORT_SCHEMA.to_string(),
            arch: arch.to_string(),
            clock_mhz,
            launches: Vec::new(),
        }
    }

    /// Simulated launches grouped by kernel and configuration, in order of first launch.
    pub fn summaries(&self) -> Vec<KernelSummary> {
        let mut order: Vec<(String, String)> = Vec::new();
        let mut rows: BTreeMap<(String, String), KernelSummary> = BTreeMap::new();
        for l in &self.launches {
            let Some(e) = l.estimate() else { continue };
            let key = (l.kernel.clone(), l.configuration());
            let row = rows.entry(key.clone()).or_insert_with(|| {
                order.push(key);
                KernelSummary {
                    kernel: l.kernel.clone(),
                    configuration: l.configuration(),
                    launches: 0,
                    total_cycles: 0,
                    total_micros: 0.0,
                    bound: String::new(),
                    occupancy: String::new(),
                }
            });
            row.launches += 1;
            row.total_cycles += e.cycles;
            row.total_micros += e.micros;
            row.bound = e.bound.clone();
            row.occupancy = format!("{}/SM ({})", e.work_groups_per_sm, e.occupancy_limiter);
        }
        order.into_iter().filter_map(|k| rows.remove(&k)).collect()
    }

    /// Launches not simulated, grouped by kernel and reason, with their counts.
    pub fn unsimulated(&self) -> Vec<(String, String, usize)> {
        let mut out: Vec<(String, String, usize)> = Vec::new();
        for l in &self.launches {
            if let Outcome::NotSimulated { reason } = &l.outcome {
                match out
                    .iter_mut()
                    .find(|(k, r, _)| *k == l.kernel && r == reason)
                {
                    Some(row) => row.2 += 1,
                    None => out.push((l.kernel.clone(), reason.clone(), 1)),
                }
            }
        }
        out
    }

    /// The table printed at exit.
    pub fn table(&self) -> String {
        let mut t = Table::new();
        t.load_preset(UTF8_FULL_CONDENSED).set_header(vec![
            "kernel",
            "global / local",
            "launches",
            "cycles/launch",
            "µs total",
            "bound",
            "occupancy",
        ]);
        let summaries = self.summaries();
        for s in &summaries {
            t.add_row(vec![
                Cell::new(&s.kernel),
                Cell::new(&s.configuration),
                Cell::new(s.launches).set_alignment(CellAlignment::Right),
                Cell::new(s.total_cycles / s.launches as u64).set_alignment(CellAlignment::Right),
                Cell::new(format!("{:.2}", s.total_micros)).set_alignment(CellAlignment::Right),
                Cell::new(&s.bound),
                Cell::new(&s.occupancy),
            ]);
        }
        let launches: usize = summaries.iter().map(|s| s.launches).sum();
        let cycles: u64 = summaries.iter().map(|s| s.total_cycles).sum();
        let micros: f64 = summaries.iter().map(|s| s.total_micros).sum();
        t.add_row(vec![
            Cell::new("total"),
            Cell::new(""),
            Cell::new(launches).set_alignment(CellAlignment::Right),
            Cell::new(format!("{cycles} in all")).set_alignment(CellAlignment::Right),
            Cell::new(format!("{micros:.2}")).set_alignment(CellAlignment::Right),
            Cell::new(""),
            Cell::new(""),
        ]);
        let mut out = format!(
            "srcsim: estimated kernel times on {} ({} MHz); * = local size chosen by srcsim\n{t}\n",
            self.arch, self.clock_mhz
        );
        for (kernel, reason, n) in self.unsimulated() {
            let _ = writeln!(
                out,
                "srcsim: {kernel}: {n} launch(es) not simulated: {reason}"
            );
        }
        out
    }

    /// The CSV form: one row per launch.
    pub fn to_csv(&self) -> Result<String, csv::Error> {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record([
            "index",
            "kernel",
            "work_dim",
            "global",
            "local",
            "local_chosen",
            "offset",
            "status",
            "cycles",
            "micros",
            "latency_cycles",
            "bound",
            "work_groups_per_sm",
            "occupancy_limiter",
            "work_groups",
            "warps",
            "reason",
        ])?;
        for l in &self.launches {
            let mut row = vec![
                l.index.to_string(),
                l.kernel.clone(),
                l.work_dim.to_string(),
                dims(l.global, l.work_dim),
                dims(l.local, l.work_dim),
                l.local_chosen.to_string(),
                dims(l.offset, l.work_dim),
            ];
            match &l.outcome {
                Outcome::Simulated(e) => row.extend([
                    "simulated".to_string(),
                    e.cycles.to_string(),
                    format!("{:.4}", e.micros),
                    e.latency_cycles.to_string(),
                    e.bound.clone(),
                    e.work_groups_per_sm.to_string(),
                    e.occupancy_limiter.clone(),
                    e.work_groups.to_string(),
                    e.warps.to_string(),
                    String::new(),
                ]),
                Outcome::NotSimulated { reason } => {
                    row.push("not_simulated".to_string());
                    row.extend(std::iter::repeat_n(String::new(), 8));
                    row.push(reason.clone());
                }
            }
            w.write_record(&row)?;
        }
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
    }

    /// Writes the report to `path`: CSV if it ends in `.csv`, JSON otherwise.
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        let text = if path.extension().is_some_and(|e| e == "csv") {
            self.to_csv().map_err(std::io::Error::other)?
        } else {
            serde_json::to_string_pretty(self).map_err(std::io::Error::other)?
        };
        std::fs::write(path, text)
    }

    /// Reads a JSON report.
    pub fn read(path: &Path) -> Result<Self, ReportError> {
        let at = || path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|source| ReportError::Io { path: at(), source })?;
        serde_json::from_str(&text).map_err(|source| ReportError::Format { path: at(), source })
    }
}

/// A report that could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// Reading failed.
    #[error("reading report {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Not a report.
    #[error("{path}: not an srcsim report: {source}")]
    Format {
        /// The file.
        path: String,
        /// The error.
        source: serde_json::Error,
    },
}
