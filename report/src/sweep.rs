//! Design-space sweeps from one run (`srcsim sweep`): the files by which the command asks
//! the shim to estimate every launch under more architectures than the one it runs with,
//! and what the shim answers. The shim models each launch's records once per point (the
//! same `pipeline_model` calls as for its own architecture) and writes one report per
//! point; the command turns the reports into a table, a CSV and a plot
//! (`srcsim sweep --help`).
//!
//! `SRCSIM_SWEEP=FILE` names a [`Manifest`] (JSON). At exit the shim writes the
//! [`Status`] to `status`: per point, and for its own architecture, the per-kernel totals
//! ([`PointKernel`]); with `reports`, also each point's full report first (the run's report
//! with that point's outcomes, schema `srcsim.report/2`, no profiles).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// What `SRCSIM_SWEEP` names: the architectures to estimate every launch under besides
/// `SRCSIM_ARCH`, and where to write what came of each.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// The points, each an architecture file and the report to write for it.
    pub points: Vec<ManifestPoint>,
    /// Where the shim writes its [`Status`] once every point's report is written.
    pub status: PathBuf,
    /// Whether to write every point's full report (else only the status's totals).
    #[serde(default)]
    pub reports: bool,
}

/// One point of a [`Manifest`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ManifestPoint {
    /// An architecture TOML file whose annotation view is `SRCSIM_ARCH`'s (only the
    /// model's fields differ: `pipeline_model::Architecture::annotation_view`).
    pub arch: PathBuf,
    /// The report to write (JSON), if the manifest asks for `reports`.
    pub report: PathBuf,
}

/// What the shim says of a sweep run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Status {
    /// Points whose report was written.
    pub points: usize,
    /// Whether the host was told the simulated GPU's limits (compute units, work-group
    /// sizes, local memory) because the CPU stood in for a GPU it asked for: then a point
    /// that changes them may make the program launch other work, and needs its own run.
    pub host_saw_simulated_limits: bool,
    /// Per kernel and the total ([`kernels`]) under the run's own architecture.
    pub own: Vec<PointKernel>,
    /// The same for every point of the manifest, in its order.
    pub results: Vec<Vec<PointKernel>>,
}

/// Why a sweep file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum SweepFileError {
    /// Reading or writing it.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not the JSON expected.
    #[error("{path}: {source}")]
    Json {
        /// The file.
        path: String,
        /// The parser's message.
        source: serde_json::Error,
    },
}

/// Reads a JSON sweep file ([`Manifest`] or [`Status`]).
pub fn read<T: for<'de> Deserialize<'de>>(path: &Path) -> Result<T, SweepFileError> {
    let text = std::fs::read_to_string(path).map_err(|source| SweepFileError::Io {
        path: path.display().to_string(),
        source,
    })?;
    serde_json::from_str(&text).map_err(|source| SweepFileError::Json {
        path: path.display().to_string(),
        source,
    })
}

