//! Accesses whose addresses only the run can tell: what a warp's lanes did, from the
//! addresses the annotated program sampled, in place of the static guess.
//!
//! The front end charges every memory access from a static analysis of its address across
//! a warp's lanes. Where the address comes from loaded data (`a[idx[i]]`, a pointer
//! chase) or a stride known only at run time, that analysis cannot tell how many lines a
//! warp touches, or how many passes the shared banks need: a global access is charged as a
//! gather (one line per lane), a shared one as conflict-free. For such an access the
//! annotated program records, per work-item, how many times it ran and the indices it
//! used the first and the last time ([`SAMPLE_COUNTERS`]; [`SampledAccess`]). [`measure`] groups
//! the work-items into warps as the model does and counts, per warp, the distinct 128-byte
//! lines and 32-byte sectors of the lanes' first addresses and of their last (global), or
//! the bank-conflict degree (shared), and takes the mean; [`SampledLaunch::correct_all`] then moves every
//! work-item's cycles and usage from what was charged to what the warps did, execution
//! by execution.
//!
//! Two samples per work-item stand for all of its executions: the lanes of a warp run the
//! access together, so their first addresses are one warp access and their last another;
//! the ones between are taken to be alike (a chase whose alignment drifts, a gather that
//! stays scattered).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::arch::Architecture;
use crate::launch::LaunchGeometry;
use crate::occupancy::{occupancy, KernelResources};
use crate::records::{RecordFormat, SAMPLE_COUNTERS, SAMPLE_RUNS};
use crate::warps::rows_alike;

/// Bytes of a cache line: one coalesced request.
pub const LINE: i64 = 128;
/// Bytes of a DRAM/L2 sector.
pub const SECTOR: i64 = 32;
/// Shared-memory banks, each 4 bytes wide.
const BANKS: i64 = 32;
/// Bytes of a shared-memory bank's word.
const WORD: i64 = 4;

/// An access of the kernel's source whose addresses the annotated program samples, and
/// what the static analysis charged for each of its executions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SampledAccess {
    /// Where it is in the source (the subscript's first character).
    pub line: u32,
    /// Column, 1-based.
    pub column: u32,
    /// A `__local` (shared-memory) access; else global.
    pub shared: bool,
    /// Bytes between consecutive indices (the element's size).
    pub element_bytes: u32,
    /// Bytes one lane moves per execution.
    pub width: u32,
    /// Requests charged per execution: 128-byte lines (global) or bank passes (shared).
    pub charged_transactions: f64,
    /// 32-byte sectors charged per execution (global).
    pub charged_sectors: f64,
    /// The cycles a work-item's path gains per further request of one execution (the
    /// slope of the path steps the annotation charges).
    pub cycles_per_transaction: f64,
    /// Per resource (in the order of `Architecture::resources`), the usage one execution
    /// adds per further request, in cycles (bytes for the L2 and DRAM).
    pub usage_per_transaction: Vec<f64>,
    /// Per resource, the usage one execution adds per further sector.
    pub usage_per_sector: Vec<f64>,
    /// The kernel parameter its base is, if it is one (the buffer it reads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param: Option<u32>,
    /// The cycles one execution's path saves where the L1 serves it rather than the level
    /// it was charged at: non-zero only for a load inside a loop charged past the L1.
    #[serde(default)]
    pub l1_cycles: f64,
}

/// What the warps of one launch did at a sampled access: per execution, averaged over the
/// warps that ran it (weighted by how often each ran it).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Measured {
    /// Requests: lines (global) or bank passes (shared).
    pub transactions: f64,
    /// Sectors (global; 0 for shared).
    pub sectors: f64,
    /// Warps that ran it.
    pub warps: u64,
    /// Whether the L1 serves it: a load in a loop whose buffer fits in the L1.
    pub l1_resident: bool,
}

/// Calls `f` with the record indices (linear global ids) of every warp of `geometry`,
/// work-group by work-group: 32 (the warp size) consecutive local linear ids, as the model
/// forms them ([`crate::kernel`]).
pub fn for_each_warp(geometry: &LaunchGeometry, warp_size: u64, mut f: impl FnMut(&[u64])) {
    let mut ids = Vec::new();
    for_each_group(geometry, |rows, ex, _| {
        ids.clear();
        for &row in rows {
            ids.extend(row as u64..(row + ex) as u64);
        }
        ids.chunks(warp_size.max(1) as usize).for_each(&mut f);
    });
}

