//! The counter record has one definition (`pipeline_model::records::RecordFormat`), and
//! every side agrees with it: for a format, and for that format with one count changed at
//! a time, the device writes its records with the very code an annotated kernel's exit
//! uses (`annotator::back::codegen::record_probe`, run on PoCL), the sidecar states them and
//! reads back only what agrees, and the reader's views find every value where the device
//! put it. The values expected are computed here from what the probe writes
//! (`probe_value`: which kind, which value, which work-item) and the warp reduction's
//! rules, not from the format's offsets.

use annotator::back::codegen::{probe_value, record_probe};
use annotator::back::sidecar::{KernelSample, ProfileLayout, ProfiledBlock, RecordLayout};
use kernel_runner::{from_bytes, run_kernel, KernelArg, NdRange};
use pipeline_model::records::RecordFormat;
use pipeline_model::{Architecture, SampledAccess};

const ITEMS: usize = 96;
const WARP: usize = 32;

/// A profile of `counters` counters: blocks of three, then pairs.
fn profile(counters: usize) -> Option<ProfileLayout> {
    (counters > 0).then(|| {
        let (blocks, extra) = match counters % 3 {
            0 => (counters / 3, 0),
            1 => (counters / 3 - 1, 2),
            _ => (counters / 3, 1),
        };
        ProfileLayout {
            offset: 0,
            fields: ["executions", "cycles", "instructions"]
                .map(String::from)
                .to_vec(),
            blocks: (0..blocks)
                .map(|b| ProfiledBlock {
                    function: "probe".to_string(),
                    block: b,
                    lines: vec![1],
                    line: 1,
                    column: 1,
                    shares: Vec::new(),
                })
                .collect(),
            extra_counters: extra,
        }
    })
}

fn samples(n: usize) -> Vec<KernelSample> {
    (0..n)
        .map(|i| KernelSample {
            kernel: "probe".to_string(),
            access: SampledAccess {
                line: 10 + i as u32,
                column: 1,
                shared: false,
                local: false,
                element_bytes: 4,
                width: 4,
                charged_transactions: 1.0,
                charged_sectors: 4.0,
                cycles_per_transaction: 1.0,
                usage_per_transaction: Vec::new(),
                usage_per_sector: Vec::new(),
                param: None,
                l1_cycles: 0.0,
                loop_lines: 0,
                loop_peers: Vec::new(),
            },
        })
        .collect()
}

/// The sidecar's layout of `format`, written as JSON and read back.
fn sidecar_round_trip(format: RecordFormat, names: &[String]) -> RecordLayout {
    let layout = RecordLayout::new(
        format,
        names,
        2,
        profile(format.profile_counters),
        samples(format.sampled_accesses),
    );
    let json = serde_json::to_value(&layout).unwrap();
    let back: RecordLayout = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.format, format);
    // A sidecar whose stated stride is not its format's is refused, not misread.
    let mut wrong = json;
    wrong["stride"] = (format.work_item_stride() + 1).into();
    let refused = serde_json::from_value::<RecordLayout>(wrong).unwrap_err();
    assert!(refused.to_string().contains("stride"), "{refused}");
    back
}

