//! The sampled accesses' measure and correction, against values computed by hand.
use super::correct::{apply, loop_lines, moves, rounded_count, Moves, SummedMoves};
use super::measure::stream_misses;
use super::*;
use crate::arch::Architecture;
use crate::launch::LaunchGeometry;
use crate::occupancy::KernelResources;
use crate::records::RecordFormat;

/// A launch of `geometry` on `arch` whose buffers' sizes are unknown, at 2 usage units a
/// cycle.
fn launch<'a>(
    arch: &'a Architecture,
    geometry: &'a LaunchGeometry,
    resources: &'a KernelResources,
) -> SampledLaunch<'a> {
    SampledLaunch {
        arch,
        geometry,
        resources,
        buffer_bytes: &|_| None,
        usage_scale: 2,
    }
}

fn geometry(global: u64, local: u64) -> LaunchGeometry {
    LaunchGeometry {
        global: [global, 1, 1],
        local: [local, 1, 1],
    }
}

#[test]
fn rounding_is_the_standard_librarys() {
    let edges = [
        0.0,
        -0.0,
        0.5,
        -0.5,
        1.5,
        2.5,
        -2.5,
        0.49999999999999994,
        -0.49999999999999994,
        0.5000000000000001,
        1.4999999999999998,
        2251799813685247.5,
        2251799813685248.5,
        4503599627370495.5,
        4503599627370496.0,
        4503599627370497.0,
        9007199254740993.0,
        1e18 + 0.5,
        4.611686018427388e18,
        1.8446744073709552e19,
        1e300,
        f64::INFINITY,
        -1e18,
        f64::NEG_INFINITY,
        f64::MIN_POSITIVE,
        123456.4999999,
        123456.5000001,
    ];
    // Every double next to each half and each integer of many magnitudes, and a
    // sweep over fractions.
    let halves = (0..62).flat_map(|e| {
        let m = (1u64 << e) as f64;
        [m - 0.5, m + 0.5, m, m - 1.0, m + 1.0]
            .into_iter()
            .flat_map(|x| {
                [
                    x,
                    f64::from_bits(x.to_bits() + 1),
                    f64::from_bits(x.to_bits().saturating_sub(1)),
                ]
            })
    });
    let sweep = (0..20_000).map(|i| (i as f64 - 10_000.0) * 0.0625 + 1e-9 * i as f64);
    for x in edges.into_iter().chain(halves).chain(sweep) {
        for x in [x, -x] {
            assert_eq!(rounded_count(x), x.round().max(0.0) as u64, "{x}");
        }
    }
    assert_eq!(rounded_count(f64::NAN), 0);
}

