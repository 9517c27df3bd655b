//! The shim's settings, from the environment: `SRCSIM_ARCH`, `SRCSIM_REPORT`,
//! `SRCSIM_LOG`, `SRCSIM_TABLE`, `SRCSIM_KEEP_DEVICE_TYPE`, `SRCSIM_PROFILE`, `SRCSIM_SWEEP`,
//! `SRCSIM_MEASURE_EVERY_LAUNCH`, `SRCSIM_RECORDS_MIB` (and `SRCSIM_CACHE_DIR`, read by
//! the cache).

use std::path::PathBuf;

/// The environment variables the shim reads, each named once; `srcsim run`, `srcsim
/// check` and `srcsim sweep` set them for the program they run.
pub mod env {
    /// An architecture name or TOML file ([`pipeline_model::arch::DEFAULT_ARCH`] when unset).
    pub const ARCH: &str = pipeline_model::arch::ARCH_ENV;
    /// Where to write the report.
    pub const REPORT: &str = "SRCSIM_REPORT";
    /// How much the shim says: off, warn, info or debug.
    pub const LOG: &str = "SRCSIM_LOG";
    /// `0`: no table at exit.
    pub const TABLE: &str = "SRCSIM_TABLE";
    /// `1`: never offer the CPU in place of a GPU.
    pub const KEEP_DEVICE_TYPE: &str = "SRCSIM_KEEP_DEVICE_TYPE";
    /// `1`: count executions and cycles per source block and line.
    pub const PROFILE: &str = "SRCSIM_PROFILE";
    /// A sweep's manifest.
    pub const SWEEP: &str = "SRCSIM_SWEEP";
    /// `1`: run the annotated kernel at every launch, even where an earlier launch already
    /// left the records it would.
    pub const MEASURE_EVERY_LAUNCH: &str = "SRCSIM_MEASURE_EVERY_LAUNCH";
    /// The most MiB of records of launches not yet modelled (default
    /// [`super::DEFAULT_RECORDS_MIB`]): a program that enqueues far ahead of the device
    /// waits in its launches for room beyond it. Set, it also bounds launches of large
    /// records (else [`super::records_ceiling`]).
    pub const RECORDS_MIB: &str = "SRCSIM_RECORDS_MIB";
    /// `libsrcsim.so` for `srcsim run` (else the one beside the executable).
    pub const LIB: &str = "SRCSIM_LIB";
    /// The `srcsim` program the shim starts to keep program binaries (`srcsim run` sets
    /// it to itself; else the one beside `libsrcsim.so`).
    pub const BIN: &str = "SRCSIM_BIN";
    /// Where the shim writes the run's progress for `srcsim run` on a terminal
    /// (`crate::progress`).
    pub const PROGRESS: &str = "SRCSIM_PROGRESS";
}

/// MiB of records the launches not yet modelled may hold at once, unless
/// `SRCSIM_RECORDS_MIB` says otherwise: a few launches of a million work-items ahead of
/// the device (records reduced to warps), without the gigabytes a program of thousands of
/// such launches enqueued at once would otherwise take; two arenas may be in use whatever
/// the budget, so that larger launches still overlap the model. An LU factorisation of
/// 512 x 512 (1022 launches) ran 6% faster with 16 than with 64 (11.6 against 24 thousand
/// page faults: fresh arenas), the same with 8 and 4; other examples the same from 2 to
/// 64 (`docs/performance.md`, session 13). A launch of larger records may have more
/// where memory allows ([`records_ceiling`]).
pub const DEFAULT_RECORDS_MIB: usize = 16;

/// The most MiB of records launches of large records may hold where memory allows.
pub const MAX_RECORDS_CEILING_MIB: usize = 256;

/// The most bytes of records in flight a launch of large records may have (room for a
/// few such launches, `batch::LARGE_IN_FLIGHT`), given the memory available (`MemAvailable`
/// of `/proc/meminfo`, in bytes; `None` where unknown): a sixteenth of it, at least
/// [`DEFAULT_RECORDS_MIB`] and at most [`MAX_RECORDS_CEILING_MIB`] MiB. A BFS level's
/// 300000 work-items with sampled accesses leave 36 MB of records: with 16 MiB, every
/// such launch waited for the model (issue 32). Small launches keep the budget: more of
/// them in flight took more fresh arenas, and no less time (`docs/performance.md`).
pub fn records_ceiling(available: Option<u64>) -> usize {
    let (least, most) = (DEFAULT_RECORDS_MIB << 20, MAX_RECORDS_CEILING_MIB << 20);
    available.map_or(least, |bytes| {
        usize::try_from(bytes / 16)
            .unwrap_or(most)
            .clamp(least, most)
    })
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn memory_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// How much the shim says on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Nothing, not even the table.
    Off,
    /// The table, substitutions and what could not be simulated (the default).
    Warn,
    /// Also each program annotated and each launch not simulated.
    Info,
    /// Also programs that will not be simulated as they are created, and every launch's
    /// geometry.
    Debug,
}

