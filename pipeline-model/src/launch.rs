//! What the model is given of a launch: its NDRange and its work-items' counter records.

use serde::Serialize;

use crate::records::{KeptLanes, RecordFormat};

/// The NDRange of a launch, in work-items; dimensions beyond the launch's are 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LaunchGeometry {
    /// Global size per dimension.
    pub global: [u64; 3],
    /// Local (work-group) size per dimension; the last group of a dimension may be partial.
    pub local: [u64; 3],
}

impl LaunchGeometry {
    /// Work-items in the launch.
    pub fn work_items(&self) -> u64 {
        self.global.iter().product()
    }

    /// Work-items in a full work-group.
    pub fn work_group_size(&self) -> u64 {
        self.local.iter().product()
    }

    /// Work-groups per dimension.
    pub fn groups(&self) -> [u64; 3] {
        [0, 1, 2].map(|d| self.global[d].div_ceil(self.local[d]))
    }

    /// Where this launch's records of `format` in warps of `warp_size` keep the lanes that
    /// ran a sampled access ([`Grain::Warp`] with `sampled`; whole work-groups).
    pub fn kept_lanes(&self, format: &RecordFormat, warp_size: u32) -> KeptLanes {
        let [x, y, z] = self.groups();
        KeptLanes::new(format, x * y * z, self.work_group_size(), warp_size)
    }
}

/// The counter records of a launch, in one of two grains ([`Grain`]), laid out as
/// [`RecordFormat`] says. Per work-item: one record per work-item, in linear global id
/// order ([`crate::records::linear_id`]), each `[t, use_0 .. use_{R-1}, arm_0 ..
/// arm_{A-1}]` and whatever the format has after them: the cycles, the usage of the
/// architecture's R resources, and the cycles spent in each of the kernel's A divergent
/// arms. The usage counters are in units of `1 / usage_scale` cycles
/// ([`crate::Architecture::usage_scale`]), so that fractional usage stays exact in integers.
#[derive(Debug, Clone, Copy)]
pub struct Records<'a> {
    /// The flat counter buffer.
    pub data: &'a [u64],
    /// What each record holds: R must be the architecture's resources.
    pub format: RecordFormat,
    /// Usage counter units per cycle.
    pub usage_scale: u64,
    /// Whether the records are the work-items' own or already reduced to warps.
    pub grain: Grain,
    /// Warp records only: per work-group (linear, x fastest), the place in `data` whose
    /// records are its own (group `g`'s records are then at `shared[g] * ceil(lx * ly *
    /// lz / warp_size)`), so that work-groups alike share one copy of their records (a
    /// launch whose paths the host evaluated writes each distinct group once). `None`:
    /// every group at its own place.
    pub shared: Option<&'a [u32]>,
}

/// Whose counts a launch's records hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Grain {
    /// One record per work-item, as [`Records`] describes.
    WorkItem,
    /// One record per warp of `warp_size` work-items, reduced where the work-items ran
    /// (the annotated kernel does it, so that a launch moves a record per warp rather than
    /// per work-item; [`crate::records::WarpRecord`]): `[outside, t_max, use_0 .. use_{R-1}, arm_0 .. arm_{A-1}, bytes]`,
    /// the most any lane spent outside the divergent arms (its `t` less its arms' cycles),
    /// the most any lane spent in all, per resource and per arm the most any lane used or
    /// spent, and the lanes' usage of the memory side summed (the architecture's L2
    /// resource, else its DRAM resource; 0 with neither). A work-group's warps are its
    /// local linear ids (`x + y * lx + z * lx * ly`) in runs of `warp_size`; group `g`
    /// (linear, x fastest) has its warps' records from `g * ceil(lx * ly * lz /
    /// warp_size)`.
    ///
    /// With `sampled` (a kernel with sampled accesses, whose counters the model reads lane
    /// by lane), the warp records are of the lanes that ran none of them, and the lanes
    /// that did are kept whole beside them ([`crate::records::KeptLanes`]).
    Warp {
        /// Work-items per warp the records were reduced with: the architecture's.
        warp_size: u32,
        /// The lanes that ran a sampled access are kept whole.
        sampled: bool,
    },
}

impl<'a> Records<'a> {
    /// Records of one record per work-item ([`Grain::WorkItem`]).
    pub fn per_work_item(data: &'a [u64], format: RecordFormat, usage_scale: u64) -> Self {
        Records {
            data,
            format,
            usage_scale,
            grain: Grain::WorkItem,
            shared: None,
        }
    }

    /// Values per record.
    pub fn stride(&self) -> usize {
        self.grain.stride(&self.format)
    }

    /// Records a launch of `geometry` has (with [`Records::shared`], those of its
    /// distinct groups: as many groups' as `data` holds).
    pub fn count(&self, geometry: &LaunchGeometry) -> u64 {
        match (self.shared, self.grain) {
            (Some(_), Grain::Warp { warp_size, .. }) => {
                let group_warps = geometry.work_group_size().div_ceil(u64::from(warp_size));
                let per_group = group_warps * self.stride() as u64;
                (self.data.len() as u64).div_ceil(per_group.max(1)) * group_warps
            }
            _ => self.grain.count(geometry),
        }
    }
}

impl Grain {
    /// Values of a record of `format` in this grain.
    pub const fn stride(self, format: &RecordFormat) -> usize {
        match self {
            Grain::WorkItem => format.work_item_stride(),
            Grain::Warp { .. } => format.warp_stride(),
        }
    }

    /// Records a launch of `geometry` has in this grain.
    pub fn count(self, geometry: &LaunchGeometry) -> u64 {
        match self {
            Grain::WorkItem => geometry.work_items(),
            Grain::Warp { warp_size, .. } => {
                let [x, y, z] = geometry.groups();
                x * y * z * geometry.work_group_size().div_ceil(u64::from(warp_size))
            }
        }
    }

    /// Values the device writes for a launch of `geometry` in this grain: its records,
    /// and in warps with `sampled`, the kept lanes' part after them
    /// ([`crate::records::KeptLanes::device_words`]).
    pub fn words(self, format: &RecordFormat, geometry: &LaunchGeometry) -> u64 {
        match self {
            Grain::Warp {
                warp_size,
                sampled: true,
            } => geometry.kept_lanes(format, warp_size).device_words(),
            _ => self.count(geometry) * self.stride(format) as u64,
        }
    }
}
