//! `srcsim-validate predict`: the CPU side of `scripts/gpu-validate`.
//!
//! For every kernel of a validation suite (`validation/suite.toml`) it compiles the kernel
//! file to PTX for the architecture's target with srcsim's own compile path (the PTX the
//! GPU side loads), annotates it, runs the annotated kernel on PoCL for every launch of the
//! sweep with the suite's arguments, and turns the counter records into the model's
//! estimate. It writes `ptx/<file>.ptx` and `predictions.csv` into the output folder.
//!
//! The suite's schema is in `suite.rs`, the kernels' arguments and buffers built from it
//! in `args.rs`; this file reads and checks the suite, predicts and prints.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use annotator::annotate::{annotate_file, Annotation};
use annotator::front::compile::{BuildOptions, Compiler};
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use kernel_runner::{from_bytes, record_args, run_kernel, KernelArg};
use pipeline_model::arch::MemorySystem;
use pipeline_model::sampling::{timing_records, SampledLaunch};
use pipeline_model::{
    estimate, Architecture, Bound, Grain, KernelResources, LaunchGeometry, Records,
};

use crate::args::{args_of, checksum, host_args_of};
use crate::suite::{ArgSpec, Suite, SuiteKernel};

mod args;
mod suite;
#[cfg(test)]
mod tests;

#[derive(Parser)]
#[command(about = "The CPU side of scripts/gpu-validate")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile the suite's kernels to PTX and predict every launch of the sweep.
    Predict {
        /// The suite manifest.
        #[arg(long, default_value = "validation/suite.toml")]
        suite: PathBuf,
        /// Architecture name or TOML file.
        #[arg(long, default_value = "hopper_h100")]
        arch: String,
        /// Output folder (gets ptx/ and predictions.csv).
        #[arg(long)]
        out: PathBuf,
        /// Only the first launch of each kernel (a quick check of the whole path).
        #[arg(long)]
        quick: bool,
    },
    /// Print, per launch of the suite, how the GPGPU-Sim host (validation/gpgpusim/host.cc)
    /// runs it: one tab-separated line `case kernel file global local grid block args...`
    /// with every launch variable resolved (what scripts/gpgpusim-crosscheck runs).
    HostArgs {
        /// The suite manifest.
        #[arg(long, default_value = "validation/suite.toml")]
        suite: PathBuf,
        /// Only the first launch of each kernel.
        #[arg(long)]
        quick: bool,
    },
}

fn load_suite(path: &Path) -> Result<Suite> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let suite: Suite =
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e))?;
    for k in &suite.kernel {
        if k.sweep.is_empty() {
            bail!("{}: kernel {}: the sweep is empty", path.display(), k.name);
        }
        for (i, l) in k.sweep.iter().enumerate() {
            let (g, lo) = (l.global.list(), l.local.list());
            let fits = (1..=3).contains(&g.len())
                && g.len() == lo.len()
                && g.iter().zip(&lo).all(|(g, l)| *l > 0 && g % l == 0);
            if !fits {
                bail!(
                    "{}: kernel {}, launch {i}: local size {} does not divide global size {}",
                    path.display(),
                    k.name,
                    l.local.label(),
                    l.global.label()
                );
            }
            // Every argument resolves (launch variables, fill parameters).
            host_args_of(k, l)
                .with_context(|| format!("{}: kernel {}, launch {i}", path.display(), k.name))?;
        }
    }
    Ok(suite)
}

