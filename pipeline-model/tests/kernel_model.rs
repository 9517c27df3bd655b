//! The analytical model on hand-computed cases: warps from consecutive local ids (uneven
//! and partial), the issue offset, more work-groups than run at once, work-groups dealt to
//! SMs, the contention term, and multi-dimensional launches.

mod common;

use pipeline_model::*;

/// gtx480 shrunk so that cases fit in a test: warps of 4, one SM, two schedulers sharing
/// one issue a cycle (the paper's model), two resident work-groups, no launch cost.
/// Resources: issue, ALU, SFU, MEM (DRAM, the launch cost and issue per scheduler have
/// tests of their own); usage scale 2.
fn toy(sms: u32, groups_per_sm: u32) -> Architecture {
    let mut a = common::paper_gtx480();
    a.warp_size = 4;
    a.sm_count = sms;
    a.limits.max_work_groups = groups_per_sm;
    a
}

const R: usize = 4;
const SFU: usize = 2;
const MEM: usize = 3;

/// Records with times `t` and, for each work-item, the usage counters `uses` (scaled).
fn records(t: &[u64], uses: impl Fn(usize) -> [u64; R]) -> Vec<u64> {
    t.iter()
        .enumerate()
        .flat_map(|(i, &t)| std::iter::once(t).chain(uses(i)))
        .collect()
}

fn run(arch: &Architecture, global: [u64; 3], local: [u64; 3], data: &[u64]) -> KernelEstimate {
    estimate(
        arch,
        &LaunchGeometry { global, local },
        &KernelResources::default(),
        &Records {
            data,
            format: RecordFormat::timing(R, 0),
            usage_scale: arch.usage_scale(),
            grain: Grain::WorkItem,
            shared: None,
        },
    )
    .unwrap()
}

/// One record a work-item, in `arch`'s own format: every resource, at its usage scale.
fn work_item_records<'a>(arch: &Architecture, data: &'a [u64]) -> Records<'a> {
    Records {
        data,
        format: RecordFormat::timing(arch.resources().len(), 0),
        usage_scale: arch.usage_scale(),
        grain: Grain::WorkItem,
        shared: None,
    }
}

#[test]
fn uneven_warps_and_the_issue_offset() {
    // One group of 10: warps {0..3}, {4..7}, {8, 9} (partial).
    // t_W = 4, 20, 30; offsets floor(i/2) = 0, 0, 1 -> t_last = max(4, 20, 31) = 31.
    let t = [1, 2, 3, 4, 20, 5, 5, 5, 7, 30];
    let e = run(&toy(1, 2), [10, 1, 1], [10, 1, 1], &records(&t, |_| [0; R]));
    assert_eq!(e.latency_cycles, 31);
    assert_eq!(e.cycles, 31);
    assert_eq!(e.bound, Bound::Latency);
    assert_eq!(e.warps, 3);
    assert_eq!(e.work_groups, 1);
    assert_eq!(e.occupancy.warps_per_work_group, 3);
}

#[test]
fn more_work_groups_than_run_at_once() {
    // Two resident groups on one SM; four groups of one warp with t_last 10, 20, 5, 7:
    // g0 ends 10, g1 20; g2 starts at 10, ends 15; g3 starts at min(20, 15), ends 22.
    let t: Vec<u64> = [10, 20, 5, 7].iter().flat_map(|&t| [t; 4]).collect();
    let e = run(&toy(1, 2), [16, 1, 1], [4, 1, 1], &records(&t, |_| [0; R]));
    assert_eq!(e.parallel_work_groups, 2);
    assert_eq!(e.latency_cycles, 22);
    assert_eq!(e.work_groups, 4);
}

