//! The description's unit tests: the shipped descriptions load and read back, the
//! paper's numbers, analysed accesses' timing, and every rejection names its field.

use super::*;
use crate::instr::{ArithOp, DataKind, MemLevel, OpClass, OpRow};

#[test]
fn shipped_descriptions_load() {
    for name in BUILTIN_ARCHS {
        let arch = Architecture::load(name).unwrap();
        assert_eq!(&arch.name, name);
    }
}

#[test]
fn the_toml_text_reads_back_as_the_same_description() {
    let a = Architecture::load("gtx480").unwrap();
    assert_eq!(Architecture::from_toml(&a.to_toml(), "again").unwrap(), a);
    let mut b = a.clone();
    b.ops[OpRow::Fp32Div].latency += 1;
    assert_ne!(a.to_toml(), b.to_toml());
}

#[test]
fn gtx480_has_the_papers_numbers() {
    let a = Architecture::default_arch();
    assert_eq!(a.sm_count, 15);
    assert_eq!(a.limits.max_warps, 48);
    assert_eq!(a.limits.max_work_groups, 8);
    assert_eq!(a.limits.registers, 32768);
    assert_eq!(a.limits.shared_memory_bytes, 48 * 1024);
    let lat = |r: OpRow| (a.ops[r].latency, a.ops[r].initiation);
    use OpRow::*;
    assert_eq!(
        [IntAdd, IntMax, IntMul, IntMad, IntDiv].map(lat),
        [(4, 1), (13, 2), (4, 2), (5, 1), (145, 8)]
    );
    assert_eq!(
        [Fp32Add, Fp32Max, Fp32Mul, Fp32Mad, Fp32Div].map(lat),
        [(4, 1), (13, 2), (4, 1), (5, 1), (39, 4)]
    );
    assert_eq!(
        [Fp64Add, Fp64Max, Fp64Mul, Fp64Mad, Fp64Div].map(lat),
        [(8, 8), (19, 16), (8, 8), (8, 8), (330, 130)]
    );
    assert_eq!(
        a.resources(),
        ["issue", "ALU", "SFU", "MEM", "fetch", "MSHR", "fill", "L2", "DRAM", "L2_trip"]
    );
    assert_eq!(a.memory.fill_bytes_per_cycle, Some(40.0));
    assert_eq!(a.usage_scale(), 64, "2 ALUs and 64 miss entries");
    assert_eq!(Architecture::load("hopper_h100").unwrap().usage_scale(), 1);
    assert_eq!(
        a.describe(OpClass::Arith(DataKind::Fp32, ArithOp::Div))
            .unit,
        1
    );
}

#[test]
fn an_analysed_access_takes_its_levels_latency_and_a_pass_per_transaction() {
    use crate::instr::{Instr, MemAccess};
    let a = Architecture::default_arch();
    let access = |level, transactions| MemAccess {
        level,
        transactions,
        sectors: 4,
        reuse_lines: None,
        step_bytes: None,
    };
    let load = Instr::new(OpClass::GlobalMem, &[1], &[2]);
    // Not analysed: the `mem` row.
    assert_eq!(a.describe_instr(&load).latency, a.ops[OpRow::Mem].latency);
    // A first touch: from the L2 where the description gives its capacity (the
    // launch's data is there when it fits), else from DRAM.
    let first_touch = load.clone().with_access(access(MemLevel::Dram, 1));
    assert_eq!(a.served_from(MemLevel::Dram), MemLevel::L2);
    let t = a.describe_instr(&first_touch);
    assert_eq!((t.latency, t.initiation), (a.memory.l2_hit, 1));
    let mut no_l2 = a.clone();
    no_l2.memory.l2_bytes = None;
    assert_eq!(no_l2.served_from(MemLevel::Dram), MemLevel::Dram);
    assert_eq!(no_l2.describe_instr(&first_touch).latency, a.memory.dram);
    let t = a.describe_instr(&load.clone().with_access(access(MemLevel::L2, 1)));
    assert_eq!(t.latency, a.memory.l2_hit);
    // A store writes no register: it completes in the background, at its row's latency
    // (the memory pipeline is still held once per line).
    let store = Instr::new(OpClass::GlobalMem, &[1, 2], &[]).with_access(access(MemLevel::L2, 2));
    let t = a.describe_instr(&store);
    assert_eq!(
        (t.latency, t.initiation),
        (a.ops[OpRow::Mem].latency + 1, 2)
    );
    // 32 lines: the memory pipeline is held 32 passes, the last line 31 passes later.
    let t = a.describe_instr(&load.with_access(access(MemLevel::L1, 32)));
    assert_eq!((t.latency, t.initiation), (a.memory.l1_hit + 31, 32));
    // A 2-way bank conflict on shared memory (gtx480: 2 cycles a pass): the shared
    // latency, two passes, the second one pass later.
    let shared = Instr::new(OpClass::SharedMem, &[1], &[2]).with_access(access(MemLevel::L1, 2));
    let t = a.describe_instr(&shared);
    assert_eq!(a.ops.get(OpClass::SharedMem).initiation, 2);
    assert_eq!((t.latency, t.initiation), (a.memory.shared + 2, 4));
}

