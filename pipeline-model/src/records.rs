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
/// they ran. The device writes:
///
/// | values | what |
/// | --- | --- |
/// | `warps` x [`RecordFormat::warp_stride`] | each warp's record, of the lanes that ran no sampled access |
/// | `warps` | per warp, a mask: bit `l` set where its lane `l` ran one (warps of at most 64 lanes) |
/// | work-groups | per work-group that marked a lane, where its part of the region starts |
/// | 1 | the counter of values taken from the region (a 32-bit one, in the word's first four bytes) |
/// | work-groups x (1 + work-group size x [`RecordFormat::work_item_stride`]) | the region: each such work-group's part, a header and its marked lanes' records in local linear id order |
///
/// A work-group that marked a lane takes room for its part by adding to the counter, in
/// the order the groups end: the kept lanes of a launch lie together from the region's
/// start, where a place per group, written from its start, left most of a page unused at
/// each group's end (a BFS level's frontier faulted in a fifth more pages so). The counter
/// is not cleared: the host reads what it holds before the launch
/// ([`KeptLanes::counter`]), and the copy takes its offsets from there.
///
/// A part's header is [`KEPT_NARROW`] where every value of its lanes' records fits in 32
/// bits (the counts and times below `2^32`, the sampled indices between `-2^31` and
/// `2^31`), and each record follows as [`RecordFormat::work_item_stride`] 32-bit values,
/// two to a word in the device's order of bytes; else 0 and the records whole. A BFS
/// level's frontier writes half the bytes so: the pages the device faults in are most
/// of what the kept lanes cost it (`docs/performance.md`).
///
/// The host measures and corrects the marked lanes where they are ([`KeptLanes::visit`],
/// which widens narrow ones a warp at a time), and folds each into its warp's record
/// ([`RecordFormat::fold_lane`]): the warp records come out as the device would have
/// reduced the corrected lanes.
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
    /// Where the sampled accesses' counters start in a work-item's record, and how many
    /// accesses there are: their first and last indices widen with their sign.
    samples: (usize, usize),
}

/// The most lanes a warp may have where its lanes are kept: one bit each in a mask.
pub const KEPT_LANES_MAX_WARP: u32 = 64;

/// A work-group part's header where its kept lanes' records are 32-bit values
/// ([`KeptLanes`]).
pub const KEPT_NARROW: u64 = 1;

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
            samples: (format.sample_offset(0), format.sampled_accesses),
        }
    }

    /// Where the masks are.
    pub fn masks(&self) -> std::ops::Range<usize> {
        let start = self.warps * self.warp_stride;
        start..start + self.warps
    }

    /// Where the work-groups' offsets are (each valid where its group marked a lane).
    pub fn offsets(&self) -> std::ops::Range<usize> {
        let start = self.masks().end;
        start..start + self.groups()
    }

    /// Where the counter of the region's values taken is: its first four bytes, which the
    /// host reads before the launch ([`KeptLanes::counter_value`]).
    pub fn counter(&self) -> usize {
        self.offsets().end
    }

    /// The counter's value where its word holds `word`.
    pub fn counter_value(word: u64) -> u32 {
        halves(std::slice::from_ref(&word))[0]
    }

    /// Where the region of the kept lanes' parts starts.
    pub fn region(&self) -> usize {
        self.counter() + 1
    }

    /// Values of the region: room for every work-group's header and work-items' records.
    fn region_values(&self) -> usize {
        self.groups() * (1 + self.group_size * self.item_stride)
    }

    /// Work-groups of the launch.
    fn groups(&self) -> usize {
        self.warps / self.group_warps.max(1)
    }

    /// Values the device writes.
    pub fn device_words(&self) -> u64 {
        (self.region() + self.region_values()) as u64
    }

    /// Per work-group that kept a lane, its first warp, its masks, its part's header and
    /// its kept lanes' records as the device wrote them (whole values or 32-bit ones),
    /// from `tail` (the records from the masks on). Never past the region, whatever the
    /// masks and offsets hold.
    fn groups_of<'r>(
        &self,
        tail: &'r [u64],
    ) -> impl Iterator<Item = (usize, &'r [u64], &'r [u64])> + 'r {
        let layout = *self;
        let base = self.masks().start;
        let group_warps = self.group_warps.max(1);
        let (offsets, region) = (self.offsets().start - base, self.region() - base);
        let end = (region + self.region_values()).min(tail.len());
        tail[..self.warps]
            .chunks_exact(group_warps)
            .enumerate()
            .filter(|(_, masks)| masks.iter().any(|&m| m != 0))
            .map(move |(g, masks)| {
                let lanes: usize = masks.iter().map(|m| m.count_ones() as usize).sum();
                let values = lanes.min(layout.group_size) * layout.item_stride;
                let place = (region as u64).saturating_add(tail[offsets + g]);
                let place = place.min(end as u64) as usize;
                let header = tail.get(place).copied().unwrap_or(0);
                let words = if header == KEPT_NARROW {
                    values.div_ceil(2)
                } else {
                    values
                };
                let part = &tail[place..(place + 1 + words).min(end)];
                (g * group_warps, masks, part)
            })
    }

    /// The parts of `tail` (the records from the masks on) the device wrote in the
    /// region, in work-group order: each work-group that kept a lane, its header and
    /// records (what tells one launch's kept lanes from another's, wherever they lie).
    pub fn written<'r>(&self, tail: &'r [u64]) -> impl Iterator<Item = &'r [u64]> + 'r {
        self.groups_of(tail).map(|(_, _, part)| part)
    }

    /// Calls `each` with every warp that kept a lane, in order: its index, its mask, and
    /// its kept lanes' records (one per bit of the mask, in lane order,
    /// [`KeptLanes::item_stride`] values each, widened where the device wrote them in 32
    /// bits), from `tail` (the records from the masks on, as the device wrote them).
    /// Never past a group's place, whatever the masks hold.
    pub fn visit(&self, tail: &[u64], mut each: impl FnMut(usize, u64, &[u64])) {
        let stride = self.item_stride;
        let mut wide = Vec::new();
        for (first, masks, part) in self.groups_of(tail) {
            let narrow = part.first() == Some(&KEPT_NARROW);
            let records = part.get(1..).unwrap_or(&[]);
            let narrow_records = halves(records);
            let mut next = 0;
            for (k, &mask) in masks.iter().enumerate() {
                if mask == 0 {
                    continue;
                }
                let values = mask.count_ones() as usize * stride;
                if narrow {
                    let end = (next + values).min(narrow_records.len());
                    wide.clear();
                    wide.extend(narrow_records[next..end].iter().map(|&v| u64::from(v)));
                    wide.truncate(wide.len() / stride * stride);
                    for rec in wide.chunks_exact_mut(stride) {
                        self.widen_indices(rec);
                    }
                    next = end;
                    each(first + k, mask, &wide);
                } else {
                    let end = (next + values).min(records.len());
                    each(first + k, mask, &records[next..end]);
                    next = end;
                }
            }
        }
    }

    /// Sign-extends the sampled accesses' first and last indices of `rec`, a record read
    /// from 32-bit values.
    fn widen_indices(&self, rec: &mut [u64]) {
        let (at, accesses) = self.samples;
        for a in 0..accesses {
            for c in [SAMPLE_FIRST, SAMPLE_LAST] {
                if let Some(v) = rec.get_mut(at + SAMPLE_COUNTERS * a + c) {
                    *v = i64::from(*v as u32 as i32) as u64;
                }
            }
        }
    }
}