/// Writes a JSON sweep file ([`Manifest`] or [`Status`]).
pub fn write<T: Serialize>(path: &Path, value: &T) -> Result<(), SweepFileError> {
    let text = serde_json::to_string_pretty(value).map_err(|source| SweepFileError::Json {
        path: path.display().to_string(),
        source,
    })?;
    std::fs::write(path, text).map_err(|source| SweepFileError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// One swept parameter: a dotted key of the architecture file and its values, as given
/// (`--set KEY=V1,V2,...` or `--set KEY=A..B:STEP`).
#[derive(Debug, Clone, PartialEq)]
pub struct Parameter {
    /// The dotted key, e.g. `sm_count` or `memory.dram_gb_per_s`.
    pub key: String,
    /// Its values, in TOML syntax, in the order given.
    pub values: Vec<String>,
}

/// Why a `--set` could not be read.
#[derive(Debug, thiserror::Error)]
#[error("--set {spec}: {message}")]
pub struct ParameterError {
    /// What was given.
    pub spec: String,
    /// What is wrong with it.
    pub message: String,
}

impl Parameter {
    /// Reads `KEY=V1,V2,...` or `KEY=A..B[:STEP]` (numbers; `B` included when the steps
    /// reach it; STEP 1 when left out).
    pub fn parse(spec: &str) -> Result<Self, ParameterError> {
        let fail = |message: &str| ParameterError {
            spec: spec.to_string(),
            message: message.to_string(),
        };
        let (key, values) = spec
            .split_once('=')
            .ok_or_else(|| fail("expected KEY=V1,V2,... or KEY=A..B:STEP"))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(fail("no key before `=`"));
        }
        let values = if let Some((a, rest)) = values.split_once("..") {
            let (b, step) = rest.split_once(':').unwrap_or((rest, "1"));
            range(a.trim(), b.trim(), step.trim()).map_err(|m| fail(&m))?
        } else {
            values.split(',').map(|v| v.trim().to_string()).collect()
        };
        if values.iter().any(String::is_empty) {
            return Err(fail("an empty value"));
        }
        Ok(Parameter {
            key: key.to_string(),
            values,
        })
    }
}

/// The values `a, a + step, ...` up to `b`: integers when all three are, else numbers.
fn range(a: &str, b: &str, step: &str) -> Result<Vec<String>, String> {
    const MAX: usize = 100_000;
    if let (Ok(a), Ok(b), Ok(step)) = (a.parse::<i64>(), b.parse::<i64>(), step.parse::<i64>()) {
        if step <= 0 || b < a {
            return Err("a range needs A <= B and a positive STEP".to_string());
        }
        let n = ((b - a) / step + 1) as usize;
        if n > MAX {
            return Err(format!("{n} values; at most {MAX}"));
        }
        return Ok((0..n as i64).map(|i| (a + i * step).to_string()).collect());
    }
    let num = |s: &str| {
        s.parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .ok_or_else(|| format!("`{s}` is not a number"))
    };
    let (a, b, step) = (num(a)?, num(b)?, num(step)?);
    if step <= 0.0 || b < a {
        return Err("a range needs A <= B and a positive STEP".to_string());
    }
    // A little slack so that 0.1 steps reach B despite rounding.
    let n = ((b - a) / step + 1e-9).floor() as usize + 1;
    if n > MAX {
        return Err(format!("{n} values; at most {MAX}"));
    }
    Ok((0..n)
        .map(|i| {
            let v = a + i as f64 * step;
            // Floating-point TOML: always with a point.
            let text = format!("{:.6}", v);
            let text = text.trim_end_matches('0');
            format!("{text}{}", if text.ends_with('.') { "0" } else { "" })
        })
        .collect())
}

/// Every combination of the parameters' values, the first parameter varying slowest.
pub fn grid(parameters: &[Parameter]) -> Vec<Vec<String>> {
    parameters.iter().fold(vec![Vec::new()], |points, p| {
        points
            .iter()
            .flat_map(|point| {
                p.values.iter().map(move |v| {
                    let mut point = point.clone();
                    point.push(v.clone());
                    point
                })
            })
            .collect()
    })
}

/// One kernel's (or, as `total`, the program's) estimate at one point of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointKernel {
    /// The kernel, or [`TOTAL`].
    pub kernel: String,
    /// Its simulated launches.
    pub launches: usize,
    /// Its launches not simulated at this point.
    pub not_simulated: usize,
    /// Cycles, summed over its simulated launches.
    pub cycles: u64,
    /// Microseconds at the point's clock, summed likewise.
    pub micros: f64,
    /// What bound its launches (the last's; for the total: the kernel of most time's).
    pub bound: String,
}

/// The kernel name of a point's program-wide row.
pub const TOTAL: &str = "total";

/// Per kernel (in order of first launch) and then [`TOTAL`]: what the launches, each a
/// kernel name and its estimate (none: not simulated), add up to.
pub fn kernels<'a>(
    launches: impl IntoIterator<Item = (&'a str, Option<&'a crate::Estimate>)>,
) -> Vec<PointKernel> {
    let mut rows: Vec<PointKernel> = Vec::new();
    for (kernel, estimate) in launches {
        let i = match rows.iter().position(|r| r.kernel == kernel) {
            Some(i) => i,
            None => {
                rows.push(PointKernel {
                    kernel: kernel.to_string(),
                    launches: 0,
                    not_simulated: 0,
                    cycles: 0,
                    micros: 0.0,
                    bound: String::new(),
                });
                rows.len() - 1
            }
        };
        let row = &mut rows[i];
        match estimate {
            Some(e) => {
                row.launches += 1;
                row.cycles += e.cycles;
                row.micros += e.micros;
                row.bound = e.bound.clone();
            }
            None => row.not_simulated += 1,
        }
    }
    let total = PointKernel {
        kernel: TOTAL.to_string(),
        launches: rows.iter().map(|r| r.launches).sum(),
        not_simulated: rows.iter().map(|r| r.not_simulated).sum(),
        cycles: rows.iter().map(|r| r.cycles).sum(),
        micros: rows.iter().fold(0.0, |m, r| m + r.micros),
        bound: rows
            .iter()
            .filter(|r| r.launches > 0)
            .max_by(|a, b| a.micros.total_cmp(&b.micros))
            .map(|r| r.bound.clone())
            .unwrap_or_default(),
    };
    rows.push(total);
    rows
}

/// One point of a sweep and what it gave.
#[derive(Debug, Clone, PartialEq)]
pub struct PointResult {
    /// 0 for the base architecture, then the grid's points in order.
    pub index: usize,
    /// The swept parameters' values at this point (the base's own values at point 0).
    pub values: Vec<String>,
    /// The point's architecture file (the base with these values set).
    pub arch: PathBuf,
    /// Which run of the program its records came from (1: the first).
    pub run: usize,
    /// Per kernel, then the total ([`kernels`]).
    pub kernels: Vec<PointKernel>,
}