#[test]
fn a_reused_load_is_an_l1_hit_while_every_warps_lines_fit_the_l1() {
    use crate::instr::{Instr, MemAccess};
    use crate::timing::ResourceUsage;
    let a = Architecture::default_arch();
    // gtx480: 16 KiB of L1, 48 warps. With k lines brought in between, every warp needs
    // k + 1 lines: 2 x 128 x 48 = 12,288 bytes fit, 3 x 128 x 48 = 18,432 do not.
    assert_eq!((a.memory.l1_bytes, a.limits.max_warps), (Some(16384), 48));
    assert!(a.l1_keeps(0) && a.l1_keeps(1) && !a.l1_keeps(2));
    // hopper_h100: 256 KiB, 64 warps: 32 lines a warp, so 31 between.
    let h = Architecture::load("hopper_h100").unwrap();
    assert!(h.l1_keeps(31) && !h.l1_keeps(32));
    let mut no_l1 = a.clone();
    no_l1.memory.l1_bytes = None;
    assert!(!no_l1.l1_keeps(0));

    let reused = |lines| MemAccess {
        level: MemLevel::Dram,
        transactions: 1,
        sectors: 4,
        reuse_lines: Some(lines),
        step_bytes: None,
    };
    let load = |access| Instr::new(OpClass::GlobalMem, &[1], &[2]).with_access(access);
    assert_eq!(a.serving_level(&reused(1)), MemLevel::L1);
    assert_eq!(a.describe_instr(&load(reused(1))).latency, a.memory.l1_hit);
    // Evicted: the level it was charged at, as the launch's data is served (the L2).
    assert_eq!(a.serving_level(&reused(2)), MemLevel::L2);
    assert_eq!(a.describe_instr(&load(reused(2))).latency, a.memory.l2_hit);
    // A hit moves no bytes past the L1 and takes no miss entry; a miss moves its line
    // (128 bytes over 32 lanes: 4 a work-item) and takes one entry of 64.
    let usage = |access| ResourceUsage::of(&a, &[load(access)]).0;
    let (mshr, l2, dram) = (
        a.mshr_resource().unwrap(),
        a.l2_resource().unwrap(),
        a.dram_resource().unwrap(),
    );
    let hit = usage(reused(1));
    assert_eq!((hit[mshr], hit[l2], hit[dram]), (0.0, 0.0, 0.0));
    let miss = usage(reused(2));
    // A load's bytes are not the DRAM column's, which counts what is stored.
    assert_eq!((miss[mshr], miss[l2], miss[dram]), (1.0 / 64.0, 4.0, 0.0));
}

#[test]
fn a_uniform_load_stepped_past_the_l1s_fill_is_served_by_the_l2() {
    use crate::instr::{Instr, MemAccess};
    // A warp-uniform load a loop moves `step` bytes an iteration (32: SHOC's
    // reduceNoLocal, one work-item summing eight floats an iteration).
    let uniform = |step| MemAccess {
        level: MemLevel::L1,
        transactions: 1,
        sectors: 1,
        reuse_lines: None,
        step_bytes: step,
    };
    let load = |access| Instr::new(OpClass::GlobalMem, &[1], &[2]).with_access(access);
    // The GTX 480's L1 fills whole 128-byte lines: a 32-byte step stays in the line.
    let fermi = Architecture::load("gtx480").unwrap();
    assert_eq!(fermi.memory.fetch_bytes, 128);
    assert_eq!(fermi.serving_level(&uniform(Some(32))), MemLevel::L1);
    assert_eq!(fermi.serving_level(&uniform(Some(64))), MemLevel::L1);
    // The H100's fills 32-byte sectors: a step of a sector or more misses every
    // iteration and waits an L2 trip, a smaller one hits (and without a step, as before).
    let h = Architecture::load("hopper_h100").unwrap();
    assert_eq!(h.memory.fetch_bytes, 32);
    assert_eq!(h.serving_level(&uniform(Some(32))), MemLevel::L2);
    assert_eq!(h.serving_level(&uniform(Some(96))), MemLevel::L2);
    assert_eq!(h.serving_level(&uniform(Some(16))), MemLevel::L1);
    assert_eq!(h.serving_level(&uniform(None)), MemLevel::L1);
    assert_eq!(
        h.describe_instr(&load(uniform(Some(32)))).latency,
        h.memory.l2_hit
    );
    assert_eq!(
        h.describe_instr(&load(uniform(Some(16)))).latency,
        h.memory.l1_hit
    );
}