/// A xorshift generator of 64-bit values from `seed` (not 0): the same values every run.
fn xorshift(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// Three accesses' moves summed for a lane give what each access's moves give in turn,
/// value for value: moves of both signs (a negative whole count leaves the lanes to the
/// moves in turn), lanes that reach 0 part way, values past the shortcut's limit, and
/// executions that repeat from lane to lane (the kept sum) or change.
#[test]
fn summed_moves_are_the_moves_in_turn() {
    let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
    let mut values = vec![0u64, 1, 5, 40, 1000, 123_456, (1 << 40) - 1];
    values.extend([9000; 8]);
    values.push(1 << 41);
    let (mut lanes, mut at_once_count) = (0, 0);
    // A move in twenty takes a negative count; some land on a half (no whole count).
    let mut bys = vec![0.0, 0.37, 1.2, 2.3, 12.0, 700.1, 0.7, 3.8, 9.9, 2.5];
    bys.extend([1.1; 9]);
    bys.push(-3.0);
    for _ in 0..300 {
        let moves: Vec<Moves> = (0..3)
            .map(|_| {
                let by = |n: u64| bys[(n % bys.len() as u64) as usize];
                Moves::new(vec![(0, by(next())), (2, by(next()))])
            })
            .collect();
        let dense: Vec<_> = moves.iter().map(|m| m.dense(4)).collect();
        let mut summed = SummedMoves::new(&dense);
        for _ in 0..20 {
            lanes += 1;
            let runs: Vec<u64> = (0..3)
                .map(|_| [0, 1, 2, 3, 8, 8, 8, 70][(next() % 8) as usize])
                .collect();
            let lane: Vec<u64> = (0..4)
                .map(|_| values[(next() % values.len() as u64) as usize] + next() % 3)
                .collect();
            let mut in_turn = lane.clone();
            for ((m, d), &r) in moves.iter().zip(&dense).zip(&runs) {
                m.apply_dense(d, &mut in_turn, r);
            }
            let mut at_once = lane.clone();
            if summed.apply(runs.iter().copied(), &mut at_once) {
                at_once_count += 1;
            } else {
                assert_eq!(at_once, lane, "a lane not moved at once is left as it was");
                for ((m, d), &r) in moves.iter().zip(&dense).zip(&runs) {
                    m.apply_dense(d, &mut at_once, r);
                }
            }
            assert_eq!(at_once, in_turn, "{lane:?} for {runs:?}");
        }
    }
    // Both ways were taken, each often.
    assert!(
        at_once_count > lanes / 5 && at_once_count < lanes * 4 / 5,
        "{at_once_count} of {lanes}"
    );
}

/// The whole-count shortcut gives what rounding each value gives, value for value: moves
/// of every fraction (those next to a half too, both signs), values small and large
/// (past the shortcut's limit, and ones a move takes below zero), executions below and
/// past the precomputed ones.
#[test]
fn whole_moves_are_the_rounded_ones() {
    let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
    let mut bys: Vec<f64> = (0..400)
        .map(|i| (i as f64 - 200.0) * 0.37 + (i % 7) as f64 * 0.125)
        .collect();
    // Moves whose multiples land on a half, or a hair beside one.
    for h in [0.5f64, 1.5, 2.5, 0.25, 0.125, 1.0 / 3.0] {
        for x in [h, -h] {
            bys.extend([
                x,
                f64::from_bits(x.to_bits() + 1),
                f64::from_bits(x.to_bits() - 1),
            ]);
        }
    }
    let values = [
        0,
        1,
        2,
        3,
        1000,
        123_456_789,
        (1 << 40) - 1,
        1 << 40,
        1 << 52,
    ];
    for by in bys {
        // Value 3 is not moved: the dense form takes 0 from it.
        let moved = vec![(0, by), (1, by * 3.0), (2, -by / 7.0)];
        let whole = Moves::new(moved.clone());
        let dense = whole.dense(4);
        for runs in [0, 1, 2, 3, 5, 8, 31, 63, 64, 65, 1000] {
            for _ in 0..8 {
                let rec: Vec<u64> = (0..4)
                    .map(|_| values[(next() % values.len() as u64) as usize] + next() % 3)
                    .collect();
                let (mut a, mut b, mut c) = (rec.clone(), rec.clone(), rec.clone());
                apply(&mut a, runs, &moved);
                whole.apply(&mut b, runs);
                whole.apply_dense(&dense, &mut c, runs);
                assert_eq!(a, b, "{rec:?} less {runs} x {moved:?}");
                assert_eq!(a, c, "{rec:?} less {runs} x {moved:?}, dense");
            }
        }
    }
}

#[test]
fn consecutive_words_are_one_line_and_four_sectors() {
    let a: Vec<i64> = (0..32).map(|l| l * 4).collect();
    assert_eq!(warp_access(&a, 4, false), (1, 4));
    // Eight bytes a lane: two lines, eight sectors.
    let a: Vec<i64> = (0..32).map(|l| l * 8).collect();
    assert_eq!(warp_access(&a, 8, false), (2, 8));
}

proptest::proptest! {
    /// Lines and sectors are the distinct 128- and 32-byte blocks the lanes' bytes fall
    /// in, counted byte by byte here (negative addresses and lanes that straddle blocks
    /// included).
    #[test]
    fn a_warp_access_counts_the_blocks_its_bytes_fall_in(
        addresses in proptest::collection::vec(-4096i64..4096, 1..40),
        width in 1u32..40,
    ) {
        let blocks = |size: i64| {
            let mut set = std::collections::BTreeSet::new();
            for &a in &addresses {
                for byte in a..a + i64::from(width) {
                    set.insert(byte.div_euclid(size));
                }
            }
            set.len() as u32
        };
        proptest::prop_assert_eq!(warp_access(&addresses, width, false), (blocks(128), blocks(32)));
    }
}

#[test]
fn a_scatter_is_a_line_a_lane() {
    let a: Vec<i64> = (0..32).map(|l| l * 4096 + 12).collect();
    assert_eq!(warp_access(&a, 4, false), (32, 32));
}

#[test]
fn few_lanes_count_lines_and_sectors_as_sets_do() {
    // Gathers of 1 to 64 lanes, each moving 1 to 128 bytes from anywhere in 64 KiB (a
    // value may straddle two sectors), against the distinct sectors and lines every
    // byte they move falls in.
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = |m: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % m
    };
    for _ in 0..2000 {
        let lanes = 1 + next(64) as usize;
        let width = [1, 2, 4, 8, 12, 16, 32, 64, 128][next(9) as usize];
        let addresses: Vec<i64> = (0..lanes).map(|_| next(1 << 16) as i64).collect();
        let bytes = || addresses.iter().flat_map(|&a| a..a + i64::from(width));
        let sectors: std::collections::BTreeSet<i64> = bytes().map(|b| b / SECTOR).collect();
        let lines: std::collections::BTreeSet<i64> = bytes().map(|b| b / LINE).collect();
        assert_eq!(
            warp_access(&addresses, width, false),
            (lines.len() as u32, sectors.len() as u32),
            "{lanes} lanes of {width} bytes at {addresses:?}"
        );
    }
}

