//! The L2 on hand-computed cases: a launch whose buffers (or the buffers it reads) fit in
//! it is served from it (no DRAM traffic, misses in flight wait an L2 trip), one whose
//! buffers exceed it comes from DRAM, one that exceeds it by a little misses in the sets
//! it overfills; the L2's bandwidth bounds every launch; and the first wave's compulsory traffic
//! queues at the level that serves it, in the latency term.

mod common;

use pipeline_model::*;

/// gtx480 shrunk: warps of 4, one SM with 2 miss entries, a 1000 MHz clock; an L2 of 4096
/// bytes moving 128 bytes a cycle with a 20-cycle trip, a DRAM moving 32 bytes a cycle with
/// a 100-cycle trip; no launch cost. Resources: issue, ALU, SFU, MEM, MSHR, L2, DRAM;
/// usage scale 2 (2 ALUs, 2 entries).
fn toy() -> Architecture {
    let mut a = common::paper_gtx480();
    a.issue_scope = Scope::SubCore;
    a.warp_size = 4;
    a.sm_count = 1;
    a.clock_mhz = 1000.0;
    a.memory.mshrs_per_sm = Some(2);
    a.memory.l2_bytes = Some(4096);
    a.memory.l2_gb_per_s = Some(128.0);
    a.memory.l2_hit = 20;
    a.memory.dram_gb_per_s = Some(32.0);
    a.memory.dram = 100;
    a
}

const R: usize = 7;
const MSHR_COLUMN: usize = 4;
const L2_COLUMN: usize = 5;
const DRAM_COLUMN: usize = 6;

/// A launch of `n` work-items in groups of `local`, each with time `t`, taking `misses`
/// miss entries and loading `bytes` bytes past the L1 (none stored), with the given
/// buffer footprint.
fn run(n: usize, local: u64, t: u64, misses: u64, bytes: u64, footprint: u64) -> KernelEstimate {
    run_on(&toy(), n, local, t, misses, bytes, footprint)
}

fn run_on(
    arch: &Architecture,
    n: usize,
    local: u64,
    t: u64,
    misses: u64,
    bytes: u64,
    footprint: u64,
) -> KernelEstimate {
    let resources = KernelResources {
        global_memory_bytes: Some(footprint),
        read_memory_bytes: None,
        ..KernelResources::default()
    };
    run_with(arch, n, local, t, (misses, bytes), &resources)
}

/// [`run_on`] with the kernel's resources as given.
fn run_with(
    arch: &Architecture,
    n: usize,
    local: u64,
    t: u64,
    (misses, bytes): (u64, u64),
    resources: &KernelResources,
) -> KernelEstimate {
    let scale = arch.usage_scale();
    let mut rec = [0u64; R];
    rec[MSHR_COLUMN] = misses * scale / 2;
    rec[L2_COLUMN] = bytes * scale;
    let data: Vec<u64> = (0..n).flat_map(|_| std::iter::once(t).chain(rec)).collect();
    common::estimate_items(arch, local, resources, &data, R)
}

#[test]
fn the_l2_comes_before_the_dram_which_counts_what_is_stored() {
    let arch = toy();
    assert_eq!(
        arch.resources(),
        ["issue", "ALU", "SFU", "MEM", "MSHR", "L2", "DRAM"]
    );
    assert_eq!(arch.l2_resource(), Some(L2_COLUMN));
    assert_eq!(arch.resource_scopes()[L2_COLUMN], Scope::Device);
    assert_eq!(arch.l2_bytes_per_cycle(), Some(128.0));
    // A float load of a coalesced warp: its line over the 4 lanes, 32 bytes a lane past
    // the L1.
    let load = Instr::new(OpClass::GlobalMem, &[1], &[2])
        .with_global_bytes(4)
        .with_access(MemAccess {
            level: MemLevel::Dram,
            transactions: 1,
            sectors: 4,
            reuse_lines: None,
            step_bytes: None,
        });
    let usage = ResourceUsage::of(&arch, std::slice::from_ref(&load)).0;
    assert_eq!((usage[L2_COLUMN], usage[DRAM_COLUMN]), (32.0, 0.0));
    // One line, one miss entry of the 2.
    assert_eq!(usage[MSHR_COLUMN], 0.5);
    // Stored, the same bytes are the DRAM column's too (what the L2 may write back).
    let store = Instr::new(OpClass::GlobalMem, &[1, 2], &[])
        .with_global_bytes(4)
        .with_access(load.access.unwrap());
    let stored = ResourceUsage::of(&arch, &[store]).0;
    assert_eq!((stored[L2_COLUMN], stored[DRAM_COLUMN]), (32.0, 32.0));
}

