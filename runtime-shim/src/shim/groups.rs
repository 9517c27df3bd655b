//! The work-groups a group-free kernel's annotated twin runs in.
//!
//! PoCL compiles a kernel anew for each work-group size it is launched with, and the
//! annotated kernel's compile costs about twice the application's (`docs/performance.md`,
//! session 18: 38 against 15 ms of work-group code generation and 79 against 49 ms of
//! machine code for the microbenchmark's kernel). A program that sweeps the work-group
//! size, as a microbenchmark or an autotuner does, pays that at every size of its first
//! run. A kernel whose work-items cannot tell work-groups apart
//! (`annotator::back::sidecar::AnnotatedKernel::group_free`) writes the same records, and
//! computes the same results, in work-groups of any size that divides the launch; so where
//! the application's size is new to the twin, it runs in a size it has run in before if
//! that one is the largest power of two of at most [`RUN_IN_AT_MOST`] work-items that
//! divides the application's (dimension by dimension), and so divides the launch. The
//! model still takes the application's work-groups: only the device's partition of the
//! work-items changes.

use pipeline_model::{Grain, LaunchGeometry};

use crate::cl::{ClError, Device, Kernel, NdRange};
use crate::config::Level;
use crate::shadow::{Shadow, ShadowArgs};

use super::Shim;

/// The most work-items of the smaller work-groups a twin runs in instead of the
/// application's: two warps of 32 on the architectures srcsim models, small enough to
/// divide the sizes programs commonly sweep, so that few sizes are compiled.
pub(super) const RUN_IN_AT_MOST: usize = 64;

/// At most this many sizes are remembered per kernel.
const REMEMBERED: usize = 64;

/// What the real runtime accepts of a launch's work-groups: the application's launch
/// must be one it would run (else it gets the runtime's error from its own kernel).
#[derive(Debug, Clone, Copy)]
pub(super) struct Limits {
    /// `CL_KERNEL_WORK_GROUP_SIZE` of the application's kernel on the device.
    pub work_group: usize,
    /// `CL_DEVICE_MAX_WORK_ITEM_SIZES`.
    pub items: [usize; 3],
}

impl Limits {
    /// The real runtime's limits for `kernel` on `device`.
    pub(super) fn of(kernel: Kernel, device: Device) -> Result<Limits, ClError> {
        Ok(Limits {
            work_group: kernel.work_group_size(device)?,
            items: device.max_work_item_sizes()?,
        })
    }

    pub(super) fn admit(&self, local: [usize; 3]) -> bool {
        local.iter().product::<usize>() <= self.work_group
            && local.iter().zip(self.items).all(|(l, max)| *l <= max)
    }
}

/// The largest power of two of at most [`RUN_IN_AT_MOST`] work-items that divides
/// `local`, dimension by dimension (the first dimension takes what it can first).
pub(super) fn smaller_groups(work_dim: u32, local: [usize; 3]) -> [usize; 3] {
    let mut budget = RUN_IN_AT_MOST;
    let mut smaller = [1; 3];
    for d in 0..work_dim as usize {
        // The lowest set bit: the largest power of two dividing the size.
        smaller[d] = (local[d] & local[d].wrapping_neg()).min(budget);
        budget /= smaller[d];
    }
    smaller
}

/// The range a group-free kernel's twin runs over for the application's `range`, given
/// the sizes it `ran_in` before: the application's, unless that size is new and its
/// [`smaller_groups`] are not, the application's work-groups divide its launch, and the
/// runtime would have run them (`limits`, asked only then).
pub(super) fn twin_range(
    ran_in: &[[usize; 3]],
    range: &NdRange,
    limits: impl FnOnce() -> Option<Limits>,
) -> NdRange {
    let Some(local) = range.local else {
        return *range;
    };
    if ran_in.contains(&local) {
        return *range;
    }
    let smaller = smaller_groups(range.work_dim, local);
    let whole = (0..3).all(|d| range.global[d].is_multiple_of(local[d]));
    if whole && ran_in.contains(&smaller) && limits().is_some_and(|l| l.admit(local)) {
        NdRange {
            local: Some(smaller),
            ..*range
        }
    } else {
        *range
    }
}