/// The shim's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// An architecture name or TOML file (`SRCSIM_ARCH`, default `gtx480`).
    pub arch: String,
    /// Where to write the report (`SRCSIM_REPORT`; `.csv` for CSV, else JSON).
    pub report: Option<PathBuf>,
    /// `SRCSIM_LOG`: off, warn, info or debug.
    pub log: Level,
    /// `SRCSIM_TABLE=0`: no table at exit, warnings still (`srcsim check` prints its own).
    pub table: bool,
    /// `SRCSIM_KEEP_DEVICE_TYPE=1`: never offer the CPU in place of a GPU.
    pub keep_device_type: bool,
    /// `SRCSIM_PROFILE=1`: count executions and cycles per source block (and line).
    pub profile: bool,
    /// `SRCSIM_SWEEP=FILE`: also estimate every launch under the architectures this
    /// manifest lists (`srcsim sweep`; [`srcsim_report::sweep::Manifest`]).
    pub sweep: Option<PathBuf>,
    /// `SRCSIM_MEASURE_EVERY_LAUNCH=1`: run the annotated kernel at every launch, even
    /// where the kernel's paths depend on its geometry and value arguments alone and an
    /// earlier launch, or the last run of the same command line, had the same
    /// (`annotator::analysis::control`, `crate::remembered`), or where the host could
    /// evaluate its paths (`annotator::back::host_paths`): its estimate is the same either way,
    /// so this only checks the analysis, at the cost of speed.
    pub measure_every_launch: bool,
    /// `SRCSIM_RECORDS_MIB`: the most bytes of records of launches not yet modelled.
    pub records_budget: usize,
    /// `SRCSIM_PROGRESS`: where to write the run's progress (`crate::progress`).
    pub progress: Option<PathBuf>,
    /// The most bytes of records in flight a launch of large records may have
    /// ([`records_ceiling`]; the budget where `SRCSIM_RECORDS_MIB` is set).
    pub records_ceiling: usize,
}

impl Config {
    /// The settings from the environment; unknown values fall back to the defaults, with
    /// a warning.
    pub fn from_env() -> Self {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let (log, bad_log) = match var(env::LOG).as_deref() {
            None | Some("warn") => (Level::Warn, None),
            Some("off") => (Level::Off, None),
            Some("info") => (Level::Info, None),
            Some("debug") => (Level::Debug, None),
            Some(other) => (Level::Warn, Some(other.to_string())),
        };
        let mut config = Config {
            arch: var(env::ARCH).unwrap_or_else(|| pipeline_model::arch::DEFAULT_ARCH.to_string()),
            report: var(env::REPORT).map(PathBuf::from),
            log,
            table: var(env::TABLE).is_none_or(|v| v != "0"),
            keep_device_type: var(env::KEEP_DEVICE_TYPE).is_some_and(|v| v != "0"),
            profile: var(env::PROFILE).is_some_and(|v| v != "0"),
            sweep: var(env::SWEEP).map(PathBuf::from),
            measure_every_launch: var(env::MEASURE_EVERY_LAUNCH).is_some_and(|v| v != "0"),
            records_budget: DEFAULT_RECORDS_MIB << 20,
            records_ceiling: records_ceiling(memory_available()),
            progress: var(env::PROGRESS).map(PathBuf::from),
        };
        if let Some(v) = var(env::RECORDS_MIB) {
            match v.parse::<usize>() {
                Ok(mib) if mib > 0 => {
                    config.records_budget = mib.saturating_mul(1 << 20);
                    config.records_ceiling = config.records_budget;
                }
                _ => config.log(
                    Level::Warn,
                    &format!(
                        "{}={v} is not a positive number of MiB; using {DEFAULT_RECORDS_MIB}",
                        env::RECORDS_MIB
                    ),
                ),
            }
        }
        if let Some(bad) = bad_log {
            config.log(
                Level::Warn,
                &format!(
                    "{}={bad} is none of off, warn, info, debug; using warn",
                    env::LOG
                ),
            );
        }
        config
    }

    /// Prints `msg` on stderr if `level` is enabled, every line of it after `srcsim: `
    /// (so that none passes for the application's own output).
    pub fn log(&self, level: Level, msg: &str) {
        if level <= self.log && level != Level::Off {
            eprint!("{}", srcsim_report::prefixed(msg));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_records_ceiling_is_a_sixteenth_of_the_memory_available_within_bounds() {
        const MIB: usize = 1 << 20;
        assert_eq!(records_ceiling(None), 16 * MIB);
        assert_eq!(records_ceiling(Some(100 * MIB as u64)), 16 * MIB);
        assert_eq!(records_ceiling(Some(1 << 30)), 64 * MIB);
        assert_eq!(records_ceiling(Some(24 << 30)), 256 * MIB);
        assert_eq!(records_ceiling(Some(u64::MAX)), 256 * MIB);
    }
}
