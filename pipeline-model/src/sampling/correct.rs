//! From what the warps did to a record corrected: the values one execution of a sampled
//! access moves, and every record of a launch corrected (and packed) by them.

use std::borrow::Cow;

use super::measure::{measure_groups, measure_kept, SetProbe};
use super::{Measured, SampledAccess, LINE};
use crate::arch::Architecture;
use crate::launch::LaunchGeometry;
use crate::occupancy::{occupancy, KernelResources};
use crate::records::{KeptLanes, RecordFormat, SAMPLE_COUNTERS, SAMPLE_RUNS};

/// The values of a record of `format` (the usage in units of `1 / usage_scale` cycles)
/// one execution of `access` moves from what it was charged to what `measured` says the
/// warps did (their index in the record: the cycles' and the usage's), and by how much. Where the L1 serves the access, it also saves the latency beyond the L1's
/// and moves no bytes past the L1 (the resources `memory_sides`). A shared access moves
/// none of the memory side's values, a global one none of the shared banks' (the rest
/// would each cost a rounding a record).
pub(super) fn moves(
    access: &SampledAccess,
    measured: &Measured,
    usage_scale: u64,
    memory_sides: &[usize],
    format: &RecordFormat,
) -> Vec<(usize, f64)> {
    let fewer = access.charged_transactions - measured.transactions;
    let fewer_sectors = access.charged_sectors - measured.sectors;
    let scale = usage_scale as f64;
    let share = measured.l1_share;
    let cycles = access.cycles_per_transaction * fewer + share * access.l1_cycles;
    let usage = access
        .usage_per_transaction
        .iter()
        .zip(&access.usage_per_sector)
        .enumerate()
        .take(format.resources)
        .map(|(r, (t, s))| {
            let moved = (t * fewer + s * fewer_sectors) * scale;
            let by = if memory_sides.contains(&r) {
                // What the L1 serves moves all that was charged (the usage is linear in
                // requests and sectors), the rest what the warps did.
                let all = (t * access.charged_transactions + s * access.charged_sectors) * scale;
                share * all + (1.0 - share) * moved
            } else {
                moved
            };
            (format.usage(r), by)
        });
    std::iter::once((RecordFormat::T, cycles))
        .chain(usage)
        .filter(|(_, by)| *by != 0.0)
        .collect()
}

/// Moves `rec`'s values `moved` ([`moves`]) for `runs` executions.
pub(super) fn apply(rec: &mut [u64], runs: u64, moved: &[(usize, f64)]) {
    if runs == 0 {
        return;
    }
    let runs = runs as f64;
    for &(v, by) in moved {
        rec[v] = rounded_count(rec[v] as f64 - runs * by);
    }
}

/// Executions below this many, of one access by one lane, are taken from precomputed
/// whole counts ([`Moves::apply`]): a loop's gathers run a few times a lane.
const WHOLE_RUNS: usize = 64;

/// Values and moves below this magnitude: their difference in doubles (`|v - x| < 2^41`,
/// spaced `2^-12` at most) is off the exact one by `2^-13` at most, far inside
/// [`NEAR_HALF`], so it rounds as the exact one does.
const WHOLE_LIMIT: u64 = 1 << 40;

/// A move whose fraction lies within this of a half is rounded as [`apply`] does it.
const NEAR_HALF: f64 = 1.0 / 512.0;

/// One sampled access's moves ([`moves`]), and what a few executions of it take from each
/// value as whole counts. [`apply`] rounds `v - runs * by` for every value of every kept
/// lane, a conversion, a subtraction and a rounding each (two fifths of a frontier
/// level's model: docs/performance.md); where `runs * by` lies farther than [`NEAR_HALF`]
/// from a half, that rounding is `v` less `runs * by` rounded to the nearest integer, the
/// same for every lane, so a lane's correction is integer subtractions.
pub(super) struct Moves {
    moved: Vec<(usize, f64)>,
    /// Per executions below [`WHOLE_RUNS`], the whole count taken from each moved value,
    /// where every one of them may be ([`Moves::new`]).
    whole: Vec<Option<Box<[i64]>>>,
}

