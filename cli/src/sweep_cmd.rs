//! `srcsim sweep`: one program, many architectures. The base architecture with each
//! combination of the `--set` values is a point; every point's description is written as a
//! TOML file (so that `srcsim run --arch FILE` reproduces it). Points whose descriptions
//! differ only in fields the model alone reads (`Architecture::annotation_view`) are
//! estimated from one run's records, the shim modelling every launch once per point; each
//! other annotation takes a run of its own. The results: a table, a long CSV and an SVG.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pipeline_model::Architecture;
use srcsim::config::env;
use srcsim_report::sweep::{
    self, Manifest, ManifestPoint, Parameter, PointKernel, PointResult, Status,
};

use crate::run::{run_program, ShimArgs};

#[derive(Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub shim: ShimArgs,
    /// A parameter and its values: a dotted key of the architecture file and a list
    /// (`sm_count=33,66,132`) or a range (`memory.dram_gb_per_s=500..3500:500`, STEP 1 if
    /// left out). Repeat for a grid; one or two draw a plot, more give a CSV only.
    #[arg(long = "set", value_name = "KEY=VALUES", required = true)]
    pub set: Vec<String>,
    /// Write the long CSV (point, parameter values, kernel, cycles, micros, bound,
    /// speed-up, run, arch file) here; the points' architecture files and reports go to
    /// the directory of the same name with `.points` in place of `.csv`.
    #[arg(long, value_name = "FILE.csv")]
    pub report: Option<PathBuf>,
    /// Draw an SVG: the time against the value for one parameter, the speed-up over the
    /// base architecture as a heat map for two.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<PathBuf>,
    /// Write one HTML page: the plot (for one or two parameters) and every point's
    /// values, time, speed-up and bound, sortable.
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<PathBuf>,
    /// Also write every point's full report (pNNN.json, as `srcsim run --report` gives)
    /// beside its architecture file; without it only the totals come back, which is cheaper
    /// for programs of many launches.
    #[arg(long)]
    pub point_reports: bool,
}

/// One point: its values, its architecture and where its files go.
struct Point {
    values: Vec<String>,
    arch: Architecture,
    toml: PathBuf,
    report: PathBuf,
}

