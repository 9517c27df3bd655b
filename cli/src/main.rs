//! `srcsim`: the command-line front of srcsim. The binary is thin: it parses flags, calls
//! the library crates and renders their results; it owns the exit-code policy.

mod analyze;
mod annotate;
mod build_args;
mod gate;
mod run;
mod show_report;
mod sweep_cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Source-level timing simulation of OpenCL kernels on GPUs you do not have.
#[derive(Parser)]
#[command(name = "srcsim", version = version(), about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the best-case timing of every PTX basic block of every kernel in a file.
    Analyze(analyze::AnalyzeArgs),
    /// Write the best-case timing of every PTX block back into an OpenCL C file, with its
    /// sidecar (the same as the `annotate` command).
    Annotate(annotate::Args),
    /// Run an OpenCL host program under the shim and report every kernel launch's
    /// estimated time (the same as LD_PRELOAD=libsrcsim.so PROGRAM).
    Run(run::RunArgs),
    /// Run a host program under the shim and compare each kernel's estimated cycles per
    /// launch with a baseline: exit 0 if none got slower, 1 if any did (or vanished, or is
    /// no longer simulated), 2 on errors. --update records the run as the baseline.
    Check(gate::CheckArgs),
    /// Show a saved report (srcsim run --report FILE.json): the per-kernel table, or with
    /// --lines the line profile of a run with --profile.
    Report(show_report::ReportArgs),
    /// Run a host program once and estimate its kernels on many variants of an
    /// architecture (--set KEY=VALUES, one or more): a table, a long CSV (--report) and a
    /// plot (--plot). Points that change only what the model reads share one run; points
    /// that change the annotation (latencies, units, front end) take a run each.
    Sweep(sweep_cmd::SweepArgs),
    /// Build a program from source and keep its binaries (the shim starts this after a
    /// first run's builds; `srcsim::keeper`).
    #[command(hide = true)]
    KeepBinaries {
        /// The job's file.
        job: std::path::PathBuf,
        /// Start the keeper as a process of its own and return at once (the shim waits
        /// for this one, so that the keeper is no child of the application's).
        #[arg(long)]
        detach: bool,
    },
}

/// `--version`: the package's version and the revisions that decide a run's cycles.
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(srcsim_report::version)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args).map(|()| 0),
        // Its errors and warnings are `annotate`'s, as the command on its own gives them.
        Command::Annotate(args) => return annotate::exit(&args),
        Command::Run(args) => run::run(&args),
        // 1 means "slower"; anything that kept check from judging is 2.
        Command::Check(args) => gate::check(&args).or_else(|e| {
            eprintln!("srcsim check: error: {}", gate::message(&e));
            Ok(2)
        }),
        Command::Report(args) => show_report::run(&args).map(|()| 0),
        Command::Sweep(args) => sweep_cmd::run(&args),
        Command::KeepBinaries { job, detach } => if detach {
            srcsim::keeper::detach(&job)
        } else {
            srcsim::keeper::keep(&job)
        }
        .map(|()| 0)
        .map_err(anyhow::Error::msg),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // Our errors name file, line and cause in their own message; the chain would repeat it.
            eprintln!("srcsim: error: {e}");
            ExitCode::FAILURE
        }
    }
}