fn predict(suite_path: &Path, arch_name: &str, out: &Path, quick: bool) -> Result<()> {
    let suite = load_suite(suite_path)?;
    let arch = Architecture::load(arch_name)?;
    let resource_names = arch.resources();
    let compiler = Compiler::locate()?;
    let base = suite_path.parent().unwrap_or(Path::new("."));
    let ptx_dir = out.join("ptx");
    fs::create_dir_all(&ptx_dir).with_context(|| format!("creating {}", ptx_dir.display()))?;
    let mut csv = csv::Writer::from_path(out.join("predictions.csv"))?;
    csv.write_record([
        "case",
        "kernel",
        "class",
        "ptx",
        "global",
        "local",
        "vars",
        "arch",
        "predicted_cycles",
        "predicted_us",
        "latency_cycles",
        "bound",
        "work_groups_per_sm",
        "work_groups",
        "contention_cycles",
        "dram_bytes",
        "checksums",
        "queue_cycles",
        "icache_cycles",
    ])?;
    let options = BuildOptions::default();
    let mut annotations: HashMap<PathBuf, Annotation> = HashMap::new();
    for kernel in &suite.kernel {
        let file = base.join(&kernel.file);
        let ptx_name = ptx_name(&kernel.file)?;
        // One compile and annotation per file, however many of its kernels the suite runs.
        if !annotations.contains_key(&file) {
            // The PTX of the original kernel, as the GPU will run it.
            let ptx = compiler.compile(&file, &options, &arch.compile.ptx_target)?;
            annotator::front::ptx::parse(&ptx.ptx)
                .map_err(|e| anyhow::anyhow!("{}: PTX does not parse: {e}", file.display()))?;
            fs::write(ptx_dir.join(&ptx_name), &ptx.ptx)?;
            let annotation = annotate_file(&compiler, &file, &options, &arch)
                .with_context(|| format!("annotating {}", file.display()))?;
            annotations.insert(file.clone(), annotation);
        }
        let annotation = &annotations[&file];
        let analysis = annotation
            .sidecar
            .analysis
            .kernels
            .iter()
            .find(|k| k.name == kernel.name)
            .with_context(|| format!("{}: no kernel {}", file.display(), kernel.name))?;
        let arm_code = annotation
            .sidecar
            .kernels
            .iter()
            .find(|k| k.name == kernel.name)
            .with_context(|| format!("{}: kernel {} not annotated", file.display(), kernel.name))?
            .arm_code(analysis);
        for (i, launch) in kernel.launches(quick).iter().enumerate() {
            let case = kernel.case_name(i);
            let mut args = args_of(kernel, launch).with_context(|| case.clone())?;
            let records_arg = args.len();
            args.extend(
                record_args(
                    &annotation.sidecar,
                    &kernel.name,
                    &launch.range(),
                    Grain::WorkItem,
                )
                .args,
            );
            let output =
                run_kernel(&annotation.source, "", &kernel.name, &args, &launch.range())
                    .with_context(|| format!("{case}: running the annotated kernel on PoCL"))?;
            let buffers_before = args[..records_arg]
                .iter()
                .filter(|a| matches!(a, KernelArg::Buffer(_)))
                .count();
            let records: Vec<u64> = from_bytes(&output.buffers[buffers_before])?;
            let checksums = buffer_checksums(kernel, &output.buffers);
            let geometry = LaunchGeometry {
                global: launch.global.xyz(),
                local: launch.local.xyz(),
            };
            let own = &args[..records_arg];
            let resources = launch_resources(analysis, arm_code, own, &arch.memory);
            // The kernel's buffers, in parameter order, for its sampled accesses.
            let buffer_bytes = |param: u32| match own.get(param as usize) {
                Some(KernelArg::Buffer(bytes)) => Some(bytes.len() as u64),
                _ => None,
            };
            let layout = &annotation.sidecar.records;
            let sampled = SampledLaunch {
                arch: &arch,
                geometry: &geometry,
                resources: &resources,
                buffer_bytes: &buffer_bytes,
                usage_scale: layout.usage_scale,
            };
            let samples = layout.samples_of(&kernel.name);
            let (timing, _) = timing_records(&records, &layout.format, &samples, &sampled);
            let e = estimate(
                &arch,
                &geometry,
                &resources,
                &Records::per_work_item(&timing, layout.format.timing_only(), layout.usage_scale),
            )
            .with_context(|| case.clone())?;
            let bound = match &e.bound {
                Bound::Launch => "launch".to_string(),
                Bound::Latency => "latency".to_string(),
                Bound::Resource { resource } => resource.clone(),
            };
            let contention = resource_names
                .iter()
                .zip(&e.contention_cycles)
                .map(|(r, c)| format!("{r}={c:.1}"))
                .collect::<Vec<_>>()
                .join(";");
            eprintln!("{case}: {} cycles, {:.2} us ({bound})", e.cycles, e.micros);
            csv.write_record([
                case.as_str(),
                &kernel.name,
                kernel.class.name(),
                &ptx_name,
                &launch.global.label(),
                &launch.local.label(),
                &launch.vars_label(),
                &arch.name,
                &e.cycles.to_string(),
                &format!("{:.3}", e.micros),
                &e.latency_cycles.to_string(),
                &bound,
                &e.occupancy.work_groups_per_sm.to_string(),
                &e.work_groups.to_string(),
                &contention,
                &e.dram_bytes.map(|b| b.to_string()).unwrap_or_default(),
                &checksums,
                &e.queue_cycles.to_string(),
                &e.icache_cycles.to_string(),
            ])?;
            csv.flush()?;
        }
    }
    Ok(())
}

