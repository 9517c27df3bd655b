//! The analytical model (Gerum et al. 2015, section IV-C; docs/design.md): per-work-item
//! counter records -> warps -> work-groups -> SMs -> the kernel's time, and what bound it.
//!
//! - warp: `t_W` = max over its work-items of `t`; warps are 32 (the warp size)
//!   consecutive local linear ids of a work-group. Where the kernel has divergent arms (the
//!   records carry the cycles each work-item spent in each), the arms run one after the
//!   other: `t_W` = max over work-items of `t` less its arms' cycles, plus for each arm the
//!   max over work-items of its cycles; the warp's usage grows by the same factor over the
//!   slowest work-item's `t` (it issued every path).
//! - sub-cores: an SM has `S` sub-cores (`sub_cores_per_sm`), each with a scheduler that
//!   issues one instruction a cycle. The warps an SM receives are dealt to its sub-cores in
//!   turn (the SM keeps one round-robin counter across its work-groups), so the warps of a
//!   work-group go to `S` consecutive sub-cores, and warp `i` is the `floor(i / S)`-th of
//!   its work-group on its sub-core.
//! - work-group: `t_last` = max over its warps `i` of `t_Wi + floor(i / S)`: the issue
//!   offset, per sub-core (the paper's `floor(i/2)` on the GTX 480's two schedulers). Where
//!   warps exit only once their stores are acknowledged (`memory.store_ack_at_exit`),
//!   `t_Wi` ends an L2 trip later.
//! - kernel: the first `n_par` work-groups (occupancy x SMs, dealt to the SMs in turn)
//!   start at 0; each further one starts on the SM whose work-group finishes first (of
//!   groups finishing together, the one in the first wave's earliest slot: later groups
//!   go to the SMs in turn); `t_opt` is the last finish.
//! - contention: `use_W(r)` = max over the warp's work-items. A resource of each sub-core
//!   (`Scope::SubCore`) sums `use_W(r)` over the warps dealt to that sub-core; a resource
//!   of the SM (`Scope::Sm`) over all the SM's warps. `t_kernel = max(t_opt, max over r
//!   and over every SM (and sub-core) of that sum)`, with the latency term as below, and
//!   at least the paths stretched by the warps' waits for the issue slot and the L2 where
//!   the terms meet (module `interference`, `issue_wait_cycles`, `l2_wait_cycles`); the
//!   code's first run (`[icache]`) is added after the maximum (it holds up every warp),
//!   and where the code exceeds the cache (its sets and ways) each later wave of
//!   work-groups runs it again from the L2 (`ColdInstructionCache::rerun_cycles`).
//! - launch: the architecture's fixed cost of a launch (`[launch] fixed_cycles`: grid set-up,
//!   work distribution, fill and drain) is added to `t_kernel`.
//! - memory side (`Scope::Device`): the bytes past the L1 of all work-items (sectors or
//!   lines moved, where the annotator analysed the access), summed. Where the architecture
//!   gives the L2's capacity and the buffers the launch reads
//!   ([`KernelResources::read_memory_bytes`], else all its buffers), with the private
//!   frames of the first wave's work-items ([`KernelResources::frame_bytes`]), fit in it,
//!   the launch is served from the L2: what the host or an earlier launch wrote is still
//!   there, and a line it writes is taken without a fetch, so nothing comes from DRAM and
//!   a miss in flight waits an L2 trip (`memory.l2_hit`); else the DRAM serves it
//!   (at most the footprint: the caches keep what is touched again) and a miss waits a
//!   DRAM trip. Beside the reads' misses, what the launch stores beyond what the L2 can
//!   keep with its reads is written back to DRAM (module `traffic`). `L2` and `DRAM`
//!   are each the bytes over the level's bandwidth plus one
//!   load-to-use latency (the last request's trip): roofline bounds, a floor on the time
//!   of a memory-bound launch. `MSHR` is the most loaded SM's miss entries times that
//!   trip, or, when longer, the time the serving level takes to drain the entries of every
//!   SM that has misses (all of them full: Little's law).
//! - the L2's trip: the code is timed with every L2 trip at the trip under a typical
//!   launch's load (`memory.l2_hit`); where the description gives the unloaded one
//!   (`memory.l2_unloaded`), the paths shed what their trips take beyond it (the
//!   `L2_trip` usage) in the share of their time the L2 is idle, for the reads it serves.
//! - queueing: the first wave's work-groups start together and send their first round of
//!   requests together; the serving level drains the burst at its bandwidth, so the
//!   latency term is `t_opt` plus the first wave's first round
//!   ([`KernelResources::first_round_warp_bytes`], at most its share of the traffic) over
//!   that bandwidth.

