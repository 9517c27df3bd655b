//! A launch, decided and carried out in one place. [`Shim::launch`] plans it
//! ([`LaunchPlan`]): the annotated twin enqueued in the kernel's place, or the
//! application's own launch run, which the interposer hands in, and what the shim knows of
//! it recorded where it succeeded. So nothing of a launch waits for the interposer to come
//! back: the report takes each launch that ran, in the order the application made them.

use super::copies::{kept_counter, reduction_args};
use super::*;
use crate::cl::Event;
use crate::ffi::{cl_int, CL_SUCCESS};
use crate::modelling::EvaluatedLaunch;
use annotator::back::host_paths::{HostPaths, PathLaunch};
use pipeline_model::records::WORD_BYTES;

/// What [`Shim::launch`] did, for the interposer to answer the application with.
pub enum Launched {
    /// The annotated twin was enqueued in the kernel's place: the application gets its
    /// event, and the call succeeded (the application's own launch did not run).
    Twin(Event),
    /// The application's own launch ran and returned this code.
    Own(cl_int),
}

/// How a launch is carried out, decided before the application's own launch would run.
enum LaunchPlan {
    /// The twin was enqueued, with a slot of a records buffer: the application gets its
    /// event.
    Twin(Event),
    /// The application's own launch runs; where it succeeds, the shim records it so.
    Own(OwnLaunch),
}

/// What the shim records of a launch of the application's own kernel once it succeeded.
enum OwnLaunch {
    /// It leaves the records an earlier launch of the kernel left (its paths depend on
    /// the geometry and values that launch had, `annotator::analysis::control`): its
    /// estimate is that launch's.
    Repeat {
        /// The kernel's name.
        kernel: Arc<str>,
        /// The earlier launch's index in the report.
        of: usize,
    },
    /// The host evaluated its paths (`annotator::back::host_paths`): the model's thread
    /// computes its records.
    Evaluated(Box<Evaluation>),
    /// A previous run measured a launch that leaves the same records
    /// (`crate::remembered`): its estimate is that one.
    Remembered(Box<Remembered>),
    /// Nothing of srcsim's could run in its place, for this reason.
    Unsimulated(String),
}

/// The plan of a launch that runs unsimulated, for `reason`.
fn unsimulated(reason: String) -> LaunchPlan {
    LaunchPlan::Own(OwnLaunch::Unsimulated(reason))
}

/// A launch whose warp records the host computes from its cells, on the model's thread:
/// the kernel, the key its deciding values make (noted as first seen once it is in the
/// report), and what the model's thread is given.
struct Evaluation {
    kernel: Arc<str>,
    shadow: Arc<Shadow>,
    key: crate::shadow::PathKey,
    launch: EvaluatedLaunch,
    /// The key to keep its estimate under for the next run, if any.
    remember: Option<String>,
}

impl Shim {
    /// Carries out a launch of `kernel` over `range` on `queue` after `wait`: its
    /// annotated twin enqueued in its place where the records must be measured, else the
    /// application's own launch (`original`, called at most once) run and, where it
    /// succeeded, recorded as the plan says (never where it failed: the application made
    /// no launch then).
    pub fn launch(
        &self,
        queue: Queue,
        kernel: Kernel,
        range: &NdRange,
        wait: &[Event],
        original: impl FnOnce() -> cl_int,
    ) -> Launched {
        let start = Instant::now();
        let own = match self.plan(queue, kernel, range, wait) {
            LaunchPlan::Twin(event) => {
                self.stats.launches.fetch_add(1, Ordering::Relaxed);
                Stats::add(&self.stats.launch_ns, start);
                return Launched::Twin(event);
            }
            LaunchPlan::Own(own) => own,
        };
        let code = original();
        if code == CL_SUCCESS {
            match own {
                OwnLaunch::Repeat { kernel: name, of } => {
                    self.record_repeat(name, queue, range, of)
                }
                OwnLaunch::Evaluated(evaluation) => self.record_evaluated(evaluation, queue, range),
                OwnLaunch::Remembered(remembered) => {
                    self.record_remembered(remembered, queue, range)
                }
                OwnLaunch::Unsimulated(reason) => {
                    self.record_unsimulated(kernel, queue, range, reason)
                }
            }
        }
        Launched::Own(code)
    }