#[test]
fn shared_banks_count_the_most_words_on_one_bank() {
    let conflict_free: Vec<i64> = (0..32).map(|l| l * 4).collect();
    assert_eq!(warp_access(&conflict_free, 4, true).0, 1);
    // A 32-word stride puts every lane on bank 0.
    let column: Vec<i64> = (0..32).map(|l| l * 128).collect();
    assert_eq!(warp_access(&column, 4, true).0, 32);
    // One word read by every lane is a broadcast.
    assert_eq!(warp_access(&[64; 32], 4, true).0, 1);
    // Stride 2 words: lanes 0 and 16 share bank 0.
    let two: Vec<i64> = (0..32).map(|l| l * 8).collect();
    assert_eq!(warp_access(&two, 4, true).0, 2);
}

#[test]
fn warps_follow_local_ids_within_each_group() {
    let warps = |g: &LaunchGeometry| {
        let mut w: Vec<Vec<u64>> = Vec::new();
        for_each_warp(g, 32, |ids| w.push(ids.to_vec()));
        w
    };
    let w = warps(&geometry(96, 48));
    assert_eq!(w.len(), 4);
    assert_eq!(w[0], (0..32).collect::<Vec<_>>());
    assert_eq!(w[1], (32..48).collect::<Vec<_>>());
    assert_eq!(w[2], (48..80).collect::<Vec<_>>());
    // Two dimensions: a 4x16 group of a 8x16 grid is two warps of two rows each.
    let g = LaunchGeometry {
        global: [8, 16, 1],
        local: [4, 16, 1],
    };
    let first = warps(&g).remove(0);
    assert_eq!(&first[..8], &[0, 1, 2, 3, 8, 9, 10, 11]);
}

fn access(shared: bool) -> SampledAccess {
    SampledAccess {
        line: 3,
        column: 9,
        shared,
        local: false,
        element_bytes: 4,
        width: 4,
        charged_transactions: 32.0,
        charged_sectors: 32.0,
        cycles_per_transaction: 2.0,
        usage_per_transaction: vec![0.0, 1.0],
        usage_per_sector: vec![0.0, 0.5],
        param: Some(1),
        l1_cycles: 0.0,
        loop_lines: 0,
        loop_peers: Vec::new(),
    }
}

