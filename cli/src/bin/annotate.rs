//! `annotate`: the annotator's command on its own, installed beside `srcsim` (the same
//! as `srcsim annotate`). It holds the same modules as the `srcsim` binary, so that the
//! command's flags and output are one text.

use std::process::ExitCode;

use clap::Parser;

#[path = "../annotate.rs"]
mod annotate;
#[path = "../build_args.rs"]
mod build_args;

fn main() -> ExitCode {
    annotate::exit(&annotate::Args::parse())
}
