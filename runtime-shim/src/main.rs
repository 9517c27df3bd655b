//! `srcsim`: the command-line front of srcsim. The binary is thin: it parses flags, calls
//! the library crates and renders their results; it owns the exit-code policy.

mod analyze;
mod run;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Source-level timing simulation of OpenCL kernels on GPUs you do not have.
#[derive(Parser)]
#[command(name = "srcsim", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the best-case timing of every PTX basic block of every kernel in a file.
    Analyze(analyze::AnalyzeArgs),
    /// Run an OpenCL host program under the shim and report every kernel launch's
    /// estimated time (the same as LD_PRELOAD=libsrcsim.so PROGRAM).
    Run(run::RunArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args).map(|()| 0),
        Command::Run(args) => run::run(&args),
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
