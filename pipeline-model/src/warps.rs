//! From records to work-groups on SMs: a warp's time and usage from its lanes' records
//! ([`WarpTally`]), a work-group's from its warps ([`walk_groups`]), and the work-groups
//! dealt to the SMs and their sub-cores ([`Dealer`]).

use crate::arch::Architecture;
use crate::l1_sharing::{L1Sharing, CLASSES, SHARER_WARPS};
use crate::launch::{Grain, LaunchGeometry, Records};
use crate::records::{linear_id, ItemRecord, WarpRecord};

/// One warp's records as they are read, lane by lane.
struct WarpTally {
    /// The slowest lane's time outside the divergent arms (all of `t` without arms).
    outside: u64,
    /// The slowest lane's whole time.
    lane_max: u64,
    /// Per arm, the slowest lane's cycles in it.
    arm_max: Vec<u64>,
    /// Per arm, the lanes' cycles in it summed, their entries summed, and the most
    /// decisions of its branch a lane took ([`arm_time`]).
    arm_sum: Vec<u64>,
    arm_entries: Vec<u64>,
    arm_decisions: Vec<u64>,
    /// Per resource, the most any lane used (`use_W(r)`).
    usage: Vec<u64>,
}

impl WarpTally {
    fn new(resources: usize, arms: usize) -> Self {
        WarpTally {
            outside: 0,
            lane_max: 0,
            arm_max: vec![0; arms],
            arm_sum: vec![0; arms],
            arm_entries: vec![0; arms],
            arm_decisions: vec![0; arms],
            usage: vec![0; resources],
        }
    }

    /// Adds one lane's record.
    #[inline]
    fn add(&mut self, rec: ItemRecord<'_>) {
        let (t, usage, arms) = (rec.t(), rec.usage(), rec.arms());
        if arms.is_empty() {
            self.outside = self.outside.max(t);
        } else {
            self.outside = self.outside.max(t.saturating_sub(arms.iter().sum::<u64>()));
            self.lane_max = self.lane_max.max(t);
            for (a, &c) in arms.iter().enumerate() {
                self.arm_max[a] = self.arm_max[a].max(c);
                self.arm_sum[a] += c;
            }
            for (s, &e) in self.arm_entries.iter_mut().zip(rec.arm_entries()) {
                *s += e;
            }
            for (m, &d) in self.arm_decisions.iter_mut().zip(rec.arm_decisions()) {
                *m = (*m).max(d);
            }
        }
        for (m, &u) in self.usage.iter_mut().zip(usage) {
            *m = (*m).max(u);
        }
    }

    /// Takes a warp's record reduced on the device ([`crate::Grain::Warp`]): what
    /// [`WarpTally::add`] makes of its lanes'.
    #[inline]
    fn set(&mut self, rec: WarpRecord<'_>) {
        self.outside = rec.outside();
        // Without arms `add` leaves the whole time out: the warp's is `outside`.
        if !self.arm_max.is_empty() {
            self.lane_max = rec.t_max();
        }
        self.usage.copy_from_slice(rec.usage());
        self.arm_max.copy_from_slice(rec.arms());
        self.arm_sum.copy_from_slice(rec.arm_sums());
        self.arm_entries.copy_from_slice(rec.arm_entries());
        self.arm_decisions.copy_from_slice(rec.arm_decisions());
    }

