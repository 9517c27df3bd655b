//! A launch's memory traffic: the bytes past the L1, the share of its reads the L2 does
//! not hold, what the L2 writes back, which level serves the misses and how long the
//! first wave's burst queues there (`kernel`'s memory-side terms).

use crate::arch::Architecture;
use crate::occupancy::KernelResources;
use crate::warps::Dealt;

/// The work-items' private frames kept in memory (`.local`): one for each slot of the
/// first wave's `first_wave_warps` (later waves reuse the slots), beside the buffers in
/// the L2.
pub(crate) fn frame_bytes(
    arch: &Architecture,
    resources: &KernelResources,
    first_wave_warps: u64,
) -> u64 {
    resources.frame_bytes * first_wave_warps * u64::from(arch.warp_size)
}

/// The share of a launch's reads the L2 does not hold. Served from the L2 where the
/// buffers the launch reads, and its frames, fit in it (`memory.l2_bytes`): what the host
/// or an earlier launch wrote is still there, and a line the launch writes is taken
/// without a fetch. A launch that needs a little more misses in the sets it overfills
/// (`Architecture::l2_miss_share`).
pub(crate) fn read_miss_share(
    arch: &Architecture,
    resources: &KernelResources,
    first_wave_warps: u64,
) -> f64 {
    let frames = frame_bytes(arch, resources, first_wave_warps);
    arch.l2_miss_share(
        resources
            .read_memory_bytes
            .map(|r| r + frames)
            .or(resources.global_memory_bytes.map(|f| f + frames)),
    )
}

/// The bytes the L2 writes back to DRAM during the launch beside its reads' misses: what
/// the launch stores (each warp's bytes, at most the footprint), where that and what the
/// L2 holds for the reads exceed the L2 (at most the footprint). The L2 keeps written
/// lines until they are replaced, and a line replaced is written back: a launch that
/// writes ten times the L2 waits for them (GPGPU-Sim's GTX 480, `store_m` writing 7.5 MiB:
/// 58,301 cycles, 110,566 write-backs of 64 bytes; validation/gpgpusim/probes). 0 without
/// the L2's capacity or a DRAM column of stores (`timing::ResourceUsage`).
fn written_back(
    arch: &Architecture,
    resources: &KernelResources,
    dealt: &Dealt,
    scale: f64,
    frames: u64,
    footprint: Option<u64>,
) -> f64 {
    let (Some(l2), Some(_), Some(dram)) = (
        arch.memory.l2_bytes,
        arch.l2_resource(),
        arch.dram_resource(),
    ) else {
        return 0.0;
    };
    // A warp's stored bytes are its lanes' largest share times its lanes.
    let stored = dealt.usage.total(dram);
    let stored = stored as f64 / scale * f64::from(arch.warp_size);
    let stored = footprint.map_or(stored, |f| stored.min(f as f64));
    let read = resources
        .read_memory_bytes
        .or(resources.global_memory_bytes)
        .map_or(0, |r| r + frames) as f64;
    let held = footprint.map_or(read + stored, |f| (read + stored).min(f as f64));
    (held - l2 as f64).clamp(0.0, stored)
}