impl PointResult {
    /// The program's row.
    pub fn total(&self) -> &PointKernel {
        self.kernels.last().expect("kernels() ends with the total")
    }
}

/// `base / point`: how many times faster the point is (1 where either is 0).
pub fn speedup(base: f64, point: f64) -> f64 {
    if base > 0.0 && point > 0.0 {
        base / point
    } else {
        1.0
    }
}

/// The sweep's CSV, long format: one row per point and kernel (and the total), with the
/// parameters' values, and the speed-up over the base point (point 0) of that kernel.
pub fn to_csv(parameters: &[Parameter], points: &[PointResult]) -> Result<String, csv::Error> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header = vec!["point".to_string()];
    header.extend(parameters.iter().map(|p| p.key.clone()));
    header.extend(
        [
            "kernel",
            "launches",
            "not_simulated",
            "cycles",
            "micros",
            "bound",
            "speedup",
            "run",
            "arch",
        ]
        .map(String::from),
    );
    w.write_record(&header)?;
    let base = points.first();
    for p in points {
        for k in &p.kernels {
            let base_micros = base
                .and_then(|b| b.kernels.iter().find(|b| b.kernel == k.kernel))
                .map_or(0.0, |b| b.micros);
            let mut row = vec![p.index.to_string()];
            row.extend(p.values.iter().cloned());
            row.extend([
                k.kernel.clone(),
                k.launches.to_string(),
                k.not_simulated.to_string(),
                k.cycles.to_string(),
                format!("{:.4}", k.micros),
                k.bound.clone(),
                format!("{:.4}", speedup(base_micros, k.micros)),
                p.run.to_string(),
                p.arch.display().to_string(),
            ]);
            w.write_record(&row)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| e.into_error())?;
    Ok(String::from_utf8(bytes).expect("CSV of UTF-8 fields is UTF-8"))
}

/// The table printed at the end: per point, the parameters, the program's total and its
/// speed-up over the base point, what bound it, and the run it came from.
pub fn table(parameters: &[Parameter], points: &[PointResult]) -> String {
    use comfy_table::{presets::UTF8_FULL_CONDENSED, Cell, CellAlignment, Table};
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED);
    let mut header = vec!["point".to_string()];
    header.extend(parameters.iter().map(|p| p.key.clone()));
    header.extend(["cycles", "µs total", "speed-up", "bound", "run"].map(String::from));
    t.set_header(header);
    let base = points.first().map_or(0.0, |b| b.total().micros);
    for p in points {
        let total = p.total();
        let mut row = vec![Cell::new(if p.index == 0 {
            "base".to_string()
        } else {
            p.index.to_string()
        })];
        row.extend(
            p.values
                .iter()
                .map(|v| Cell::new(v).set_alignment(CellAlignment::Right)),
        );
        row.extend([
            Cell::new(total.cycles).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:.2}", total.micros)).set_alignment(CellAlignment::Right),
            Cell::new(format!("{:.2}x", speedup(base, total.micros)))
                .set_alignment(CellAlignment::Right),
            Cell::new(&total.bound),
            Cell::new(p.run).set_alignment(CellAlignment::Right),
        ]);
        t.add_row(row);
    }
    format!("{t}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_lists_and_ranges() {
        let p = Parameter::parse("sm_count=1,2, 4").unwrap();
        assert_eq!(
            (p.key.as_str(), p.values),
            ("sm_count", vec!["1".into(), "2".into(), "4".into()])
        );
        let p = Parameter::parse("sm_count=1..10:4").unwrap();
        assert_eq!(p.values, ["1", "5", "9"]);
        assert_eq!(
            Parameter::parse("sm_count=1..132").unwrap().values.len(),
            132
        );
        let p = Parameter::parse("memory.dram_gb_per_s=500..1000:250.0").unwrap();
        assert_eq!(p.values, ["500.0", "750.0", "1000.0"]);
        let p = Parameter::parse("clock_mhz=0.5..0.8:0.1").unwrap();
        assert_eq!(p.values, ["0.5", "0.6", "0.7", "0.8"]);
        for bad in [
            "sm_count",
            "=3",
            "sm_count=5..1",
            "sm_count=1..5:0",
            "x=1,,2",
            "x=a..b",
        ] {
            let e = Parameter::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with(&format!("--set {bad}:")), "{e}");
        }
    }

    #[test]
    fn the_grid_varies_the_last_parameter_fastest() {
        let a = Parameter::parse("a=1,2").unwrap();
        let b = Parameter::parse("b=x,y,z").unwrap();
        let g = grid(&[a, b]);
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], ["1", "x"]);
        assert_eq!(g[1], ["1", "y"]);
        assert_eq!(g[3], ["2", "x"]);
        assert_eq!(grid(&[]), vec![Vec::<String>::new()]);
    }
}