#[test]
fn buffers_that_fit_in_the_l2_are_served_from_it() {
    // 64 work-items in one group of 16 warps, t = 10, 16 bytes each: 1024 bytes, buffers
    // of 2048 fit in the 4096-byte L2. No DRAM traffic; the L2 takes 1024 / 128 = 8 cycles
    // plus its 20-cycle trip; the first (only) wave's 1024 bytes queue 8 cycles at the L2.
    // Each warp takes the most any of its lanes took: 1 entry, 16 warps on the SM hold 16
    // entries of 2, each for an L2 trip: 16 / 2 x 20 = 160 cycles.
    let e = run(64, 64, 10, 1, 16, 2048);
    assert!(e.l2_resident);
    assert_eq!(e.dram_bytes, Some(0));
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 0.0);
    assert_eq!(e.contention_cycles[L2_COLUMN], 8.0 + 20.0);
    assert_eq!(e.queue_cycles, 8);
    // The 16 warps' issue offsets: 10 + floor(15 / 2) = 17, plus the queue.
    assert_eq!(e.latency_cycles, 17 + 8);
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 160.0);
    assert_eq!(e.cycles, 160);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "MSHR".into()
        }
    );
}

#[test]
fn only_the_first_round_of_loads_queues_where_the_paths_spread_the_rest() {
    // The launch below from DRAM, where a warp's first round of loads asks for 16 bytes:
    // 16 warps x 16 = 256 bytes leave at once, 256 / 32 = 8 cycles. The other 768 bytes
    // leave as the paths get there: over a path of t = 1000 (the wave's last warp
    // finishes at 1000 + floor(15 / 2) = 1007, its first trip 100 of it) their 24 cycles
    // of transfer queue nothing; the DRAM term still moves all 1024 bytes.
    let round = |bytes| KernelResources {
        global_memory_bytes: Some(8192),
        read_memory_bytes: None,
        first_round_warp_bytes: Some(bytes),
        ..KernelResources::default()
    };
    let e = run_with(&toy(), 64, 64, 1000, (1, 16), &round(16));
    assert_eq!(e.queue_cycles, 8);
    assert_eq!(e.latency_cycles, 1007 + 8);
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 32.0 + 100.0);
    // With t = 10 the wave's path (17) is shorter than a trip: the later rounds queue
    // all their 24 cycles too, as the whole share would.
    let e = run_with(&toy(), 64, 64, 10, (1, 16), &round(16));
    assert_eq!(e.queue_cycles, 8 + 24);
    // A round larger than the wave's share of the traffic queues the share.
    let e = run_with(&toy(), 64, 64, 1000, (1, 16), &round(1000));
    assert_eq!(e.queue_cycles, 32);
}

#[test]
fn buffers_larger_than_the_l2_come_from_dram() {
    // The same launch with buffers of 8192 bytes: the DRAM moves the 1024 bytes in 32
    // cycles plus its 100-cycle trip, the first wave queues 32 cycles at the DRAM, and the
    // 16 entries wait DRAM trips: 16 / 2 x 100 = 800 cycles.
    let e = run(64, 64, 10, 1, 16, 8192);
    assert!(!e.l2_resident);
    assert_eq!(e.dram_bytes, Some(1024));
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 32.0 + 100.0);
    assert_eq!(e.contention_cycles[L2_COLUMN], 8.0 + 20.0);
    assert_eq!(e.queue_cycles, 32);
    assert_eq!(e.latency_cycles, 17 + 32);
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 800.0);
    assert_eq!(e.cycles, 800);
}