use serde::Serialize;

use crate::arch::{Architecture, Scope};
use crate::interference::stretched;
use crate::l1_sharing::sharer_class;
use crate::launch::{Grain, LaunchGeometry, Records};
use crate::occupancy::{occupancy, DoesNotFit, KernelResources, Occupancy};
use crate::traffic::{read_miss_share, Traffic};
use crate::warps::{exit_wait, walk_groups, Dealer, Dealt, Group, SmUsage, Walked};

/// What bound the kernel's time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Bound {
    /// The launch's fixed cost, which exceeds everything its work-groups take: the launch
    /// is too small to pay for itself (batching the work helps more than tuning it).
    Launch,
    /// The latency of the work-items' paths (`t_opt`).
    Latency,
    /// A saturated resource on one SM.
    Resource {
        /// The resource's name.
        resource: String,
    },
}

/// The model's estimate for one launch.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelEstimate {
    /// `t_kernel`, rounded up to whole cycles: the launch cost, the code's first run
    /// (`icache_cycles`) and the larger of the paths (the latency term without the code's
    /// first run) and the contention terms.
    pub cycles: u64,
    /// `t_kernel` in microseconds at the architecture's clock.
    pub micros: f64,
    /// The latency term: `t_opt` plus the first wave's queueing (`queue_cycles`) and the
    /// code's first run (`icache_cycles`).
    pub latency_cycles: u64,
    /// The cycles the first wave's memory requests wait, in the latency term: its bytes
    /// past the L1 over the bandwidth of the level that serves them.
    pub queue_cycles: u64,
    /// The cycles the warps' paths wait for their schedulers' issue slots beyond the
    /// larger of the latency term and the contention terms, where the latency and issue
    /// terms are close (the knee between them, `interference`): in `cycles`, not in
    /// `latency_cycles`.
    pub issue_wait_cycles: u64,
    /// The cycles their requests wait for the L2 besides, where the latency term and the
    /// L2's bytes over its bandwidth are close (`interference`): in `cycles`, not in
    /// `latency_cycles`.
    pub l2_wait_cycles: u64,
    /// The cycles the SMs wait for the kernel's code on its first run (`[icache]`: every
    /// line of code a miss; 0 where the architecture has none), and on each later wave's
    /// where the code exceeds the cache: in the latency term, and added to whichever term
    /// bounds the launch, since no warp issues and no request leaves while a line all of
    /// them reach is fetched.
    pub icache_cycles: u64,
    /// Whether the buffers the launch reads fit in the L2 (`memory.l2_bytes`), so that it
    /// is served from there and moves nothing from DRAM.
    pub l2_resident: bool,
    /// The architecture's fixed cost of a launch (fill and drain), included in `cycles`.
    pub launch_cycles: u64,
    /// The most cycles serialising divergent paths added to one warp's time (0 without
    /// divergent branches).
    pub divergence_cycles: u64,
    /// Per resource, the contention term (the usage of the most loaded SM, or sub-core for
    /// a resource of each sub-core; for DRAM, the launch's traffic over its bandwidth), in
    /// cycles.
    pub contention_cycles: Vec<f64>,
    /// Bytes the launch moves to and from DRAM, when the architecture models DRAM: the
    /// work-items' global-memory bytes, at most the buffer footprint; none when the
    /// buffers fit in the L2.
    pub dram_bytes: Option<u64>,
    /// What bound it: the launch cost where that exceeds the work, else the larger term.
    pub bound: Bound,
    /// Work-groups per SM and their limiter.
    pub occupancy: Occupancy,
    /// Work-groups running at once on the whole GPU (`n_par`).
    pub parallel_work_groups: u64,
    /// Work-groups in the launch.
    pub work_groups: u64,
    /// Warps in the launch.
    pub warps: u64,
    /// The warps sharing an SM's L1 the estimate timed a kernel of one block for, where
    /// that is not the first class's 64 ([`crate::l1_sharing`]): the launch's busiest SM
    /// holds that few at once and keeps more of its reloads.
    pub l1_sharers: Option<u32>,
}

