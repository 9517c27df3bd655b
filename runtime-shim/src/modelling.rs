//! The model thread's side of the shim: what the model needs of each kernel, each batch
//! of records read back and every launch in it modelled (or its identical predecessor's
//! estimate reused), under the run's architecture and a sweep's points, into the report.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use annotator::back::host_paths::{Cells, HostPaths, PathLaunch};
use annotator::back::sidecar::ProfileLayout;
use pipeline_model::sampling::{
    timing_records, timing_records_in_place, warp_records, SampledLaunch,
};
use pipeline_model::{
    estimate, estimate_summarized, Architecture, Grain, KernelEstimate, KernelResources,
    LaunchGeometry, LaunchSummary, Measured, ModelError, RecordFormat, Records, SampledAccess,
};

use crate::batch::Batch;
use crate::config::Config;
use crate::records_hash::RecordsHash;
use srcsim_report::{
    BlockCounts, Estimate, Launch, LaunchProfile, LaunchSink, Outcome, Report, SampledAccessReport,
    SourceBlock,
};

/// A program annotated with profile counters: where its blocks' counters are, and the
/// blocks and line texts the report keeps once for all its launches.
pub(crate) struct ProfiledProgram {
    pub(crate) layout: ProfileLayout,
    pub(crate) blocks: Vec<SourceBlock>,
    pub(crate) source_lines: BTreeMap<u32, String>,
    /// Its id among the report's programs, set by its first profiled launch.
    pub(crate) id: OnceLock<usize>,
}

impl ProfiledProgram {
    /// The layout's blocks, with the text of every line of `source` they occupy or can
    /// be charged cycles on (by their line shares, or their first line).
    pub(crate) fn new(layout: ProfileLayout, source: &str) -> Self {
        let text: Vec<&str> = source.lines().collect();
        let mut source_lines = BTreeMap::new();
        for b in &layout.blocks {
            let shares = b.shares.iter().flat_map(|s| s.lines.iter().map(|l| l.line));
            for line in b.lines.iter().copied().chain([b.line]).chain(shares) {
                if let Some(t) = (line as usize).checked_sub(1).and_then(|i| text.get(i)) {
                    source_lines.insert(line, t.to_string());
                }
            }
        }
        ProfiledProgram {
            blocks: layout
                .blocks
                .iter()
                .map(|b| SourceBlock {
                    function: b.function.clone(),
                    block: b.block,
                    lines: b.lines.clone(),
                    line: b.line,
                    column: b.column,
                })
                .collect(),
            layout,
            source_lines,
            id: OnceLock::new(),
        }
    }
}

/// What the model needs of a kernel, besides its records.
pub(crate) struct KernelModel {
    /// What each record holds, and where ([`pipeline_model::records`]).
    pub(crate) format: RecordFormat,
    pub(crate) usage_scale: u64,
    pub(crate) registers: u32,
    pub(crate) static_shared_bytes: u64,
    /// PTX instructions of the kernel (the instruction cache's first-run misses).
    pub(crate) code_instructions: u64,
    /// Of them, the divergent arms' (not fetched where no lane enters them).
    pub(crate) arm_code: pipeline_model::ArmCode,
    /// Bytes past the L1 a warp's first round of loads asks for (the first wave's burst).
    pub(crate) first_round_warp_bytes: Option<u64>,
    /// Bytes of each work-item's private frame kept in memory (`.local`).
    pub(crate) frame_bytes: u64,
    /// A kernel of one block: its cost in each class of warps sharing an L1.
    pub(crate) l1_sharing: Option<pipeline_model::l1_sharing::L1Sharing>,
    /// The arguments it reads through (`annotator::analysis::reads`), `None` where unknown.
    pub(crate) read_params: Option<Vec<u32>>,
    /// What the report must say of how the kernel was timed, if anything.
    pub(crate) note: Option<String>,
    /// With `SRCSIM_PROFILE=1`: where the block counters are, and what to report of them.
    pub(crate) profile: Option<KernelProfile>,
    /// The kernel's sampled accesses, each with the index of its counters in a record.
    pub(crate) samples: Vec<(usize, SampledAccess)>,
}