impl Shim {
    /// The range the annotated twin of `kernel`, a group-free kernel named `name`, runs
    /// over on `device` for the application's `range` ([`twin_range`]).
    pub(super) fn regrouped(
        &self,
        name: &str,
        ran_in: &[[usize; 3]],
        range: &NdRange,
        kernel: Kernel,
        device: Device,
    ) -> NdRange {
        let run = twin_range(ran_in, range, || Limits::of(kernel, device).ok());
        if run.local != range.local && self.config.log >= Level::Debug {
            self.log(
                Level::Debug,
                &format!(
                    "`{name}` runs annotated in work-groups of {:?}, compiled before (its \
                     work-items cannot tell work-groups apart)",
                    run.local.unwrap_or_default()
                ),
            );
        }
        run
    }

    /// The range a launch's shadow (`twin`, writing records in `grain`) runs over: a
    /// group-free kernel's twin in work-groups compiled before ([`Shim::regrouped`]), a
    /// copy in the work-groups it reduces ([`copy_groups`]), else the application's.
    pub(super) fn shadow_range(
        &self,
        name: &str,
        shadow: &Shadow,
        args: &ShadowArgs,
        range: &NdRange,
        grain: Grain,
        (kernel, device): (Kernel, Device),
    ) -> NdRange {
        match grain {
            Grain::WorkItem if shadow.group_free => {
                self.regrouped(name, &args.ran_in, range, kernel, device)
            }
            Grain::WorkItem => *range,
            Grain::Warp { .. } => NdRange {
                local: copy_groups(shadow, range, &super::geometry(range)),
                ..*range
            },
        }
    }
}

/// The work-groups a launch's copy that reduces records to warps runs in: the
/// application's; or, where it left their size to the runtime, the model's (`geometry`),
/// if the kernel's work-items cannot tell work-groups apart (`group_free`: the copy then
/// computes what the kernel computes in any work-groups, and reduces the warps the model
/// forms from the same work-items' records). `None`: no copy runs.
pub(super) fn copy_groups(
    shadow: &Shadow,
    range: &NdRange,
    geometry: &LaunchGeometry,
) -> Option<[usize; 3]> {
    match range.local {
        Some(l) => Some(l),
        None if shadow.group_free => Some(geometry.local.map(|l| l as usize)),
        None => None,
    }
}

