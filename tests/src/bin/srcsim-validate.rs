//! `srcsim-validate predict`: the CPU side of `scripts/gpu-validate`.
//!
//! For every kernel of a validation suite (`validation/suite.toml`) it compiles the kernel
//! file to PTX for the architecture's target with srcsim's own compile path (the PTX the
//! GPU side loads), annotates it, runs the annotated kernel on PoCL for every launch of the
//! sweep with the suite's arguments, and turns the counter records into the model's
//! estimate. It writes `ptx/<file>.ptx` and `predictions.csv` into the output folder.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use annotator::annotate::annotate_file;
use annotator::compile::{BuildOptions, Compiler};
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use kernel_runner::{from_bytes, run_kernel, KernelArg, NdRange};
use pipeline_model::{estimate, Architecture, Bound, KernelResources, LaunchGeometry, Records};
use serde::Deserialize;

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
}

/// The suite manifest.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Suite {
    kernel: Vec<SuiteKernel>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SuiteKernel {
    name: String,
    /// Relative to the manifest.
    file: PathBuf,
    class: KernelClass,
    args: Vec<ArgSpec>,
    sweep: Vec<Launch>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum KernelClass {
    Compute,
    Memory,
}

impl KernelClass {
    fn name(self) -> &'static str {
        match self {
            KernelClass::Compute => "compute",
            KernelClass::Memory => "memory",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum ArgSpec {
    Buffer {
        #[serde(rename = "type")]
        elem: ElemType,
        len: Value,
        fill: Fill,
    },
    Scalar {
        #[serde(rename = "type")]
        elem: ElemType,
        value: Value,
    },
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum ElemType {
    F32,
    F64,
    I32,
    U32,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Fill {
    Zero,
    Iota,
}

/// A number, or the name of a launch variable (`global` or one of `vars`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Value {
    Int(i64),
    Float(f64),
    Var(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Launch {
    global: u64,
    local: u64,
    #[serde(default)]
    vars: BTreeMap<String, i64>,
}

impl Launch {
    /// `name=value` pairs, `;`-separated: how predictions and measurements name a launch.
    fn vars_label(&self) -> String {
        self.vars
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(";")
    }

    fn resolve(&self, value: &Value) -> Result<f64> {
        Ok(match value {
            Value::Int(i) => *i as f64,
            Value::Float(f) => *f,
            Value::Var(name) if name == "global" => self.global as f64,
            Value::Var(name) => match self.vars.get(name) {
                Some(v) => *v as f64,
                None => bail!("no launch variable `{name}` (vars: {})", self.vars_label()),
            },
        })
    }
}

fn scalar_bytes(elem: ElemType, v: f64) -> Vec<u8> {
    match elem {
        ElemType::F32 => (v as f32).to_ne_bytes().to_vec(),
        ElemType::F64 => v.to_ne_bytes().to_vec(),
        ElemType::I32 => (v as i32).to_ne_bytes().to_vec(),
        ElemType::U32 => (v as u32).to_ne_bytes().to_vec(),
    }
}

fn buffer_bytes(elem: ElemType, len: usize, fill: Fill) -> Vec<u8> {
    match fill {
        Fill::Zero => {
            let size = match elem {
                ElemType::F64 => 8,
                _ => 4,
            };
            vec![0; len * size]
        }
        Fill::Iota => (0..len)
            .flat_map(|i| scalar_bytes(elem, i as f64))
            .collect(),
    }
}

fn args_of(kernel: &SuiteKernel, launch: &Launch) -> Result<Vec<KernelArg>> {
    kernel
        .args
        .iter()
        .map(|spec| {
            let arg = match spec {
                ArgSpec::Buffer { elem, len, fill } => {
                    let len = launch.resolve(len)?;
                    if len < 1.0 || len.fract() != 0.0 {
                        bail!("buffer length {len} is not a positive whole number");
                    }
                    KernelArg::Buffer(buffer_bytes(*elem, len as usize, *fill))
                }
                ArgSpec::Scalar { elem, value } => {
                    KernelArg::Scalar(scalar_bytes(*elem, launch.resolve(value)?))
                }
            };
            Ok(arg)
        })
        .enumerate()
        .map(|(i, a)| a.with_context(|| format!("argument {i}")))
        .collect()
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
            if l.local == 0 || l.global % l.local != 0 {
                bail!(
                    "{}: kernel {}, launch {i}: local size {} does not divide global size {}",
                    path.display(),
                    k.name,
                    l.local,
                    l.global
                );
            }
        }
    }
    Ok(suite)
}

fn predict(suite_path: &Path, arch_name: &str, out: &Path, quick: bool) -> Result<()> {
    let suite = load_suite(suite_path)?;
    let arch = Architecture::load(arch_name)?;
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
    ])?;
    let options = BuildOptions::default();
    for kernel in &suite.kernel {
        let file = base.join(&kernel.file);
        let stem = kernel
            .file
            .file_stem()
            .and_then(|s| s.to_str())
            .context("kernel file name")?;
        let ptx_name = format!("{stem}.ptx");
        // The PTX of the original kernel, as the GPU will run it.
        let ptx = compiler.compile(&file, &options, &arch.compile.ptx_target)?;
        annotator::ptx::parse(&ptx.ptx)
            .map_err(|e| anyhow::anyhow!("{}: PTX does not parse: {e}", file.display()))?;
        fs::write(ptx_dir.join(&ptx_name), &ptx.ptx)?;
        let annotation = annotate_file(&compiler, &file, &options, &arch)
            .with_context(|| format!("annotating {}", file.display()))?;
        let analysis = annotation
            .sidecar
            .analysis
            .kernels
            .iter()
            .find(|k| k.name == kernel.name)
            .with_context(|| format!("{}: no kernel {}", file.display(), kernel.name))?;
        let stride = annotation.sidecar.records.stride;
        let launches = if quick {
            &kernel.sweep[..1]
        } else {
            &kernel.sweep[..]
        };
        for (i, launch) in launches.iter().enumerate() {
            let case = format!("{}#{i}", kernel.name);
            let mut args = args_of(kernel, launch).with_context(|| case.clone())?;
            let records_arg = args.len();
            args.push(KernelArg::zeroed::<u64>(launch.global as usize * stride));
            let range =
                NdRange::d1(launch.global as usize).with_local([launch.local as usize, 1, 1]);
            let output = run_kernel(&annotation.source, "", &kernel.name, &args, &range)
                .with_context(|| format!("{case}: running the annotated kernel on PoCL"))?;
            let buffers_before = args[..records_arg]
                .iter()
                .filter(|a| matches!(a, KernelArg::Buffer(_)))
                .count();
            let records: Vec<u64> = from_bytes(&output.buffers[buffers_before])?;
            let geometry = LaunchGeometry {
                global: [launch.global, 1, 1],
                local: [launch.local, 1, 1],
            };
            let resources = KernelResources {
                registers_per_work_item: analysis.registers,
                local_memory_bytes: analysis.shared_memory_bytes,
                // The kernel's own buffers, as the shim would sum them.
                global_memory_bytes: Some(
                    args[..records_arg]
                        .iter()
                        .map(|a| match a {
                            KernelArg::Buffer(bytes) => bytes.len() as u64,
                            _ => 0,
                        })
                        .sum(),
                ),
            };
            let e = estimate(
                &arch,
                &geometry,
                &resources,
                &Records {
                    data: &records,
                    resources: stride - 1,
                    usage_scale: annotation.sidecar.records.usage_scale,
                },
            )
            .with_context(|| case.clone())?;
            let bound = match &e.bound {
                Bound::Latency => "latency".to_string(),
                Bound::Resource { resource } => resource.clone(),
            };
            eprintln!("{case}: {} cycles, {:.2} us ({bound})", e.cycles, e.micros);
            csv.write_record([
                case.as_str(),
                &kernel.name,
                kernel.class.name(),
                &ptx_name,
                &launch.global.to_string(),
                &launch.local.to_string(),
                &launch.vars_label(),
                &arch.name,
                &e.cycles.to_string(),
                &format!("{:.3}", e.micros),
                &e.latency_cycles.to_string(),
                &bound,
                &e.occupancy.work_groups_per_sm.to_string(),
            ])?;
            csv.flush()?;
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
    }
}