/// The requests and sectors of one warp access whose lanes address `addresses` (bytes),
/// each moving `width` bytes: distinct 128-byte lines and 32-byte sectors (global), or
/// the most distinct 4-byte words one of the 32 banks serves (shared; one word read by
/// many lanes is a broadcast).
pub fn warp_access(addresses: &[i64], width: u32, shared: bool) -> (u32, u32) {
    warp_access_with(addresses, width, shared, &mut Vec::new())
}

/// [`warp_access`] with a buffer to reuse.
fn warp_access_with(
    addresses: &[i64],
    width: u32,
    shared: bool,
    scratch: &mut Vec<i64>,
) -> (u32, u32) {
    let width = i64::from(width.max(1));
    // The distinct blocks of `1 << shift` bytes the lanes touch, sorted, in `scratch`.
    // Every unit is a power of two: an arithmetic shift is the division rounding down
    // (`div_euclid`), without a division instruction per lane and block size.
    let blocks = |shift: u32, scratch: &mut Vec<i64>| {
        scratch.clear();
        for &a in addresses {
            let (first, last) = (a >> shift, (a + width - 1) >> shift);
            // Most lanes touch one block (an extend of a range costs more than a push).
            if first == last {
                scratch.push(first);
            } else {
                scratch.extend(first..=last);
            }
        }
        scratch.sort_unstable();
        scratch.dedup();
    };
    if shared {
        blocks(WORD.trailing_zeros(), scratch);
        // The most distinct words one bank holds.
        let mut per_bank = [0u32; BANKS as usize];
        for w in scratch.iter() {
            per_bank[w.rem_euclid(BANKS) as usize] += 1;
        }
        let degree = per_bank.into_iter().max().unwrap_or(0);
        return (degree.max(1), 0);
    }
    blocks(LINE.trailing_zeros(), scratch);
    let lines = scratch.len() as u32;
    blocks(SECTOR.trailing_zeros(), scratch);
    (lines, scratch.len() as u32)
}

/// What the warps did at `access`, whose [`SAMPLE_COUNTERS`] are at `slot` of each record
/// of `data` (of `format`): per warp, the mean of its first and its last access (the lanes run
/// the access together, so their first indices are one warp access, and their last ones
/// another). `None` where no warp ran it.
pub fn measure(
    access: &SampledAccess,
    geometry: &LaunchGeometry,
    warp_size: u64,
    data: &[u64],
    format: &RecordFormat,
    slot: usize,
) -> Option<Measured> {
    measure_all(&[(slot, access)], geometry, warp_size, data, format)
        .pop()
        .flatten()
}

/// [`measure`] of every access of `accesses` (each with its counters' slot), in one walk
/// over the warps: a large launch's records are megabytes, each walk a trip through all
/// of them.
pub fn measure_all(
    accesses: &[(usize, &SampledAccess)],
    geometry: &LaunchGeometry,
    warp_size: u64,
    data: &[u64],
    format: &RecordFormat,
) -> Vec<Option<Measured>> {
    measure_groups(accesses, geometry, warp_size, data, format).0
}

/// The work-groups of `geometry` in order (x fastest): each group's rows of work-items
/// (where each starts in the records, in work-items) and how long they are, and whether
/// the group to its left has rows as long (its rows then start `local[0]` before: it is
/// whole along x, and so is this one).
fn for_each_group(geometry: &LaunchGeometry, mut f: impl FnMut(&[usize], usize, bool)) {
    let [gx, gy, gz] = geometry.global;
    let [lx, ly, lz] = geometry.local;
    let [ngx, ngy, ngz] = geometry.groups();
    let mut rows = Vec::new();
    for bz in 0..ngz {
        for by in 0..ngy {
            for bx in 0..ngx {
                let (ex, ey, ez) = (
                    lx.min(gx - bx * lx),
                    ly.min(gy - by * ly),
                    lz.min(gz - bz * lz),
                );
                rows.clear();
                for z in 0..ez {
                    for y in 0..ey {
                        let row = ((bz * lz + z) * gy + (by * ly + y)) * gx + bx * lx;
                        rows.push(row as usize);
                    }
                }
                // Every group but the last of a row of groups is whole along x; the last may
                // be partial, and then has fewer work-items than the one to its left.
                f(&rows, ex as usize, bx > 0 && ex == lx);
            }
        }
    }
}