#[test]
fn work_groups_are_dealt_to_sms_and_contention_is_per_sm() {
    // Two SMs, one resident group each; groups of one warp with t 10, 30, 5.
    // g0 -> SM0 (ends 10), g1 -> SM1 (ends 30), g2 -> SM0 at 10 (ends 15): t_opt = 30.
    // Each warp holds the MEM unit 4 cycles (8 units at scale 2): SM0 has two warps = 8.
    let t: Vec<u64> = [10, 30, 5].iter().flat_map(|&t| [t; 4]).collect();
    let mem = |_| {
        let mut u = [0; R];
        u[MEM] = 8;
        u
    };
    let e = run(&toy(2, 1), [12, 1, 1], [4, 1, 1], &records(&t, mem));
    assert_eq!(e.latency_cycles, 30);
    assert_eq!(e.contention_cycles[MEM], 8.0);
    assert_eq!(e.bound, Bound::Latency);
}

#[test]
fn a_saturated_unit_bounds_the_kernel() {
    // One SM, two groups of 8 (two warps each), all t = 50: t_opt = 50 (both resident).
    // SFU usage per work-item 60, 10, 0, 20 (scaled by 2): per warp max 60 = 30 cycles;
    // four warps on the SM: 120 cycles > 50.
    let t = [50; 16];
    let sfu = |i: usize| {
        let mut u = [0; R];
        u[SFU] = [60, 10, 0, 20][i % 4];
        u
    };
    let e = run(&toy(1, 2), [16, 1, 1], [8, 1, 1], &records(&t, sfu));
    assert_eq!(e.latency_cycles, 50);
    assert_eq!(e.contention_cycles[SFU], 120.0);
    assert_eq!(e.cycles, 120);
    assert_eq!(
        e.bound,
        Bound::Resource {
            resource: "SFU".into()
        }
    );
}

#[test]
fn warps_wait_for_the_issue_slot_where_their_paths_and_the_issue_term_meet() {
    // One group of 8: two warps, every work-item t = 100 and 50 cycles of issue (100
    // scaled): the paths and the SM's issue term (2 x 50) are both 100. The two warps
    // share the slot (module `interference`, Z = 50, D = 50): R(1) = 50, Q(1) = 0.5,
    // R(2) = 75, so 125 cycles, 25 of them waiting for the slot.
    let issue = |_| [100, 0, 0, 0];
    let e = run(&toy(1, 2), [8, 1, 1], [8, 1, 1], &records(&[100; 8], issue));
    assert_eq!(e.latency_cycles, 100);
    assert_eq!(e.contention_cycles[0], 100.0);
    assert_eq!(e.issue_wait_cycles, 25);
    assert_eq!(e.cycles, 125);
    assert_eq!(e.bound, Bound::Latency);
    // Far from the knee (10 cycles of issue a warp) the paths stand alone: Z = 90, D = 10:
    // R(2) = 10 x (1 + 10 / 100) = 11, 101 cycles, one of them waiting.
    let light = |_| [20, 0, 0, 0];
    let e = run(&toy(1, 2), [8, 1, 1], [8, 1, 1], &records(&[100; 8], light));
    assert_eq!((e.issue_wait_cycles, e.cycles), (1, 101));
    // One warp waits for nobody.
    let e = run(&toy(1, 2), [4, 1, 1], [4, 1, 1], &records(&[100; 4], issue));
    assert_eq!((e.issue_wait_cycles, e.cycles), (0, 100));
}

#[test]
fn warps_follow_local_linear_ids_in_two_dimensions() {
    // Global 4 x 2, local 2 x 2: group 0 holds global ids 0, 1, 4, 5; group 1 holds 2, 3,
    // 6, 7. One resident group: they run one after the other.
    let t = [1, 2, 100, 100, 3, 4, 200, 200];
    let e = run(&toy(1, 1), [4, 2, 1], [2, 2, 1], &records(&t, |_| [0; R]));
    // t_W(group 0) = 4, t_W(group 1) = 200; in sequence: 204 (not 100 + 200).
    assert_eq!(e.latency_cycles, 204);
    assert_eq!(e.work_groups, 2);
}

