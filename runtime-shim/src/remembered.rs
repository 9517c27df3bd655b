//! Estimates kept across runs, for launches their geometry and value arguments decide.
//!
//! A kernel whose branches and sampled indices read no memory (`path_inputs`,
//! `annotator::analysis::control`) leaves, for the same [`crate::shadow::PathKey`] (its geometry,
//! deciding values, `__local` bytes and buffer sizes), the same records, hence the same
//! estimate; within a run the shim already takes an earlier launch's estimate for such a
//! launch. A run keeps those it measured, and those whose paths the host evaluated
//! (`crate::shim::launch`: the next run takes them before it evaluates, and the model's
//! thread has nothing to do for them), in the cache, under its command line
//! (`estimates/<fingerprint>`, a JSON map, at most [`MAX_KEPT`]); the next run of the
//! same command line takes them, and runs the application's own kernel for such a
//! launch: a warm run measures only what is new (`scan`'s large launch: its twin, 3.6 MB
//! of records and their model). Each key names the cache's identity (the builds of the
//! shim, PoCL and clang: `crate::builds`), the model (its revisions and the
//! architecture's description), the annotated program and the kernel, so a rebuilt
//! srcsim, another architecture or an edited kernel measures again; the file is sealed
//! with the same identity (`annotator::cache::sealed`), so a damaged one is a miss.
//! `SRCSIM_MEASURE_EVERY_LAUNCH=1` measures every launch.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use annotator::cache::{sealed, AnnotationCache};

use srcsim_report::Outcome;

/// The most estimates a run keeps for the next: a run of more launches than that, each
/// new, is one of many launches whose keys rarely come back. An elimination of a
/// 1024-unknown system keys each of its 1023 steps' launches by its step (about 430 bytes
/// of JSON an estimate: 1.7 MB at most, read in a few ms).
pub const MAX_KEPT: usize = 4096;

/// The estimates the last run of this command line kept, and those this run measured.
pub struct RememberedEstimates {
    /// Where they are kept, and what names this build of the shim and its model.
    cache: AnnotationCache,
    path: PathBuf,
    identity: String,
    last: HashMap<String, Outcome>,
    measured: Mutex<BTreeMap<String, Outcome>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl RememberedEstimates {
    /// The estimates kept in `cache` for this process's command line, for the model
    /// `model` (`srcsim_report::model_identity`); `None` where the command line cannot be
    /// named (then nothing is taken or kept).
    pub fn load(cache: &AnnotationCache, model: &str) -> Option<Self> {
        let path = command_line_path(cache.dir())?;
        let identity = format!("{}\u{1}{model}", cache.identity());
        Some(Self::at(cache, path, &identity))
    }

    /// The estimates kept at `path`, for keys made with `identity`; a file that is not
    /// whole or was made under another identity is removed and noted in `cache`.
    pub fn at(cache: &AnnotationCache, path: PathBuf, identity: &str) -> Self {
        let last = match sealed::read(&path, identity) {
            Ok(bytes) => bytes.and_then(|b| serde_json::from_slice(&b).ok()),
            Err(fault) => {
                cache.note_fault("estimates file", fault);
                None
            }
        };
        RememberedEstimates {
            cache: cache.clone(),
            path,
            identity: identity.to_string(),
            last: last.unwrap_or_default(),
            measured: Mutex::new(BTreeMap::new()),
        }
    }

    /// The key of a launch of kernel `kernel` of the annotated program `program` (its
    /// identity) whose records `decided` (a path key's description) decides.
    pub fn key(&self, program: &str, kernel: &str, decided: &str) -> String {
        annotator::cache::fingerprint(&[&self.identity, program, kernel, decided])
    }

    /// The estimate the last run kept under `key`.
    pub fn get(&self, key: &str) -> Option<&Outcome> {
        self.last.get(key)
    }

    /// Keeps `outcome` (an estimate) under `key` for the next run.
    pub fn note(&self, key: String, outcome: &Outcome) {
        if !matches!(outcome, Outcome::Simulated(_)) {
            return;
        }
        let mut measured = lock(&self.measured);
        if measured.len() < MAX_KEPT {
            measured.insert(key, outcome.clone());
        }
    }

    /// Writes what this run measured, with what it took from the last run and measured
    /// again, where it measured something new (written whole, then renamed).
    pub fn write(&self) {
        let measured = lock(&self.measured);
        if measured.keys().all(|k| self.last.contains_key(k)) {
            return;
        }
        let Ok(text) = serde_json::to_vec(&*measured) else {
            return;
        };
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // A failed write (a full disk) costs the next run its measurements, nothing more.
        if let Err(e) = sealed::write(&self.path, &self.identity, &text) {
            self.cache.note_unkept("estimates file", &e);
        }
    }
}

/// Where the estimates of runs of this process's command line are kept, under `cache`.
fn command_line_path(cache: &Path) -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let mut parts = vec![exe.to_string_lossy().into_owned()];
    parts.extend(
        std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned()),
    );
    let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
    Some(
        cache
            .join("estimates")
            .join(annotator::cache::fingerprint(&parts)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use srcsim_report::Estimate;

    fn estimate(cycles: u64) -> Outcome {
        let e: Estimate = serde_json::from_str(&format!(
            r#"{{"cycles": {cycles}, "micros": 1.5, "latency_cycles": 10, "bound": "latency",
                "work_groups_per_sm": 8, "occupancy_limiter": "work-groups",
                "work_groups": 235, "warps": 940}}"#
        ))
        .unwrap();
        Outcome::Simulated(std::sync::Arc::new(e))
    }

    #[test]
    fn what_a_run_measured_the_next_run_of_the_same_identity_takes() {
        let dir = tempfile::tempdir().unwrap();
        let cache = AnnotationCache::at(dir.path());
        let path = dir.path().join("estimates/run");
        let first = RememberedEstimates::at(&cache, path.clone(), "build 1");
        let key = first.key("program", "scan_blocks", "n=60000");
        assert_eq!(first.get(&key), None);
        first.note(key.clone(), &estimate(6914));
        first.note(
            first.key("program", "scan_blocks", "n=235"),
            &Outcome::NotSimulated {
                reason: "x".to_string(),
            },
        );
        first.write();
        let second = RememberedEstimates::at(&cache, path.clone(), "build 1");
        assert_eq!(second.get(&key), Some(&estimate(6914)));
        assert_eq!(second.last.len(), 1, "only estimates are kept");
        // Another build (or model) makes other keys, and does not take the file.
        let other = RememberedEstimates::at(&cache, path.clone(), "build 2");
        assert_ne!(other.key("program", "scan_blocks", "n=60000"), key);
        assert!(other.last.is_empty());
        assert!(!path.exists(), "another build's file is removed");
        assert_eq!(
            cache.notes(),
            ["a kept estimates file was made by another build of srcsim, PoCL or clang: removed, and made again"]
        );
        assert_ne!(second.key("program", "add_offsets", "n=60000"), key);
        assert_ne!(second.key("other program", "scan_blocks", "n=60000"), key);
    }
}
