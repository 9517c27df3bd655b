//! Records reduced to warps where the work-items ran ([`Grain::Warp`]) give the estimate
//! that the work-items' own records give: the reduction here is written from the
//! layout's description (the annotated kernel does the same on the device), not from the
//! model's walk.

use pipeline_model::*;
use proptest::prelude::*;

/// The warp records of `items` (records `[t, use.., arm.., entries.., decisions..]` of
/// `1 + (resources - arms) + 3 arms` values in linear global id order; `resources` counts
/// the arms too): per work-group (x fastest), its local linear ids in runs of
/// `warp_size`, each `[max(t - arms), max t, max use.., max arm.., sum arm.., sum
/// entries.., max decisions.., sum of use[memory]]`, at `group * ceil(group size /
/// warp_size)`.
fn reduce(
    items: &[u64],
    geometry: &LaunchGeometry,
    resources: usize,
    arms: usize,
    memory: Option<usize>,
    warp_size: u64,
) -> Vec<u64> {
    let uses = resources - arms;
    let item_stride = 1 + uses + 3 * arms;
    let warp_stride = 3 + uses + 4 * arms;
    let [ngx, ngy, ngz] = geometry.groups();
    let [gx, gy, gz] = geometry.global;
    let [lx, ly, lz] = geometry.local;
    let group_warps = (lx * ly * lz).div_ceil(warp_size);
    let mut out = vec![0u64; (ngx * ngy * ngz * group_warps) as usize * warp_stride];
    for g in 0..ngx * ngy * ngz {
        let (bx, by, bz) = (g % ngx, g / ngx % ngy, g / (ngx * ngy));
        // The group's work-items in local linear order (its extent may be partial).
        let mut lanes = Vec::new();
        for z in 0..lz.min(gz - bz * lz) {
            for y in 0..ly.min(gy - by * ly) {
                for x in 0..lx.min(gx - bx * lx) {
                    let id = ((bz * lz + z) * gy + by * ly + y) * gx + bx * lx + x;
                    lanes.push(&items[id as usize * item_stride..][..item_stride]);
                }
            }
        }
        for (w, warp) in lanes.chunks(warp_size as usize).enumerate() {
            let at = (g * group_warps) as usize + w;
            let rec = &mut out[at * warp_stride..][..warp_stride];
            for lane in warp {
                let arm_sum: u64 = lane[1 + uses..1 + uses + arms].iter().sum();
                rec[0] = rec[0].max(lane[0].saturating_sub(arm_sum));
                rec[1] = rec[1].max(lane[0]);
                for v in 0..uses {
                    rec[2 + v] = rec[2 + v].max(lane[1 + v]);
                }
                for a in 0..arms {
                    let (cycles, entries, decisions) = (
                        lane[1 + uses + a],
                        lane[1 + uses + arms + a],
                        lane[1 + uses + 2 * arms + a],
                    );
                    let at = 2 + uses + a;
                    rec[at] = rec[at].max(cycles);
                    rec[at + arms] += cycles;
                    rec[at + 2 * arms] += entries;
                    rec[at + 3 * arms] = rec[at + 3 * arms].max(decisions);
                }
                if let Some(m) = memory {
                    rec[warp_stride - 1] += lane[1 + m];
                }
            }
        }
    }
    out
}

fn arch_named(name: &str) -> Architecture {
    Architecture::load(name).unwrap()
}

