//! The texture path on hand-computed cases: an image read's result comes a texture-cache
//! hit after the read executes, its readers wait for it and no later instruction's result
//! waits behind it; a warp's reads follow each other at the texture units' rate (four
//! texels a clock: 8 cycles a warp); an image write completes in the background, as a
//! store does.

use pipeline_model::*;

fn read(from: Reg, to: Reg) -> Instr {
    Instr::new(OpClass::Texture, &[from], &[to])
}

fn add(from: Reg, to: Reg) -> Instr {
    Instr::new(OpClass::Arith(DataKind::Fp32, ArithOp::Add), &[from], &[to])
}

fn length(arch: &Architecture, instrs: &[Instr]) -> u64 {
    schedule(arch, instrs).length
}

#[test]
fn every_shipped_architecture_times_image_accesses_on_its_texture_path() {
    // The `texture` rows and their sources: pipeline-model/arch/*.toml.
    for (name, latency) in [("gtx480", 110), ("ampere_a100", 89), ("hopper_h100", 89)] {
        let a = Architecture::load(name).unwrap();
        let t = a.describe(OpClass::Texture);
        assert_eq!(
            a.units[t.unit].name, "MEM",
            "{name}: the SM's texture / L1 path"
        );
        assert_eq!(t.latency, latency, "{name}");
        assert_eq!(
            t.initiation,
            32 / 4,
            "{name}: a warp's 32 texels, 4 a clock"
        );
    }
}

#[test]
fn a_read_s_readers_wait_a_texture_hit_and_nothing_else_does() {
    let a = Architecture::load("hopper_h100").unwrap();
    let alone = length(&a, &[read(1, 2)]);
    // The same instruction on the `mem` row (latency 1) ends 88 cycles sooner.
    let as_mem = length(&a, &[Instr::new(OpClass::Mem, &[1], &[2])]);
    assert_eq!(alone, as_mem + 89 - 1);
    // An independent add after it is done long before the texel comes back, and its
    // result does not wait behind the read's (out of order, as a load's).
    assert_eq!(length(&a, &[read(1, 2), add(3, 4)]), alone);
    // A dependent add issues once the texel is back (writeback_to_issue 0 on the H100),
    // and takes what it takes alone after its issue.
    let add_alone = length(&a, &[add(3, 4)]);
    let to_issue = u64::from(a.frontend.fetch_to_issue);
    assert_eq!(a.frontend.writeback_to_issue, 0);
    assert_eq!(
        length(&a, &[read(1, 2), add(2, 4)]),
        alone + add_alone - to_issue
    );
}

#[test]
fn a_warp_s_reads_follow_each_other_at_the_texture_units_rate() {
    let a = Architecture::load("hopper_h100").unwrap();
    let one = length(&a, &[read(1, 2)]);
    assert_eq!(length(&a, &[read(1, 2), read(1, 3)]), one + 8);
    assert_eq!(length(&a, &[read(1, 2), read(1, 3), read(1, 4)]), one + 16);
}

#[test]
fn an_image_write_completes_in_the_background_as_a_store_does() {
    for name in ["gtx480", "hopper_h100"] {
        let a = Architecture::load(name).unwrap();
        let write = Instr::new(OpClass::Texture, &[1, 2], &[]);
        let store = Instr::new(OpClass::Mem, &[1, 2], &[]);
        assert_eq!(length(&a, &[write]), length(&a, &[store]), "{name}");
    }
}