/// The share of the bytes a launch moves past the L1 that its stores move: the DRAM
/// column's (the bytes stored, where the description has an L2 column) over the L2
/// column's, both as [`written_back`] counts a warp's. 0 without those columns.
fn stored_share(arch: &Architecture, dealt: &Dealt, scale: f64) -> f64 {
    let (Some(l2), Some(dram)) = (arch.l2_resource(), arch.dram_resource()) else {
        return 0.0;
    };
    let total = |r: usize| dealt.usage.total(r) as f64 / scale;
    let moved = total(l2);
    if moved > 0.0 {
        (total(dram) / moved).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// The launch's memory traffic: how many bytes, which level serves it, and how long the
/// first wave's burst queues there.
pub(crate) struct Traffic {
    /// Bytes past the L1 (whole cycles of the records' units).
    pub(crate) memory_bytes: u64,
    /// Whether the buffers the launch reads fit in the L2 (`memory.l2_bytes`).
    pub(crate) l2_resident: bool,
    /// Bytes from DRAM, when the architecture models it.
    pub(crate) dram_bytes: Option<u64>,
    /// What a miss costs: an L2 trip when the data is there, else DRAM's.
    pub(crate) miss_latency: u32,
    /// The bandwidth of the level that serves the misses, bytes a cycle.
    pub(crate) serving_bytes_per_cycle: Option<f64>,
    /// The cycles the first wave's requests wait (`queue_cycles`).
    pub(crate) queue_cycles: u64,
}

impl Traffic {
    pub(crate) fn of(
        arch: &Architecture,
        resources: &KernelResources,
        dealt: &Dealt,
        usage_scale: u64,
        miss_share: f64,
    ) -> Self {
        let scale = usage_scale.max(1) as f64;
        let frames = frame_bytes(arch, resources, dealt.first_wave_warps);
        let footprint = resources.global_memory_bytes.map(|f| f + frames);
        let memory_bytes = (dealt.memory_total as f64 / scale).ceil() as u64;
        let l2_resident = miss_share < 0.5;
        // The launch's compulsory traffic: at most the footprint (the caches keep what is
        // touched again).
        let compulsory = footprint.map_or(memory_bytes, |f| memory_bytes.min(f)) as f64;
        let write_back = written_back(arch, resources, dealt, scale, frames, footprint);
        let dram_bytes = arch
            .dram_resource()
            .map(|_| (compulsory * miss_share + (1.0 - miss_share) * write_back).round() as u64);
        // Where the misses go, and what one costs: an L2 trip for the share the L2 holds,
        // a DRAM trip for the rest; the bandwidth is the two levels' in that mix.
        // (Without an L2 capacity the share is 1: DRAM's trip exactly.)
        let miss_latency = (f64::from(arch.memory.l2_hit)
            + miss_share * (f64::from(arch.memory.dram) - f64::from(arch.memory.l2_hit)))
        .round() as u32;
        let serving_bytes_per_cycle = match (arch.dram_bytes_per_cycle(), arch.l2_bytes_per_cycle())
        {
            (Some(dram), Some(l2)) if arch.memory.l2_bytes.is_some() => {
                Some(1.0 / (miss_share / dram + (1.0 - miss_share) / l2))
            }
            (dram, l2) if miss_share == 0.0 => l2.or(dram),
            (dram, l2) => dram.or(l2),
        };
        // The first wave's work-groups start together and send their first requests
        // together: the level that serves them drains that burst at its bandwidth, so the
        // last of them returns the burst's transfer time after an unloaded trip. The burst
        // is the wave's share of the compulsory traffic (at most the footprint: what is
        // touched again hits a cache, or waits behind the first touches anyway). Later
        // waves start as earlier ones finish, spread out, and queue no more than the
        // bandwidth terms say.
        // Of that share, only the warps' first round of loads leaves at once: a warp
        // waits for it before it asks for more. The later rounds leave as the warps' paths
        // get there, spread over the wave's run past its first trip, and queue only by
        // what their transfer takes beyond that (a streaming loop's iterations overlap
        // the transfer; a short path waits for all of it).
        let wave_bytes = if dealt.memory_total == 0 {
            0.0
        } else {
            (compulsory * dealt.first_wave_bytes as f64 / dealt.memory_total as f64).ceil()
        };
        let first_round = resources
            .first_round_warp_bytes
            .map_or(wave_bytes, |round| {
                wave_bytes.min((round * dealt.first_wave_warps) as f64)
            });
        let spread = dealt
            .first_wave_cycles
            .saturating_sub(u64::from(miss_latency)) as f64;
        // Its stores go no further than the L2, which keeps written lines (what it cannot
        // keep is written back in the DRAM's term): their share drains at the L2's rate,
        // the reads' at the serving levels'.
        let stored = stored_share(arch, dealt, scale);
        let queue_cycles =
            serving_bytes_per_cycle
                .filter(|_| wave_bytes > 0.0)
                .map_or(0, |per_cycle| {
                    let l2 = arch.l2_bytes_per_cycle().unwrap_or(per_cycle);
                    let drain =
                        |bytes: f64| bytes * (1.0 - stored) / per_cycle + bytes * stored / l2;
                    let later = (drain(wave_bytes - first_round) - spread).max(0.0);
                    (drain(first_round) + later).ceil() as u64
                });
        Traffic {
            memory_bytes,
            l2_resident,
            dram_bytes,
            miss_latency,
            serving_bytes_per_cycle,
            queue_cycles,
        }
    }
}
