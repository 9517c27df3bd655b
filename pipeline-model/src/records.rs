//! The counter record, defined once. An annotated kernel's work-items (or its copy's
//! warps) write one record each into the records buffer; the annotator's code generation
//! writes them in this layout, the sidecar serialises it, the host's evaluation of paths
//! writes warp records through it, and the model and the shim read through it. Nothing
//! else computes a stride or an offset: a side that drifted from the others would misread
//! records silently.
//!
//! A work-item's record, `ulong`s in this order ([`RecordFormat::work_item_stride`]):
//!
//! | values | what |
//! | --- | --- |
//! | 1 | `t`: the cycles the work-item was charged |
//! | R | per resource of the architecture, its usage (units of `1 / usage_scale` cycles) |
//! | 3 A | per divergent arm of the file ([`ARM_VALUES`]): the cycles charged inside it, then (A later) the times the work-item entered it, then (2 A later) the times it took either side of the arm's branch |
//! | P | the profile's counters (profile mode only; their meaning is the sidecar's) |
//! | 3 S | per sampled access, [`SAMPLE_COUNTERS`]: executions, first and last index |
//!
//! The first `1 + R + 3 A` values are what the model reads ([`RecordFormat::timing_width`]);
//! the correction of sampled accesses packs them to the front of the buffer
//! ([`RecordFormat::timing`] describes the packed records). A warp's record
//! ([`RecordFormat::warp_stride`]) is `[outside, t_max, use.., arm.., arm sum..,
//! entries.., decisions.., bytes]` ([`WarpRecord`]): per arm the slowest lane's cycles in
//! it, the lanes' cycles in it summed, their entries summed, and the most decisions of
//! its branch a lane took.
//!
//! ```
//! use pipeline_model::records::RecordFormat;
//!
//! // Four resources, two arms, a profile of 7 counters, 2 sampled accesses.
//! let format = RecordFormat { resources: 4, arms: 2, profile_counters: 7, sampled_accesses: 2 };
//! assert_eq!(format.timing_width(), 1 + 4 + 3 * 2);
//! assert_eq!(format.profile_offset(), 11);
//! assert_eq!(format.sample_offset(1), 11 + 7 + 3);
//! assert_eq!(format.work_item_stride(), 11 + 7 + 6);
//! assert_eq!(format.warp_stride(), 2 + 4 + 4 * 2 + 1);
//! let rec: Vec<u64> = (0..24).collect();
//! let r = format.item(&rec);
//! assert_eq!((r.t(), r.usage(), r.arms()), (0, &[1, 2, 3, 4][..], &[5, 6][..]));
//! assert_eq!((r.arm_entries(), r.arm_decisions()), (&[7, 8][..], &[9, 10][..]));
//! ```

use serde::{Deserialize, Serialize};

/// Bytes of one record value (an OpenCL `ulong`).
pub const WORD_BYTES: usize = 8;

/// Values a divergent arm keeps in a work-item's record: its cycles, its entries, its
/// branch's decisions (each in a run of [`RecordFormat::arms`] values).
pub const ARM_VALUES: usize = 3;

/// At most this many divergent arm counters a kernel's record holds (each adds
/// [`ARM_VALUES`] values); the annotator charges arms beyond them to the code around them.
pub const MAX_ARMS: usize = 16;

/// Values a sampled access keeps in a record, from its slot: how many times the
/// work-item ran it ([`SAMPLE_RUNS`]), the index it used the first time
/// ([`SAMPLE_FIRST`]) and the last ([`SAMPLE_LAST`]).
pub const SAMPLE_COUNTERS: usize = 3;
/// Offset of a sampled access's executions from its slot.
pub const SAMPLE_RUNS: usize = 0;
/// Offset of the index a sampled access used first.
pub const SAMPLE_FIRST: usize = 1;
/// Offset of the index a sampled access used last.
pub const SAMPLE_LAST: usize = 2;

