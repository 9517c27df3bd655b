//! The shim's state and decisions: which programs and kernels have annotated twins, what a
//! launch enqueues, and the background worker that reads the counter records back and
//! hands them to the model thread (`modelling.rs`); a launch, planned, carried out and
//! recorded, is `launch.rs`, the copies that reduce records to warps `copies.rs`, the
//! twins' making `twins.rs`. The interposers (`interpose/`) call
//! in here; modelling is `pipeline_model`'s and annotation `annotator`'s.
//!
//! Every application kernel whose program was built from source has a *shadow*: the same
//! kernel from the annotated program, with one more argument (the records buffer). The
//! application keeps its own kernel object, so every query it makes (argument count,
//! argument info, work-group info) sees the original; argument settings are mirrored onto
//! the shadow, and launches enqueue the shadow.

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

mod cache;
mod copies;
mod devices;
pub use devices::DeviceLimits;
pub(crate) mod groups;
mod launch;
pub use launch::Launched;
mod remembered;
use remembered::Remembered;
mod linked;
mod twins;

use annotator::annotate::AnnotateOptions;
use annotator::cache::MadeFrom;
use annotator::front::compile::{BuildOptions, Compiler};
use annotator::front::source::ParamKind;
use pipeline_model::{Architecture, Grain, KernelResources, LaunchGeometry};
use rustc_hash::FxHashMap;

use crate::batch::{Batches, Full};
use crate::cl::{Context, Device, Event, Kernel, NdRange, Program, Queue};
use crate::config::{Config, Level};
use crate::model_worker::{ModelContext, Worker};
use crate::modelling::{
    lock, Job, KernelModel, KernelProfile, Pending, ProfiledProgram, Sink, Stats, Sweep,
};
use crate::shadow::{
    ArgValue, KernelState, LazyProgram, MirroredSetting, ProgramOrigin, ProgramState, SetArgRef,
    Shadow, ShadowArgs, ShadowProgram,
};
use srcsim_report::{Launch, Outcome, Report};

#[derive(Default)]
struct State {
    /// Devices handed out in place of a GPU.
    substitutes: HashSet<Device>,
    /// Devices handed out where the application asked for any device (`ALL`,
    /// `DEFAULT`): they answer the queries launches are sized by as the simulated GPU,
    /// as substitutes do, but keep their type.
    any_device: HashSet<Device>,
    programs: FxHashMap<Program, ProgramState>,
    /// What each program binary the application read back was made from, by the XXH3
    /// digest of its bytes (also kept in the cache, for later runs).
    binaries: FxHashMap<u128, MadeFrom>,
    kernels: FxHashMap<Kernel, KernelState>,
    /// The first launch of a context costs more on a GPU's driver
    /// (`pipeline_model::OpenclEvent`): its lazy set-up of kernel execution, which a fill
    /// (a kernel of the driver's) does instead where the host waited for it. Contexts
    /// that launched, or whose set-up a waited fill did: their launches cost no more.
    set_up: HashSet<Context>,
    /// Queues with a fill the host has not waited for yet.
    unwaited_fills: HashSet<Queue>,
}

/// The shim.
pub struct Shim {
    config: Config,
    arch: Result<Architecture, String>,
    /// The compiler, located on first use; the lock also serialises annotation.
    compiler: Mutex<Option<Result<Compiler, String>>>,
    /// The cache, opened at its first use ([`Shim::cache`]).
    cache: OnceLock<cache::ShimCache>,
    state: Mutex<State>,
    /// The run's report, which the exit settles, prints and writes ([`Shim::finish`]).
    report: Arc<Mutex<Report>>,
    /// The same report (one allocation, one lock) seen as a [`srcsim_report::LaunchSink`]:
    /// every launch and outcome written, here and on the model's thread, goes through the
    /// interface the report crate defines for writing them, not the report's own fields.
    sink: Arc<Sink>,
    /// The records' buffers, and their reads back.
    batches: Arc<Batches<Pending>>,
    worker: Mutex<Option<Worker>>,
    stats: Arc<Stats>,
    /// `SRCSIM_SWEEP`: more architectures to estimate every launch under.
    sweep: Option<Arc<Sweep>>,
    /// Copies' programs a launch wanted on a first run, to build for the next run when
    /// the application releases their context (at exit, only noted for the next run to
    /// build; `Shim::grain`).
    deferred: Mutex<Vec<Arc<LazyProgram>>>,
    /// This run's estimates to keep: each launch's index in the report and its key
    /// (`crate::remembered`).
    to_remember: Mutex<Vec<(usize, String)>>,
    /// Programs built from source this run whose binaries a keeper is to keep
    /// (`crate::keeper`), started when the application releases a context or exits.
    keeping: Mutex<Vec<crate::keeper::KeepJob>>,
}

