//! `srcsim-validate predict`: the CPU side of `scripts/gpu-validate`.
//!
//! For every kernel of a validation suite (`validation/suite.toml`) it compiles the kernel
//! file to PTX for the architecture's target with srcsim's own compile path (the PTX the
//! GPU side loads), annotates it, runs the annotated kernel on PoCL for every launch of the
//! sweep with the suite's arguments, and turns the counter records into the model's
//! estimate. It writes `ptx/<file>.ptx` and `predictions.csv` into the output folder.

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::path::{Path, PathBuf};

use annotator::annotate::{annotate_file, Annotation};
use annotator::compile::{BuildOptions, Compiler};
use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use kernel_runner::{from_bytes, record_args, run_kernel, KernelArg, NdRange};
use pipeline_model::sampling::{timing_records, SampledLaunch};
use pipeline_model::{
    estimate, Architecture, Bound, Grain, KernelResources, LaunchGeometry, Records,
};
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
    /// Names the kernel's cases (`ID#i`) in place of `name`, where two entries run kernels
    /// of the same name (from different files).
    #[serde(default)]
    id: Option<String>,
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
    /// A `__local` pointer parameter: a local buffer of `len` elements.
    Local {
        #[serde(rename = "type")]
        elem: ElemType,
        len: Value,
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

impl ElemType {
    fn name(self) -> &'static str {
        match self {
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
            ElemType::I32 => "i32",
            ElemType::U32 => "u32",
        }
    }

    fn size(self) -> usize {
        match self {
            ElemType::F64 => 8,
            _ => 4,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, ElemType::F32 | ElemType::F64)
    }
}

/// How a buffer is filled: `zero`, `iota` (element i is i), `const:V`, `rand:SEED`
/// (floats uniform in [0, 1), integers in [0, 2^31)), `randint:SEED:M` (integers in
/// [0, M)) or `csr:SEED:DEG` (the row offsets of a random CSR graph of LEN-1 rows, each
/// with 0..2*DEG entries). Parameters may name launch variables. The random fills use
/// splitmix64, as the GPGPU-Sim host (validation/gpgpusim/host.cc) does.
#[derive(Debug, Clone, Deserialize)]
#[serde(try_from = "String")]
struct Fill {
    kind: FillKind,
    params: Vec<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FillKind {
    Zero,
    Iota,
    Const,
    Rand,
    RandInt,
    Csr,
}

impl TryFrom<String> for Fill {
    type Error = String;

    fn try_from(text: String) -> std::result::Result<Self, String> {
        let mut parts = text.split(':');
        let (kind, arity) = match parts.next().unwrap_or_default() {
            "zero" => (FillKind::Zero, 0),
            "iota" => (FillKind::Iota, 0),
            "const" => (FillKind::Const, 1),
            "rand" => (FillKind::Rand, 1),
            "randint" => (FillKind::RandInt, 2),
            "csr" => (FillKind::Csr, 2),
            other => {
                return Err(format!(
                    "unknown fill `{other}` (zero, iota, const:V, rand:SEED, randint:SEED:M, csr:SEED:DEG)"
                ))
            }
        };
        let params: Vec<Value> = parts
            .map(|p| {
                if let Ok(i) = p.parse::<i64>() {
                    Value::Int(i)
                } else if let Ok(f) = p.parse::<f64>() {
                    Value::Float(f)
                } else {
                    Value::Var(p.to_string())
                }
            })
            .collect();
        if params.len() != arity {
            return Err(format!("fill `{text}` needs {arity} parameters"));
        }
        Ok(Fill { kind, params })
    }
}

/// splitmix64, the generator of the random fills (the same in host.cc).
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
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
    global: Dims,
    local: Dims,
    #[serde(default)]
    vars: BTreeMap<String, i64>,
}

/// A size: one number (1D) or an array of 1 to 3 (`[x, y]`, `[x, y, z]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(untagged)]
enum Dims {
    One(u64),
    Many(Vec<u64>),
}

impl Dims {
    fn list(&self) -> Vec<u64> {
        match self {
            Dims::One(n) => vec![*n],
            Dims::Many(v) => v.clone(),
        }
    }

    /// The three dimensions, 1 past the given ones.
    fn xyz(&self) -> [u64; 3] {
        let mut out = [1; 3];
        for (o, d) in out.iter_mut().zip(self.list()) {
            *o = d;
        }
        out
    }

    /// `N` in 1D, `XxY` or `XxYxZ` otherwise.
    fn label(&self) -> String {
        self.list()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("x")
    }
}

impl Launch {
    fn dims(&self) -> usize {
        self.global.list().len()
    }

    /// Work-items in the launch.
    fn work_items(&self) -> u64 {
        self.global.xyz().iter().product()
    }

    fn range(&self) -> NdRange {
        let g = self.global.xyz().map(|d| d as usize);
        let l = self.local.xyz().map(|d| d as usize);
        match self.dims() {
            1 => NdRange::d1(g[0]),
            2 => NdRange::d2([g[0], g[1]]),
            _ => NdRange::d3(g),
        }
        .with_local(l)
    }

