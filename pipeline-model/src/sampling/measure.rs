//! What the warps did at sampled accesses: the record indices of each warp, the lines,
//! sectors or bank passes of one warp access, and their mean over a launch's warps.

use std::collections::{BTreeMap, BTreeSet};

use super::{Measured, SampledAccess, LINE, SECTOR};
use crate::arch::L1Sets;
use crate::launch::LaunchGeometry;
use crate::records::{linear_id, KeptLanes, RecordFormat};
use crate::warps::rows_alike;

/// Shared-memory banks, each 4 bytes wide.
const BANKS: i64 = 32;
/// Bytes of a shared-memory bank's word.
const WORD: i64 = 4;

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
        // A coalesced warp's lanes come in order: the sort is then a pass that finds so.
        if !scratch.is_sorted() {
            scratch.sort_unstable();
        }
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
    let per_line = (LINE / SECTOR).trailing_zeros();
    // A warp's lanes touch few sectors: counted without a sort, whose branches on
    // gathered addresses the processor cannot foresee.
    if addresses.len() <= SMALL && width <= SECTOR {
        let shift = SECTOR.trailing_zeros();
        scratch.clear();
        for &a in addresses {
            let (first, last) = (a >> shift, (a + width - 1) >> shift);
            scratch.push(first);
            // At most the next sector: `width` is at most one.
            if last != first {
                scratch.push(last);
            }
        }
        return distinct_lines_and_sectors(scratch, per_line);
    }
    // The lines are the sectors' lines (a line holds whole sectors): one sort, and the
    // sorted sectors' lines counted where they change.
    blocks(SECTOR.trailing_zeros(), scratch);
    let mut lines = 0u32;
    let mut last = None;
    for &sector in scratch.iter() {
        let line = sector >> per_line;
        if last != Some(line) {
            lines += 1;
            last = Some(line);
        }
    }
    (lines, scratch.len() as u32)
}

/// The most values [`distinct`] counts without a sort: a warp's lanes, with room.
const SMALL: usize = 64;

/// How many distinct `v >> per_line` and distinct `v` the `sectors` hold, as
/// [`distinct`] counts each, in one pass over the pairs.
fn distinct_lines_and_sectors(sectors: &[i64], per_line: u32) -> (u32, u32) {
    let (mut lines, mut distinct) = (0u32, 0u32);
    for (i, &v) in sectors.iter().enumerate() {
        let line = v >> per_line;
        let (seen_line, seen) = sectors[..i].iter().fold((false, false), |(l, s), &w| {
            (l | (w >> per_line == line), s | (w == v))
        });
        lines += u32::from(!seen_line);
        distinct += u32::from(!seen);
    }
    (lines, distinct)
}

/// How many distinct `v >> shift` the `values` hold: for each value, whether one before it
/// is the same, in a loop without an early exit (the compiler vectorises it), `n^2 / 2`
/// comparisons for a handful of values where a sort branches on each.
fn distinct(values: &[i64], shift: u32) -> u32 {
    let mut count = 0u32;
    for (i, &v) in values.iter().enumerate() {
        let v = v >> shift;
        let seen = values[..i]
            .iter()
            .fold(false, |seen, &w| seen | (w >> shift == v));
        count += u32::from(!seen);
    }
    count
}

/// What the warps did at `access`, whose [`SAMPLE_COUNTERS`](crate::records::SAMPLE_COUNTERS) are at `slot` of each record
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
    measure_groups(accesses, geometry, warp_size, data, format, LINE, None).0
}

/// Where byte `offset` of lane `lane`'s frame lies among a warp's interleaved frames:
/// word `k` of the `warp_size` lanes side by side, `k x warp_size x 4` bytes in.
fn interleaved(offset: i64, lane: usize, warp_size: usize) -> i64 {
    let word = offset.div_euclid(WORD);
    (word * warp_size as i64 + lane as i64) * WORD + offset.rem_euclid(WORD)
}

/// The L1's sets and the work-groups one SM holds at once, for where the lines a launch's
/// lanes first touch fall ([`Measured::set_lines`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct SetProbe {
    /// The L1's ways and set index.
    pub sets: L1Sets,
    /// How many sets it has.
    pub count: u64,
    /// Work-groups are dealt round the SMs: the first SM holds those of linear ids
    /// `k * sm_count`, for `k` below `resident`.
    pub sm_count: usize,
    /// Work-groups one SM holds at once.
    pub resident: usize,
}