/// The 32-bit values of `words` in the order the device wrote them (two to a word, in the
/// machine's order of bytes: the host's, the device being its CPU), read where they are.
fn halves(words: &[u64]) -> &[u32] {
    bytemuck::cast_slice(words)
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

    /// Two work-groups of two warps of four lanes: group 1 ended first and took the
    /// region's start, in 32-bit values; group 0 took the room after it, whole.
    #[test]
    fn kept_lanes_are_read_where_their_group_put_them_and_widened() {
        let format = RecordFormat {
            sampled_accesses: 1,
            ..RecordFormat::timing(1, 0)
        };
        // `[t, usage, runs, first, last]`.
        assert_eq!(format.work_item_stride(), 5);
        let layout = KeptLanes::new(&format, 2, 8, 4);
        assert_eq!((layout.warps, layout.group_warps), (4, 2));
        let mut records = vec![0u64; layout.device_words() as usize];
        // Group 0 keeps lanes 1 of warp 0 and 0 of warp 1 (a time past 2^32); group 1
        // lane 3 of its warp 1 (a negative first index).
        let masks = layout.masks().start;
        records[masks..masks + 4].copy_from_slice(&[0b10, 0b1, 0, 0b1000]);
        let kept0 = [[1 << 33, 7, 2, 100, 105], [9, 8, 1, 6, 6]];
        let kept1 = [10u64, 11, 3, (-4i64) as u64, 12];
        let narrow: Vec<u32> = kept1.iter().map(|&v| v as u32).collect();
        let region = layout.region();
        records[layout.offsets().start + 1] = 0;
        records[region] = KEPT_NARROW;
        for (w, pair) in narrow.chunks(2).enumerate() {
            let bytes: Vec<u8> = pair.iter().flat_map(|v| v.to_ne_bytes()).collect();
            let mut word = [0u8; 8];
            word[..bytes.len()].copy_from_slice(&bytes);
            records[region + 1 + w] = u64::from_ne_bytes(word);
        }
        // Group 1's part: its header and three words; group 0's after it.
        records[layout.offsets().start] = 4;
        records[region + 4] = 0;
        records[region + 5..region + 15].copy_from_slice(kept0.as_flattened());
        let tail = &records[masks..];
        let mut seen = Vec::new();
        layout.visit(tail, |w, mask, kept| seen.push((w, mask, kept.to_vec())));
        assert_eq!(
            seen,
            vec![
                (0, 0b10, kept0[0].to_vec()),
                (1, 0b1, kept0[1].to_vec()),
                (3, 0b1000, kept1.to_vec()),
            ]
        );
        // What was written, group by group: group 0's part, then group 1's.
        let parts: Vec<&[u64]> = layout.written(tail).collect();
        assert_eq!(
            parts,
            [
                &records[region + 4..region + 15],
                &records[region..region + 4]
            ]
        );
        // An offset past the region reads nothing past it.
        records[layout.offsets().start] = u64::MAX;
        let mut lanes = 0;
        layout.visit(&records[masks..], |_, _, kept| lanes += kept.len() / 5);
        assert_eq!(lanes, 1);
    }

    #[test]
    fn the_counter_is_the_first_four_bytes_of_its_word() {
        let word = u64::from_ne_bytes([0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff]);
        let first = u32::from_ne_bytes([0x78, 0x56, 0x34, 0x12]);
        assert_eq!(KeptLanes::counter_value(word), first);
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
