//! `srcsim run`: runs a host program with `libsrcsim.so` preloaded, settings passed
//! through the environment the shim reads, and exits as the program did.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use pipeline_model::Architecture;

use srcsim::config::env;

#[derive(Args, Clone)]
pub struct ShimArgs {
    /// Architecture: a bundled name (gtx480, ampere_a100, hopper_h100) or a TOML file.
    #[arg(long, default_value = pipeline_model::arch::DEFAULT_ARCH, env = env::ARCH)]
    pub arch: String,
    /// How much the shim says: off, warn, info or debug.
    #[arg(long, default_value = "warn", env = env::LOG)]
    pub log: String,
    /// Inject with LD_PRELOAD instead of as an OpenCL layer (OPENCL_LAYERS): for ICD
    /// loaders without layer support (ocl-icd before 2.3). Preloading reaches only hosts
    /// that link libOpenCL, not those that dlopen it.
    #[arg(long)]
    pub preload: bool,
    /// Also count executions and cycles per source line (sets SRCSIM_PROFILE=1); see
    /// `srcsim report --lines`.
    #[arg(long)]
    pub profile: bool,
    /// The host program and its arguments.
    #[arg(required = true, last = true, value_name = "PROGRAM")]
    pub program: Vec<OsString>,
}

#[derive(Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub shim: ShimArgs,
    /// Also write the per-launch report: CSV if the name ends in .csv, a page if in .html,
    /// the table if in .txt, else JSON.
    #[arg(long, value_name = "FILE", env = env::REPORT)]
    pub report: Option<PathBuf>,
    /// On a terminal, show the launches taken and estimated so far: `auto` once the run
    /// has lasted a second, `always` from its start, `never`. Nothing where stderr is not
    /// a terminal.
    #[arg(long, value_enum, default_value_t = ShowProgress::Auto)]
    pub progress: ShowProgress,
}

/// When `srcsim run` shows its progress.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ShowProgress {
    /// Once the run has lasted [`PROGRESS_AFTER`].
    Auto,
    /// From the start.
    Always,
    /// Never.
    Never,
}

/// `libsrcsim.so`: `SRCSIM_LIB`, else the newest of those beside this executable (a cargo
/// build), in `../lib` (an installation) and in `deps/` (where `cargo test` leaves it
/// without copying it beside the executable, so that the one there may be stale).
pub fn library() -> Result<PathBuf> {
    if let Some(p) = std::env::var_os(env::LIB) {
        let p = PathBuf::from(p);
        if !p.is_file() {
            bail!("SRCSIM_LIB={}: no such file", p.display());
        }
        return Ok(p);
    }
    let exe = std::env::current_exe().context("locating the srcsim executable")?;
    let dir = exe.parent().context("the executable has no directory")?;
    let candidates = [
        dir.join("libsrcsim.so"),
        dir.join("../lib/libsrcsim.so"),
        dir.join("deps/libsrcsim.so"),
    ];
    let modified = |p: &PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    candidates
        .iter()
        .filter_map(|p| Some((modified(p)?, p)))
        .max()
        .map(|(_, p)| p.clone())
        .with_context(|| {
        format!(
            "libsrcsim.so not found (tried {}); build it with `cargo build --release -p runtime-shim` and put target/release/libsrcsim.so in {} (after `cargo install --path cli`), install the Debian package (scripts/package), or set SRCSIM_LIB",
            candidates.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "),
            dir.join("../lib").display()
        )
    })
}

/// Runs `args.program` under the shim, the report going to `report` if given, with
/// `env` set on top (settings of the shim's that are not flags).
pub fn run_program(
    args: &ShimArgs,
    report: Option<&Path>,
    env: &[(&str, &str)],
) -> Result<ExitStatus> {
    let program = args.program.first().context("no program to run")?;
    program_command(args, report, env)?
        .status()
        .with_context(|| format!("running {}", PathBuf::from(program).display()))
}