/// What the line profile of one kernel needs besides its records.
pub(crate) struct KernelProfile {
    pub(crate) kernel: String,
    pub(crate) program: Arc<ProfiledProgram>,
}

impl KernelProfile {
    /// The launch's profile: the block counters summed over its work-items, for the
    /// kernel's own blocks and the blocks of other functions (helpers) it ran; `program`
    /// is its program's id in the report.
    pub(crate) fn summarise(
        &self,
        records: &[u64],
        stride: usize,
        program: usize,
    ) -> LaunchProfile {
        let layout = &self.program.layout;
        let totals = layout.block_totals(records, stride);
        let blocks = layout
            .blocks
            .iter()
            .zip(totals)
            .enumerate()
            .filter(|(_, (b, t))| b.function == self.kernel || t.executions != 0 || t.cycles != 0)
            .map(|(index, (_, totals))| BlockCounts { index, totals })
            .collect();
        LaunchProfile { program, blocks }
    }
}

/// A launch whose records are on their way back, as far as the model cares.
pub(crate) struct Pending {
    /// Its index in the report.
    pub(crate) index: usize,
    /// The `u64`s of its records (the start of its slot).
    pub(crate) words: usize,
    /// Whether its records are its work-items' or its warps'.
    pub(crate) grain: Grain,
    pub(crate) geometry: LaunchGeometry,
    pub(crate) resources: KernelResources,
    /// The size of the buffer bound to each buffer parameter (where known): whether a
    /// sampled access's buffer fits in the L1.
    pub(crate) buffer_bytes: Vec<(u32, u64)>,
    pub(crate) model: Arc<KernelModel>,
}

/// Where the shim's time goes, for `SRCSIM_LOG=info` (printed at exit).
#[derive(Default)]
pub(crate) struct Stats {
    /// Launches enqueued annotated, and the time the application's threads spent in
    /// the shim's side of them.
    pub(crate) launches: AtomicU64,
    pub(crate) launch_ns: AtomicU64,
    /// Reads of records (one per batch of launches).
    pub(crate) batches: AtomicU64,
    /// The model thread: waiting for reads, modelling, estimates reused.
    pub(crate) wait_ns: AtomicU64,
    pub(crate) model_ns: AtomicU64,
    pub(crate) modelled: AtomicU64,
    pub(crate) reused: AtomicU64,
    /// Launches that left an earlier launch's records: the application's kernel ran, not
    /// the annotated one.
    pub(crate) repeats: AtomicU64,
    /// Launches whose paths the host evaluated: the application's kernel ran, and the
    /// model's thread computed their records.
    pub(crate) evaluated: AtomicU64,
    /// Launches that took the estimate a previous run measured (`crate::remembered`).
    pub(crate) remembered: AtomicU64,
    /// Launches that waited for room for their records, and how long in all.
    pub(crate) room_waits: AtomicU64,
    pub(crate) room_ns: AtomicU64,
}

impl Stats {
    pub(crate) fn add(counter: &AtomicU64, since: Instant) {
        counter.fetch_add(since.elapsed().as_nanos() as u64, Ordering::Relaxed);
    }

    pub(crate) fn summary(&self) -> String {
        let get = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let per = |ns: u64, n: u64| ns as f64 / 1e3 / n.max(1) as f64;
        let launches = get(&self.launches);
        let modelled = get(&self.modelled);
        format!(
            "{launches} launches annotated, {:.1} µs each in the application's thread ({} waited for room for their records, {:.1} ms in all); {} launches repeated an earlier one's geometry and deciding arguments and ran unannotated; {} launches had their paths evaluated on the host; {} launches took the estimate a previous run measured and ran unannotated; {} reads of records; model thread: {:.1} ms waiting for reads, {modelled} launches modelled ({:.1} µs each), {} estimates reused from an identical launch",
            per(get(&self.launch_ns), launches),
            get(&self.room_waits),
            get(&self.room_ns) as f64 / 1e6,
            get(&self.repeats),
            get(&self.evaluated),
            get(&self.remembered),
            get(&self.batches),
            get(&self.wait_ns) as f64 / 1e6,
            per(get(&self.model_ns), modelled),
            get(&self.reused),
        )
    }
}