/// Why a launch could not be estimated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ModelError {
    /// A size of zero.
    #[error("empty NDRange: global {global:?}, local {local:?}")]
    Empty {
        /// Global size.
        global: [u64; 3],
        /// Local size.
        local: [u64; 3],
    },
    /// The buffer does not hold one record per work-item (or per warp).
    #[error(
        "counter buffer holds {actual} values, expected {expected} ({records} records x {stride})"
    )]
    RecordCount {
        /// Values found.
        actual: usize,
        /// Values expected.
        expected: u64,
        /// Records expected: work-items, or warps.
        records: u64,
        /// Values per record.
        stride: usize,
    },
    /// Shared warp records whose groups' places are not the launch's.
    #[error("shared records name a place for each of {groups} work-groups among {places}")]
    SharedRecords {
        /// The launch's work-groups.
        groups: u64,
        /// The groups' places the records hold.
        places: u64,
    },
    /// The records' resources are not the architecture's.
    #[error("records count {records} resources, the architecture has {arch}")]
    Resources {
        /// In the records.
        records: usize,
        /// In the architecture.
        arch: usize,
    },
    /// The records were reduced to warps of another size than the architecture's.
    #[error(
        "records reduced to warps of {records} work-items, the architecture's warps have {arch}"
    )]
    WarpSize {
        /// In the records.
        records: u32,
        /// In the architecture.
        arch: u32,
    },
    /// A work-group fits on no SM.
    #[error(transparent)]
    DoesNotFit(#[from] DoesNotFit),
    /// A work-group the GPU would not launch at all.
    #[error("a work-group of {local:?} work-items exceeds {arch}'s {limit} ({field})")]
    TooLarge {
        /// The architecture.
        arch: String,
        /// The local size.
        local: [u64; 3],
        /// The limit, in words.
        limit: String,
        /// The architecture file's field that sets it.
        field: &'static str,
    },
}

impl ModelError {
    /// Whether the GPU would refuse the launch (a work-group too large in all or in one
    /// dimension, or one that fits on no SM): the program's launch is invalid there.
    pub fn invalid_on_gpu(&self) -> bool {
        matches!(
            self,
            ModelError::DoesNotFit(_) | ModelError::TooLarge { .. }
        )
    }
}

/// Checks that a GPU described by `arch` would launch work-groups of `local` work-items:
/// at most `limits.max_work_group_size` in all and `limits.max_work_group_dims` per
/// dimension (a GPU rejects a larger launch; a CPU device may not).
pub fn check_work_group(arch: &Architecture, local: [u64; 3]) -> Result<(), ModelError> {
    let lim = &arch.limits;
    let too_large = |limit: String, field: &'static str| ModelError::TooLarge {
        arch: arch.name.clone(),
        local,
        limit,
        field,
    };
    let size: u64 = local.iter().product();
    if size > u64::from(lim.max_work_group_size) {
        return Err(too_large(
            format!("{} work-items per work-group", lim.max_work_group_size),
            "limits.max_work_group_size",
        ));
    }
    for (d, (&l, &max)) in local.iter().zip(&lim.max_work_group_dims).enumerate() {
        if l > u64::from(max) {
            return Err(too_large(
                format!("{max} work-items in dimension {d}"),
                "limits.max_work_group_dims",
            ));
        }
    }
    Ok(())
}

/// Estimates a launch of `geometry` from its `records`: one record per work-item, `t`,
/// the usage of each of the architecture's resources, then the cycles of each divergent
/// arm (`records.format`; none without divergent branches), or one per warp.
pub fn estimate(
    arch: &Architecture,
    geometry: &LaunchGeometry,
    resources: &KernelResources,
    records: &Records<'_>,
) -> Result<KernelEstimate, ModelError> {
    check_records(arch, geometry, records)?;
    estimate_dealt(arch, geometry, resources, records.usage_scale, |dealer| {
        walk_groups(arch, geometry, records, &mut |g| dealer.take(g))
    })
}