#[test]
fn a_divergent_constant_load_takes_the_constant_caches_pass_per_line() {
    use crate::instr::{Instr, MemAccess};
    // 32 lanes at 32 lines of a table of `lines + 1` lines.
    let lookup = |table_lines| {
        Instr::new(OpClass::Mem, &[1], &[2]).with_access(MemAccess {
            level: MemLevel::Constant,
            transactions: 32,
            sectors: 0,
            reuse_lines: table_lines,
            step_bytes: None,
        })
    };
    // hopper_h100 (the probes): 10 cycles a further line while the table fits 2 KiB, 82
    // once it does not (8 KiB: 64 lines).
    let h = Architecture::load("hopper_h100").unwrap();
    let l1 = h.memory.l1_hit;
    assert_eq!(h.describe_instr(&lookup(Some(15))).latency, l1 + 31 * 10);
    assert_eq!(h.describe_instr(&lookup(Some(63))).latency, l1 + 31 * 82);
    assert_eq!(h.describe_instr(&lookup(None)).latency, l1 + 31 * 10);
    assert_eq!(
        h.serving_level(&lookup(Some(63)).access.unwrap()),
        MemLevel::Constant
    );
    // gtx480 has no [constant]: a pass of the memory pipeline (1 cycle) a line, whatever
    // the table, and the memory pipeline held 32 passes.
    let g = Architecture::default_arch();
    let t = g.describe_instr(&lookup(Some(63)));
    assert_eq!((t.latency, t.initiation), (g.memory.l1_hit + 31, 32));
    // Nothing moves past the constant cache.
    let usage = crate::timing::ResourceUsage::of(&g, &[lookup(Some(63))]).0;
    assert_eq!(usage[g.l2_resource().unwrap()], 0.0);
}

#[test]
fn a_zero_in_the_constant_cache_is_named() {
    let src = builtin_source("hopper_h100")
        .unwrap()
        .replace("\npass_cycles = 10", "\npass_cycles = 0");
    let err = Architecture::from_toml(&src, "h.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("`constant.pass_cycles`"), "{err}");
    let a = Architecture::load("hopper_h100").unwrap();
    assert_eq!(Architecture::from_toml(&a.to_toml(), "again").unwrap(), a);
}

fn gtx480_src() -> &'static str {
    builtin_source("gtx480").unwrap()
}

#[test]
fn missing_field_is_named() {
    let src = gtx480_src().replace("fp32_mad =", "fp32_mad_typo =");
    let err = Architecture::from_toml(&src, "my.toml")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("my.toml:"), "{err}");
    assert!(err.contains("fp32_mad"), "{err}");
}

#[test]
fn unknown_unit_is_named() {
    let src = gtx480_src().replacen("unit = \"SFU\"", "unit = \"XFU\"", 1);
    let err = Architecture::from_toml(&src, "my.toml")
        .unwrap_err()
        .to_string();
    assert!(err.contains("ops.int_div.unit"), "{err}");
    assert!(err.contains("XFU"), "{err}");
}

#[test]
fn zero_values_are_rejected_by_name() {
    let src = gtx480_src().replace("sm_count = 15", "sm_count = 0");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("`sm_count`"), "{err}");
    let src = gtx480_src().replace("clock_mhz = 700.0", "clock_mhz = -1.0");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("clock_mhz"), "{err}");
    // Model v2's fields: each bad value named.
    for (from, to, field) in [
        (
            "mshrs_per_sm = 64",
            "mshrs_per_sm = 0",
            "`memory.mshrs_per_sm`",
        ),
        (
            "fill_bytes_per_cycle = 40",
            "fill_bytes_per_cycle = 0",
            "`memory.fill_bytes_per_cycle`",
        ),
        (
            "dram_unloaded = 310",
            "dram_unloaded = 0",
            "`memory.dram_unloaded`",
        ),
        (
            "l2_unloaded = 182",
            "l2_unloaded = 0",
            "`memory.l2_unloaded`",
        ),
        (
            "l2_unloaded = 182",
            "l2_unloaded = 251",
            "`memory.l2_unloaded`",
        ),
        (
            "fetch_bytes = 128",
            "fetch_bytes = 64",
            "`memory.fetch_bytes`",
        ),
        (
            "max_work_group_size = 1024",
            "max_work_group_size = 0",
            "`limits.max_work_group_size`",
        ),
        (
            "registers_per_work_item = 63",
            "registers_per_work_item = 0",
            "`limits.registers_per_work_item`",
        ),
        (
            "max_work_group_dims = [1024, 1024, 64]",
            "max_work_group_dims = [1024, 1024, 0]",
            "`limits.max_work_group_dims[2]`",
        ),
    ] {
        assert!(gtx480_src().contains(from), "{from}");
        let err = Architecture::from_toml(&gtx480_src().replace(from, to), "x")
            .unwrap_err()
            .to_string();
        assert!(err.contains(field), "{err}");
    }
}