/// The last launch the worker modelled of each kernel, per grain of its records
/// ([`Modelled`]). Per grain: a kernel whose records come per work-item at first and in
/// warps from its third launch on has them read back from arenas of two sizes, not in
/// launch order (`pagerank_pull`'s second launch, modelled after its eighth, broke the
/// run of identical launches in warps).
pub(crate) type LastModelled = HashMap<(*const KernelModel, Grain), Modelled>;

/// The last launch the worker modelled of one kernel in one grain: a launch of the same
/// geometry and resources that left the same records gets the same estimate (and
/// profile) without running the model again. A time-stepped program launches the same
/// kernels thousands of times, mostly with the same counts.
pub(crate) struct Modelled {
    /// Held, so that the kernel (and the address it is known by) stays.
    pub(crate) model: Arc<KernelModel>,
    pub(crate) geometry: LaunchGeometry,
    pub(crate) resources: KernelResources,
    pub(crate) buffer_bytes: Vec<(u32, u64)>,
    pub(crate) records: RecordsHash,
    pub(crate) outcome: Outcome,
    pub(crate) profile: Option<LaunchProfile>,
    /// Its outcomes under the sweep's points, in their order.
    pub(crate) points: Arc<Vec<Outcome>>,
}

/// The architectures a sweep (`SRCSIM_SWEEP`, [`srcsim_report::sweep`]) estimates every launch
/// under besides the shim's own, and what came of each launch there.
pub(crate) struct Sweep {
    pub(crate) manifest: srcsim_report::sweep::Manifest,
    /// The points' architectures, in the manifest's order.
    pub(crate) archs: Vec<Architecture>,
    /// By launch index: its outcome under each point.
    pub(crate) outcomes: Mutex<HashMap<usize, Arc<Vec<Outcome>>>>,
    /// Whether the host was told a simulated limit ([`Shim::simulated_limits`]).
    pub(crate) limits_seen: AtomicBool,
}

impl Sweep {
    /// The sweep `config` asks for, if any; why it cannot be done, if so.
    pub(crate) fn from_config(config: &Config) -> Result<Option<Sweep>, String> {
        let Some(path) = &config.sweep else {
            return Ok(None);
        };
        let manifest: srcsim_report::sweep::Manifest =
            srcsim_report::sweep::read(path).map_err(|e| e.to_string())?;
        let archs = manifest
            .points
            .iter()
            .map(|p| Architecture::load(&p.arch.display().to_string()).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Some(Sweep {
            manifest,
            archs,
            outcomes: Mutex::new(HashMap::new()),
            limits_seen: AtomicBool::new(false),
        }))
    }