/// [`measure_all`], and per work-group (linear, x fastest) whether its records are those
/// of the group to its left, row by row: such a group's warps did what that group's did
/// (a `__local` array indexed by local ids: every group of a scan alike), so they are not
/// measured again, and its records correct to that group's.
fn measure_groups(
    accesses: &[(usize, &SampledAccess)],
    geometry: &LaunchGeometry,
    warp_size: u64,
    data: &[u64],
    format: &RecordFormat,
) -> (Vec<Option<Measured>>, Vec<bool>) {
    let stride = format.work_item_stride();
    let warp_size = warp_size.max(1) as usize;
    let lx = geometry.local[0] as usize;
    // Per access: the weight, requests and sectors summed over warps, and the warps.
    let mut sums = vec![(0.0, 0.0, 0.0, 0u64); accesses.len()];
    // What each warp of the last group measured added, per access, in order: an alike
    // group adds the same, warp by warp (the sums come out as if measured).
    let mut added: Vec<(usize, f64, f64, f64)> = Vec::new();
    // Per access and warp of a group, the last lane addresses measured there and what
    // they gave: a warp whose lanes address what the same warp of the previous group did
    // needs no measuring, alike groups or not.
    let group_warps = geometry.work_group_size().div_ceil(warp_size as u64) as usize;
    let mut seen = vec![WarpSeen::default(); accesses.len() * group_warps];
    let mut alike = Vec::new();
    let (mut ids, mut first, mut last, mut scratch) = (
        Vec::new(),
        Vec::with_capacity(warp_size),
        Vec::with_capacity(warp_size),
        Vec::with_capacity(2 * warp_size),
    );
    for_each_group(geometry, |rows, ex, left| {
        let same = left
            && rows_alike(
                data,
                rows.iter().map(|row| row * stride),
                ex * stride,
                lx * stride,
            );
        alike.push(same);
        if !same {
            added.clear();
            ids.clear();
            for &row in rows {
                ids.extend(row as u64..(row + ex) as u64);
            }
            for (w, warp) in ids.chunks(warp_size).enumerate() {
                let seen = &mut seen[w * accesses.len()..][..accesses.len()];
                for (k, ((slot, access), seen)) in accesses.iter().zip(seen).enumerate() {
                    let bytes = i64::from(access.element_bytes);
                    first.clear();
                    last.clear();
                    let mut runs = 0u64;
                    for &id in warp {
                        let rec = format.item(&data[id as usize * stride..][..stride]);
                        let counted = rec.sample(*slot);
                        if counted.runs > 0 {
                            runs = runs.max(counted.runs);
                            first.push((counted.first as i64).wrapping_mul(bytes));
                            last.push((counted.last as i64).wrapping_mul(bytes));
                        }
                    }
                    if runs == 0 {
                        continue;
                    }
                    let (requests, in_sectors) = match seen.measured {
                        Some(m) if seen.first == first && seen.last == last => m,
                        _ => {
                            let (t1, s1) =
                                warp_access_with(&first, access.width, access.shared, &mut scratch);
                            let (t2, s2) =
                                warp_access_with(&last, access.width, access.shared, &mut scratch);
                            seen.first.clone_from(&first);
                            seen.last.clone_from(&last);
                            *seen.measured.insert((t1 + t2, s1 + s2))
                        }
                    };
                    let w = runs as f64;
                    added.push((
                        k,
                        w,
                        w * f64::from(requests) / 2.0,
                        w * f64::from(in_sectors) / 2.0,
                    ));
                }
            }
        }
        for &(k, w, requests, in_sectors) in &added {
            let (weight, transactions, sectors, warps_run) = &mut sums[k];
            *weight += w;
            *transactions += requests;
            *sectors += in_sectors;
            *warps_run += 1;
        }
    });
    let measured = sums
        .into_iter()
        .map(|(weight, transactions, sectors, warps_run)| {
            (warps_run > 0).then(|| Measured {
                transactions: transactions / weight,
                sectors: sectors / weight,
                warps: warps_run,
                l1_resident: false,
            })
        })
        .collect();
    (measured, alike)
}

