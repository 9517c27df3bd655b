//! A launch cut into cells that each take one path, and the warp records written from
//! them.

use std::collections::{BTreeSet, HashMap};

use super::eval::{eval, run, truth, Env, PathLaunch, Range};
use pipeline_model::rows::width_class;
use pipeline_model::RecordFormat;

use super::{axes, conditions, predicate_leaves, Expr, HostPaths};
use crate::front::source::Operator;

/// At most this many cells per launch: more, and the copy runs.
pub const MAX_CELLS: usize = 4096;

/// A launch cut into cells, each taking one path: per dimension, where its cells start
/// (global ids, offset included), and per cell (x fastest) its transitions' bits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cells {
    starts: [Vec<u64>; 3],
    masks: Vec<u64>,
}

impl HostPaths {
    /// The cells of `launch`, or `None` where some set of work-items the cuts give takes
    /// more than one path (a condition that is not monotone along its dimension, or that
    /// overflows), or there would be more than [`MAX_CELLS`].
    pub fn cells(&self, launch: &PathLaunch<'_>) -> Option<Cells> {
        let mut leaves = Vec::new();
        conditions(&self.body, &mut |c| predicate_leaves(c, &mut leaves));
        let full = |d: usize| Range {
            lo: i128::from(launch.offset[d]),
            hi: i128::from(launch.offset[d] + launch.global[d]) - 1,
        };
        let mut cuts: [BTreeSet<u64>; 3] = launch.offset.map(|o| BTreeSet::from([o]));
        for leaf in &leaves {
            let Some(&axis) = axes(leaf).iter().next() else {
                continue;
            };
            let d = usize::from(axis);
            // Equality is where `<` and `>` both change.
            let tests: Vec<Expr> = match leaf {
                Expr::Apply(t, Operator::Eq | Operator::Ne, x) => [Operator::Lt, Operator::Gt]
                    .map(|op| Expr::Apply(*t, op, x.clone()))
                    .to_vec(),
                _ => vec![leaf.clone()],
            };
            for test in &tests {
                let at = |v: i128| {
                    let mut ids = [full(0), full(1), full(2)];
                    ids[d] = Range::point(v);
                    let env = Env {
                        launch: Some(launch),
                        ids,
                    };
                    eval(test, &env).map(truth)
                };
                let r = full(d);
                let (first, last) = (at(r.lo)?, at(r.hi)?);
                if first == last {
                    continue;
                }
                // The first id with the last one's truth.
                let (mut lo, mut hi) = (r.lo, r.hi);
                while lo + 1 < hi {
                    let mid = lo + (hi - lo) / 2;
                    if at(mid)? == last {
                        hi = mid;
                    } else {
                        lo = mid;
                    }
                }
                cuts[d].insert(hi as u64);
            }
        }
        let starts: [Vec<u64>; 3] = cuts.map(|c| c.into_iter().collect());
        let count: usize = starts.iter().map(Vec::len).product();
        if count > MAX_CELLS {
            return None;
        }
        let end = |d: usize, i: usize| {
            starts[d]
                .get(i + 1)
                .map_or(launch.offset[d] + launch.global[d], |s| *s)
        };
        let mut masks = Vec::with_capacity(count);
        for z in 0..starts[2].len() {
            for y in 0..starts[1].len() {
                for x in 0..starts[0].len() {
                    let ids = [(0, x), (1, y), (2, z)].map(|(d, i)| Range {
                        lo: i128::from(starts[d][i]),
                        hi: i128::from(end(d, i)) - 1,
                    });
                    let env = Env {
                        launch: Some(launch),
                        ids,
                    };
                    masks.push(run(self, &env)?);
                }
            }
        }
        Some(Cells { starts, masks })
    }

    /// Values of a warp record ([`RecordFormat::warp_stride`]).
    pub fn warp_stride(&self) -> usize {
        self.format.warp_stride()
    }