    /// Writes every point's report (`report` with the point's outcomes) if asked, then
    /// the status with every point's totals.
    pub(crate) fn write(&self, report: &Report) -> Result<(), String> {
        let outcomes = lock(&self.outcomes);
        let outcome = |i: usize, l: &Launch| -> Option<&Outcome> {
            outcomes.get(&report.measured_as(l.index))?.get(i)
        };
        let own = report.launches.iter().map(|l| (&*l.kernel, l.estimate()));
        let mut status = srcsim_report::sweep::Status {
            points: self.archs.len(),
            host_saw_simulated_limits: self.limits_seen.load(Ordering::Relaxed),
            own: srcsim_report::sweep::kernels(own),
            results: Vec::with_capacity(self.archs.len()),
        };
        for (i, (point, arch)) in self.manifest.points.iter().zip(&self.archs).enumerate() {
            // A launch the model never saw (not annotated, say) keeps the run's outcome.
            let point_outcomes: Vec<Option<&Outcome>> =
                report.launches.iter().map(|l| outcome(i, l)).collect();
            let estimates = report.launches.iter().zip(&point_outcomes).map(|(l, o)| {
                let e = match o {
                    Some(Outcome::Simulated(e)) => Some(&**e),
                    Some(Outcome::NotSimulated { .. }) => None,
                    None => l.estimate(),
                };
                (&*l.kernel, e)
            });
            status
                .results
                .push(srcsim_report::sweep::kernels(estimates));
            if !self.manifest.reports {
                continue;
            }
            let mut r = report.clone();
            r.arch = arch.name.clone();
            r.clock_mhz = arch.clock_mhz;
            r.model = Some(srcsim_report::model_identity(arch));
            r.programs.clear();
            for (l, o) in r.launches.iter_mut().zip(point_outcomes) {
                l.profile = None;
                if let Some(o) = o {
                    l.outcome = o.clone();
                }
            }
            r.write(&point.report)
                .map_err(|e| format!("{}: {e}", point.report.display()))?;
        }
        srcsim_report::sweep::write(&self.manifest.status, &status).map_err(|e| e.to_string())
    }
}

pub(crate) fn lock<T: ?Sized>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic elsewhere while holding the lock leaves data that is still consistent
    // enough to report; never let it take the application down.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Where the shim and the model's thread write what they learn of launches: the run's
/// report, seen only as a [`LaunchSink`], so that the writers use the interface the
/// report crate defines for them and nothing else of the report.
pub(crate) type Sink = Mutex<dyn LaunchSink + Send>;

/// What the model's thread models with: the run's architecture, a sweep's, the sink of
/// the launches' outcomes and the statistics.
pub(crate) struct Models<'a> {
    pub(crate) arch: Option<&'a Architecture>,
    pub(crate) sweep: Option<&'a Sweep>,
    pub(crate) sink: &'a Sink,
    pub(crate) stats: &'a Stats,
}

/// What modelling one launch gave: its outcome, profile and outcomes under a sweep's
/// points.
type Modelling = (Outcome, Option<LaunchProfile>, Arc<Vec<Outcome>>);

impl Models<'_> {
    /// Models launch `p` from its `records` (which the model may correct in place), whose
    /// groups name their place in them where they are `shared`.
    fn launch(&self, p: &Pending, records: &mut [u64], shared: Option<&[u32]>) -> Modelling {
        let modelling = Instant::now();
        let arch = self.arch;
        // A sweep models the records as they came under each of its points, and a profile
        // reads them after the model: without either, the model corrects them in place.
        let (outcome, points) = if self.sweep.is_none() && p.model.profile.is_none() {
            let outcome = guarded(|| model(arch, p, RecordsIn::Owned(&mut *records), shared));
            (outcome, Arc::default())
        } else {
            let records = &*records;
            let model_under = |arch: Option<&Architecture>| {
                guarded(|| model(arch, p, RecordsIn::Shared(records), shared))
            };
            // The same records under each of the sweep's architectures.
            let points = self
                .sweep
                .map(|s| model_points(s, arch, p, records, shared, &model_under));
            (model_under(arch), Arc::new(points.unwrap_or_default()))
        };
        Stats::add(&self.stats.model_ns, modelling);
        self.stats.modelled.fetch_add(1, Ordering::Relaxed);
        let profile = match (&outcome, &p.model.profile) {
            (Outcome::Simulated(_), Some(profile)) => {
                // The program's blocks and text go into the report once, with its first
                // profiled launch.
                let program = *profile.program.id.get_or_init(|| {
                    lock(self.sink).program(&profile.program.blocks, &profile.program.source_lines)
                });
                Some(profile.summarise(records, p.model.format.work_item_stride(), program))
            }
            _ => None,
        };
        (outcome, profile, points)
    }

    /// Puts the launches' outcomes into the report (and the sweep's).
    fn report(&self, done: Vec<(&Pending, Modelling)>) {
        if let Some(sweep) = self.sweep {
            let mut outcomes = lock(&sweep.outcomes);
            for (p, (_, _, points)) in &done {
                if !points.is_empty() {
                    outcomes.insert(p.index, Arc::clone(points));
                }
            }
        }
        let mut sink = lock(self.sink);
        let n = done.len() as u64;
        for (p, (outcome, profile, _)) in done {
            sink.estimated(p.index, outcome, profile);
        }
        crate::progress::done(n);
    }
}