/// The records of these tests: `[t, issue, mem]`, then one sampled access's counters
/// at 3.
const SIX: RecordFormat = RecordFormat {
    resources: 2,
    arms: 0,
    profile_counters: 0,
    sampled_accesses: 1,
};

/// Records `[t, issue, mem, count, first, last]` per work-item, the same index first
/// and last.
fn records(first: impl Fn(u64) -> u64, n: u64) -> Vec<u64> {
    (0..n)
        .flat_map(|i| [1000, 10, 10_000, 5, first(i), first(i)])
        .collect()
}

#[test]
fn kept_lanes_measure_as_their_work_items_records_do() {
    // 64 work-items in one group, two warps; the work-items 0..4, 31 and 40 ran the
    // access once, at indices 1025 + i (the others never): kept whole, the rest reduced.
    // Warp 0's lanes 0..4 and 31 touch 1025..1029 and 1056, one line (bytes 4100..4116
    // and 4224, lines 32 and 33: two) and two sectors; warp 1's one lane one of each.
    let g = geometry(64, 64);
    let arch = Architecture::load("gtx480").unwrap();
    let r = arch.resources().len();
    let format = RecordFormat {
        sampled_accesses: 1,
        ..RecordFormat::timing(r, 0)
    };
    let ran = |i: u64| i < 4 || i == 31 || i == 40;
    // `[t, usage.., runs, first, last]`.
    let item = |i: u64| {
        let runs = u64::from(ran(i));
        let index = runs * (i + 1025);
        let mut rec = vec![1000];
        rec.extend(std::iter::repeat_n(10_000, r));
        rec.extend([runs, index, index]);
        rec
    };
    let layout = g.kept_lanes(&format, arch.warp_size);
    let mut data = vec![0u64; layout.device_words() as usize];
    let mut at = layout.region() + 1;
    for i in (0..64).filter(|&i| ran(i)) {
        data[layout.masks().start + i as usize / 32] |= 1 << (i % 32);
        data[at..at + format.work_item_stride()].copy_from_slice(&item(i));
        at += format.work_item_stride();
    }
    let resources = KernelResources::default();
    let launch = launch(&arch, &g, &resources);
    let samples = [(format.sample_offset(0), access(false))];
    let (_, measured) = warp_records(&data, &format, &samples, &launch);
    let m = measured[0].unwrap();
    // Per warp, first and last alike: warp 0 two lines and two sectors, warp 1 one of
    // each; each warp ran it once, so the mean is (2 + 1) / 2.
    assert_eq!(m.warps, 2);
    assert_eq!((m.transactions, m.sectors), (1.5, 1.5));
    // As the work-items' own records measure.
    let all: Vec<u64> = (0..64).flat_map(item).collect();
    let own = measure(
        &access(false),
        &g,
        32,
        &all,
        &format,
        format.sample_offset(0),
    )
    .unwrap();
    assert_eq!((own.warps, own.transactions, own.sectors), (2, 1.5, 1.5));
}

#[test]
fn a_chase_that_stays_coalesced_is_charged_one_line() {
    let g = geometry(64, 64);
    let data = records(|i| i + 1025, 64);
    let m = measure(&access(false), &g, 32, &data, &SIX, 3).unwrap();
    // Indices 1025..1056 and 1057..1088: 128 bytes each, straddling two lines.
    assert_eq!(m.warps, 2);
    assert_eq!(m.transactions, 2.0);
    assert_eq!(m.sectors, 5.0);
    let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
    let moved = moves(&access(false), &m, 2, &[], &SIX);
    for (rec, raw) in timing.chunks_exact_mut(3).zip(data.chunks_exact(6)) {
        apply(rec, raw[3], &moved);
    }
    // Five executions, 30 requests and 27 sectors fewer each: 2 cycles a request, and
    // usage 1 a request plus 0.5 a sector (x 2 units a cycle).
    assert_eq!(timing[0], 1000 - 5 * 60);
    assert_eq!(timing[1], 10);
    assert_eq!(timing[2], 10_000 - 5 * 2 * 43 - 5);
}