#[test]
fn the_first_waves_stores_queue_at_the_l2_its_reads_at_the_dram() {
    // The launch from DRAM above, each work-item storing 8 of its 16 bytes (the DRAM
    // column: what it stores). The L2 keeps written lines, so the first wave's 512 stored
    // bytes drain at its 128 bytes a cycle (4 cycles) and only the 512 read at the DRAM's
    // 32 (16 cycles): 20 cycles of queue where all 1024 bytes at the DRAM took 32.
    let arch = toy();
    let scale = arch.usage_scale();
    let mut rec = [0u64; R];
    rec[MSHR_COLUMN] = scale / 2;
    rec[L2_COLUMN] = 16 * scale;
    rec[DRAM_COLUMN] = 8 * scale;
    let data: Vec<u64> = (0..64)
        .flat_map(|_| std::iter::once(10).chain(rec))
        .collect();
    let resources = KernelResources {
        global_memory_bytes: Some(8192),
        read_memory_bytes: None,
        ..KernelResources::default()
    };
    let e = common::estimate_items(&arch, 64, &resources, &data, R);
    assert!(!e.l2_resident);
    assert_eq!(e.queue_cycles, 16 + 4);
    assert_eq!(e.latency_cycles, 17 + 20);
    // Stored alone, the first wave's bytes all drain at the L2: 1024 / 128.
    rec[DRAM_COLUMN] = 16 * scale;
    let data: Vec<u64> = (0..64)
        .flat_map(|_| std::iter::once(10).chain(rec))
        .collect();
    let e = common::estimate_items(&arch, 64, &resources, &data, R);
    assert_eq!(e.queue_cycles, 8);
}

#[test]
fn what_the_launch_reads_decides_whether_the_l2_serves_it() {
    // Buffers of 8192 bytes, of which the launch reads 2048 (it writes the rest): the
    // reads fit in the 4096-byte L2, so the launch is the resident one above.
    let reads = |read| KernelResources {
        global_memory_bytes: Some(8192),
        read_memory_bytes: Some(read),
        ..KernelResources::default()
    };
    let e = run_with(&toy(), 64, 64, 10, (1, 16), &reads(2048));
    assert!(e.l2_resident);
    assert_eq!(e.dram_bytes, Some(0));
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 160.0);
    assert_eq!(e.cycles, 160);
    // Reads of 8192 do not fit: the launch from DRAM above.
    let e = run_with(&toy(), 64, 64, 10, (1, 16), &reads(8192));
    assert!(!e.l2_resident);
    assert_eq!(e.cycles, 800);
}

#[test]
fn the_work_items_frames_take_their_room_in_the_l2() {
    // Reads of 2048 bytes, and each of the 64 work-items (one wave: 16 warps of 4) keeps a
    // private frame in memory. Frames of 32 bytes: 2048 + 64 x 32 = 4096 fit in the
    // 4096-byte L2, the resident launch above. Frames of 64: 2048 + 4096 do not, and the
    // launch comes from DRAM: its 16 entries of 2 wait a 100-cycle trip, 16 / 2 x 100.
    let frames = |bytes| KernelResources {
        global_memory_bytes: Some(2048),
        read_memory_bytes: Some(2048),
        frame_bytes: bytes,
        ..KernelResources::default()
    };
    let e = run_with(&toy(), 64, 64, 10, (1, 16), &frames(32));
    assert!(e.l2_resident);
    assert_eq!(e.cycles, 160);
    let e = run_with(&toy(), 64, 64, 10, (1, 16), &frames(64));
    assert!(!e.l2_resident);
    assert_eq!(e.dram_bytes, Some(1024));
    assert_eq!(e.cycles, 800);
}

#[test]
fn reads_a_little_larger_than_the_l2_miss_in_the_sets_they_overfill() {
    // The L2 of 4096 bytes in 4 ways: 32 lines, 8 sets. Reads of 34 lines (4352 bytes)
    // put 5 lines in 2 sets, which miss every time: 10 of 34 lines, a share of 5/17.
    let mut arch = toy();
    arch.memory.l2_ways = Some(4);
    assert_eq!(arch.l2_miss_share(Some(34 * 128)), 10.0 / 34.0);
    let resources = KernelResources {
        global_memory_bytes: Some(34 * 128),
        read_memory_bytes: Some(34 * 128),
        ..KernelResources::default()
    };
    let e = run_with(&arch, 64, 64, 10, (1, 16), &resources);
    assert!(e.l2_resident);
    // DRAM moves that share of the 1024 bytes: 301.18 -> 301, over 32 bytes a cycle, plus
    // its trip.
    assert_eq!(e.dram_bytes, Some(301));
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 301.0 / 32.0 + 100.0);
    // A miss waits 20 + 5/17 x 80 = 43.53 -> 44 cycles: 16 / 2 x 44.
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 8.0 * 44.0);
    // 8 lines more (as many as the sets) overfill every set: all from DRAM.
    assert_eq!(arch.l2_miss_share(Some(40 * 128)), 1.0);
}