/// The estimate of a launch whose work-groups `deal` hands to the dealer, in order
/// (returning what the walk found: [`Walked`]), once the work-group size and
/// occupancy are checked: the same from the records ([`estimate`]) and from a summary
/// ([`estimate_summarized`]).
fn estimate_dealt(
    arch: &Architecture,
    geometry: &LaunchGeometry,
    resources: &KernelResources,
    usage_scale: u64,
    deal: impl FnOnce(&mut Dealer) -> Walked,
) -> Result<KernelEstimate, ModelError> {
    check_work_group(arch, geometry.local)?;
    let occ = occupancy(arch, geometry.work_group_size(), resources)?;
    let n_par = u64::from(occ.work_groups_per_sm) * u64::from(arch.sm_count);
    // The warps the busiest SM holds at once share its L1. The share of the launch's
    // reads the L2 cannot hold, known before any group is dealt (the first wave's frames
    // need only its size): that share of a kernel's first touches waits for DRAM
    // (`l1_sharing`), and of its traffic comes from there (`Traffic`).
    let [x, y, z] = geometry.groups();
    let groups = x * y * z;
    let sharers = occ.busiest_sm_warps(arch, groups);
    let first_wave_warps = groups.min(n_par) * u64::from(occ.warps_per_work_group);
    let miss_share = read_miss_share(arch, resources, first_wave_warps);
    let mut dealer = Dealer::new(arch, n_par).sharing_l1(
        resources.l1_sharing.as_ref(),
        sharer_class(sharers),
        miss_share,
    );
    let walked = deal(&mut dealer);
    let dealt = dealer.finish(walked);
    Ok(finish_estimate(
        arch,
        resources,
        occ,
        n_par,
        &dealt,
        usage_scale,
        miss_share,
    ))
}

/// The estimate once the work-groups are dealt: the memory traffic (a share `miss_share`
/// of the reads missing the L2), the contention terms, what bound the launch, and its
/// cycles with the launch cost.
fn finish_estimate(
    arch: &Architecture,
    resources: &KernelResources,
    occ: Occupancy,
    n_par: u64,
    dealt: &Dealt,
    usage_scale: u64,
    miss_share: f64,
) -> KernelEstimate {
    let traffic = Traffic::of(arch, resources, dealt, usage_scale, miss_share);
    let contention = contention(arch, &dealt.usage, &traffic, usage_scale);
    let (busiest, worst) = contention
        .iter()
        .copied()
        .enumerate()
        .fold(
            (0, 0.0),
            |best, (r, c)| if c > best.1 { (r, c) } else { best },
        );
    // The code's first run: every line a DRAM trip where the instruction cache fetches
    // none ahead. The SM's warps run the same code, so a missing line holds up every one
    // that reaches it: while it is fetched no warp issues and no request leaves, and the
    // misses add to whichever term bounds the launch rather than hide under it. The code
    // of a divergent arm no lane entered (the other side of an `if` every lane decided
    // alike) is never fetched. Each later wave of work-groups runs the code again, from
    // the L2, where the cache could not keep it; its warps start together as the first
    // wave's did.
    let icache_cycles = arch.icache.as_ref().map_or(0, |c| {
        let code = resources.fetched_instructions(dealt.walked.entered_arms);
        let later_waves = dealt.work_groups.div_ceil(n_par.max(1)).saturating_sub(1);
        c.cold_cycles(code, arch.memory.dram)
            + later_waves * c.rerun_cycles(code, arch.memory.l2_hit)
    });
    let t_paths = unloaded_paths(
        arch,
        dealt,
        &contention,
        usage_scale,
        traffic.queue_cycles,
        miss_share,
    ) + traffic.queue_cycles;
    // The paths wait for their schedulers' issue slots, and their requests for the L2,
    // near the knee between the terms (module `interference`); `issue` is the first
    // resource. The L2's share is its bytes over its bandwidth: the trip is in the paths.
    let issue = contention.first().copied().unwrap_or(0.0);
    let l2_busy = arch
        .l2_resource()
        .and(busy_cycles(
            Some(traffic.memory_bytes),
            arch.l2_sustained_bytes_per_cycle(),
        ))
        .unwrap_or(0.0);
    let (sharers, waves) = (
        issue_sharers(arch, occ, dealt.work_groups),
        dealt.work_groups.div_ceil(n_par.max(1)),
    );
    let issue_only = stretched(t_paths as f64, &[issue], sharers, waves);
    let stretched = stretched(t_paths as f64, &[issue, l2_busy], sharers, waves);
    let resource = |r: usize| Bound::Resource {
        resource: arch.resources()[r].clone(),
    };
    // Above the terms, the station whose term is the larger bounds the launch where that
    // exceeds the paths.
    let (station, station_term) = arch
        .l2_resource()
        .map(|r| (r, contention[r]))
        .filter(|&(_, l2)| l2 > issue)
        .unwrap_or((0, issue));
    let (t_work, bound) = if worst >= stretched && worst > t_paths as f64 {
        (worst, resource(busiest))
    } else if station_term > t_paths as f64 {
        (stretched, resource(station))
    } else {
        (stretched, Bound::Latency)
    };
    // What the waits add to the launch (nothing where another unit bounds it): the issue
    // slots' as they alone would stretch the paths, the L2's the rest.
    // Both in whole cycles that add up to the rounded whole: the latency term and the
    // waits are the launch's cycles.
    let floor = worst.max(t_paths as f64);
    let waits = (t_work - floor).max(0.0).ceil();
    let issue_wait = (issue_only.min(t_work) - floor).max(0.0).ceil().min(waits);
    let l2_wait = waits - issue_wait;
    let t_lat = t_paths + icache_cycles;
    let t_kernel = t_work + icache_cycles as f64;
    let launch_cycles = u64::from(arch.launch.fixed_cycles);
    let bound = if launch_cycles as f64 > t_kernel {
        Bound::Launch
    } else {
        bound
    };
    let cycles = launch_cycles + t_kernel.ceil() as u64;
    KernelEstimate {
        cycles,
        micros: arch.cycles_to_us(cycles as f64),
        latency_cycles: t_lat,
        queue_cycles: traffic.queue_cycles,
        issue_wait_cycles: issue_wait as u64,
        l2_wait_cycles: l2_wait as u64,
        icache_cycles,
        l2_resident: traffic.l2_resident,
        launch_cycles,
        divergence_cycles: dealt.walked.divergence,
        contention_cycles: contention,
        dram_bytes: traffic.dram_bytes,
        bound,
        occupancy: occ,
        parallel_work_groups: n_par,
        work_groups: dealt.work_groups,
        warps: dealt.warps,
        l1_sharers: dealt.l1_sharers,
    }
}