/// The OpenCL C expression of a work-item's record index: its linear global id, offsets
/// removed ([`linear_id`]).
pub const LINEAR_ID_OPENCL: &str = "(get_global_id(2) - get_global_offset(2)) * get_global_size(1) * get_global_size(0)\n              + (get_global_id(1) - get_global_offset(1)) * get_global_size(0)\n              + (get_global_id(0) - get_global_offset(0))";

/// The index of the record of the work-item at `id` (global id less the offset) in a
/// launch of `global` work-items per dimension: `x + y * gx + z * gx * gy`, as
/// [`LINEAR_ID_OPENCL`] computes it on the device.
#[inline]
pub fn linear_id(id: [u64; 3], global: [u64; 3]) -> u64 {
    (id[2] * global[1] + id[1]) * global[0] + id[0]
}

/// What a kernel file's records hold: how many values of each kind, in the order the
/// module gives. Serialised in the sidecar (with the stride it implies), and the one
/// place every stride and offset comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct RecordFormat {
    /// Resources of the architecture whose usage a record counts.
    pub resources: usize,
    /// Divergent arms of the annotated file (every kernel's record has them all).
    pub arms: usize,
    /// Profile counters (0 without the profile).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub profile_counters: usize,
    /// Sampled accesses of the file, each [`SAMPLE_COUNTERS`] values.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub sampled_accesses: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl RecordFormat {
    /// Records of `t`, the usage of `resources` resources and `arms` arms: what the model
    /// reads.
    pub const fn timing(resources: usize, arms: usize) -> Self {
        RecordFormat {
            resources,
            arms,
            profile_counters: 0,
            sampled_accesses: 0,
        }
    }

    /// The timing values alone ([`RecordFormat::timing_width`] per record): the records
    /// once the model's correction has packed them, or a warp's.
    pub const fn timing_only(&self) -> Self {
        RecordFormat::timing(self.resources, self.arms)
    }

    /// Values at the start of a work-item's record that the model reads: `t`, the usage,
    /// the arms' values.
    pub const fn timing_width(&self) -> usize {
        1 + self.resources + ARM_VALUES * self.arms
    }

    /// Values of a work-item's record.
    pub const fn work_item_stride(&self) -> usize {
        self.timing_width() + self.profile_counters + SAMPLE_COUNTERS * self.sampled_accesses
    }

    /// Values a work-item leaves in its work-group's lanes for the reduction to warps: its
    /// timing values, and with `sampled` (a kernel with sampled accesses), after them
    /// whether it ran one (non-zero: its record is kept whole, [`KeptLanes`]) and its
    /// sampled accesses' counters.
    pub const fn lane_values(&self, sampled: bool) -> usize {
        if sampled {
            self.lane_sample(SAMPLE_COUNTERS * self.sampled_accesses)
        } else {
            self.timing_width()
        }
    }

    /// Index, among a work-item's lane values, of whether it ran a sampled access (a
    /// kernel with sampled accesses; its timing values come first, at their record
    /// indices).
    pub const fn lane_ran(&self) -> usize {
        self.timing_width()
    }

    /// Index, among a work-item's lane values, of its sampled accesses' counter `c` (of
    /// `3 S`, in the record's order).
    pub const fn lane_sample(&self, c: usize) -> usize {
        self.lane_ran() + 1 + c
    }

    /// Values of a warp's record: `[outside, t_max, use.., arm.., arm sum.., entries..,
    /// decisions.., bytes]`.
    pub const fn warp_stride(&self) -> usize {
        2 + self.resources + 4 * self.arms + 1
    }

    /// Index of `t` in a work-item's record.
    pub const T: usize = 0;

    /// Index of resource `r`'s usage in a work-item's record.
    pub const fn usage(&self, r: usize) -> usize {
        1 + r
    }

    /// Values of all arms in a work-item's record (from [`RecordFormat::arm`]`(0)`).
    pub const fn arm_values(&self) -> usize {
        ARM_VALUES * self.arms
    }

    /// Index of arm `a`'s cycles in a work-item's record.
    pub const fn arm(&self, a: usize) -> usize {
        1 + self.resources + a
    }

    /// Index of the times the work-item entered arm `a`, in its record.
    pub const fn arm_entries(&self, a: usize) -> usize {
        1 + self.resources + self.arms + a
    }

    /// Index of the times the work-item took either side of arm `a`'s branch (its
    /// entries and its sibling's), in its record.
    pub const fn arm_decisions(&self, a: usize) -> usize {
        1 + self.resources + 2 * self.arms + a
    }

    /// Index of the first profile counter in a work-item's record.
    pub const fn profile_offset(&self) -> usize {
        self.timing_width()
    }

    /// Index of sampled access `i`'s first counter ([`SAMPLE_RUNS`]) in a work-item's
    /// record (its slot).
    pub const fn sample_offset(&self, i: usize) -> usize {
        self.timing_width() + self.profile_counters + SAMPLE_COUNTERS * i
    }

    /// Index of the slowest lane's time outside the arms in a warp's record.
    pub const WARP_OUTSIDE: usize = 0;
    /// Index of the slowest lane's whole time in a warp's record.
    pub const WARP_T_MAX: usize = 1;

    /// Index of resource `r`'s largest lane usage in a warp's record.
    pub const fn warp_usage(&self, r: usize) -> usize {
        2 + r
    }

    /// Index of arm `a`'s slowest lane in a warp's record.
    pub const fn warp_arm(&self, a: usize) -> usize {
        2 + self.resources + a
    }

    /// Index of the lanes' cycles in arm `a` summed, in a warp's record.
    pub const fn warp_arm_sum(&self, a: usize) -> usize {
        2 + self.resources + self.arms + a
    }

    /// Index of the lanes' entries into arm `a` summed, in a warp's record.
    pub const fn warp_arm_entries(&self, a: usize) -> usize {
        2 + self.resources + 2 * self.arms + a
    }

    /// Index of the most decisions of arm `a`'s branch a lane took, in a warp's record.
    pub const fn warp_arm_decisions(&self, a: usize) -> usize {
        2 + self.resources + 3 * self.arms + a
    }

    /// Index of the lanes' memory-side usage summed, in a warp's record.
    pub const fn warp_bytes(&self) -> usize {
        2 + self.resources + 4 * self.arms
    }

    /// Work-item record `rec` (at least [`RecordFormat::timing_width`] values), read.
    #[inline]
    pub fn item<'a>(&self, rec: &'a [u64]) -> ItemRecord<'a> {
        ItemRecord {
            values: rec,
            resources: self.resources,
            arms: self.arms,
        }
    }

    /// Warp record `rec` ([`RecordFormat::warp_stride`] values), read.
    #[inline]
    pub fn warp<'a>(&self, rec: &'a [u64]) -> WarpRecord<'a> {
        WarpRecord {
            values: rec,
            resources: self.resources,
            arms: self.arms,
        }
    }
}

