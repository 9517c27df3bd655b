//! The copies of annotated kernels that reduce records to warps: which grain a launch's
//! records come in, the copy made on first use (its program built, or put off on a first
//! run), and the arguments only a copy takes.

use std::sync::Arc;

use pipeline_model::records::{KeptLanes, KEPT_LANES_MAX_WARP, WORD_BYTES};
use pipeline_model::{Grain, LaunchGeometry};

use super::Shim;
use crate::batch::{Batches, Slot};
use crate::cl::{ClError, Context, Device, Kernel, NdRange};
use crate::config::Level;
use crate::keeper::{self, KeepJob};
use crate::modelling::lock;
use crate::shadow::{LazyProgram, MirroredSetting, SetArg, Shadow, ShadowArgs};

use super::groups::{copy_groups, Limits};
use super::twins::TWIN;

/// What the log calls the copies' program.
const COPIES: &str = "copies that reduce records to warps";

impl Shim {
    /// The grain the launch's records are written in, and the shadow that writes them: per
    /// warp, by the copy that reduces them, where the kernel has one, the device can run
    /// the groups the model deals (the application's, or the model's where it left their
    /// size to the runtime: `groups::copy_groups`), every group is whole, the lanes fit in
    /// the real device's local memory beside the kernel's own, and it pays: the kernel's third launch in a row of this work-group
    /// size, or records per work-item of a MiB or more where the kernel keeps its values
    /// private (the copy's barrier makes the CPU runtime's first compile for each
    /// work-group size several times slower, a cost a program of a few small launches
    /// would not win back; a kernel that keeps them in its record, one with a barrier,
    /// runs about as fast as its copy). Else per work-item, by the kernel itself.
    pub(super) fn grain(
        &self,
        shadow: &Shadow,
        range: &NdRange,
        geometry: &LaunchGeometry,
        (device, own): (Device, Kernel),
        args: &mut ShadowArgs,
    ) -> (Grain, Kernel) {
        let own = (Grain::WorkItem, own);
        let local = range.local.unwrap_or([0; 3]);
        args.repeated = match args.repeated {
            (l, n) if l == local => (l, n.saturating_add(1)),
            _ => (local, 1),
        };
        let (Ok(arch), Some(_)) = (&self.arch, &shadow.copy) else {
            return own;
        };
        let Some(l) = copy_groups(shadow, range, geometry) else {
            return own;
        };
        let whole = (0..3).all(|d| range.global[d].is_multiple_of(l[d]));
        // A kernel with sampled accesses keeps the lanes that ran one, marked in a word
        // per warp (`pipeline_model::KeptLanes`).
        let sampled = !shadow.model.samples.is_empty();
        if sampled && arch.warp_size > KEPT_LANES_MAX_WARP {
            return own;
        }
        let item_bytes =
            geometry.work_items() * (shadow.model.format.work_item_stride() * WORD_BYTES) as u64;
        let many = args.repeated.1 >= COPY_FROM_LAUNCH;
        let large = item_bytes >= COPY_FROM_RECORD_BYTES && !shadow.values_in_record;
        if !whole || !(many || large) {
            return own;
        }
        // A copy wanted on a first run (its program neither built nor kept): not worth
        // building now (most of a second, and its kernels' compile at their first launch)
        // unless the kernel keeps launching; it is built for the next run (by a keeper,
        // when the application releases the context or exits), else the next run builds
        // it at once.
        let keeps_launching = args.repeated.1 >= COPY_FROM_LAUNCH_UNBUILT;
        if let Some((copies, _)) = shadow.copy.as_ref().filter(|_| !keeps_launching) {
            let mut deferred = lock(&self.deferred);
            if deferred.iter().any(|d| Arc::ptr_eq(d, copies)) {
                return own;
            }
            if !self.copies_ready(copies) && !self.wanted_before(copies) {
                deferred.push(Arc::clone(copies));
                self.log(
                    Level::Debug,
                    "records stay per work-item on this first run: the copies that reduce them to warps are built for the next",
                );
                return own;
            }
        }
        let lanes = lanes_bytes(shadow, geometry);
        let used = shadow.model.static_shared_bytes + args.local_bytes.values().sum::<u64>();
        let local_memory = match args.device_local {
            Some((d, bytes)) if d == device => Some(bytes),
            _ => device.local_mem_bytes().ok(),
        };
        args.device_local = local_memory.map(|bytes| (device, bytes));
        if local_memory.is_none_or(|m| used + lanes > m) {
            return own;
        }
        // Work-groups the shim chose must be ones the runtime runs.
        if range.local.is_none() && !Limits::of(own.1, device).is_ok_and(|limits| limits.admit(l)) {
            return own;
        }
        match self.warp_kernel(shadow, args) {
            Some(warps) => (
                Grain::Warp {
                    warp_size: arch.warp_size,
                    sampled,
                },
                warps,
            ),
            None => own,
        }
    }