    /// How a launch of `kernel` over `range` on `queue` after `wait` is carried out: where
    /// its records must be measured, its twin is enqueued here, with a fresh slot of a
    /// records buffer, and the records' read-back queued for the model.
    fn plan(&self, queue: Queue, kernel: Kernel, range: &NdRange, wait: &[Event]) -> LaunchPlan {
        let (name, shadow) = match self.launched_shadow(kernel) {
            Ok(found) => found,
            Err(reason) => return unsimulated(reason),
        };
        let mut args = lock(&shadow.args);
        if let Some(reason) = args.broken() {
            return unsimulated(reason.clone());
        }
        // Its records would be an earlier launch's: no need to run the annotated kernel.
        let keyed = if self.config.measure_every_launch {
            None
        } else {
            args.path_key(&shadow, range)
        };
        if let Some(Some(of)) = keyed {
            return LaunchPlan::Own(OwnLaunch::Repeat { kernel: name, of });
        }
        let key = keyed.map(|_| args.last_key.clone());
        let geometry = geometry(range);
        // An estimate the last run kept is taken before the paths are evaluated: the
        // model of an evaluated launch costs the model's thread as much as a measured
        // one's (tens of microseconds for `gauss_steps`' elimination).
        let remember = match self.recall(&shadow, &name, key.as_ref()) {
            Ok(id) => id,
            Err(remembered) => return LaunchPlan::Own(OwnLaunch::Remembered(remembered)),
        };
        if let (Some(key), Some(paths)) = (&key, &shadow.host_paths) {
            if let Some(launch) = self.evaluate(&shadow, paths, &args, range, &geometry) {
                return LaunchPlan::Own(OwnLaunch::Evaluated(Box::new(Evaluation {
                    kernel: name,
                    shadow: Arc::clone(&shadow),
                    key: key.clone(),
                    launch,
                    remember,
                })));
            }
        }
        if self.config.log >= Level::Debug {
            self.log(
                Level::Debug,
                &format!(
                    "launch of `{name}`: global {:?}, local {:?}",
                    geometry.global, geometry.local
                ),
            );
        }
        let context = match queue.context() {
            Ok(c) => c,
            Err(e) => return unsimulated(format!("queue context: {e}")),
        };
        let device = match queue.device() {
            Ok(d) => d,
            Err(e) => return unsimulated(format!("queue device: {e}")),
        };
        let own = match self.own_kernel(&shadow, &mut args) {
            Ok(kernel) => kernel,
            Err(reason) => return unsimulated(reason),
        };
        // Made just now, with what the application set so far: a setting that did not
        // mirror leaves the annotated kernel unlike the application's.
        if let Some(reason) = args.broken() {
            return unsimulated(reason.clone());
        }
        let (grain, twin) = self.grain(&shadow, range, &geometry, (device, own), &mut args);
        let words = grain.words(&shadow.model.format, &geometry) as usize;
        let Some(bytes) = words
            .checked_mul(WORD_BYTES)
            .filter(|b| *b <= isize::MAX as usize)
        else {
            return unsimulated(format!(
                "{} work-items need too large a records buffer",
                geometry.work_items()
            ));
        };
        self.make_room(context, device, bytes);
        let slot = match self.batches.take(context, device, bytes) {
            Ok(s) => s,
            Err(e) => return unsimulated(format!("records buffer of {bytes} bytes: {e}")),
        };
        if let Err(e) = twin.set_buffer_arg(shadow.records_arg, slot.mem) {
            self.abandon(slot);
            return unsimulated(format!("binding the records buffer: {e}"));
        }
        let counter = kept_counter(&self.batches, &slot, &shadow, grain, &geometry);
        if let Err(e) = reduction_args(&shadow, &mut args, grain, &geometry, counter) {
            self.abandon(slot);
            return unsimulated(format!("binding the warps' arguments: {e}"));
        }
        let regroup = grain == Grain::WorkItem && shadow.group_free;
        let run = self.shadow_range(&name, &shadow, &args, range, grain, (kernel, device));
        let event = match queue.enqueue_kernel(twin, &run, wait) {
            Ok(ev) => {
                if regroup {
                    groups::remember(&mut args.ran_in, &run);
                }
                ev
            }
            Err(e) => {
                self.abandon(slot);
                return unsimulated(format!("the annotated kernel did not enqueue: {e}"));
            }
        };
        let resources = kernel_resources(&shadow, &args);
        let mut buffer_bytes: Vec<(u32, u64)> = Vec::new();
        if !shadow.model.samples.is_empty() {
            buffer_bytes.extend(
                args.buffers
                    .iter()
                    .filter_map(|(&i, b)| b.map(|(_, size)| (i, size))),
            );
            buffer_bytes.sort_unstable();
        }
        drop(args);
        // The read of the records waits on the launch from the shim's own queue: the
        // application's queue must have submitted it (a flush, as OpenCL asks of events
        // waited on across queues; the runtime does it anyway, so it costs little).
        queue.flush();
        let index = self.push_launch(name, queue, range, &geometry, None);
        if let Some(key) = key {
            lock(&shadow.args).first_with(key, index);
        }
        self.remember_later(index, remember);
        // One reference for the application (or released for it), one for the read.
        event.retain();
        let pending = Pending {
            index,
            words,
            grain,
            geometry,
            resources,
            buffer_bytes,
            model: shadow.model.clone(),
        };
        let in_order = queue.in_order().then_some(queue);
        if let Some(full) = self.batches.commit(slot, in_order, event, pending) {
            self.read_back(full);
        }
        LaunchPlan::Twin(event)
    }