/// A work-item's record, read through its [`RecordFormat`].
#[derive(Debug, Clone, Copy)]
pub struct ItemRecord<'a> {
    values: &'a [u64],
    resources: usize,
    arms: usize,
}

impl<'a> ItemRecord<'a> {
    /// The cycles charged.
    #[inline]
    pub fn t(&self) -> u64 {
        self.values[RecordFormat::T]
    }

    /// Per resource, its usage.
    #[inline]
    pub fn usage(&self) -> &'a [u64] {
        &self.values[1..1 + self.resources]
    }

    /// Per divergent arm, the cycles charged inside it.
    #[inline]
    pub fn arms(&self) -> &'a [u64] {
        &self.values[1 + self.resources..1 + self.resources + self.arms]
    }

    /// Arm `a`'s cycles.
    #[inline]
    pub fn arm(&self, a: usize) -> u64 {
        self.arms()[a]
    }

    /// Per divergent arm, the times the work-item entered it.
    #[inline]
    pub fn arm_entries(&self) -> &'a [u64] {
        let at = 1 + self.resources + self.arms;
        &self.values[at..at + self.arms]
    }

    /// Per divergent arm, the times the work-item took either side of its branch.
    #[inline]
    pub fn arm_decisions(&self) -> &'a [u64] {
        let at = 1 + self.resources + 2 * self.arms;
        &self.values[at..at + self.arms]
    }

    /// The counters of the sampled access whose slot is `slot`
    /// ([`RecordFormat::sample_offset`]).
    #[inline]
    pub fn sample(&self, slot: usize) -> SampleCounters {
        SampleCounters {
            runs: self.values[slot + SAMPLE_RUNS],
            first: self.values[slot + SAMPLE_FIRST],
            last: self.values[slot + SAMPLE_LAST],
        }
    }
}