#[test]
fn lanes_that_never_ran_it_are_left_out() {
    let g = geometry(32, 32);
    let mut data = records(|i| i * 1024, 32);
    for (i, rec) in data.chunks_mut(6).enumerate() {
        if i % 2 == 1 {
            rec[3] = 0;
        }
    }
    let m = measure(&access(false), &g, 32, &data, &SIX, 3).unwrap();
    assert_eq!(m.transactions, 16.0);
    let none = records(|_| 0, 32)
        .chunks(6)
        .flat_map(|r| [r[0], r[1], r[2], 0, 0, 0])
        .collect::<Vec<_>>();
    assert_eq!(measure(&access(false), &g, 32, &none, &SIX, 3), None);
}

#[test]
fn shared_conflicts_add_cycles() {
    let g = geometry(32, 32);
    let data = records(|i| i * 32, 32);
    let mut a = access(true);
    a.charged_transactions = 1.0;
    a.charged_sectors = 0.0;
    let m = measure(&a, &g, 32, &data, &SIX, 3).unwrap();
    assert_eq!(m.transactions, 32.0);
    let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
    let moved = moves(&a, &m, 1, &[], &SIX);
    for (rec, raw) in timing.chunks_exact_mut(3).zip(data.chunks_exact(6)) {
        apply(rec, raw[3], &moved);
    }
    assert_eq!(timing[0], 1000 + 5 * 31 * 2);
    assert_eq!(timing[2], 10_000 + 5 * 31);
}

/// Records `[t, issue, mem, count, first, last]` of a 2D launch whose groups repeat
/// each other in runs along x (a `__local` array indexed by local ids), except where
/// `kind` differs, with lanes that skip the access, and a partial last column and row.
fn alike_groups(g: &LaunchGeometry, kind: impl Fn(u64, u64) -> u64) -> Vec<u64> {
    let [gx, gy, _] = g.global;
    let [lx, ly, _] = g.local;
    let mut data = Vec::new();
    for y in 0..gy {
        for x in 0..gx {
            let (k, lid) = (kind(x / lx, y / ly), (y % ly) * lx + x % lx);
            let first = (lid * (2 * k + 1)) % 97;
            let runs = u64::from((lid + k) % 5 != 0) * (1 + k);
            data.extend([1000 + lid % 3, 10, 10_000, runs, first, first + 32 * k]);
        }
    }
    data
}

/// What the warps did at the access, measured here warp by warp without any reuse.
fn measured_by_hand(g: &LaunchGeometry, a: &SampledAccess, data: &[u64]) -> Measured {
    let (mut weight, mut transactions, mut sectors, mut warps) = (0.0, 0.0, 0.0, 0);
    let mut hits = 0.0;
    for_each_warp(g, 32, |warp| {
        let ran: Vec<&[u64]> = warp
            .iter()
            .map(|&id| &data[id as usize * 6..][..6])
            .filter(|r| r[3] > 0)
            .collect();
        let Some(runs) = ran.iter().map(|r| r[3]).max() else {
            return;
        };
        let at = |k: usize| ran.iter().map(|r| r[k] as i64 * 4).collect::<Vec<_>>();
        let (t1, s1) = warp_access(&at(4), a.width, a.shared);
        let (t2, s2) = warp_access(&at(5), a.width, a.shared);
        weight += runs as f64;
        transactions += runs as f64 * f64::from(t1 + t2) / 2.0;
        sectors += runs as f64 * f64::from(s1 + s2) / 2.0;
        hits += stream_misses(&at(4), &at(5), runs, LINE).map_or(0.0, |m| runs as f64 - m);
        warps += 1;
    });
    Measured {
        transactions: transactions / weight,
        sectors: sectors / weight,
        warps,
        stream_hits: hits / weight,
        l1_share: 0.0,
        set_lines: 0,
        executions: weight,
    }
}