impl SetProbe {
    /// Whether work-group `group` (linear id) is among those the first SM holds at once.
    fn holds(&self, group: usize) -> bool {
        let sm_count = self.sm_count.max(1);
        group.is_multiple_of(sm_count) && group / sm_count < self.resident
    }

    /// The most of `lines` (line numbers) in one set.
    fn most_in_a_set(&self, lines: &BTreeSet<i64>) -> u32 {
        let mut per_set: BTreeMap<u64, u32> = BTreeMap::new();
        for &line in lines {
            let address = (line as u64).wrapping_mul(LINE as u64);
            *per_set
                .entry(self.sets.set_of(address, self.count))
                .or_default() += 1;
        }
        per_set.into_values().max().unwrap_or(0)
    }
}

/// How many of `runs` executions of a warp access enter a line of `fill` bytes (the L1's
/// fill) that none of the lanes held, where each lane walked from `first` to `last` in
/// equal steps: a lane crosses into a new fill every `fill / step` executions, and lanes
/// that start at different offsets within their fill cross at different executions (one
/// phase each). `None` where the lanes step a fill or more (no execution finds its lines
/// held) or ran it once.
pub(super) fn stream_misses(first: &[i64], last: &[i64], runs: u64, fill: i64) -> Option<f64> {
    if runs < 2 || first.is_empty() || first.len() != last.len() {
        return None;
    }
    let steps = (runs - 1) as i64;
    // The longest step, rounded up: the longest walk's, as rounding up keeps the order
    // (one division per warp where there was one per lane).
    let walked = first.iter().zip(last).map(|(f, l)| (l - f).abs()).max()?;
    let step = (walked + steps - 1) / steps;
    if step >= fill {
        return None;
    }
    // A fill of a power of two bytes (every architecture's) is found by shifts and a mask,
    // which are what `div_euclid` and `rem_euclid` by it come to.
    let (pow2, shift, mask) = (
        fill > 0 && (fill as u64).is_power_of_two(),
        fill.trailing_zeros(),
        fill - 1,
    );
    let fill_of = |a: i64| if pow2 { a >> shift } else { a.div_euclid(fill) };
    let in_fill = |a: i64| if pow2 { a & mask } else { a.rem_euclid(fill) };
    let crossings = first
        .iter()
        .zip(last)
        .map(|(f, l)| (fill_of(*l) - fill_of(*f)).abs())
        .max()
        .unwrap_or(0);
    // The distinct phases: a warp's lanes' on the stack, counted as `distinct` does (this
    // runs for every warp at every sampled access of a launch); more lanes sorted.
    let phase = |f: &i64| in_fill(*f) / step.max(1);
    let phases = if first.len() <= SMALL {
        let mut on_stack = [0i64; SMALL];
        for (p, f) in on_stack.iter_mut().zip(first) {
            *p = phase(f);
        }
        distinct(&on_stack[..first.len()], 0)
    } else {
        let mut all: Vec<i64> = first.iter().map(phase).collect();
        all.sort_unstable();
        all.dedup();
        all.len() as u32
    };
    let misses = 1 + crossings * i64::from(phases);
    Some((misses as f64).min(runs as f64))
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
                        let row = linear_id([bx * lx, by * ly + y, bz * lz + z], geometry.global);
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
pub(super) fn measure_groups(
    accesses: &[(usize, &SampledAccess)],
    geometry: &LaunchGeometry,
    warp_size: u64,
    data: &[u64],
    format: &RecordFormat,
    fill: i64,
    probe: Option<SetProbe>,
) -> (Vec<Option<Measured>>, Vec<bool>) {
    let stride = format.work_item_stride();
    let warp_size = warp_size.max(1) as usize;
    let lx = geometry.local[0] as usize;
    let mut sums = vec![Sums::default(); accesses.len()];
    // What each warp of the last group measured added, per access, in order: an alike
    // group adds the same, warp by warp (the sums come out as if measured).
    let mut added: Vec<(usize, WarpAdds)> = Vec::new();
    // Per access and warp of a group, the last lane addresses measured there and what
    // they gave: a warp whose lanes address what the same warp of the previous group did
    // needs no measuring, alike groups or not.
    let group_warps = geometry.work_group_size().div_ceil(warp_size as u64) as usize;
    let mut seen = vec![WarpSeen::default(); accesses.len() * group_warps];
    let mut alike = Vec::new();
    // Per access, the lines the last measured group's lanes first touched (an alike
    // group's are the same), and those of the groups the first SM holds.
    let mut group_lines = vec![BTreeSet::new(); accesses.len()];
    let mut sm_lines = vec![BTreeSet::new(); accesses.len()];
    let mut group = 0;
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
        let probed = probe.is_some_and(|p| p.holds(group));
        group += 1;
        if !same {
            added.clear();
            // Only the first SM's groups are kept: an alike group of it whose left
            // neighbour is not one adds nothing (it touches what that one did).
            group_lines.iter_mut().for_each(BTreeSet::clear);
            ids.clear();
            for &row in rows {
                ids.extend(row as u64..(row + ex) as u64);
            }
            for (w, warp) in ids.chunks(warp_size).enumerate() {
                let seen = &mut seen[w * accesses.len()..][..accesses.len()];
                for (k, ((slot, access), seen)) in accesses.iter().zip(seen).enumerate() {
                    let lanes = warp
                        .iter()
                        .enumerate()
                        .map(|(lane, &id)| (lane, &data[id as usize * stride..][..stride]));
                    let lines = probed.then_some(&mut group_lines[k]);
                    let at = (&mut first, &mut last);
                    let runs = lane_addresses(access, *slot, format, lanes, warp_size, at, lines);
                    if runs == 0 {
                        continue;
                    }
                    let requests = match seen.measured {
                        Some(m) if seen.first == first && seen.last == last => m,
                        _ => {
                            let m = warp_requests(access, &first, &last, &mut scratch);
                            seen.first.clone_from(&first);
                            seen.last.clone_from(&last);
                            *seen.measured.insert(m)
                        }
                    };
                    added.push((k, warp_adds(requests, &first, &last, runs, fill)));
                }
            }
        }
        if probed {
            for (sm, lines) in sm_lines.iter_mut().zip(&group_lines) {
                sm.extend(lines);
            }
        }
        for &(k, adds) in &added {
            sums[k].add(adds);
        }
    });
    (finish(sums, &sm_lines, probe), alike)
}