/// What a sampled access's counters say of one work-item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SampleCounters {
    /// Times it ran.
    pub runs: u64,
    /// The index it used the first time.
    pub first: u64,
    /// The index it used the last time.
    pub last: u64,
}

/// A warp's record, read through its [`RecordFormat`].
#[derive(Debug, Clone, Copy)]
pub struct WarpRecord<'a> {
    values: &'a [u64],
    resources: usize,
    arms: usize,
}

impl<'a> WarpRecord<'a> {
    /// The most any lane spent outside the divergent arms (its whole time without arms).
    #[inline]
    pub fn outside(&self) -> u64 {
        self.values[RecordFormat::WARP_OUTSIDE]
    }

    /// The most any lane spent in all.
    #[inline]
    pub fn t_max(&self) -> u64 {
        self.values[RecordFormat::WARP_T_MAX]
    }

    /// Per resource, the most any lane used.
    #[inline]
    pub fn usage(&self) -> &'a [u64] {
        &self.values[2..2 + self.resources]
    }

    /// Per arm, the most any lane spent in it.
    #[inline]
    pub fn arms(&self) -> &'a [u64] {
        self.run(0)
    }

    /// Per arm, the cycles the lanes spent in it, summed.
    #[inline]
    pub fn arm_sums(&self) -> &'a [u64] {
        self.run(1)
    }

    /// Per arm, the lanes' entries into it, summed.
    #[inline]
    pub fn arm_entries(&self) -> &'a [u64] {
        self.run(2)
    }

    /// Per arm, the most decisions of its branch a lane took.
    #[inline]
    pub fn arm_decisions(&self) -> &'a [u64] {
        self.run(3)
    }

    /// The `k`-th run of per-arm values.
    #[inline]
    fn run(&self, k: usize) -> &'a [u64] {
        let at = 2 + self.resources + k * self.arms;
        &self.values[at..at + self.arms]
    }

    /// The lanes' memory-side usage summed.
    #[inline]
    pub fn bytes(&self) -> u64 {
        self.values[2 + self.resources + 4 * self.arms]
    }
}

/// Where a launch in warps of a kernel with sampled accesses ([`crate::Grain::Warp`] with
/// `sampled`) keeps the lanes it could not reduce. A sampled access's counters are read
/// lane by lane, and what a lane's record comes to depends on what every warp did there
/// (the launch's mean), so a lane that ran one stays whole until the model has measured
/// the launch; the others (in a frontier-driven traversal most of them) are reduced where
/// they ran. The device writes three parts:
///
/// | values | what |
/// | --- | --- |
/// | `warps` x [`RecordFormat::warp_stride`] | each warp's record, of the lanes that ran no sampled access |
/// | `warps` | per warp, a mask: bit `l` set where its lane `l` ran one (warps of at most 64 lanes) |
/// | work-groups x work-group size x [`RecordFormat::work_item_stride`] | per work-group, a place for each of its work-items' records: the marked lanes' records, from its start, in local linear id order |
///
/// The host measures and corrects the marked lanes where they are ([`KeptLanes::warps_of`]),
/// and folds each into its warp's record ([`RecordFormat::fold_lane`]): the warp records
/// come out as the device would have reduced the corrected lanes. Kept together at the
/// start of their group's place, the marked lanes touch a few pages of it (a BFS level's
/// frontier, a tenth of the work-items, scattered over all of them, touched every page;
/// gathered to the start of the part, they faulted in its pages once more).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KeptLanes {
    /// Warps of the launch.
    pub warps: usize,
    /// Warps of a work-group.
    pub group_warps: usize,
    /// Work-items of a work-group.
    pub group_size: usize,
    /// Values of a warp's record.
    pub warp_stride: usize,
    /// Values of a work-item's record.
    pub item_stride: usize,
}