    /// What the work-items of bits `mask` add up to in a launch of width class `class`
    /// (`pipeline_model::rows`): a work-item record's timing values.
    fn values(&self, mask: u64, class: usize) -> Vec<u64> {
        let f = &self.format;
        let mut v = vec![0u64; f.timing_width()];
        for (bit, c) in self.charges.iter().enumerate() {
            if mask >> bit & 1 == 0 {
                continue;
            }
            v[RecordFormat::T] += c.cycles;
            for (r, u) in c.usage.iter().enumerate() {
                v[f.usage(r)] += u.at(class);
            }
            if let Some(a) = c.arm {
                v[f.arm(a)] += c.cycles;
            }
            if let Some(a) = c.entered {
                v[f.arm_entries(a)] += 1;
                v[f.arm_decisions(a)] += 1;
            }
            if let Some(s) = c.sibling {
                v[f.arm_decisions(s)] += 1;
            }
        }
        v
    }

    /// Folds `count` work-items of values `v` (`values`) into warp record `w`: the copy's
    /// `__srcsim_fold_*`.
    fn fold(&self, v: &[u64], count: u64, w: &mut [u64]) {
        let f = &self.format;
        let item = f.item(v);
        let t = item.t();
        let arms: u64 = item.arms().iter().sum();
        let outside = &mut w[RecordFormat::WARP_OUTSIDE];
        *outside = (*outside).max(if f.arms > 0 {
            t.saturating_sub(arms)
        } else {
            t
        });
        let t_max = &mut w[RecordFormat::WARP_T_MAX];
        *t_max = (*t_max).max(t);
        for (r, u) in item.usage().iter().enumerate() {
            w[f.warp_usage(r)] = w[f.warp_usage(r)].max(*u);
        }
        for (a, c) in item.arms().iter().enumerate() {
            w[f.warp_arm(a)] = w[f.warp_arm(a)].max(*c);
            w[f.warp_arm_sum(a)] += count * c;
            w[f.warp_arm_entries(a)] += count * item.arm_entries()[a];
            let decisions = &mut w[f.warp_arm_decisions(a)];
            *decisions = (*decisions).max(item.arm_decisions()[a]);
        }
        if let Some(m) = self.memory {
            w[f.warp_bytes()] += count * item.usage()[m];
        }
    }
}

/// Per dimension, the cells a work-group's ids along it fall in: runs of (cell, ids).
type Runs = Vec<(usize, u64)>;

impl Cells {
    /// The cell of global id `v` along dimension `d`.
    fn index(&self, d: usize, v: u64) -> usize {
        self.starts[d].partition_point(|s| *s <= v) - 1
    }

    /// The bits of the transitions work-item `id` (its global id, offset included) takes.
    pub fn mask(&self, id: [u64; 3]) -> u64 {
        let [x, y, z] = [0, 1, 2].map(|d| self.index(d, id[d]));
        let (nx, ny) = (self.starts[0].len(), self.starts[1].len());
        self.masks[(z * ny + y) * nx + x]
    }

    /// The cells there are: how many sets of work-items the launch is cut into.
    pub fn len(&self) -> usize {
        self.masks.len()
    }

    /// Whether there are none (never: a launch is one cell at least).
    pub fn is_empty(&self) -> bool {
        self.masks.is_empty()
    }

    /// The runs of cells of ids `from..to` along dimension `d`.
    fn runs(&self, d: usize, from: u64, to: u64) -> Runs {
        let mut runs = Vec::new();
        let mut at = from;
        while at < to {
            let c = self.index(d, at);
            let next = self.starts[d].get(c + 1).map_or(to, |s| (*s).min(to));
            runs.push((c, next - at));
            at = next;
        }
        runs
    }