#[test]
fn groups_alike_measure_and_correct_as_each_on_its_own() {
    let g = LaunchGeometry {
        global: [150, 11, 1],
        local: [32, 4, 1],
    };
    // Runs of two or three alike groups along x, another kind on the second row.
    let kind = |bx: u64, by: u64| (bx / 2 + by) % 3;
    let mut data = alike_groups(&g, kind);
    // Group (1, 0), alike to (0, 0) but for one work-item of its last row: another
    // index, and another `t`.
    let i = (3 * 150 + 32 + 5) * 6;
    data[i + 4] += 64;
    data[i] += 1;
    let arch = Architecture::load("gtx480").unwrap();
    let resources = KernelResources::default();
    let launch = launch(&arch, &g, &resources);
    for shared in [true, false] {
        let mut a = access(shared);
        a.usage_per_transaction = vec![0.3, 1.7];
        let expected = measured_by_hand(&g, &a, &data);
        assert_eq!(measure(&a, &g, 32, &data, &SIX, 3), Some(expected));
        // Packed in place, reusing alike records' corrections, against a copy each
        // record of which is corrected on its own.
        let samples = [(3, a)];
        let mut timing: Vec<u64> = data.chunks(6).flat_map(|r| r[..3].to_vec()).collect();
        let whole = launch.correct_all(&samples, &data, &SIX, &mut timing);
        let mut packed = data.clone();
        let measured = launch.correct_all_packed(&samples, &mut packed, &SIX);
        assert_eq!(measured, whole);
        assert_eq!(&packed[..timing.len()], &timing[..]);
        assert_ne!(
            timing,
            data.chunks(6)
                .flat_map(|r| r[..3].to_vec())
                .collect::<Vec<_>>()
        );
    }
}

/// A partial last group whose work-items repeat the first ones of the (whole) group to
/// its left is measured on its own: fewer lanes, other requests.
#[test]
fn a_partial_group_is_not_its_whole_neighbour() {
    let g = LaunchGeometry {
        global: [80, 1, 1],
        local: [32, 1, 1],
    };
    let data = alike_groups(&g, |_, _| 0);
    for shared in [true, false] {
        let a = access(shared);
        assert_eq!(
            measure(&a, &g, 32, &data, &SIX, 3),
            Some(measured_by_hand(&g, &a, &data))
        );
    }
}

#[test]
fn lanes_walking_their_own_rows_find_their_lines_held() {
    // 32 lanes, each its own row of 2,112 bytes (528 floats), walking 128 floats one at a
    // time: 4 bytes a step. Rows start at 0 or 64 bytes into a 128-byte line (2,112 =
    // 16.5 lines): two phases. Each lane crosses 4 line boundaries over its 512 bytes
    // (from 64: lines 0..4; from 0: lines 0..3, 3 crossings): 1 + 4 x 2 = 9 of the 128
    // executions enter a line nobody held.
    let first: Vec<i64> = (0..32).map(|lane| lane * 2112).collect();
    let last: Vec<i64> = first.iter().map(|f| f + 127 * 4).collect();
    assert_eq!(stream_misses(&first, &last, 128, 128), Some(9.0));
    // Filled 32 bytes at a time (an H100's L1 sectors): every row starts on a sector
    // boundary (one phase), 512 bytes cross 15: 1 + 15.
    assert_eq!(stream_misses(&first, &last, 128, 32), Some(16.0));
    // Aligned rows (2,048 bytes): one phase, 3 crossings.
    let aligned: Vec<i64> = (0..32).map(|lane| lane * 2048).collect();
    let end: Vec<i64> = aligned.iter().map(|f| f + 127 * 4).collect();
    assert_eq!(stream_misses(&aligned, &end, 128, 128), Some(4.0));
    // A step of a whole line (a column walk): no execution finds its line held.
    let column: Vec<i64> = aligned.iter().map(|f| f + 127 * 128).collect();
    assert_eq!(stream_misses(&aligned, &column, 128, 128), None);
    // Run once: nothing to reuse.
    assert_eq!(stream_misses(&aligned, &aligned, 1, 128), None);
}

/// A warp's gather measured at 32 lines and 32 sectors, the L1 holding its lines in the
/// share `held` of its executions.
fn gather_held(held: f64) -> Measured {
    Measured {
        transactions: 32.0,
        sectors: 32.0,
        warps: 1,
        stream_hits: held,
        l1_share: held,
        set_lines: 0,
        executions: 0.0,
    }
}