/// The lanes' first and last addresses one warp position of a work-group last had at an
/// access, and the requests and sectors they came to (first and last summed).
#[derive(Clone, Default)]
struct WarpSeen {
    first: Vec<i64>,
    last: Vec<i64>,
    measured: Option<(u32, u32)>,
}

/// The values of a record of `format` (the usage in units of `1 / usage_scale` cycles)
/// one execution of `access` moves from what it was charged to what `measured` says the
/// warps did (their index in the record: the cycles' and the usage's), and by how much. Where the L1 serves the access, it also saves the latency beyond the L1's
/// and moves no bytes past the L1 (the resources `memory_sides`). A shared access moves
/// none of the memory side's values, a global one none of the shared banks' (the rest
/// would each cost a rounding a record).
fn moves(
    access: &SampledAccess,
    measured: &Measured,
    usage_scale: u64,
    memory_sides: &[usize],
    format: &RecordFormat,
) -> Vec<(usize, f64)> {
    let fewer = access.charged_transactions - measured.transactions;
    let fewer_sectors = access.charged_sectors - measured.sectors;
    let scale = usage_scale as f64;
    let mut cycles = access.cycles_per_transaction * fewer;
    if measured.l1_resident {
        cycles += access.l1_cycles;
    }
    let usage = access
        .usage_per_transaction
        .iter()
        .zip(&access.usage_per_sector)
        .enumerate()
        .take(format.resources)
        .map(|(r, (t, s))| {
            let by = if measured.l1_resident && memory_sides.contains(&r) {
                // All that was charged: the usage is linear in requests and sectors.
                (t * access.charged_transactions + s * access.charged_sectors) * scale
            } else {
                (t * fewer + s * fewer_sectors) * scale
            };
            (format.usage(r), by)
        });
    std::iter::once((RecordFormat::T, cycles))
        .chain(usage)
        .filter(|(_, by)| *by != 0.0)
        .collect()
}

