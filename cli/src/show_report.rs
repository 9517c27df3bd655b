//! `srcsim report REPORT.json`: renders a saved report, as the per-kernel table the shim
//! prints at exit, (`--lines`) as the line profile of a run with `--profile`, or
//! (`--html`) as one HTML page.

use std::path::PathBuf;

use anyhow::{bail, Result};
use clap::Args;
use serde::Serialize;
use srcsim_report::{lines_table, KernelLines, KernelSummary, Report};

#[derive(Args)]
pub struct ReportArgs {
    /// Per source line: executions, cycles and their share of the kernel's, hottest first
    /// (needs a report of `srcsim run --profile`).
    #[arg(long)]
    lines: bool,
    /// Print JSON instead of tables.
    #[arg(long)]
    json: bool,
    /// Print the report as one self-contained HTML page (a timeline of the launches, the
    /// kernels' table and, for a run with `--profile`, the source's heat map); the same as
    /// `srcsim run --report FILE.html`.
    #[arg(long, conflicts_with_all = ["json", "lines", "top"])]
    html: bool,
    /// Only this kernel.
    #[arg(long, value_name = "NAME")]
    kernel: Option<String>,
    /// With --lines: only the N hottest lines of each kernel.
    #[arg(long, value_name = "N")]
    top: Option<usize>,
    /// The JSON report (`srcsim run --report FILE.json`, or SRCSIM_REPORT).
    report: PathBuf,
}

/// `--json` without `--lines`.
#[derive(Serialize)]
struct KernelsJson<'a> {
    schema: &'a str,
    arch: &'a str,
    clock_mhz: f64,
    kernels: Vec<KernelSummary>,
}

/// `--json --lines`.
#[derive(Serialize)]
struct LinesJson<'a> {
    schema: &'a str,
    arch: &'a str,
    kernels: Vec<KernelLines>,
}

pub fn run(args: &ReportArgs) -> Result<()> {
    let report = Report::read(&args.report)?;
    let path = args.report.display();
    let wanted = |k: &str| args.kernel.as_deref().is_none_or(|w| w == k);
    if let Some(k) = &args.kernel {
        if !report.launches.iter().any(|l| *l.kernel == **k) {
            let mut known: Vec<&str> = report.launches.iter().map(|l| &*l.kernel).collect();
            known.sort_unstable();
            known.dedup();
            bail!(
                "{path}: no launch of kernel `{k}` (kernels: {})",
                known.join(", ")
            );
        }
    }
    if args.html {
        let mut shown = report.clone();
        shown.launches.retain(|l| wanted(&l.kernel));
        print!("{}", shown.html());
        return Ok(());
    }
    if !args.lines {
        if args.json {
            let kernels = report
                .summaries()
                .into_iter()
                .filter(|s| wanted(&s.kernel))
                .collect();
            let out = KernelsJson {
                schema: &report.schema,
                arch: &report.arch,
                clock_mhz: report.clock_mhz,
                kernels,
            };
            println!("{}", serde_json::to_string_pretty(&out)?);
        } else {
            let mut shown = report.clone();
            shown.launches.retain(|l| wanted(&l.kernel));
            print!("{}", shown.table());
        }
        return Ok(());
    }
    if !report.has_profile() {
        bail!(
            "{path} has no line profile: rerun the program with `srcsim run --profile --report {path} -- ...` (or SRCSIM_PROFILE=1)"
        );
    }
    let mut kernels: Vec<KernelLines> = report
        .line_profiles()
        .into_iter()
        .filter(|k| wanted(&k.kernel))
        .collect();
    if kernels.is_empty() {
        bail!(
            "{path}: kernel `{}` has no profiled launch (none was simulated)",
            args.kernel.as_deref().unwrap_or_default()
        );
    }
    if args.json {
        if let Some(n) = args.top {
            for k in &mut kernels {
                k.lines.truncate(n);
            }
        }
        let out = LinesJson {
            schema: &report.schema,
            arch: &report.arch,
            kernels,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        for k in &kernels {
            print!("{}", lines_table(k, args.top));
        }
    }
    Ok(())
}
