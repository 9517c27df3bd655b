//! `srcsim`: the command-line front of srcsim. The binary is thin: it parses flags, calls
//! the library crates and renders their results; it owns the exit-code policy.

mod analyze;

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Analyze(args) => analyze::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // Our errors name file, line and cause in their own message; the chain would repeat it.
            eprintln!("srcsim: error: {e}");
            ExitCode::FAILURE
        }
    }
}