impl Moves {
    pub(super) fn new(moved: Vec<(usize, f64)>) -> Self {
        let whole = (0..WHOLE_RUNS)
            .map(|runs| {
                moved
                    .iter()
                    .map(|&(_, by)| {
                        let x = runs as f64 * by;
                        let off_half = (x - x.floor() - 0.5).abs() > NEAR_HALF;
                        (x.abs() < WHOLE_LIMIT as f64 && off_half).then(|| (x + 0.5).floor() as i64)
                    })
                    .collect()
            })
            .collect();
        Moves { moved, whole }
    }

    /// [`apply`]: `rec`'s values moved for `runs` executions, by whole counts where they
    /// give the same.
    pub(super) fn apply(&self, rec: &mut [u64], runs: u64) {
        if runs == 0 {
            return;
        }
        let whole = self.whole.get(runs as usize).and_then(Option::as_deref);
        match whole {
            Some(whole) if self.moved.iter().all(|&(v, _)| rec[v] < WHOLE_LIMIT) => {
                for (&(v, _), &d) in self.moved.iter().zip(whole) {
                    rec[v] = (rec[v] as i64 - d).max(0) as u64;
                }
            }
            _ => apply(rec, runs, &self.moved),
        }
    }

    /// The whole counts of [`Moves::new`] for every value of a record's `width` timing
    /// values (0 for those it does not move), per executions ([`Moves::apply_dense`]).
    pub(super) fn dense(&self, width: usize) -> Vec<Option<Box<[i64]>>> {
        self.whole
            .iter()
            .map(|whole| {
                let whole = whole.as_deref()?;
                let mut d = vec![0i64; width];
                for (&(v, _), &w) in self.moved.iter().zip(whole) {
                    *d.get_mut(v)? = w;
                }
                Some(d.into_boxed_slice())
            })
            .collect()
    }

    /// [`Moves::apply`] of `lane` (a record's timing values) with its whole counts
    /// `dense` ([`Moves::dense`]): where every value is below [`WHOLE_LIMIT`], one
    /// subtraction per value that the compiler vectorises (a moved value below it is all
    /// that `apply` asks, and an unmoved one loses 0), else as `apply` does.
    pub(super) fn apply_dense(&self, dense: &[Option<Box<[i64]>>], lane: &mut [u64], runs: u64) {
        if runs == 0 {
            return;
        }
        let small = lane.iter().fold(0, |any, &v| any | v) < WHOLE_LIMIT;
        match dense.get(runs as usize).and_then(Option::as_deref) {
            Some(d) if small && d.len() == lane.len() => {
                for (v, &d) in lane.iter_mut().zip(d) {
                    *v = (*v as i64 - d).max(0) as u64;
                }
            }
            _ => self.apply(lane, runs),
        }
    }
}

/// Several accesses' whole counts ([`Moves::dense`]) for a lane's executions of each,
/// summed, and kept for the next lane that ran each as often (a warp's lanes mostly did).
/// Where every count is at least 0 and the lane's values are below [`WHOLE_LIMIT`], one
/// subtraction of the sum, stopping at 0, is the accesses' [`Moves::apply_dense`] in
/// turn: a value that reaches 0 stays there, as no later count adds to it (the kept lanes
/// of a frontier level: four corrections a lane, each with its checks, were a quarter of
/// the model's time).
pub(super) struct SummedMoves {
    /// Per access, per executions, its whole counts where every one is at least 0.
    counts: Vec<Vec<Option<Box<[u64]>>>>,
    /// The executions the sum is for (`u64::MAX` each: none yet), the sum, and whether
    /// there is one for them.
    runs: Vec<u64>,
    sum: Vec<u64>,
    summed: bool,
}

impl SummedMoves {
    /// The sums of the accesses' whole counts `dense` ([`Moves::dense`]).
    pub(super) fn new(dense: &[Vec<Option<Box<[i64]>>>]) -> Self {
        let counts = dense
            .iter()
            .map(|per_runs| {
                per_runs
                    .iter()
                    .map(|d| {
                        let d = d.as_deref()?;
                        d.iter().map(|&c| u64::try_from(c).ok()).collect()
                    })
                    .collect()
            })
            .collect();
        SummedMoves {
            counts,
            runs: vec![u64::MAX; dense.len()],
            sum: Vec::new(),
            summed: false,
        }
    }