    /// `shadow`'s annotated kernel: made on first use (its program built where no launch
    /// built it yet), with every argument and exec info the application set so far, each
    /// noted as mirrored or not ([`ShadowArgs::mirrored`]). The reason where it cannot be
    /// made (then the launch runs unannotated).
    pub(super) fn own_kernel(
        &self,
        shadow: &Shadow,
        args: &mut ShadowArgs,
    ) -> Result<Kernel, String> {
        if let Some(made) = &args.own {
            return made.clone();
        }
        let (program, name) = &shadow.twin;
        let first = lock(&program.built).is_none();
        let built = self
            .lazily_built(program, TWIN)
            .map_err(|e| format!("the annotated program did not build: {e}"));
        if let (true, Err(reason)) = (first, &built) {
            self.warn_in_full("program not simulated", reason);
        }
        let made = built.and_then(|p| {
            p.kernel(name)
                .map_err(|e| format!("annotated kernel `{name}`: {e}"))
        });
        if let Ok(kernel) = made {
            mirror_all(kernel, args);
        }
        args.own = Some(made.clone());
        made
    }

    /// The copy of `shadow`'s kernel that reduces records to warps: made on first use
    /// (its program built, from the binaries a previous run kept where there are some),
    /// with every argument and exec info the application set so far. `None` where it
    /// cannot be made (then the kernel itself runs, a record per work-item).
    fn warp_kernel(&self, shadow: &Shadow, args: &mut ShadowArgs) -> Option<Kernel> {
        if let Some(made) = &args.warps {
            return made.as_ref().ok().copied();
        }
        let (program, name) = shadow.copy.as_ref()?;
        let made = self
            .lazily_built(program, COPIES)
            .and_then(|p| p.kernel(name).map_err(|e| format!("`{name}`: {e}")))
            .and_then(|k| {
                replay(k, args).map_err(|e| {
                    k.release();
                    format!("setting `{name}`'s arguments: {e}")
                })
            });
        if let Err(e) = &made {
            self.log(
                Level::Info,
                &format!("records stay per work-item, no copy reduces them to warps: {e}"),
            );
        }
        args.warps = Some(made.clone());
        made.ok()
    }

    /// Builds the copies' programs a first run put off (of `context`, being released), so
    /// that their binaries are kept for the next run; this run has no more use for them.
    /// At exit (`None`) nothing is built: PoCL's compiler may already be torn down by
    /// then (a crash in clang's file manager, under the application's exit), so the next
    /// run is told to build them when it first wants them.
    pub(super) fn build_deferred(&self, context: Option<Context>) {
        let now: Vec<Arc<LazyProgram>> = {
            let mut deferred = lock(&self.deferred);
            let (now, later) = deferred
                .drain(..)
                .partition(|w| context.is_none_or(|c| w.context == c));
            *deferred = later;
            now
        };
        if now.is_empty() {
            return;
        }
        let kept = self.cache();
        for copies in now {
            // A keeper builds them and keeps their binaries, after this run if need be
            // (not in a private directory: no later run would take them).
            let job = KeepJob::new(
                &copies.source,
                &copies.options,
                keeper::identities(&copies.devices),
                &kept.cache,
                &kept.builds,
            );
            if !kept.lasting() {
                continue;
            }
            if keeper::spawn(&job) {
                // The keeper builds them after this run; a run that starts before it is
                // done builds them itself rather than put them off again (a first run
                // once, however fast the keeper).
                self.mark_wanted(&copies);
                continue;
            }
            if context.is_none() {
                self.mark_wanted(&copies);
                continue;
            }
            // Kept with the shadow program like any other build (or the reason it failed).
            let _ = self.lazily_built(&copies, COPIES);
        }
    }

    /// Starts the keepers of the binaries of the programs built from source so far.
    pub(super) fn start_keepers(&self) {
        let jobs = std::mem::take(&mut *lock(&self.keeping));
        for job in jobs {
            if !keeper::spawn(&job) {
                self.log(Level::Debug, "no keeper could start: binaries not kept");
            }
        }
    }

    /// Whether the copies' program is built or its binaries are kept (a fast build).
    fn copies_ready(&self, w: &LazyProgram) -> bool {
        lock(&w.built).is_some() || self.kept_binaries(w)
    }
}