/// Models every launch of `batch` once its records are back (reusing `last`'s estimate
/// for a launch identical to its kernel's previous one) and puts the outcomes in
/// `sink`.
pub(crate) fn model_batch(
    arch: Option<&Architecture>,
    sweep: Option<&Sweep>,
    batch: &mut Batch<Pending>,
    sink: &Sink,
    last: &mut LastModelled,
    stats: &Stats,
) {
    let models = Models {
        arch,
        sweep,
        sink,
        stats,
    };
    let start = Instant::now();
    let read = batch.read.wait();
    Stats::add(&stats.wait_ns, start);
    let mut done = Vec::with_capacity(batch.launches.len());
    let Batch {
        arena, launches, ..
    } = batch;
    for (slot, p) in launches.iter() {
        if let Err(e) = read {
            let outcome = Outcome::NotSimulated {
                reason: format!("reading the records back: {e}"),
            };
            done.push((p, (outcome, None, Arc::new(Vec::new()))));
            continue;
        }
        let records = arena.records_mut(*slot, p.words);
        let key = (Arc::as_ptr(&p.model), p.grain);
        let prior = last.get(&key).filter(|m| {
            Arc::ptr_eq(&m.model, &p.model)
                && m.geometry == p.geometry
                && m.resources == p.resources
                && m.buffer_bytes == p.buffer_bytes
        });
        let prior_hash = prior.map(|m| &m.records);
        let hash = match p.grain {
            // Lanes kept whole: only theirs are records, the values between them stale.
            Grain::Warp {
                warp_size,
                sampled: true,
            } => {
                let layout = p.geometry.kept_lanes(&p.model.format, warp_size);
                let tail = &records[layout.masks().start..];
                RecordsHash::of_parts(
                    &records[..layout.masks().end],
                    layout.written(tail),
                    prior_hash,
                )
            }
            _ => RecordsHash::of(records, prior_hash),
        };
        if let Some(m) = prior.filter(|m| hash.same(&m.records)) {
            done.push((p, (m.outcome.clone(), m.profile.clone(), m.points.clone())));
            stats.reused.fetch_add(1, Ordering::Relaxed);
            continue;
        }
        let (outcome, profile, points) = models.launch(p, records, None);
        last.insert(
            key,
            Modelled {
                model: Arc::clone(&p.model),
                geometry: p.geometry,
                resources: p.resources.clone(),
                buffer_bytes: p.buffer_bytes.clone(),
                records: hash,
                outcome: outcome.clone(),
                profile: profile.clone(),
                points: Arc::clone(&points),
            },
        );
        done.push((p, (outcome, profile, points)));
    }
    models.report(done);
}

/// A launch whose paths the host evaluated (`annotator::back::host_paths`): its cells, from
/// which the model's thread writes its warp records.
pub(crate) struct EvaluatedLaunch {
    pub(crate) paths: Arc<HostPaths>,
    pub(crate) cells: Cells,
    pub(crate) offset: [u64; 3],
    pub(crate) pending: Pending,
}

/// What the model's thread is given: a batch of records read back, or a launch whose
/// records it computes.
pub(crate) enum Job {
    Records(Batch<Pending>),
    Evaluated(Box<EvaluatedLaunch>),
}