#[test]
fn unit_widths_and_scopes_are_checked_by_name() {
    let src = gtx480_src().replace(
        "{ name = \"SFU\", count = 1, lanes = 32,",
        "{ name = \"SFU\", count = 1, lanes = 0,",
    );
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("`units[1].lanes`"), "{err}");
    let src = gtx480_src().replace("issue_scope = \"sub_core\"", "issue_scope = \"gpc\"");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("gpc") && err.contains("sub_core"), "{err}");
    let src = gtx480_src().replace("sub_cores_per_sm = 2", "sub_cores_per_sm = 0");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("`sub_cores_per_sm`"), "{err}");
    let src = gtx480_src().replacen(", scope = \"sm\" }", " }", 1);
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("scope"), "{err}");
}

#[test]
fn malformed_toml_reports_position() {
    let err = Architecture::from_toml("name = \"x\"\nsm_count = [", "bad.toml")
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("bad.toml:"), "{err}");
    assert!(err.contains("line 2"), "{err}");
}

#[test]
fn unknown_name_lists_the_shipped_ones() {
    let err = Architecture::load("no_such_gpu").unwrap_err().to_string();
    assert!(err.contains("gtx480, ampere_a100, hopper_h100"), "{err}");
}

#[test]
fn opencl_event_terms_are_optional_and_checked_by_name() {
    assert_eq!(Architecture::default_arch().opencl_event, None);
    let h100 = Architecture::load("hopper_h100").unwrap();
    let event = h100.opencl_event.clone().expect("measured for the H100");
    assert_eq!((event.launch_us, event.first_launch_us), (3.8, 15.0));
    assert_eq!(
        Architecture::from_toml(&h100.to_toml(), "again").unwrap(),
        h100
    );
    let src = h100
        .to_toml()
        .replace("launch_us = 3.8", "launch_us = -1.0");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("`opencl_event.launch_us`"), "{err}");
}

#[test]
fn the_instruction_cache_is_optional_and_checked_by_name() {
    let gtx480 = Architecture::default_arch();
    let cache = gtx480
        .icache
        .clone()
        .expect("GPGPU-Sim's il1 for the GTX 480");
    assert_eq!(
        (
            cache.instruction_bytes,
            cache.line_bytes,
            cache.misses_in_flight
        ),
        (8, 128, 2)
    );
    assert_eq!(Architecture::load("hopper_h100").unwrap().icache, None);
    assert_eq!(
        Architecture::from_toml(&gtx480.to_toml(), "again").unwrap(),
        gtx480
    );
    let src = gtx480
        .to_toml()
        .replace("line_bytes = 128", "line_bytes = 0");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("`icache.line_bytes`"), "{err}");
}

#[test]
fn the_l1_sets_come_from_the_configuration_and_are_checked() {
    use super::{L1Sets, SetIndex};
    // GPGPU-Sim's -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H: 32 sets of 4, the Fermi hash.
    let a = Architecture::default_arch();
    assert_eq!(
        a.memory.l1_sets,
        Some(L1Sets {
            ways: 4,
            index: SetIndex::FermiHash
        })
    );
    assert_eq!(a.l1_set_count(), Some(32));
    // No sets given for the H100: capacity alone.
    assert_eq!(
        Architecture::load("hopper_h100").unwrap().l1_set_count(),
        None
    );
    // 8 ways of 16 KiB are 16 sets, which the Fermi hash cannot index.
    let src = gtx480_src().replace("ways = 4", "ways = 8");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(
        err.contains("memory.l1_sets") && err.contains("32 or 64"),
        "{err}"
    );
    // A linear index takes any count; no L1 size, no sets.
    let src = src.replace("\"fermi_hash\"", "\"linear\"");
    assert_eq!(
        Architecture::from_toml(&src, "x").unwrap().l1_set_count(),
        Some(16)
    );
    let src = src.replace("l1_bytes = 16384", "");
    let err = Architecture::from_toml(&src, "x").unwrap_err().to_string();
    assert!(err.contains("memory.l1_sets"), "{err}");
}