/// Estimates the launch from `items` both ways and checks they agree.
fn both_grains(arch: &Architecture, geometry: LaunchGeometry, items: &[u64], arms: usize) {
    let resources = arch.resources().len() + arms;
    let memory = arch.l2_resource().or(arch.dram_resource());
    let kernel = KernelResources {
        registers_per_work_item: 32,
        local_memory_bytes: 0,
        global_memory_bytes: Some(1 << 20),
        read_memory_bytes: None,
        code_instructions: 0,
        arm_code: pipeline_model::ArmCode::NONE,
        first_round_warp_bytes: None,
        frame_bytes: 0,
        l1_sharing: None,
    };
    let scale = arch.usage_scale();
    let per_item = Records {
        data: items,
        format: RecordFormat::timing(resources - arms, arms),
        usage_scale: scale,
        grain: Grain::WorkItem,
        shared: None,
    };
    let warps = reduce(
        items,
        &geometry,
        resources,
        arms,
        memory,
        u64::from(arch.warp_size),
    );
    let per_warp = Records {
        data: &warps,
        format: RecordFormat::timing(resources - arms, arms),
        usage_scale: scale,
        grain: Grain::Warp {
            warp_size: arch.warp_size,
            sampled: false,
        },
        shared: None,
    };
    assert_eq!(
        per_warp.count(&geometry) as usize * per_warp.stride(),
        warps.len()
    );
    let a = estimate(arch, &geometry, &kernel, &per_item).unwrap();
    let b = estimate(arch, &geometry, &kernel, &per_warp).unwrap();
    assert_eq!(a, b, "{} {geometry:?} arms {arms}", arch.name);
    // Each distinct group's records once, every group naming its place.
    let per_group = geometry
        .work_group_size()
        .div_ceil(u64::from(arch.warp_size)) as usize
        * per_warp.stride();
    let mut distinct: Vec<&[u64]> = Vec::new();
    let places: Vec<u32> = warps
        .chunks_exact(per_group)
        .map(|g| {
            let at = distinct.iter().position(|d| *d == g).unwrap_or_else(|| {
                distinct.push(g);
                distinct.len() - 1
            });
            at as u32
        })
        .collect();
    let data = distinct.concat();
    let shared = Records {
        data: &data,
        shared: Some(&places),
        ..per_warp
    };
    let d = estimate(arch, &geometry, &kernel, &shared).unwrap();
    assert_eq!(a, d, "shared: {} {geometry:?} arms {arms}", arch.name);
    // A sweep's summary of shared records deals as the records do.
    let summary = LaunchSummary::of(arch, &geometry, &shared).unwrap();
    let e = estimate_summarized(arch, &geometry, &kernel, &summary, scale).unwrap();
    assert_eq!(a, e, "shared, summarized: {} {geometry:?}", arch.name);
    let summary = LaunchSummary::of(arch, &geometry, &per_warp).unwrap();
    let c = estimate_summarized(arch, &geometry, &kernel, &summary, scale).unwrap();
    assert_eq!(a, c);
}

/// Deterministic pseudo-random records: `t` up to 5000 cycles, usage below it, arms
/// inside `t` for about half the work-items, entered up to 8 times in up to 16
/// decisions.
fn records(n: u64, resources: usize, arms: usize, mut seed: u64) -> Vec<u64> {
    let mut next = move || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        seed >> 33
    };
    let mut out = Vec::new();
    for _ in 0..n {
        let t = 100 + next() % 5000;
        out.push(t);
        for _ in 0..resources - arms {
            out.push(next() % (4 * t));
        }
        let cycles: Vec<u64> = (0..arms)
            .map(|a| {
                if next() % 2 == 0 {
                    next() % (t / (a as u64 + 2))
                } else {
                    0
                }
            })
            .collect();
        let entries: Vec<u64> = cycles
            .iter()
            .map(|&c| if c > 0 { 1 + next() % 8 } else { 0 })
            .collect();
        let decisions: Vec<u64> = entries.iter().map(|&e| e + next() % 9).collect();
        out.extend(cycles);
        out.extend(entries);
        out.extend(decisions);
    }
    out
}

#[test]
fn partial_groups_in_three_dimensions_reduce_alike() {
    for name in arch::BUILTIN_ARCHS {
        let arch = arch_named(name);
        for (global, local) in [
            ([1000, 1, 1], [128, 1, 1]),
            ([37, 19, 3], [8, 4, 2]),
            ([64, 64, 1], [16, 16, 1]),
            ([100, 7, 1], [10, 7, 1]),
        ] {
            for arms in [0, 2] {
                let geometry = LaunchGeometry { global, local };
                let resources = arch.resources().len() + arms;
                let items = records(geometry.work_items(), resources, arms, 7);
                both_grains(&arch, geometry, &items, arms);
            }
        }
    }
}

/// Work-groups whose records repeat the previous group's (runs of alike groups, as in an
/// LU step, then a change, and a partial last group) come out as if walked one by one.
#[test]
fn groups_alike_in_runs_reduce_alike() {
    for name in arch::BUILTIN_ARCHS {
        let arch = arch_named(name);
        for arms in [0, 2] {
            let resources = arch.resources().len() + arms;
            let stride = 1 + resources + 2 * arms;
            let (local, groups) = (96u64, 40u64);
            let geometry = LaunchGeometry {
                global: [local * groups - 50, 1, 1],
                local: [local, 1, 1],
            };
            // Two kinds of group, in runs of three: a work-item's record is its kind's
            // record for its local id.
            let kinds = [
                records(local, resources, arms, 11),
                records(local, resources, arms, 12),
            ];
            let items: Vec<u64> = (0..geometry.work_items())
                .flat_map(|i| {
                    let kind = &kinds[(i / local / 3 % 2) as usize];
                    kind[(i % local) as usize * stride..][..stride].to_vec()
                })
                .collect();
            both_grains(&arch, geometry, &items, arms);
        }
    }
}