/// The process's shim, created on first use.
pub fn shim() -> &'static Shim {
    static SHIM: OnceLock<Shim> = OnceLock::new();
    SHIM.get_or_init(|| Shim::new(Config::from_env()))
}

impl Shim {
    fn new(config: Config) -> Self {
        crate::progress::start(config.progress.as_deref());
        let arch = Architecture::load(&config.arch).map_err(|e| e.to_string());
        let (name, clock) = match &arch {
            Ok(a) => (a.name.clone(), a.clock_mhz),
            Err(_) => (config.arch.clone(), 0.0),
        };
        let mut report = Report::new(&name, clock);
        report.model = arch.as_ref().ok().map(srcsim_report::model_identity);
        report.sm_count = arch.as_ref().ok().map(|a| a.sm_count);
        report.command = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        if let Err(e) = &arch {
            config.log(
                Level::Warn,
                &format!("SRCSIM_ARCH: {e}; nothing will be simulated"),
            );
        }
        let sweep = Sweep::from_config(&config).unwrap_or_else(|e| {
            config.log(
                Level::Warn,
                &format!("SRCSIM_SWEEP: {e}; no sweep, only SRCSIM_ARCH is estimated"),
            );
            None
        });
        let report = Arc::new(Mutex::new(report));
        Shim {
            to_remember: Mutex::new(Vec::new()),
            sweep: sweep.map(Arc::new),
            cache: OnceLock::new(),
            compiler: Mutex::new(None),
            state: Mutex::new(State::default()),
            sink: Arc::clone(&report) as Arc<Sink>,
            report,
            batches: Arc::new(Batches::new(config.records_budget, config.records_ceiling)),
            worker: Mutex::new(None),
            stats: Arc::new(Stats::default()),
            deferred: Mutex::new(Vec::new()),
            keeping: Mutex::new(Vec::new()),
            arch,
            config,
        }
    }

    fn log(&self, level: Level, msg: &str) {
        self.config.log(level, msg);
    }

    /// `what: reason` as a warning of one line (the first of `reason`), and in full at
    /// `info` when there is more.
    fn warn_in_full(&self, what: &str, reason: &str) {
        let mut lines = reason.lines();
        let first = lines.next().unwrap_or_default();
        if lines.next().is_none() {
            self.log(Level::Warn, &format!("{what}: {reason}"));
            return;
        }
        let more = if self.config.log >= Level::Info {
            "; in full:"
        } else {
            " (in full in the report, and with SRCSIM_LOG=info)"
        };
        self.log(Level::Warn, &format!("{what}: {first}{more}"));
        self.log(Level::Info, reason);
    }

    /// Holds a launch whose records would take the arenas in use past the budget
    /// (`SRCSIM_RECORDS_MIB`) until the model has given enough of them back: the
    /// part-filled arenas are read first, so that every launch already enqueued can come
    /// back.
    fn make_room(&self, context: Context, device: Device, bytes: usize) {
        if !self.batches.needs_room(context, device, bytes) {
            return;
        }
        let start = Instant::now();
        let mut read_filled = || {
            for full in self.batches.drain(None) {
                self.read_back(full);
            }
        };
        read_filled();
        if !self
            .batches
            .wait_for_room(context, device, bytes, &mut read_filled)
        {
            self.log(
                Level::Info,
                "no records came back for 2 s while a launch waited for room: launches no longer wait (their records may exceed SRCSIM_RECORDS_MIB)",
            );
        }
        self.stats.room_waits.fetch_add(1, Ordering::Relaxed);
        Stats::add(&self.stats.room_ns, start);
    }

