//! Host memory for the launches' records, faulted in before the launches need it.
//!
//! An arena of records (`batch.rs`) is fresh memory the first time one of its size is
//! made, and the annotated kernel touches every page of it first: each page faults (and
//! is zeroed) on the device's threads while the application waits for the launch.
//! `scan`'s 3.6 MB of records cost 2.3 ms of CPU so (`perf`, 10 runs: page faults under
//! the twin's work-group function), on a machine whose two cores the device's threads
//! hold. A run leaves the sizes of the memory its arenas took in the cache, under the
//! program's command line; the next run of the same command line faults that much memory
//! in on a thread of its own as the shim starts (on a warm run the application's start and
//! its program's compile leave a core idle for tens of milliseconds), and arenas take
//! their memory from there. Memory a run does not take is only memory; a size not ready
//! in time (or never told) is allocated as before.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The most memory made ready, and remembered, per run: what the arenas of a program's
/// first launches take (later ones reuse arenas), bounded as the idle arenas kept are.
const READY_BYTES: usize = 32 << 20;

/// Memory made ready for the records, and the sizes the run took.
pub struct ReadyMemory {
    /// Memory whose pages are in (made ready, or given back), by size in words.
    ready: Mutex<Vec<Vec<u64>>>,
    /// The sizes (words) taken this run, in order, up to [`READY_BYTES`].
    taken: Mutex<Vec<usize>>,
    /// Where this command line's sizes are kept, and what the last run left there.
    hint: Option<PathBuf>,
    last: Vec<usize>,
    /// Whether [`ReadyMemory::start_preparing`] ran.
    started: AtomicBool,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl ReadyMemory {
    /// Memory for this process's records, with the sizes kept at `hint` (a file of one
    /// size in words a line) read; nothing is made ready until [`ReadyMemory::prepare`].
    pub fn new(hint: Option<PathBuf>) -> Self {
        let last = hint
            .as_ref()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .map(|text| parse(&text))
            .unwrap_or_default();
        ReadyMemory {
            ready: Mutex::new(Vec::new()),
            taken: Mutex::new(Vec::new()),
            hint,
            last,
            started: AtomicBool::new(false),
        }
    }

    /// Where the sizes of runs of this process's command line are kept, under `cache`.
    pub fn hint_path(cache: &std::path::Path) -> Option<PathBuf> {
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
                .join("records")
                .join(annotator::cache::fingerprint(&parts)),
        )
    }

    /// Whether the last run left sizes to make ready.
    pub fn has_sizes(&self) -> bool {
        !self.last.is_empty()
    }

    /// Starts making the last run's sizes ready on a thread of its own, the first time
    /// only: when the application builds its first program from source (its compile
    /// leaves a core idle; at the shim's start, the runtime's own start held both).
    pub fn start_preparing(self: &Arc<Self>) {
        if !self.has_sizes() || self.started.swap(true, Ordering::Relaxed) {
            return;
        }
        let ready = Arc::clone(self);
        // Without the thread the arenas take fresh memory, as without sizes.
        let _ = std::thread::Builder::new()
            .name("srcsim-ready".to_string())
            .spawn(move || ready.prepare());
    }

    /// Faults in the memory the last run's arenas took, size by size (each available as
    /// soon as it is in).
    fn prepare(&self) {
        for &words in &self.last {
            let mut memory = vec![0u64; words];
            // A store in each page makes it present; `black_box` keeps the compiler from
            // dropping a store of the zero already there.
            for page in memory.chunks_mut(4096 / 8) {
                page[0] = std::hint::black_box(0);
            }
            lock(&self.ready).push(memory);
        }
    }

