//! The DRAM term on hand-computed cases: the work-items' global-memory bytes add up over
//! the whole launch, at most the buffer footprint, and take `bytes / (GB/s / clock)`
//! cycles plus one DRAM latency (the last request's trip); the launch is DRAM-bound when
//! that exceeds every other term.

mod common;

use pipeline_model::*;

/// gtx480 shrunk: warps of 4, one SM, a 1000 MHz clock and 64 GB/s of DRAM, so the DRAM
/// moves 64 bytes a cycle, a DRAM latency of 10 cycles, no launch cost. Resources: issue, ALU, SFU, MEM, DRAM; usage
/// scale 2.
fn toy() -> Architecture {
    let mut a = common::paper_gtx480();
    a.issue_scope = Scope::SubCore;
    a.warp_size = 4;
    a.sm_count = 1;
    a.clock_mhz = 1000.0;
    a.memory.dram_gb_per_s = Some(64.0);
    a.memory.dram = 10;
    a
}

const R: usize = 5;
const DRAM_COLUMN: usize = 4;

/// A launch of `t.len()` work-items in groups of `local`, each moving `bytes[i]` bytes,
/// with the given buffer footprint.
fn run(t: &[u64], bytes: &[u64], local: u64, footprint: Option<u64>) -> KernelEstimate {
    let arch = toy();
    let scale = arch.usage_scale();
    let data: Vec<u64> = t
        .iter()
        .zip(bytes)
        .flat_map(|(&t, &b)| {
            let mut rec = [0u64; R];
            rec[DRAM_COLUMN] = b * scale;
            std::iter::once(t).chain(rec)
        })
        .collect();
    let resources = KernelResources {
        global_memory_bytes: footprint,
        read_memory_bytes: None,
        ..KernelResources::default()
    };
    common::estimate_items(&arch, local, &resources, &data, R)
}

#[test]
fn the_dram_is_the_last_resource_and_belongs_to_the_whole_gpu() {
    let arch = toy();
    assert_eq!(arch.resources(), ["issue", "ALU", "SFU", "MEM", "DRAM"]);
    assert_eq!(arch.resource_scopes()[DRAM_COLUMN], Scope::Device);
    assert_eq!(arch.dram_resource(), Some(DRAM_COLUMN));
    assert_eq!(arch.dram_bytes_per_cycle(), Some(64.0));
    // The shipped H100: 3350 GB/s at 1980 MHz.
    let h100 = Architecture::load("hopper_h100").unwrap();
    let per_cycle = h100.dram_bytes_per_cycle().unwrap();
    assert!((per_cycle - 3350.0 / 1.98).abs() < 1e-9, "{per_cycle}");
    // Without a bandwidth there is no DRAM resource.
    let mut none = toy();
    none.memory.dram_gb_per_s = None;
    assert_eq!(none.resources(), ["issue", "ALU", "SFU", "MEM"]);
    assert_eq!(none.dram_resource(), None);
}

#[test]
fn bytes_of_all_work_items_add_up_over_the_bandwidth() {
    // 1024 work-items of 8 bytes each (a float2 load, say), t = 1: 8192 bytes / 64 = 128
    // cycles and 10 of latency, more than the latency term (16 groups of 16 warps, 3 at
    // once, each 1 + 7 issue offsets: 6 rounds of 8 cycles; and the first wave's 3 x 64 x
    // 8 = 1536 bytes queue 1536 / 64 = 24 cycles at the DRAM).
    let t = vec![1; 1024];
    let e = run(&t, &[8; 1024], 64, None);
    assert_eq!(e.queue_cycles, 24);
    assert_eq!(e.latency_cycles, 48 + 24);
    assert!(!e.l2_resident);
    assert_eq!(e.dram_bytes, Some(8192));
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 138.0);
    assert_eq!(e.cycles, 138);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "DRAM".into()
        }
    );
    // Uneven bytes add up as they are, not as the warp's largest (31 * 0 + 1 * 6400).
    let mut bytes = vec![0; 32];
    bytes[5] = 6400;
    let e = run(&[1; 32], &bytes, 32, None);
    assert_eq!(e.dram_bytes, Some(6400));
    assert_eq!(e.cycles, 110);
}

#[test]
fn the_buffer_footprint_caps_the_traffic() {
    let t = vec![1; 1024];
    // Counted 8192 bytes, buffers of 4096: the caches keep the rest, 64 + 10 cycles.
    let e = run(&t, &[8; 1024], 64, Some(4096));
    assert_eq!(e.dram_bytes, Some(4096));
    assert_eq!(e.cycles, 74);
    // Buffers larger than what the work-items touch: the counted bytes stay.
    let e = run(&t, &[8; 1024], 64, Some(1 << 20));
    assert_eq!(e.dram_bytes, Some(8192));
    assert_eq!(e.cycles, 138);
}