    /// The warp records of `launch` (`paths`' layout, warps of `warp_size`), each
    /// distinct work-group's once: into `out`, a place of `ceil(group size / warp_size)`
    /// records per distinct group, and per group (x fastest) its place into `places`
    /// (`pipeline_model::Records::shared`). Groups whose ids fall in the same runs of
    /// cells along every dimension take the same paths lane by lane: an LU step's 1024
    /// groups are a dozen distinct ones.
    pub fn warp_records(
        &self,
        paths: &HostPaths,
        launch: &PathLaunch<'_>,
        warp_size: u64,
        out: &mut Vec<u64>,
        places: &mut Vec<u32>,
    ) {
        out.clear();
        places.clear();
        let stride = paths.warp_stride();
        let group_warps = launch.local.iter().product::<u64>().div_ceil(warp_size) as usize;
        let groups = [0, 1, 2].map(|d| launch.global[d].div_ceil(launch.local[d]));
        // Per dimension: per group index, the id of its runs, and the distinct runs.
        let mut patterns: [Vec<Runs>; 3] = Default::default();
        let ids: [Vec<usize>; 3] = [0, 1, 2].map(|d| {
            let mut seen: HashMap<Runs, usize> = HashMap::new();
            (0..groups[d])
                .map(|b| {
                    let from = launch.offset[d] + b * launch.local[d];
                    let to = (from + launch.local[d]).min(launch.offset[d] + launch.global[d]);
                    let runs = self.runs(d, from, to);
                    *seen.entry(runs.clone()).or_insert_with(|| {
                        patterns[d].push(runs);
                        patterns[d].len() - 1
                    })
                })
                .collect()
        });
        let class = width_class(launch.local);
        let values: Vec<Vec<u64>> = self.masks.iter().map(|&m| paths.values(m, class)).collect();
        let [px, py, _] = [0, 1, 2].map(|d| patterns[d].len());
        let mut place_of = vec![u32::MAX; patterns.iter().map(Vec::len).product()];
        for bz in 0..groups[2] as usize {
            for by in 0..groups[1] as usize {
                for bx in 0..groups[0] as usize {
                    let key = [ids[0][bx], ids[1][by], ids[2][bz]];
                    let at = (key[2] * py + key[1]) * px + key[0];
                    if place_of[at] == u32::MAX {
                        place_of[at] = (out.len() / (group_warps * stride)) as u32;
                        let runs = [0, 1, 2].map(|d| &patterns[d][key[d]]);
                        let at = out.len();
                        out.resize(at + group_warps * stride, 0);
                        let group = &mut out[at..];
                        self.group_records(paths, &values, runs, warp_size, group);
                    }
                    places.push(place_of[at]);
                }
            }
        }
    }

    /// One work-group's warp records, from its runs of cells along each dimension.
    fn group_records(
        &self,
        paths: &HostPaths,
        values: &[Vec<u64>],
        runs: [&Runs; 3],
        warp_size: u64,
        out: &mut [u64],
    ) {
        let stride = paths.warp_stride();
        let (nx, ny) = (self.starts[0].len(), self.starts[1].len());
        let extent = runs.map(|r| r.iter().map(|(_, n)| n).sum::<u64>());
        // The cell of each local id along y and z.
        let along = |r: &Runs| -> Vec<usize> {
            r.iter()
                .flat_map(|&(c, n)| std::iter::repeat_n(c, n as usize))
                .collect()
        };
        let (cy, cz) = (along(runs[1]), along(runs[2]));
        let n = extent.iter().product::<u64>();
        // Per warp, the work-items of each cell it holds.
        let mut counts: Vec<(usize, u64)> = Vec::new();
        for (w, rec) in out
            .chunks_exact_mut(stride)
            .take(n.div_ceil(warp_size) as usize)
            .enumerate()
        {
            counts.clear();
            let mut count = |cell: usize, k: u64| match counts.iter_mut().find(|c| c.0 == cell) {
                Some(c) => c.1 += k,
                None => counts.push((cell, k)),
            };
            let (from, to) = (w as u64 * warp_size, ((w as u64 + 1) * warp_size).min(n));
            let mut l = from;
            while l < to {
                let x = l % extent[0];
                let (y, z) = (l / extent[0] % extent[1], l / (extent[0] * extent[1]));
                let len = (extent[0] - x).min(to - l);
                let row = (cz[z as usize] * ny + cy[y as usize]) * nx;
                // The x runs overlapping `x..x + len`.
                let mut start = 0u64;
                for &(cx, k) in runs[0] {
                    let (lo, hi) = (start.max(x), (start + k).min(x + len));
                    if lo < hi {
                        count(row + cx, hi - lo);
                    }
                    start += k;
                }
                l += len;
            }
            // Cells of the same bits fold as one (a fold is maxima and a sum).
            for (i, &(cell, _)) in counts.iter().enumerate() {
                let mask = self.masks[cell];
                if counts[..i].iter().any(|(c, _)| self.masks[*c] == mask) {
                    continue;
                }
                let same: u64 = counts[i..]
                    .iter()
                    .filter(|(c, _)| self.masks[*c] == mask)
                    .map(|(_, k)| k)
                    .sum();
                paths.fold(&values[cell], same, rec);
            }
        }
    }
}
