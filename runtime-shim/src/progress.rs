//! What `srcsim run` shows on a terminal while a program runs (`SRCSIM_PROGRESS`): the
//! launches the shim took and those it has an outcome for, written to a file at most every
//! [`EVERY`] for the command to read. A plain file rather than a pipe: a host whose reader
//! went away must never get `SIGPIPE`, and a write that fails is only skipped.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// How often the file is written at most.
pub const EVERY: Duration = Duration::from_millis(100);

/// The counts and where they go.
struct Progress {
    file: File,
    launched: AtomicU64,
    done: AtomicU64,
    /// When the file was last written.
    written: Mutex<Instant>,
}

static PROGRESS: OnceLock<Option<Progress>> = OnceLock::new();

/// Starts writing progress to `path`, where the run asked for it (`None`: never).
pub(crate) fn start(path: Option<&Path>) {
    PROGRESS.get_or_init(|| {
        let file = File::create(path?).ok()?;
        Some(Progress {
            file,
            launched: AtomicU64::new(0),
            done: AtomicU64::new(0),
            written: Mutex::new(Instant::now() - EVERY),
        })
    });
}

/// A launch taken (simulated or not).
pub(crate) fn launched() {
    if let Some(Some(p)) = PROGRESS.get() {
        p.launched.fetch_add(1, Ordering::Relaxed);
        p.write(false);
    }
}

/// `n` launches given their outcome.
pub(crate) fn done(n: u64) {
    if let Some(Some(p)) = PROGRESS.get() {
        p.done.fetch_add(n, Ordering::Relaxed);
        p.write(false);
    }
}

/// The counts as they are at the end of the run.
pub(crate) fn finish() {
    if let Some(Some(p)) = PROGRESS.get() {
        p.write(true);
    }
}

impl Progress {
    /// Writes the counts, `launched done`, over the file's start, unless it was written
    /// less than [`EVERY`] ago (or another thread is writing it) and `now` is not asked.
    fn write(&self, now: bool) {
        let Ok(mut written) = (if now {
            self.written.lock().map_err(|_| ())
        } else {
            self.written.try_lock().map_err(|_| ())
        }) else {
            return;
        };
        if !now && written.elapsed() < EVERY {
            return;
        }
        *written = Instant::now();
        let line = format!(
            "{:>20} {:>20}\n",
            self.launched.load(Ordering::Relaxed),
            self.done.load(Ordering::Relaxed)
        );
        let _ = self.file.write_at(line.as_bytes(), 0);
    }
}

/// The counts a progress file holds: launches taken and launches given their outcome.
pub fn read(text: &str) -> Option<(u64, u64)> {
    let mut words = text.split_whitespace();
    Some((words.next()?.parse().ok()?, words.next()?.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_written_over_the_files_start_and_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("progress");
        let p = Progress {
            file: File::create(&path).unwrap(),
            launched: AtomicU64::new(12345),
            done: AtomicU64::new(7),
            written: Mutex::new(Instant::now()),
        };
        // Written less than EVERY ago: not again, unless asked.
        p.write(false);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "");
        p.write(true);
        p.launched.store(3, Ordering::Relaxed);
        p.write(true);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.len(), 42);
        assert_eq!(read(&text), Some((3, 7)));
        assert_eq!(read(""), None);
    }
}