    /// The application made a user event: its launches may wait on what it does after
    /// them, so none waits for room in the shim from now on.
    pub fn user_event_created(&self) {
        self.batches.stop_waiting();
    }

    fn abandon(&self, slot: crate::batch::Slot) {
        if let Some(full) = self.batches.abandon(slot) {
            self.read_back(full);
        }
    }

    /// Reads `full`'s records back and hands them to the model's thread.
    fn read_back(&self, full: Full<Pending>) {
        match self.batches.read_back(full) {
            Ok(Some(batch)) => {
                self.stats.batches.fetch_add(1, Ordering::Relaxed);
                self.submit(Job::Records(batch))
            }
            Ok(None) => {}
            Err((e, launches)) => {
                let mut sink = lock(&self.sink);
                for p in launches {
                    let reason = format!("reading the records back: {e}");
                    sink.estimated(p.index, Outcome::NotSimulated { reason }, None);
                    crate::progress::done(1);
                }
            }
        }
    }

    /// The application is releasing `context`: its launches' records are read now, and
    /// the shim's buffers and queue stop holding it.
    pub fn context_releasing(&self, context: Context) {
        for full in self.batches.drain(Some(context)) {
            self.read_back(full);
        }
        self.build_deferred(Some(context));
        self.start_keepers();
        self.batches.retire(context);
    }

    fn push_launch(
        &self,
        name: Arc<str>,
        queue: Queue,
        range: &NdRange,
        geometry: &LaunchGeometry,
        outcome: Option<Outcome>,
    ) -> usize {
        let settled = outcome.is_some();
        let launch = self.launch_entry(name, queue, range, geometry, outcome);
        let index = lock(&self.sink).launched(launch);
        crate::progress::launched();
        if settled {
            crate::progress::done(1);
        }
        index
    }

    /// The application enqueued a fill on `queue` (`clEnqueueFillBuffer`,
    /// `clEnqueueFillImage`, `clEnqueueSVMMemFill`).
    pub fn filled(&self, queue: Queue) {
        lock(&self.state).unwaited_fills.insert(queue);
    }

    /// The host waited for everything enqueued on `queue` so far (`clFinish`): a fill
    /// among it did its context's set-up, so the context's first launch costs no more
    /// than the rest (measured: validation/examples/README.md).
    pub fn finished(&self, queue: Queue) {
        if !lock(&self.state).unwaited_fills.remove(&queue) {
            return;
        }
        if let Ok(context) = queue.context() {
            lock(&self.state).set_up.insert(context);
        }
    }

    /// The host waited for one command of `queue` (a blocking read or write): on an
    /// in-order queue, for everything enqueued before it too.
    pub fn waited(&self, queue: Queue) {
        if lock(&self.state).unwaited_fills.contains(&queue) && queue.in_order() {
            self.finished(queue);
        }
    }

    /// The host waited for `events` (`clWaitForEvents`).
    pub fn waited_for(&self, events: impl Iterator<Item = Event>) {
        if lock(&self.state).unwaited_fills.is_empty() {
            return;
        }
        for queue in events.filter_map(|e| e.queue().ok().flatten()) {
            self.waited(queue);
        }
    }

    fn launch_entry(
        &self,
        kernel: Arc<str>,
        queue: Queue,
        range: &NdRange,
        geometry: &LaunchGeometry,
        outcome: Option<Outcome>,
    ) -> Launch {
        // A queue whose context cannot be read has not launched before either (the
        // launch fails on it).
        let first_in_context = queue
            .context()
            .is_ok_and(|context| lock(&self.state).set_up.insert(context));
        Launch {
            index: 0,
            kernel,
            work_dim: range.work_dim,
            global: geometry.global,
            local: geometry.local,
            local_chosen: range.local.is_none(),
            offset: range.offset.map(|o| o as u64),
            outcome: outcome.unwrap_or(Outcome::NotSimulated {
                reason: "its records never came back (the program ended first?)".to_string(),
            }),
            profile: None,
            first_in_context,
            event_micros: None,
        }
    }