    /// `lane` moved for `runs` executions of each access, and whether it was: `false`
    /// leaves it as it was, for [`Moves::apply_dense`] in turn.
    pub(super) fn apply(&mut self, runs: impl Iterator<Item = u64>, lane: &mut [u64]) -> bool {
        let mut changed = false;
        for (n, r) in self.runs.iter_mut().zip(runs) {
            changed |= *n != r;
            *n = r;
        }
        if changed || self.sum.len() != lane.len() {
            self.sum.clear();
            self.sum.resize(lane.len(), 0);
            self.summed = self.sum_for_runs();
        }
        if !self.summed || lane.iter().fold(0, |any, &v| any | v) >= WHOLE_LIMIT {
            return false;
        }
        for (v, &s) in lane.iter_mut().zip(&self.sum) {
            *v = v.saturating_sub(s);
        }
        true
    }

    /// Adds to the sum (zeros) the whole counts for the executions; whether every access
    /// has them (or ran none).
    fn sum_for_runs(&mut self) -> bool {
        for (counts, &runs) in self.counts.iter().zip(&self.runs).filter(|(_, &r)| r != 0) {
            let Some(c) = counts.get(runs as usize).and_then(Option::as_deref) else {
                return false;
            };
            if c.len() != self.sum.len() {
                return false;
            }
            for (s, &c) in self.sum.iter_mut().zip(c) {
                *s += c;
            }
        }
        true
    }
}

/// Whether an access's counters at `slot` lie inside a record of `stride` values (a
/// layout from elsewhere may name counters past its end: the access then goes unmeasured).
fn counted(slot: usize, stride: usize) -> bool {
    slot + SAMPLE_COUNTERS <= stride
}

/// The largest double below one half (`0.5 - 2^-54`).
const BELOW_HALF: f64 = 0.5 - f64::EPSILON / 4.0;

/// `x.round().max(0.0) as u64` (half away from zero, then nothing below zero), a million
/// times a large launch, without the C library's `round` (which the default x86-64
/// target calls out of line) or a branch on the fraction (a coin toss per record). Below
/// 2^62 in magnitude, adding the largest double below one half with `x`'s sign, then
/// truncating, is that rounding: where the fraction is below one half the sum stays
/// short of the next integer (its spacing there is at least twice the amount missing),
/// where it is one half or more the sum reaches it (one half exactly ties to the even
/// integer above). NaN gives 0, as `round` and `max` do.
pub(super) fn rounded_count(x: f64) -> u64 {
    if x.abs() < (1u64 << 62) as f64 {
        ((x + BELOW_HALF.copysign(x)) as i64).max(0) as u64
    } else {
        x.round().max(0.0) as u64
    }
}

/// What the warps of a launch did at its sampled accesses, what that moves in a record,
/// and which work-groups' records are those of the group to their left.
struct Corrections {
    measured: Vec<Option<Measured>>,
    /// Per access that ran: the slot of its counters, and its moves.
    moves: Vec<(usize, Moves)>,
    alike: Vec<bool>,
}

/// The work-items' records a launch's sampled accesses are measured from: all of them,
/// or in warps, the lanes kept whole (the records from the masks on, as [`KeptLanes`]
/// lays them out).
#[derive(Clone, Copy)]
enum Lanes<'r> {
    All(&'r [u64]),
    Kept(&'r KeptLanes, &'r [u64]),
}

/// One launch's sampled accesses and what the model knows of the launch.
pub struct SampledLaunch<'a> {
    /// The GPU.
    pub arch: &'a Architecture,
    /// The launch's NDRange.
    pub geometry: &'a LaunchGeometry,
    /// The kernel's resources (its shared memory limits the L1 where they are one array).
    pub resources: &'a KernelResources,
    /// The bytes of the buffer bound to each kernel parameter, where known.
    pub buffer_bytes: &'a dyn Fn(u32) -> Option<u64>,
    /// Usage counter units per cycle.
    pub usage_scale: u64,
}