#[test]
fn partial_work_groups_in_three_dimensions() {
    // Global 3 x 1 x 2, local 2 x 1 x 1: groups (0,0,0) {0,1}, (1,0,0) {2}, (0,0,1) {3,4},
    // (1,0,1) {5}, with one resident group at a time.
    let t = [5, 6, 9, 1, 2, 3];
    let e = run(&toy(1, 1), [3, 1, 2], [2, 1, 1], &records(&t, |_| [0; R]));
    assert_eq!(e.latency_cycles, 6 + 9 + 2 + 3);
    assert_eq!(e.work_groups, 4);
    assert_eq!(e.warps, 4);
}

#[test]
fn microseconds_at_the_clock() {
    let arch = common::paper_gtx480();
    let t = [700u64; 32];
    let e = run(&arch, [32, 1, 1], [32, 1, 1], &records(&t, |_| [0; R]));
    assert_eq!(e.cycles, 700);
    assert!((e.micros - 1.0).abs() < 1e-12);
}

#[test]
fn bad_launches_are_errors() {
    let arch = toy(1, 2);
    let data = records(&[1; 8], |_| [0; R]);
    let geometry = LaunchGeometry {
        global: [16, 1, 1],
        local: [4, 1, 1],
    };
    let recs = Records {
        data: &data,
        format: RecordFormat::timing(R, 0),
        usage_scale: 2,
        grain: Grain::WorkItem,
        shared: None,
    };
    let res = KernelResources::default();
    assert!(matches!(
        estimate(&arch, &geometry, &res, &recs),
        Err(ModelError::RecordCount { expected: 80, .. })
    ));
    let empty = LaunchGeometry {
        global: [0, 1, 1],
        local: [4, 1, 1],
    };
    assert!(matches!(
        estimate(&arch, &empty, &res, &recs),
        Err(ModelError::Empty { .. })
    ));
    let big = KernelResources {
        registers_per_work_item: 0,
        local_memory_bytes: 1 << 20,
        global_memory_bytes: None,
        read_memory_bytes: None,
        code_instructions: 0,
        arm_code: pipeline_model::ArmCode::NONE,
        first_round_warp_bytes: None,
        frame_bytes: 0,
        l1_sharing: None,
    };
    let geometry = LaunchGeometry {
        global: [8, 1, 1],
        local: [4, 1, 1],
    };
    let err = estimate(&arch, &geometry, &big, &recs).unwrap_err();
    assert!(err.to_string().contains("does not fit"), "{err}");
}

#[test]
fn a_work_group_the_gpu_would_not_launch_is_invalid() {
    let arch = Architecture::load("hopper_h100").unwrap();
    let estimate_of = |local: [u64; 3]| {
        let items: u64 = local.iter().product();
        let data = vec![1u64; items as usize * (1 + arch.resources().len())];
        estimate(
            &arch,
            &LaunchGeometry {
                global: local,
                local,
            },
            &KernelResources::default(),
            &work_item_records(&arch, &data),
        )
    };
    // 1024 work-items in all and per dimension (64 in z): the CUDA guide's limits.
    assert!(estimate_of([1024, 1, 1]).is_ok());
    let too_many = estimate_of([2048, 1, 1]).unwrap_err();
    assert!(too_many.invalid_on_gpu());
    assert!(matches!(
        too_many,
        ModelError::TooLarge {
            field: "limits.max_work_group_size",
            ..
        }
    ));
    let too_deep = estimate_of([1, 1, 128]).unwrap_err();
    assert!(matches!(
        too_deep,
        ModelError::TooLarge {
            field: "limits.max_work_group_dims",
            ..
        }
    ));
    assert!(!ModelError::Empty {
        global: [0; 3],
        local: [1; 3]
    }
    .invalid_on_gpu());
}