/// Writes an evaluated launch's warp records (into `records`, kept for the next) and
/// models them. Its records are new as a rule (a launch whose deciding arguments an
/// earlier launch had repeats it without coming here), so they are not hashed.
pub(crate) fn model_evaluated(
    models: &Models<'_>,
    e: &EvaluatedLaunch,
    scratch: &mut (Vec<u64>, Vec<u32>),
) {
    let p = &e.pending;
    let Grain::Warp { warp_size, .. } = p.grain else {
        unreachable!("evaluated launches have warp records")
    };
    let launch = PathLaunch {
        work_dim: 3,
        global: p.geometry.global,
        local: p.geometry.local,
        offset: e.offset,
        args: &[],
    };
    let (records, places) = scratch;
    e.cells
        .warp_records(&e.paths, &launch, u64::from(warp_size), records, places);
    let modelling = models.launch(p, records, Some(places));
    models.report(vec![(p, modelling)]);
}

/// Summaries kept for a sweep's points at most this many words (32 MiB): a larger launch's
/// points walk its records each.
pub(crate) const MAX_SUMMARY_WORDS: u64 = 1 << 22;

/// A launch's outcomes under each of the sweep's architectures. Without sampled accesses
/// (whose correction depends on the architecture) the records are reduced to their
/// work-groups once, under the run's architecture, and every point that reduces them
/// alike (all that differ only in what the model alone reads) is dealt from that summary;
/// the others walk the records, spread over the cores.
pub(crate) fn model_points(
    s: &Sweep,
    base: Option<&Architecture>,
    p: &Pending,
    records: &[u64],
    shared: Option<&[u32]>,
    guarded: &(dyn Fn(Option<&Architecture>) -> Outcome + Sync),
) -> Vec<Outcome> {
    let summary = base
        .filter(|base| {
            p.model.samples.is_empty()
                && (p.model.format.timing_only() == p.model.format || p.grain != Grain::WorkItem)
                && LaunchSummary::words(base, &p.geometry) <= MAX_SUMMARY_WORDS
        })
        .and_then(|base| {
            let records = Records {
                data: records,
                format: p.model.format.timing_only(),
                usage_scale: p.model.usage_scale,
                grain: p.grain,
                shared,
            };
            LaunchSummary::of(base, &p.geometry, &records).ok()
        });
    let summarized = |a: &Architecture| {
        let summary = summary.as_ref().filter(|summary| summary.fits(a))?;
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let estimated =
                estimate_summarized(a, &p.geometry, &p.resources, summary, p.model.usage_scale);
            outcome(a, p, estimated, Vec::new())
        }))
        .ok()
    };
    let mut outcomes: Vec<Option<Outcome>> = s.archs.iter().map(summarized).collect();
    let walks: Vec<usize> = (0..s.archs.len())
        .filter(|&i| outcomes[i].is_none())
        .collect();
    if walks.is_empty() {
        return outcomes.into_iter().flatten().collect();
    }
    // Spread over the cores: each of these points walks all the records.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = walks.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = walks
            .chunks(chunk)
            .map(|idx| {
                scope.spawn(|| {
                    idx.iter()
                        .map(|&i| guarded(Some(&s.archs[i])))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for (h, idx) in parts.into_iter().zip(walks.chunks(chunk)) {
            let done = h.join().unwrap_or_else(|_| {
                let reason = "the model's thread failed".to_string();
                vec![Outcome::NotSimulated { reason }; idx.len()]
            });
            for (&i, o) in idx.iter().zip(done) {
                outcomes[i] = Some(o);
            }
        }
    });
    outcomes.into_iter().flatten().collect()
}

/// Runs the model: a bug in it loses this launch's estimate, not every later one (the
/// thread goes on, and the report says why).
fn guarded(model: impl FnOnce() -> Outcome) -> Outcome {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(model)).unwrap_or_else(|panic| {
        Outcome::NotSimulated {
            reason: format!(
                "the model failed on this launch (a bug in srcsim: {})",
                panic
                    .downcast_ref::<String>()
                    .map(String::as_str)
                    .or_else(|| panic.downcast_ref::<&str>().copied())
                    .unwrap_or("no message")
            ),
        }
    })
}

