//! `annotate kernel.cl -o kernel.timed.cl` (or `srcsim annotate`): writes the
//! timing-annotated kernel file and its sidecar (`kernel.timed.json`); `--explain` shows
//! how PTX blocks map to source blocks and where the time of the unmapped ones goes.
//!
//! Both binaries hold this module: `srcsim` as its subcommand, `annotate` (`bin/annotate.rs`)
//! alone, as it is installed.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use annotator::annotate::{annotate_file_with, AnnotateOptions, Annotation};
use annotator::front::compile::Compiler;
use annotator::mapping::paths::{From, To};
use anyhow::{Context, Result};
use clap::Parser;

use crate::build_args::BuildArgs;

/// Writes the best-case timing of every PTX block back into an OpenCL C file.
#[derive(Parser)]
#[command(name = "annotate", version = version())]
pub(crate) struct Args {
    #[command(flatten)]
    build: BuildArgs,
    /// The annotated file to write (its sidecar goes beside it, as .json).
    #[arg(short = 'o', long = "output", required_unless_present = "explain")]
    output: Option<PathBuf>,
    /// Explain the block mapping instead of (or besides, with -o) writing files.
    #[arg(long)]
    explain: bool,
    /// Also count, per source block, executions, cycles and PTX instructions in each
    /// work-item's record (the sidecar's `records.profile` says where).
    #[arg(long)]
    profile: bool,
}

/// `--version`: the package's version and the annotation's revision, which decides what
/// an annotated file charges (and keys the cache).
fn version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| {
        format!(
            "{} (annotation {})",
            env!("CARGO_PKG_VERSION"),
            annotator::cache::ANNOTATION_REVISION
        )
    })
}

/// Runs the command; its errors are `annotate`'s own, under either binary.
pub(crate) fn exit(args: &Args) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("annotate: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<()> {
    let arch = args.build.architecture()?;
    let compiler = Compiler::locate()?;
    let a = annotate_file_with(
        &compiler,
        &args.build.file,
        &args.build.build_options(),
        &arch,
        AnnotateOptions {
            profile: args.profile,
        },
    )?;
    if let Some(note) = &a.sidecar.timed_with_less_optimisation {
        eprintln!("annotate: warning: {note}");
    }
    if let Some(note) = &a.sidecar.timed_without_unrolling {
        eprintln!("annotate: warning: {note}");
    }
    for r in &a.sidecar.refused {
        eprintln!(
            "annotate: warning: kernel `{}` is left out of the annotated file: {}",
            r.name, r.reason
        );
    }
    if let Some(out) = &args.output {
        std::fs::write(out, &a.source)
            .with_context(|| format!("cannot write {}", out.display()))?;
        let sidecar = out.with_extension("json");
        std::fs::write(&sidecar, serde_json::to_string_pretty(&a.sidecar)?)
            .with_context(|| format!("cannot write {}", sidecar.display()))?;
    }
    if args.explain {
        print!("{}", explain(&a));
    }
    Ok(())
}

fn explain(a: &Annotation) -> String {
    let mut out = String::new();
    for k in a.sidecar.kernels.iter().chain(&a.sidecar.called_functions) {
        let blocks = &k.block_map.blocks;
        let mapped = blocks.iter().filter(|b| b.source.is_some()).count();
        let _ = writeln!(
            out,
            "{} {}: {} PTX blocks, {mapped} mapped to source blocks",
            if a.sidecar.kernels.iter().any(|x| x.name == k.name) {
                "kernel"
            } else {
                "called function"
            },
            k.name,
            blocks.len()
        );
        for b in blocks {
            let homeless = match (b.homeless, b.source.is_some()) {
                (0, _) => String::new(),
                (n, true) => format!(", {n} without a source position, timed with the block"),
                (n, false) => format!(", {n} without a source position"),
            };
            match &b.source {
                Some(s) => {
                    let _ = writeln!(
                        out,
                        "  B{:<3} -> {} S{} ({:.0}% of its positioned instructions{homeless}; {})",
                        b.ptx_block,
                        s.function,
                        s.block,
                        b.confidence * 100.0,
                        b.reason
                    );
                }
                None => {
                    let carried: Vec<String> = k
                        .paths
                        .paths
                        .iter()
                        .filter(|p| {
                            p.blocks.contains(&b.ptx_block) && p.to != To::Block(b.ptx_block)
                        })
                        .map(|p| {
                            let from = match p.from {
                                From::Start => "start".to_string(),
                                From::Block(x) => format!("B{x}"),
                            };
                            let to = match p.to {
                                To::Block(x) => format!("B{x}"),
                                To::Exit => "exit".to_string(),
                            };
                            format!("{from}->{to}")
                        })
                        .collect();
                    let _ = writeln!(
                        out,
                        "  B{:<3} unmapped ({}{homeless}); its time is charged on the paths {}",
                        b.ptx_block,
                        b.reason,
                        if carried.is_empty() {
                            "(none: not reached between timing points)".to_string()
                        } else {
                            carried.join(", ")
                        }
                    );
                }
            }
        }
        for u in k.unrolled.iter().filter_map(|u| u.shape.map(|s| (u, s))) {
            let (u, shape) = u;
            let _ = writeln!(
                out,
                "  loop body {} S{} unrolled: B{} holds {} copies{}; its executions are counted and charged when the loop is left",
                u.source.function,
                u.source.block,
                shape.main,
                shape.factor,
                shape.remainder.map_or(String::new(), |r| {
                    let in_loop = a
                        .sidecar
                        .analysis
                        .kernels
                        .iter()
                        .chain(&a.sidecar.analysis.functions)
                        .filter(|f| f.name == k.name)
                        .any(|f| f.loops.iter().any(|l| l.body.contains(&r.index())));
                    if in_loop {
                        format!(", B{r} is the remainder loop")
                    } else {
                        format!(", B{r} the remainder (one iteration at most)")
                    }
                })
            );
        }
        for u in &k.unrolled {
            let Some(c) = &u.copies else { continue };
            let copies: Vec<String> = c
                .shapes
                .iter()
                .map(|s| match s.remainder {
                    Some(r) => format!("B{} ({} copies) + B{r}", s.main, s.factor),
                    None => format!("B{} ({} copies)", s.main, s.factor),
                })
                .collect();
            let _ = writeln!(
                out,
                "  loop body {} S{} copied: the compiler unrolled the {} loop(s) around it completely, leaving {} copies of the loop, in order {}; the entries of the loop are counted at S{} (reset at S{}) and each pass is charged on its copy",
                u.source.function,
                u.source.block,
                c.unrolled_levels,
                c.shapes.len(),
                copies.join(", "),
                c.enter,
                c.reset
            );
        }
        for h in &k.paths.uncounted_loops {
            let _ = writeln!(
                out,
                "  warning: the PTX loop at B{h} has no block with a source home; its iterations are not counted"
            );
        }
    }
    out
}
