//! The `srcsim check` command, the CI gate: runs the host under the shim, compares each
//! kernel's cycles per launch with a baseline (`srcsim_report::baseline`: baselines and
//! verdicts), prints the verdicts and decides the exit code; `--update` records the run as
//! the baseline.

use std::path::{Path, PathBuf};
use std::process::ExitStatus;

use anyhow::{bail, Context, Result};
use clap::Args;
use pipeline_model::Architecture;
use srcsim_report::baseline::{compare, observe, Baseline, Observed};
use srcsim_report::Report;

use crate::run;

#[derive(Args)]
pub struct CheckArgs {
    /// The baseline: JSON (schema srcsim.baseline/2; /1 still reads) written by --update.
    #[arg(long, value_name = "FILE")]
    baseline: PathBuf,
    /// The slowdown in cycles per launch, in percent, that still passes (and the speed-up
    /// that is still reported as within tolerance rather than faster).
    #[arg(long, value_name = "PCT", default_value_t = 0.0, value_parser = tolerance, allow_negative_numbers = true)]
    tolerance: f64,
    /// Write this run as the baseline instead of failing on differences.
    #[arg(long)]
    update: bool,
    /// Also write the run as one HTML page, led by its comparison with the baseline
    /// (slower and faster configurations marked).
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    #[command(flatten)]
    shim: run::ShimArgs,
}

fn tolerance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(t) if t.is_finite() && t >= 0.0 => Ok(t),
        _ => Err("a percentage: a number, 0 or more".to_string()),
    }
}

/// How a program that did not succeed ended.
fn failure(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => format!("exited with code {c}"),
        (None, Some(s)) => format!("was killed by signal {s}"),
        (None, None) => format!("failed ({status})"),
    }
}

/// Runs the program under the shim, table off, and returns its report.
fn simulate(args: &run::ShimArgs) -> Result<Report> {
    let dir = tempfile::Builder::new()
        .prefix("srcsim-check-")
        .tempdir()
        .context("creating a temporary directory for the report")?;
    let path = dir.path().join("report.json");
    let status = run::run_program(args, Some(&path), &[(srcsim::config::env::TABLE, "0")])?;
    let program = Path::new(&args.program[0]).display();
    if !status.success() {
        bail!(
            "{program} {}; nothing compared or recorded",
            failure(status)
        );
    }
    if !path.exists() {
        bail!(
            "{program} left no report: it made no OpenCL call, or libsrcsim.so was not loaded{}",
            if args.preload {
                " (a host that dlopens libOpenCL needs the layer: drop --preload)"
            } else {
                " (an ICD loader without layers, ocl-icd before 2.3, needs --preload)"
            }
        );
    }
    Ok(Report::read(&path)?)
}

/// Launches that the baseline could not record, named for the user.
fn unrecorded(observed: &[Observed]) -> Vec<String> {
    observed
        .iter()
        .flat_map(|o| {
            o.not_simulated.iter().map(|(reason, n)| {
                format!(
                    "{} at {}: {n} launch(es) not simulated, not recorded: {reason}",
                    o.kernel, o.configuration
                )
            })
        })
        .collect()
}

/// The error and its causes, each cause left out where the message already holds it (our
/// errors quote their source).
pub fn message(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&cause);
        }
    }
    text
}

pub fn check(args: &CheckArgs) -> Result<u8> {
    let arch = Architecture::load(&args.shim.arch)
        .with_context(|| format!("--arch {}", args.shim.arch))?
        .name;
    let at = args.baseline.display();
    if !args.update && !args.baseline.exists() {
        bail!(
            "{at}: no such file; record the baseline first: srcsim check --update --baseline {at} -- PROGRAM ..."
        );
    }
    // Read (and judge) the baseline before running anything: a bad one is an error
    // whatever the run gives. With --update an unusable old one is only replaced.
    let old = match Baseline::read(&args.baseline) {
        Ok(b) if b.arch == arch => Some(b),
        Ok(b) if !args.update => bail!(
            "{at}: the baseline is for {}, this run simulates {arch}: pass --arch {} or record a baseline for {arch} with --update",
            b.arch,
            b.arch
        ),
        Ok(_) => None,
        Err(e) if !args.update => return Err(e.into()),
        Err(_) => None,
    };
    let report = simulate(&args.shim)?;
    if report.arch != arch {
        bail!("the report is for {}, not {arch}", report.arch);
    }
    let observed = observe(&report);
    let comparison = old.as_ref().map(|b| compare(b, &observed, args.tolerance));
    if let Some(path) = &args.html {
        let page = comparison
            .as_ref()
            .map_or_else(|| report.html(), |c| report.html_compared(c));
        std::fs::write(path, page).with_context(|| format!("writing {}", path.display()))?;
    }
    if let (Some(old), Some(comparison)) = (&old, &comparison) {
        print!("{}", comparison.table());
        if old.model != report.model {
            println!(
                "srcsim check: note: the baseline was made by {}, this run by {}: differences may come from the simulator, not the program; review them, then record the baseline again with --update",
                old.model.as_deref().unwrap_or("an srcsim that did not record its model"),
                report.model.as_deref().unwrap_or("an srcsim that did not say")
            );
        }
        if !args.update {
            println!("srcsim check: {} against {at}", comparison.summary());
            return Ok(if comparison.fails() { 1 } else { 0 });
        }
    }
    let new = Baseline::from_observed(&arch, report.model.as_deref(), &observed);
    new.write(&args.baseline)?;
    for line in unrecorded(&observed) {
        println!("srcsim check: {line}");
    }
    println!(
        "srcsim check: wrote {at}: {} configuration(s) of {} launch(es) on {arch}",
        new.entries.len(),
        new.entries.iter().map(|e| e.launches).sum::<usize>()
    );
    Ok(0)
}