    /// Work-groups per dimension, as GPGPU-Sim's grid (`XxYxZ`).
    fn grid_label(&self) -> String {
        let (g, l) = (self.global.xyz(), self.local.xyz());
        let grid: Vec<String> = (0..self.dims())
            .map(|d| (g[d] / l[d]).to_string())
            .collect();
        grid.join("x")
    }

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
            Value::Var(name) if name == "global" => self.work_items() as f64,
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

/// A fill's parameters, resolved and checked to be whole numbers where they must be.
fn fill_params(fill: &Fill, launch: &Launch) -> Result<Vec<f64>> {
    let params = fill
        .params
        .iter()
        .map(|p| launch.resolve(p))
        .collect::<Result<Vec<f64>>>()?;
    let whole = match fill.kind {
        FillKind::Const => &params[..0],
        _ => &params[..],
    };
    if whole.iter().any(|p| *p < 0.0 || p.fract() != 0.0) {
        bail!("fill parameters {params:?} must be whole numbers");
    }
    Ok(params)
}

/// The fill as host.cc reads it, its parameters resolved (`randint:7:1024`).
fn fill_label(fill: &Fill, launch: &Launch) -> Result<String> {
    let name = match fill.kind {
        FillKind::Zero => "zero",
        FillKind::Iota => "iota",
        FillKind::Const => "const",
        FillKind::Rand => "rand",
        FillKind::RandInt => "randint",
        FillKind::Csr => "csr",
    };
    let mut out = name.to_string();
    for p in fill_params(fill, launch)? {
        out.push(':');
        out.push_str(&p.to_string());
    }
    Ok(out)
}

fn buffer_bytes(elem: ElemType, len: usize, fill: &Fill, launch: &Launch) -> Result<Vec<u8>> {
    let params = fill_params(fill, launch)?;
    let values: Vec<f64> = match fill.kind {
        FillKind::Zero => vec![0.0; len],
        FillKind::Iota => (0..len).map(|i| i as f64).collect(),
        FillKind::Const => vec![params[0]; len],
        FillKind::Rand => {
            let mut r = SplitMix64(params[0] as u64);
            (0..len)
                .map(|_| {
                    let x = r.next();
                    match elem {
                        ElemType::F32 => (x >> 40) as f64 / 16_777_216.0,
                        ElemType::F64 => (x >> 11) as f64 / 9_007_199_254_740_992.0,
                        _ => (x >> 33) as f64,
                    }
                })
                .collect()
        }
        FillKind::RandInt => {
            let mut r = SplitMix64(params[0] as u64);
            let m = params[1] as u64;
            if m == 0 {
                bail!("randint: M must be positive");
            }
            (0..len).map(|_| (r.next() % m) as f64).collect()
        }
        FillKind::Csr => {
            if elem.is_float() {
                bail!("csr: needs an integer type");
            }
            let mut r = SplitMix64(params[0] as u64);
            let deg = params[1] as u64;
            let mut off = 0u64;
            (0..len)
                .map(|_| {
                    let o = off;
                    off += r.next() % (2 * deg + 1);
                    o as f64
                })
                .collect()
        }
    };
    Ok(values
        .into_iter()
        .flat_map(|v| scalar_bytes(elem, v))
        .collect())
}

/// The sum of a buffer's elements, as host.cc prints it.
fn checksum(elem: ElemType, bytes: &[u8]) -> f64 {
    bytes
        .chunks_exact(elem.size())
        .map(|c| match elem {
            ElemType::F32 => f32::from_ne_bytes(c.try_into().unwrap()) as f64,
            ElemType::F64 => f64::from_ne_bytes(c.try_into().unwrap()),
            ElemType::I32 => i32::from_ne_bytes(c.try_into().unwrap()) as f64,
            ElemType::U32 => u32::from_ne_bytes(c.try_into().unwrap()) as f64,
        })
        .sum()
}

/// A buffer or local length: a positive whole number.
fn length(launch: &Launch, len: &Value) -> Result<usize> {
    let len = launch.resolve(len)?;
    if len < 1.0 || len.fract() != 0.0 {
        bail!("buffer length {len} is not a positive whole number");
    }
    Ok(len as usize)
}

fn args_of(kernel: &SuiteKernel, launch: &Launch) -> Result<Vec<KernelArg>> {
    kernel
        .args
        .iter()
        .map(|spec| {
            let arg = match spec {
                ArgSpec::Buffer { elem, len, fill } => {
                    KernelArg::Buffer(buffer_bytes(*elem, length(launch, len)?, fill, launch)?)
                }
                ArgSpec::Scalar { elem, value } => {
                    KernelArg::Scalar(scalar_bytes(*elem, launch.resolve(value)?))
                }
                ArgSpec::Local { elem, len } => {
                    KernelArg::Local(length(launch, len)? * elem.size())
                }
            };
            Ok::<_, anyhow::Error>(arg)
        })
        .enumerate()
        .map(|(i, a)| a.with_context(|| format!("argument {i}")))
        .collect()
}

/// The arguments of a launch as host.cc takes them.
fn host_args_of(kernel: &SuiteKernel, launch: &Launch) -> Result<Vec<String>> {
    kernel
        .args
        .iter()
        .map(|spec| {
            let arg = match spec {
                ArgSpec::Buffer { elem, len, fill } => format!(
                    "buf:{}:{}:{}",
                    elem.name(),
                    length(launch, len)?,
                    fill_label(fill, launch)?
                ),
                ArgSpec::Scalar { elem, value } => {
                    let v = launch.resolve(value)?;
                    // The value the kernel gets, as scalar_bytes converts it.
                    let v = match elem {
                        ElemType::F32 => (v as f32) as f64,
                        ElemType::F64 => v,
                        ElemType::I32 => (v as i32) as f64,
                        ElemType::U32 => (v as u32) as f64,
                    };
                    format!("scalar:{}:{v:?}", elem.name())
                }
                ArgSpec::Local { elem, len } => {
                    format!("local:{}", length(launch, len)? * elem.size())
                }
            };
            Ok::<_, anyhow::Error>(arg)
        })
        .enumerate()
        .map(|(i, a)| a.with_context(|| format!("argument {i}")))
        .collect()
}

impl SuiteKernel {
    /// How its cases are named: `ID#i`.
    fn case_name(&self, i: usize) -> String {
        format!("{}#{i}", self.id.as_deref().unwrap_or(&self.name))
    }