/// A launch's records as the model gets them: to read, or its own to correct in place.
pub(crate) enum RecordsIn<'r> {
    Shared(&'r [u64]),
    Owned(&'r mut [u64]),
}

impl<'r> RecordsIn<'r> {
    /// The records, to read as they are.
    fn read(self) -> &'r [u64] {
        match self {
            RecordsIn::Shared(r) => r,
            RecordsIn::Owned(r) => r,
        }
    }
}

/// The model's verdict on one launch, given its records.
pub(crate) fn model(
    arch: Option<&Architecture>,
    p: &Pending,
    records: RecordsIn<'_>,
    shared: Option<&[u32]>,
) -> Outcome {
    let Some(arch) = arch else {
        return Outcome::NotSimulated {
            reason: "no architecture".to_string(),
        };
    };
    // The model reads `t`, the usage and the arms alone, with what the warps did at each
    // sampled access in place of what the annotation charged.
    let buffer_bytes = |param: u32| {
        p.buffer_bytes
            .iter()
            .find(|(i, _)| *i == param)
            .map(|(_, b)| *b)
    };
    let launch = SampledLaunch {
        arch,
        geometry: &p.geometry,
        resources: &p.resources,
        buffer_bytes: &buffer_bytes,
        usage_scale: p.model.usage_scale,
    };
    // Records reduced to warps are what the model reads (no profile), with the lanes kept
    // whole for their sampled accesses corrected and folded into them.
    let (format, samples) = (&p.model.format, &p.model.samples);
    let (data, measured) = match (p.grain, records) {
        (Grain::WorkItem, RecordsIn::Shared(r)) => timing_records(r, format, samples, &launch),
        (Grain::WorkItem, RecordsIn::Owned(r)) => {
            let (len, measured) = timing_records_in_place(r, format, samples, &launch);
            (Cow::Borrowed(&r[..len]), measured)
        }
        (Grain::Warp { sampled: true, .. }, RecordsIn::Shared(r)) => {
            let (warps, measured) = warp_records(r, format, samples, &launch);
            (Cow::Owned(warps), measured)
        }
        (Grain::Warp { sampled: true, .. }, RecordsIn::Owned(r)) => {
            let (len, measured) = launch.correct_warps(samples, r, format);
            (Cow::Borrowed(&r[..len]), measured)
        }
        (Grain::Warp { .. }, r) => (Cow::Borrowed(r.read()), vec![None; samples.len()]),
    };
    let records = Records {
        data: &data,
        format: format.timing_only(),
        usage_scale: p.model.usage_scale,
        grain: p.grain,
        shared,
    };
    outcome(
        arch,
        p,
        estimate(arch, &p.geometry, &p.resources, &records),
        measured,
    )
}

/// What the report says of a launch the model estimated (or could not), with what the
/// warps did at its sampled accesses.
pub(crate) fn outcome(
    arch: &Architecture,
    p: &Pending,
    estimated: Result<KernelEstimate, ModelError>,
    measured: Vec<Option<Measured>>,
) -> Outcome {
    match estimated {
        Ok(e) => Outcome::Simulated(Arc::new(Estimate {
            note: p.model.note.clone(),
            sampled: p
                .model
                .samples
                .iter()
                .zip(measured)
                .filter_map(|((_, a), m)| {
                    let m = m?;
                    Some(SampledAccessReport {
                        line: a.line,
                        column: a.column,
                        space: if a.shared { "shared" } else { "global" }.to_string(),
                        assumed_requests: a.charged_transactions,
                        requests: m.transactions,
                        sectors: m.sectors,
                        l1: m.l1_resident(),
                    })
                })
                .collect(),
            ..Estimate::from(&e)
        })),
        Err(e) => Outcome::NotSimulated {
            reason: if e.invalid_on_gpu() {
                format!("invalid on {}: {e}", arch.name)
            } else {
                format!("model: {e}")
            },
        },
    }
}