/// The sum of each of the kernel's own buffers after the run (host.cc's CHECKSUM), as
/// `b0=... b1=...`.
fn buffer_checksums(kernel: &SuiteKernel, buffers: &[Vec<u8>]) -> String {
    let buffer_types = kernel.args.iter().filter_map(|a| match a {
        ArgSpec::Buffer { elem, .. } => Some(*elem),
        _ => None,
    });
    buffer_types
        .zip(buffers)
        .enumerate()
        .map(|(b, (elem, bytes))| format!("b{b}={:.9e}", checksum(elem, bytes)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the model needs of a launch with the kernel's `own` arguments, summed as the shim
/// sums them: static `__local` variables and `__local` arguments; the kernel's buffers, and
/// what of them the L2 must hold for its reads; its code, and its divergent arms' (`arm_code`).
fn launch_resources(
    analysis: &annotator::analysis::blocks::FunctionAnalysis,
    arm_code: pipeline_model::ArmCode,
    own: &[KernelArg],
    memory: &MemorySystem,
) -> KernelResources {
    KernelResources {
        registers_per_work_item: analysis.registers,
        local_memory_bytes: analysis.shared_memory_bytes
            + own
                .iter()
                .map(|a| match a {
                    KernelArg::Local(bytes) => *bytes as u64,
                    _ => 0,
                })
                .sum::<u64>(),
        global_memory_bytes: Some(own.iter().map(buffer_bytes).sum()),
        // What the L2 must hold for the reads to hit: the buffers from the first one the
        // kernel reads on, as host.cc copies them in the arguments' order and the L2 keeps
        // the last copied (`-gpgpu_perf_sim_memcpy 1`).
        read_memory_bytes: analysis.read_params.as_ref().map(|read| {
            let first = read.first().map_or(own.len(), |&i| i as usize);
            own.iter().skip(first).map(buffer_bytes).sum()
        }),
        code_instructions: analysis.code_instructions(),
        arm_code,
        first_round_warp_bytes: analysis.first_round_warp_bytes(memory),
        frame_bytes: analysis.frame_bytes,
        l1_sharing: analysis.l1_sharing.clone(),
    }
}

/// The bytes of `arg`'s buffer (each buffer argument of the suite is a buffer of its
/// own), 0 for other arguments.
fn buffer_bytes(arg: &KernelArg) -> u64 {
    match arg {
        KernelArg::Buffer(bytes) => bytes.len() as u64,
        _ => 0,
    }
}

/// The PTX file's name for a kernel file of the suite: its path below the manifest with
/// `_` for `/` (a corpus holds several `scan.cl`), `kernels/compute.cl` -> `compute.ptx`.
fn ptx_name(file: &Path) -> Result<String> {
    let rel = file
        .strip_prefix("kernels")
        .unwrap_or(file)
        .with_extension("ptx");
    let parts: Vec<&str> = rel
        .components()
        .map(|c| c.as_os_str().to_str())
        .collect::<Option<_>>()
        .with_context(|| format!("kernel file name {}", file.display()))?;
    Ok(parts.join("_"))
}

/// `srcsim-validate host-args`: one line per launch for the GPGPU-Sim host.
fn host_args(suite_path: &Path, quick: bool) -> Result<()> {
    let suite = load_suite(suite_path)?;
    let base = suite_path.parent().unwrap_or(Path::new("."));
    for kernel in &suite.kernel {
        for (i, launch) in kernel.launches(quick).iter().enumerate() {
            let case = kernel.case_name(i);
            let args = host_args_of(kernel, launch).with_context(|| case.clone())?;
            let block: Vec<String> = launch.local.list().iter().map(u64::to_string).collect();
            println!(
                "{case}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                kernel.name,
                base.join(&kernel.file).display(),
                launch.global.label(),
                launch.local.label(),
                launch.grid_label(),
                block.join("x"),
                args.join("\t")
            );
        }
    }
    Ok(())
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Predict {
            suite,
            arch,
            out,
            quick,
        } => predict(&suite, &arch, &out, quick),
        Command::HostArgs { suite, quick } => host_args(&suite, quick),
    }
}