#[test]
fn an_access_the_l1_serves_in_part_moves_that_share_of_its_latency_and_bytes() {
    // Charged a gather (32 lines, 32 sectors) at 250 cycles past the L1 (l1_cycles 200),
    // measured 32 lines, 32 sectors, the L1 holding 3 in 4 executions: each execution
    // saves 0.75 x 200 cycles and 3/4 of its memory-side usage.
    let access = SampledAccess {
        cycles_per_transaction: 1.0,
        usage_per_transaction: vec![0.0, 0.0],
        usage_per_sector: vec![0.0, 4.0],
        param: None,
        l1_cycles: 200.0,
        ..access(false)
    };
    let moved = moves(&access, &gather_held(0.75), 1, &[1], &SIX);
    assert_eq!(
        moved,
        [(RecordFormat::T, 150.0), (SIX.usage(1), 0.75 * 32.0 * 4.0)]
    );
}

#[test]
fn an_access_the_l1_serves_brings_nothing_through_the_sms_fill_port() {
    // gtx480's resources: issue, ALU, SFU, MEM, fetch, MSHR, fill, L2, DRAM. What the
    // L1 serves moves its charge off the fill port as off the L2 and DRAM bytes.
    let arch = Architecture::load("gtx480").unwrap();
    let g = geometry(64, 64);
    let resources = KernelResources::default();
    let sides = launch(&arch, &g, &resources).memory_sides();
    assert_eq!(sides, [6, 7, 8]);
    assert_eq!(arch.resources()[6], "fill");
    // Charged a gather of 32 lines, 128 bytes each through the port per line; the L1
    // holding all of it: every line's bytes come off.
    let access = SampledAccess {
        cycles_per_transaction: 1.0,
        usage_per_transaction: vec![0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 128.0, 4.0, 4.0],
        usage_per_sector: vec![0.0; 9],
        param: None,
        l1_cycles: 200.0,
        ..access(false)
    };
    let format = RecordFormat::timing(9, 0);
    let moved = moves(&access, &gather_held(1.0), 1, &sides, &format);
    assert_eq!(
        moved,
        [
            (RecordFormat::T, 200.0),
            (format.usage(6), 32.0 * 128.0),
            (format.usage(7), 32.0 * 4.0),
            (format.usage(8), 32.0 * 4.0)
        ]
    );
}

#[test]
fn rows_a_power_of_two_apart_crowd_a_few_l1_sets() {
    use super::measure::{measure_groups, SetProbe};
    use crate::arch::{L1Sets, SetIndex};
    // 256 work-items in groups of 64, each walking its own row of 512 floats (2 KiB
    // apart): 128 steps from the row's start. Two SMs: the first holds groups 0 and 2
    // (rows 0-63 and 128-191).
    let g = geometry(256, 64);
    let data: Vec<u64> = (0..256u64)
        .flat_map(|i| [1000, 10, 10_000, 128, i * 512, i * 512 + 127])
        .collect();
    let a = access(false);
    let probe = |index, resident| SetProbe {
        sets: L1Sets { ways: 4, index },
        count: 32,
        sm_count: 2,
        resident,
    };
    let set_lines = |p: SetProbe| {
        let (m, _) = measure_groups(&[(3, &a)], &g, 32, &data, &SIX, 128, Some(p));
        m[0].unwrap().set_lines
    };
    // Line 16 r of row r. Linear: sets 0 and 16 take 64 lines each.
    assert_eq!(set_lines(probe(SetIndex::Linear, 2)), 64);
    // Fermi hash: bit 11 (r & 1) and bits 13-15 ((r >> 2) & 7) pick 16 sets, four rows
    // each among rows 0-63; rows 128-191 differ from them only in bit 18, which the hash
    // leaves out: eight lines a set.
    assert_eq!(set_lines(probe(SetIndex::FermiHash, 2)), 8);
    assert_eq!(set_lines(probe(SetIndex::FermiHash, 1)), 4);
    // Without sets nothing is counted.
    let (m, _) = measure_groups(&[(3, &a)], &g, 32, &data, &SIX, 128, None);
    assert_eq!(m[0].unwrap().set_lines, 0);
}