/// `t_opt` with the paths' L2 trips as the L2's load makes them. The code is timed with
/// every trip at `memory.l2_hit`, the trip at the load launches typically put on the L2;
/// with few requests in flight it is shorter (`memory.l2_unloaded`: GPGPU-Sim's GTX 480
/// answers a launch of one work-group in about 185 cycles, where its launches that keep
/// the L2 busy wait 250 and more, validation/gpgpusim/README.md). The L2 is busy for its
/// bytes over its bandwidth (its contention term) of the paths' time (with the first
/// wave's queueing, `queue`), and the trip moves from the unloaded one to the loaded one
/// in proportion: the paths shed the idle share of what their trips take beyond the
/// unloaded ones ([`crate::arch::L2_TRIP`]'s usage, summed over the warps, against their paths'
/// cycles). Only the trips the L2 serves: a share `miss_share` of the launch's reads
/// comes from DRAM, whose trip is no shorter.
fn unloaded_paths(
    arch: &Architecture,
    dealt: &Dealt,
    contention: &[f64],
    usage_scale: u64,
    queue: u64,
    miss_share: f64,
) -> u64 {
    let (Some(trip), Some(l2)) = (arch.l2_trip_resource(), arch.l2_resource()) else {
        return dealt.t_opt;
    };
    if dealt.t_opt == 0 || dealt.warp_cycles <= 0.0 {
        return dealt.t_opt;
    }
    let excess = dealt.usage.total(trip);
    let share = (excess as f64 / usage_scale.max(1) as f64 / dealt.warp_cycles).min(1.0);
    let busy = (contention[l2] / (dealt.t_opt + queue) as f64).min(1.0);
    let shed = (1.0 - busy) * (1.0 - miss_share).max(0.0) * share * dealt.t_opt as f64;
    dealt.t_opt - (shed.round() as u64).min(dealt.t_opt)
}

/// The warps that share the busiest scheduler's issue slots at once: the first wave's
/// work-groups dealt over the SMs, their warps over the SM's sub-cores where each issues
/// for its own (`issue_scope`).
fn issue_sharers(arch: &Architecture, occ: Occupancy, work_groups: u64) -> u64 {
    let warps = occ.busiest_sm_warps(arch, work_groups);
    match arch.issue_scope {
        Scope::SubCore => warps.div_ceil(u64::from(arch.sub_cores_per_sm).max(1)),
        Scope::Sm | Scope::Device => warps,
    }
}