/// The most lanes a warp may have where its lanes are kept: one bit each in a mask.
pub const KEPT_LANES_MAX_WARP: u32 = 64;

impl KeptLanes {
    /// The layout of the records of `format` of a launch of `groups` whole work-groups of
    /// `group_size` work-items, in warps of `warp_size`
    /// ([`crate::LaunchGeometry::kept_lanes`]).
    pub fn new(format: &RecordFormat, groups: u64, group_size: u64, warp_size: u32) -> Self {
        let group_warps = group_size.div_ceil(u64::from(warp_size.max(1))) as usize;
        KeptLanes {
            warps: groups as usize * group_warps,
            group_warps,
            group_size: group_size as usize,
            warp_stride: format.warp_stride(),
            item_stride: format.work_item_stride(),
        }
    }

    /// Where the masks are.
    pub fn masks(&self) -> std::ops::Range<usize> {
        let start = self.warps * self.warp_stride;
        start..start + self.warps
    }

    /// Where the work-items' records start.
    pub fn lanes(&self) -> usize {
        self.masks().end
    }

    /// Values the device writes.
    pub fn device_words(&self) -> u64 {
        (self.lanes() + self.warps / self.group_warps.max(1) * self.group_size * self.item_stride)
            as u64
    }

    /// Where work-group `g`'s place for its kept lanes' records starts.
    pub fn group_lanes(&self, g: usize) -> usize {
        self.lanes() + g * self.group_size * self.item_stride
    }

    /// Each warp's mask and its kept lanes' records (one per bit of the mask, in lane
    /// order), from `tail`: the records from the masks on, as the device wrote them. Never
    /// past a group's place, whatever the masks hold.
    pub fn warps_of<'r>(&self, tail: &'r [u64]) -> impl Iterator<Item = (u64, &'r [u64])> + 'r {
        let layout = *self;
        let (base, group_warps) = (self.masks().start, self.group_warps.max(1));
        let mut next = 0;
        tail[..self.warps]
            .iter()
            .enumerate()
            .map(move |(w, &mask)| {
                let group = layout.group_lanes(w / group_warps) - base;
                if w % group_warps == 0 {
                    next = group;
                }
                let group_end = group + layout.group_size * layout.item_stride;
                let start = next.min(group_end);
                next = (start + mask.count_ones() as usize * layout.item_stride).min(group_end);
                (mask, &tail[start..next])
            })
    }
}