#[test]
fn lanes_at_their_own_frame_offsets_take_a_line_per_offset() {
    // `counts[digit]++` in a private array: lane l at word l % 4 of its own frame. The
    // frames are interleaved word by word, so the lanes at one word share a line: four
    // lines, and a sector per eight lanes of a word (lanes 0, 4, ..., 28 of word 0 lie
    // in all four of its sectors): 16 sectors.
    let g = geometry(32, 32);
    let data = records(|i| i % 4, 32);
    let mut a = access(false);
    a.local = true;
    let m = measure(&a, &g, 32, &data, &SIX, 3).unwrap();
    assert_eq!((m.transactions, m.sectors), (4.0, 16.0));
    // All at one word: one line, four sectors, as a coalesced access.
    let same = records(|_| 5, 32);
    let m = measure(&a, &g, 32, &same, &SIX, 3).unwrap();
    assert_eq!((m.transactions, m.sectors), (1.0, 4.0));
}

#[test]
fn a_loops_sampled_loads_bring_the_lines_they_were_measured_at_in_the_steps_they_ran() {
    // A walk run 64 times with 1 line charged as it stands and three sampled peers: one
    // run 16 times at 33 lines (a quarter of the walk's steps: 8.25), one past the
    // record's end (as charged: 32), one that never ran (nothing).
    let walk = SampledAccess {
        loop_lines: 1,
        loop_peers: vec![[10, 5], [11, 5], [12, 5]],
        ..access(false)
    };
    let peer = |line| SampledAccess {
        line,
        column: 5,
        ..access(false)
    };
    let accesses = [
        (3, walk.clone()),
        (6, peer(10)),
        (9, peer(11)),
        (12, peer(12)),
    ];
    let measured = |transactions, executions| Measured {
        transactions,
        sectors: 0.0,
        warps: 2,
        stream_hits: 0.0,
        l1_share: 0.0,
        set_lines: 0,
        executions,
    };
    let m = measured(1.0, 64.0);
    let all = [Some(m), Some(measured(33.0, 16.0)), None, None];
    // Records of 12 values: the third peer's counters (9..12) fit, the fourth's do not.
    assert_eq!(
        loop_lines(&walk, &m, &accesses, &all, 12, &|_| false),
        1.0 + 8.25 + 0.0 + 32.0
    );
    // A peer run more often than the walk counts its lines once a step.
    let all = [Some(m), Some(measured(33.0, 128.0)), None, None];
    assert_eq!(
        loop_lines(&walk, &m, &accesses, &all, 15, &|_| false),
        1.0 + 33.0
    );
}

#[test]
fn a_loops_loads_of_a_buffer_the_l1_holds_bring_no_lines() {
    // `bfs`'s walk of `edgeArray` beside gathers of `levels` (13.8 lines an execution,
    // run in every step): counted as new lines, the gathers fill the walk's set; as hits
    // of a buffer the L1 holds whole, they bring none, and the walk's own line is all.
    let walk = SampledAccess {
        loop_lines: 1,
        loop_peers: vec![[73, 19]],
        ..access(false)
    };
    let gather = SampledAccess {
        line: 73,
        column: 19,
        param: Some(0),
        ..access(false)
    };
    let accesses = [(3, walk.clone()), (6, gather.clone())];
    let measured = |transactions| Measured {
        transactions,
        sectors: 0.0,
        warps: 4,
        stream_hits: 0.0,
        l1_share: 0.0,
        set_lines: 0,
        executions: 32.0,
    };
    let m = measured(1.0);
    let all = [Some(m), Some(measured(13.8))];
    assert_eq!(
        loop_lines(&walk, &m, &accesses, &all, 9, &|_| false),
        1.0 + 13.8
    );
    let held = |a: &SampledAccess| a.param == Some(0);
    assert_eq!(loop_lines(&walk, &m, &accesses, &all, 9, &held), 1.0);
}