/// The GTX 480's instruction cache (GPGPU-Sim's: 128-byte lines, 8 bytes a PTX instruction,
/// 2 misses at a time, nothing fetched ahead) makes a kernel of 80 instructions (640
/// bytes, 5 lines) wait for the 4 lines after the first, a DRAM trip (500 cycles) each, two
/// at a time: 1000 cycles, once per launch however many work-groups run. Every warp waits
/// for the same lines, so the wait adds to the launch's time whether its paths bound it
/// (one warp) or a resource does (20 warps an SM, each using every resource 100 cycles).
/// The H100's file has no such cache: the code size changes nothing there.
#[test]
fn a_cold_instruction_cache_charges_each_line_after_the_first_once() {
    // Each work-item's record: `t` 100 cycles, then `usage` on every resource.
    let run_using = |arch: &Architecture, code_instructions: u64, items: u64, usage: u64| {
        let per_item = 1 + arch.resources().len();
        let data: Vec<u64> = (0..items as usize * per_item)
            .map(|i| if i % per_item == 0 { 100 } else { usage })
            .collect();
        estimate(
            arch,
            &LaunchGeometry {
                global: [items, 1, 1],
                local: [32, 1, 1],
            },
            &KernelResources {
                code_instructions,
                ..KernelResources::default()
            },
            &work_item_records(arch, &data),
        )
        .unwrap()
    };
    let run = |arch: &Architecture, code_instructions: u64, items: u64| {
        run_using(arch, code_instructions, items, 100)
    };
    let gtx480 = Architecture::load("gtx480").unwrap();
    assert_eq!(gtx480.memory.dram, 500);
    for items in [32, 32 * 15 * 20] {
        let bare = run(&gtx480, 0, items);
        let coded = run(&gtx480, 80, items);
        assert_eq!(bare.icache_cycles, 0);
        assert_eq!(coded.icache_cycles, 1000, "{items} work-items");
        assert_eq!(coded.latency_cycles, bare.latency_cycles + 1000);
        assert_eq!(coded.cycles, bare.cycles + 1000, "{items} work-items");
        // Where a resource bounds the launch by far more than the wait (each warp using
        // every resource 5000 cycles), the wait still adds to it: kept in the latency
        // term alone it would have moved nothing.
        let (bare, coded) = (
            run_using(&gtx480, 0, items, 5000),
            run_using(&gtx480, 80, items, 5000),
        );
        assert!(
            matches!(bare.bound, Bound::Resource { .. }),
            "{:?}",
            bare.bound
        );
        assert!(bare.cycles > coded.launch_cycles + coded.latency_cycles);
        assert_eq!(
            (coded.cycles, &coded.bound),
            (bare.cycles + 1000, &bare.bound)
        );
        // One line (16 instructions) is fetched while the launch sets up.
        assert_eq!(run(&gtx480, 16, items).icache_cycles, 0);
        assert_eq!(run(&gtx480, 17, items).icache_cycles, 250);
    }
    let h100 = Architecture::load("hopper_h100").unwrap();
    assert_eq!(run(&h100, 4000, 32), run(&h100, 0, 32));
}