/// [`measure_groups`] of a launch in warps whose lanes that ran a sampled access are kept
/// whole (`tail`, the records from the masks on, as [`KeptLanes`] lays them out): its
/// masks mark them per warp, and
/// each work-group's place holds their records, warp by warp and lane by lane. The lanes
/// not kept ran none of the accesses, which adds nothing, so the sums come out as
/// [`measure_groups`]'s of the launch's work-item records, in the same order.
pub(super) fn measure_kept(
    accesses: &[(usize, &SampledAccess)],
    layout: &KeptLanes,
    warp_size: u64,
    tail: &[u64],
    format: &RecordFormat,
    fill: i64,
    probe: Option<SetProbe>,
) -> Vec<Option<Measured>> {
    let stride = format.work_item_stride();
    let warp_size = warp_size.max(1) as usize;
    let group_warps = layout.group_warps.max(1);
    let mut sums = vec![Sums::default(); accesses.len()];
    let mut sm_lines = vec![BTreeSet::new(); accesses.len()];
    let (mut first, mut last, mut scratch) = (
        Vec::with_capacity(warp_size),
        Vec::with_capacity(warp_size),
        Vec::with_capacity(2 * warp_size),
    );
    layout.visit(tail, |w, mask, kept| {
        // The mask's set bits, lowest first (each step clears the lowest; the mask is not
        // 0 here, and a step to 0 ends the walk), each with its record.
        let lanes = std::iter::successors(Some(mask), |&m| Some(m & (m - 1)).filter(|&r| r != 0))
            .map(|m| m.trailing_zeros() as usize)
            .zip(kept.chunks_exact(stride));
        let probed = probe.is_some_and(|p| p.holds(w / group_warps));
        for (k, (slot, access)) in accesses.iter().enumerate() {
            let lines = probed.then_some(&mut sm_lines[k]);
            let at = (&mut first, &mut last);
            let runs = lane_addresses(access, *slot, format, lanes.clone(), warp_size, at, lines);
            if runs == 0 {
                continue;
            }
            let requests = warp_requests(access, &first, &last, &mut scratch);
            sums[k].add(warp_adds(requests, &first, &last, runs, fill));
        }
    });
    finish(sums, &sm_lines, probe)
}