    /// Ends the warp: its time is the slowest lane outside the divergent arms plus, arm by
    /// arm, its time in it ([`arm_time`]; the paths run one after the other). Where that
    /// exceeds the slowest lane's whole time, the warp issued every path: its usage grows
    /// in proportion. Adds the usage into `into` (its sub-core's), keeps the largest loss
    /// to divergence and the arms a lane entered in `walked`, resets, and returns the
    /// warp's time.
    fn close(&mut self, into: &mut [u64], walked: &mut Walked) -> u64 {
        for a in 0..self.arm_max.len().min(u32::BITS as usize) {
            // Records of an older annotation count no entries, but cycles.
            if self.arm_entries[a] > 0 || self.arm_max[a] > 0 {
                walked.entered_arms |= 1 << a;
            }
        }
        let t_w = self.outside
            + (0..self.arm_max.len())
                .map(|a| {
                    arm_time(
                        self.arm_max[a],
                        self.arm_sum[a],
                        self.arm_entries[a],
                        self.arm_decisions[a],
                    )
                })
                .sum::<u64>();
        let grow = if t_w > self.lane_max && self.lane_max > 0 {
            walked.divergence = walked.divergence.max(t_w - self.lane_max);
            t_w as f64 / self.lane_max as f64
        } else {
            1.0
        };
        for (g, u) in into.iter_mut().zip(self.usage.iter_mut()) {
            *g += if grow > 1.0 {
                (*u as f64 * grow).round() as u64
            } else {
                *u
            };
            *u = 0;
        }
        self.outside = 0;
        self.lane_max = 0;
        for runs in [
            &mut self.arm_max,
            &mut self.arm_sum,
            &mut self.arm_entries,
            &mut self.arm_decisions,
        ] {
            runs.iter_mut().for_each(|m| *m = 0);
        }
        t_w
    }
}

/// A warp's cycles in one divergent arm. It runs the arm whenever a lane takes it: in a
/// loop whose lanes pick their sides iteration by iteration, once each iteration any lane
/// enters it. Of the `decisions` the branch took (the most a lane took) the warp runs the
/// arm in `min(decisions, entries)` (as if the lanes' entries fell in different
/// iterations wherever there are enough iterations), each at the lanes' mean cycles per
/// entry (`sum / entries`); never less than the slowest lane's own cycles (`max`), which
/// is all it is where the lanes take their sides alike or the branch is not in a loop.
/// Without entries counted (records of an older annotation): `max`.
///
/// ```text
/// 32 lanes, 64 iterations, each lane in the arm in about half, 10 cycles an entry:
///   max ~ 400, sum = 32 x 320, entries = 32 x 32 = 1024, decisions = 64
///   -> min(64, 1024) x 10 = 640 cycles: the warp ran the arm in every iteration.
/// ```
fn arm_time(max: u64, sum: u64, entries: u64, decisions: u64) -> u64 {
    if entries == 0 {
        return max;
    }
    let runs = decisions.min(entries) as u128;
    let union = (sum as u128 * runs).div_ceil(entries as u128) as u64;
    max.max(union)
}

/// What dealing a launch's work-groups to the SMs gave.
pub(crate) struct Dealt {
    /// The summed `use_W(r)` of the warps dealt to each sub-core, in records' units
    /// ([`SmUsage`]).
    pub(crate) usage: SmUsage,
    /// When the last work-group finishes (`t_opt`).
    pub(crate) t_opt: u64,
    /// Every work-group's time times its warps, summed: the warps' paths, as the
    /// share of them a resource of the path ([`crate::arch::L2_TRIP`]) takes is read.
    pub(crate) warp_cycles: f64,
    /// Bytes past the L1 of every work-item, and of the first wave's work-groups alone.
    pub(crate) memory_total: u64,
    pub(crate) first_wave_bytes: u64,
    /// Warps of the first wave's work-groups, and when the last of them finishes.
    pub(crate) first_wave_warps: u64,
    pub(crate) first_wave_cycles: u64,
    /// What the walk of the records found: divergence, the arms a lane entered.
    pub(crate) walked: Walked,
    pub(crate) work_groups: u64,
    pub(crate) warps: u64,
    /// The class of L1 sharers the groups were moved to, as its warps (none: the first).
    pub(crate) l1_sharers: Option<u32>,
}

/// Per SM, per sub-core, per resource: usage summed over the warps dealt there.
pub(crate) struct SmUsage {
    values: Vec<u64>,
    sub_cores: usize,
    resources: usize,
}

impl SmUsage {
    /// The usage of sub-core `sub` of SM `sm`, per resource.
    fn of_mut(&mut self, sm: usize, sub: usize) -> &mut [u64] {
        let at = (sm * self.sub_cores + sub) * self.resources;
        &mut self.values[at..at + self.resources]
    }

    /// The usage of resource `r` summed over every SM and sub-core: the warps' whole.
    pub(crate) fn total(&self, r: usize) -> u64 {
        self.per_sm(r).flatten().sum()
    }