impl SampledLaunch<'_> {
    /// The L1 bytes an SM has for global data during the launch, if the architecture
    /// gives the L1's size.
    pub fn l1_left(&self) -> Option<u64> {
        let l1 = self.arch.memory.l1_bytes?;
        if !self.arch.memory.l1_with_shared {
            return Some(l1);
        }
        let groups = occupancy(self.arch, self.geometry.work_group_size(), self.resources)
            .map_or(1, |o| u64::from(o.work_groups_per_sm));
        Some(l1.saturating_sub(groups * self.resources.local_memory_bytes))
    }

    /// What the warps did at each access of `accesses`, whose counters are at its slot of
    /// each record of `records` (of `format`; `None`: never run, or counters past the
    /// record's end, which a layout from elsewhere may give), and per work-group whether
    /// its records are those of the group to its left.
    fn measured_all(
        &self,
        accesses: &[(usize, SampledAccess)],
        records: Lanes<'_>,
        format: &RecordFormat,
    ) -> (Vec<Option<Measured>>, Vec<bool>) {
        let stride = format.work_item_stride();
        let inside: Vec<(usize, &SampledAccess)> = accesses
            .iter()
            .filter(|(slot, _)| counted(*slot, stride))
            .map(|(slot, a)| (*slot, a))
            .collect();
        let warp_size = u64::from(self.arch.warp_size);
        let fill = i64::from(self.arch.memory.fetch_bytes).clamp(1, LINE);
        let groups_per_sm = self.groups_per_sm();
        let probe = self
            .arch
            .memory
            .l1_sets
            .zip(self.arch.l1_set_count())
            .map(|(sets, count)| SetProbe {
                sets,
                count,
                sm_count: self.arch.sm_count as usize,
                resident: groups_per_sm as usize,
            });
        // The lines a stream keeps for the warps of the work-groups one SM holds.
        let sm_warps = self
            .geometry
            .work_group_size()
            .div_ceil(u64::from(self.arch.warp_size))
            * groups_per_sm;
        let l1 = self.l1_left();
        let (measured, alike) = match records {
            Lanes::All(records) => measure_groups(
                &inside,
                self.geometry,
                warp_size,
                records,
                format,
                fill,
                probe,
            ),
            Lanes::Kept(layout, records) => {
                let measured =
                    measure_kept(&inside, layout, warp_size, records, format, fill, probe);
                (measured, Vec::new())
            }
        };
        let mut measured = measured.into_iter();
        let raw: Vec<Option<Measured>> = accesses
            .iter()
            .map(|(slot, _)| {
                if !counted(*slot, stride) {
                    return None;
                }
                measured.next().flatten()
            })
            .collect();
        // An L1-served load whose buffer fits in the L1: every execution finds its line
        // there.
        let held = |a: &SampledAccess| {
            a.l1_cycles > 0.0
                && a.param
                    .and_then(|p| (self.buffer_bytes)(p))
                    .zip(l1)
                    .is_some_and(|(b, l1)| b <= l1)
        };
        let measured = accesses
            .iter()
            .zip(&raw)
            .map(|((_, access), m)| {
                let mut m = (*m)?;
                if access.l1_cycles > 0.0 {
                    if held(access) {
                        m.l1_share = 1.0;
                    } else if m.stream_hits > 0.0 {
                        let lines = loop_lines(access, &m, accesses, &raw, stride, &held);
                        if self.keeps_stream(&m, lines, sm_warps, l1) {
                            m.l1_share = m.stream_hits;
                        }
                    }
                }
                Some(m)
            })
            .collect();
        (measured, alike)
    }

    /// Whether the L1 (`l1` bytes for global data) holds the lines `sm_warps` warps (those
    /// of the work-groups one SM holds, [`SampledLaunch::groups_per_sm`]) walk at once,
    /// `m.transactions` a warp; and, where the description gives the L1's sets, whether a
    /// walked line outlives what enters its set before its warp touches it again: the
    /// most of the walked lines in one set (`m.set_lines`) and the lines every warp's
    /// other loads of the loop bring in each iteration (`loop_lines` a warp, spread over
    /// the sets) together no more than its ways (least recently used replaced).
    fn keeps_stream(&self, m: &Measured, loop_lines: f64, sm_warps: u64, l1: Option<u64>) -> bool {
        let Some(l1) = l1 else {
            return false;
        };
        let fits = m.transactions * sm_warps as f64 * LINE as f64 <= l1 as f64;
        let sets_hold = self
            .arch
            .memory
            .l1_sets
            .zip(self.arch.l1_set_count())
            .is_none_or(|(sets, count)| {
                let others = sm_warps as f64 * loop_lines / count as f64;
                f64::from(m.set_lines) + others <= f64::from(sets.ways)
            });
        fits && sets_hold
    }

    /// The work-groups one SM holds at once: the launch's as they are dealt over the SMs,
    /// at most what the occupancy lets one SM hold, at least one.
    fn groups_per_sm(&self) -> u64 {
        let [x, y, z] = self.geometry.groups();
        occupancy(self.arch, self.geometry.work_group_size(), self.resources)
            .map_or(1, |o| o.busiest_sm_groups(self.arch, x * y * z))
            .max(1)
    }

    /// The resources an access the L1 serves takes nothing of: the bytes past it, and the
    /// SM's port that brings them in.
    pub(super) fn memory_sides(&self) -> Vec<usize> {
        [
            self.arch.fill_resource(),
            self.arch.l2_resource(),
            self.arch.dram_resource(),
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// What the warps did at each access of `accesses` (each with the index of its first
    /// counter in a record of `records`, of `format`), and the moves of those that ran,
    /// with where their executions are counted; and per work-group whether its records
    /// are those of the group to its left.
    fn corrections(
        &self,
        accesses: &[(usize, SampledAccess)],
        records: Lanes<'_>,
        format: &RecordFormat,
    ) -> Corrections {
        let memory_sides = self.memory_sides();
        let (measured, alike) = self.measured_all(accesses, records, format);
        let corrections = accesses
            .iter()
            .zip(&measured)
            .filter_map(|((slot, access), m)| {
                let moved = moves(access, m.as_ref()?, self.usage_scale, &memory_sides, format);
                Some((*slot, Moves::new(moved)))
            })
            .collect();
        Corrections {
            measured,
            moves: corrections,
            alike,
        }
    }

    /// Corrects `timing` (the timing values of each record of `records`,
    /// [`RecordFormat::timing_width`] each: `t`, the usage, the divergent arms) for every
    /// access of `accesses` (each with the index of its first counter in a record of
    /// `records`, of `format`), from what the warps did there, each access in turn in one
    /// pass over the records; returns what they did, per access (`None`: never run, or
    /// counters past the record's end).
    pub fn correct_all(
        &self,
        accesses: &[(usize, SampledAccess)],
        records: &[u64],
        format: &RecordFormat,
        timing: &mut [u64],
    ) -> Vec<Option<Measured>> {
        let (stride, width) = (format.work_item_stride(), format.timing_width());
        let Corrections {
            measured,
            moves: corrections,
            ..
        } = self.corrections(accesses, Lanes::All(records), format);
        for (rec, raw) in timing
            .chunks_exact_mut(width)
            .zip(records.chunks_exact(stride))
        {
            for (slot, moved) in &corrections {
                moved.apply(rec, raw[*slot + SAMPLE_RUNS]);
            }
        }
        measured
    }

    /// [`SampledLaunch::correct_all`] on the timing values of each record of `records`
    /// itself (each access's counters lie past them, so that what the warps did is
    /// measured from the records as they came), which then end up packed at the start of
    /// `records` ([`RecordFormat::timing_only`]), record after record, in the same pass.
    pub fn correct_all_packed(
        &self,
        accesses: &[(usize, SampledAccess)],
        records: &mut [u64],
        format: &RecordFormat,
    ) -> Vec<Option<Measured>> {
        let (stride, width) = (format.work_item_stride(), format.timing_width());
        let Corrections {
            measured,
            moves: corrections,
            alike,
        } = self.corrections(accesses, Lanes::All(records), format);
        // Records go front to back (row by row of the NDRange, in linear global id
        // order), each to an earlier place or its own: packing overwrites nothing still
        // to be read. The row of a group alike to the one to its left takes that one's
        // packed row (corrected and packed before it, and never overwritten since).
        let [gx, gy, gz] = self.geometry.global.map(|g| g as usize);
        let [lx, ly, lz] = self.geometry.local.map(|l| l.max(1) as usize);
        let [ngx, ngy, _] = self.geometry.groups().map(|n| n as usize);
        for z in 0..gz {
            for y in 0..gy {
                let row = (z * gy + y) * gx;
                let groups = ((z / lz) * ngy + y / ly) * ngx;
                for x in (0..gx).step_by(lx) {
                    let (at, ex) = (row + x, lx.min(gx - x));
                    if alike[groups + x / lx] {
                        records.copy_within((at - lx) * width..(at - lx + ex) * width, at * width);
                        continue;
                    }
                    for i in at..at + ex {
                        let rec = &mut records[i * stride..][..stride];
                        for (slot, moved) in &corrections {
                            moved.apply(rec, rec[*slot + SAMPLE_RUNS]);
                        }
                        records.copy_within(i * stride..i * stride + width, i * width);
                    }
                }
            }
        }
        measured
    }

    /// The warp records of a launch in warps whose lanes that ran a sampled access are
    /// kept whole (`records`, as [`KeptLanes`] lays them out), corrected in place: each
    /// kept lane corrected for every access of `accesses` from what the warps did there,
    /// then folded into its warp's record, so that the warp records (at the start of
    /// `records`, [`RecordFormat::warp_stride`] each) are those of the corrected lanes
    /// reduced. Returns how many values the warp records are, and what the warps did at
    /// each access. The kept lanes' records are read, not changed.
    pub fn correct_warps(
        &self,
        accesses: &[(usize, SampledAccess)],
        records: &mut [u64],
        format: &RecordFormat,
    ) -> (usize, Vec<Option<Measured>>) {
        let layout = self.geometry.kept_lanes(format, self.arch.warp_size);
        // The warp records corrected beside the masks and the lanes as they came.
        let (warps, tail) = records.split_at_mut(layout.masks().start);
        let measured = self.fold_kept(accesses, &layout, tail, format, warps);
        (warps.len(), measured)
    }

    /// Corrects the kept lanes of `tail` (the records from the masks on, as `layout` lays
    /// them out) and folds each into its warp's record in `warps`.
    fn fold_kept(
        &self,
        accesses: &[(usize, SampledAccess)],
        layout: &KeptLanes,
        tail: &[u64],
        format: &RecordFormat,
        warps: &mut [u64],
    ) -> Vec<Option<Measured>> {
        let Corrections {
            measured,
            moves: corrections,
            ..
        } = self.corrections(accesses, Lanes::Kept(layout, tail), format);
        let memory = self.arch.memory_side_resource();
        let stride = layout.item_stride;
        // The timing values are what a fold reads and a correction moves; the counters
        // after them are only read.
        let width = format.timing_width();
        let dense: Vec<_> = corrections.iter().map(|(_, m)| m.dense(width)).collect();
        let mut lane = vec![0u64; width];
        let mut summed = SummedMoves::new(&dense);
        layout.visit(tail, |w, _, kept| {
            let warp = &mut warps[w * layout.warp_stride..][..layout.warp_stride];
            for rec in kept.chunks_exact(stride) {
                lane.copy_from_slice(&rec[..width]);
                let runs = corrections.iter().map(|(slot, _)| rec[*slot + SAMPLE_RUNS]);
                if !summed.apply(runs, &mut lane) {
                    for ((slot, moved), dense) in corrections.iter().zip(&dense) {
                        let runs = rec[*slot + SAMPLE_RUNS];
                        moved.apply_dense(dense, &mut lane, runs);
                    }
                }
                format.fold_lane(warp, &lane, memory);
            }
        });
        measured
    }
}

/// [`SampledLaunch::correct_warps`] of records as they came (`records`: a sweep's points
/// each correct them anew): the warp records, corrected, and what the warps did at each
/// access.
pub fn warp_records(
    records: &[u64],
    format: &RecordFormat,
    samples: &[(usize, SampledAccess)],
    launch: &SampledLaunch<'_>,
) -> (Vec<u64>, Vec<Option<Measured>>) {
    let layout = launch.geometry.kept_lanes(format, launch.arch.warp_size);
    let (warps, tail) = records.split_at(layout.masks().start);
    let mut warps = warps.to_vec();
    let measured = launch.fold_kept(samples, &layout, tail, format, &mut warps);
    (warps, measured)
}

/// What the model reads of `records` (of `format`): the timing values of each (`t`, the
/// usage, the divergent arms; the profile's and the samples' counters follow), records
/// of [`RecordFormat::timing_only`], corrected for every sampled access of `samples`
/// (each with the index of its counters in a record) from what the warps of `launch` did
/// there; and what they did, per sampled access (`None`: never run, or counters past the
/// record's end).
pub fn timing_records<'r>(
    records: &'r [u64],
    format: &RecordFormat,
    samples: &[(usize, SampledAccess)],
    launch: &SampledLaunch<'_>,
) -> (Cow<'r, [u64]>, Vec<Option<Measured>>) {
    let (stride, width) = (format.work_item_stride(), format.timing_width());
    if width >= stride {
        return (Cow::Borrowed(records), vec![None; samples.len()]);
    }
    let mut timing: Vec<u64> = records
        .chunks_exact(stride)
        .flat_map(|r| &r[..width])
        .copied()
        .collect();
    let measured = launch.correct_all(samples, records, format, &mut timing);
    (Cow::Owned(timing), measured)
}