/// Where every lane takes one side of an `if` / `else` (SHOC S3D's `rdsmh`: `if (TEMP >
/// 1000)` on one temperature), the other side never runs and the instruction cache never
/// fetches its code. A kernel of 80 instructions whose two arms hold 32 each: with both
/// arms entered it fetches all 80 (the 4 lines after the first, 500 cycles each, two at a
/// time: 1000 cycles, as above); with one, 48 (384 bytes, 2 lines after the first: 500
/// cycles); with neither, 16 (one line: none). An arm whose entries no timing point counts
/// (its `instructions` 0) is taken as run.
#[test]
fn the_instruction_cache_fetches_no_code_of_an_arm_no_lane_entered() {
    let gtx480 = Architecture::load("gtx480").unwrap();
    let n_res = gtx480.resources().len();
    // 32 lanes, each: `t` 100, every usage 10, then per arm its cycles, entries and its
    // branch's decisions.
    let run = |entries: [u64; 2], arm_code: ArmCode| {
        let lane: Vec<u64> = std::iter::once(100)
            .chain(std::iter::repeat_n(10, n_res))
            .chain(entries.map(|e| 40 * e))
            .chain(entries)
            .chain([1, 1])
            .collect();
        let data = lane.repeat(32);
        estimate(
            &gtx480,
            &LaunchGeometry {
                global: [32, 1, 1],
                local: [32, 1, 1],
            },
            &KernelResources {
                code_instructions: 80,
                arm_code,
                ..KernelResources::default()
            },
            &Records {
                data: &data,
                format: RecordFormat::timing(n_res, 2),
                usage_scale: gtx480.usage_scale(),
                grain: Grain::WorkItem,
                shared: None,
            },
        )
        .unwrap()
        .icache_cycles
    };
    let mut arms = ArmCode::NONE;
    arms.instructions[..2].copy_from_slice(&[32, 32]);
    arms.holds[..2].copy_from_slice(&[0b01, 0b10]);
    assert_eq!(run([1, 1], arms), 1000);
    assert_eq!(run([0, 1], arms), 500);
    assert_eq!(run([1, 0], arms), 500);
    assert_eq!(run([0, 0], arms), 0);
    // Arm 0 holds arm 1: a lane in arm 1 ran arm 0's code too.
    let mut nested = arms;
    nested.holds[0] = 0b11;
    assert_eq!(run([0, 1], nested), 1000);
    // Arm 0's entries uncounted: its code is taken as run.
    let mut unseen = arms;
    unseen.instructions[0] = 0;
    assert_eq!(run([0, 1], unseen), 1000);
}

/// A wave of work-groups after the launch's first finds none of the code the cache could
/// not keep: on gtx480 (2 KiB: 4 sets of 4 ways of 128-byte lines) a kernel of 928 PTX
/// instructions (58 lines) waits for its first run as always (57 lines after the first, a
/// DRAM trip of 500 cycles each, two at a time: 14,250 cycles), and with a 121st
/// work-group of 32 work-items (8 groups an SM, 120 at once) for all 58 lines again, an
/// L2 trip (250 cycles) each, two at a time: 7,250 more. Code of 256 instructions (16
/// lines) fits: its first run alone (3,750); and a launch of one wave runs the code once.
/// The work-groups' own paths are the same either way.
#[test]
fn a_later_wave_fetches_code_larger_than_the_instruction_cache_again() {
    let gtx480 = Architecture::load("gtx480").unwrap();
    let n_res = gtx480.resources().len();
    let run = |groups: u64, code: u64| {
        let lane: Vec<u64> = std::iter::once(1000)
            .chain(std::iter::repeat_n(0, n_res))
            .collect();
        let data = lane.repeat(32 * groups as usize);
        let e = estimate(
            &gtx480,
            &LaunchGeometry {
                global: [32 * groups, 1, 1],
                local: [32, 1, 1],
            },
            &KernelResources {
                code_instructions: code,
                ..KernelResources::default()
            },
            &Records {
                data: &data,
                format: RecordFormat::timing(n_res, 0),
                usage_scale: gtx480.usage_scale(),
                grain: Grain::WorkItem,
                shared: None,
            },
        )
        .unwrap();
        assert_eq!(e.parallel_work_groups, 120, "{e:?}");
        (e.icache_cycles, e.latency_cycles - e.icache_cycles)
    };
    // A group's path: its 1,000 cycles and the wait for its exit (an L2 trip: gtx480's
    // `store_ack_at_exit`); the 121st starts when the first finishes.
    let group = 1000 + 250;
    assert_eq!(run(120, 928), (14_250, group));
    assert_eq!(run(121, 928), (14_250 + 7_250, 2 * group));
    assert_eq!(run(121, 256), (3_750, 2 * group));
    assert_eq!(run(120, 256), (3_750, group));
}