    /// `words` of memory: made ready or given back, else fresh (zeroed, but for what an
    /// arena given back left: records need no clearing, `batch.rs`).
    pub fn take(&self, words: usize) -> Vec<u64> {
        {
            let mut taken = lock(&self.taken);
            if taken.iter().sum::<usize>() + words <= READY_BYTES / 8 {
                taken.push(words);
            }
        }
        let mut ready = lock(&self.ready);
        let fit = (0..ready.len())
            .filter(|&i| ready[i].len() >= words)
            .min_by_key(|&i| ready[i].len());
        match fit {
            Some(i) => {
                let mut memory = ready.swap_remove(i);
                memory.truncate(words);
                memory
            }
            None => vec![0u64; words],
        }
    }

    /// Takes back memory an arena no longer uses, for a later one (unmapping it costs
    /// more than keeping it: `scan`'s 3.6 MB, 0.2 to 0.3 ms as its context goes), up to
    /// [`READY_BYTES`] in all.
    pub fn give_back(&self, memory: Vec<u64>) {
        let mut ready = lock(&self.ready);
        if ready.iter().map(Vec::len).sum::<usize>() + memory.len() <= READY_BYTES / 8 {
            ready.push(memory);
        }
    }

    /// Keeps the sizes this run took for the next run of its command line, where they
    /// differ from the last run's.
    pub fn remember(&self) {
        let taken = lock(&self.taken);
        let Some(path) = &self.hint else { return };
        if *taken == self.last {
            return;
        }
        let text: String = taken.iter().map(|w| format!("{w}\n")).collect();
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // Written whole, then renamed: a run reading it meanwhile sees the old or the new.
        let tmp = path.with_extension(format!("{}.tmp", std::process::id()));
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, path);
        }
    }
}

/// Sizes in words, one a line; anything else is left out, and the sum is bounded by
/// [`READY_BYTES`].
fn parse(text: &str) -> Vec<usize> {
    let mut total = 0usize;
    text.lines()
        .filter_map(|l| l.trim().parse::<usize>().ok())
        .take_while(|w| {
            total = total.saturating_add(*w);
            total <= READY_BYTES / 8
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sizes_a_run_took_are_made_ready_for_the_next() {
        let dir = tempfile::tempdir().unwrap();
        let hint = dir.path().join("records/run");
        let first = ReadyMemory::new(Some(hint.clone()));
        assert!(!first.has_sizes());
        assert_eq!(first.take(1000).len(), 1000);
        assert_eq!(first.take(450_000).len(), 450_000);
        first.remember();
        assert_eq!(std::fs::read_to_string(&hint).unwrap(), "1000\n450000\n");

        let second = ReadyMemory::new(Some(hint.clone()));
        assert!(second.has_sizes());
        second.prepare();
        let ready: Vec<usize> = lock(&second.ready).iter().map(Vec::len).collect();
        assert_eq!(ready, [1000, 450_000]);
        // The smallest that fits: the large one stays for the launch that needs it.
        let small = second.take(900);
        assert_eq!(small.len(), 900);
        assert_eq!(lock(&second.ready).len(), 1);
        assert_eq!(second.take(2_000_000).len(), 2_000_000);
        assert_eq!(lock(&second.ready)[0].len(), 450_000);
        // Memory given back is taken again, within the bound.
        second.give_back(vec![7; 300]);
        second.give_back(vec![7; READY_BYTES / 8]);
        let ready: Vec<usize> = lock(&second.ready).iter().map(Vec::len).collect();
        assert_eq!(ready, [450_000, 300]);
        assert_eq!(second.take(250).len(), 250);
        // Different sizes this time: kept for the next run.
        second.remember();
        assert_eq!(
            std::fs::read_to_string(&hint).unwrap(),
            "900\n2000000\n250\n"
        );
    }

    #[test]
    fn sizes_past_the_bound_or_unreadable_are_left_out() {
        let big = READY_BYTES / 8 / 2 + 1;
        assert_eq!(parse(&format!("12\nx\n{big}\n{big}\n7\n")), [12, big]);
        // A run taking more remembers what stays within the bound.
        let memory = ReadyMemory::new(None);
        memory.take(big);
        memory.take(big);
        memory.take(5);
        assert_eq!(*lock(&memory.taken), [big, 5]);
    }
}