/// The launch in a row, with one work-group size, from which a kernel's copy that
/// reduces records to warps runs: a program of one or two launches per size would not win
/// back the copy's slower first compile (measured in docs/performance.md).
const COPY_FROM_LAUNCH: u32 = 3;
/// On a first run, whose copies' program is neither built nor kept, the launch in a row
/// from which the copy runs: the program is built then (kmeans' five launches, cold:
/// about 0.5 s more with the copies built at the third, docs/performance.md).
const COPY_FROM_LAUNCH_UNBUILT: u32 = 32;
/// Records per work-item from which the copy runs at once: more than the copy's first
/// compile costs to move, compare and walk.
const COPY_FROM_RECORD_BYTES: u64 = 1 << 20;

/// Sets on `kernel`, just made, every argument and exec info set so far (`args`), in
/// turn: each setting and what the runtime said.
fn set_all(kernel: Kernel, args: &ShadowArgs) -> Vec<(MirroredSetting, Result<(), ClError>)> {
    let arguments = args.set.iter().map(|(&index, value)| match value {
        SetArg::Value(bytes) => (
            MirroredSetting::Arg(index),
            kernel.set_arg_bytes(index, bytes),
        ),
        SetArg::Null(size) => (
            MirroredSetting::Arg(index),
            kernel.set_local_arg(index, *size),
        ),
        SetArg::Svm(p) => (
            MirroredSetting::SvmArg(index),
            kernel.set_svm_arg(index, *p),
        ),
    });
    let exec_info = args.exec_info.iter().map(|(&param, value)| {
        (
            MirroredSetting::ExecInfo(param),
            kernel.set_exec_info(param, value),
        )
    });
    arguments.chain(exec_info).collect()
}

/// Sets on the annotated kernel `kernel`, just made, everything set so far, each setting
/// noted in `args` as mirrored or not, as when the application sets it.
fn mirror_all(kernel: Kernel, args: &mut ShadowArgs) {
    for (setting, result) in set_all(kernel, args) {
        args.mirrored(
            setting,
            result.err().map_or(crate::ffi::CL_SUCCESS, |e| e.0),
        );
    }
}

/// Sets on `kernel` everything set so far (`args`): the first failure, if any.
fn replay(kernel: Kernel, args: &ShadowArgs) -> Result<Kernel, ClError> {
    set_all(kernel, args)
        .into_iter()
        .try_for_each(|(_, result)| result)
        .map(|()| kernel)
}

/// Bytes of the lanes a kernel that reduces its records to warps holds per work-group:
/// its values per work-item (`RecordFormat::lane_values`).
fn lanes_bytes(shadow: &Shadow, geometry: &LaunchGeometry) -> u64 {
    let sampled = !shadow.model.samples.is_empty();
    geometry.work_group_size() * (shadow.model.format.lane_values(sampled) * WORD_BYTES) as u64
}

/// The kept lanes' counter as `slot`'s last launch left it, where the launch keeps lanes
/// (`pipeline_model::KeptLanes::counter`): its copy counts on from there.
pub(super) fn kept_counter<T>(
    batches: &Batches<T>,
    slot: &Slot,
    shadow: &Shadow,
    grain: Grain,
    geometry: &LaunchGeometry,
) -> Option<u32> {
    let Grain::Warp {
        warp_size,
        sampled: true,
    } = grain
    else {
        return None;
    };
    let at = geometry
        .kept_lanes(&shadow.model.format, warp_size)
        .counter();
    Some(batches.word(slot, at).map_or(0, KeptLanes::counter_value))
}

/// Sets the lanes and the warp size of the copy that reduces the records to warps, where
/// the launch is in warps and they changed since its last such launch, and the kept
/// lanes' `counter` before the launch where it keeps them (`pipeline_model::KeptLanes`).
pub(super) fn reduction_args(
    shadow: &Shadow,
    args: &mut ShadowArgs,
    grain: Grain,
    geometry: &LaunchGeometry,
    counter: Option<u32>,
) -> Result<(), ClError> {
    let (Grain::Warp { warp_size, .. }, Some(Ok(warps))) = (grain, &args.warps) else {
        return Ok(());
    };
    let warps = *warps;
    let wanted = (lanes_bytes(shadow, geometry) as usize, warp_size);
    if args.reduction != Some(wanted) {
        // Unknown until both are set.
        args.reduction = None;
        warps.set_local_arg(shadow.records_arg + 1, wanted.0)?;
        warps.set_uint_arg(shadow.records_arg + 2, wanted.1)?;
        args.reduction = Some(wanted);
    }
    if let Some(start) = counter {
        warps.set_uint_arg(shadow.records_arg + 3, start)?;
    }
    Ok(())
}