pub fn run(args: &SweepArgs) -> Result<u8> {
    if args.shim.profile {
        bail!("--profile is not available in a sweep (run the point of interest with `srcsim run --profile --arch FILE`)");
    }
    let base = Architecture::load(&args.shim.arch)
        .with_context(|| format!("--arch {}", args.shim.arch))?;
    let parameters = args
        .set
        .iter()
        .map(|s| Parameter::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    if args.plot.is_some() && parameters.len() > 2 {
        bail!(
            "--plot draws one or two parameters; {} were given (the CSV has them all)",
            parameters.len()
        );
    }
    for (i, p) in parameters.iter().enumerate() {
        if parameters[..i].iter().any(|q| q.key == p.key) {
            bail!("--set {}: given twice", p.key);
        }
    }
    // Where the points' files go: beside the CSV, else for this run only.
    let temporary;
    let dir = match &args.report {
        Some(r) => r.with_extension("points"),
        None => {
            temporary = tempfile::tempdir().context("creating a directory for the points")?;
            temporary.path().to_path_buf()
        }
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let points = points(&base, &parameters, &dir)?;
    let evaluated = evaluate(args, &points, &dir)?;
    let runs: Vec<usize> = evaluated.iter().map(|(run, _)| *run).collect();
    let results: Vec<PointResult> = points
        .iter()
        .zip(evaluated)
        .enumerate()
        .map(|(index, (p, (run, kernels)))| PointResult {
            index,
            values: p.values.clone(),
            arch: p.toml.clone(),
            run,
            kernels,
        })
        .collect();
    print!("{}", sweep::table(&parameters, &results));
    let total_runs = runs.iter().max().copied().unwrap_or(0);
    println!(
        "srcsim sweep: {} points from {total_runs} run(s) of the program on {}: points that differ only in what the model alone reads (SM count, clock, bandwidths, occupancy limits, launch cost) share one run's records; other fields change the annotation and take a run each",
        points.len(),
        base.name
    );
    if let Some(path) = &args.report {
        let csv = sweep::to_csv(&parameters, &results)?;
        std::fs::write(path, csv).with_context(|| format!("writing {}", path.display()))?;
        println!(
            "srcsim sweep: wrote {} (architecture files and reports in {})",
            path.display(),
            dir.display()
        );
    }
    if args.plot.is_some() || args.html.is_some() {
        let program = args
            .shim
            .program
            .first()
            .map(|p| {
                Path::new(p)
                    .file_name()
                    .unwrap_or(p.as_ref())
                    .to_string_lossy()
                    .to_string()
            })
            .unwrap_or_default();
        let svg = match parameters.len() {
            1 => Some(srcsim_report::plot::line_plot(
                &parameters[0],
                &results,
                &format!(
                    "{program} on {}: estimated time by {}",
                    base.name, parameters[0].key
                ),
            )),
            2 => Some(srcsim_report::plot::heat_map(
                &parameters,
                &results,
                &format!(
                    "{program}: speed-up over {} ({:.1} µs)",
                    base.name,
                    results[0].total().micros
                ),
            )),
            _ => None,
        };
        if let (Some(path), Some(svg)) = (&args.plot, &svg) {
            std::fs::write(path, svg).with_context(|| format!("writing {}", path.display()))?;
            println!("srcsim sweep: drew {}", path.display());
        }
        if let Some(path) = &args.html {
            let title = format!("{program} on {}", base.name);
            let page =
                srcsim_report::views::sweep_page(&title, &parameters, &results, svg.as_deref());
            std::fs::write(path, page).with_context(|| format!("writing {}", path.display()))?;
            println!("srcsim sweep: wrote {}", path.display());
        }
    }
    Ok(0)
}

/// The base (point 0, with its own values) and every combination of the values, each
/// written as an architecture file in `dir`.
fn points(base: &Architecture, parameters: &[Parameter], dir: &Path) -> Result<Vec<Point>> {
    let grid = sweep::grid(parameters);
    let width = grid.len().to_string().len().max(3);
    let base_values = parameters
        .iter()
        .map(|p| base.setting(&p.key).unwrap_or_else(|| "-".to_string()))
        .collect();
    std::iter::once((base_values, None))
        .chain(grid.into_iter().map(|v| (v, Some(()))))
        .enumerate()
        .map(|(i, (values, set))| {
            let mut arch = base.clone();
            if set.is_some() {
                let named: Vec<String> = parameters
                    .iter()
                    .zip(&values)
                    .map(|(p, v)| format!("{}={v}", p.key))
                    .collect();
                for (p, v) in parameters.iter().zip(&values) {
                    arch = arch.with_setting(&p.key, v, &named.join(", "))?;
                }
                arch.description = format!(
                    "{} (sweep point {i}: {})",
                    base.description,
                    named.join(", ")
                );
            }
            let toml = dir.join(format!("p{i:0width$}.toml"));
            std::fs::write(&toml, arch.to_toml())
                .with_context(|| format!("writing {}", toml.display()))?;
            Ok(Point {
                values,
                arch,
                toml,
                report: dir.join(format!("p{i:0width$}.json")),
            })
        })
        .collect()
}

/// Runs the program as often as the points' annotations (and, when the host sizes its
/// work by the simulated GPU's limits, those limits) differ, each run estimating all of
/// its points; per point, the run (from 1) it came from and its totals.
fn evaluate(
    args: &SweepArgs,
    points: &[Point],
    dir: &Path,
) -> Result<Vec<(usize, Vec<PointKernel>)>> {
    let mut run_of = vec![(0usize, Vec::new()); points.len()];
    // Groups still to run: the points, and whether the host's view of the GPU must match.
    let mut queue: Vec<(Vec<usize>, bool)> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for (i, p) in points.iter().enumerate() {
        let key = p.arch.annotation_view().to_toml();
        match keys.iter().position(|k| *k == key) {
            Some(g) => queue[g].0.push(i),
            None => {
                keys.push(key);
                queue.push((vec![i], false));
            }
        }
    }
    queue.reverse();
    let progress = Progress::new(points.len());
    let mut runs = 0;
    while let Some((group, by_host)) = queue.pop() {
        let rep = group[0];
        let (same, other): (Vec<usize>, Vec<usize>) = group.iter().partition(|&&i| {
            !by_host || points[i].arch.host_view() == points[rep].arch.host_view()
        });
        runs += 1;
        progress.running(runs, same.len());
        let status = run_group(args, points, &same, dir, runs)?;
        progress.done(same.len());
        if status.results.len() + 1 != same.len() {
            bail!(
                "run {runs} of the sweep: the shim estimated {} of {} points",
                status.results.len() + 1,
                same.len()
            );
        }
        let mut results = std::iter::once(status.own.clone()).chain(status.results.clone());
        for &i in &same {
            run_of[i] = (runs, results.next().unwrap_or_default());
        }
        if !other.is_empty() {
            queue.push((other, true));
        }
        if status.host_saw_simulated_limits && !by_host {
            // The host sized its work by the GPU it was told of: points that tell it
            // otherwise need their own runs.
            let rest: Vec<usize> = same
                .iter()
                .copied()
                .filter(|&i| points[i].arch.host_view() != points[rep].arch.host_view())
                .collect();
            if !rest.is_empty() {
                queue.push((rest, true));
            }
        }
    }
    Ok(run_of)
}

/// The points estimated so far, drawn on stderr where it is a terminal (and nowhere
/// else: a sweep in CI or piped prints only its results).
struct Progress(ProgressBar);

impl Progress {
    fn new(points: usize) -> Self {
        let bar = ProgressBar::new(points as u64);
        if let Ok(style) =
            ProgressStyle::with_template("srcsim sweep: [{bar:30}] {pos}/{len} points, {msg}")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(bar)
    }

    /// Run `run` of the program starts, for `points` points.
    fn running(&self, run: usize, points: usize) {
        self.0
            .set_message(format!("run {run} of the program ({points} points)"));
        self.0.tick();
    }

    /// Its `points` are estimated.
    fn done(&self, points: usize) {
        self.0.inc(points as u64);
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.0.finish_and_clear();
    }
}

/// One run of the program under the first of `group`, estimating the rest from its records.
fn run_group(
    args: &SweepArgs,
    points: &[Point],
    group: &[usize],
    dir: &Path,
    run: usize,
) -> Result<Status> {
    let rep = &points[group[0]];
    let manifest_path = dir.join(format!("run{run}.json"));
    let status_path = dir.join(format!("run{run}.status.json"));
    let _ = std::fs::remove_file(&status_path);
    let manifest = Manifest {
        points: group[1..]
            .iter()
            .map(|&i| ManifestPoint {
                arch: points[i].toml.clone(),
                report: points[i].report.clone(),
            })
            .collect(),
        status: status_path.clone(),
        reports: args.point_reports,
    };
    sweep::write(&manifest_path, &manifest)?;
    let mut shim = args.shim.clone();
    shim.arch = rep.toml.display().to_string();
    let manifest_env = manifest_path.display().to_string();
    let status = run_program(
        &shim,
        args.point_reports.then_some(rep.report.as_path()),
        &[(env::SWEEP, &manifest_env), (env::TABLE, "0")],
    )?;
    if !status.success() {
        bail!("the program failed ({status}) in run {run} of the sweep");
    }
    sweep::read::<Status>(&status_path).with_context(|| {
        "the shim wrote no sweep status: did the program launch any kernel through OpenCL?"
    })
}