#[test]
fn a_long_latency_hides_the_dram() {
    // 64 work-items in one group, t = 500, 2 bytes each: 128 bytes are 2 cycles, 12 with
    // the latency; the group's 16 warps of 4 end at 500 + floor(15 / 2), and its 128 bytes
    // (all in the first wave) queue 2 cycles.
    let e = run(&[500; 64], &[2; 64], 64, None);
    assert_eq!(e.contention_cycles[DRAM_COLUMN], 12.0);
    assert_eq!(e.bound, Bound::Latency);
    assert_eq!(e.cycles, 507 + 2);
}

#[test]
fn a_bandwidth_the_model_cannot_use_is_refused_with_its_field() {
    let shipped = include_str!("../arch/gtx480.toml");
    let bad = shipped.replace("dram_gb_per_s = 88.7", "dram_gb_per_s = -1.0");
    assert_ne!(bad, shipped);
    let err = Architecture::from_toml(&bad, "bad.toml").unwrap_err();
    assert_eq!(
        err.to_string(),
        "bad.toml: field `memory.dram_gb_per_s`: must be a positive number"
    );
    let bad = shipped.replace(
        r#"name = "MEM", count = 1, lanes = 32, scope = "sm""#,
        r#"name = "MEM", count = 1, lanes = 32, scope = "device""#,
    );
    assert_ne!(bad, shipped);
    let err = Architecture::from_toml(&bad, "bad.toml").unwrap_err();
    assert!(err.to_string().contains("`device` is the DRAM's"), "{err}");
}

#[test]
fn an_uncoalesced_load_moves_what_the_caches_fill_a_store_what_it_writes() {
    // A warp's float load, a line and a sector per lane (stride 32 floats): each lane's
    // share is a 128-byte line on Fermi, whose L1 fills whole lines, and a 32-byte sector
    // on the H100; coalesced, the warp's 4 sectors in 1 line are 4 bytes a lane on both.
    // The same store: 32 bytes a lane on both (`MemorySystem::stored_bytes`).
    // A load reads registers 1 and writes 2; a store reads 1 and 2 and writes none.
    let access = |writes: &[u32], transactions, sectors| {
        let reads: &[u32] = if writes.is_empty() { &[1, 2] } else { &[1] };
        Instr::new(OpClass::GlobalMem, reads, writes)
            .with_global_bytes(4)
            .with_access(MemAccess {
                level: MemLevel::Dram,
                transactions,
                sectors,
                reuse_lines: None,
                step_bytes: None,
            })
    };
    let load = |transactions, sectors| access(&[2], transactions, sectors);
    let stored = |transactions, sectors| access(&[], transactions, sectors);
    // The bytes past the L1 (the L2's column; the DRAM's counts only what is stored
    // where there is an L2 column, below).
    let dram_of = |arch: &Architecture, i: &Instr| {
        ResourceUsage::of(arch, std::slice::from_ref(i)).0[arch.memory_side_resource().unwrap()]
    };
    let fermi = Architecture::load("gtx480").unwrap();
    let hopper = Architecture::load("hopper_h100").unwrap();
    assert_eq!(dram_of(&fermi, &load(32, 32)), 128.0);
    assert_eq!(dram_of(&hopper, &load(32, 32)), 32.0);
    assert_eq!(dram_of(&fermi, &load(1, 4)), 4.0);
    assert_eq!(dram_of(&hopper, &load(1, 4)), 4.0);
    // Not analysed: the useful bytes.
    let plain = Instr::new(OpClass::GlobalMem, &[1], &[2]).with_global_bytes(4);
    assert_eq!(dram_of(&fermi, &plain), 4.0);
    // A store's bytes are the DRAM column's too; a load's are not.
    let store = Instr::new(OpClass::GlobalMem, &[1, 2], &[]).with_global_bytes(4);
    let usage = |i: &Instr| ResourceUsage::of(&fermi, std::slice::from_ref(i)).0;
    let dram = fermi.dram_resource().unwrap();
    assert_eq!(usage(&store)[dram], 4.0);
    assert_eq!(usage(&plain)[dram], 0.0);
    // A store moves the sectors it writes, not lines: the same uncoalesced access as a
    // store is 32 bytes a lane on Fermi too (the L2's column and the DRAM's, where it is
    // written back), coalesced 4.
    assert_eq!(dram_of(&fermi, &stored(32, 32)), 32.0);
    assert_eq!(usage(&stored(32, 32))[dram], 32.0);
    assert_eq!(dram_of(&hopper, &stored(32, 32)), 32.0);
    assert_eq!(dram_of(&fermi, &stored(1, 4)), 4.0);
}