    fn submit(&self, job: Job) {
        let mut worker = lock(&self.worker);
        let w = worker.get_or_insert_with(|| {
            Worker::spawn(ModelContext {
                arch: self.arch.clone().ok(),
                sweep: self.sweep.clone(),
                sink: Arc::clone(&self.sink),
                batches: Arc::clone(&self.batches),
                stats: Arc::clone(&self.stats),
            })
        });
        w.submit(job);
    }

    /// Reads back what is left, waits for every launch's model, prints the table and
    /// writes the report file.
    pub fn finish(&self) {
        let start = Instant::now();
        self.join_annotations();
        for full in self.batches.drain(None) {
            self.read_back(full);
        }
        let worker = lock(&self.worker).take();
        if let Some(w) = worker {
            w.finish();
        }
        // Also where no launch needed the model (repeats, estimates a previous run kept).
        crate::progress::finish();
        let waited = start.elapsed();
        let mut report = lock(&self.report);
        report.settle_repeats();
        if let Ok(arch) = &self.arch {
            report.settle_events(arch.opencl_event.as_ref());
        }
        self.remember(&report);
        if let Some(cache) = self.cache.get() {
            report.cache = cache.cache.notes();
        }
        if self.config.log >= Level::Warn && self.config.table && !report.launches.is_empty() {
            eprint!("{}", report.table());
        }
        if let Some(path) = &self.config.report {
            if let Err(e) = report.write(path) {
                self.log(
                    Level::Warn,
                    &format!("writing the report {}: {e}", path.display()),
                );
            }
        }
        if let Some(sweep) = &self.sweep {
            if let Err(e) = sweep.write(&report) {
                self.log(Level::Warn, &format!("writing the sweep's reports: {e}"));
            }
        }
        drop(report);
        self.build_deferred(None);
        self.start_keepers();
        if let Some(cache) = self.cache.get() {
            cache.remove_private();
        }
        if self.config.log >= Level::Info {
            self.log(
                Level::Info,
                &format!(
                    "timing: {}; {} arenas of records created, at most {:.1} MiB at once; at exit {:.1} ms for the last records and models, {:.1} ms in all",
                    self.stats.summary(),
                    self.batches.arenas().0,
                    self.batches.arenas().1 as f64 / (1 << 20) as f64,
                    waited.as_secs_f64() * 1e3,
                    start.elapsed().as_secs_f64() * 1e3
                ),
            );
        }
    }
}

/// The largest work-group of at most this many work-items is what the shim assumes when
/// the application leaves the local size to the runtime.
pub const DEFAULT_WORK_GROUP_LIMIT: u64 = 256;

/// What a launch of `shadow` with `args` uses of an SM and of memory.
fn kernel_resources(shadow: &Shadow, args: &ShadowArgs) -> KernelResources {
    KernelResources {
        registers_per_work_item: shadow.model.registers,
        local_memory_bytes: shadow.model.static_shared_bytes
            + args.local_bytes.values().sum::<u64>(),
        global_memory_bytes: args.buffer_footprint(),
        read_memory_bytes: shadow
            .model
            .read_params
            .as_deref()
            .and_then(|read| args.read_footprint(read)),
        code_instructions: shadow.model.code_instructions,
        arm_code: shadow.model.arm_code,
        first_round_warp_bytes: shadow.model.first_round_warp_bytes,
        frame_bytes: shadow.model.frame_bytes,
        l1_sharing: shadow.model.l1_sharing.clone(),
    }
}

/// The model's view of `range`: with no local size, the largest divisors of the global
/// sizes, x first, whose product stays within [`DEFAULT_WORK_GROUP_LIMIT`] (uniform
/// work-groups, as OpenCL 1.2 requires; a GPU driver picks alike).
pub fn geometry(range: &NdRange) -> LaunchGeometry {
    let global = range.global.map(|g| g as u64);
    let local = match range.local {
        Some(l) => l.map(|l| l as u64),
        None => {
            let mut budget = DEFAULT_WORK_GROUP_LIMIT;
            global.map(|g| {
                let l = (1..=budget.min(g)).rev().find(|d| g % d == 0).unwrap_or(1);
                budget /= l;
                l
            })
        }
    };
    LaunchGeometry { global, local }
}

#[cfg(test)]
mod tests;