/// [`timing_records`] in `records` itself, where nothing else needs them as they are: a
/// large launch's records are megabytes, and a corrected copy of them fresh memory. The
/// timing values of each record, corrected, end up packed at the start of `records`
/// ([`RecordFormat::timing_only`]); returns how many values that is, and what the warps
/// did at each access.
pub fn timing_records_in_place(
    records: &mut [u64],
    format: &RecordFormat,
    samples: &[(usize, SampledAccess)],
    launch: &SampledLaunch<'_>,
) -> (usize, Vec<Option<Measured>>) {
    let (stride, width) = (format.work_item_stride(), format.timing_width());
    if width >= stride {
        return (records.len(), vec![None; samples.len()]);
    }
    let measured = launch.correct_all_packed(samples, records, format);
    (records.len() / stride * width, measured)
}

/// The lines the other global loads of `access`'s innermost loop bring into a warp's L1
/// for each of its executions (`m`): those not sampled as charged (`loop_lines`), each
/// sampled one (`loop_peers`) as measured, in the share of this access's executions it
/// ran in (a load under an `if` the loop takes one time in four: a quarter of its lines).
/// A peer whose counters lie past the record's end counts as charged; one the L1 holds
/// whole (`held`: its buffer fits there) brings none, since a hit evicts nothing (SHOC's
/// `BFS_kernel_warp`, whose gathers of a 16 KB `levels` kept `edgeArray`'s walk out of
/// the L1 when counted as 13.8 new lines an execution; GPGPU-Sim serves the walk from it).
pub(super) fn loop_lines(
    access: &SampledAccess,
    m: &Measured,
    accesses: &[(usize, SampledAccess)],
    measured: &[Option<Measured>],
    stride: usize,
    held: &dyn Fn(&SampledAccess) -> bool,
) -> f64 {
    let peers: f64 = access
        .loop_peers
        .iter()
        .filter_map(|&[line, column]| {
            accesses
                .iter()
                .zip(measured)
                .find(|((_, a), _)| a.line == line && a.column == column)
        })
        .filter(|((_, peer), _)| !held(peer))
        .map(|((slot, peer), p)| match p {
            Some(p) => p.transactions * (p.executions / m.executions).min(1.0),
            None if !counted(*slot, stride) => peer.charged_transactions,
            None => 0.0,
        })
        .sum();
    f64::from(access.loop_lines) + peers
}