/// Records of a launch of `geometry` whose work-items take the record of their local
/// linear id in their group's kind (`kind(bx, by)`, one of `kinds`).
fn by_kind(
    geometry: &LaunchGeometry,
    stride: usize,
    kinds: &[Vec<u64>],
    kind: impl Fn(u64, u64) -> usize,
) -> Vec<u64> {
    let [gx, gy, _] = geometry.global;
    let [lx, ly, _] = geometry.local;
    (0..gy)
        .flat_map(|y| (0..gx).map(move |x| (x, y)))
        .flat_map(|(x, y)| {
            let lid = ((y % ly) * lx + x % lx) as usize;
            kinds[kind(x / lx, y / ly)][lid * stride..][..stride].to_vec()
        })
        .collect()
}

/// Two-dimensional groups alike along x in runs, whose rows differ from one another, a
/// group differing from its left neighbour in its last row only, and partial groups at the
/// right and bottom edges.
#[test]
fn groups_alike_in_two_dimensions_reduce_alike() {
    for name in arch::BUILTIN_ARCHS {
        let arch = arch_named(name);
        for arms in [0, 2] {
            let resources = arch.resources().len() + arms;
            let stride = 1 + resources + 2 * arms;
            let (lx, ly) = (16u64, 6u64);
            let geometry = LaunchGeometry {
                global: [16 * 9 - 5, 6 * 4 - 2, 1],
                local: [lx, ly, 1],
            };
            let mut kinds: Vec<Vec<u64>> = (0..3)
                .map(|k| records(lx * ly, resources, arms, 20 + k))
                .collect();
            // Kind 2 is kind 0 but for one work-item of its last row.
            kinds[2] = kinds[0].clone();
            let last_row = ((ly - 1) * lx + 3) as usize * stride;
            kinds[2][last_row] += 977;
            let items = by_kind(&geometry, stride, &kinds, |bx, by| match (bx, by) {
                (4, 1) => 2,
                _ => ((bx / 3 + by) % 2) as usize,
            });
            both_grains(&arch, geometry, &items, arms);
        }
    }
}

#[test]
fn records_of_another_warp_size_are_refused() {
    let arch = arch_named("hopper_h100");
    let geometry = LaunchGeometry {
        global: [64, 1, 1],
        local: [64, 1, 1],
    };
    let resources = arch.resources().len();
    let data = vec![1u64; 4 * (3 + resources)];
    let records = Records {
        data: &data,
        format: RecordFormat::timing(resources, 0),
        usage_scale: arch.usage_scale(),
        grain: Grain::Warp {
            warp_size: 16,
            sampled: false,
        },
        shared: None,
    };
    let e = estimate(&arch, &geometry, &KernelResources::default(), &records);
    assert!(matches!(
        e,
        Err(ModelError::WarpSize {
            records: 16,
            arch: 32
        })
    ));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn any_geometry_reduces_alike(
        gx in 1u64..90, gy in 1u64..9, lx in 1u64..40, ly in 1u64..5, arms in 0usize..3,
        seed in any::<u64>(), which in 0usize..3, run in 0u64..4,
    ) {
        let arch = arch_named(arch::BUILTIN_ARCHS[which]);
        let geometry = LaunchGeometry { global: [gx, gy, 1], local: [lx.min(gx), ly.min(gy), 1] };
        let resources = arch.resources().len() + arms;
        let items = records(geometry.work_items(), resources, arms, seed);
        both_grains(&arch, geometry, &items, arms);
        // Groups alike in runs of `run + 1` along x, two kinds.
        let [lx, ly, _] = geometry.local;
        let kinds: Vec<Vec<u64>> =
            (0..2).map(|k| records(lx * ly, resources, arms, seed ^ k)).collect();
        let items = by_kind(&geometry, 1 + resources + 2 * arms, &kinds, |bx, by| ((bx / (run + 1) + by) % 2) as usize);
        both_grains(&arch, geometry, &items, arms);
    }
}