    /// The kernel's name and shadow, or why the launch runs unsimulated where it has none.
    fn launched_shadow(&self, kernel: Kernel) -> Result<(Arc<str>, Arc<Shadow>), String> {
        match lock(&self.state).kernels.get(&kernel) {
            None => Err("the kernel was not created through srcsim".to_string()),
            Some(k) => match &k.shadow {
                Ok(s) => Ok((k.name.clone(), Arc::clone(s))),
                Err(reason) => Err(reason.clone()),
            },
        }
    }

    /// The cells of a launch of `shadow`, whose paths the host evaluates (`paths`), where
    /// its work-groups are known (the application's, or any where its work-items cannot
    /// tell them apart: the model's) and every cell takes one path, with what the model's
    /// thread needs besides.
    fn evaluate(
        &self,
        shadow: &Shadow,
        paths: &Arc<HostPaths>,
        args: &ShadowArgs,
        range: &NdRange,
        geometry: &LaunchGeometry,
    ) -> Option<EvaluatedLaunch> {
        let arch = self.arch.as_ref().ok()?;
        if range.local.is_none() && !shadow.group_free {
            return None;
        }
        let values = args.values();
        let offset = range.offset.map(|o| o as u64);
        let launch = PathLaunch {
            work_dim: range.work_dim,
            global: geometry.global,
            local: geometry.local,
            offset,
            args: &values,
        };
        let cells = paths.cells(&launch)?;
        let grain = Grain::Warp {
            warp_size: arch.warp_size,
            sampled: false,
        };
        let words = usize::try_from(grain.count(geometry))
            .ok()?
            .checked_mul(paths.warp_stride())?;
        Some(EvaluatedLaunch {
            paths: Arc::clone(paths),
            cells,
            offset,
            pending: Pending {
                index: 0,
                words,
                grain,
                geometry: *geometry,
                resources: kernel_resources(shadow, args),
                buffer_bytes: Vec::new(),
                model: shadow.model.clone(),
            },
        })
    }

    /// Records a launch of the application's kernel whose paths the host evaluated: its
    /// records are computed and modelled on the model's thread.
    fn record_evaluated(&self, evaluation: Box<Evaluation>, queue: Queue, range: &NdRange) {
        self.stats.evaluated.fetch_add(1, Ordering::Relaxed);
        let Evaluation {
            kernel,
            shadow,
            key,
            mut launch,
            remember,
        } = *evaluation;
        let index = self.push_launch(kernel, queue, range, &launch.pending.geometry, None);
        lock(&shadow.args).first_with(key, index);
        self.remember_later(index, remember);
        launch.pending.index = index;
        self.submit(Job::Evaluated(Box::new(launch)));
    }

    /// Records a launch of the application's kernel that ran unannotated, and why; also
    /// the interposer's, for a launch it ran itself after a panic of srcsim's
    /// (`crate::launch_call`).
    pub(crate) fn record_unsimulated(
        &self,
        kernel: Kernel,
        queue: Queue,
        range: &NdRange,
        reason: String,
    ) {
        let name = lock(&self.state)
            .kernels
            .get(&kernel)
            .map(|k| Arc::clone(&k.name))
            .unwrap_or_else(|| kernel.name().unwrap_or_default().into());
        self.log(
            Level::Info,
            &format!("launch of `{name}` not simulated: {reason}"),
        );
        let geometry = geometry(range);
        self.push_launch(
            name,
            queue,
            range,
            &geometry,
            Some(Outcome::NotSimulated { reason }),
        );
    }

    /// Records a launch of the application's kernel that left the records launch `of` of
    /// the same kernel left: its estimate is that launch's.
    fn record_repeat(&self, kernel: Arc<str>, queue: Queue, range: &NdRange, of: usize) {
        self.stats.repeats.fetch_add(1, Ordering::Relaxed);
        // The outcome is settled at exit (`Report::settle_repeats`).
        let settled = Outcome::NotSimulated {
            reason: String::new(),
        };
        let launch = self.launch_entry(kernel, queue, range, &geometry(range), Some(settled));
        lock(&self.sink).repeated(launch, of);
        crate::progress::launched();
        crate::progress::done(1);
    }
}