#[test]
fn only_the_first_waves_share_of_the_compulsory_traffic_queues() {
    // 256 work-items in 16 groups of 16, each 64 bytes: 16384 bytes counted, but the
    // buffers are 2048 bytes (the rest hits a cache). With one SM and at most 8 groups at
    // once (gtx480's 8 work-group slots; 4 warps each), the first wave is 8 of 16 groups:
    // half of the 2048 compulsory bytes, 1024 / 128 = 8 cycles at the L2.
    let e = run(256, 16, 10, 0, 64, 2048);
    assert!(e.l2_resident);
    assert_eq!(e.parallel_work_groups, 8);
    assert_eq!(e.queue_cycles, 8);
    // The L2 term counts every byte that crosses it: 16384 / 128 + 20.
    assert_eq!(e.contention_cycles[L2_COLUMN], 128.0 + 20.0);
}

#[test]
fn an_l2_the_model_cannot_use_is_refused_with_its_field() {
    let shipped = include_str!("../arch/gtx480.toml");
    for (from, to, field) in [
        ("l2_bytes = 786432", "l2_bytes = 0", "memory.l2_bytes"),
        ("l2_ways = 8", "l2_ways = 0", "memory.l2_ways"),
        (
            "l2_gb_per_s = 179.2",
            "l2_gb_per_s = 0.0",
            "memory.l2_gb_per_s",
        ),
    ] {
        let bad = shipped.replace(from, to);
        assert_ne!(bad, shipped, "{from}");
        let err = Architecture::from_toml(&bad, "bad.toml").unwrap_err();
        assert!(err.to_string().contains(&format!("`{field}`")), "{err}");
    }
}

#[test]
fn full_miss_entries_wait_for_the_serving_level_to_drain_them() {
    // The resident launch above on an L2 of 8 bytes a cycle: the SM's 2 entries of 128-byte
    // lines (gtx480's fetch) take 2 x 128 / 8 = 32 cycles to drain, more than the 20-cycle
    // trip, so each entry is held 32 cycles: 16 / 2 x 32 = 256.
    let mut arch = toy();
    arch.memory.l2_gb_per_s = Some(8.0);
    assert_eq!(arch.memory.fetch_bytes, 128);
    let e = run_on(&arch, 64, 64, 10, 1, 16, 2048);
    assert!(e.l2_resident);
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 256.0);
    // A fast L2 drains them within the trip: 16 / 2 x 20.
    assert_eq!(
        run(64, 64, 10, 1, 16, 2048).contention_cycles[MSHR_COLUMN],
        160.0
    );
}

#[test]
fn the_l2_term_takes_what_the_l2_sustains_the_miss_entries_its_peak() {
    // The resident launch above on an L2 of 8 bytes a cycle at its peak and 4 sustained:
    // its 64 x 16 = 1024 bytes take 1024 / 4 + 20 = 276 cycles of L2 term (148 at the
    // peak alone), and the SM's 2 entries still drain in 2 x 128 / 8 = 32 cycles: 256.
    let mut arch = toy();
    arch.memory.l2_gb_per_s = Some(8.0);
    let peak = run_on(&arch, 64, 64, 10, 1, 16, 2048);
    assert_eq!(peak.contention_cycles[L2_COLUMN], 1024.0 / 8.0 + 20.0);
    arch.memory.l2_sustained_gb_per_s = Some(4.0);
    assert_eq!(arch.l2_bytes_per_cycle(), Some(8.0));
    assert_eq!(arch.l2_sustained_bytes_per_cycle(), Some(4.0));
    let e = run_on(&arch, 64, 64, 10, 1, 16, 2048);
    assert_eq!(e.contention_cycles[L2_COLUMN], 276.0);
    assert_eq!(e.contention_cycles[MSHR_COLUMN], 256.0);
    assert_eq!(e.cycles, 276);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "L2".into()
        }
    );
    // Without a sustained rate both are the bandwidth's.
    assert_eq!(
        toy().l2_sustained_bytes_per_cycle(),
        toy().l2_bytes_per_cycle()
    );
}

