//! What the model is given of a launch: its NDRange and its work-items' counter records.

use serde::Serialize;

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
}

/// The counter records of a launch: one record per work-item, in linear global id order
/// (`x + y * gx + z * gx * gy`, offsets removed), each `[t, use_0 .. use_{R-1}, arm_0 ..
/// arm_{A-1}]`: the cycles, the usage of the architecture's R resources, and the cycles
/// spent in each of the kernel's A divergent arms; the usage counters are in units of
/// `1 / usage_scale` cycles
/// ([`crate::Architecture::usage_scale`]), so that fractional usage stays exact in integers.
#[derive(Debug, Clone, Copy)]
pub struct Records<'a> {
    /// The flat counter buffer.
    pub data: &'a [u64],
    /// Values after `t` per record: the R resources, in the order of
    /// [`crate::Architecture::resources`], then the A divergent arms.
    pub resources: usize,
    /// Usage counter units per cycle.
    pub usage_scale: u64,
}