fn check(format: RecordFormat, arch: &Architecture) {
    let names = arch.resources();
    assert_eq!(names.len(), format.resources);
    let layout = sidecar_round_trip(format, &names);
    let what = format!("{format:?}");
    let program = record_probe(&format, arch.memory_side_resource());
    let (r, a, p, s) = (
        format.resources,
        format.arms,
        format.profile_counters,
        3 * format.sampled_accesses,
    );

    // One record per work-item, `layout.stride` values each: the device's count.
    let range = NdRange::d1(ITEMS).with_local([WARP, 1, 1]);
    let out = run_kernel(
        &program,
        "",
        "__srcsim_record_probe",
        &[KernelArg::zeroed::<u64>(ITEMS * layout.stride)],
        &range,
    )
    .unwrap_or_else(|e| panic!("{what}: {e}"));
    let records: Vec<u64> = from_bytes(&out.buffers[0]).unwrap();
    // The probe writes every value it has, and the record has no room to spare: one
    // record's worth of nonzero values per work-item, none left at zero.
    assert_eq!(1 + r + 3 * a + p + s, layout.stride, "{what}");
    assert!(records.iter().all(|&v| v != 0), "{what}: a value unwritten");
    for (i, raw) in records.chunks_exact(layout.stride).enumerate() {
        let i = i as u64;
        let rec = layout.format.item(raw);
        assert_eq!(rec.t(), probe_value(1, 0, i), "{what}");
        let usage: Vec<u64> = (0..r as u64).map(|j| probe_value(2, j, i)).collect();
        assert_eq!(rec.usage(), usage, "{what}");
        // Each arm's cycles, then the arms' entries, then their branches' decisions.
        let arm_run = |k: usize| -> Vec<u64> {
            (0..a as u64)
                .map(|j| probe_value(3, (k * a) as u64 + j, i))
                .collect()
        };
        assert_eq!(rec.arms(), arm_run(0), "{what}");
        assert_eq!(rec.arm_entries(), arm_run(1), "{what}");
        assert_eq!(rec.arm_decisions(), arm_run(2), "{what}");
        if let Some(profile) = &layout.profile {
            let counters = &raw[profile.offset..profile.offset + profile.counters()];
            let expected: Vec<u64> = (0..p as u64).map(|j| probe_value(4, j, i)).collect();
            assert_eq!(counters, expected, "{what}");
        }
        for (k, (slot, _)) in layout.samples_of("probe").into_iter().enumerate() {
            let counted = rec.sample(slot);
            let j = 3 * k as u64;
            assert_eq!(
                (counted.runs, counted.first, counted.last),
                (
                    probe_value(5, j, i),
                    probe_value(5, j + 1, i),
                    probe_value(5, j + 2, i)
                ),
                "{what}"
            );
        }
    }

    // One record per warp: the most any lane spent outside the arms and in all, per
    // resource and arm the most any lane used, per arm the lanes' cycles and entries
    // summed and the most decisions, and the memory side summed.
    let warps = ITEMS / WARP;
    let out = run_kernel(
        &program,
        "",
        "__srcsim_record_probe_warps",
        &[
            KernelArg::zeroed::<u64>(warps * format.warp_stride()),
            KernelArg::local::<u64>(WARP * format.timing_width()),
            KernelArg::scalar(WARP as u32),
        ],
        &range,
    )
    .unwrap_or_else(|e| panic!("{what}, in warps: {e}"));
    let reduced: Vec<u64> = from_bytes(&out.buffers[0]).unwrap();
    assert_eq!(reduced.len(), warps * (2 + r + 4 * a + 1), "{what}");
    for (w, raw) in reduced.chunks_exact(format.warp_stride()).enumerate() {
        let lanes = (w * WARP) as u64..((w + 1) * WARP) as u64;
        let last = lanes.end - 1;
        let rec = format.warp(raw);
        // The values grow with the lane: the last lane's are the most.
        let outside = lanes
            .clone()
            .map(|i| {
                let arms: u64 = (0..a as u64).map(|j| probe_value(3, j, i)).sum();
                probe_value(1, 0, i).saturating_sub(arms)
            })
            .max()
            .unwrap();
        assert_eq!(rec.outside(), outside, "{what}");
        assert_eq!(rec.t_max(), probe_value(1, 0, last), "{what}");
        let usage: Vec<u64> = (0..r as u64).map(|j| probe_value(2, j, last)).collect();
        assert_eq!(rec.usage(), usage, "{what}");
        let arms: Vec<u64> = (0..a as u64).map(|j| probe_value(3, j, last)).collect();
        assert_eq!(rec.arms(), arms, "{what}");
        // Per arm the lanes' cycles and entries summed, and the most decisions.
        let summed = |k: u64| -> Vec<u64> {
            (0..a as u64)
                .map(|j| {
                    lanes
                        .clone()
                        .map(|i| probe_value(3, k * a as u64 + j, i))
                        .sum()
                })
                .collect()
        };
        assert_eq!(rec.arm_sums(), summed(0), "{what}");
        assert_eq!(rec.arm_entries(), summed(1), "{what}");
        let decisions: Vec<u64> = (0..a as u64)
            .map(|j| probe_value(3, 2 * a as u64 + j, last))
            .collect();
        assert_eq!(rec.arm_decisions(), decisions, "{what}");
        let bytes = arch.memory_side_resource().map_or(0, |m| {
            lanes.clone().map(|i| probe_value(2, m as u64, i)).sum()
        });
        assert_eq!(rec.bytes(), bytes, "{what}");
    }
}

#[test]
fn every_side_reads_a_record_where_the_device_writes_it() {
    let arch = Architecture::load("gtx480").unwrap();
    let base = RecordFormat {
        resources: arch.resources().len(),
        arms: 2,
        profile_counters: 5,
        sampled_accesses: 2,
    };
    let one_more = [
        RecordFormat {
            arms: base.arms + 1,
            ..base
        },
        RecordFormat {
            profile_counters: base.profile_counters + 3,
            ..base
        },
        RecordFormat {
            sampled_accesses: base.sampled_accesses + 1,
            ..base
        },
        RecordFormat::timing(base.resources, 0),
    ];
    for format in std::iter::once(base).chain(one_more) {
        check(format, &arch);
    }
    // Another architecture: other resources.
    let h100 = Architecture::load("hopper_h100").unwrap();
    check(
        RecordFormat {
            resources: h100.resources().len(),
            ..base
        },
        &h100,
    );
}