#[test]
fn warps_that_wait_for_their_stores_end_an_l2_trip_later() {
    // The resident launch above (t = 10, 16 warps: latency 17 + the 8-cycle queue) where
    // a warp exits only once its stores are acknowledged: every warp ends 20 cycles later.
    let mut arch = toy();
    arch.memory.store_ack_at_exit = true;
    let e = run_on(&arch, 64, 64, 10, 0, 16, 2048);
    assert_eq!(e.latency_cycles, 17 + 20 + 8);
    let e = run(64, 64, 10, 0, 16, 2048);
    assert_eq!(e.latency_cycles, 17 + 8);
}

#[test]
fn near_the_knee_the_warps_requests_wait_for_the_l2() {
    // 16 work-items in one group (four warps, two per sub-core), t = 1000, each moving
    // 8000 bytes past the L1 (a warp's first round 16 bytes); buffers of 8192 exceed the
    // L2, so the DRAM serves the first round: 4 x 16 / 32 = 2 cycles of queue. Paths:
    // 1000 + floor(3 / 2) + 2 = 1003. The L2 moves 128000 bytes: 1000 cycles busy, its
    // term 1000 + 20 = 1020; the DRAM's 8192 / 32 + 100 = 356.
    let resources = KernelResources {
        global_memory_bytes: Some(8192),
        read_memory_bytes: None,
        first_round_warp_bytes: Some(16),
        ..KernelResources::default()
    };
    let e = run_with(&toy(), 16, 16, 1000, (0, 8000), &resources);
    assert_eq!(e.latency_cycles, 1003);
    assert_eq!(e.contention_cycles[L2_COLUMN], 1020.0);
    // Each sub-core's two warps cycle through their path and the L2 (module
    // `interference`): D = 1000 / 2 = 500, Z = 1003 - 500 = 503. n = 1: R = 500,
    // Q = 500 / 1003; n = 2: R = 500 x (1 + 500 / 1003) = 749.25: 1252.25 cycles, 232.25
    // of them above the L2's term waiting for it. No issue slot is asked for.
    assert_eq!(e.issue_wait_cycles, 0);
    assert_eq!(e.l2_wait_cycles, 233);
    assert_eq!(e.cycles, 1253);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "L2".into()
        }
    );
    // One warp per sub-core waits for nobody: the L2's term bounds the launch.
    let e = run_with(&toy(), 8, 8, 1000, (0, 16000), &resources);
    assert_eq!(e.l2_wait_cycles, 0);
    assert_eq!(e.cycles, 1020);
}

#[test]
fn what_a_launch_stores_beyond_what_the_l2_keeps_is_written_back() {
    // 64 work-items in warps of 4, each storing 128 bytes (a warp 512 bytes: its lanes'
    // largest share, 128, times 4), reading nothing: 8192 bytes stored into an 8192-byte
    // buffer, twice the 4096-byte L2, so 4096 bytes are written back; the DRAM moves
    // them at 32 bytes a cycle and bounds the launch: 4096 / 32 + 100 = 228 cycles.
    let arch = toy();
    let scale = arch.usage_scale();
    let resources = KernelResources {
        global_memory_bytes: Some(8192),
        read_memory_bytes: Some(0),
        ..KernelResources::default()
    };
    let stored = |n: usize, bytes: u64, footprint: u64| {
        let mut rec = [0u64; R];
        rec[L2_COLUMN] = bytes * scale;
        rec[DRAM_COLUMN] = bytes * scale;
        let data: Vec<u64> = (0..n)
            .flat_map(|_| std::iter::once(10).chain(rec))
            .collect();
        let resources = KernelResources {
            global_memory_bytes: Some(footprint),
            ..resources.clone()
        };
        common::estimate_items(&arch, 64, &resources, &data, R)
    };
    let e = stored(64, 128, 8192);
    assert_eq!(e.dram_bytes, Some(4096));
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 4096.0 / 32.0 + 100.0);
    // Half as much fits: nothing is written back.
    let e = stored(32, 128, 4096);
    assert_eq!(e.dram_bytes, Some(0));
    // Loads of the same bytes beside reads that fit write nothing back.
    let e = run_with(&arch, 64, 64, 10, (0, 128), &resources);
    assert_eq!(e.dram_bytes, Some(0));
}