/// Per access, what the warps that ran it add up to: the weight (their executions),
/// requests and sectors weighted, the warps, and the executions whose lines the lanes
/// held (stream hits).
#[derive(Clone, Copy, Default)]
struct Sums {
    weight: f64,
    transactions: f64,
    sectors: f64,
    warps: u64,
    hits: f64,
}

/// What one warp adds at an access ([`warp_adds`]): its weight, requests, sectors and
/// held executions.
type WarpAdds = (f64, f64, f64, f64);

impl Sums {
    fn add(&mut self, (w, requests, sectors, held): WarpAdds) {
        self.weight += w;
        self.transactions += requests;
        self.sectors += sectors;
        self.warps += 1;
        self.hits += held;
    }
}

/// The lanes' first and last addresses at `access` (its counters at `slot` of each
/// lane's record of `format`), into `first` and `last`, of the `lanes` (each with its
/// place in the warp) that ran it, and the lines of the first ones into `lines` where
/// given (the first SM's, [`SetProbe`]); returns the most times a lane ran it (0: none).
fn lane_addresses<'r>(
    access: &SampledAccess,
    slot: usize,
    format: &RecordFormat,
    lanes: impl Iterator<Item = (usize, &'r [u64])>,
    warp_size: usize,
    (first, last): (&mut Vec<i64>, &mut Vec<i64>),
    lines: Option<&mut BTreeSet<i64>>,
) -> u64 {
    let bytes = i64::from(access.element_bytes);
    first.clear();
    last.clear();
    let mut runs = 0u64;
    for (lane, rec) in lanes {
        let counted = format.item(rec).sample(slot);
        if counted.runs > 0 {
            runs = runs.max(counted.runs);
            let at = |index: u64| {
                let offset = (index as i64).wrapping_mul(bytes);
                if access.local {
                    interleaved(offset, lane, warp_size)
                } else {
                    offset
                }
            };
            first.push(at(counted.first));
            last.push(at(counted.last));
        }
    }
    if let Some(lines) = lines.filter(|_| runs > 0) {
        lines.extend(first.iter().map(|a| a.div_euclid(LINE)));
    }
    runs
}

/// The requests and sectors of a warp's first access and its last, summed.
fn warp_requests(
    access: &SampledAccess,
    first: &[i64],
    last: &[i64],
    scratch: &mut Vec<i64>,
) -> (u32, u32) {
    let (t1, s1) = warp_access_with(first, access.width, access.shared, scratch);
    let (t2, s2) = warp_access_with(last, access.width, access.shared, scratch);
    (t1 + t2, s1 + s2)
}

/// What a warp whose lanes' first and last addresses are `first` and `last`, and which ran
/// the access `runs` times, adds: its executions as the weight, its requests and sectors
/// (first and last summed: `requests`) weighted by them, and the executions whose lines
/// its lanes held.
fn warp_adds(requests: (u32, u32), first: &[i64], last: &[i64], runs: u64, fill: i64) -> WarpAdds {
    let w = runs as f64;
    let held = stream_misses(first, last, runs, fill).map_or(0.0, |m| w - m);
    (
        w,
        w * f64::from(requests.0) / 2.0,
        w * f64::from(requests.1) / 2.0,
        held,
    )
}

/// Per access, the mean of what its warps did, weighted by their executions (`None` where
/// no warp ran it), with the most lines the first SM's warps first touched in one L1 set.
fn finish(
    sums: Vec<Sums>,
    sm_lines: &[BTreeSet<i64>],
    probe: Option<SetProbe>,
) -> Vec<Option<Measured>> {
    sums.into_iter()
        .zip(sm_lines)
        .map(|(s, lines)| {
            (s.warps > 0).then(|| Measured {
                transactions: s.transactions / s.weight,
                sectors: s.sectors / s.weight,
                warps: s.warps,
                stream_hits: s.hits / s.weight,
                l1_share: 0.0,
                set_lines: probe.map_or(0, |p| p.most_in_a_set(lines)),
                executions: s.weight,
            })
        })
        .collect()
}

/// The lanes' first and last addresses one warp position of a work-group last had at an
/// access, and the requests and sectors they came to (first and last summed).
#[derive(Clone, Default)]
struct WarpSeen {
    first: Vec<i64>,
    last: Vec<i64>,
    measured: Option<(u32, u32)>,
}