impl RecordFormat {
    /// Folds lane record `lane` (its timing values, [`RecordFormat::timing_width`] at
    /// least) into warp record `warp`, as the device's reduction does for each lane: the
    /// most of the times, the usage, the arms' cycles and decisions; the sums of the arms'
    /// cycles and entries, and of the memory side's usage (`memory`, the resource the
    /// warp's `bytes` sum).
    pub fn fold_lane(&self, warp: &mut [u64], lane: &[u64], memory: Option<usize>) {
        let t = lane[Self::T];
        let outside = if self.arms == 0 {
            t
        } else {
            let arms = (0..self.arms).fold(0u64, |s, a| s.wrapping_add(lane[self.arm(a)]));
            t.saturating_sub(arms)
        };
        let most = |warp: &mut [u64], at: usize, v: u64| warp[at] = warp[at].max(v);
        let add = |warp: &mut [u64], at: usize, v: u64| warp[at] = warp[at].wrapping_add(v);
        most(warp, Self::WARP_OUTSIDE, outside);
        most(warp, Self::WARP_T_MAX, t);
        for r in 0..self.resources {
            most(warp, self.warp_usage(r), lane[self.usage(r)]);
        }
        for a in 0..self.arms {
            most(warp, self.warp_arm(a), lane[self.arm(a)]);
            add(warp, self.warp_arm_sum(a), lane[self.arm(a)]);
            add(warp, self.warp_arm_entries(a), lane[self.arm_entries(a)]);
            most(
                warp,
                self.warp_arm_decisions(a),
                lane[self.arm_decisions(a)],
            );
        }
        if let Some(m) = memory {
            add(warp, self.warp_bytes(), lane[self.usage(m)]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_follow_one_another() {
        let f = RecordFormat {
            resources: 3,
            arms: 2,
            profile_counters: 5,
            sampled_accesses: 2,
        };
        // Hand-counted: t | u0 u1 u2 | a0 a1 | e0 e1 | d0 d1 | p0..p4 | x0 x1 x2 | x3 x4 x5.
        assert_eq!(f.usage(0), 1);
        assert_eq!(f.arm(0), 4);
        assert_eq!(f.arm(1), 5);
        assert_eq!(f.arm_entries(0), 6);
        assert_eq!(f.arm_decisions(1), 9);
        assert_eq!(f.profile_offset(), 10);
        assert_eq!(f.sample_offset(0), 15);
        assert_eq!(f.sample_offset(1), 18);
        assert_eq!(f.work_item_stride(), 21);
        assert_eq!(f.timing_only().work_item_stride(), 10);
        // outside t_max | u0 u1 u2 | a0 a1 | s0 s1 | e0 e1 | d0 d1 | bytes.
        assert_eq!(f.warp_usage(2), 4);
        assert_eq!(f.warp_arm(1), 6);
        assert_eq!(f.warp_arm_sum(0), 7);
        assert_eq!(f.warp_arm_entries(0), 9);
        assert_eq!(f.warp_arm_decisions(1), 12);
        assert_eq!(f.warp_bytes(), 13);
        assert_eq!(f.warp_stride(), 14);
    }

    #[test]
    fn views_read_the_fields_at_their_offsets() {
        let f = RecordFormat {
            resources: 2,
            arms: 1,
            profile_counters: 0,
            sampled_accesses: 1,
        };
        let rec = [10, 20, 21, 30, 31, 32, 4, 7, 9];
        let r = f.item(&rec);
        assert_eq!(
            (r.t(), r.usage(), r.arms(), r.arm(0)),
            (10, &[20, 21][..], &[30][..], 30)
        );
        assert_eq!((r.arm_entries(), r.arm_decisions()), (&[31][..], &[32][..]));
        let s = r.sample(f.sample_offset(0));
        assert_eq!((s.runs, s.first, s.last), (4, 7, 9));
        let warp = [5, 6, 1, 2, 3, 40, 41, 42, 99];
        let w = f.warp(&warp);
        assert_eq!(
            (w.outside(), w.t_max(), w.usage(), w.arms(), w.bytes()),
            (5, 6, &[1, 2][..], &[3][..], 99)
        );
        assert_eq!(
            (w.arm_sums(), w.arm_entries(), w.arm_decisions()),
            (&[40][..], &[41][..], &[42][..])
        );
    }

    #[test]
    fn linear_id_is_x_fastest() {
        assert_eq!(linear_id([3, 2, 1], [10, 5, 4]), 3 + 2 * 10 + 50);
    }

    #[test]
    fn serialises_the_counts_it_has() {
        let f = RecordFormat::timing(4, 0);
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json, r#"{"resources":4,"arms":0}"#);
        let back: RecordFormat = serde_json::from_str(&json).unwrap();
        assert_eq!(back, f);
    }
}