/// The records fit the launch: no empty range, at least the architecture's resources per
/// record, one record per work-item.
fn check_records(
    arch: &Architecture,
    geometry: &LaunchGeometry,
    records: &Records<'_>,
) -> Result<(), ModelError> {
    if geometry.global.contains(&0) || geometry.local.contains(&0) {
        return Err(ModelError::Empty {
            global: geometry.global,
            local: geometry.local,
        });
    }
    let n_res = arch.resources().len();
    if records.format.resources != n_res {
        return Err(ModelError::Resources {
            records: records.format.resources,
            arch: n_res,
        });
    }
    if let Grain::Warp { warp_size, .. } = records.grain {
        if warp_size != arch.warp_size {
            return Err(ModelError::WarpSize {
                records: warp_size,
                arch: arch.warp_size,
            });
        }
    }
    let stride = records.stride();
    let count = records.count(geometry);
    if let Some(shared) = records.shared {
        let [x, y, z] = geometry.groups();
        let group_warps = geometry
            .work_group_size()
            .div_ceil(u64::from(arch.warp_size));
        let places = count / group_warps.max(1);
        let wrong = records.grain == Grain::WorkItem
            || shared.len() as u64 != x * y * z
            || shared.iter().any(|&p| u64::from(p) >= places);
        if wrong {
            return Err(ModelError::SharedRecords {
                groups: x * y * z,
                places,
            });
        }
    }
    if records.data.len() as u64 != count * stride as u64 {
        return Err(ModelError::RecordCount {
            actual: records.data.len(),
            expected: count * stride as u64,
            records: count,
            stride,
        });
    }
    Ok(())
}

/// A launch's records reduced to its work-groups (each its time, bytes, warps and usage per sub-core): enough to estimate the launch
/// again under an architecture that differs only in what the records do not depend on
/// (SM count, clock, bandwidths, occupancy limits, launch cost: what a sweep varies),
/// without walking the records again.
#[derive(Debug, Clone)]
pub struct LaunchSummary {
    /// Per group: its time, bytes and warps.
    groups: Vec<[u64; 3]>,
    /// Per group, per sub-core, per resource, the usage (flattened).
    usage: Vec<u64>,
    walked: Walked,
    /// What the reduction depends on: the resources, the warp size, the sub-cores and a
    /// warp's wait at its exit.
    made_for: (Vec<String>, u32, u32, u64),
}

impl LaunchSummary {
    /// Summarizes the `records` of a launch of `geometry` on `arch`.
    pub fn of(
        arch: &Architecture,
        geometry: &LaunchGeometry,
        records: &Records<'_>,
    ) -> Result<Self, ModelError> {
        check_records(arch, geometry, records)?;
        let mut summary = LaunchSummary {
            groups: Vec::new(),
            usage: Vec::new(),
            walked: Walked::default(),
            made_for: Self::key(arch),
        };
        summary.walked = walk_groups(arch, geometry, records, &mut |g| {
            summary.groups.push([g.t_last, g.bytes, g.warps]);
            summary.usage.extend_from_slice(g.usage);
        });
        Ok(summary)
    }

    fn key(arch: &Architecture) -> (Vec<String>, u32, u32, u64) {
        (
            arch.resources(),
            arch.warp_size,
            arch.sub_cores_per_sm,
            exit_wait(arch),
        )
    }

    /// Whether this summary holds for `arch` (it reduces the records as `arch` would).
    pub fn fits(&self, arch: &Architecture) -> bool {
        self.made_for == Self::key(arch)
    }

    /// The 64-bit words the summary of a launch of `geometry` on `arch` holds: what
    /// making and keeping it costs, known before it is made.
    pub fn words(arch: &Architecture, geometry: &LaunchGeometry) -> u64 {
        let [x, y, z] = geometry.groups();
        let per_group = 3 + u64::from(arch.sub_cores_per_sm) * arch.resources().len() as u64;
        x * y * z * per_group
    }
}