/// Moves `rec`'s values `moved` ([`moves`]) for `runs` executions.
fn apply(rec: &mut [u64], runs: u64, moved: &[(usize, f64)]) {
    if runs == 0 {
        return;
    }
    let runs = runs as f64;
    for &(v, by) in moved {
        rec[v] = rounded_count(rec[v] as f64 - runs * by);
    }
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
fn rounded_count(x: f64) -> u64 {
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
    moves: Vec<(usize, Vec<(usize, f64)>)>,
    alike: Vec<bool>,
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
        records: &[u64],
        format: &RecordFormat,
    ) -> (Vec<Option<Measured>>, Vec<bool>) {
        let stride = format.work_item_stride();
        let inside: Vec<(usize, &SampledAccess)> = accesses
            .iter()
            .filter(|(slot, _)| slot + SAMPLE_COUNTERS <= stride)
            .map(|(slot, a)| (*slot, a))
            .collect();
        let warp_size = u64::from(self.arch.warp_size);
        let (measured, alike) = measure_groups(&inside, self.geometry, warp_size, records, format);
        let mut measured = measured.into_iter();
        let measured = accesses
            .iter()
            .map(|(slot, access)| {
                if slot + SAMPLE_COUNTERS > stride {
                    return None;
                }
                let mut m = measured.next().flatten()?;
                let buffer = access.param.and_then(|p| (self.buffer_bytes)(p));
                m.l1_resident = access.l1_cycles > 0.0
                    && buffer.zip(self.l1_left()).is_some_and(|(b, l1)| b <= l1);
                Some(m)
            })
            .collect();
        (measured, alike)
    }

    fn memory_sides(&self) -> Vec<usize> {
        [self.arch.l2_resource(), self.arch.dram_resource()]
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
        records: &[u64],
        format: &RecordFormat,
    ) -> Corrections {
        let memory_sides = self.memory_sides();
        let (measured, alike) = self.measured_all(accesses, records, format);
        let corrections = accesses
            .iter()
            .zip(&measured)
            .filter_map(|((slot, access), m)| {
                let moved = moves(access, m.as_ref()?, self.usage_scale, &memory_sides, format);
                Some((*slot, moved))
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
        } = self.corrections(accesses, records, format);
        for (rec, raw) in timing
            .chunks_exact_mut(width)
            .zip(records.chunks_exact(stride))
        {
            for (slot, moved) in &corrections {
                apply(rec, raw[*slot + SAMPLE_RUNS], moved);
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
        } = self.corrections(accesses, records, format);
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
                            apply(rec, rec[*slot + SAMPLE_RUNS], moved);
                        }
                        records.copy_within(i * stride..i * stride + width, i * width);
                    }
                }
            }
        }
        measured
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry(global: u64, local: u64) -> LaunchGeometry {
        LaunchGeometry {
            global: [global, 1, 1],
            local: [local, 1, 1],
        }
    }

    #[test]
    fn rounding_is_the_standard_librarys() {
        let edges = [
            0.0,
            -0.0,
            0.5,
            -0.5,
            1.5,
            2.5,
            -2.5,
            0.49999999999999994,
            -0.49999999999999994,
            0.5000000000000001,
            1.4999999999999998,
            2251799813685247.5,
            2251799813685248.5,
            4503599627370495.5,
            4503599627370496.0,
            4503599627370497.0,
            9007199254740993.0,
            1e18 + 0.5,
            4.611686018427388e18,
            1.8446744073709552e19,
            1e300,
            f64::INFINITY,
            -1e18,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
            123456.4999999,
            123456.5000001,
        ];
        // Every double next to each half and each integer of many magnitudes, and a
        // sweep over fractions.
        let halves = (0..62).flat_map(|e| {
            let m = (1u64 << e) as f64;
            [m - 0.5, m + 0.5, m, m - 1.0, m + 1.0]
                .into_iter()
                .flat_map(|x| {
                    [
                        x,
                        f64::from_bits(x.to_bits() + 1),
                        f64::from_bits(x.to_bits().saturating_sub(1)),
                    ]
                })
        });
        let sweep = (0..20_000).map(|i| (i as f64 - 10_000.0) * 0.0625 + 1e-9 * i as f64);
        for x in edges.into_iter().chain(halves).chain(sweep) {
            for x in [x, -x] {
                assert_eq!(rounded_count(x), x.round().max(0.0) as u64, "{x}");
            }
        }
        assert_eq!(rounded_count(f64::NAN), 0);
    }

    #[test]
    fn consecutive_words_are_one_line_and_four_sectors() {
        let a: Vec<i64> = (0..32).map(|l| l * 4).collect();
        assert_eq!(warp_access(&a, 4, false), (1, 4));
        // Eight bytes a lane: two lines, eight sectors.
        let a: Vec<i64> = (0..32).map(|l| l * 8).collect();
        assert_eq!(warp_access(&a, 8, false), (2, 8));
    }

    #[test]
    fn a_scatter_is_a_line_a_lane() {
        let a: Vec<i64> = (0..32).map(|l| l * 4096 + 12).collect();
        assert_eq!(warp_access(&a, 4, false), (32, 32));
    }

    #[test]
    fn shared_banks_count_the_most_words_on_one_bank() {
        let conflict_free: Vec<i64> = (0..32).map(|l| l * 4).collect();
        assert_eq!(warp_access(&conflict_free, 4, true).0, 1);
        // A 32-word stride puts every lane on bank 0.
        let column: Vec<i64> = (0..32).map(|l| l * 128).collect();
        assert_eq!(warp_access(&column, 4, true).0, 32);
        // One word read by every lane is a broadcast.
        assert_eq!(warp_access(&[64; 32], 4, true).0, 1);
        // Stride 2 words: lanes 0 and 16 share bank 0.
        let two: Vec<i64> = (0..32).map(|l| l * 8).collect();
        assert_eq!(warp_access(&two, 4, true).0, 2);
    }

    #[test]
    fn warps_follow_local_ids_within_each_group() {
        let warps = |g: &LaunchGeometry| {
            let mut w: Vec<Vec<u64>> = Vec::new();
            for_each_warp(g, 32, |ids| w.push(ids.to_vec()));
            w
        };
        let w = warps(&geometry(96, 48));
        assert_eq!(w.len(), 4);
        assert_eq!(w[0], (0..32).collect::<Vec<_>>());
        assert_eq!(w[1], (32..48).collect::<Vec<_>>());
        assert_eq!(w[2], (48..80).collect::<Vec<_>>());
        // Two dimensions: a 4x16 group of a 8x16 grid is two warps of two rows each.
        let g = LaunchGeometry {
            global: [8, 16, 1],
            local: [4, 16, 1],
        };
        let first = warps(&g).remove(0);
        assert_eq!(&first[..8], &[0, 1, 2, 3, 8, 9, 10, 11]);
    }

    fn access(shared: bool) -> SampledAccess {
        SampledAccess {
            line: 3,
            column: 9,
            shared,
            element_bytes: 4,
            width: 4,
            charged_transactions: 32.0,
            charged_sectors: 32.0,
            cycles_per_transaction: 2.0,
            usage_per_transaction: vec![0.0, 1.0],
            usage_per_sector: vec![0.0, 0.5],
            param: Some(1),
            l1_cycles: 0.0,
        }
    }

    /// The records of these tests: `[t, issue, mem]`, then one sampled access's counters
    /// at 3.
    const SIX: RecordFormat = RecordFormat {
        resources: 2,
        arms: 0,
        profile_counters: 0,
        sampled_accesses: 1,
    };

    /// Records `[t, issue, mem, count, first, last]` per work-item, the same index first
    /// and last.
    fn records(first: impl Fn(u64) -> u64, n: u64) -> Vec<u64> {
        (0..n)
            .flat_map(|i| [1000, 10, 10_000, 5, first(i), first(i)])
            .collect()
    }

    #[test]
    fn a_chase_that_stays_coalesced_is_charged_one_line() {
        let g = geometry(64, 64);
        let data = records(|i| i + 1025, 64);
        let m = measure(&access(false), &g, 32, &data, &SIX, 3).unwrap();
        // Indices 1025..1056 and 1057..1088: 128 bytes each, straddling two lines.
        assert_eq!(m.warps, 2);
        assert_eq!(m.transactions, 2.0);
        assert_eq!(m.sectors, 5.0);
        let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
        let moved = moves(&access(false), &m, 2, &[], &SIX);
        for (rec, raw) in timing.chunks_exact_mut(3).zip(data.chunks_exact(6)) {
            apply(rec, raw[3], &moved);
        }
        // Five executions, 30 requests and 27 sectors fewer each: 2 cycles a request, and
        // usage 1 a request plus 0.5 a sector (x 2 units a cycle).
        assert_eq!(timing[0], 1000 - 5 * 60);
        assert_eq!(timing[1], 10);
        assert_eq!(timing[2], 10_000 - 5 * 2 * 43 - 5);
    }

    #[test]
    fn lanes_that_never_ran_it_are_left_out() {
        let g = geometry(32, 32);
        let mut data = records(|i| i * 1024, 32);
        for (i, rec) in data.chunks_mut(6).enumerate() {
            if i % 2 == 1 {
                rec[3] = 0;
            }
        }
        let m = measure(&access(false), &g, 32, &data, &SIX, 3).unwrap();
        assert_eq!(m.transactions, 16.0);
        let none = records(|_| 0, 32)
            .chunks(6)
            .flat_map(|r| [r[0], r[1], r[2], 0, 0, 0])
            .collect::<Vec<_>>();
        assert_eq!(measure(&access(false), &g, 32, &none, &SIX, 3), None);
    }

    #[test]
    fn shared_conflicts_add_cycles() {
        let g = geometry(32, 32);
        let data = records(|i| i * 32, 32);
        let mut a = access(true);
        a.charged_transactions = 1.0;
        a.charged_sectors = 0.0;
        let m = measure(&a, &g, 32, &data, &SIX, 3).unwrap();
        assert_eq!(m.transactions, 32.0);
        let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
        let moved = moves(&a, &m, 1, &[], &SIX);
        for (rec, raw) in timing.chunks_exact_mut(3).zip(data.chunks_exact(6)) {
            apply(rec, raw[3], &moved);
        }
        assert_eq!(timing[0], 1000 + 5 * 31 * 2);
        assert_eq!(timing[2], 10_000 + 5 * 31);
    }

    /// Records `[t, issue, mem, count, first, last]` of a 2D launch whose groups repeat
    /// each other in runs along x (a `__local` array indexed by local ids), except where
    /// `kind` differs, with lanes that skip the access, and a partial last column and row.
    fn alike_groups(g: &LaunchGeometry, kind: impl Fn(u64, u64) -> u64) -> Vec<u64> {
        let [gx, gy, _] = g.global;
        let [lx, ly, _] = g.local;
        let mut data = Vec::new();
        for y in 0..gy {
            for x in 0..gx {
                let (k, lid) = (kind(x / lx, y / ly), (y % ly) * lx + x % lx);
                let first = (lid * (2 * k + 1)) % 97;
                let runs = u64::from((lid + k) % 5 != 0) * (1 + k);
                data.extend([1000 + lid % 3, 10, 10_000, runs, first, first + 32 * k]);
            }
        }
        data
    }

    /// What the warps did at the access, measured here warp by warp without any reuse.
    fn measured_by_hand(g: &LaunchGeometry, a: &SampledAccess, data: &[u64]) -> Measured {
        let (mut weight, mut transactions, mut sectors, mut warps) = (0.0, 0.0, 0.0, 0);
        for_each_warp(g, 32, |warp| {
            let ran: Vec<&[u64]> = warp
                .iter()
                .map(|&id| &data[id as usize * 6..][..6])
                .filter(|r| r[3] > 0)
                .collect();
            let Some(runs) = ran.iter().map(|r| r[3]).max() else {
                return;
            };
            let at = |k: usize| ran.iter().map(|r| r[k] as i64 * 4).collect::<Vec<_>>();
            let (t1, s1) = warp_access(&at(4), a.width, a.shared);
            let (t2, s2) = warp_access(&at(5), a.width, a.shared);
            weight += runs as f64;
            transactions += runs as f64 * f64::from(t1 + t2) / 2.0;
            sectors += runs as f64 * f64::from(s1 + s2) / 2.0;
            warps += 1;
        });
        Measured {
            transactions: transactions / weight,
            sectors: sectors / weight,
            warps,
            l1_resident: false,
        }
    }

    #[test]
    fn groups_alike_measure_and_correct_as_each_on_its_own() {
        let g = LaunchGeometry {
            global: [150, 11, 1],
            local: [32, 4, 1],
        };
        // Runs of two or three alike groups along x, another kind on the second row.
        let kind = |bx: u64, by: u64| (bx / 2 + by) % 3;
        let mut data = alike_groups(&g, kind);
        // Group (1, 0), alike to (0, 0) but for one work-item of its last row: another
        // index, and another `t`.
        let i = (3 * 150 + 32 + 5) * 6;
        data[i + 4] += 64;
        data[i] += 1;
        let arch = Architecture::load("gtx480").unwrap();
        let resources = KernelResources::default();
        let buffer_bytes = |_: u32| None;
        let launch = SampledLaunch {
            arch: &arch,
            geometry: &g,
            resources: &resources,
            buffer_bytes: &buffer_bytes,
            usage_scale: 2,
        };
        for shared in [true, false] {
            let mut a = access(shared);
            a.usage_per_transaction = vec![0.3, 1.7];
            let expected = measured_by_hand(&g, &a, &data);
            assert_eq!(measure(&a, &g, 32, &data, &SIX, 3), Some(expected));
            // Packed in place, reusing alike records' corrections, against a copy each
            // record of which is corrected on its own.
            let samples = [(3, a)];
            let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
            let whole = launch.correct_all(&samples, &data, &SIX, &mut timing);
            let mut packed = data.clone();
            let measured = launch.correct_all_packed(&samples, &mut packed, &SIX);
            assert_eq!(measured, whole);
            assert_eq!(&packed[..timing.len()], &timing[..]);
            assert_ne!(
                timing,
                data.chunks(6)
                    .flat_map(|r| r[..3].to_vec())
                    .collect::<Vec<_>>()
            );
        }
    }

    /// A partial last group whose work-items repeat the first ones of the (whole) group to
    /// its left is measured on its own: fewer lanes, other requests.
    #[test]
    fn a_partial_group_is_not_its_whole_neighbour() {
        let g = LaunchGeometry {
            global: [80, 1, 1],
            local: [32, 1, 1],
        };
        let data = alike_groups(&g, |_, _| 0);
        for shared in [true, false] {
            let a = access(shared);
            assert_eq!(
                measure(&a, &g, 32, &data, &SIX, 3),
                Some(measured_by_hand(&g, &a, &data))
            );
        }
    }
}