/// The command that runs `args.program` under the shim, the report going to `report` if
/// given, with `env` set on top.
fn program_command(
    args: &ShimArgs,
    report: Option<&Path>,
    env: &[(&str, &str)],
) -> Result<Command> {
    // A bad architecture is the user's mistake: say so before running anything.
    Architecture::load(&args.arch).with_context(|| format!("--arch {}", args.arch))?;
    let lib = library()?;
    let (program, rest) = args.program.split_first().context("no program to run")?;
    let mut command = Command::new(program);
    // As a layer the shim reaches every host, whether it links the ICD loader or opens it
    // at run time, and its child processes too.
    let variable = if args.preload {
        "LD_PRELOAD"
    } else {
        "OPENCL_LAYERS"
    };
    let list = match std::env::var_os(variable).filter(|p| !p.is_empty()) {
        Some(old) => {
            let mut p = lib.clone().into_os_string();
            p.push(":");
            p.push(old);
            p
        }
        None => lib.clone().into_os_string(),
    };
    command
        .args(rest)
        .env(variable, list)
        .env(env::ARCH, &args.arch)
        .env(env::LOG, &args.log)
        .envs(env.iter().copied());
    // The shim keeps program binaries with this program (`srcsim::keeper`).
    if let Ok(me) = std::env::current_exe() {
        command.env(env::BIN, me);
    }
    if args.profile {
        command.env(env::PROFILE, "1");
    }
    match report {
        Some(r) => command.env(env::REPORT, r),
        None => command.env_remove(env::REPORT),
    };
    Ok(command)
}

/// The exit code to leave with: the program's, or 128 + the signal that ended it.
pub fn exit_code(status: ExitStatus) -> u8 {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(c), _) => c as u8,
        (None, Some(s)) => 128u8.wrapping_add(s as u8),
        (None, None) => 1,
    }
}

/// Says so where the program was killed by a signal: the shim writes its table and report
/// as the program exits, so a run that ends that way has neither (a host that crashes
/// inside the OpenCL runtime, as one of the conformance suite's tests does on PoCL).
fn note_killed(program: &OsString, status: ExitStatus) {
    use std::os::unix::process::ExitStatusExt;
    if let Some(signal) = status.signal() {
        let name = match signal {
            2 => " (SIGINT)",
            6 => " (SIGABRT)",
            7 => " (SIGBUS)",
            8 => " (SIGFPE)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        eprintln!(
            "srcsim: {} was killed by signal {signal}{name}: srcsim writes its estimates as \
             the program exits, so this run has none",
            PathBuf::from(program).display()
        );
    }
}

/// A run shows its progress only once it has taken this long (short runs stay quiet).
const PROGRESS_AFTER: Duration = Duration::from_secs(1);

pub fn run(args: &RunArgs) -> Result<u8> {
    if !std::io::stderr().is_terminal() || args.progress == ShowProgress::Never {
        let status = run_program(&args.shim, args.report.as_deref(), &[])?;
        note_killed(&args.shim.program[0], status);
        return Ok(exit_code(status));
    }
    // On a terminal: the launches taken and estimated so far, as the shim writes them
    // (`srcsim::progress`), once the run has lasted a while; cleared at its end.
    let dir = tempfile::tempdir().context("creating a directory for the run's progress")?;
    let file = dir.path().join("progress");
    let progress = file
        .to_str()
        .context("a temporary path that is not UTF-8")?;
    let mut child = program_command(
        &args.shim,
        args.report.as_deref(),
        &[(env::PROGRESS, progress)],
    )?
    .spawn()
    .with_context(|| format!("running {}", PathBuf::from(&args.shim.program[0]).display()))?;
    let after = match args.progress {
        ShowProgress::Always => Duration::ZERO,
        _ => PROGRESS_AFTER,
    };
    let start = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    let status = loop {
        if let Some(status) = child.try_wait().context("waiting for the program")? {
            break status;
        }
        if start.elapsed() >= after {
            let bar = bar.get_or_insert_with(|| {
                let style = ProgressStyle::with_template("srcsim: {spinner} {msg} ({elapsed})")
                    .expect("a valid template");
                ProgressBar::new_spinner().with_style(style)
            });
            let counts = std::fs::read_to_string(&file).ok();
            if let Some((launched, done)) = counts.as_deref().and_then(srcsim::progress::read) {
                bar.set_message(format!("{launched} launches, {done} estimated"));
            }
            bar.tick();
        }
        std::thread::sleep(srcsim::progress::EVERY);
    };
    if let Some(bar) = bar {
        // The run's last counts (the shim writes them as it exits), drawn once, then
        // the line cleared.
        let counts = std::fs::read_to_string(&file).ok();
        if let Some((launched, done)) = counts.as_deref().and_then(srcsim::progress::read) {
            bar.finish_with_message(format!("{launched} launches, {done} estimated"));
        }
        bar.finish_and_clear();
    }
    note_killed(&args.shim.program[0], status);
    Ok(exit_code(status))
}