/// Estimates a launch of `geometry` from its `summary` ([`LaunchSummary::of`] under an
/// architecture it [fits](LaunchSummary::fits)): the same as [`estimate`] from the
/// records.
pub fn estimate_summarized(
    arch: &Architecture,
    geometry: &LaunchGeometry,
    resources: &KernelResources,
    summary: &LaunchSummary,
    usage_scale: u64,
) -> Result<KernelEstimate, ModelError> {
    assert!(
        summary.fits(arch),
        "a launch summary used under an architecture that reduces the records otherwise"
    );
    // What one group holds: a usage per resource per sub-core (`fits` checked both).
    let per_group = arch.sub_cores_per_sm as usize * arch.resources().len();
    estimate_dealt(arch, geometry, resources, usage_scale, |dealer| {
        let usage = summary.usage.chunks_exact(per_group);
        for (&[t_last, bytes, warps], usage) in summary.groups.iter().zip(usage) {
            dealer.take(Group {
                t_last,
                usage,
                bytes,
                warps,
            });
        }
        summary.walked
    })
}

/// The cycles a level of the memory (the L2, the DRAM) is busy moving `bytes` at
/// `per_cycle` bytes a cycle; `None` where it moves nothing or has no bandwidth given.
fn busy_cycles(bytes: Option<u64>, per_cycle: Option<f64>) -> Option<f64> {
    bytes
        .zip(per_cycle)
        .filter(|(bytes, _)| *bytes > 0)
        .map(|(bytes, per_cycle)| bytes as f64 / per_cycle)
}

/// Per resource, the contention term in cycles: the usage of the most loaded SM (or
/// sub-core, for a resource of each sub-core); for the L2 and DRAM, the launch's traffic
/// over their bandwidth; for the miss entries, the trips they are held; for the SM's fill
/// port, the bytes its loads bring in over the port's bandwidth.
fn contention(
    arch: &Architecture,
    usage: &SmUsage,
    traffic: &Traffic,
    usage_scale: u64,
) -> Vec<f64> {
    let scale = usage_scale.max(1) as f64;
    let (l2, mshr, fill, trip) = (
        arch.l2_resource(),
        arch.mshr_resource(),
        arch.fill_resource(),
        arch.l2_trip_resource(),
    );
    arch.resource_scopes()
        .into_iter()
        .enumerate()
        .map(|(r, scope)| {
            let per_sm = |subs: &mut dyn Iterator<Item = u64>| match scope {
                Scope::SubCore => subs.max().unwrap_or(0),
                Scope::Sm | Scope::Device => subs.sum(),
            };
            let most_loaded = || {
                usage
                    .per_sm(r)
                    .map(|mut subs| per_sm(&mut subs))
                    .max()
                    .unwrap_or(0) as f64
                    / scale
            };
            match scope {
                // A share of the paths, not a unit anything waits for.
                _ if Some(r) == trip => 0.0,
                // The GPU's L2 and DRAM: the launch's traffic over the bandwidth, and the
                // last request's trip after it (a busy level still answers the last
                // request a load-to-use latency after it is sent).
                Scope::Device => {
                    let (bytes, per_cycle, latency) = if Some(r) == l2 {
                        (
                            Some(traffic.memory_bytes),
                            arch.l2_sustained_bytes_per_cycle(),
                            arch.memory.l2_hit,
                        )
                    } else {
                        (
                            traffic.dram_bytes,
                            arch.dram_bytes_per_cycle(),
                            arch.memory.dram,
                        )
                    };
                    busy_cycles(bytes, per_cycle).map_or(0.0, |busy| busy + f64::from(latency))
                }
                // Miss entries, each held for a trip to where the data is: at least the
                // unloaded trip, and when every busy SM keeps its entries full, the time
                // the serving level takes to drain them all (Little's law).
                Scope::Sm if Some(r) == mshr => {
                    let busy = usage
                        .per_sm(r)
                        .map(|mut subs| per_sm(&mut subs))
                        .filter(|&u| u > 0)
                        .count() as f64;
                    let in_flight = busy
                        * f64::from(arch.memory.mshrs_per_sm.unwrap_or(0))
                        * f64::from(arch.memory.fetch_bytes);
                    let drain = traffic
                        .serving_bytes_per_cycle
                        .map_or(0.0, |b| in_flight / b);
                    most_loaded() * f64::from(traffic.miss_latency).max(drain)
                }
                Scope::Sm if Some(r) == fill => arch
                    .memory
                    .fill_bytes_per_cycle
                    .map_or(0.0, |per_cycle| most_loaded() / per_cycle),
                Scope::Sm | Scope::SubCore => most_loaded(),
            }
        })
        .collect()
}