    /// Per SM, its sub-cores' usage of resource `r`.
    pub(crate) fn per_sm(
        &self,
        r: usize,
    ) -> impl Iterator<Item = impl Iterator<Item = u64> + '_> + '_ {
        self.values
            .chunks_exact(self.sub_cores * self.resources)
            .map(move |sm| sm.chunks_exact(self.resources).map(move |sub| sub[r]))
    }
}

/// One work-group as the dealing sees it: its time (its slowest warp's, [`WarpTally`]),
/// the usage of its warps per sub-core counted from the one its first warp goes to, the
/// bytes its work-items move past the L1, and its warps.
pub(crate) struct Group<'a> {
    pub(crate) t_last: u64,
    pub(crate) usage: &'a [u64],
    pub(crate) bytes: u64,
    pub(crate) warps: u64,
}

/// What a walk of a launch's records finds besides its work-groups.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Walked {
    /// The most cycles serialising divergent paths added to one warp.
    pub(crate) divergence: u64,
    /// The divergent arms (bit `a` for arm counter `a`) some lane entered: the code of the
    /// others never ran, and the instruction cache never fetched it.
    pub(crate) entered_arms: u32,
}

/// Walks the launch's work-groups in order (x fastest), each group's work-items into
/// warps, and hands every group to `take`.
pub(crate) fn walk_groups(
    arch: &Architecture,
    geometry: &LaunchGeometry,
    records: &Records<'_>,
    take: &mut dyn FnMut(Group<'_>),
) -> Walked {
    let n_res = arch.resources().len();
    let format = records.format;
    let stride = records.stride();
    let warp_size = u64::from(arch.warp_size);
    // Warp records per work-group (the last groups' may be fewer).
    let group_warps = geometry.work_group_size().div_ceil(warp_size);
    let sub_cores = u64::from(arch.sub_cores_per_sm);
    let [ngx, ngy, ngz] = geometry.groups();
    let [gx, gy, _] = geometry.global;
    let [lx, ly, lz] = geometry.local;
    // The bytes past the L1, summed over every work-item (bytes add up; they are not a
    // warp's occupancy of a unit).
    let memory_side = arch.memory_side_resource();
    // Per-warp and per-group accumulators, reused.
    let mut warp = WarpTally::new(n_res, format.arms);
    // A warp that exits only once its stores are acknowledged ends an L2 trip later.
    let exit_wait = exit_wait(arch);
    let mut found = Walked::default();
    // The group's usage per sub-core, counted from the sub-core its first warp goes to.
    let mut group_use = vec![0u64; n_res * sub_cores as usize];
    // The last group's time, bytes and warps (its usage is `group_use`): a group that
    // comes out as the last one did is not walked again, most of a launch's groups being
    // alike (an LU step's all idle or all working, a scan's every block).
    let (mut t_last, mut group_bytes, mut warp_index) = (0u64, 0u64, 0u64);
    // Ends warp `warp_index` of a group: its usage into its sub-core's, its end into the
    // group's.
    let close = |warp: &mut WarpTally,
                 warp_index: u64,
                 t_last: &mut u64,
                 group_use: &mut [u64],
                 walked: &mut Walked| {
        let sub = (warp_index % sub_cores) as usize;
        let t_w = warp.close(&mut group_use[sub * n_res..][..n_res], walked) + exit_wait;
        *t_last = (*t_last).max(t_w + warp_index / sub_cores);
    };
    // Warp records: where the last group walked had its records.
    let mut walked: Option<std::ops::Range<usize>> = None;
    // Work-item records: the extent of the last group.
    let mut last_extent = None;
    for bz in 0..ngz {
        for by in 0..ngy {
            for bx in 0..ngx {
                // The group's extent (the last one of a dimension may be partial).
                let ex = lx.min(gx - bx * lx);
                let ey = ly.min(gy - by * ly);
                let ez = lz.min(geometry.global[2] - bz * lz);
                if let Grain::Warp { .. } = records.grain {
                    // The group's warps were reduced where they ran: one record each.
                    let group = (bz * ngy + by) * ngx + bx;
                    let place = records
                        .shared
                        .map_or(group, |s| u64::from(s[group as usize]));
                    let warps = (ex * ey * ez).div_ceil(warp_size);
                    let start = (place * group_warps) as usize * stride;
                    let at = start..start + warps as usize * stride;
                    let slice = &records.data[at.clone()];
                    let alike = walked
                        .as_ref()
                        .is_some_and(|was| *was == at || records.data[was.clone()] == *slice);
                    if !alike {
                        (t_last, group_bytes, warp_index) = (0, 0, 0);
                        group_use.fill(0);
                        for rec in slice.chunks_exact(stride) {
                            let rec = format.warp(rec);
                            warp.set(rec);
                            group_bytes += rec.bytes();
                            close(
                                &mut warp,
                                warp_index,
                                &mut t_last,
                                &mut group_use,
                                &mut found,
                            );
                            warp_index += 1;
                        }
                        walked = Some(at);
                    }
                } else {
                    // Alike: the records of the group to its left (the last one), row by
                    // row.
                    let row_at = |y: u64, z: u64, x0: u64| {
                        let row = linear_id([x0, by * ly + y, bz * lz + z], geometry.global);
                        row as usize * stride
                    };
                    let len = ex as usize * stride;
                    let rows = (0..ez).flat_map(|z| (0..ey).map(move |y| row_at(y, z, bx * lx)));
                    let alike = bx > 0
                        && last_extent == Some((ex, ey, ez))
                        && rows_alike(records.data, rows, len, lx as usize * stride);
                    last_extent = Some((ex, ey, ez));
                    if !alike {
                        (t_last, group_bytes, warp_index) = (0, 0, 0);
                        group_use.fill(0);
                        let mut in_warp = 0u64;
                        for z in 0..ez {
                            for y in 0..ey {
                                let start = row_at(y, z, bx * lx);
                                let slice = &records.data[start..start + len];
                                if let Some(m) = memory_side {
                                    group_bytes += slice[format.usage(m)..]
                                        .iter()
                                        .step_by(stride)
                                        .sum::<u64>();
                                }
                                for rec in slice.chunks_exact(stride) {
                                    warp.add(format.item(rec));
                                    in_warp += 1;
                                    if in_warp == warp_size {
                                        close(
                                            &mut warp,
                                            warp_index,
                                            &mut t_last,
                                            &mut group_use,
                                            &mut found,
                                        );
                                        in_warp = 0;
                                        warp_index += 1;
                                    }
                                }
                            }
                        }
                        if in_warp > 0 {
                            close(
                                &mut warp,
                                warp_index,
                                &mut t_last,
                                &mut group_use,
                                &mut found,
                            );
                            warp_index += 1;
                        }
                    }
                }
                take(Group {
                    t_last,
                    usage: &group_use,
                    bytes: group_bytes,
                    warps: warp_index,
                });
            }
        }
    }
    found
}

/// Whether each row of `len` values starting at `starts` in `data` is the row `back`
/// values before it (the first values compared first: most rows that differ differ there,
/// and a call to compare the rest costs more).
pub(crate) fn rows_alike(
    data: &[u64],
    mut starts: impl Iterator<Item = usize>,
    len: usize,
    back: usize,
) -> bool {
    starts.all(|at| {
        let left = at - back;
        data[at] == data[left] && data[at..at + len] == data[left..left + len]
    })
}

/// What a warp waits at its exit: an L2 trip where it exits only once its stores are
/// acknowledged.
pub(crate) fn exit_wait(arch: &Architecture) -> u64 {
    if arch.memory.store_ack_at_exit {
        u64::from(arch.memory.l2_hit)
    } else {
        0
    }
}

/// The work-groups running, by when each finishes and on which SM: a tournament tree
/// whose leaves are the groups (`finish << 64 | leaf << 32 | sm`: one comparison of two
/// words orders them by finish, then by the slot the first wave dealt them in turn over
/// the SMs) and whose every inner node holds the least of its children. Groups that
/// finish together make way in the first wave's order, so the groups that take their
/// places go to the SMs in turn, as a GPU's block scheduler hands them round-robin to the
/// SMs with room (GPGPU-Sim's GTX 480 put the six groups past a full wave of
/// `amd_reduction` on six SMs, validation/gpgpusim/README.md), not all to the first SM.
/// The group that finishes first is at the root; the one that takes its place goes in
/// its leaf, and the nodes above it are taken again, a branch-free minimum each (a binary
/// heap's sifting, its comparisons mispredicted, was most of the model's time on an LU
/// step's 1024 work-groups).
#[derive(Default)]
struct Running {
    /// The first wave's groups, as they start; the tree is built from them when the
    /// first group after it comes (a launch of fewer groups needs none).
    starting: Vec<u128>,
    /// Nodes from 1 (the root), leaves from `leaves`; unused leaves hold `u128::MAX`.
    tree: Vec<u128>,
    leaves: usize,
}

impl Running {
    fn key(finish: u64, sm: usize, leaf: usize) -> u128 {
        u128::from(finish) << 64 | (leaf as u128) << 32 | sm as u128
    }

    /// A group of the first wave starts on `sm` and finishes at `finish`.
    fn start(&mut self, finish: u64, sm: usize) {
        let leaf = self.starting.len();
        self.starting.push(Self::key(finish, sm, leaf));
    }

    /// The group that finishes first makes way for one that runs `t` cycles from then:
    /// returns when the first finishes, and its SM.
    fn replace_first(&mut self, t: u64) -> (u64, usize) {
        if self.tree.is_empty() {
            self.leaves = self.starting.len().next_power_of_two();
            self.tree = vec![u128::MAX; 2 * self.leaves];
            self.tree[self.leaves..][..self.starting.len()].copy_from_slice(&self.starting);
            for at in (1..self.leaves).rev() {
                self.tree[at] = self.tree[2 * at].min(self.tree[2 * at + 1]);
            }
        }
        let first = self.tree[1];
        let (start, sm, leaf) = (
            (first >> 64) as u64,
            first as u32 as usize,
            (first >> 32) as u32 as usize,
        );
        // Up from the leaf, the least so far against each sibling: the loads do not wait
        // on the stores.
        let (mut at, mut least) = (self.leaves + leaf, Self::key(start + t, sm, leaf));
        self.tree[at] = least;
        while at > 1 {
            least = least.min(self.tree[at ^ 1]);
            at /= 2;
            self.tree[at] = least;
        }
        (start, sm)
    }
}

/// Deals work-groups to the SMs as they come: the first `n_par` in turn, each later one to
/// the SM whose group finishes first; each group's warps to the SM's sub-cores
/// round-robin.
pub(crate) struct Dealer {
    n_par: u64,
    sms: u64,
    sub_cores: u64,
    usage: SmUsage,
    /// Per SM, the warps dealt so far: the next warp goes to sub-core `dealt % S`.
    dealt: Vec<u64>,
    /// The groups running, by when each finishes and on which SM.
    running: Running,
    t_opt: u64,
    warp_cycles: f64,
    groups: u64,
    warps: u64,
    memory_total: u64,
    first_wave_bytes: u64,
    first_wave_warps: u64,
    first_wave_cycles: u64,
    /// The launch's class of L1 sharers, the share of its first touches from DRAM and the
    /// kernel's cost in each class, where each group taken moves to them
    /// ([`Dealer::sharing_l1`]); the resource counting bytes past the L1; the moved
    /// group's usage.
    sharing: Option<(L1Sharing, usize, f64)>,
    memory: Option<usize>,
    moved: Vec<u64>,
}

impl Dealer {
    pub(crate) fn new(arch: &Architecture, n_par: u64) -> Self {
        let n_res = arch.resources().len();
        let sub_cores = u64::from(arch.sub_cores_per_sm);
        Dealer {
            n_par,
            sms: u64::from(arch.sm_count),
            sub_cores,
            usage: SmUsage {
                values: vec![0u64; arch.sm_count as usize * sub_cores as usize * n_res],
                sub_cores: sub_cores as usize,
                resources: n_res,
            },
            dealt: vec![0u64; arch.sm_count as usize],
            running: Running::default(),
            t_opt: 0,
            warp_cycles: 0.0,
            groups: 0,
            warps: 0,
            memory_total: 0,
            first_wave_bytes: 0,
            first_wave_warps: 0,
            first_wave_cycles: 0,
            sharing: None,
            memory: arch.memory_side_resource(),
            moved: Vec::new(),
        }
    }

    /// Moves each group taken from the first class of L1 sharers to `class`, with a share
    /// `dram_share` of its first touches from DRAM ([`L1Sharing::adjust`]), where
    /// `sharing` times the kernel for it.
    pub(crate) fn sharing_l1(
        mut self,
        sharing: Option<&L1Sharing>,
        class: usize,
        dram_share: f64,
    ) -> Self {
        // A timing read back from a sidecar made elsewhere must have a usage per class and
        // per resource of this description.
        let fits = |s: &&L1Sharing| {
            s.usage.len() == CLASSES && s.usage.iter().all(|u| u.len() == self.usage.resources)
        };
        self.sharing = sharing
            .filter(|s| class > 0 || (dram_share > 0.0 && s.from_dram.is_some()))
            .filter(fits)
            .map(|s| (s.clone(), class, dram_share));
        self
    }

    pub(crate) fn take(&mut self, g: Group<'_>) {
        let mut moved = std::mem::take(&mut self.moved);
        let g = match &self.sharing {
            Some((sharing, class, dram_share)) => {
                moved.clear();
                moved.extend_from_slice(g.usage);
                let (t_last, bytes) = sharing.adjust(
                    *class,
                    *dram_share,
                    g.t_last,
                    &mut moved,
                    g.bytes,
                    self.memory,
                );
                Group {
                    t_last,
                    usage: &moved,
                    bytes,
                    warps: g.warps,
                }
            }
            None => g,
        };
        self.warps += g.warps;
        self.memory_total += g.bytes;
        if self.groups < self.n_par {
            self.first_wave_bytes += g.bytes;
            self.first_wave_warps += g.warps;
            self.first_wave_cycles = self.first_wave_cycles.max(g.t_last);
        }
        let (sm, finish) = if self.groups < self.n_par {
            let (sm, finish) = ((self.groups % self.sms) as usize, g.t_last);
            self.running.start(finish, sm);
            (sm, finish)
        } else {
            // The group that finishes first makes way.
            let (start, sm) = self.running.replace_first(g.t_last);
            (sm, start + g.t_last)
        };
        self.t_opt = self.t_opt.max(finish);
        self.warp_cycles += g.t_last as f64 * g.warps as f64;
        // The SM's round-robin counter says where the group's first warp goes.
        for (j, u) in g.usage.chunks_exact(self.usage.resources).enumerate() {
            let sub = ((self.dealt[sm] + j as u64) % self.sub_cores) as usize;
            for (s, u) in self.usage.of_mut(sm, sub).iter_mut().zip(u) {
                *s += u;
            }
        }
        self.dealt[sm] += g.warps;
        self.groups += 1;
        self.moved = moved;
    }

    pub(crate) fn finish(self, walked: Walked) -> Dealt {
        Dealt {
            usage: self.usage,
            t_opt: self.t_opt,
            warp_cycles: self.warp_cycles,
            memory_total: self.memory_total,
            first_wave_bytes: self.first_wave_bytes,
            first_wave_warps: self.first_wave_warps,
            first_wave_cycles: self.first_wave_cycles,
            walked,
            work_groups: self.groups,
            warps: self.warps,
            l1_sharers: self
                .sharing
                .as_ref()
                .filter(|(_, c, _)| *c > 0)
                .map(|(_, c, _)| SHARER_WARPS[*c]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{arm_time, Running, Walked, WarpTally};
    use crate::records::RecordFormat;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Each group's start and SM, dealt with a binary heap of (finish, slot, SM): what the
    /// tournament tree must give.
    fn by_heap(times: &[u64], n_par: usize, sms: usize) -> Vec<(u64, usize)> {
        let mut heap = BinaryHeap::new();
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                let (start, slot, sm) = if i < n_par {
                    (0, i, i % sms)
                } else {
                    let Reverse(first) = heap.pop().unwrap();
                    first
                };
                heap.push(Reverse((start + t, slot, sm)));
                (start, sm)
            })
            .collect()
    }

    fn by_tree(times: &[u64], n_par: usize, sms: usize) -> Vec<(u64, usize)> {
        let mut running = Running::default();
        times
            .iter()
            .enumerate()
            .map(|(i, &t)| {
                if i < n_par {
                    running.start(t, i % sms);
                    (0, i % sms)
                } else {
                    running.replace_first(t)
                }
            })
            .collect()
    }

    #[test]
    fn groups_finishing_together_make_way_for_later_ones_on_the_sms_in_turn() {
        // 6 SMs, 2 groups each at once, every group 100 cycles: the 4 groups past the
        // first wave go to SMs 0 to 3 (one each), not 2 to SM 0 and 2 to SM 1.
        let dealt = by_tree(&[100; 16], 12, 6);
        assert_eq!(dealt[12..], [(100, 0), (100, 1), (100, 2), (100, 3)]);
    }

    #[test]
    fn the_tree_deals_as_the_heap_did_ties_included() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for (n_par, sms, spread) in [
            (1, 1, 1000),
            (3, 2, 4),
            (8, 3, 2),
            (90, 15, 3),
            (100, 15, 50_000),
            (128, 16, 1),
            (129, 7, 9),
        ] {
            let times: Vec<u64> = (0..2000)
                .map(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    100 + seed % spread
                })
                .collect();
            assert_eq!(
                by_tree(&times, n_par, sms),
                by_heap(&times, n_par, sms),
                "n_par {n_par}, {sms} SMs, times within {spread}"
            );
        }
    }

    /// Hand-computed: the union of the lanes' entries where the loop has the iterations
    /// for it, never less than the slowest lane, and the slowest lane alone where the
    /// lanes keep their sides or nothing was counted.
    #[test]
    fn an_arm_runs_once_an_iteration_any_lane_enters_it() {
        // 32 lanes in 64 iterations, each in the arm in 32, 10 cycles an entry: the warp
        // runs it in all 64 iterations, 640 cycles (the slowest lane: 320).
        assert_eq!(arm_time(320, 32 * 320, 32 * 32, 64), 640);
        // Odd lanes in it every iteration (a parity branch in a loop): 16 x 64 entries,
        // 64 decisions: the slowest lane's 640.
        assert_eq!(arm_time(640, 16 * 640, 16 * 64, 64), 640);
        // Outside a loop: one decision, 5 lanes entered, 7 to 9 cycles: the slowest, 9.
        assert_eq!(arm_time(9, 40, 5, 1), 9);
        // One lane in it 3 times of 50: 3 runs at its cost.
        assert_eq!(arm_time(30, 30, 3, 50), 30);
        // Two lanes in it 3 times each, 10 cycles: 6 runs at most, 60.
        assert_eq!(arm_time(30, 60, 6, 50), 60);
        // No entries counted.
        assert_eq!(arm_time(30, 0, 0, 0), 30);
    }

    /// Two lanes of a loop of 4 iterations through an if / else (arms 0 and 1), 10 cycles
    /// an entry into either, 5 cycles a lane outside: lane 0 takes arm 0, 1, 0, 1 and
    /// lane 1 the other sides. Each arm runs in all 4 iterations: 5 + 40 + 40 = 85, where
    /// the slowest lane alone is 5 + 40 = 45.
    #[test]
    fn a_warp_of_lanes_alternating_sides_runs_both_every_iteration() {
        let format = RecordFormat::timing(1, 2);
        // t | u0 | a0 a1 | e0 e1 | d0 d1
        let lane = |a0: u64, a1: u64, e0: u64, e1: u64| {
            vec![5 + a0 + a1, 1, a0, a1, e0, e1, e0 + e1, e0 + e1]
        };
        let mut tally = WarpTally::new(1, 2);
        tally.add(format.item(&lane(20, 20, 2, 2)));
        tally.add(format.item(&lane(20, 20, 2, 2)));
        let mut usage = [0u64];
        let mut walked = Walked::default();
        assert_eq!(tally.close(&mut usage, &mut walked), 85);
        assert_eq!(walked.divergence, 85 - 45);
        // Both arms were entered.
        assert_eq!(walked.entered_arms, 0b11);
        // The usage grows with the time: 1 x 85 / 45.
        assert_eq!(usage, [2]);
    }
}