/// Notes the work-groups the twin ran in over `run`.
pub(super) fn remember(ran_in: &mut Vec<[usize; 3]>, run: &NdRange) {
    if let Some(local) = run.local {
        if !ran_in.contains(&local) && ran_in.len() < REMEMBERED {
            ran_in.push(local);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(work_dim: u32, global: [usize; 3], local: Option<[usize; 3]>) -> NdRange {
        NdRange {
            work_dim,
            offset: [0; 3],
            global,
            local,
        }
    }

    const ROOMY: Option<Limits> = Some(Limits {
        work_group: 4096,
        items: [4096; 3],
    });

    #[test]
    fn smaller_groups_are_the_largest_power_of_two_dividing_up_to_64() {
        assert_eq!(smaller_groups(1, [1, 1, 1]), [1, 1, 1]);
        assert_eq!(smaller_groups(1, [96, 1, 1]), [32, 1, 1]);
        assert_eq!(smaller_groups(1, [1024, 1, 1]), [64, 1, 1]);
        assert_eq!(smaller_groups(1, [100, 1, 1]), [4, 1, 1]);
        assert_eq!(smaller_groups(2, [16, 16, 1]), [16, 4, 1]);
        assert_eq!(smaller_groups(3, [2, 6, 8]), [2, 2, 8]);
        assert_eq!(smaller_groups(3, [1, 1, 128]), [1, 1, 64]);
    }

    /// The microbenchmark's sweep: one kernel in single work-groups of 1, 32, 64, ...,
    /// 1024 work-items runs its twin in three sizes, not 33.
    #[test]
    fn a_sweep_of_work_group_sizes_runs_in_few() {
        let mut ran_in = Vec::new();
        let mut runs = Vec::new();
        for size in std::iter::once(1).chain((32..=1024).step_by(32)) {
            let app = range(1, [size, 1, 1], Some([size, 1, 1]));
            let run = twin_range(&ran_in, &app, || ROOMY);
            assert_eq!((run.global, run.offset), (app.global, app.offset));
            assert!(size.is_multiple_of(run.local.unwrap()[0]), "{size}");
            remember(&mut ran_in, &run);
            runs.push(run.local.unwrap()[0]);
        }
        assert_eq!(ran_in, vec![[1, 1, 1], [32, 1, 1], [64, 1, 1]]);
        assert_eq!(&runs[..6], &[1, 32, 64, 32, 64, 32]);
    }

    #[test]
    fn the_applications_groups_stay_where_nothing_is_gained_or_it_would_fail() {
        // The first size of a kernel, and one it ran in before.
        let app = range(1, [4096, 1, 1], Some([256, 1, 1]));
        assert_eq!(twin_range(&[], &app, || ROOMY), app);
        assert_eq!(twin_range(&[[256, 1, 1]], &app, || ROOMY), app);
        // Its smaller groups never ran: nothing is gained.
        assert_eq!(twin_range(&[[32, 1, 1]], &app, || ROOMY), app);
        // Ran in 64 before: runs in 64.
        let ran = [[64, 1, 1]];
        assert_eq!(twin_range(&ran, &app, || ROOMY).local, Some([64, 1, 1]));
        // Unless the runtime would refuse the application's groups, or cannot say.
        let tight = Some(Limits {
            work_group: 128,
            items: [4096; 3],
        });
        assert_eq!(twin_range(&ran, &app, || tight), app);
        let narrow = Some(Limits {
            work_group: 4096,
            items: [128, 128, 128],
        });
        assert_eq!(twin_range(&ran, &app, || narrow), app);
        assert_eq!(twin_range(&ran, &app, || None), app);
        // Or its groups do not divide the launch (OpenCL 2's uneven last group).
        let uneven = range(1, [4000, 1, 1], Some([256, 1, 1]));
        assert_eq!(twin_range(&ran, &uneven, || ROOMY), uneven);
        // Or the runtime chooses them.
        let chosen = range(1, [4096, 1, 1], None);
        assert_eq!(twin_range(&ran, &chosen, || ROOMY), chosen);
    }

    #[test]
    fn the_runtime_is_asked_only_when_groups_would_change() {
        let app = range(1, [4096, 1, 1], Some([256, 1, 1]));
        let asked = std::cell::Cell::new(0);
        let ask = || {
            asked.set(asked.get() + 1);
            ROOMY
        };
        twin_range(&[[256, 1, 1]], &app, ask);
        twin_range(&[[32, 1, 1]], &app, ask);
        assert_eq!(asked.get(), 0);
        twin_range(&[[64, 1, 1]], &app, ask);
        assert_eq!(asked.get(), 1);
    }

    #[test]
    fn remembers_each_size_once_and_a_bounded_number() {
        let mut ran_in = Vec::new();
        for size in 1..=200 {
            let run = range(1, [size, 1, 1], Some([size, 1, 1]));
            remember(&mut ran_in, &run);
            remember(&mut ran_in, &run);
        }
        remember(&mut ran_in, &range(1, [8, 1, 1], None));
        assert_eq!(ran_in.len(), REMEMBERED);
        assert_eq!(ran_in[..3], [[1, 1, 1], [2, 1, 1], [3, 1, 1]]);
    }
}