    /// Its launches: all of the sweep, or its first (smallest) alone for `--quick`.
    fn launches(&self, quick: bool) -> &[Launch] {
        if quick {
            &self.sweep[..1]
        } else {
            &self.sweep
        }
    }
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
    ])?;
    let options = BuildOptions::default();
    let mut annotations: HashMap<PathBuf, Annotation> = HashMap::new();
    for kernel in &suite.kernel {
        let file = base.join(&kernel.file);
        let stem = kernel
            .file
            .file_stem()
            .and_then(|s| s.to_str())
            .context("kernel file name")?;
        let ptx_name = format!("{stem}.ptx");
        // One compile and annotation per file, however many of its kernels the suite runs.
        if !annotations.contains_key(&file) {
            // The PTX of the original kernel, as the GPU will run it.
            let ptx = compiler.compile(&file, &options, &arch.compile.ptx_target)?;
            annotator::ptx::parse(&ptx.ptx)
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
            let resources = launch_resources(analysis, own);
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
/// sums them: static `__local` variables and `__local` arguments; the kernel's buffers.
fn launch_resources(
    analysis: &annotator::analysis::FunctionAnalysis,
    own: &[KernelArg],
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
        global_memory_bytes: Some(
            own.iter()
                .map(|a| match a {
                    KernelArg::Buffer(bytes) => bytes.len() as u64,
                    _ => 0,
                })
                .sum(),
        ),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_matches_the_reference_sequence() {
        // splitmix64 from seed 0 (Vigna's reference implementation); host.cc is the same code.
        let mut r = SplitMix64(0);
        assert_eq!(r.next(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next(), 0x6E78_9E6A_A1B9_65F4);
    }

    fn launch(vars: &[(&str, i64)]) -> Launch {
        Launch {
            global: Dims::Many(vec![8, 4]),
            local: Dims::Many(vec![4, 2]),
            vars: vars.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn fills_resolve_launch_variables() {
        let l = launch(&[("n", 10)]);
        let fill = Fill::try_from("randint:7:n".to_string()).unwrap();
        assert_eq!(fill_label(&fill, &l).unwrap(), "randint:7:10");
        let bytes = buffer_bytes(ElemType::I32, 100, &fill, &l).unwrap();
        let v: Vec<i32> = from_bytes(&bytes).unwrap();
        assert!(v.iter().all(|x| (0..10).contains(x)));
        assert!(Fill::try_from("randint:7".to_string()).is_err());
        assert!(Fill::try_from("gauss:1".to_string()).is_err());
        assert_eq!(l.work_items(), 32);
        assert_eq!(l.grid_label(), "2x2");
        assert_eq!(l.global.label(), "8x4");
    }

    #[test]
    fn csr_offsets_start_at_zero_and_never_fall() {
        let l = launch(&[]);
        let fill = Fill::try_from("csr:3:4".to_string()).unwrap();
        let v: Vec<i32> =
            from_bytes(&buffer_bytes(ElemType::I32, 1001, &fill, &l).unwrap()).unwrap();
        assert_eq!(v[0], 0);
        assert!(v.windows(2).all(|w| (0..=8).contains(&(w[1] - w[0]))));
        // Mean degree 4.
        assert!((3500..4500).contains(&v[1000]), "{}", v[1000]);
    }
}
